//! What the solver's shallow searches (move ordering, the cut model's
//! tests) evaluate their leaves with, and what they carry down to them.
//!
//! A pattern evaluation carries its instance readings ([`Configs`]): each
//! child's come from the move's square and flips, and a leaf is scored
//! from its readings without reading the board again. Other evaluations
//! carry nothing and score the board. Both give the same values (a test in
//! `ordering.rs` holds the two paths to the same values and nodes).

use crate::eval::patterns::{Configs, Patterns};
use crate::eval::OthelloEval;
use crate::game::cpu::Cpu;

/// An evaluation at the shallow searches' leaves.
pub(super) trait Leaves {
    /// What a position carries for its leaves.
    type State: Copy;

    /// The state of `p` to move against `o`, from the board.
    fn root(&self, p: u64, o: u64) -> Self::State;

    /// The state after the side to move of `s` plays `sq`, flipping `flips`.
    fn child(&self, s: &Self::State, sq: usize, flips: u64) -> Self::State;

    /// The state after a pass.
    fn passed(&self, s: &Self::State) -> Self::State;

    /// The value (centidiscs) of `p` to move against `o`, whose state is
    /// `s` and whose legal moves are `own` and the opponent's `theirs`.
    #[allow(clippy::too_many_arguments)] // the hot path: plain values and the code path's token
    fn value<C: Cpu>(&self, cpu: C, s: &Self::State, p: u64, o: u64, own: u64, theirs: u64) -> i32;
}

impl Leaves for Patterns {
    type State = Configs;

    #[inline(always)]
    fn root(&self, p: u64, o: u64) -> Configs {
        Configs::of(p, o)
    }

    #[inline(always)]
    fn child(&self, s: &Configs, sq: usize, flips: u64) -> Configs {
        s.after(sq, flips)
    }

    #[inline(always)]
    fn passed(&self, s: &Configs) -> Configs {
        s.passed()
    }

    #[inline(always)]
    fn value<C: Cpu>(&self, cpu: C, s: &Configs, p: u64, o: u64, own: u64, theirs: u64) -> i32 {
        self.evaluate_configs_on(cpu, s, p, o, own, theirs)
    }
}

/// Any evaluation, scoring the board at each leaf.
impl Leaves for OthelloEval {
    type State = ();

    #[inline(always)]
    fn root(&self, _: u64, _: u64) {}

    #[inline(always)]
    fn child(&self, _: &(), _: usize, _: u64) {}

    #[inline(always)]
    fn passed(&self, _: &()) {}

    #[inline(always)]
    fn value<C: Cpu>(&self, cpu: C, _: &(), p: u64, o: u64, own: u64, theirs: u64) -> i32 {
        self.evaluate_moves_on(cpu, p, o, own, theirs)
    }
}

/// No evaluation: every leaf is worth 0.
pub(super) struct NoEval;

impl Leaves for NoEval {
    type State = ();

    #[inline(always)]
    fn root(&self, _: u64, _: u64) {}

    #[inline(always)]
    fn child(&self, _: &(), _: usize, _: u64) {}

    #[inline(always)]
    fn passed(&self, _: &()) {}

    #[inline(always)]
    fn value<C: Cpu>(&self, _: C, _: &(), _: u64, _: u64, _: u64, _: u64) -> i32 {
        0
    }
}
