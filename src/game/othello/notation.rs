//! Text forms of Othello positions and games (DESIGN.md "Formats"):
//! position strings (`<64 squares> <side>`, as in OBF files and Edax) and move
//! lists (`f5d6c3`). Errors name the offending character or move and its
//! index in the input.

use super::board::{Board, Color};
use super::square::Move;
use std::fmt::Write as _;

/// Why a position string or move list could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NotationError {
    /// A character that is not a square code.
    #[error("unexpected character {ch:?} at index {index} of the position string (expected X, O or - for a square)")]
    BadSquare {
        /// The character.
        ch: char,
        /// Its character index in the input.
        index: usize,
    },
    /// Not 64 square characters.
    #[error("position string has {count} squares, expected 64")]
    WrongLength {
        /// Squares found.
        count: usize,
    },
    /// No side-to-move letter after the 64 squares.
    #[error("position string has no side to move after its 64 squares (expected X or O)")]
    MissingSide,
    /// An unknown side-to-move letter.
    #[error("unknown side to move {ch:?} at index {index} (expected X or O)")]
    BadSide {
        /// The character.
        ch: char,
        /// Its character index in the input.
        index: usize,
    },
    /// Something in a move list that is not a move.
    #[error("{text:?} at index {index} of the move list is not a move (expected a1..h8 or pa)")]
    BadMove {
        /// The text.
        text: String,
        /// Its character index.
        index: usize,
    },
    /// A move that is not legal where it is played.
    #[error("illegal move {mv} at index {index} of the move list (move {number})")]
    IllegalMove {
        /// The move.
        mv: Move,
        /// Its character index.
        index: usize,
        /// Its 1-based number in the list.
        number: usize,
    },
    /// An empty input where a position was expected.
    #[error("empty position (give a position string or a move list)")]
    Empty,
}

fn square_code(ch: char) -> Option<Option<Color>> {
    match ch {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Some(Some(Color::White)),
        '-' | '.' => Some(None),
        _ => None,
    }
}

/// Reads a position string: 64 square characters in order a1 b1 … h8
/// (`X`/`x`/`*`/`B`/`b` black, `O`/`o`/`W`/`w` white, `-`/`.` empty;
/// whitespace between them is ignored), then the side to move (`X` or `O`, or
/// any black/white code above). Leading and trailing whitespace is ignored.
///
/// # Errors
/// A [`NotationError`] naming the bad character and its index.
pub fn parse_board_string(text: &str) -> Result<Board, NotationError> {
    let chars: Vec<(usize, char)> = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    // The side to move is a last one-character word (`... X`), or the 65th
    // character of a string written without the space.
    let trimmed = text.trim_end();
    let side_word = trimmed
        .rsplit_once(char::is_whitespace)
        .is_some_and(|(_, last)| last.chars().count() == 1);
    let squares = chars.len() - usize::from(side_word);
    if squares < 64 || (squares > 65 && !side_word) || (squares > 64 && side_word) {
        return Err(NotationError::WrongLength { count: squares });
    }
    let (black, white) =
        chars[..64]
            .iter()
            .enumerate()
            .try_fold(
                (0u64, 0u64),
                |(b, w), (i, &(index, ch))| match square_code(ch) {
                    Some(Some(Color::Black)) => Ok((b | 1 << i, w)),
                    Some(Some(Color::White)) => Ok((b, w | 1 << i)),
                    Some(None) => Ok((b, w)),
                    None => Err(NotationError::BadSquare { ch, index }),
                },
            )?;
    let Some(&(index, ch)) = chars.get(64) else {
        return Err(NotationError::MissingSide);
    };
    let side = match square_code(ch) {
        Some(Some(color)) => color,
        _ => return Err(NotationError::BadSide { ch, index }),
    };
    Ok(Board::from_colors(black, white, side))
}

/// Writes the canonical position string: `X`, `O`, `-`, a space and `X` or `O`.
pub fn board_string(board: &Board) -> String {
    let mut s = String::with_capacity(66);
    let (black, white) = (board.black(), board.white());
    for i in 0..64 {
        let bit = 1u64 << i;
        s.push(if black & bit != 0 {
            'X'
        } else if white & bit != 0 {
            'O'
        } else {
            '-'
        });
    }
    s.push(' ');
    s.push(if board.side == Color::Black { 'X' } else { 'O' });
    s
}

/// Plays a move list (`f5d6c3`; spaces and commas between moves are allowed,
/// case-insensitive) from `start`. A side that must pass passes without
/// needing an explicit `pa`, as in Edax; an explicit `pa` is checked.
///
/// # Errors
/// [`NotationError::BadMove`] or [`NotationError::IllegalMove`] naming the
/// move and its character index.
pub fn play_move_list(start: Board, text: &str) -> Result<(Board, Vec<Move>), NotationError> {
    let mut board = start;
    let mut played = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut number = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() || bytes[i] == b',' {
            i += 1;
            continue;
        }
        let end = (i + 2).min(bytes.len());
        let token = text.get(i..end).unwrap_or("");
        let Some(mv) = Move::parse(token) else {
            // Report the whole run of non-separator characters for context.
            let stop = text[i..]
                .find(|c: char| c.is_whitespace() || c == ',')
                .map_or(text.len(), |k| i + k);
            let shown: String = text[i..stop].chars().take(8).collect();
            return Err(NotationError::BadMove {
                text: shown,
                index: i,
            });
        };
        number += 1;
        if !mv.is_pass() && board.must_pass() {
            board = board.passed();
            played.push(Move::PASS);
        }
        board = board.try_play(mv).map_err(|_| NotationError::IllegalMove {
            mv,
            index: i,
            number,
        })?;
        played.push(mv);
        i = end;
    }
    Ok((board, played))
}

/// Writes moves as a move list (`f5d6pa c3` → `f5d6pac3`).
pub fn move_list_string(moves: &[Move]) -> String {
    let mut s = String::with_capacity(moves.len() * 2);
    for mv in moves {
        let _ = write!(s, "{mv}");
    }
    s
}

/// Reads a position given either as a position string or as a move list from
/// the start position (DESIGN.md: "a move list is accepted wherever a
/// position is"). The word `start` (or an empty move list `-`) is the start.
///
/// # Errors
/// The [`NotationError`] of whichever form the text looks like.
pub fn parse_position(text: &str) -> Result<Board, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    if t.eq_ignore_ascii_case("start") {
        return Ok(Board::start());
    }
    // Square codes never include digits; a move starts with a letter then a digit.
    let b = t.as_bytes();
    let looks_like_moves =
        b.len() >= 2 && (b[1].is_ascii_digit() || t[..2].eq_ignore_ascii_case("pa"));
    if looks_like_moves {
        Ok(play_move_list(Board::start(), t)?.0)
    } else {
        parse_board_string(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_position_string() {
        assert_eq!(board_string(&Board::start()), START);
        assert_eq!(parse_board_string(START).unwrap(), Board::start());
        let edax = START.replace('X', "*").replace('-', ".");
        assert_eq!(parse_board_string(&edax).unwrap(), Board::start());
    }

    #[test]
    fn move_lists() {
        let (b, moves) = play_move_list(Board::start(), "f5d6C3 d3,c4").unwrap();
        assert_eq!(moves.len(), 5);
        assert_eq!(move_list_string(&moves), "f5d6c3d3c4");
        assert_eq!(b.side, Color::White);
        assert_eq!(parse_position("f5d6c3d3c4").unwrap(), b);
    }

    #[test]
    fn errors_name_the_place() {
        let short = format!("{} X", &START[..63]);
        assert_eq!(
            parse_board_string(&short),
            Err(NotationError::WrongLength { count: 63 })
        );
        let long = format!("-{START}");
        assert_eq!(
            parse_board_string(&long),
            Err(NotationError::WrongLength { count: 65 })
        );
        assert_eq!(
            parse_board_string(&START[..64]),
            Err(NotationError::MissingSide)
        );
        let compact = START.replace(' ', "");
        assert_eq!(parse_board_string(&compact), Ok(Board::start()));
        let mut bad = START.to_string();
        bad.replace_range(10..11, "Z");
        assert_eq!(
            parse_board_string(&bad),
            Err(NotationError::BadSquare { ch: 'Z', index: 10 })
        );
        let side = START.replace(" X", " Q");
        assert_eq!(
            parse_board_string(&side),
            Err(NotationError::BadSide { ch: 'Q', index: 65 })
        );
        assert_eq!(
            parse_position("f5d6a1"),
            Err(NotationError::IllegalMove {
                mv: Move::parse("a1").unwrap(),
                index: 4,
                number: 3
            })
        );
        assert!(matches!(
            parse_position("f5z9"),
            Err(NotationError::BadMove { index: 2, .. })
        ));
        let msg = parse_position("f5d6a1").unwrap_err().to_string();
        assert_eq!(msg, "illegal move a1 at index 4 of the move list (move 3)");
    }
}
