//! Text files and text in messages: reading a file as UTF-8 text (a
//! directory, other encodings and a byte order mark handled), and the
//! short forms in which an error message quotes a value.

use crate::error::{Error, Result};
use std::path::Path;

/// Why a file that could be opened is not text we can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextProblem {
    /// The path names a directory.
    #[error("is a directory, not a file")]
    Directory,
    /// The path names something that is not a file: a FIFO, a socket or a
    /// device, which a read could wait on forever or never finish.
    #[error("is {0}, not a file")]
    Special(&'static str),
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

/// Reads a whole text file: a path that is no regular file (a directory, a
/// FIFO, a socket, a device; see [`read_bytes`]) or bytes that are not
/// UTF-8 are an [`std::io::Error`] wrapping the [`TextProblem`] (so its
/// message says which), and a leading UTF-8 byte order mark (as Windows editors write)
/// is dropped, so a file reads the same with or without one.
///
/// # Errors
/// The I/O error, or the [`TextProblem`] as an I/O error.
pub fn read_text_file(path: &Path) -> std::io::Result<String> {
    text_from_bytes(read_bytes(path)?)
}

/// What a path that is not a regular file names, in words: `a directory`,
/// `a FIFO`, `a socket`, `a device`.
fn special(kind: std::fs::FileType) -> Option<TextProblem> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some(TextProblem::Special("a FIFO (named pipe)"));
        }
        if kind.is_socket() {
            return Some(TextProblem::Special("a socket"));
        }
        if kind.is_block_device() || kind.is_char_device() {
            return Some(TextProblem::Special("a device"));
        }
    }
    if kind.is_dir() {
        Some(TextProblem::Directory)
    } else if kind.is_file() {
        None
    } else {
        Some(TextProblem::Special("not a regular file"))
    }
}

/// What is wrong with `path` as a file to read, when it exists but names
/// no regular file (a directory, a FIFO, a socket, a device); `None` for a
/// file, and for a path that cannot be looked at (reading it says why).
pub fn file_problem(path: &Path) -> Option<TextProblem> {
    std::fs::metadata(path)
        .ok()
        .and_then(|m| special(m.file_type()))
}

/// Reads a whole file's bytes, refusing at once a path that names no
/// regular file (a directory, a FIFO, a socket, a device: reading a FIFO
/// would wait forever for a writer, a device might never end). The type is
/// checked before opening, and again on the open file (opened without
/// blocking), so a path swapped in between is refused too.
///
/// # Errors
/// The I/O error, or the [`TextProblem`] as an I/O error.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let (mut file, len) = open_file_len(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens a file for reading as [`read_bytes`] does: a path that names no
/// regular file is refused at once, with the [`TextProblem`] as an I/O
/// error.
///
/// # Errors
/// The I/O error, or the [`TextProblem`] as an I/O error.
pub fn open_file(path: &Path) -> std::io::Result<std::fs::File> {
    open_file_len(path).map(|(file, _)| file)
}

/// [`open_file`], with the file's length when it was opened (from the
/// same look that checks it is a regular file).
///
/// # Errors
/// The I/O error, or the [`TextProblem`] as an I/O error.
pub fn open_file_len(path: &Path) -> std::io::Result<(std::fs::File, u64)> {
    use std::io::{Error as IoError, ErrorKind};
    let refuse = |p| IoError::new(ErrorKind::InvalidInput, p);
    if let Some(p) = special(std::fs::metadata(path)?.file_type()) {
        return Err(refuse(p));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    super::sys::nonblocking(&mut options);
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if let Some(p) = special(meta.file_type()) {
        return Err(refuse(p));
    }
    Ok((file, meta.len()))
}

/// Reads `file` from byte `offset` into `buf` (made `want` bytes long
/// first) until `want` bytes are in or the file ends, without moving the
/// file's position; `buf` is cut to what was read. One call of `pread(2)`
/// when the file holds them, where `read_to_end` after a seek makes three
/// or more.
///
/// # Errors
/// The I/O error.
pub fn read_range(
    file: &std::fs::File,
    offset: u64,
    want: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<()> {
    buf.resize(want, 0);
    let mut got = 0;
    while got < want {
        match super::sys::read_at(file, &mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(got);
                return Err(e);
            }
        }
    }
    buf.truncate(got);
    Ok(())
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
    let bytes = read_bytes(path).map_err(|e| Error::io(path, e))?;
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
