//! Typed errors of the library. Each carries the bad value and where it came
//! from (file, line, field, or argument), and nests its cause with `#[from]`
//! or `#[source]`. A variant's message names only the place; the cause
//! follows in the chain, which the binary prints as `place: cause` (`{:#}`).
//! `anyhow` is only used by the binary and `cli` glue.

use std::path::PathBuf;

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
    /// A bad value for a command-line argument that clap cannot check.
    #[error("{argument}: {message}")]
    Argument {
        /// The argument, as the user typed its name.
        argument: String,
        /// What is wrong with the value.
        message: String,
    },
}

/// Result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Reads a whole text file, with the path in the error.
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn read_text(path: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}
