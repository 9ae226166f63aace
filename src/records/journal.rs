//! The journal (`journal.jsonl`): a header line naming the config (by hash)
//! and shard, then one finished game per line, appended and flushed as each
//! game ends, in completion order. It is the source of truth: every other
//! output is recomputed from it, and `--resume` continues from it.
//!
//! A kill can leave a last line half written; reading drops it (and
//! resuming truncates it away) so that the game is simply played again.

use super::game::GameRecord;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first line of a journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Format version (1).
    pub arena_journal: u32,
    /// Hash of the normalized config.
    pub config_hash: String,
    /// Tournament name.
    pub name: String,
    /// `K/N`, or `merged`.
    pub shard: String,
}

/// A journal open for appending.
pub struct Journal {
    file: File,
    path: PathBuf,
}

/// What a journal holds.
#[derive(Debug)]
pub struct Contents {
    /// Its header.
    pub header: Header,
    /// Complete game lines, in file order (duplicates of a game_id dropped).
    pub games: Vec<GameRecord>,
    /// Byte length of the complete lines (a torn last line is past it).
    pub valid_len: u64,
}

/// Reads a journal.
///
/// # Errors
/// [`Error::Io`], or [`Error::Config`] for a bad header or a corrupt line
/// that is not the last one.
pub fn read(path: &Path) -> Result<Contents> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut valid_len = 0u64;
    let mut header: Option<Header> = None;
    let mut games = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut n = 0usize;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| Error::io(path, e))?;
        if read == 0 {
            break;
        }
        n += 1;
        let complete = line.ends_with('\n');
        if complete && line.trim().is_empty() {
            valid_len += read as u64;
            continue;
        }
        let bad = |msg: String| Error::config_at(path, n, 1, msg);
        if header.is_none() {
            let h: Header = serde_json::from_str(line.trim_end())
                .map_err(|e| bad(format!("not an arena journal header: {e}")))?;
            header = Some(h);
            // The header counts even without its newline (appending adds one).
            valid_len += read as u64;
            continue;
        } else {
            match serde_json::from_str::<GameRecord>(line.trim_end()) {
                Ok(rec) => {
                    if !complete {
                        break; // written in full but not terminated: replay it
                    }
                    if seen.insert(rec.game_id) {
                        games.push(rec);
                    }
                }
                Err(_) if !complete => break, // torn by a kill: replay it
                Err(e) => return Err(bad(format!("corrupt game line: {e}"))),
            }
        }
        if complete {
            valid_len += read as u64;
        }
    }
    let header = header
        .ok_or_else(|| Error::config_at(path, 1, 1, "empty journal (no header line)".into()))?;
    Ok(Contents {
        header,
        games,
        valid_len,
    })
}

impl Journal {
    /// Creates a new journal with `header`; refuses to overwrite one.
    ///
    /// # Errors
    /// [`Error::Io`], including when the file exists.
    pub fn create(path: &Path, header: &Header) -> Result<Journal> {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        let line = serde_json::to_string(header).expect("headers serialize");
        writeln!(file, "{line}")
            .and_then(|()| file.flush())
            .map_err(|e| Error::io(path, e))?;
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing journal for appending after its last complete line
    /// (a torn last line is cut off).
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn append_to(path: &Path, valid_len: u64) -> Result<Journal> {
        let mut file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        file.set_len(valid_len).map_err(|e| Error::io(path, e))?;
        file.seek(SeekFrom::End(0))
            .map_err(|e| Error::io(path, e))?;
        // A header written without its newline (a kill inside create) gets
        // one, so the next game starts on a line of its own.
        let text = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        if text.last().is_some_and(|&b| b != b'\n') {
            file.write_all(b"\n").map_err(|e| Error::io(path, e))?;
        }
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends a game and flushes it to the operating system.
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn append(&mut self, rec: &GameRecord) -> Result<()> {
        let mut line = serde_json::to_string(rec).expect("records serialize");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| Error::io(&self.path, e))
    }
}
