//! Alpha-beta pruning, in its two classic forms, both in negamax style and
//! both able to use the transposition table and move ordering:
//!
//! - **fail-hard** returns a value inside the window `[alpha, beta]`: beta on
//!   a cutoff, alpha when no move beats alpha;
//! - **fail-soft** returns the best value found even outside the window, so
//!   a result `<= alpha` is an upper bound, `>= beta` a lower bound, and one
//!   strictly inside is exact.

use super::node::{FailHard, FailSoft, Opening};
use super::searcher::{Searcher, SoftNode};
use super::tt::Bound;
use super::{Evaluator, SearchGame};
use crate::game::cpu::{detect, Baseline, Cpu};

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Fail-soft alpha-beta value of `pos` at `depth` in the window
    /// `(alpha, beta)`, for the side to move.
    pub fn alphabeta_soft(
        &mut self,
        pos: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        match detect() {
            Some(avx2) => self.alphabeta_soft_on(avx2, pos, alpha, beta, depth, ply),
            None => self.alphabeta_soft_on(Baseline, pos, alpha, beta, depth, ply),
        }
    }

    /// Fail-hard alpha-beta value of `pos` at `depth` in the window
    /// `[alpha, beta]`, for the side to move.
    pub fn alphabeta_hard(
        &mut self,
        pos: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        match detect() {
            Some(avx2) => self.alphabeta_hard_on(avx2, pos, alpha, beta, depth, ply),
            None => self.alphabeta_hard_on(Baseline, pos, alpha, beta, depth, ply),
        }
    }

    /// Fail-soft alpha-beta value of `pos` at `depth` in the window
    /// `(alpha, beta)`, for the side to move.
    pub(super) fn alphabeta_soft_on<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                let (mut moves, rest) =
                    match self.open_node::<FailSoft, C>(cpu, pos, alpha, beta, depth, ply) {
                        Opening::Settled(v) => return v,
                        Opening::Moves(moves, rest) => (moves, rest),
                    };
                let alpha0 = alpha;
                let mut node = SoftNode::new(moves.get(0), alpha, beta, depth, ply);
                for i in 0..moves.len() {
                    if i == 1 {
                        self.sort_rest(cpu, pos, &mut moves, rest, ply, depth);
                    }
                    let mv = moves.get(i);
                    let d = G::child_depth(mv, depth);
                    let v = -self.alphabeta_soft_on(
                        cpu,
                        &pos.play_on(cpu, mv),
                        -beta,
                        -node.alpha,
                        d,
                        ply + 1,
                    );
                    if self.stop.aborted() {
                        return 0;
                    }
                    if self.take_soft(&mut node, pos, i, mv, v) {
                        break;
                    }
                }
                let (best, best_move) = (node.best, node.best_move);
                let bound = Bound::of(best, alpha0, beta);
                self.store(pos, depth, bound, best, best_move);
                best
            },
        )
    }

    /// Fail-hard alpha-beta value of `pos` at `depth`, clamped to
    /// `[alpha, beta]`, for the side to move.
    pub(super) fn alphabeta_hard_on<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                let (mut moves, rest) =
                    match self.open_node::<FailHard, C>(cpu, pos, alpha, beta, depth, ply) {
                        Opening::Settled(v) => return v,
                        Opening::Moves(moves, rest) => (moves, rest),
                    };
                let mut best_move = moves.get(0);
                let mut exact = false;
                if ply == 0 {
                    self.root_best = Some(best_move);
                }
                for i in 0..moves.len() {
                    if i == 1 {
                        self.sort_rest(cpu, pos, &mut moves, rest, ply, depth);
                    }
                    let mv = moves.get(i);
                    let d = G::child_depth(mv, depth);
                    let v = -self.alphabeta_hard_on(
                        cpu,
                        &pos.play_on(cpu, mv),
                        -beta,
                        -alpha,
                        d,
                        ply + 1,
                    );
                    if self.stop.aborted() {
                        return 0;
                    }
                    if v >= beta {
                        if ply == 0 {
                            self.root_best = Some(mv);
                            self.root_proven = Some((mv, beta));
                        }
                        self.record_cutoff(pos, mv, ply, depth, i == 0);
                        self.store(pos, depth, Bound::Lower, beta, mv);
                        return beta;
                    }
                    if v > alpha {
                        alpha = v;
                        exact = true;
                        best_move = mv;
                        self.pv_update(ply, mv);
                        if ply == 0 {
                            self.root_best = Some(mv);
                            self.root_proven = Some((mv, v));
                        }
                    }
                }
                let bound = if exact { Bound::Exact } else { Bound::Upper };
                self.store(pos, depth, bound, alpha, best_move);
                alpha
            },
        )
    }
}
