//! Principal variation search (NegaScout): the first move gets the full
//! window, every later move a null window `(alpha, alpha + 1)` that only asks
//! "is it better?"; a move that says yes is searched again with the full
//! window. Fail-soft, with the transposition table and ordering. On several
//! threads, a node's moves are split between them (`abdada.rs`).

use super::abdada::Searched;
use super::node::{FailSoft, Opening};
use super::searcher::Searcher;
use super::tt::Bound;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::cpu::{detect, Baseline, Cpu};

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// PVS value of `pos` at `depth` in the window `(alpha, beta)`, for the
    /// side to move (fail-soft bounds outside the window).
    pub fn pvs(&mut self, pos: &G, alpha: i32, beta: i32, depth: u32, ply: usize) -> i32 {
        match detect() {
            Some(avx2) => self.pvs_on(avx2, pos, alpha, beta, depth, ply),
            None => self.pvs_on(Baseline, pos, alpha, beta, depth, ply),
        }
    }

    /// [`Searcher::pvs`] by the code of path `cpu`.
    pub(super) fn pvs_on<C: Cpu>(
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
                let moves = match self.open_node::<FailSoft, C>(cpu, pos, alpha, beta, depth, ply) {
                    Opening::Settled(v) => return v,
                    Opening::Moves(moves) => moves,
                };
                let alpha0 = alpha;
                if self.splits(depth) {
                    let (best, best_move) =
                        match self.pvs_split(cpu, pos, &moves, alpha, beta, depth, ply) {
                            Searched::Best(v, mv) => (v, mv),
                            Searched::Aborted => return 0,
                        };
                    self.store(pos, depth, Bound::of(best, alpha0, beta), best, best_move);
                    return best;
                }
                let mut best = -INFINITY;
                let mut best_move = moves.get(0);
                for (i, mv) in moves.iter().enumerate() {
                    let d = G::child_depth(mv, depth);
                    let child = pos.play_on(cpu, mv);
                    let mut v;
                    if i == 0 {
                        v = -self.pvs_on(cpu, &child, -beta, -alpha, d, ply + 1);
                    } else {
                        v = -self.pvs_on(cpu, &child, -alpha - 1, -alpha, d, ply + 1);
                        if v > alpha && v < beta && !self.stop.aborted() {
                            self.stats.researches += 1;
                            v = -self.pvs_on(cpu, &child, -beta, -alpha, d, ply + 1);
                        }
                    }
                    if self.stop.aborted() {
                        return 0;
                    }
                    if v > best {
                        best = v;
                        best_move = mv;
                        if ply == 0 {
                            self.root_best = Some(mv);
                        }
                        if v > alpha {
                            alpha = v;
                            if ply == 0 {
                                self.root_proven = Some((mv, v));
                            }
                            self.pv_update(ply, mv);
                            if v >= beta {
                                self.record_cutoff(pos, mv, ply, depth, i == 0);
                                break;
                            }
                        }
                    }
                }
                let bound = Bound::of(best, alpha0, beta);
                self.store(pos, depth, bound, best, best_move);
                best
            },
        )
    }
}
