//! Typed errors of the library. Each carries the bad value and where it came
//! from (file, line, field, or argument), and nests its cause with `#[from]`
//! or `#[source]`. A variant's message names only the place; the cause
//! follows in the chain, which the binary prints as `place: cause` (`{:#}`).
//! `anyhow` is only used by the binary and `cli` glue.

use std::path::{Path, PathBuf};

/// Any error the library reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A bad Othello position or move list given as an argument.
    #[error("{argument}")]
    Position {
        /// Which argument or field held it.
        argument: String,
        /// What was wrong.
        #[source]
        source: crate::game::othello::NotationError,
    },
    /// A bad tic-tac-toe position given as an argument.
    #[error("{argument}")]
    TicTacToe {
        /// Which argument held it.
        argument: String,
        /// What was wrong.
        #[source]
        source: crate::game::tictactoe::TicTacToeError,
    },
    /// A malformed tree file.
    #[error("{}", path.display())]
    Tree {
        /// The file.
        path: PathBuf,
        /// What was wrong and where.
        #[source]
        source: crate::game::tree::TreeError,
    },
    /// A bad configuration or data file (engine, weights, tournament): the
    /// place, and what is wrong with the field or value there.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// Line, 1-based (0 when unknown).
        line: usize,
        /// Column, 1-based (0 when unknown).
        column: usize,
        /// What is wrong, naming the field and the value.
        message: String,
    },
    /// A bad binary data file (binary weights): the byte where it goes
    /// wrong, and what is wrong there.
    #[error("{}: byte {offset}: {message}", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
        /// Offset from the start of the file.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// A run that cannot start or go on as asked, because of the state of
    /// its results folders (in use by another run, holding another run,
    /// unfinished, missing shards); the message names the folder.
    #[error("{0}")]
    Run(String),
    /// A bug: something that must not happen did (a worker thread died
    /// outside the players' guard). Exit code 101.
    #[error("internal error: {0}; please report it")]
    Internal(String),
    /// A table the machine would not give (the allocator refused it): the
    /// setting that asked for it, as the user wrote it (`tt_mib 16384`,
    /// `--tt-mib 16384`), then the size in the cause.
    #[error("{setting}")]
    Alloc {
        /// The setting and its value.
        setting: String,
        /// The refused size.
        #[source]
        source: AllocError,
    },
    /// An external engine's program that could not be started (not found,
    /// not executable): the engine and the program, then the cause.
    #[error("engine {engine:?}: cannot start {}", program.display())]
    Start {
        /// The engine's name.
        engine: String,
        /// The program.
        program: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A command-line argument that cannot be used as given, found while
    /// working (an output folder that already holds a journal, an engine
    /// file without what the command needs): exit code 1.
    #[error("{argument}: {message}")]
    Argument {
        /// The argument, as the user typed its name.
        argument: String,
        /// What is wrong with the value.
        message: String,
    },
    /// A bad command-line value that clap's parsers cannot check alone (two
    /// flags that contradict each other, a range written as text): a usage
    /// error, exit code 2 like clap's own.
    #[error("{argument}: {message}")]
    Usage {
        /// The argument, as the user typed its name.
        argument: String,
        /// What is wrong with the value.
        message: String,
    },
}

/// Result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The allocator refused a block of `bytes` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("could not allocate {}", size_text(*bytes))]
pub struct AllocError {
    /// The size asked for.
    pub bytes: usize,
}

/// A byte count as people write it: `16 GiB`, `64 MiB`, `1.5 KiB`, `12 bytes`.
pub fn size_text(bytes: usize) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        if bytes >> shift > 0 {
            let v = bytes as f64 / (1u64 << shift) as f64;
            return if v.fract() == 0.0 {
                format!("{v} {unit}")
            } else {
                format!("{v:.1} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

impl Error {
    /// A bad command-line value found while working (exit code 2).
    pub fn usage(argument: &str, message: impl Into<String>) -> Error {
        Error::Usage {
            argument: argument.into(),
            message: message.into(),
        }
    }

    /// A command-line argument that cannot be used as given, found while
    /// working (exit code 1).
    pub fn argument(argument: &str, message: impl Into<String>) -> Error {
        Error::Argument {
            argument: argument.into(),
            message: message.into(),
        }
    }

    /// The allocation `source` asked for by `setting` was refused.
    pub fn alloc(setting: impl Into<String>, source: AllocError) -> Error {
        Error::Alloc {
            setting: setting.into(),
            source,
        }
    }

    /// The error as one line, cause included (`place: cause`), as the
    /// binary prints it: for messages that leave the error type (a panic
    /// in code that cannot return one).
    pub fn line(&self) -> String {
        let mut text = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            text = format!("{text}: {c}");
            cause = c.source();
        }
        text
    }
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

impl Error {
    /// A configuration error at a known line and column.
    pub fn config_at(path: &Path, line: usize, column: usize, message: String) -> Error {
        Error::Config {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    }

    /// A configuration error about `field`, placed at its first occurrence
    /// in `text` (`field:` outside comments); the message names the field.
    pub fn config_field(path: &Path, text: &str, field: &str, message: String) -> Error {
        Error::config_field_nth(path, text, field, 0, message)
    }

    /// As [`Error::config_field`], at the field's `n`th occurrence (0-based;
    /// the last one when there are fewer) among those least deep in the
    /// file's brackets (a tournament's own `limit`, not an inline
    /// engine's); the file's first value when the field is not written.
    pub fn config_field_nth(
        path: &Path,
        text: &str,
        field: &str,
        n: usize,
        message: String,
    ) -> Error {
        let (line, column) = field_place(text, (0, usize::MAX), field, n);
        Error::config_at(path, line, column, format!("{field}: {message}"))
    }
}

/// Where `field:` is written in the characters `scope` (a range of
/// character indices) of a RON text: its `n`th occurrence (or the last)
/// among the least deep ones; where the scope's value starts when it is not
/// written there (a field left to its default); `(0, 0)` for a text with
/// no value at all.
pub fn field_place(text: &str, scope: (usize, usize), field: &str, n: usize) -> (usize, usize) {
    let code = mask_ron(&text.chars().collect::<Vec<char>>());
    let spots: Vec<FieldSpot> = spots_in(&code, field)
        .into_iter()
        .filter(|s| (scope.0..scope.1).contains(&s.index))
        .collect();
    let least = spots.iter().map(|s| s.depth).min();
    let shallow: Vec<&FieldSpot> = spots.iter().filter(|s| Some(s.depth) == least).collect();
    match shallow.get(n).or(shallow.last()) {
        Some(s) => (s.line, s.column),
        None => value_start(&code, scope),
    }
}

/// A field name written as `field:` in a RON text, outside comments and
/// strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FieldSpot {
    /// Index of its first character.
    index: usize,
    /// Line, 1-based.
    line: usize,
    /// Column in characters, 1-based.
    column: usize,
    /// Brackets (`(`, `[`, `{`) open around it.
    depth: usize,
}

/// Every place `field:` is written in a RON text masked by [`mask_ron`],
/// in order.
fn spots_in(code: &[char], field: &str) -> Vec<FieldSpot> {
    let name: Vec<char> = field.chars().collect();
    let word = |c: &char| c.is_alphanumeric() || *c == '_';
    let (mut depth, mut line, mut column) = (0usize, 1usize, 1usize);
    let mut out = Vec::new();
    for i in 0..code.len() {
        if !name.is_empty()
            && code[i..].starts_with(&name)
            && (i == 0 || !word(&code[i - 1]))
            && !code.get(i + name.len()).is_some_and(word)
            && code[i + name.len()..].iter().find(|c| !c.is_whitespace()) == Some(&':')
        {
            out.push(FieldSpot {
                index: i,
                line,
                column,
                depth,
            });
        }
        match code[i] {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '\n' => {
                line += 1;
                column = 0;
            }
            _ => {}
        }
        column += 1;
    }
    out
}

/// The character range of entry `n` (0-based) of the list written as
/// `list: [...]` least deep in a RON text; `None` when there is no such
/// list or entry.
pub fn list_entry(text: &str, list: &str, n: usize) -> Option<(usize, usize)> {
    let code = mask_ron(&text.chars().collect::<Vec<char>>());
    let spot = spots_in(&code, list).into_iter().min_by_key(|s| s.depth)?;
    let colon = spot.index + list.chars().count();
    let open = colon + code[colon..].iter().position(|&c| c == '[')?;
    if code[colon..open]
        .iter()
        .any(|&c| c != ':' && !c.is_whitespace())
    {
        return None;
    }
    let (mut depth, mut index, mut start) = (0usize, 0usize, open + 1);
    for (k, &c) in code.iter().enumerate().skip(open + 1) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return (index == n).then_some((start, k)),
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                if index == n {
                    return Some((start, k));
                }
                index += 1;
                start = k + 1;
            }
            _ => {}
        }
    }
    None
}

/// Line and column of the first character of a value in `scope` of a
/// masked text (comments and spaces skipped); `(0, 0)` when there is none.
fn value_start(code: &[char], scope: (usize, usize)) -> (usize, usize) {
    let (mut line, mut column) = (1, 1);
    for (i, &c) in code.iter().enumerate() {
        if i >= scope.1 {
            break;
        }
        if i >= scope.0 && !c.is_whitespace() {
            return (line, column);
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (0, 0)
}

/// The characters of a RON text with comments blanked and the contents of
/// strings made neutral, index for index, so that brackets, colons and
/// field names inside them do not count.
pub fn mask_ron(chars: &[char]) -> Vec<char> {
    let mut out = chars.to_vec();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    out[i] = ' ';
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    // Line breaks stay, so lines still count.
                    if chars[i] != '\n' {
                        out[i] = ' ';
                    }
                    i += 1;
                }
                out[i..(i + 2).min(chars.len())].fill(' ');
                i += 2;
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    // Line breaks stay, so lines still count.
                    if chars[i] != '\n' {
                        out[i] = 'a';
                    }
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        if chars[i + 1] != '\n' {
                            out[i + 1] = 'a';
                        }
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Why a file that could be opened is not text we can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextProblem {
    /// The path names a directory.
    #[error("is a directory, not a file")]
    Directory,
    /// The bytes are not UTF-8 (a binary file, or another encoding).
    #[error(
        "is not UTF-8 text (byte {byte:#04x} at line {line}, column {column}); save it as UTF-8"
    )]
    NotUtf8 {
        /// The first byte that is not UTF-8.
        byte: u8,
        /// Its line, 1-based.
        line: usize,
        /// Its column in characters, 1-based.
        column: usize,
    },
}

/// Reads a whole text file: a directory or bytes that are not UTF-8 are an
/// [`std::io::Error`] wrapping the [`TextProblem`] (so its message says
/// which), and a leading UTF-8 byte order mark (as Windows editors write)
/// is dropped, so a file reads the same with or without one.
///
/// # Errors
/// The I/O error, or the [`TextProblem`] as an I/O error.
pub fn read_text_file(path: &Path) -> std::io::Result<String> {
    use std::io::{Error as IoError, ErrorKind};
    if path.is_dir() {
        return Err(IoError::new(
            ErrorKind::InvalidInput,
            TextProblem::Directory,
        ));
    }
    text_from_bytes(std::fs::read(path)?)
}

/// The text of a file's `bytes`, as [`read_text_file`] reads it.
fn text_from_bytes(bytes: Vec<u8>) -> std::io::Result<String> {
    use std::io::{Error as IoError, ErrorKind};
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // The prefix is valid UTF-8 by construction.
        let before = std::str::from_utf8(good).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        let byte = e.as_bytes()[good.len()];
        IoError::new(
            ErrorKind::InvalidData,
            TextProblem::NotUtf8 { byte, line, column },
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The [`TextProblem`] an I/O error of [`read_text_file`] carries, if any.
pub fn text_problem(e: &std::io::Error) -> Option<TextProblem> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<TextProblem>())
        .copied()
}

/// Reads a whole text file (see [`read_text_file`]), with the path in the
/// error.
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn read_text(path: &Path) -> Result<String> {
    read_text_file(path).map_err(|e| Error::io(path, e))
}

/// A data file read once: its bytes when they are of a binary format,
/// else its text.
pub enum FileData {
    /// The text, as [`read_text`] gives it.
    Text(String),
    /// The bytes of a binary file.
    Bytes(Vec<u8>),
}

/// Reads the file at `path` once: [`FileData::Bytes`] when `binary` says
/// its bytes are of a binary format, else its text as [`read_text`] reads
/// it.
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn read_text_or_bytes(path: &Path, binary: impl Fn(&[u8]) -> bool) -> Result<FileData> {
    if path.is_dir() {
        return read_text(path).map(FileData::Text);
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if binary(&bytes) {
        return Ok(FileData::Bytes(bytes));
    }
    text_from_bytes(bytes)
        .map(FileData::Text)
        .map_err(|e| Error::io(path, e))
}

/// A number as an error message shows it: as written for ordinary sizes,
/// in scientific notation beyond a billion (`1e300`, not 301 digits).
pub fn short_number(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e9 {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// At most `max` characters of `text`, with `…` when it was cut: what an
/// error message may quote of a value or a line, so that a file that is not
/// what it should be never floods a log.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let shown: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{shown}…")
    } else {
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_placed_on_its_line_after_strings_and_comments_with_line_breaks() {
        let text = "T(\n  out: \"a\nb\",\n  /* c\n */ depth: 3,\n  n: [(x: 1), (x: 2)],\n)";
        let all = (0, usize::MAX);
        assert_eq!(field_place(text, all, "depth", 0), (5, 5));
        assert_eq!(field_place(text, all, "out", 0), (2, 3));
        // Inside the list's second entry.
        let second = list_entry(text, "n", 1).unwrap();
        assert_eq!(field_place(text, second, "x", 0), (6, 16));
        // A field not written: where its part of the text starts.
        assert_eq!(field_place(text, second, "y", 0), (6, 15));
    }
}
