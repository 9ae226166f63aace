//! The opening-book text format (DESIGN.md "Formats"): one opening per line,
//! either a move list from the start position (`f5d6c3d3c4`) or a position
//! string (`<64 squares> <side>`); `#` starts a comment (to the end of the
//! line); blank lines are skipped.
//!
//! Reading validates every line and reports every bad line at once
//! ([`BookError::BadLines`]): its number, its text, the offending move and why
//! it is illegal there. A [`Book`] is therefore always valid: the rest of the
//! code never re-checks its openings.

use crate::game::othello::notation::move_list_string;
use crate::game::othello::{parse_board_string, play_move_list, Board, Color, Move, NotationError};
use crate::game::Game;
use std::fmt;
use std::path::{Path, PathBuf};

/// How many bad lines an error message lists before "and N more".
pub const SHOWN_ERRORS: usize = 20;

/// One opening of a book.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    /// Its 1-based line number in the file.
    pub line: usize,
    /// The line as written, without its comment and surrounding whitespace.
    pub text: String,
    /// The position the opening reaches; the game goes on from here.
    pub board: Board,
    /// For a move list, the moves from the start position (a pass the list
    /// left implicit is made explicit); `None` for a position string.
    pub moves: Option<Vec<Move>>,
}

impl Opening {
    /// The opening as a move list string (`f5d6c3`), or `None` for a
    /// position string.
    pub fn move_list(&self) -> Option<String> {
        self.moves.as_deref().map(move_list_string)
    }
}

/// A checked opening book: at least one opening, every one of them legal
/// and not yet finished.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Book {
    /// Where it was read from (or the label given to [`parse_book`]).
    pub path: PathBuf,
    /// The openings in file order.
    pub openings: Vec<Opening>,
}

impl Book {
    /// Number of openings (never 0).
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Always false: a book without openings is an error when read. Here for
    /// the `len`/`is_empty` convention.
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening with index `index` (0-based, file order).
    pub fn get(&self, index: usize) -> Option<&Opening> {
        self.openings.get(index)
    }
}

/// What is wrong with one line of a book.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LineProblem {
    /// The move list or position string does not read; for an illegal move,
    /// `why` says why it is illegal where it is played.
    Notation {
        /// The error of the notation reader (names the move and its index).
        error: NotationError,
        /// Why the move is illegal (occupied, flips nothing, ...), when known.
        why: Option<String>,
    },
    /// Neither side can move in the opening's position.
    GameOver,
    /// A position string where only move lists are allowed (imports).
    NotAMoveList,
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Notation { error, why: None } => write!(f, "{error}"),
            LineProblem::Notation {
                error,
                why: Some(why),
            } => write!(f, "{error}: {why}"),
            LineProblem::GameOver => {
                f.write_str("the game is over in this position (neither side can move)")
            }
            LineProblem::NotAMoveList => {
                f.write_str("not a move list (this list holds move lists only)")
            }
        }
    }
}

/// A bad line: where, what it says, and what is wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// The line without its comment and surrounding whitespace (move indexes
    /// in the message count from its first character).
    pub text: String,
    /// What is wrong.
    pub problem: LineProblem,
}

impl fmt::Display for LineError {
    /// The line's number, its first word only (a file that is not a book,
    /// a password file, a file of secrets, shows no more than any other
    /// reader would quote of it) and what is wrong.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = first_word(&self.text);
        let more = if word.len() < self.text.len() {
            "…"
        } else {
            ""
        };
        write!(f, "line {}: {word:?}{more}: {}", self.line, self.problem)
    }
}

/// Most characters of a line an error quotes.
const WORD_CHARS: usize = 40;

/// The first word of a book line, as an error quotes it: the leading run
/// of characters a move list or a position string is written with
/// (letters, digits, `-`, `*`, `.`), at most [`WORD_CHARS`] of them; the
/// first character alone when the line starts with another.
fn first_word(text: &str) -> String {
    let book_char = |c: char| c.is_alphanumeric() || matches!(c, '-' | '*' | '.');
    let run: String = text
        .chars()
        .take_while(|&c| book_char(c))
        .take(WORD_CHARS)
        .collect();
    if run.is_empty() {
        text.chars().take(1).collect()
    } else {
        run
    }
}

/// Why a book could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("{}", crate::error::path_text(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file exists but is not text: a directory, or bytes that are not
    /// UTF-8 (a binary file).
    #[error("{}: {problem}", crate::error::path_text(path))]
    NotText {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        problem: crate::util::text::TextProblem,
    },
    /// Some lines are bad; all of them are listed (the message shows the
    /// first [`SHOWN_ERRORS`]).
    #[error("{}: {}", crate::error::path_text(path), LineList(errors))]
    BadLines {
        /// The file.
        path: PathBuf,
        /// Every bad line, in file order.
        errors: Vec<LineError>,
    },
    /// No line holds an opening.
    #[error(
        "{}: no openings (every line is blank or a comment)",
        crate::error::path_text(path)
    )]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

impl BookError {
    /// The error on one line, for a message that names the book inside
    /// another file (a tournament's `book:`): a bad book shows its count
    /// of bad lines and the first one only.
    pub fn brief(&self) -> String {
        match self {
            BookError::BadLines { path, errors } if errors.len() > 1 => format!(
                "{}: {} bad lines, the first {} (`arena book check` lists them)",
                crate::error::path_text(path),
                errors.len(),
                errors[0]
            ),
            BookError::Io { .. }
            | BookError::NotText { .. }
            | BookError::BadLines { .. }
            | BookError::Empty { .. } => self.to_string(),
        }
    }
}

/// Formats a list of line errors: a count, then one per line, capped; a
/// single bad line on the message's own line.
struct LineList<'a>(&'a [LineError]);

impl fmt::Display for LineList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        if let [only] = self.0 {
            // One bad line fits the one line of the message.
            return write!(f, "{only}");
        }
        write!(f, "{n} bad lines")?;
        for e in self.0.iter().take(SHOWN_ERRORS) {
            write!(f, "\n  {e}")?;
        }
        if n > SHOWN_ERRORS {
            write!(f, "\n  and {} more", n - SHOWN_ERRORS)?;
        }
        Ok(())
    }
}

/// Which forms of opening a reader accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Accept {
    /// Move lists and position strings (our book format).
    Any,
    /// Move lists only (imported lists).
    MoveLists,
}

/// Reads and checks a book file.
///
/// # Errors
/// [`BookError::Io`] when the file cannot be read, [`BookError::BadLines`]
/// listing every bad line, [`BookError::Empty`] when no line holds an opening.
pub fn read_book(path: &Path) -> Result<Book, BookError> {
    parse_book(&read_book_text(path)?, path)
}

/// A book file's text (a leading byte order mark dropped).
///
/// # Errors
/// [`BookError::NotText`] for a directory or a file that is not UTF-8,
/// [`BookError::Io`] for other read errors.
pub(crate) fn read_book_text(path: &Path) -> Result<String, BookError> {
    crate::util::text::read_text_file(path).map_err(|source| match crate::util::text::text_problem(
        &source,
    ) {
        Some(problem) => BookError::NotText {
            path: path.into(),
            problem,
        },
        None => BookError::Io {
            path: path.into(),
            source,
        },
    })
}

/// Reads and checks a book from its text; `path` only labels errors.
///
/// # Errors
/// As [`read_book`], without the I/O.
pub fn parse_book(text: &str, path: &Path) -> Result<Book, BookError> {
    parse_with(text, path, Accept::Any)
}

pub(crate) fn parse_with(text: &str, path: &Path, accept: Accept) -> Result<Book, BookError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let line = i + 1;
        match parse_opening(body, accept) {
            Ok((board, moves)) => openings.push(Opening {
                line,
                text: body.to_string(),
                board,
                moves,
            }),
            Err(problem) => errors.push(LineError {
                line,
                text: body.to_string(),
                problem,
            }),
        }
    }
    if !errors.is_empty() {
        return Err(BookError::BadLines {
            path: path.into(),
            errors,
        });
    }
    if openings.is_empty() {
        return Err(BookError::Empty { path: path.into() });
    }
    Ok(Book {
        path: path.into(),
        openings,
    })
}

/// True when `text` reads as a move list rather than a position string: a
/// move starts with a letter then a digit (or is `pa`), which no position
/// string does. `start` is the empty move list.
fn looks_like_moves(text: &str) -> bool {
    let b = text.as_bytes();
    text.eq_ignore_ascii_case("start")
        || (b.len() >= 2 && (b[1].is_ascii_digit() || b[..2].eq_ignore_ascii_case(b"pa")))
}

/// One opening from its (trimmed, comment-free, non-empty) text.
fn parse_opening(text: &str, accept: Accept) -> Result<(Board, Option<Vec<Move>>), LineProblem> {
    let (board, moves) = if looks_like_moves(text) {
        if text.eq_ignore_ascii_case("start") {
            (Board::start(), Some(Vec::new()))
        } else {
            let (board, moves) = play_move_list(Board::start(), text).map_err(|error| {
                let why = why_illegal(text, &error);
                LineProblem::Notation { error, why }
            })?;
            (board, Some(moves))
        }
    } else {
        if accept == Accept::MoveLists {
            return Err(LineProblem::NotAMoveList);
        }
        let board =
            parse_board_string(text).map_err(|error| LineProblem::Notation { error, why: None })?;
        (board, None)
    };
    if board.is_over() {
        return Err(LineProblem::GameOver);
    }
    Ok((board, moves))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The legal squares of `board` as text, in lexicographic order.
fn legal_list(board: &Board) -> String {
    let mut squares: Vec<String> = board.legal_squares().map(|s| s.to_string()).collect();
    squares.sort();
    squares.join(" ")
}

/// Why the move of an [`NotationError::IllegalMove`] is illegal: replays the
/// list up to it and looks at the square.
fn why_illegal(text: &str, error: &NotationError) -> Option<String> {
    let NotationError::IllegalMove { mv, index, .. } = *error else {
        return None;
    };
    let (mut board, _) = play_move_list(Board::start(), text.get(..index)?).ok()?;
    let side = color_name(board.side);
    if board.is_over() {
        return Some("the game is already over".into());
    }
    let Some(sq) = mv.to_square() else {
        return Some(format!("{side} has legal moves ({})", legal_list(&board)));
    };
    if board.must_pass() {
        // The reader passes for a side without moves; the move was tried after.
        board = board.passed();
    }
    let side = color_name(board.side);
    if (board.player | board.opponent) & sq.bit() != 0 {
        Some(format!(
            "{sq} is already occupied (legal for {side}: {})",
            legal_list(&board)
        ))
    } else {
        Some(format!(
            "{sq} flips no disc for {side} (legal for {side}: {})",
            legal_list(&board)
        ))
    }
}

/// The text of a book: each header line as a `# ` comment, then one opening
/// per line, ending with a newline.
pub fn format_book<I, S>(header: &[String], openings: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut s = String::with_capacity(4096);
    for h in header {
        if h.is_empty() {
            s.push_str("#\n");
        } else {
            s.push_str("# ");
            s.push_str(h);
            s.push('\n');
        }
    }
    for o in openings {
        s.push_str(o.as_ref());
        s.push('\n');
    }
    s
}

/// Writes a book file ([`format_book`]).
///
/// # Errors
/// [`BookError::Io`] naming the file.
pub fn write_book<I, S>(path: &Path, header: &[String], openings: I) -> Result<(), BookError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    std::fs::write(path, format_book(header, openings)).map_err(|source| BookError::Io {
        path: path.into(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Book, BookError> {
        parse_book(text, Path::new("t.txt"))
    }

    #[test]
    fn reads_moves_positions_comments_and_blanks() {
        let text = "# a book\n\nf5d6 # two plies\n  C4C3  \nstart\n---------------------------OX------XO--------------------------- X\n";
        let book = parse(text).unwrap();
        assert_eq!(book.len(), 4);
        assert_eq!(book.openings[0].line, 3);
        assert_eq!(book.openings[0].text, "f5d6");
        assert_eq!(book.openings[1].move_list().as_deref(), Some("c4c3"));
        assert_eq!(book.openings[2].board, Board::start());
        assert_eq!(book.openings[3].moves, None);
        assert_eq!(book.openings[3].board, Board::start());
    }

    #[test]
    fn reports_every_bad_line_with_the_reason() {
        let text = "f5d6\nf5d6a1\nf5z9\nf5f5\nf5d6c3d3c4\nf5 pa\n";
        let Err(BookError::BadLines { errors, .. }) = parse(text) else {
            panic!("expected bad lines")
        };
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 3, 4, 6]);
        assert_eq!(
            errors[0].to_string(),
            "line 2: \"f5d6a1\": illegal move a1 at index 4 of the move list (move 3): \
             a1 flips no disc for black (legal for black: c3 c4 c5 c6 c7)"
        );
        assert!(
            errors[1].to_string().contains("\"z9\" at index 2"),
            "{}",
            errors[1]
        );
        assert!(
            errors[2].to_string().contains("f5 is already occupied"),
            "{}",
            errors[2]
        );
        assert!(
            errors[3]
                .to_string()
                .contains("white has legal moves (d6 f4 f6)"),
            "{}",
            errors[3]
        );
    }

    #[test]
    fn caps_the_listed_errors() {
        let text = "a1\n".repeat(25);
        let msg = parse(&text).unwrap_err().to_string();
        assert!(msg.starts_with("t.txt: 25 bad lines\n  line 1: "), "{msg}");
        assert_eq!(msg.lines().count(), 1 + SHOWN_ERRORS + 1);
        assert!(msg.ends_with("\n  and 5 more"), "{msg}");
    }

    #[test]
    fn empty_and_finished() {
        assert!(matches!(
            parse("# nothing\n\n"),
            Err(BookError::Empty { .. })
        ));
        let over = format!("{} X", "X".repeat(64));
        let Err(BookError::BadLines { errors, .. }) = parse(&over) else {
            panic!()
        };
        assert_eq!(errors[0].problem, LineProblem::GameOver);
    }

    #[test]
    fn format_round_trips() {
        let text = format_book(&["header".into(), String::new()], ["f5d6", "c4c3"]);
        assert_eq!(text, "# header\n#\nf5d6\nc4c3\n");
        assert_eq!(parse(&text).unwrap().len(), 2);
    }
}
