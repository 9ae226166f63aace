//! Negamax: minimax in one function, the score negated at each ply so that
//! every node maximises for its side to move. No pruning.

use super::searcher::Searcher;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::MoveList;

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Negamax value of `pos` at `depth`, for the side to move.
    pub fn negamax(&mut self, pos: &G, depth: u32) -> i32 {
        self.root_best = None;
        match detect() {
            Some(avx2) => self.negamax_node_on(avx2, pos, depth, 0),
            None => self.negamax_node_on(Baseline, pos, depth, 0),
        }
    }

    fn negamax_node_on<C: Cpu>(&mut self, cpu: C, pos: &G, depth: u32, ply: usize) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                self.pv_clear(ply);
                if self.visit() {
                    return 0;
                }
                if depth == 0 && !pos.is_over() {
                    return self.eval.evaluate_on(cpu, pos);
                }
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    return self.terminal(pos);
                }
                let mut best = -INFINITY;
                for mv in moves.iter() {
                    let d = G::child_depth(mv, depth);
                    let v = -self.negamax_node_on(cpu, &pos.play_on(cpu, mv), d, ply + 1);
                    if self.stop.aborted() {
                        return 0;
                    }
                    if v > best {
                        best = v;
                        self.pv_update(ply, mv);
                        if ply == 0 {
                            self.root_best = Some(mv);
                        }
                    }
                }
                best
            },
        )
    }
}
