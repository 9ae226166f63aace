//! The 8 symmetries of the board (the dihedral group of the square): identity,
//! three rotations and four reflections, on bitboards, squares and boards.

use super::board::Board;
use super::square::Square;

/// One of the 8 symmetries, numbered 0..8: bit 0 mirrors columns (a↔h),
/// bit 1 mirrors rows (1↔8), bit 2 transposes (swaps column and row), applied
/// transpose first. 0 is the identity.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symmetry(pub u8);

impl Symmetry {
    /// All 8, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub fn apply(self, mut b: u64) -> u64 {
        if self.0 & 4 != 0 {
            b = transpose(b);
        }
        if self.0 & 1 != 0 {
            b = mirror_columns(b);
        }
        if self.0 & 2 != 0 {
            b = b.swap_bytes();
        }
        b
    }

    /// Applies the symmetry to a square.
    #[inline]
    pub fn square(self, sq: Square) -> Square {
        Square::new(self.apply(sq.bit()).trailing_zeros() as u8)
    }

    /// Applies the symmetry to a board (the side to move is unchanged).
    pub fn board(self, b: &Board) -> Board {
        Board {
            player: self.apply(b.player),
            opponent: self.apply(b.opponent),
            side: b.side,
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        // Transpose-then-mirror is undone by mirror-then-transpose; when the
        // transpose is present the two mirrors trade places.
        if self.0 & 4 != 0 {
            let m = self.0 & 3;
            Symmetry(4 | ((m & 1) << 1) | ((m & 2) >> 1))
        } else {
            self
        }
    }
}

/// Reverses the columns of every row (a↔h).
#[inline]
pub const fn mirror_columns(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Swaps rows and columns (reflection in the a1-h8 diagonal).
#[inline]
pub const fn transpose(mut b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(sym: Symmetry, sq: usize) -> usize {
        let (mut c, mut r) = (sq % 8, sq / 8);
        if sym.0 & 4 != 0 {
            std::mem::swap(&mut c, &mut r);
        }
        if sym.0 & 1 != 0 {
            c = 7 - c;
        }
        if sym.0 & 2 != 0 {
            r = 7 - r;
        }
        r * 8 + c
    }

    #[test]
    fn matches_coordinate_arithmetic_and_inverts() {
        for sym in Symmetry::ALL {
            for sq in 0..64 {
                assert_eq!(sym.apply(1 << sq), 1 << slow(sym, sq), "{sym:?} {sq}");
                let back = sym.inverse().square(sym.square(Square::new(sq as u8)));
                assert_eq!(back.index(), sq);
            }
        }
    }
}
