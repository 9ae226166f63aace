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
    fn value<C: Cpu>(&self, cpu: C, s: &Self::State, p: u64, o: u64, own: u64, theirs: u64) -> i32;
}

impl Leaves for Patterns {
    type State = Configs;

    #[inline(always)]
    fn root(&self, p: u64, o: u64) -> Configs {
        self.configs_of(p, o)
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

/// An evaluation that carries nothing and scores the board at each leaf:
/// its [`Leaves`] follow from its value alone.
pub(super) trait BoardLeaves {
    /// The value (centidiscs) of `p` to move against `o`, whose legal
    /// moves are `own` and the opponent's `theirs`.
    fn board_value<C: Cpu>(&self, cpu: C, p: u64, o: u64, own: u64, theirs: u64) -> i32;
}

impl<E: BoardLeaves> Leaves for E {
    type State = ();

    #[inline(always)]
    fn root(&self, _: u64, _: u64) {}

    #[inline(always)]
    fn child(&self, _: &(), _: usize, _: u64) {}

    #[inline(always)]
    fn passed(&self, _: &()) {}

    #[inline(always)]
    fn value<C: Cpu>(&self, cpu: C, _: &(), p: u64, o: u64, own: u64, theirs: u64) -> i32 {
        self.board_value(cpu, p, o, own, theirs)
    }
}

/// Any evaluation, scoring the board at each leaf.
impl BoardLeaves for OthelloEval {
    #[inline(always)]
    fn board_value<C: Cpu>(&self, cpu: C, p: u64, o: u64, own: u64, theirs: u64) -> i32 {
        self.evaluate_moves_on(cpu, p, o, own, theirs)
    }
}

/// No evaluation: every leaf is worth 0.
pub(super) struct NoEval;

impl BoardLeaves for NoEval {
    #[inline(always)]
    fn board_value<C: Cpu>(&self, _: C, _: u64, _: u64, _: u64, _: u64) -> i32 {
        0
    }
}

/// Runs `$body` with `$leaves` and `$state` bound to the [`Leaves`] of
/// `$eval` (an [`OthelloEval`]) and the state of `$p` to move against
/// `$o`: the one place that says which evaluation carries what (pattern
/// tables their readings, the others nothing). A macro, not a function,
/// because the body is generic over the evaluation's type.
macro_rules! with_leaves {
    ($eval:expr, $p:expr, $o:expr, |$leaves:ident, $state:ident| $body:expr) => {
        match $eval {
            $crate::eval::OthelloEval::Patterns(e) => {
                let ($leaves, $state) = (e, $crate::endgame::leaves::Leaves::root(e, $p, $o));
                $body
            }
            e @ ($crate::eval::OthelloEval::Discs
            | $crate::eval::OthelloEval::Squares(_)
            | $crate::eval::OthelloEval::Features(_)) => {
                let ($leaves, $state) = (e, ());
                $body
            }
        }
    };
}
pub(super) use with_leaves;
