//! Minimax in its textbook form: a MAX function and a MIN function calling
//! each other, scores from the first player's point of view, no pruning.

use super::searcher::Searcher;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::MoveList;

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// Minimax value of `pos` searched `depth` plies deep, for the side to
    /// move (like every other variant's result).
    pub fn minimax(&mut self, pos: &G, depth: u32) -> i32 {
        self.root_best = None;
        match detect() {
            Some(avx2) => self.minimax_on(avx2, pos, depth),
            None => self.minimax_on(Baseline, pos, depth),
        }
    }

    fn minimax_on<C: Cpu>(&mut self, cpu: C, pos: &G, depth: u32) -> i32 {
        if pos.first_player_to_move() {
            self.max_value_on(cpu, pos, depth, 0)
        } else {
            -self.min_value_on(cpu, pos, depth, 0)
        }
    }

    /// The first player's (MAX's) value at a node where MAX moves, or a leaf.
    fn max_value_on<C: Cpu>(&mut self, cpu: C, pos: &G, depth: u32, ply: usize) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                if let Some(v) = self.minimax_leaf_on(cpu, pos, depth, ply) {
                    return v;
                }
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                let mut best = -INFINITY;
                for mv in moves.iter() {
                    let d = G::child_depth(mv, depth);
                    let v = self.min_value_on(cpu, &pos.play_on(cpu, mv), d, ply + 1);
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

    /// The first player's (MAX's) value at a node where MIN moves, or a leaf.
    fn min_value_on<C: Cpu>(&mut self, cpu: C, pos: &G, depth: u32, ply: usize) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                if let Some(v) = self.minimax_leaf_on(cpu, pos, depth, ply) {
                    return v;
                }
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                let mut best = INFINITY;
                for mv in moves.iter() {
                    let d = G::child_depth(mv, depth);
                    let v = self.max_value_on(cpu, &pos.play_on(cpu, mv), d, ply + 1);
                    if self.stop.aborted() {
                        return 0;
                    }
                    if v < best {
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

    /// Counts the node; its value for MAX when it is a leaf (game over or
    /// depth 0), `None` when it must be expanded.
    #[inline]
    fn minimax_leaf_on<C: Cpu>(&mut self, cpu: C, pos: &G, depth: u32, ply: usize) -> Option<i32> {
        self.pv_clear(ply);
        if self.visit() {
            return Some(0);
        }
        let for_mover = if pos.is_over() {
            self.terminal(pos)
        } else if depth == 0 {
            self.eval.evaluate_on(cpu, pos)
        } else {
            return None;
        };
        Some(if pos.first_player_to_move() {
            for_mover
        } else {
            -for_mover
        })
    }
}
