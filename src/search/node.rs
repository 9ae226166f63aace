//! The opening of a node, as every variant of the alpha-beta family (fail-hard,
//! fail-soft, PVS) does it, written once: count the node, return at the
//! horizon, probe the transposition table, try ProbCut (whose model is
//! `probcut.rs`), generate the moves in search order, and score a finished
//! game. What the node then does with its
//! moves is each variant's own code (`alphabeta.rs`, `pvs.rs`).
//!
//! The one difference between the variants here, fail-hard clamping a value
//! to the window, is a marker type ([`FailHard`], [`FailSoft`]) chosen at
//! compile time, so the hot path carries no run-time flag.

use super::ordering::Rest;
use super::searcher::Searcher;
use super::tt::Bound;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::cpu::Cpu;
use crate::game::MoveList;

/// What a transposition-table probe gave a node.
enum Probe<M> {
    /// The stored bound settles the node with this value.
    Cutoff(i32),
    /// Search the node, this move first if there is one.
    Search(Option<M>),
}

/// How a node returns a value it settles before searching its moves.
pub(super) trait Fails {
    /// `value` as the node returns it, given the window `(alpha, beta)`.
    fn settle(value: i32, alpha: i32, beta: i32) -> i32;
}

/// Fail-hard: values are clamped to `[alpha, beta]`.
pub(super) struct FailHard;

/// Fail-soft: values are returned as they are, even outside the window.
pub(super) struct FailSoft;

impl Fails for FailHard {
    #[inline(always)]
    fn settle(value: i32, alpha: i32, beta: i32) -> i32 {
        value.clamp(alpha, beta)
    }
}

impl Fails for FailSoft {
    #[inline(always)]
    fn settle(value: i32, _alpha: i32, _beta: i32) -> i32 {
        value
    }
}

/// How a node starts: settled at once, or with its moves to search.
pub(super) enum Opening<M: Copy + Default> {
    /// The node's value, without searching a move.
    Settled(i32),
    /// The legal moves (at least one), in search order once `Rest` says
    /// the ones after the first are.
    Moves(MoveList<M>, Rest),
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Opens a node of the alpha-beta family at `depth` in the window
    /// `(alpha, beta)`. In order: counts the node and clears its PV (0 when
    /// the search must stop); at the root forgets the last root move; at
    /// depth 0 the horizon value; a table cutoff; a ProbCut cut; otherwise
    /// the moves in search order (the table's move among the keys), or the
    /// final score when there are none. The horizon, table and final values
    /// pass through `F`; a stop and ProbCut's bound come as they are.
    #[inline(always)]
    pub(super) fn open_node<F: Fails, C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> Opening<G::Move> {
        self.pv_clear(ply);
        if self.visit() {
            return Opening::Settled(0);
        }
        if ply == 0 {
            self.root_best = None;
        }
        if depth == 0 {
            return Opening::Settled(F::settle(self.horizon(cpu, pos), alpha, beta));
        }
        let hash_move = match self.probe(pos, alpha, beta, depth, ply) {
            Probe::Cutoff(v) => return Opening::Settled(F::settle(v, alpha, beta)),
            Probe::Search(m) => m,
        };
        if let Some(v) = self.probcut(cpu, pos, alpha, beta, depth, ply) {
            return Opening::Settled(v);
        }
        let mut moves = MoveList::new();
        let rest = self.ordered_moves(cpu, pos, &mut moves, ply, depth, hash_move);
        if moves.is_empty() {
            return Opening::Settled(F::settle(self.terminal(pos), alpha, beta));
        }
        Opening::Moves(moves, rest)
    }

    /// Looks `pos` up in the table (if any). Never cuts at the root, so the
    /// root always has a best move.
    #[inline]
    fn probe(&mut self, pos: &G, alpha: i32, beta: i32, depth: u32, ply: usize) -> Probe<G::Move> {
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
        if let Some(tt) = &self.tt {
            tt.store(pos.hash(), depth, bound, score, G::move_slot(best) as u8);
        }
    }

    /// Value at a depth-0 node: the evaluation, or the exact score of a
    /// finished game.
    #[inline]
    fn horizon<C: Cpu>(&mut self, cpu: C, pos: &G) -> i32 {
        self.eval.horizon_on(cpu, pos)
    }
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Tries ProbCut at a non-root node: `Some(beta)` or `Some(alpha)` when
    /// a shallow search predicts, with the configured confidence, that the
    /// deep search would fail high or low; `None` to search the node. The
    /// shallow searches themselves do not use ProbCut.
    #[inline]
    pub(super) fn probcut<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> Option<i32> {
        if ply == 0 || self.in_probcut {
            return None;
        }
        let pc = self.probcut.as_ref()?;
        let left = pos.max_plies_left();
        // A search that reaches every game end is exact: no guessing there
        // (deepening relies on it to stop once depth covers the empties).
        if left.is_some_and(|l| l <= depth) {
            return None;
        }
        let stage = pc.stage(left.unwrap_or(0));
        let pairs = pc.stages[stage].pairs.len();
        let confidence = pc.confidence;
        for k in 0..pairs {
            let pair = self.probcut.as_ref()?.stages[stage].pairs[k];
            if pair.deep != depth {
                continue;
            }
            let margin = confidence * pair.sigma;
            self.stats.probcut_tries += 1;
            // Fail high: a·v + b − margin ≥ beta  ⇔  v ≥ (beta + margin − b) / a.
            if beta < INFINITY {
                let bound = ((f64::from(beta) + margin - pair.b) / pair.a).ceil();
                if bound < f64::from(INFINITY) && bound > f64::from(-INFINITY) {
                    let bound = bound as i32;
                    self.in_probcut = true;
                    let v = self.alphabeta_soft_on(cpu, pos, bound - 1, bound, pair.shallow, ply);
                    self.in_probcut = false;
                    if self.stop.aborted() {
                        return Some(0);
                    }
                    if v >= bound {
                        self.stats.probcut_cuts += 1;
                        return Some(beta);
                    }
                }
            }
            // Fail low: a·v + b + margin ≤ alpha  ⇔  v ≤ (alpha − margin − b) / a.
            if alpha > -INFINITY {
                let bound = ((f64::from(alpha) - margin - pair.b) / pair.a).floor();
                if bound < f64::from(INFINITY) && bound > f64::from(-INFINITY) {
                    let bound = bound as i32;
                    self.in_probcut = true;
                    let v = self.alphabeta_soft_on(cpu, pos, bound, bound + 1, pair.shallow, ply);
                    self.in_probcut = false;
                    if self.stop.aborted() {
                        return Some(0);
                    }
                    if v <= bound {
                        self.stats.probcut_cuts += 1;
                        return Some(alpha);
                    }
                }
            }
        }
        None
    }
}
