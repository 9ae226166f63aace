//! Move generation and flips with AVX2: the four lines through a square
//! (east-west, north-south, the a1-h8 and the h1-a8 diagonals) in the four
//! 64-bit lanes of one 256-bit register, as Edax's and Egaroucid's AVX2
//! code does. The lanes' shifts are 1, 8, 9 and 7, lowest lane first.
//!
//! Every function here is compiled for AVX2 and `#[inline]`: inlined into
//! code compiled for the same features (the [`crate::game::cpu::Avx2`]
//! path); a call from elsewhere is `unsafe` and must know the processor
//! has them.

use super::bitboard::{build_rays, NOT_EDGE_COLUMNS};
use std::arch::x86_64::{
    __m128i, __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128,
    _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_load_si256, _mm256_or_si256,
    _mm256_set1_epi64x, _mm256_set_epi64x, _mm256_setzero_si256, _mm256_sllv_epi64,
    _mm256_srlv_epi64, _mm256_sub_epi64, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64,
};

/// Four 64-bit lanes, aligned for one vector load.
#[repr(C, align(32))]
#[derive(Clone, Copy)]
struct Lanes([u64; 4]);

/// For each square, the squares of its four lines from it (not included)
/// to the edge: `[0]` towards higher indexes, `[1]` towards lower, in the
/// lanes' order (1, 8, 9, 7).
static LINES: [[Lanes; 2]; 64] = build_lines();

const fn build_lines() -> [[Lanes; 2]; 64] {
    // Directions of `build_rays`: 0 E (+1), 1 SW (+7), 2 S (+8), 3 SE (+9),
    // and their opposites 4..8 in the same order.
    let rays = build_rays();
    let mut lines = [[Lanes([0; 4]); 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let r = rays[sq];
        lines[sq] = [
            Lanes([r[0], r[2], r[3], r[1]]),
            Lanes([r[4], r[6], r[7], r[5]]),
        ];
        sq += 1;
    }
    lines
}

/// The lanes' shifts, lowest lane first: 1, 8, 9, 7.
#[target_feature(enable = "avx2")]
#[inline]
fn shifts() -> __m256i {
    _mm256_set_epi64x(7, 9, 8, 1)
}

/// `v` into a vector register.
#[target_feature(enable = "avx2")]
#[inline]
fn load(v: &Lanes) -> __m256i {
    // SAFETY: `Lanes` is 32 bytes aligned to 32, as the load requires.
    unsafe { _mm256_load_si256(v.0.as_ptr().cast()) }
}

/// The OR of the four lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn fold(v: __m256i) -> u64 {
    let half: __m128i = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// Legal moves of `player` against `opponent`
/// ([`super::bitboard::legal_moves`]): from the player's discs, a
/// parallel-prefix fill over the opponent's along each line both ways at
/// once (runs of 1, 2, then 4 and 6 discs), one step past the run.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn legal_moves(player: u64, opponent: u64) -> u64 {
    const COLS: i64 = NOT_EDGE_COLUMNS as i64;
    let s1 = shifts();
    let s2 = _mm256_set_epi64x(14, 18, 16, 2);
    let p = _mm256_set1_epi64x(player as i64);
    // Columns a and h out of the runs that change column: no wrapping.
    let o = _mm256_and_si256(
        _mm256_set1_epi64x(opponent as i64),
        _mm256_set_epi64x(COLS, COLS, -1, COLS),
    );
    let mut up = _mm256_and_si256(o, _mm256_sllv_epi64(p, s1));
    let mut down = _mm256_and_si256(o, _mm256_srlv_epi64(p, s1));
    up = _mm256_or_si256(up, _mm256_and_si256(o, _mm256_sllv_epi64(up, s1)));
    down = _mm256_or_si256(down, _mm256_and_si256(o, _mm256_srlv_epi64(down, s1)));
    // Opponent discs whose neighbour one step on is one too.
    let pairs_up = _mm256_and_si256(o, _mm256_sllv_epi64(o, s1));
    let pairs_down = _mm256_srlv_epi64(pairs_up, s1);
    up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, s2)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, s2)),
    );
    up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, s2)));
    down = _mm256_or_si256(
        down,
        _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, s2)),
    );
    let ends = _mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1));
    fold(ends) & !(player | opponent)
}

/// The opponent discs that `player` flips by playing on `square`
/// ([`super::bitboard::flips`]), from the square's four lines
/// ([`LINES`]). Towards higher indexes the nearest square that is not an
/// opponent disc is the lowest set bit of a lane (`x & -x`); when it holds
/// a player disc, the line's squares below it are flipped. Towards lower
/// indexes the nearest is the highest: each player disc on the line marks
/// the square one step nearer (the run's end if it outflanks), and that
/// mark survives only if no square from it to the move is empty or the
/// player's; the line's squares from the mark up are flipped.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    let s1 = shifts();
    let p = _mm256_set1_epi64x(player as i64);
    let o = _mm256_set1_epi64x(opponent as i64);
    let zero = _mm256_setzero_si256();
    let [higher, lower] = &LINES[square];
    let (higher, lower) = (load(higher), load(lower));

    let blockers = _mm256_andnot_si256(o, higher);
    let nearest = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
    let outflank = _mm256_and_si256(nearest, p);
    // The outflank square and above, or every square when there is none.
    let beyond = _mm256_sub_epi64(_mm256_cmpeq_epi64(outflank, zero), outflank);
    let up = _mm256_andnot_si256(beyond, higher);

    let mut blockers = _mm256_andnot_si256(o, lower);
    let mut mark = _mm256_sllv_epi64(_mm256_and_si256(p, lower), s1);
    // A run is at most 6 discs: blockers spread 0..=5 steps up clear it.
    blockers = _mm256_or_si256(blockers, _mm256_srlv_epi64(blockers, s1));
    mark = _mm256_andnot_si256(blockers, mark);
    let (s2, s4) = (
        _mm256_set_epi64x(14, 18, 16, 2),
        _mm256_set_epi64x(28, 36, 32, 4),
    );
    mark = _mm256_andnot_si256(_mm256_srlv_epi64(blockers, s2), mark);
    mark = _mm256_andnot_si256(_mm256_srlv_epi64(blockers, s4), mark);
    let down = _mm256_and_si256(lower, _mm256_sub_epi64(zero, mark));

    fold(_mm256_or_si256(up, down))
}
