//! A linear evaluation over classic Othello features, with one weight set
//! per game stage. Every feature is "side to move minus opponent":
//!
//! | name | what it counts |
//! | --- | --- |
//! | `mobility` | legal moves |
//! | `frontier` | empty squares next to one's discs (potential mobility of the *other* side: fewer is better) |
//! | `corners` | corner discs |
//! | `x_squares` | discs on b2, g2, b7, g7 while their corner is empty |
//! | `c_squares` | discs on the edge squares next to an empty corner |
//! | `stable` | discs that can never be flipped (edge-anchored stability) |
//! | `discs` | discs |
//! | `parity` | +1 when the side to move is due the last move (odd number of empties), else -1 |
//!
//! File format (RON):
//! ```ron
//! Features(stages: [
//!     (min_empties: 40, mobility: 8.0, frontier: -4.0, corners: 90.0, x_squares: -40.0,
//!      c_squares: -12.0, stable: 20.0, discs: 0.0, parity: 0.0),
//!     (min_empties: 0, ...),
//! ])
//! ```
//! Weights are centidiscs per unit of the feature.

use super::stages::{StageBound, Staged};
use super::Term;
use crate::error::Result;
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::othello::bitboard::{legal_moves, neighbours, stable_discs};
use crate::game::othello::Board;
use crate::util::parse_ron;
use serde::Deserialize;
use std::path::Path;

/// Largest weight in size: keeps every score far inside `i32`.
pub const MAX_WEIGHT: f64 = 1e5;

/// Number of features.
pub const FEATURES: usize = 8;

/// Feature names, in weight order.
pub const NAMES: [&str; FEATURES] = [
    "mobility",
    "frontier",
    "corners",
    "x_squares",
    "c_squares",
    "stable",
    "discs",
    "parity",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Features")]
struct RawFile {
    stages: Vec<RawStage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStage {
    min_empties: u32,
    mobility: f64,
    frontier: f64,
    corners: f64,
    x_squares: f64,
    c_squares: f64,
    stable: f64,
    discs: f64,
    parity: f64,
}

impl StageBound for RawStage {
    fn min_empties(&self) -> u32 {
        self.min_empties
    }
}

/// A feature evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    weights: Staged<[f64; FEATURES]>,
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// X-squares with their corners: (x-square bit, corner bit).
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// C-squares (two per corner) with their corners.
const C_SQUARES: [(u64, u64); 4] = [
    ((1 << 1) | (1 << 8), 1 << 0),
    ((1 << 6) | (1 << 15), 1 << 7),
    ((1 << 48) | (1 << 57), 1 << 56),
    ((1 << 55) | (1 << 62), 1 << 63),
];

/// The feature values of `b` for the side to move. Always inlined, so it
/// is compiled for its caller's code path (see [`crate::game::cpu`]).
#[inline(always)]
pub fn feature_values(b: &Board) -> [i32; FEATURES] {
    let (p, o) = (b.player, b.opponent);
    let empty = !(p | o);
    let pc = |x: u64| x.count_ones() as i32;
    let mut x_sq = 0;
    let mut c_sq = 0;
    for (x, corner) in X_SQUARES {
        if empty & corner != 0 {
            x_sq += pc(p & x) - pc(o & x);
        }
    }
    for (c, corner) in C_SQUARES {
        if empty & corner != 0 {
            c_sq += pc(p & c) - pc(o & c);
        }
    }
    [
        pc(legal_moves(p, o)) - pc(legal_moves(o, p)),
        pc(neighbours(p) & empty) - pc(neighbours(o) & empty),
        pc(p & CORNERS) - pc(o & CORNERS),
        x_sq,
        c_sq,
        pc(stable_discs(p, o)) - pc(stable_discs(o, p)),
        pc(p) - pc(o),
        if empty.count_ones() % 2 == 1 { 1 } else { -1 },
    ]
}

impl Features {
    /// Parses a weights file (`path` only names it in errors).
    ///
    /// # Errors
    /// Malformed RON, a missing or unknown weight, a weight that is not a
    /// finite number, or bad stage bounds, each naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<Features> {
        let raw: RawFile = parse_ron(text, path)?;
        let weights = Staged::parse(&raw.stages, text, path, |s, at| {
            let w = [
                s.mobility,
                s.frontier,
                s.corners,
                s.x_squares,
                s.c_squares,
                s.stable,
                s.discs,
                s.parity,
            ];
            if let Some(k) = w
                .iter()
                .position(|v| !v.is_finite() || v.abs() > MAX_WEIGHT)
            {
                return Err(at.error(
                    NAMES[k],
                    format!(
                        "stage {}: weight {} is not a finite number of at most {MAX_WEIGHT} in size",
                        at.number(),
                        crate::util::text::short_number(w[k])
                    ),
                ));
            }
            Ok(w)
        })?;
        Ok(Features { weights })
    }

    /// The stages: `min_empties` and weights, highest `min_empties` first.
    pub fn stages(&self) -> Vec<(u32, [f64; FEATURES])> {
        self.weights.iter().map(|(m, w)| (m, *w)).collect()
    }

    fn stage(&self, b: &Board) -> &[f64; FEATURES] {
        self.weights.at(b.empties())
    }

    /// Score for the side to move, in centidiscs.
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        match detect() {
            Some(avx2) => self.evaluate_on(avx2, b),
            None => self.evaluate_on(Baseline, b),
        }
    }

    /// [`Features::evaluate`] by the code of path `cpu`.
    pub fn evaluate_on<C: Cpu>(&self, cpu: C, b: &Board) -> i32 {
        cpu.run(
            #[inline(always)]
            move || {
                let w = self.stage(b);
                let f = feature_values(b);
                let mut sum = 0.0;
                for k in 0..FEATURES {
                    sum += w[k] * f64::from(f[k]);
                }
                sum.round() as i32
            },
        )
    }

    /// Every feature with its weight and contribution.
    pub fn explain(&self, b: &Board) -> Vec<Term> {
        let w = self.stage(b);
        let f = feature_values(b);
        (0..FEATURES)
            .map(|k| Term::new(NAMES[k], f64::from(f[k]), w[k]))
            .collect()
    }
}
