//! Reading configurations off the board fast: the eight images of each
//! bitboard, a constant gather of each pattern's canonical squares, and a
//! table that reads the gathered bits as base-3 digits (see the module docs
//! of [`patterns`](super) for the index).

use super::set::{
    instances_of, FIRST_INSTANCES, FIRST_PATTERNS, INSTANCES, LANES, OFFSETS, PATTERNS,
};
use crate::game::othello::symmetry::{mirror_columns, transpose};
use crate::game::othello::Board;

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

/// Gathered bits of the canonical instance of every pattern in a board
/// image, per pattern (patterns an image does not serve are skipped by the
/// caller).
#[inline(always)]
const fn gather(x: u64, pattern: usize) -> usize {
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
        9 => (x & 0x0000_0000_8040_2010).wrapping_mul(DIAG) >> 60,
        _ => (x >> 24) & 0xFF,
    }) as usize
}

/// The 8 images of a bitboard, indexed by [`Symmetry`] number.
#[inline(always)]
const fn images(x: u64) -> [u64; 8] {
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

/// Calls `f(pattern, instance, index)` for every instance on `b`, of every
/// pattern of the set, in [`INSTANCE_LIST`] order (the first patterns'
/// instances first).
#[inline(always)]
pub fn for_each_index(player: u64, opponent: u64, mut f: impl FnMut(usize, usize, usize)) {
    let p = images(player);
    let o = images(opponent);
    let mut seen = [0usize; PATTERNS];
    for &(s, k) in &INSTANCE_LIST {
        let index =
            usize::from(TERNARY[gather(p[s], k)]) + 2 * usize::from(TERNARY[gather(o[s], k)]);
        f(k, seen[k], index);
        seen[k] += 1;
    }
}

/// Calls macro `$m` with every instance of the first [`FIRST_PATTERNS`]
/// patterns as `(image, pattern)`, image by image and, within an image,
/// pattern by pattern (the images of a pattern in the order of its
/// symmetries): with [`with_later_instances`], the one list the
/// written-out readings below and [`INSTANCE_LIST`] are made from.
macro_rules! with_first_instances {
    ($m:ident) => {
        $m!(
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
    };
}

/// Calls macro `$m` with the instances of the patterns after the first
/// [`FIRST_PATTERNS`] (`row_4`), as [`with_first_instances`] does: they
/// fill the lanes after the first patterns'.
macro_rules! with_later_instances {
    ($m:ident) => {
        $m!((0, 10), (2, 10), (4, 10), (6, 10))
    };
}

/// Every instance as `(image, pattern)`: the first patterns' instances,
/// then the later ones'.
pub(super) const INSTANCE_LIST: [(usize, usize); INSTANCES] = {
    macro_rules! list {
        ($(($s:literal, $k:literal)),* $(,)?) => { [$(($s, $k)),*] };
    }
    let first: [(usize, usize); FIRST_INSTANCES] = with_first_instances!(list);
    let later: [(usize, usize); INSTANCES - FIRST_INSTANCES] = with_later_instances!(list);
    let mut out = [(0, 0); INSTANCES];
    let mut j = 0;
    while j < INSTANCES {
        out[j] = if j < FIRST_INSTANCES {
            first[j]
        } else {
            later[j - FIRST_INSTANCES]
        };
        j += 1;
    }
    out
};

/// The sum of the table weights `t` of every instance of the first
/// `patterns` patterns ([`FIRST_PATTERNS`] or all): [`for_each_index`]
/// written out, image by image and pattern by pattern, so that every
/// gather is a constant sequence of shifts (the evaluation's hot path;
/// the later patterns cost one well-predicted branch where they are not
/// weighed).
#[inline(always)]
pub(super) fn table_sum(t: &[i16], player: u64, opponent: u64, patterns: usize) -> i32 {
    let p = images(player);
    let o = images(opponent);
    macro_rules! sum {
        ($(($s:literal, $k:literal)),* $(,)?) => {
            0i32 $(+ i32::from(t[OFFSETS[$k]
                + usize::from(TERNARY[gather(p[$s], $k)])
                + 2 * usize::from(TERNARY[gather(o[$s], $k)])]))*
        };
    }
    let first = with_first_instances!(sum);
    if patterns > FIRST_PATTERNS {
        first + with_later_instances!(sum)
    } else {
        first
    }
}

/// Each instance's squares of `x` read as base-3 digits of 1 (the value
/// of those discs alone in the instance's index), in [`for_each_index`]
/// order, into the first [`INSTANCES`] of `LANES` lanes: those of the
/// first `patterns` patterns ([`FIRST_PATTERNS`] or all; the later lanes
/// are 0 when they are not read).
#[inline(always)]
pub(super) fn digits(x: u64, patterns: usize) -> [u16; LANES] {
    let x = images(x);
    let mut out = [0u16; LANES];
    let mut j = 0;
    macro_rules! read {
        ($(($s:literal, $k:literal)),* $(,)?) => {
            $(
                out[j] = TERNARY[gather(x[$s], $k)];
                j += 1;
            )*
        };
    }
    with_first_instances!(read);
    if patterns > FIRST_PATTERNS {
        with_later_instances!(read);
    }
    debug_assert_eq!(j, instances_of(patterns));
    out
}

/// `digits(1 << sq)` for every square, computed at compile time: what a
/// disc of the side on `sq` adds to each instance's reading.
pub(super) const fn square_digits() -> [[u16; LANES]; 64] {
    let mut out = [[0u16; LANES]; 64];
    let mut sq = 0;
    while sq < 64 {
        let x = images(1u64 << sq);
        let mut j = 0;
        while j < INSTANCES {
            let (s, k) = INSTANCE_LIST[j];
            let g = gather(x[s], k);
            if g != 0 {
                // One disc lands on one digit: 3 to its position.
                out[sq][j] = 3u16.pow(g.trailing_zeros());
            }
            j += 1;
        }
        sq += 1;
    }
    out
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
