//! Tic-tac-toe on two 9-bit masks. Cells are named like Othello squares:
//! `a1` top-left, `c3` bottom-right. X moves first.
//!
//! Scoring, as the classic textbook treatment does, prefers a quicker win and
//! a slower loss: a win after `k` plies (marks on the board) is worth
//! `10 - k` to the winner (a win at ply 5 scores 5, at ply 9 scores 1), a draw
//! 0. So a win at ply k scores more than a win at ply k + 2.

use crate::game::{Game, MoveList};
use std::fmt;

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

/// A tic-tac-toe cell 0..9 (index = row * 3 + column).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    /// Parses `a1`..`c3`, case-insensitive.
    pub fn parse(text: &str) -> Option<Cell> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let c = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (c < 3 && r < 3).then_some(Cell(r * 3 + c))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0 % 3) as char, self.0 / 3 + 1)
    }
}

/// A tic-tac-toe position; whose turn it is follows from the counts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TicTacToe {
    /// Cells marked by X.
    pub x: u16,
    /// Cells marked by O.
    pub o: u16,
}

/// Why a tic-tac-toe position could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TicTacToeError {
    /// A bad character.
    #[error("unexpected character {ch:?} at index {index} (expected X, O, - or a move like b2)")]
    BadChar {
        /// The character.
        ch: char,
        /// Its index.
        index: usize,
    },
    /// Wrong number of cells.
    #[error("a tic-tac-toe board has 9 cells, found {count}")]
    WrongLength {
        /// Cells found.
        count: usize,
    },
    /// Counts that no game reaches.
    #[error(
        "X has {x} marks and O has {o}: X moves first, so X must have as many as O or one more"
    )]
    BadCounts {
        /// X marks.
        x: u32,
        /// O marks.
        o: u32,
    },
    /// A position no game reaches (play goes on after a line).
    #[error("no game reaches this position: {why}")]
    Unreachable {
        /// Why, in words.
        why: &'static str,
    },
    /// An illegal move in a move list.
    #[error("illegal move {text:?} at index {index} of the move list")]
    IllegalMove {
        /// The move text.
        text: String,
        /// Its index.
        index: usize,
    },
}

impl TicTacToe {
    /// The empty board.
    pub fn new() -> Self {
        TicTacToe::default()
    }

    /// Marks placed so far.
    pub fn plies(&self) -> u32 {
        (self.x | self.o).count_ones()
    }

    fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    fn has_line(marks: u16) -> bool {
        LINES.iter().any(|&l| l & !marks == 0)
    }

    /// Reads 9 cells (`X`, `O`, `-`/`.`, whitespace ignored) or a move list
    /// (`b2a1c3`) from the empty board.
    ///
    /// # Errors
    /// A [`TicTacToeError`] naming the bad character or move.
    pub fn parse(text: &str) -> Result<TicTacToe, TicTacToeError> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.len() >= 2 && b[1].is_ascii_digit() {
            let mut pos = TicTacToe::new();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_whitespace() || b[i] == b',' {
                    i += 1;
                    continue;
                }
                let token = t.get(i..(i + 2).min(b.len())).unwrap_or("");
                let cell = Cell::parse(token)
                    .filter(|c| (pos.x | pos.o) & (1 << c.0) == 0 && !pos.is_over());
                let Some(cell) = cell else {
                    return Err(TicTacToeError::IllegalMove {
                        text: token.to_string(),
                        index: i,
                    });
                };
                pos = pos.play(cell);
                i += 2;
            }
            return Ok(pos);
        }
        let (mut x, mut o, mut count) = (0u16, 0u16, 0usize);
        for (index, ch) in t.char_indices().filter(|(_, c)| !c.is_whitespace()) {
            if count == 9 {
                return Err(TicTacToeError::WrongLength { count: 10 });
            }
            match ch {
                'X' | 'x' => x |= 1 << count,
                'O' | 'o' => o |= 1 << count,
                '-' | '.' => {}
                _ => return Err(TicTacToeError::BadChar { ch, index }),
            }
            count += 1;
        }
        if count != 9 {
            return Err(TicTacToeError::WrongLength { count });
        }
        let (xc, oc) = (x.count_ones(), o.count_ones());
        if xc != oc && xc != oc + 1 {
            return Err(TicTacToeError::BadCounts { x: xc, o: oc });
        }
        // The game ends at the first line: the side that made it moved last.
        let why = match (Self::has_line(x), Self::has_line(o)) {
            (true, true) => Some("X and O both have a line, but the game ends at the first"),
            (true, false) if xc == oc => {
                Some("X has a line, so X moved last and has one mark more than O")
            }
            (false, true) if xc > oc => {
                Some("O has a line, so O moved last and has as many marks as X")
            }
            _ => None,
        };
        if let Some(why) = why {
            return Err(TicTacToeError::Unreachable { why });
        }
        Ok(TicTacToe { x, o })
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..9 {
            let bit = 1 << i;
            let c = if self.x & bit != 0 {
                'X'
            } else if self.o & bit != 0 {
                'O'
            } else {
                '-'
            };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    const NAME: &'static str = "tictactoe";

    fn generate_moves(&self, moves: &mut MoveList<Cell>) {
        if self.is_over() {
            return;
        }
        let empty = !(self.x | self.o) & FULL;
        for i in 0..9u8 {
            if empty & (1 << i) != 0 {
                moves.push(Cell(i));
            }
        }
    }

    fn play(&self, mv: Cell) -> TicTacToe {
        let bit = 1u16 << mv.0;
        if self.x_to_move() {
            TicTacToe {
                x: self.x | bit,
                o: self.o,
            }
        } else {
            TicTacToe {
                x: self.x,
                o: self.o | bit,
            }
        }
    }

    fn is_over(&self) -> bool {
        (self.x | self.o) == FULL || Self::has_line(self.x) || Self::has_line(self.o)
    }

    fn final_score(&self) -> i32 {
        let (mover, other) = if self.x_to_move() {
            (self.x, self.o)
        } else {
            (self.o, self.x)
        };
        let value = 10 - self.plies() as i32;
        if Self::has_line(other) {
            -value
        } else if Self::has_line(mover) {
            value
        } else {
            0
        }
    }

    fn hash(&self) -> u64 {
        let key = u64::from(self.x) << 16 | u64::from(self.o);
        crate::rng::mix(key.wrapping_add(crate::rng::GOLDEN))
    }

    fn first_player_to_move(&self) -> bool {
        self.x_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_prefers_quick_wins() {
        // X: a1 b1 c1 at ply 5 (O on a2 b2): O to move and lost.
        let quick = TicTacToe::parse("a1a2b1b2c1").unwrap();
        assert!(quick.is_over());
        assert_eq!(quick.final_score(), -5);
        let slow = TicTacToe::parse("a1a2b1b2c3a3c2b3c1").unwrap();
        assert!(slow.is_over());
        assert_eq!(slow.plies(), 9);
        assert_eq!(slow.final_score(), -1);
        assert!(matches!(
            TicTacToe::parse("a1a1"),
            Err(TicTacToeError::IllegalMove { index: 2, .. })
        ));
        assert!(matches!(
            TicTacToe::parse("XXX------"),
            Err(TicTacToeError::BadCounts { .. })
        ));
        // Positions past the end of a game: both lines, or a line and then
        // another move by the loser.
        for board in ["XXXOOO---", "XXXOO-O--", "OOOXX-XX-"] {
            assert!(
                matches!(
                    TicTacToe::parse(board),
                    Err(TicTacToeError::Unreachable { .. })
                ),
                "{board}"
            );
        }
        // A line by the last mover is a finished game.
        assert!(TicTacToe::parse("XXXOO----").unwrap().is_over());
        assert!(TicTacToe::parse("OOOXX-X--").unwrap().is_over());
    }
}
