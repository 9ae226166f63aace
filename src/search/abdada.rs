//! How the threads of a parallel search split the tree instead of repeating
//! it (Weill's ABDADA in Tom Kerrigan's simplified form, as the exact
//! solver's threads do in `crate::endgame`): at a PVS node with at least
//! [`DEFER_MIN`] plies left, a thread claims the position after each move
//! but the first while it searches it, and a move whose position another
//! thread has claimed waits until the node's other moves are done. The
//! first move is always searched (the young brothers wait for the eldest,
//! as in YBWC), so a node's later moves are split only once its window is
//! known. Every thread, the main search included, claims and defers; a
//! search on one thread has no table of claims and runs as before.
//!
//! A claim only changes the order of a node's moves, never the window a
//! move is searched with, so each thread's values are what the same search
//! would find with the table the other threads filled: searching to the
//! end, exact.

use super::ordering::Rest;
use super::searcher::{Searcher, SoftNode};
use super::{Evaluator, SearchGame};
use crate::game::cpu::Cpu;
use crate::game::MoveList;

/// Nodes with at least this many plies left defer claimed children:
/// below, a subtree is too small for the bookkeeping to pay.
pub const DEFER_MIN: u32 = 3;

/// What a node's moves gave: its best value and move, or an abort.
pub(super) enum Searched<M> {
    /// Best value (fail-soft) and the move that has it.
    Best(i32, M),
    /// The search was stopped.
    Aborted,
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Whether a PVS node at `depth` splits its moves with other threads.
    #[inline(always)]
    pub(super) fn splits(&self, depth: u32) -> bool {
        depth >= DEFER_MIN && self.busy.is_some()
    }

    /// The moves of the PVS node `node` (as `pvs_on` searches them), a
    /// move whose position another thread holds deferred to a second pass.
    /// Raises its alpha, keeps the PV and records a cutoff as `pvs_on`
    /// does.
    #[inline(never)]
    pub(super) fn pvs_split<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        moves: &mut MoveList<G::Move>,
        rest: Rest,
        mut node: SoftNode<G::Move>,
    ) -> Searched<G::Move> {
        let mut deferred = 0u64;
        for pass in 0..2 {
            for i in 0..moves.len() {
                if pass == 0 && i == 1 {
                    self.sort_rest(cpu, pos, moves, rest, node.ply, node.depth);
                }
                if pass == 1 && deferred & (1 << i) == 0 {
                    continue;
                }
                let mv = moves.get(i);
                let child = pos.play_on(cpu, mv);
                let claim = (pass == 0 && i > 0).then(|| child.hash() | 1);
                if let (Some(key), Some(busy)) = (claim, &self.busy) {
                    if !busy.claim(key) {
                        self.stats.deferred += 1;
                        deferred |= 1 << i;
                        continue;
                    }
                }
                let v = self.pvs_child(cpu, &child, i == 0, mv, &node);
                if let (Some(key), Some(busy)) = (claim, &self.busy) {
                    busy.release(key);
                }
                if self.stop.aborted() {
                    return Searched::Aborted;
                }
                if self.take_soft(&mut node, pos, i, mv, v) {
                    return Searched::Best(node.best, node.best_move);
                }
            }
            if deferred == 0 {
                break;
            }
        }
        Searched::Best(node.best, node.best_move)
    }
}
