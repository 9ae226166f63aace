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
    /// the last one when there are fewer).
    pub fn config_field_nth(
        path: &Path,
        text: &str,
        field: &str,
        n: usize,
        message: String,
    ) -> Error {
        let places = field_places(text, field);
        let (line, column) = places.get(n).or(places.last()).copied().unwrap_or((0, 0));
        Error::config_at(path, line, column, format!("{field}: {message}"))
    }
}

/// Lines and columns (1-based) where `field` is written as a RON field
/// name (`field:`), skipping `//` comments.
pub fn field_places(text: &str, field: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut from = 0;
        while let Some(k) = code[from..].find(field) {
            let at = from + k;
            let before_ok =
                at == 0 || !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let after = code[at + field.len()..].trim_start();
            if before_ok && after.starts_with(':') {
                out.push((i + 1, at + 1));
            }
            from = at + field.len();
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
