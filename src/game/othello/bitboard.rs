//! Bitboard primitives: legal-move generation over the whole board at once
//! (shifts, no per-square loop), the discs one move flips, and stability-free
//! helpers that search and evaluation share. Bit `i` is square `i` (see
//! [`super::square`]).

/// Every square except columns a and h: the mask for east/west shifts, so
/// that a run of discs cannot wrap from one row to the next.
pub(super) const NOT_EDGE_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// Every square except rows 1 and 8.
const NOT_EDGE_ROWS: u64 = 0x00FF_FFFF_FFFF_FF00;
/// Every square except the outer ring.
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// Moves along one line direction (`shift` = 1, 7, 8 or 9, both ways at once)
/// that bracket a run of `mask` discs with a `player` disc: a parallel-prefix
/// ("Kogge-Stone"-like) flood in 4 steps instead of a loop of 6.
#[inline(always)]
fn moves_along(player: u64, mask: u64, shift: u32) -> u64 {
    let mut left = mask & (player << shift);
    left |= mask & (left << shift);
    let pair_left = mask & (mask << shift);
    left |= pair_left & (left << (2 * shift));
    left |= pair_left & (left << (2 * shift));

    let mut right = mask & (player >> shift);
    right |= mask & (right >> shift);
    let pair_right = mask & (mask >> shift);
    right |= pair_right & (right >> (2 * shift));
    right |= pair_right & (right >> (2 * shift));

    (left << shift) | (right >> shift)
}

/// Legal moves of `player` against `opponent`, as a set of empty squares.
/// Always inlined, so it is compiled for the code path of its caller (see
/// [`crate::game::cpu`]): with AVX2 the four directions are one vector.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    (moves_along(player, opponent & NOT_EDGE_COLUMNS, 1)
        | moves_along(player, opponent & NOT_EDGE_ROWS, 8)
        | moves_along(player, opponent & INNER, 7)
        | moves_along(player, opponent & INNER, 9))
        & empty
}

/// For each square and each of the 8 directions, the squares from (not
/// including) that square to the board edge. Directions 0..4 go towards
/// higher bit indexes (E, SW, S, SE), 4..8 towards lower (W, NE, N, NW).
static RAYS: [[u64; 8]; 64] = build_rays();

pub(super) const fn build_rays() -> [[u64; 8]; 64] {
    // (column step, row step) per direction; the first four increase the index.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = STEPS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// [`flips`] one ray at a time, on any target (and the reference the
/// AVX2 form is tested against).
#[inline]
pub fn flips_rays(square: usize, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[square];
    let mut flipped = 0u64;
    for &ray in &rays[..4] {
        let blockers = ray & !opponent;
        let outflank = blockers & blockers.wrapping_neg() & player;
        // outflank - 1 sets every bit below it; on the ray those are opponent discs.
        let run = outflank.wrapping_sub(1) & ray;
        flipped |= run & 0u64.wrapping_sub((outflank != 0) as u64);
    }
    for &ray in &rays[4..] {
        let blockers = ray & !opponent;
        // Highest set bit of blockers (0 when there is none).
        let top = (1u64 << 63)
            .checked_shr(blockers.leading_zeros())
            .unwrap_or(0);
        let outflank = top & player;
        // Ray bits above the outflank square (all opponent discs).
        let run = ray & !(outflank.wrapping_shl(1).wrapping_sub(1));
        flipped |= run & 0u64.wrapping_sub((outflank != 0) as u64);
    }
    flipped
}

/// Squares adjacent (8 directions) to any square of `b`, `b` itself excluded
/// only if not adjacent to another.
#[inline(always)]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((b >> 1) & 0x7F7F_7F7F_7F7F_7F7F);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Column a.
const COL_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
const COL_H: u64 = 0x8080_8080_8080_8080;
/// Row 1.
const ROW_1: u64 = 0x0000_0000_0000_00FF;
/// Row 8.
const ROW_8: u64 = 0xFF00_0000_0000_0000;
/// The outer ring.
const EDGE: u64 = !INNER;

/// Squares whose whole line in each direction is filled: (row, column,
/// a1-h8 diagonal, h1-a8 diagonal).
///
/// Each direction by doubling, as Edax's `get_full_lines`: after steps of
/// 1, 2 and 4 squares a square knows whether the 8 squares from it toward
/// one end of its line are filled (a step off the board counting as
/// filled), so three steps each way replace a walk of seven.
#[inline(always)]
fn full_lines(filled: u64) -> [u64; 4] {
    // Row: AND of a row's 8 bits lands on its column-a square, spread back.
    let mut h = filled;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let row = (h & COL_A).wrapping_mul(0xFF);
    // Column: the 8 rows rotated onto each other.
    let mut v = filled;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);
    // Diagonals: `up` toward the high end (shifts right bring square i + s
    // to i), `down` toward the low end; a square with no square s away in
    // that direction takes the step as filled (the masks).
    let diagonal = |s: u32, up_off: [u64; 3], down_off: [u64; 3]| {
        let (mut up, mut down) = (filled, filled);
        for (k, (u, d)) in up_off.into_iter().zip(down_off).enumerate() {
            let step = s << k;
            up &= (up >> step) | u;
            down &= (down << step) | d;
        }
        up & down
    };
    // a1-h8 (i + 9): no square 9, 18, 36 further toward h8 on the h-file
    // side or the top rows; none toward a1 on the a-file side or the
    // bottom rows.
    let d9 = diagonal(
        9,
        [
            0xFF80_8080_8080_8080,
            0xFFFF_C0C0_C0C0_C0C0,
            0xFFFF_FFFF_F0F0_F0F0,
        ],
        [
            0x0101_0101_0101_01FF,
            0x0303_0303_0303_FFFF,
            0x0F0F_0F0F_FFFF_FFFF,
        ],
    );
    // h1-a8 (i + 7): toward a8 the a-file side and top rows; toward h1
    // the h-file side and bottom rows.
    let d7 = diagonal(
        7,
        [
            0xFF01_0101_0101_0101,
            0xFFFF_0303_0303_0303,
            0xFFFF_FFFF_0F0F_0F0F,
        ],
        [
            0x8080_8080_8080_80FF,
            0xC0C0_C0C0_C0C0_FFFF,
            0xF0F0_F0F0_FFFF_FFFF,
        ],
    );
    [row, v, d9, d7]
}

/// Discs of `player` that can never be flipped, found from the edges in:
/// a disc is stable when, along each of the four lines through it, the line
/// is full, or one neighbour on it is the board edge or a stable disc of the
/// same colour. A lower bound of the true stable set (exact on edges).
/// Always inlined, as [`legal_moves`].
#[inline(always)]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let full = full_lines(player | opponent);
    let fixed = [
        full[0] | COL_A | COL_H,
        full[1] | ROW_1 | ROW_8,
        full[2] | EDGE,
        full[3] | EDGE,
    ];
    let mut stable = 0u64;
    loop {
        let h = fixed[0] | ((stable << 1) & !COL_A) | ((stable >> 1) & !COL_H);
        let v = fixed[1] | (stable << 8) | (stable >> 8);
        let d9 = fixed[2] | ((stable << 9) & !COL_A) | ((stable >> 9) & !COL_H);
        let d7 = fixed[3] | ((stable << 7) & !COL_H) | ((stable >> 7) & !COL_A);
        let next = player & h & v & d9 & d7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Iterates over the set bits of a board, lowest first, as indexes.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square-by-square reference: walk each direction one step at a time.
    fn slow_flips(square: usize, player: u64, opponent: u64) -> u64 {
        let mut all = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r) = ((square % 8) as i32 + dc, (square / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    /// Square-by-square reference of `full_lines`: walk each line to both
    /// edges.
    fn slow_full_lines(filled: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (k, (dc, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
            for sq in 0..64i32 {
                let mut full = true;
                for sign in [1, -1] {
                    let (mut c, mut r) = (sq % 8, sq / 8);
                    while (0..8).contains(&c) && (0..8).contains(&r) {
                        full &= filled >> (r * 8 + c) & 1 == 1;
                        c += sign * dc;
                        r += sign * dr;
                    }
                }
                if full {
                    out[k] |= 1u64 << sq;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_a_walk_along_each_line() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..20_000 {
            // Dense boards, so that lines are often full.
            let holes = xorshift(&mut s) & xorshift(&mut s) & xorshift(&mut s);
            let filled = match i {
                0 => 0,
                1 => !0,
                _ if i % 2 == 0 => !holes,
                _ => !(holes & xorshift(&mut s)),
            };
            assert_eq!(full_lines(filled), slow_full_lines(filled), "{filled:#x}");
        }
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn flips_and_moves_match_a_square_by_square_walk() {
        let mut s = crate::rng::GOLDEN;
        for _ in 0..20_000 {
            let a = xorshift(&mut s);
            let b = xorshift(&mut s);
            let player = a & !b;
            let opponent = b & !a & xorshift(&mut s);
            let empty = !(player | opponent);
            let mut expected_moves = 0u64;
            for sq in 0..64 {
                let slow = slow_flips(sq, player, opponent);
                if empty & (1 << sq) != 0 {
                    assert_eq!(flips_rays(sq, player, opponent), slow, "square {sq}");
                    if slow != 0 {
                        expected_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(legal_moves(player, opponent), expected_moves);
        }
    }
}
