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
    __m128i, __m256i, _mm256_add_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64, _mm256_extracti128_si256,
    _mm256_load_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_sad_epu8,
    _mm256_set1_epi64x, _mm256_set1_epi8, _mm256_set_epi64x, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_sllv_epi64,
    _mm256_srli_epi16, _mm256_srli_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256, _mm_add_epi64,
    _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64,
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
/// ([`super::bitboard::legal_moves`]).
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn legal_moves(player: u64, opponent: u64) -> u64 {
    let lanes = moves_lanes(
        _mm256_set1_epi64x(player as i64),
        _mm256_set1_epi64x(opponent as i64),
    );
    fold(lanes) & !(player | opponent)
}

/// The squares (in each line's lane) where `player` (every lane) can play
/// against `opponent` (every lane), empty or not: from the player's
/// discs, a parallel-prefix fill over the opponent's along each line both
/// ways at once (runs of 1, 2, then 4 and 6 discs), one step past the run.
#[target_feature(enable = "avx2")]
#[inline]
fn moves_lanes(p: __m256i, opponent: __m256i) -> __m256i {
    const COLS: i64 = NOT_EDGE_COLUMNS as i64;
    let s1 = shifts();
    let s2 = _mm256_set_epi64x(14, 18, 16, 2);
    // Columns a and h out of the runs that change column: no wrapping.
    let o = _mm256_and_si256(opponent, _mm256_set_epi64x(COLS, COLS, -1, COLS));
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
    _mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1))
}

/// The opponent discs that `player` flips by playing on `square`
/// ([`super::ops::flips`]), from the square's four lines
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
    fold(flips_lanes(
        square,
        _mm256_set1_epi64x(player as i64),
        _mm256_set1_epi64x(opponent as i64),
    ))
}

/// [`flips`] of `p` (every lane) against `o` (every lane), each lane the
/// discs flipped along its line.
#[target_feature(enable = "avx2")]
#[inline]
fn flips_lanes(square: usize, p: __m256i, o: __m256i) -> __m256i {
    let s1 = shifts();
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

    _mm256_or_si256(up, down)
}

/// The sum over the squares of `moves` (legal moves of `player`) of
/// the number of replies of each child, or 1 when it has none (a pass or
/// the end of the game): the leaves two plies below, counted four children at
/// a time. Each child's flips are found as in [`flips`] (its four lines in
/// the lanes), then the four children are put one per lane and their
/// moves found together ([`moves_per_lane`]) and counted in the lanes.
#[target_feature(enable = "avx2,popcnt,bmi1")]
#[inline]
pub(crate) fn reply_counts(moves: u64, player: u64, opponent: u64) -> u64 {
    let (p, o) = (
        _mm256_set1_epi64x(player as i64),
        _mm256_set1_epi64x(opponent as i64),
    );
    let zero = _mm256_setzero_si256();
    let mut total = zero;
    let mut rest = moves;
    while rest != 0 {
        // Up to four squares; missing ones repeat the first, their lanes
        // left out of the sum.
        let n = rest.count_ones().min(4) as i64;
        let s0 = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut next = || {
            let s = if rest == 0 {
                s0
            } else {
                rest.trailing_zeros() as usize
            };
            rest &= rest.wrapping_sub(1);
            s
        };
        let (s1, s2, s3) = (next(), next(), next());
        let flipped = one_per_lane(
            flips_lanes(s0, p, o),
            flips_lanes(s1, p, o),
            flips_lanes(s2, p, o),
            flips_lanes(s3, p, o),
        );
        let x = _mm256_set_epi64x(1 << s3, 1 << s2, 1 << s1, 1 << s0);
        let (np, no) = (
            _mm256_xor_si256(o, flipped),
            _mm256_or_si256(p, _mm256_or_si256(flipped, x)),
        );
        let legal = _mm256_andnot_si256(_mm256_or_si256(np, no), moves_per_lane(np, no));
        let count = popcount_lanes(legal);
        // No move: one leaf (a pass or the end of the game).
        let count = _mm256_sub_epi64(count, _mm256_cmpeq_epi64(count, zero));
        let valid = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_set_epi64x(3, 2, 1, 0));
        total = _mm256_add_epi64(total, _mm256_and_si256(count, valid));
    }
    let half = _mm_add_epi64(
        _mm256_castsi256_si128(total),
        _mm256_extracti128_si256::<1>(total),
    );
    _mm_cvtsi128_si64(_mm_add_epi64(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// Lane `i` of the result: the OR of the four lanes of the `i`th argument.
#[target_feature(enable = "avx2")]
#[inline]
fn one_per_lane(a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> __m256i {
    // Pairs of lanes ORed within each 128-bit half, then the halves.
    let ab = _mm256_or_si256(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
    let cd = _mm256_or_si256(_mm256_unpacklo_epi64(c, d), _mm256_unpackhi_epi64(c, d));
    _mm256_or_si256(
        _mm256_permute2x128_si256::<0x20>(ab, cd),
        _mm256_permute2x128_si256::<0x31>(ab, cd),
    )
}

/// The number of discs of each lane.
#[target_feature(enable = "avx2")]
#[inline]
fn popcount_lanes(v: __m256i) -> __m256i {
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low = _mm256_set1_epi8(0x0F);
    let lo = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(v, low));
    let hi = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(_mm256_srli_epi16::<4>(v), low));
    _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256())
}

/// The squares where `p` can play against `o`, lane by lane (each lane a
/// position of its own), empty or not: [`moves_lanes`]'s fill, one line
/// direction at a time.
#[target_feature(enable = "avx2")]
#[inline]
fn moves_per_lane(p: __m256i, o: __m256i) -> __m256i {
    let inner = _mm256_and_si256(o, _mm256_set1_epi64x(NOT_EDGE_COLUMNS as i64));
    macro_rules! line {
        ($o:expr, $k:literal, $k2:literal) => {{
            let o = $o;
            let mut up = _mm256_and_si256(o, _mm256_slli_epi64::<$k>(p));
            let mut down = _mm256_and_si256(o, _mm256_srli_epi64::<$k>(p));
            up = _mm256_or_si256(up, _mm256_and_si256(o, _mm256_slli_epi64::<$k>(up)));
            down = _mm256_or_si256(down, _mm256_and_si256(o, _mm256_srli_epi64::<$k>(down)));
            let pairs_up = _mm256_and_si256(o, _mm256_slli_epi64::<$k>(o));
            let pairs_down = _mm256_srli_epi64::<$k>(pairs_up);
            up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_slli_epi64::<$k2>(up)));
            down = _mm256_or_si256(
                down,
                _mm256_and_si256(pairs_down, _mm256_srli_epi64::<$k2>(down)),
            );
            up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_slli_epi64::<$k2>(up)));
            down = _mm256_or_si256(
                down,
                _mm256_and_si256(pairs_down, _mm256_srli_epi64::<$k2>(down)),
            );
            _mm256_or_si256(_mm256_slli_epi64::<$k>(up), _mm256_srli_epi64::<$k>(down))
        }};
    }
    _mm256_or_si256(
        _mm256_or_si256(line!(inner, 1, 2), line!(o, 8, 16)),
        _mm256_or_si256(line!(inner, 9, 18), line!(inner, 7, 14)),
    )
}
