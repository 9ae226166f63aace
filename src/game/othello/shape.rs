//! What orders Othello moves without a search, shared by the mid-game
//! search ([`OrderBy::EdaxFast`](crate::search::OrderBy::EdaxFast)) and the exact
//! solver: written like Edax's fast ordering, the opponent's replies
//! (corners counted twice), own corner stability, the opponent's potential
//! mobility, square value and parity of the quadrants.

use super::bitboard::neighbours;

/// The four corners.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The four 4x4 quadrants, the regions parity counts empties in.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Static square values for ordering ties (corners best, X-squares worst).
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// Own discs that are stable because they hang on an owned corner: the
/// corner and its owned neighbours along the two edges and the diagonal
/// (a corner's neighbours are those three squares).
#[inline(always)]
fn corner_stability(own: u64) -> u32 {
    let corners = own & CORNERS;
    (corners | (neighbours(corners) & own)).count_ones()
}

/// The quadrant (its squares) that square `sq` is in.
#[inline]
pub(crate) fn quadrant_of(sq: usize) -> u64 {
    QUADRANTS[(sq >> 5) << 1 | (sq >> 2 & 1)]
}

/// The squares of quadrants holding an odd number of empty squares.
#[inline(always)]
pub(crate) fn odd_quadrants(empty: u64) -> u64 {
    let mut m = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            m |= q;
        }
    }
    m
}

/// Bounds of [`fast_key`] for any bitboards (not values that occur):
/// replies (corners twice) taken as 64 down to 0, corner stability 0 to
/// 16, potential mobility 60 down to 0, square values 0 to 18 and the
/// parity bonus of 16. (Replies are empties next to the mover's discs, so
/// at most 56, 60 with corners twice: the bound is loose, not wrong.)
pub(crate) const FAST_KEY_RANGE: (i32, i32) = (
    ((36 - 64) << 15) + ((36 - 60) << 5),
    (36 << 15) + (16 << 11) + (36 << 5) + 18 + 16,
);

/// Edax-like fast ordering key of the move to `sq` (`replies` the
/// opponent's moves after it, `no` the mover's discs after it): fewest
/// opponent replies (corners count twice) first, then own corner
/// stability, then fewest empties next to own discs (the opponent's
/// potential mobility), then square value and parity.
#[inline(always)]
pub(crate) fn fast_key(sq: usize, replies: u64, no: u64, empty: u64, odd: u64) -> i32 {
    let bit = 1u64 << sq;
    let weighted = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let corner_stab = corner_stability(no) as i32;
    let potential = (neighbours(no) & empty & !bit).count_ones() as i32;
    let key =
        ((36 - weighted) << 15) + (corner_stab << 11) + ((36 - potential) << 5) + SQUARE_VALUE[sq];
    if odd & bit != 0 {
        key + 16
    } else {
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_square_is_in_its_quadrant() {
        for sq in 0..64 {
            let holding: Vec<u64> = QUADRANTS
                .into_iter()
                .filter(|q| q & (1u64 << sq) != 0)
                .collect();
            assert_eq!(holding, vec![quadrant_of(sq)], "square {sq}");
        }
    }

    #[test]
    fn corner_stability_counts_owned_corners_and_their_owned_neighbours() {
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..10_000 {
            let own = rng.next_u64() & rng.next_u64();
            let mut want = 0;
            for (corner, near) in [
                (0, [1, 8, 9]),
                (7, [6, 15, 14]),
                (56, [57, 48, 49]),
                (63, [62, 55, 54]),
            ] {
                if own >> corner & 1 == 1 {
                    want += 1 + near.iter().filter(|&&sq| own >> sq & 1 == 1).count() as u32;
                }
            }
            assert_eq!(corner_stability(own), want, "{own:#x}");
        }
    }

    #[test]
    fn fast_keys_of_random_positions_lie_in_their_range() {
        use crate::game::othello::bitboard::{legal_moves, Bits};
        use crate::game::othello::ops::flips;
        let mut rng = crate::rng::SplitMix64::new(5);
        let (mut least, mut most) = (i32::MAX, i32::MIN);
        for _ in 0..20_000 {
            // Random discs (some positions no game reaches): the bounds hold
            // for any bitboards.
            let p = rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            let empty = !(p | o);
            let odd = odd_quadrants(empty);
            for sq in Bits(legal_moves(p, o)) {
                let f = flips(sq, p, o);
                let (np, no) = (o ^ f, p ^ f ^ 1u64 << sq);
                let key = fast_key(sq, legal_moves(np, no), no, empty, odd);
                assert!(
                    (FAST_KEY_RANGE.0..=FAST_KEY_RANGE.1).contains(&key),
                    "{key}"
                );
                least = least.min(key);
                most = most.max(key);
            }
        }
        assert!(least < most);
    }
}
