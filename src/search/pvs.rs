//! Principal variation search (NegaScout): the first move gets the full
//! window, every later move a null window `(alpha, alpha + 1)` that only asks
//! "is it better?"; a move that says yes is searched again with the full
//! window. Fail-soft, with the transposition table and ordering. On several
//! threads, a node's moves are split between them (`abdada.rs`).

use super::abdada::Searched;
use super::node::{FailSoft, Opening};
use super::searcher::{Searcher, SoftNode};
use super::tt::Bound;
use super::{Evaluator, SearchGame};
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
                if self.splits(depth) {
                    let node = SoftNode::new(moves.get(0), alpha, beta, depth, ply);
                    let (best, best_move) = match self.pvs_split(cpu, pos, &mut moves, rest, node) {
                        Searched::Best(v, mv) => (v, mv),
                        Searched::Aborted => return 0,
                    };
                    self.store(pos, depth, Bound::of(best, alpha0, beta), best, best_move);
                    return best;
                }
                let mut node = SoftNode::new(moves.get(0), alpha, beta, depth, ply);
                for i in 0..moves.len() {
                    if i == 1 {
                        self.sort_rest(cpu, pos, &mut moves, rest, ply, depth);
                    }
                    let mv = moves.get(i);
                    let child = pos.play_on(cpu, mv);
                    let v = self.pvs_child(cpu, &child, i == 0, mv, &node);
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

    /// The value of the move `mv` of the PVS node `node`, leading to
    /// `child`: the first move with the node's full window, a later one
    /// with a null window, searched again with the full window when it
    /// says better.
    #[inline(always)]
    pub(super) fn pvs_child<C: Cpu>(
        &mut self,
        cpu: C,
        child: &G,
        first: bool,
        mv: G::Move,
        node: &SoftNode<G::Move>,
    ) -> i32 {
        let (alpha, beta, depth, ply) = (node.alpha, node.beta, node.depth, node.ply);
        let d = G::child_depth(mv, depth);
        if first {
            return -self.pvs_on(cpu, child, -beta, -alpha, d, ply + 1);
        }
        let v = -self.pvs_on(cpu, child, -alpha - 1, -alpha, d, ply + 1);
        if v > alpha && v < beta && !self.stop.aborted() {
            self.stats.researches += 1;
            return -self.pvs_on(cpu, child, -beta, -alpha, d, ply + 1);
        }
        v
    }
}
