//! Principal variation search (NegaScout): the first move gets the full
//! window, every later move a null window `(alpha, alpha + 1)` that only asks
//! "is it better?"; a move that says yes is searched again with the full
//! window. Fail-soft, with the transposition table and ordering.

use super::alphabeta::Probe;
use super::searcher::Searcher;
use super::tt::Bound;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::MoveList;

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// PVS value of `pos` at `depth` in the window `(alpha, beta)`, for the
    /// side to move (fail-soft bounds outside the window).
    pub fn pvs(&mut self, pos: &G, mut alpha: i32, beta: i32, depth: u32, ply: usize) -> i32 {
        self.pv_clear(ply);
        if self.visit() {
            return 0;
        }
        if ply == 0 {
            self.root_best = None;
        }
        if depth == 0 {
            return self.horizon(pos);
        }
        let hash_move = match self.probe(pos, alpha, beta, depth, ply) {
            Probe::Cutoff(v) => return v,
            Probe::Search(m) => m,
        };
        if let Some(v) = self.probcut(pos, alpha, beta, depth, ply) {
            return v;
        }
        let mut moves = MoveList::new();
        self.ordered_moves(pos, &mut moves, ply, depth, hash_move);
        if moves.is_empty() {
            return self.terminal(pos);
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = moves.get(0);
        for (i, mv) in moves.iter().enumerate() {
            let d = if G::is_pass(mv) { depth } else { depth - 1 };
            let child = pos.play(mv);
            let mut v;
            if i == 0 {
                v = -self.pvs(&child, -beta, -alpha, d, ply + 1);
            } else {
                v = -self.pvs(&child, -alpha - 1, -alpha, d, ply + 1);
                if v > alpha && v < beta && !self.stop.aborted() {
                    self.stats.researches += 1;
                    v = -self.pvs(&child, -beta, -alpha, d, ply + 1);
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
    }
}
