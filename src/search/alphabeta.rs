//! Alpha-beta pruning, in its two classic forms, both in negamax style and
//! both able to use the transposition table and move ordering:
//!
//! - **fail-hard** returns a value inside the window `[alpha, beta]`: beta on
//!   a cutoff, alpha when no move beats alpha;
//! - **fail-soft** returns the best value found even outside the window, so
//!   a result `<= alpha` is an upper bound, `>= beta` a lower bound, and one
//!   strictly inside is exact.

use super::searcher::Searcher;
use super::tt::Bound;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::MoveList;

/// What a transposition-table probe gave a node.
pub(super) enum Probe<M> {
    /// The stored bound settles the node with this value.
    Cutoff(i32),
    /// Search the node, this move first if there is one.
    Search(Option<M>),
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Looks `pos` up in the table (if any). Never cuts at the root, so the
    /// root always has a best move.
    #[inline]
    pub(super) fn probe(
        &mut self,
        pos: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> Probe<G::Move> {
        let Some(tt) = &self.tt else {
            return Probe::Search(None);
        };
        self.stats.tt_probes += 1;
        let Some(e) = tt.probe(pos.hash()) else {
            return Probe::Search(None);
        };
        self.stats.tt_hits += 1;
        if ply > 0 && u32::from(e.depth) >= depth && e.bound.cuts(e.score, alpha, beta) {
            self.stats.tt_cutoffs += 1;
            return Probe::Cutoff(e.score);
        }
        Probe::Search(Some(G::move_from_slot(usize::from(e.best))))
    }

    /// Stores a node's result, if there is a table.
    #[inline]
    pub(super) fn store(&mut self, pos: &G, depth: u32, bound: Bound, score: i32, best: G::Move) {
        if let Some(tt) = &mut self.tt {
            tt.store(pos.hash(), depth, bound, score, G::move_slot(best) as u8);
        }
    }

    /// Value at a depth-0 node: the evaluation, or the exact score of a
    /// finished game.
    #[inline]
    pub(super) fn horizon(&mut self, pos: &G) -> i32 {
        if pos.is_over() {
            self.terminal(pos)
        } else {
            self.eval.evaluate(pos)
        }
    }

    /// Fail-soft alpha-beta value of `pos` at `depth` in the window
    /// `(alpha, beta)`, for the side to move.
    pub fn alphabeta_soft(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
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
            let v = -self.alphabeta_soft(&pos.play(mv), -beta, -alpha, d, ply + 1);
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

    /// Fail-hard alpha-beta value of `pos` at `depth`, clamped to
    /// `[alpha, beta]`, for the side to move.
    pub fn alphabeta_hard(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        self.pv_clear(ply);
        if self.visit() {
            return 0;
        }
        if ply == 0 {
            self.root_best = None;
        }
        if depth == 0 {
            return self.horizon(pos).clamp(alpha, beta);
        }
        let hash_move = match self.probe(pos, alpha, beta, depth, ply) {
            Probe::Cutoff(v) => return v.clamp(alpha, beta),
            Probe::Search(m) => m,
        };
        if let Some(v) = self.probcut(pos, alpha, beta, depth, ply) {
            return v;
        }
        let mut moves = MoveList::new();
        self.ordered_moves(pos, &mut moves, ply, depth, hash_move);
        if moves.is_empty() {
            return self.terminal(pos).clamp(alpha, beta);
        }
        let mut best_move = moves.get(0);
        let mut exact = false;
        if ply == 0 {
            self.root_best = Some(best_move);
        }
        for (i, mv) in moves.iter().enumerate() {
            let d = if G::is_pass(mv) { depth } else { depth - 1 };
            let v = -self.alphabeta_hard(&pos.play(mv), -beta, -alpha, d, ply + 1);
            if self.stop.aborted() {
                return 0;
            }
            if v >= beta {
                if ply == 0 {
                    self.root_best = Some(mv);
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
                }
            }
        }
        let bound = if exact { Bound::Exact } else { Bound::Upper };
        self.store(pos, depth, bound, alpha, best_move);
        alpha
    }
}
