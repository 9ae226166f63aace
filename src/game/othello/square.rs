//! Squares and moves. `a1` is the top-left corner and row 1 the top row; the
//! bit index of a square is `row * 8 + column`, so `a1` = 0, `h1` = 7,
//! `a2` = 8 and `h8` = 63, which is also the order of a position string.

use std::fmt;

/// A square `a1`..`h8`, stored as its bit index 0..64.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index`.
    ///
    /// # Panics
    /// Panics when `index >= 64`.
    #[inline]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index)
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1, the top).
    #[inline]
    pub const fn from_coords(column: u8, row: u8) -> Square {
        Square::new(row * 8 + column)
    }

    /// Bit index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..8 (0 = a).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// Row 0..8 (0 = row 1).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The one-bit board of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `a1`..`h8`, case-insensitive. Returns `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        (column < 8 && row < 8).then(|| Square::from_coords(column, row))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

/// An Othello move: a square, or a pass (`pa` in transcripts, `PA` in GGF).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Move(u8);

impl Move {
    /// The pass.
    pub const PASS: Move = Move(64);

    /// A move to `square`.
    #[inline]
    pub const fn square(square: Square) -> Move {
        Move(square.0)
    }

    /// The square played, or `None` for a pass.
    #[inline]
    pub const fn to_square(self) -> Option<Square> {
        if self.0 < 64 {
            Some(Square(self.0))
        } else {
            None
        }
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// 0..64 for squares, 64 for the pass: a dense index for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses a square or `pa`/`ps`/`--` (pass), case-insensitive.
    pub fn parse(text: &str) -> Option<Move> {
        if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("ps") || text == "--" {
            return Some(Move::PASS);
        }
        Square::parse(text).map(Move::square)
    }
}

impl Default for Move {
    fn default() -> Self {
        Move::PASS
    }
}

impl From<Square> for Move {
    fn from(square: Square) -> Move {
        Move::square(square)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_square() {
            Some(sq) => sq.fmt(f),
            None => f.write_str("pa"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_round_trips() {
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::parse(&sq.to_string().to_uppercase()), Some(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 7);
        assert_eq!(Square::parse("a2").unwrap().index(), 8);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        for bad in ["", "a", "i1", "a9", "a0", "a10", "11"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Move::parse("PA"), Some(Move::PASS));
        assert_eq!(Move::PASS.to_string(), "pa");
    }
}
