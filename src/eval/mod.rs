//! Othello evaluations, each built from data: disc count, weighted squares
//! (tables by game stage) and features (mobility, frontier, corners, X- and
//! C-squares, stable discs, parity; linear weights by stage). The weights
//! live in RON files under `engines/weights/`, so comparing an evaluation
//! change is comparing two files, with no recompile.
//!
//! Every evaluation scores in centidiscs (100 units = one disc of final
//! score) for the side to move, so a finished game and an estimate share
//! one scale.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

mod eval_board;
pub mod features;
pub mod patterns;
pub mod squares;
mod stages;

pub use eval_board::EvalBoard;
pub use features::Features;
pub use patterns::Patterns;
pub use squares::WeightedSquares;

use crate::error::{Error, Result};
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::othello::Board;
use crate::search::{final_value, horizon_value, Evaluator};
use crate::util::text::{read_text, read_text_or_bytes, FileData};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Evaluation units per disc.
pub const UNITS_PER_DISC: i32 = 100;

/// Which evaluation an engine uses, as written in its engine file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum EvalSpec {
    /// Disc difference.
    Discs,
    /// Weighted squares, tables from a weights file.
    WeightedSquares {
        /// The weights file, relative to the engine file.
        weights: PathBuf,
    },
    /// Linear features, weights from a file.
    Features {
        /// The weights file, relative to the engine file.
        weights: PathBuf,
    },
    /// Pattern tables, weights from a file.
    Patterns {
        /// The weights file, relative to the engine file.
        weights: PathBuf,
    },
}

impl EvalSpec {
    /// The weights file, for the evaluations that have one.
    pub fn weights(&self) -> Option<&Path> {
        match self {
            EvalSpec::Discs => None,
            EvalSpec::WeightedSquares { weights }
            | EvalSpec::Features { weights }
            | EvalSpec::Patterns { weights } => Some(weights),
        }
    }
}

/// A built evaluation.
#[derive(Clone, Debug)]
pub enum OthelloEval {
    /// Disc difference.
    Discs,
    /// Weighted squares.
    Squares(WeightedSquares),
    /// Features.
    Features(Features),
    /// Pattern tables.
    Patterns(Patterns),
}

impl OthelloEval {
    /// Builds the evaluation `spec` names, reading weight paths relative to
    /// `base` (the engine file's folder).
    ///
    /// # Errors
    /// The weights file cannot be read or is malformed.
    pub fn load(spec: &EvalSpec, base: &Path) -> Result<OthelloEval> {
        Ok(match spec {
            EvalSpec::Discs => OthelloEval::Discs,
            EvalSpec::WeightedSquares { weights } => {
                let path = base.join(weights);
                OthelloEval::Squares(WeightedSquares::parse(&read_text(&path)?, &path)?)
            }
            EvalSpec::Features { weights } => {
                let path = base.join(weights);
                OthelloEval::Features(Features::parse(&read_text(&path)?, &path)?)
            }
            EvalSpec::Patterns { weights } => {
                OthelloEval::Patterns(Patterns::load(&base.join(weights))?)
            }
        })
    }

    /// Loads a weights file of any kind, told by its leading name
    /// (`WeightedSquares`, `Features` or `Patterns`).
    ///
    /// # Errors
    /// The file cannot be read, names no known kind, or is malformed.
    pub fn from_weights_file(path: &Path) -> Result<OthelloEval> {
        let text = match read_text_or_bytes(path, patterns::is_binary)? {
            FileData::Bytes(bytes) => {
                return Ok(OthelloEval::Patterns(Patterns::from_binary(&bytes, path)?));
            }
            FileData::Text(text) => text,
        };
        let (line, kind) = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .enumerate()
            .find(|(_, l)| !l.is_empty())
            .unwrap_or((0, ""));
        if kind.starts_with("WeightedSquares") {
            Ok(OthelloEval::Squares(WeightedSquares::parse(&text, path)?))
        } else if kind.starts_with("Features") {
            Ok(OthelloEval::Features(Features::parse(&text, path)?))
        } else if kind.starts_with("Patterns") {
            Ok(OthelloEval::Patterns(Patterns::parse(&text, path)?))
        } else {
            Err(Error::config_at(
                path,
                line + 1,
                1,
                format!(
                    "a weights file starts with WeightedSquares(, Features( or Patterns(, not {:?}",
                    crate::util::text::excerpt(kind, 40)
                ),
            ))
        }
    }

    /// [`Evaluator::evaluate_on`] of `player` to move against `opponent`
    /// when the caller already has both sides' legal moves (`own`,
    /// `theirs`): the same value; pattern evaluations then skip computing
    /// them again.
    #[inline(always)]
    pub fn evaluate_moves_on<C: Cpu>(
        &self,
        cpu: C,
        player: u64,
        opponent: u64,
        own: u64,
        theirs: u64,
    ) -> i32 {
        match self {
            OthelloEval::Patterns(p) => p.evaluate_moves_on(cpu, player, opponent, own, theirs),
            OthelloEval::Discs | OthelloEval::Squares(_) | OthelloEval::Features(_) => {
                let b = Board {
                    player,
                    opponent,
                    side: crate::game::othello::Color::Black,
                };
                self.evaluate_on(cpu, &b)
            }
        }
    }

    /// The evaluation and each of its terms, for `arena eval`.
    pub fn explain(&self, b: &Board) -> Vec<Term> {
        match self {
            OthelloEval::Discs => {
                let d = b.player.count_ones() as i32 - b.opponent.count_ones() as i32;
                vec![Term::new("discs", f64::from(d), f64::from(UNITS_PER_DISC))]
            }
            OthelloEval::Squares(w) => w.explain(b),
            OthelloEval::Features(f) => f.explain(b),
            OthelloEval::Patterns(p) => p.explain(b),
        }
    }
}

impl Evaluator<Board> for OthelloEval {
    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        match detect() {
            Some(avx2) => self.evaluate_on(avx2, b),
            None => self.evaluate_on(Baseline, b),
        }
    }

    #[inline(always)]
    fn evaluate_on<C: Cpu>(&self, cpu: C, b: &Board) -> i32 {
        match self {
            OthelloEval::Discs => cpu.run(
                #[inline(always)]
                || (b.player.count_ones() as i32 - b.opponent.count_ones() as i32) * UNITS_PER_DISC,
            ),
            OthelloEval::Squares(w) => cpu.run(
                #[inline(always)]
                || w.evaluate(b),
            ),
            OthelloEval::Features(f) => f.evaluate_on(cpu, b),
            OthelloEval::Patterns(p) => p.evaluate_on(cpu, b),
        }
    }

    fn units_per_point(&self) -> i32 {
        UNITS_PER_DISC
    }

    /// A pattern evaluation reads both sides' moves: the same two move
    /// generations tell whether the game is over.
    #[inline(always)]
    fn horizon_on<C: Cpu>(&self, cpu: C, b: &Board) -> i32 {
        match self {
            OthelloEval::Patterns(p) => p
                .evaluate_unless_over_on(cpu, b)
                .unwrap_or_else(|| final_value(self, b)),
            OthelloEval::Discs | OthelloEval::Squares(_) | OthelloEval::Features(_) => {
                horizon_value(self, cpu, b)
            }
        }
    }
}

/// One term of an evaluation: a named feature's value, its weight, and what
/// it adds (value × weight, in centidiscs).
#[derive(Clone, Debug, Serialize)]
pub struct Term {
    /// Feature name.
    pub name: String,
    /// Feature value for the side to move.
    pub value: f64,
    /// Weight in the current stage.
    pub weight: f64,
    /// Contribution to the score.
    pub contribution: f64,
}

impl Term {
    /// A term `name` with `value` and `weight`.
    pub fn new(name: &str, value: f64, weight: f64) -> Term {
        Term {
            name: name.to_string(),
            value,
            weight,
            contribution: value * weight + 0.0,
        }
    }
}
