//! Weighted squares: each disc is worth its square's weight (positive for
//! the side to move's discs, negative for the opponent's), with one table per
//! game stage.
//!
//! File format (RON, `engines/weights/*.ron`):
//! ```ron
//! WeightedSquares(
//!     stages: [
//!         // Used while the position has at least 40 empty squares.
//!         (min_empties: 40, squares: [/* 64 weights a1..h8, or 10 by symmetry */]),
//!         (min_empties: 0, squares: [...]),
//!     ],
//! )
//! ```
//! Weights are centidiscs. A 10-entry table lists the symmetry classes
//! a1, b1, c1, d1, b2, c2, d2, c3, d3, d4.

use super::stages::{StageBound, Staged};
use super::Term;
use crate::error::Result;
use crate::game::othello::bitboard::Bits;
use crate::game::othello::Board;
use crate::util::parse_ron;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "WeightedSquares")]
struct RawFile {
    stages: Vec<RawStage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStage {
    min_empties: u32,
    squares: Vec<i32>,
}

impl StageBound for RawStage {
    fn min_empties(&self) -> u32 {
        self.min_empties
    }
}

/// A weighted-squares evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedSquares {
    tables: Staged<[i32; 64]>,
}

/// The symmetry class (0..10) of square `index`.
pub fn symmetry_class(index: usize) -> usize {
    let (c, r) = (index % 8, index / 8);
    let (x, y) = (c.min(7 - c), r.min(7 - r));
    let (x, y) = if x >= y { (x, y) } else { (y, x) };
    // (x, y) with x >= y: a1 b1 c1 d1 / b2 c2 d2 / c3 d3 / d4.
    match y {
        0 => x,
        1 => 3 + x,
        2 => 5 + x,
        _ => 9,
    }
}

impl WeightedSquares {
    /// Parses a weights file (`path` only names it in errors).
    ///
    /// # Errors
    /// Malformed RON, a table of the wrong length, or bad stage bounds, each
    /// naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<WeightedSquares> {
        let raw: RawFile = parse_ron(text, path)?;
        let tables = Staged::parse(&raw.stages, text, path, |stage, at| {
            let n = at.number();
            if let Some(w) = stage.squares.iter().find(|w| w.abs() > 100_000) {
                return Err(at.error(
                    "squares",
                    format!("stage {n}: weight {w} is larger than 100000 in size"),
                ));
            }
            match stage.squares.len() {
                64 => Ok(std::array::from_fn(|i| stage.squares[i])),
                10 => Ok(std::array::from_fn(|i| stage.squares[symmetry_class(i)])),
                len => Err(at.error(
                    "squares",
                    format!(
                        "stage {n} has {len} weights; a table has 64 (a1..h8) or 10 (by symmetry)"
                    ),
                )),
            }
        })?;
        Ok(WeightedSquares { tables })
    }

    fn table(&self, b: &Board) -> &[i32; 64] {
        self.tables.at(b.empties())
    }

    /// Score for the side to move, in centidiscs.
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        let t = self.table(b);
        let mine: i32 = Bits(b.player).map(|i| t[i]).sum();
        let theirs: i32 = Bits(b.opponent).map(|i| t[i]).sum();
        mine - theirs
    }

    /// The two terms (own and opponent squares).
    pub fn explain(&self, b: &Board) -> Vec<Term> {
        let t = self.table(b);
        let mine: i32 = Bits(b.player).map(|i| t[i]).sum();
        let theirs: i32 = Bits(b.opponent).map(|i| t[i]).sum();
        vec![
            Term::new("own squares", f64::from(mine), 1.0),
            Term::new("opponent squares", f64::from(theirs), -1.0),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_eight_symmetries() {
        use crate::game::othello::{Square, Symmetry};
        for i in 0..64 {
            for s in Symmetry::ALL {
                let j = s.square(Square::new(i as u8)).index();
                assert_eq!(symmetry_class(i), symmetry_class(j));
            }
        }
        let names = ["a1", "b1", "c1", "d1", "b2", "c2", "d2", "c3", "d3", "d4"];
        for (k, n) in names.iter().enumerate() {
            assert_eq!(symmetry_class(Square::parse(n).unwrap().index()), k, "{n}");
        }
    }

    #[test]
    fn wrong_lengths_name_the_stage_and_line() {
        let text = "WeightedSquares(stages: [\n (min_empties: 30, squares: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),\n (min_empties: 0, squares: [1, 2]),\n])";
        let e = WeightedSquares::parse(text, Path::new("w.ron"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("w.ron:3:"), "{e}");
        assert!(e.contains("squares: stage 2 has 2 weights"), "{e}");
    }
}
