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
    #[error("{}", path_text(path))]
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
    #[error("{}", path_text(path))]
    Tree {
        /// The file.
        path: PathBuf,
        /// What was wrong and where.
        #[source]
        source: crate::game::tree::TreeError,
    },
    /// A bad configuration or data file (engine, weights, tournament): the
    /// place, and what is wrong with the field or value there.
    #[error("{}:{line}:{column}: {message}", path_text(path))]
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
    #[error("{}: byte {offset}: {message}", path_text(path))]
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
    /// unfinished, missing shards); the message names the folder, and the
    /// settings that would help by their names ([`Wording`]).
    #[error("{0}")]
    Run(Wording),
    /// A bug: something that must not happen did (a game thread died
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
    /// A run that would hold more memory than the machine has available,
    /// refused before its first game: the setting behind most of it
    /// (`engines`, `concurrency`, an engine's `tt_mib`), then what the
    /// run would hold and what the machine has. Exit code 1.
    #[error("{setting}: {message}")]
    Memory {
        /// The setting, as the config names it.
        setting: String,
        /// What the run would hold, and what is available.
        message: String,
    },
    /// An external engine's program that could not be started (not found,
    /// not executable): the engine and the program, then the cause.
    #[error("engine {engine:?}: cannot start {}", path_text(program))]
    Start {
        /// The engine's name.
        engine: String,
        /// The program.
        program: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An external engine that failed its first games of a run the same way
    /// before making a single move (it exits at start, does not answer its
    /// handshake, dies at its first move): the run stops instead of
    /// forfeiting every game. Exit code 1.
    #[error("engine {engine:?} ({command}) failed its first {games} games the same way without making a move, so the run stops: {reason}")]
    Broken {
        /// The engine's name.
        engine: String,
        /// How it is started: the program and its arguments (and folder).
        command: String,
        /// Games it failed.
        games: usize,
        /// How it failed the last (the crash message ends with its last
        /// line on the error stream).
        reason: String,
    },
    /// A command-line argument that cannot be used as given, found while
    /// working (an output folder that already holds a journal, an engine
    /// file without what the command needs): exit code 1.
    #[error("{argument}: {message}")]
    Argument {
        /// The argument: an option by name, or as printed.
        argument: Argument,
        /// What is wrong with the value.
        message: String,
    },
    /// A bad command-line value that clap's parsers cannot check alone (two
    /// flags that contradict each other, a range written as text): a usage
    /// error, exit code 2 like clap's own.
    #[error("{argument}: {message}")]
    Usage {
        /// The argument: an option by name, or as printed.
        argument: Argument,
        /// What is wrong with the value.
        message: String,
    },
}

/// What an [`Error::Usage`] or [`Error::Argument`] is about. The library
/// knows no command line: it names an option by the setting it gives, and
/// the binary prints that as its flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Argument {
    /// An option, by the name of its setting (`pairs`, `max_abs`); the
    /// binary prints its flag (`--pairs`, `--max-abs`), this type the name.
    Option(String),
    /// Anything else, printed as it is: a positional argument (`OUTPUT`),
    /// a path the user gave, or flags as the binary's own code names them.
    Text(String),
}

impl std::fmt::Display for Argument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Argument::Option(name) => f.write_str(name),
            Argument::Text(text) => f.write_str(text),
        }
    }
}

/// A message that names settings among its words (`continue it with
/// ` then the setting `resume`): the library writes each setting's name,
/// the binary its flag (`--resume`), as [`Argument`] does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wording(pub Vec<Argument>);

impl Wording {
    /// The message `text`, naming no setting.
    pub fn text(text: impl Into<String>) -> Wording {
        Wording(vec![Argument::Text(text.into())])
    }

    /// This message, then the setting `name`.
    #[must_use]
    pub fn setting(mut self, name: &str) -> Wording {
        self.0.push(Argument::Option(name.to_string()));
        self
    }

    /// This message, then `text`.
    #[must_use]
    pub fn then(mut self, text: impl Into<String>) -> Wording {
        self.0.push(Argument::Text(text.into()));
        self
    }
}

impl std::fmt::Display for Wording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|part| write!(f, "{part}"))
    }
}

impl From<String> for Wording {
    /// A message naming no setting.
    fn from(text: String) -> Wording {
        Wording::text(text)
    }
}

impl From<&str> for Argument {
    /// Text printed as it is.
    fn from(text: &str) -> Argument {
        Argument::Text(text.to_string())
    }
}

impl From<String> for Argument {
    /// Text printed as it is.
    fn from(text: String) -> Argument {
        Argument::Text(text)
    }
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

/// A path as an error message shows it: as [`Path::display`] writes it,
/// with control characters (a newline, a tab, an escape) escaped as Rust
/// writes them (`\n`, `\t`, `\u{1b}`), so that an error naming any path
/// stays on one line and cannot drive the terminal. Ordinary paths read as
/// they are.
pub fn path_text(path: &Path) -> String {
    let shown = path.display().to_string();
    if !shown.chars().any(char::is_control) {
        return shown;
    }
    shown
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
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
    /// A bad value of the option named `option` (its setting's name, as
    /// `pairs`), found while working (exit code 2).
    pub fn usage(option: &str, message: impl Into<String>) -> Error {
        Error::Usage {
            argument: Argument::Option(option.into()),
            message: message.into(),
        }
    }

    /// An option (named as in [`Error::usage`]) that cannot be used as
    /// given, found while working (exit code 1).
    pub fn argument(option: &str, message: impl Into<String>) -> Error {
        Error::Argument {
            argument: Argument::Option(option.into()),
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
}
