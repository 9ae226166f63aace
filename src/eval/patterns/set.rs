//! The pattern set: each pattern's squares, the symmetries that give its
//! instances, its own reflection, and where its table sits in a stage's
//! weights.

use crate::game::othello::symmetry::Symmetry;
use crate::game::othello::Square;

/// Number of patterns.
pub const PATTERNS: usize = 11;

/// The patterns every weights file has: the first ten of [`SET`]. A file
/// may add the ones after them, in order (today `row_4`); the first ten
/// are the set files were written for before `row_4` existed, and such a
/// file reads and evaluates as it did.
pub const FIRST_PATTERNS: usize = 10;

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
    // The fourth lines (Logistello's and Edax's `hv4`): optional, after the
    // first ten.
    Pattern {
        name: "row_4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        symmetries: &[0, 2, 4, 6],
        mirror: &[7, 6, 5, 4, 3, 2, 1, 0],
    },
];

/// Number of instances over the whole set.
pub const INSTANCES: usize = 46;

/// Instances of the first [`FIRST_PATTERNS`] patterns: the first lanes of
/// a reading (the optional patterns' instances come after them).
pub const FIRST_INSTANCES: usize = 42;

/// Lanes of a reading: the 46 instances, padded to a multiple of 16 so
/// that a reading is whole vector registers (the pad lanes stay 0).
pub const LANES: usize = 48;

/// Instances of the first `patterns` patterns of [`SET`] (
/// [`FIRST_PATTERNS`] or more): the lanes of a reading they fill.
pub const fn instances_of(patterns: usize) -> usize {
    let mut n = 0;
    let mut k = 0;
    while k < patterns {
        n += SET[k].symmetries.len();
        k += 1;
    }
    n
}

const _: () = assert!(instances_of(PATTERNS) == INSTANCES);
const _: () = assert!(instances_of(FIRST_PATTERNS) == FIRST_INSTANCES);
const _: () = assert!(INSTANCES <= LANES && LANES.is_multiple_of(16));

/// Offsets of each pattern's table in a stage's weight vector.
pub(super) const OFFSETS: [usize; PATTERNS + 1] = {
    let mut o = [0usize; PATTERNS + 1];
    let mut k = 0;
    while k < PATTERNS {
        o[k + 1] = o[k] + 3usize.pow(SET[k].squares.len() as u32);
        k += 1;
    }
    o
};

/// Entries in one stage's tables, every pattern of the set.
pub const STAGE_SIZE: usize = OFFSETS[PATTERNS];

/// Entries in one stage's tables of the first `patterns` patterns (a
/// weights file's tables).
pub const fn stage_size(patterns: usize) -> usize {
    OFFSETS[patterns]
}

/// How many patterns, from the first of [`SET`], tables of `size` entries
/// a stage hold ([`FIRST_PATTERNS`] or more; `None` for no such number).
pub fn patterns_of(size: usize) -> Option<usize> {
    (FIRST_PATTERNS..=PATTERNS).find(|&n| stage_size(n) == size)
}

/// Offset of pattern `k`'s table in a stage's weights.
pub fn offset(k: usize) -> usize {
    OFFSETS[k]
}
