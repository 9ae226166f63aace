//! The solver's root: a solve starts here, with an aspiration window around
//! the evaluation's estimate when the solver has one, and the root node,
//! which (unlike inner nodes) reports its best move.

use super::last::final_score;
use super::ordering::{Moves, ToOrder};
use super::{Discs, Solution, Solver, CHECK_EVERY, INF_CENTI};
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::othello::bitboard::legal_moves;
use crate::game::othello::{Board, Move, Square};
use std::time::Instant;

impl Solver {
    /// One solve of `b` in `(alpha, beta)`: resets the counters, then
    /// searches the root, with aspiration when the window is full and the
    /// evaluation orders moves at this many empties.
    pub(super) fn solve_inner(&mut self, b: &Board, alpha: i32, beta: i32) -> Solution {
        self.tt.new_search();
        self.near.new_search();
        if !self.helpers.is_empty() {
            return self.solve_together(b, alpha, beta);
        }
        let start = Instant::now();
        let (score, best_move) = self.search_root(b, alpha, beta);
        Solution {
            score,
            best_move,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    /// This thread's search of `b` on the code path the processor allows
    /// (see [`crate::game::cpu`]); [`Solver::search_root_on`] on a given one.
    pub(super) fn search_root(&mut self, b: &Board, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        match detect() {
            Some(avx2) => self.search_root_on(avx2, b, alpha, beta),
            None => self.search_root_on(Baseline, b, alpha, beta),
        }
    }

    /// This thread's search of `b`: the counters reset, aspiration when
    /// the window is full and the evaluation orders moves at this many
    /// empties, else the root with `(alpha, beta)`.
    pub(super) fn search_root_on<C: Cpu>(
        &mut self,
        cpu: C,
        b: &Board,
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.aborted = false;
        self.selective = 0;
        self.root_hint = None;
        self.passed = None;
        if self.eval.is_some() && b.empties() >= self.eval_from && alpha == -64 && beta == 64 {
            let mut guess = self.shallow(cpu, b.player, b.opponent, 4, -INF_CENTI, INF_CENTI) / 100;
            if self.presearch(b.empties()) {
                // The selective passes (see `selective.rs`): each one's
                // score centres the next one's window, its move is tried
                // first at the root, and its table entries order the rest.
                for k in 1..=super::CONFIDENCE.len() as u8 {
                    self.selective = k;
                    let (v, m) = self.aspiration(cpu, b, guess);
                    if self.aborted {
                        // The next search resets the pass and the hint.
                        return (v, m);
                    }
                    guess = v;
                    self.passed = Some((v, m, k));
                    self.root_hint = m.and_then(Move::to_square).map(|sq| sq.index() as u8);
                }
                self.selective = 0;
            }
            self.aspiration(cpu, b, guess)
        } else {
            self.root(cpu, b.player, b.opponent, alpha, beta)
        }
    }

    /// Aspiration: a window of one disc either side of `guess` (the
    /// ordering search's depth-4 estimate, or the last selective pass's
    /// score), widened by 4 discs on the failing side until the score is
    /// inside.
    fn aspiration<C: Cpu>(&mut self, cpu: C, b: &Board, guess: i32) -> (i32, Option<Move>) {
        let w = 1;
        let (mut lo, mut hi) = ((guess - w).clamp(-64, 63), (guess + w).clamp(-63, 64));
        loop {
            let (v, m) = self.root(cpu, b.player, b.opponent, lo, hi);
            if self.aborted || (v > lo && v < hi) || (v <= lo && lo == -64) || (v >= hi && hi == 64)
            {
                return (v, m);
            }
            if v <= lo {
                lo = (lo - 4 * w).max(-64);
            } else {
                hi = (hi + 4 * w).min(64);
            }
        }
    }

    /// The root node: its value in `(alpha, beta)` (fail-soft) and the move
    /// that reaches it (a pass when the side to move has none).
    fn root<C: Cpu>(
        &mut self,
        cpu: C,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                let n = (!(p | o)).count_ones();
                let moves = legal_moves(p, o);
                if moves == 0 {
                    if legal_moves(o, p) == 0 {
                        return (final_score(p, o), None);
                    }
                    let (v, _) = self.root(cpu, o, p, -beta, -alpha);
                    return (-v, Some(Move::PASS));
                }
                let mut list = Moves::new();
                // The previous selective pass's move (when legal here: after a
                // pass the root is the opponent's) is tried first.
                let hint = self.root_hint.filter(|&sq| moves >> sq & 1 == 1);
                self.order(
                    cpu,
                    ToOrder::pv(Discs::new(p, o), moves, n, hint, alpha),
                    &mut list,
                );
                let (best, best_sq) =
                    self.search_moves(cpu, Discs::new(p, o), &list, alpha, beta, n);
                (best, Some(Move::square(Square::new(best_sq))))
            },
        )
    }
}
