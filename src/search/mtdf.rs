//! MTD(f) (Plaat et al.): the value is found by a sequence of null-window
//! fail-soft alpha-beta searches, each moving a lower or an upper bound
//! towards the value, starting from a first guess (the previous iteration's
//! value). The transposition table makes the repeated searches cheap; a
//! searcher without one is refused when the engine is built.

use super::searcher::Searcher;
use super::{Evaluator, SearchGame, INFINITY};
use crate::game::cpu::{detect, Baseline};

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// MTD(f) value of `pos` at `depth`, starting from `guess`.
    pub fn mtdf(&mut self, pos: &G, depth: u32, guess: i32) -> i32 {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut g = guess.clamp(-INFINITY + 1, INFINITY - 1);
        let mut best = None;
        let mut first = true;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            if !first {
                self.stats.researches += 1;
            }
            first = false;
            g = match detect() {
                Some(avx2) => self.alphabeta_soft_on(avx2, pos, beta - 1, beta, depth, 0),
                None => self.alphabeta_soft_on(Baseline, pos, beta - 1, beta, depth, 0),
            };
            if self.stop.aborted() {
                return 0;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                // A fail high proves this move reaches at least g.
                best = self.root_best;
            }
        }
        if best.is_some() {
            self.root_best = best;
        }
        g
    }
}
