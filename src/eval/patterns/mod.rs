//! Pattern tables: the classic Othello pattern set (Buro's Logistello, and
//! Edax after it), each pattern a fixed group of squares whose every
//! configuration has its own weight, per game stage.
//!
//! | pattern | squares (canonical instance) | instances |
//! | --- | --- | --- |
//! | `edge_x` | a1 b1 c1 d1 e1 f1 g1 h1 b2 g2 (an edge with its X-squares) | 4 |
//! | `corner_3x3` | a1 b1 c1 a2 b2 c2 a3 b3 c3 | 4 |
//! | `corner_2x5` | a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 | 8 |
//! | `row_2` | a2 b2 c2 d2 e2 f2 g2 h2 | 4 |
//! | `row_3` | a3 b3 c3 d3 e3 f3 g3 h3 | 4 |
//! | `diag_8` | a1 b2 c3 d4 e5 f6 g7 h8 | 2 |
//! | `diag_7` | b1 c2 d3 e4 f5 g6 h7 | 4 |
//! | `diag_6` | c1 d2 e3 f4 g5 h6 | 4 |
//! | `diag_5` | d1 e2 f3 g4 h5 | 4 |
//! | `diag_4` | e1 f2 g3 h4 | 4 |
//! | `row_4` (optional) | a4 b4 c4 d4 e4 f4 g4 h4 | 4 |
//!
//! The other instances are the images of the canonical one under the
//! board's symmetries (rotations and reflections), with the squares in the
//! corresponding order: the instance at the h1 corner of `corner_3x3` reads
//! h1 g1 f1 h2 g2 f2 h3 g3 f3. 42 instances of the first ten patterns, 46
//! with `row_4`.
//!
//! **Which patterns.** Every weights file has the first ten patterns; it may
//! add `row_4`, the fourth lines of Logistello's and Edax's sets, in every
//! stage. Files written before `row_4` existed have only the ten, and
//! read, evaluate and write as they did (their evaluation does not weigh
//! the fourth lines: its sum of table weights stops at the first ten
//! patterns' instances; the readings a search carries still hold the
//! fourth lines' lanes, which cost nothing in the vector updates).
//!
//! **Index.** A configuration's index is `Σ digit(square_i) · 3^i` over the
//! pattern's squares in the order listed (the first square is the least
//! significant digit), with digit 0 for an empty square, 1 for a disc of the
//! side to move and 2 for an opponent's disc. A pattern of n squares has
//! 3^n entries.
//!
//! **Score.** In centidiscs for the side to move: the stage's `bias`, plus
//! `mobility` × (own legal moves − opponent's legal moves), plus `parity` ×
//! (+1 when the number of empty squares is odd, so that the side to move
//! would play the last move were there no passes, −1 when it is even),
//! plus the weight of every instance's configuration.
//!
//! **File format** (RON). Every stage lists the first ten patterns, and
//! `row_4` in every stage or in none; a table is sparse:
//! `(index, weight)` pairs, an index not listed weighs 0.
//! ```ron
//! Patterns(stages: [
//!     (min_empties: 40, bias: 0.0, mobility: 50.0, tables: {
//!         "edge_x": [(1, 120.0), (2, -120.0)],
//!         "corner_3x3": [], "corner_2x5": [], "row_2": [], "row_3": [],
//!         "diag_8": [], "diag_7": [], "diag_6": [], "diag_5": [], "diag_4": [],
//!         // "row_4": [], in every stage or in none
//!     }),
//!     (min_empties: 0, ...),
//! ])
//! ```
//! Weights are centidiscs; a table weight must be a whole number of at most
//! 32,767 in size (tables are stored as 16-bit integers), the scalars finite
//! and at most 1e5. `parity` may be left out (0: files written before it
//! existed read as they did).
//!
//! The set is in `set.rs`, index reading in `index.rs`, the readings a
//! search carries from move to move in `configs.rs`, the weights file in
//! `file.rs`.

mod binary;
mod configs;
mod file;
mod index;
mod set;
#[cfg(test)]
pub(crate) mod tests;

pub use binary::{is_binary, MAGIC, MAGIC_2};
pub use configs::Configs;
pub use file::{weights_file, MAX_SCALAR, MAX_TABLE_WEIGHT};
pub use index::{for_each_index, indices};
pub use set::{
    instances_of, offset, patterns_of, stage_size, Pattern, FIRST_PATTERNS, INSTANCES, PATTERNS,
    SET, STAGE_SIZE,
};

use super::stages::Staged;
use super::Term;
use crate::error::Result;
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::othello::bitboard::legal_moves;
use crate::game::othello::Board;
use crate::util::text::{read_text_or_bytes, FileData};
use index::table_sum;
use set::OFFSETS;
use std::path::Path;
use std::sync::Arc;

/// One stage's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct StageWeights {
    /// Constant term.
    pub bias: f64,
    /// Weight of the mobility difference.
    pub mobility: f64,
    /// Weight of the parity of the empty squares (+1 odd, −1 even).
    pub parity: f64,
    /// The tables of the evaluation's patterns (the first ten of [`SET`],
    /// or all of it), concatenated in [`SET`] order: [`stage_size`] of
    /// their number entries.
    pub tables: Vec<i16>,
}

/// A pattern evaluation. Cloning shares the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    stages: Arc<Staged<StageWeights>>,
    /// How many patterns of [`SET`], from the first, the tables hold.
    patterns: usize,
}

impl Patterns {
    /// Builds an evaluation from stages (highest `min_empties` first, the
    /// last at 0), of the patterns their tables' length gives.
    ///
    /// # Panics
    /// If there is no stage, a stage's tables are not [`stage_size`]
    /// entries of [`FIRST_PATTERNS`] or all patterns, or the stages differ
    /// (the callers build them so).
    pub fn new(min_empties: Vec<u32>, stages: Vec<StageWeights>) -> Patterns {
        let len = stages.first().expect("at least one stage").tables.len();
        let patterns = patterns_of(len)
            .unwrap_or_else(|| panic!("stage tables of {len} entries fit no pattern set"));
        assert!(
            stages.iter().all(|s| s.tables.len() == len),
            "every stage holds the same patterns"
        );
        Patterns {
            stages: Arc::new(Staged::new(min_empties, stages)),
            patterns,
        }
    }

    /// The patterns the evaluation weighs: the first of [`SET`].
    pub fn patterns(&self) -> &'static [Pattern] {
        &SET[..self.patterns]
    }

    /// The readings of `player` to move against `opponent` that this
    /// evaluation needs (its patterns' lanes), for
    /// [`Patterns::evaluate_configs_on`].
    #[inline(always)]
    pub fn configs_of(&self, player: u64, opponent: u64) -> Configs {
        Configs::of(player, opponent, self.patterns)
    }

    /// The stages: `min_empties` and weights, highest `min_empties` first.
    pub fn stages(&self) -> impl Iterator<Item = (u32, &StageWeights)> {
        self.stages.iter()
    }

    fn stage(&self, b: &Board) -> &StageWeights {
        self.stages.at(b.empties())
    }

    /// Whether any stage weighs the parity (weights without it keep the
    /// first binary form).
    pub fn has_parity(&self) -> bool {
        self.stages().any(|(_, w)| w.parity != 0.0)
    }

    /// Reads a weights file in either form: binary when it starts with
    /// [`MAGIC`] or [`MAGIC_2`], RON otherwise.
    ///
    /// # Errors
    /// The file cannot be read, or is malformed (naming the file and the
    /// line and field, or the byte).
    pub fn load(path: &Path) -> Result<Patterns> {
        match read_text_or_bytes(path, is_binary)? {
            FileData::Bytes(bytes) => Patterns::from_binary(&bytes, path),
            FileData::Text(text) => Patterns::parse(&text, path),
        }
    }

    /// Score for the side to move, in centidiscs.
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        match detect() {
            Some(avx2) => self.evaluate_on(avx2, b),
            None => self.evaluate_on(Baseline, b),
        }
    }

    /// [`Patterns::evaluate`] by the code of path `cpu`.
    pub fn evaluate_on<C: Cpu>(&self, cpu: C, b: &Board) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                let own = legal_moves(b.player, b.opponent);
                let theirs = legal_moves(b.opponent, b.player);
                self.score(b.player, b.opponent, own, theirs)
            },
        )
    }

    /// [`Patterns::evaluate_on`], or `None` when neither side has a move
    /// (the game is over): a search's horizon, where one pair of move
    /// generations serves both.
    #[inline(always)]
    pub fn evaluate_unless_over_on<C: Cpu>(&self, cpu: C, b: &Board) -> Option<i32> {
        cpu.run(
            #[inline(always)]
            move || {
                let own = legal_moves(b.player, b.opponent);
                let theirs = legal_moves(b.opponent, b.player);
                (own | theirs != 0).then(|| self.score(b.player, b.opponent, own, theirs))
            },
        )
    }

    /// [`Patterns::evaluate_on`] of `player` to move against `opponent`
    /// when the caller already has both sides' legal moves (`own`, `theirs`):
    /// the same value, without computing them again (the solver's
    /// ordering searches know them).
    #[inline(always)]
    pub fn evaluate_moves_on<C: Cpu>(
        &self,
        cpu: C,
        player: u64,
        opponent: u64,
        own: u64,
        theirs: u64,
    ) -> i32 {
        cpu.run(
            #[inline(always)]
            move || self.score(player, opponent, own, theirs),
        )
    }

    /// [`Patterns::evaluate_moves_on`] of a position whose instance
    /// readings (`configs`) the caller carries from move to move: the same
    /// value, without reading the instances off the board.
    #[inline(always)]
    pub fn evaluate_configs_on<C: Cpu>(
        &self,
        cpu: C,
        configs: &Configs,
        player: u64,
        opponent: u64,
        own: u64,
        theirs: u64,
    ) -> i32 {
        cpu.run(
            #[inline(always)]
            move || self.configs_score(configs, player, opponent, own, theirs),
        )
    }

    /// [`Patterns::evaluate_unless_over_on`] of a position whose readings
    /// the caller carries ([`Patterns::evaluate_configs_on`]): a midgame
    /// search's horizon.
    #[inline(always)]
    pub fn evaluate_configs_unless_over_on<C: Cpu>(
        &self,
        cpu: C,
        configs: &Configs,
        player: u64,
        opponent: u64,
    ) -> Option<i32> {
        cpu.run(
            #[inline(always)]
            move || {
                let own = legal_moves(player, opponent);
                let theirs = legal_moves(opponent, player);
                (own | theirs != 0)
                    .then(|| self.configs_score(configs, player, opponent, own, theirs))
            },
        )
    }

    /// [`Patterns::score`] from carried readings.
    #[inline(always)]
    fn configs_score(
        &self,
        configs: &Configs,
        player: u64,
        opponent: u64,
        own: u64,
        theirs: u64,
    ) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        let w = self.stages.at(empties);
        configs.table_sum(&w.tables, self.patterns) + scalars(w, empties, own, theirs)
    }

    /// The score of a position from its discs and both sides' legal moves.
    #[inline(always)]
    fn score(&self, player: u64, opponent: u64, own: u64, theirs: u64) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        let w = self.stages.at(empties);
        table_sum(&w.tables, player, opponent, self.patterns) + scalars(w, empties, own, theirs)
    }

    /// The scalar terms and every instance: its squares, its configuration
    /// (`x` the side to move, `o` the opponent, `.` empty), index and weight.
    pub fn explain(&self, b: &Board) -> Vec<Term> {
        let w = self.stage(b);
        let mobility = legal_moves(b.player, b.opponent).count_ones() as i32
            - legal_moves(b.opponent, b.player).count_ones() as i32;
        let mut terms = vec![
            Term::new("bias", 1.0, w.bias),
            Term::new("mobility", f64::from(mobility), w.mobility),
        ];
        // Weights without a parity term explain as they did before it.
        if self.has_parity() {
            terms.push(Term::new("parity", parity(b), w.parity));
        }
        for_each_index(b.player, b.opponent, |k, n, index| {
            if k >= self.patterns {
                return;
            }
            let p = &SET[k];
            let squares = p.instance_squares(n);
            let config: String = squares
                .iter()
                .map(|s| {
                    if b.player & s.bit() != 0 {
                        'x'
                    } else if b.opponent & s.bit() != 0 {
                        'o'
                    } else {
                        '.'
                    }
                })
                .collect();
            let name = format!(
                "{} {}-{} {config} #{index}",
                p.name,
                squares[0],
                squares[squares.len() - 1]
            );
            terms.push(Term::new(
                &name,
                1.0,
                f64::from(w.tables[OFFSETS[k] + index]),
            ));
        });
        terms
    }
}

/// The scalar terms of stage `w` (bias, mobility from both sides' legal
/// moves, parity of `empties`), rounded to centidiscs.
#[inline(always)]
fn scalars(w: &StageWeights, empties: u32, own: u64, theirs: u64) -> i32 {
    let mobility = own.count_ones() as i32 - theirs.count_ones() as i32;
    (w.bias + w.mobility * f64::from(mobility) + w.parity * parity_of(empties)).round() as i32
}

/// The parity term's value: +1 when the number of empty squares is odd
/// (the side to move would play the last move were there no passes), −1
/// when it is even.
#[inline]
pub fn parity(b: &Board) -> f64 {
    parity_of(b.empties())
}

/// [`parity`] of a position with `empties` empty squares.
#[inline]
fn parity_of(empties: u32) -> f64 {
    if empties % 2 == 1 {
        1.0
    } else {
        -1.0
    }
}
