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
//!
//! The other instances are the images of the canonical one under the
//! board's symmetries (rotations and reflections), with the squares in the
//! corresponding order: the instance at the h1 corner of `corner_3x3` reads
//! h1 g1 f1 h2 g2 f2 h3 g3 f3. 42 instances in all.
//!
//! **Index.** A configuration's index is `Σ digit(square_i) · 3^i` over the
//! pattern's squares in the order listed (the first square is the least
//! significant digit), with digit 0 for an empty square, 1 for a disc of the
//! side to move and 2 for an opponent's disc. A pattern of n squares has
//! 3^n entries.
//!
//! **Score.** In centidiscs for the side to move: the stage's `bias`, plus
//! `mobility` × (own legal moves − opponent's legal moves), plus the weight
//! of every instance's configuration.
//!
//! **File format** (RON). Every stage lists every pattern; a table is sparse:
//! `(index, weight)` pairs, an index not listed weighs 0.
//! ```ron
//! Patterns(stages: [
//!     (min_empties: 40, bias: 0.0, mobility: 50.0, tables: {
//!         "edge_x": [(1, 120.0), (2, -120.0)],
//!         "corner_3x3": [], "corner_2x5": [], "row_2": [], "row_3": [],
//!         "diag_8": [], "diag_7": [], "diag_6": [], "diag_5": [], "diag_4": [],
//!     }),
//!     (min_empties: 0, ...),
//! ])
//! ```
//! Weights are centidiscs; a table weight must be a whole number of at most
//! 32,767 in size (tables are stored as 16-bit integers), the scalars finite
//! and at most 1e5.

use super::Term;
use crate::error::{Error, Result};
use crate::game::othello::bitboard::legal_moves;
use crate::game::othello::symmetry::{mirror_columns, transpose, Symmetry};
use crate::game::othello::{Board, Square};
use crate::util::{check_stages, parse_ron, stage_of};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Number of patterns.
pub const PATTERNS: usize = 10;

/// Largest table weight in size.
pub const MAX_TABLE_WEIGHT: f64 = 32767.0;

/// Largest scalar weight in size.
pub const MAX_SCALAR: f64 = 1e5;

/// One pattern: its name, its canonical squares (bit indices, a1 = 0,
/// b1 = 1, a2 = 8), the symmetries whose images give its instances, and the
/// order its digits take under the pattern's own reflection (configurations
/// that are mirror images of each other are the same shape on the board).
pub struct Pattern {
    /// Name in files.
    pub name: &'static str,
    /// Squares of the canonical instance, least significant digit first.
    pub squares: &'static [u8],
    /// Symmetries whose images of the board, read at `squares`, give the
    /// instances.
    pub symmetries: &'static [u8],
    /// `mirror[i]`: the digit position square `i` moves to under the
    /// pattern's own reflection (the identity for `corner_2x5`).
    pub mirror: &'static [u8],
}

impl Pattern {
    /// Number of configurations (3^squares).
    pub fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }

    /// The index of the configuration mirrored by the pattern's own
    /// reflection.
    pub fn mirrored(&self, index: usize) -> usize {
        let mut digits = [0usize; 10];
        let mut x = index;
        for d in digits.iter_mut().take(self.squares.len()) {
            *d = x % 3;
            x /= 3;
        }
        let mut out = 0;
        for (i, &m) in self.mirror.iter().enumerate() {
            out += digits[i] * 3usize.pow(u32::from(m));
        }
        out
    }

    /// The squares of instance `k`, in digit order.
    pub fn instance_squares(&self, k: usize) -> Vec<Square> {
        let inv = Symmetry(self.symmetries[k]).inverse();
        self.squares
            .iter()
            .map(|&s| inv.square(Square::new(s)))
            .collect()
    }
}

/// The pattern set, in file and table order.
pub const SET: [Pattern; PATTERNS] = [
    Pattern {
        name: "edge_x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        symmetries: &[0, 2, 4, 6],
        mirror: &[7, 6, 5, 4, 3, 2, 1, 0, 9, 8],
    },
    Pattern {
        name: "corner_3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        symmetries: &[0, 1, 2, 3],
        mirror: &[0, 3, 6, 1, 4, 7, 2, 5, 8],
    },
    Pattern {
        name: "corner_2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        symmetries: &[0, 1, 2, 3, 4, 5, 6, 7],
        mirror: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    },
    Pattern {
        name: "row_2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        symmetries: &[0, 2, 4, 6],
        mirror: &[7, 6, 5, 4, 3, 2, 1, 0],
    },
    Pattern {
        name: "row_3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        symmetries: &[0, 2, 4, 6],
        mirror: &[7, 6, 5, 4, 3, 2, 1, 0],
    },
    Pattern {
        name: "diag_8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        symmetries: &[0, 1],
        mirror: &[7, 6, 5, 4, 3, 2, 1, 0],
    },
    Pattern {
        name: "diag_7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
        symmetries: &[0, 1, 2, 4],
        mirror: &[6, 5, 4, 3, 2, 1, 0],
    },
    Pattern {
        name: "diag_6",
        squares: &[2, 11, 20, 29, 38, 47],
        symmetries: &[0, 1, 2, 4],
        mirror: &[5, 4, 3, 2, 1, 0],
    },
    Pattern {
        name: "diag_5",
        squares: &[3, 12, 21, 30, 39],
        symmetries: &[0, 1, 2, 4],
        mirror: &[4, 3, 2, 1, 0],
    },
    Pattern {
        name: "diag_4",
        squares: &[4, 13, 22, 31],
        symmetries: &[0, 1, 2, 4],
        mirror: &[3, 2, 1, 0],
    },
];

/// Number of instances over the whole set.
pub const INSTANCES: usize = 42;

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit i → 3^i).
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < 10 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// Offsets of each pattern's table in a stage's weight vector.
const OFFSETS: [usize; PATTERNS + 1] = {
    let mut o = [0usize; PATTERNS + 1];
    let mut k = 0;
    while k < PATTERNS {
        o[k + 1] = o[k] + 3usize.pow(SET[k].squares.len() as u32);
        k += 1;
    }
    o
};

/// Entries in one stage's tables.
pub const STAGE_SIZE: usize = OFFSETS[PATTERNS];

/// Gathered bits of the canonical instance of every pattern in a board
/// image, per pattern (patterns an image does not serve are skipped by the
/// caller).
#[inline(always)]
fn gather(x: u64, pattern: usize) -> usize {
    const DIAG: u64 = 0x0101_0101_0101_0101;
    (match pattern {
        0 => (x & 0xFF) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200),
        1 => (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0),
        2 => (x & 0x1F) | ((x >> 3) & 0x3E0),
        3 => (x >> 8) & 0xFF,
        4 => (x >> 16) & 0xFF,
        5 => (x & 0x8040_2010_0804_0201).wrapping_mul(DIAG) >> 56,
        6 => (x & 0x0080_4020_1008_0402).wrapping_mul(DIAG) >> 57,
        7 => (x & 0x0000_8040_2010_0804).wrapping_mul(DIAG) >> 58,
        8 => (x & 0x0000_0080_4020_1008).wrapping_mul(DIAG) >> 59,
        _ => (x & 0x0000_0000_8040_2010).wrapping_mul(DIAG) >> 60,
    }) as usize
}

/// Which patterns read each of the 8 images (bit k: pattern k).
const SERVES: [u16; 8] = {
    let mut s = [0u16; 8];
    let mut k = 0;
    while k < PATTERNS {
        let syms = SET[k].symmetries;
        let mut i = 0;
        while i < syms.len() {
            s[syms[i] as usize] |= 1 << k;
            i += 1;
        }
        k += 1;
    }
    s
};

/// The 8 images of a bitboard, indexed by [`Symmetry`] number.
#[inline(always)]
fn images(x: u64) -> [u64; 8] {
    let m = mirror_columns(x);
    let t = transpose(x);
    let tm = mirror_columns(t);
    [
        x,
        m,
        x.swap_bytes(),
        m.swap_bytes(),
        t,
        tm,
        t.swap_bytes(),
        tm.swap_bytes(),
    ]
}

/// Calls `f(pattern, instance, index)` for every instance on `b`.
#[inline(always)]
pub fn for_each_index(player: u64, opponent: u64, mut f: impl FnMut(usize, usize, usize)) {
    let p = images(player);
    let o = images(opponent);
    let mut seen = [0usize; PATTERNS];
    for s in 0..8 {
        let mut serves = SERVES[s];
        while serves != 0 {
            let k = serves.trailing_zeros() as usize;
            serves &= serves - 1;
            let index =
                usize::from(TERNARY[gather(p[s], k)]) + 2 * usize::from(TERNARY[gather(o[s], k)]);
            f(k, seen[k], index);
            seen[k] += 1;
        }
    }
}

/// The sum of the table weights of every instance: [`for_each_index`]
/// written out, image by image and pattern by pattern, so that every
/// gather is a constant sequence of shifts (the evaluation's hot path).
#[inline]
fn table_sum(t: &[i16], player: u64, opponent: u64) -> i32 {
    let p = images(player);
    let o = images(opponent);
    macro_rules! sum {
        ($(($s:literal, $k:literal)),* $(,)?) => {
            0i32 $(+ i32::from(t[OFFSETS[$k]
                + usize::from(TERNARY[gather(p[$s], $k)])
                + 2 * usize::from(TERNARY[gather(o[$s], $k)])]))*
        };
    }
    // (image, pattern) in the order of SERVES, as for_each_index visits them.
    sum!(
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (0, 6),
        (0, 7),
        (0, 8),
        (0, 9),
        (1, 1),
        (1, 2),
        (1, 5),
        (1, 6),
        (1, 7),
        (1, 8),
        (1, 9),
        (2, 0),
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 6),
        (2, 7),
        (2, 8),
        (2, 9),
        (3, 1),
        (3, 2),
        (4, 0),
        (4, 2),
        (4, 3),
        (4, 4),
        (4, 6),
        (4, 7),
        (4, 8),
        (4, 9),
        (5, 2),
        (6, 0),
        (6, 2),
        (6, 3),
        (6, 4),
        (7, 2),
    )
}

/// The index of every instance, in the order of [`for_each_index`] (for
/// fitting): `(pattern, index)`.
pub fn indices(b: &Board) -> [(u8, u32); INSTANCES] {
    let mut out = [(0u8, 0u32); INSTANCES];
    let mut n = 0;
    for_each_index(b.player, b.opponent, |k, _, i| {
        out[n] = (k as u8, i as u32);
        n += 1;
    });
    out
}

/// Offset of pattern `k`'s table in a stage's weights.
pub fn offset(k: usize) -> usize {
    OFFSETS[k]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Patterns")]
struct RawFile {
    stages: Vec<RawStage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStage {
    min_empties: u32,
    bias: f64,
    mobility: f64,
    tables: BTreeMap<String, Vec<(u64, f64)>>,
}

/// One stage's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct StageWeights {
    /// Constant term.
    pub bias: f64,
    /// Weight of the mobility difference.
    pub mobility: f64,
    /// Every pattern's table, concatenated in [`SET`] order.
    pub tables: Vec<i16>,
}

/// A pattern evaluation. Cloning shares the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    min_empties: Vec<u32>,
    stages: Arc<Vec<StageWeights>>,
}

impl Patterns {
    /// Builds an evaluation from stages (highest `min_empties` first, the
    /// last at 0).
    pub fn new(min_empties: Vec<u32>, stages: Vec<StageWeights>) -> Patterns {
        Patterns {
            min_empties,
            stages: Arc::new(stages),
        }
    }

    /// Parses a weights file (`path` only names it in errors).
    ///
    /// # Errors
    /// Malformed RON, bad stage bounds, a missing or unknown pattern, an
    /// index out of range or listed twice, a weight that is not finite or
    /// too large, each naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<Patterns> {
        let raw: RawFile = parse_ron(text, path)?;
        let min_empties: Vec<u32> = raw.stages.iter().map(|s| s.min_empties).collect();
        check_stages(&min_empties, text, path)?;
        let mut stages = Vec::new();
        for (n, s) in raw.stages.iter().enumerate() {
            let stage = n + 1;
            for (field, v) in [("bias", s.bias), ("mobility", s.mobility)] {
                if !v.is_finite() || v.abs() > MAX_SCALAR {
                    return Err(Error::config_field_nth(
                        path,
                        text,
                        field,
                        n,
                        format!("stage {stage}: {v} is not a finite number of at most {MAX_SCALAR} in size"),
                    ));
                }
            }
            let bad = |msg: String| Err(Error::config_field_nth(path, text, "tables", n, msg));
            if let Some(name) = s.tables.keys().find(|k| !SET.iter().any(|p| p.name == *k)) {
                let names: Vec<&str> = SET.iter().map(|p| p.name).collect();
                return bad(format!(
                    "stage {stage}: unknown pattern {name:?} (the patterns are {})",
                    names.join(", ")
                ));
            }
            let mut tables = vec![0i16; STAGE_SIZE];
            for (k, p) in SET.iter().enumerate() {
                let Some(entries) = s.tables.get(p.name) else {
                    return bad(format!(
                        "stage {stage}: pattern {:?} is missing (list it, empty if all its weights are 0)",
                        p.name
                    ));
                };
                let mut set = vec![false; p.size()];
                for &(index, w) in entries {
                    if index >= p.size() as u64 {
                        return bad(format!(
                            "stage {stage}, pattern {:?}: index {index} is out of range (3^{} = {} configurations)",
                            p.name,
                            p.squares.len(),
                            p.size()
                        ));
                    }
                    if set[index as usize] {
                        return bad(format!(
                            "stage {stage}, pattern {:?}: index {index} is listed twice",
                            p.name
                        ));
                    }
                    if !w.is_finite() || w.abs() > MAX_TABLE_WEIGHT || w.fract() != 0.0 {
                        return bad(format!(
                            "stage {stage}, pattern {:?}, index {index}: weight {w} is not a whole number of at most {MAX_TABLE_WEIGHT} in size",
                            p.name
                        ));
                    }
                    set[index as usize] = true;
                    tables[OFFSETS[k] + index as usize] = w as i16;
                }
            }
            stages.push(StageWeights {
                bias: s.bias,
                mobility: s.mobility,
                tables,
            });
        }
        Ok(Patterns::new(min_empties, stages))
    }

    /// The stages: `min_empties` and weights, highest `min_empties` first.
    pub fn stages(&self) -> impl Iterator<Item = (u32, &StageWeights)> {
        self.min_empties.iter().copied().zip(self.stages.iter())
    }

    fn stage(&self, b: &Board) -> &StageWeights {
        &self.stages[stage_of(&self.min_empties, b.empties())]
    }

    /// Score for the side to move, in centidiscs.
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        let w = self.stage(b);
        let sum = table_sum(&w.tables, b.player, b.opponent);
        let mobility = legal_moves(b.player, b.opponent).count_ones() as i32
            - legal_moves(b.opponent, b.player).count_ones() as i32;
        sum + (w.bias + w.mobility * f64::from(mobility)).round() as i32
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
        for_each_index(b.player, b.opponent, |k, n, index| {
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

/// The weights file for `stages`, with `header` lines as comments and a
/// comment per stage from `notes`; zero weights are left out.
pub fn weights_file(
    min_empties: &[u32],
    stages: &[StageWeights],
    notes: &[String],
    header: &[String],
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for h in header {
        let _ = writeln!(out, "// {h}");
    }
    out.push_str("Patterns(\n    stages: [\n");
    for (n, (m, s)) in min_empties.iter().zip(stages).enumerate() {
        if let Some(note) = notes.get(n) {
            let _ = writeln!(out, "        // {note}");
        }
        let _ = writeln!(
            out,
            "        (min_empties: {m}, bias: {:?}, mobility: {:?}, tables: {{",
            s.bias, s.mobility
        );
        for (k, p) in SET.iter().enumerate() {
            let _ = write!(out, "            \"{}\": [", p.name);
            let mut first = true;
            for (i, &w) in s.tables[OFFSETS[k]..OFFSETS[k + 1]].iter().enumerate() {
                if w != 0 {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    let _ = write!(out, "({i},{w})");
                }
            }
            out.push_str("],\n");
        }
        out.push_str("        }),\n");
    }
    out.push_str("    ],\n)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::SplitMix64;

    /// The index of instance `n` of pattern `k`, read square by square.
    fn slow_index(b: &Board, k: usize, n: usize) -> usize {
        let mut index = 0;
        let mut power = 1;
        for s in SET[k].instance_squares(n) {
            let digit = if b.player & s.bit() != 0 {
                1
            } else if b.opponent & s.bit() != 0 {
                2
            } else {
                0
            };
            index += digit * power;
            power *= 3;
        }
        index
    }

    fn random_board(rng: &mut SplitMix64) -> Board {
        let a = rng.next_u64();
        let m = rng.next_u64();
        Board {
            player: a & m,
            opponent: a & !m,
            side: crate::game::othello::Color::Black,
        }
    }

    #[test]
    fn fast_indices_match_square_by_square_reading() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..2000 {
            let b = random_board(&mut rng);
            let mut count = 0;
            for_each_index(b.player, b.opponent, |k, n, index| {
                assert_eq!(
                    index,
                    slow_index(&b, k, n),
                    "pattern {} instance {n}",
                    SET[k].name
                );
                count += 1;
            });
            assert_eq!(count, INSTANCES);
        }
    }

    #[test]
    fn the_written_out_sum_visits_every_instance_once() {
        let mut rng = SplitMix64::new(9);
        let t: Vec<i16> = (0..STAGE_SIZE)
            .map(|_| (rng.below(2001) as i16) - 1000)
            .collect();
        for _ in 0..2000 {
            let b = random_board(&mut rng);
            let mut want = 0i32;
            for_each_index(b.player, b.opponent, |k, _, index| {
                want += i32::from(t[OFFSETS[k] + index]);
            });
            assert_eq!(table_sum(&t, b.player, b.opponent), want);
        }
    }

    #[test]
    fn instances_are_distinct_and_cover_the_classic_set() {
        for p in &SET {
            let mut sets: Vec<Vec<Square>> = (0..p.symmetries.len())
                .map(|n| {
                    let mut s = p.instance_squares(n);
                    s.sort_by_key(|q| q.index());
                    s
                })
                .collect();
            sets.sort_by_key(|s| s.iter().map(|q| q.index()).collect::<Vec<_>>());
            sets.dedup();
            // corner_2x5 has 8 distinct instances, diag_8 2, the rest 4.
            assert_eq!(sets.len(), p.symmetries.len(), "{}", p.name);
        }
        // Every square is covered by some instance.
        let mut covered = 0u64;
        for p in &SET {
            for n in 0..p.symmetries.len() {
                for s in p.instance_squares(n) {
                    covered |= s.bit();
                }
            }
        }
        // The four centre squares are in the diagonals; all 64 are covered.
        assert_eq!(covered, u64::MAX);
    }

    #[test]
    fn mirror_tied_tables_give_a_symmetric_evaluation() {
        // With every configuration weighing the same as its mirror image,
        // the 8 reflections and rotations of a position score the same.
        let mut rng = SplitMix64::new(3);
        let mut tables = vec![0i16; STAGE_SIZE];
        for (k, p) in SET.iter().enumerate() {
            for i in 0..p.size() {
                let j = p.mirrored(i);
                assert_eq!(p.mirrored(j), i);
                if j >= i {
                    let w = (rng.below(2001) as i16) - 1000;
                    tables[OFFSETS[k] + i] = w;
                    tables[OFFSETS[k] + j] = w;
                }
            }
        }
        let eval = Patterns::new(
            vec![0],
            vec![StageWeights {
                bias: 3.0,
                mobility: 7.0,
                tables,
            }],
        );
        for _ in 0..500 {
            let b = random_board(&mut rng);
            let v = eval.evaluate(&b);
            for s in Symmetry::ALL {
                assert_eq!(eval.evaluate(&s.board(&b)), v, "symmetry {}", s.0);
            }
        }
    }
}
