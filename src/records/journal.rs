//! The journal (`journal.jsonl`): a header line naming the config (by hash)
//! and shard, then one finished game per line, appended and flushed as each
//! game ends, in completion order. It is the source of truth: every other
//! output is recomputed from it, and `--resume` continues from it.
//!
//! A kill can leave a last line half written; reading drops it (and
//! resuming truncates it away) so that the game is simply played again.

use super::check::{check_game, check_in_run, Slot};
use super::game::{BadGame, GameRecord};
use super::info::TournamentInfo;
use super::info::{is_othello, othello};
use crate::error::{Error, Result};
use crate::game::GameKind;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
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
    /// The game its moves are of (absent: Othello).
    #[serde(default = "othello", skip_serializing_if = "is_othello")]
    pub game: GameKind,
}

/// A journal open for appending.
pub struct Journal {
    file: File,
    path: PathBuf,
    /// Games written since the last sync.
    unsynced: bool,
    /// The lines of the games being appended (kept: one buffer for the run).
    lines: Vec<u8>,
}

/// What a journal holds.
#[derive(Debug)]
pub struct Contents {
    /// Its header.
    pub header: Header,
    /// Complete game lines, in file order (each game id once: a line that
    /// repeats an earlier one exactly is left out, and listed in
    /// `repeated`; another second line of an id is an error).
    pub games: Vec<GameRecord>,
    /// The game id and line of each line that repeated an earlier game's
    /// line exactly (two writers of one journal both wrote it).
    pub repeated: Vec<(u64, usize)>,
    /// The line number (1-based) of each game.
    pub lines: Vec<usize>,
    /// The journal's path.
    pub path: PathBuf,
    /// Byte length of the complete lines (a torn last line is past it).
    pub valid_len: u64,
}

/// What a game line was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Taken {
    /// A game, added.
    Game,
    /// An exact repeat of an earlier game's line, left out.
    Repeat,
    /// The last line, torn or not terminated by a kill: played again.
    Replay,
}

/// Each game id read, with a hash of its line (to tell a line repeated
/// byte for byte from the same game with other content). A follower of a
/// growing journal ([`super::tail::Tail`]) that knows the run's games keeps
/// the ids of its schedule in a table of 31-bit hashes (the lowest bit
/// marks a taken entry), 4 bytes a game of the run whatever the games
/// read; the others (a worker's peers, which hold a share of the ids, and
/// a journal read whole) in a map.
#[derive(Default)]
pub(super) struct LineHashes {
    /// By id below `limit`: the hash's low 32 bits with the lowest set, 0
    /// for none.
    dense: Vec<u32>,
    limit: u64,
    others: std::collections::HashMap<u64, u64>,
}

impl LineHashes {
    /// Ids below `limit` (the run's games) go to the table, up to
    /// [`DENSE_MOST`] of them.
    pub(super) fn dense_below(&mut self, limit: u64) {
        if self.dense.is_empty() && self.others.is_empty() {
            self.limit = limit.min(DENSE_MOST);
        }
    }

    /// Notes `id`'s line hash; whether the line noted before, if any, was
    /// the same.
    fn insert(&mut self, id: u64, hash: u64) -> Option<bool> {
        if id >= self.limit {
            return self.others.insert(id, hash).map(|before| before == hash);
        }
        let i = usize::try_from(id).expect("below the run's games");
        if i >= self.dense.len() {
            self.dense.resize(i + 1, 0);
        }
        let short = (hash as u32) | 1;
        let before = std::mem::replace(&mut self.dense[i], short);
        (before != 0).then_some(before == short)
    }
}

/// Most game ids kept in a [`LineHashes`] table (256 MB of it): the ids of
/// a larger run past them go to its map.
const DENSE_MOST: u64 = 1 << 26;

/// What reading a journal has gathered so far.
#[derive(Default)]
pub(super) struct Gathered {
    pub(super) header: Option<Header>,
    pub(super) games: Vec<GameRecord>,
    /// Each game id read, with the hash of its line's text.
    pub(super) seen: LineHashes,
    repeated: Vec<(u64, usize)>,
    lines: Vec<usize>,
    valid_len: u64,
    /// Games are read for what is counted of them only
    /// ([`GameRecord::counted_from_json`], checked by
    /// [`super::check::check_counted`]).
    pub(super) counted: bool,
}

/// Puts line `n`'s `bytes` into `line` as text (without an editor's byte
/// order mark on line 1); false when the line was cut by a kill inside a
/// character, which is replayed.
pub(super) fn decode_line(
    path: &Path,
    n: usize,
    bytes: &[u8],
    complete: bool,
    line: &mut String,
) -> Result<bool> {
    line.clear();
    match std::str::from_utf8(bytes) {
        Ok(text) => line.push_str(text),
        // A kill can cut the last line inside a character: replay it.
        Err(_) if !complete => return Ok(false),
        Err(e) => {
            // Columns count characters, as everywhere else.
            let valid = String::from_utf8_lossy(&bytes[..e.valid_up_to()]);
            return Err(Error::config_at(
                path,
                n,
                valid.chars().count() + 1,
                "not UTF-8 text (a journal is lines of JSON)".into(),
            ));
        }
    }
    if n == 1 {
        // An editor's byte order mark.
        if let Some(rest) = line.strip_prefix('\u{feff}') {
            *line = rest.to_string();
        }
    }
    Ok(true)
}

impl Gathered {
    /// Gives up the last game taken, with its line number (a follower of
    /// a growing journal keeps none of its games).
    pub(super) fn take_last(&mut self) -> Option<GameRecord> {
        self.lines.pop();
        self.games.pop()
    }

    /// Takes line `n` as the journal's header.
    pub(super) fn take_header(&mut self, path: &Path, n: usize, line: &str) -> Result<()> {
        let bad = |msg: String| Error::config_at(path, n, 1, msg);
        let h: Header = serde_json::from_str(line.trim_end())
            .map_err(|e| bad(format!("not an arena journal header: {e}")))?;
        if h.arena_journal != 1 {
            return Err(bad(format!(
                "arena_journal: version {} (this arena reads version 1)",
                h.arena_journal
            )));
        }
        self.header = Some(h);
        Ok(())
    }

    /// Takes line `n` as a game.
    pub(super) fn take_game(
        &mut self,
        path: &Path,
        n: usize,
        line: &str,
        complete: bool,
    ) -> Result<Taken> {
        let parsed = if self.counted {
            let line = line.trim_end();
            super::counted::scan(line).map_or_else(|| GameRecord::counted_from_json(line), Ok)
        } else {
            serde_json::from_str::<GameRecord>(line.trim_end())
        };
        match parsed {
            Ok(rec) => {
                if !complete {
                    return Ok(Taken::Replay); // written in full but not terminated
                }
                let game = self.header.as_ref().map_or(GameKind::Othello, |h| h.game);
                let checked = if self.counted {
                    super::check::check_counted(&rec)
                } else {
                    check_game(&rec, game)
                };
                checked.map_err(|b| bad_field(path, n, line, &b))?;
                let text = crate::util::line_hash(line.trim_end().as_bytes());
                match self.seen.insert(rec.game_id, text) {
                    None => {}
                    Some(true) => {
                        self.repeated.push((rec.game_id, n));
                        return Ok(Taken::Repeat);
                    }
                    Some(false) => {
                        let b = BadGame {
                            field: "game_id",
                            message: format!(
                                "game {} is in the journal twice, with other content each time",
                                rec.game_id
                            ),
                        };
                        return Err(bad_field(path, n, line, &b));
                    }
                }
                self.lines.push(n);
                self.games.push(rec);
                Ok(Taken::Game)
            }
            Err(_) if !complete => Ok(Taken::Replay), // torn by a kill
            Err(e) => Err(corrupt(path, n, line, &e)),
        }
    }
}

/// Reads a journal.
///
/// # Errors
/// [`Error::Io`], or [`Error::Config`] for a bad header or a corrupt line
/// that is not the last one.
pub fn read(path: &Path) -> Result<Contents> {
    // A FIFO, a socket or a device is refused at once (reading a FIFO
    // would wait for a writer forever).
    let file = crate::util::text::open_file(path).map_err(|e| Error::io(path, e))?;
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    let mut line = String::new();
    let mut got = Gathered::default();
    let mut n = 0usize;
    loop {
        bytes.clear();
        let read = reader
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Error::io(path, e))?;
        if read == 0 {
            break;
        }
        n += 1;
        let complete = bytes.ends_with(b"\n");
        if !decode_line(path, n, &bytes, complete, &mut line)? {
            break;
        }
        if complete && line.trim().is_empty() {
            got.valid_len += read as u64;
            continue;
        }
        if got.header.is_none() {
            got.take_header(path, n, &line)?;
            // The header counts even without its newline (appending adds one).
            got.valid_len += read as u64;
            continue;
        }
        if got.take_game(path, n, &line, complete)? == Taken::Replay {
            break;
        }
        if complete {
            got.valid_len += read as u64;
        }
    }
    let header = got
        .header
        .ok_or_else(|| Error::config_at(path, 1, 1, "empty journal (no header line)".into()))?;
    Ok(Contents {
        header,
        games: got.games,
        lines: got.lines,
        repeated: got.repeated,
        valid_len: got.valid_len,
        path: path.to_path_buf(),
    })
}

/// A game line that is not a game record: at the column where reading
/// stopped, naming the field there (the last key before it) and what was
/// expected, in words.
fn corrupt(path: &Path, line_no: usize, line: &str, e: &serde_json::Error) -> Error {
    // serde_json counts bytes; columns here count characters.
    let mut end = e.column().min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let before = &line[..end];
    let column = before.chars().count().max(1);
    let message = e.to_string();
    // The key before the column names the field a value is wrong for; a
    // missing or repeated field is named by the message itself.
    let keyed = !message.starts_with("missing field") && !message.starts_with("duplicate field");
    let field = before.rfind("\":").filter(|_| keyed).and_then(|end| {
        let start = before[..end].rfind('"')? + 1;
        Some(&before[start..end])
    });
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .replace("expected u64", "expected a whole number of at least 0")
        .replace("expected usize", "expected a whole number of at least 0")
        .replace("expected u32", "expected a whole number of at least 0")
        .replace("expected i32", "expected a whole number")
        .replace("expected f64", "expected a number");
    let message = match field {
        Some(f) => format!("corrupt game line: {f}: {message}"),
        None => format!("corrupt game line: {message}"),
    };
    Error::config_at(path, line_no, column, message)
}

/// The error of a bad game line: file, line, the column of the field's key,
/// and the field named in the message.
pub(super) fn bad_field(path: &Path, line_no: usize, line: &str, b: &BadGame) -> Error {
    let column = line.find(&format!("\"{}\":", b.field)).map_or(1, |c| c + 1);
    Error::config_at(path, line_no, column, format!("{}: {}", b.field, b.message))
}

impl Contents {
    /// The note on lines that repeat a game exactly, when there are any.
    pub fn repeat_note(&self) -> Option<String> {
        let (first, _) = self.repeated.first()?;
        let lines: Vec<String> = self.repeated.iter().map(|(_, l)| l.to_string()).collect();
        Some(format!(
            "{} repeats {} game lines exactly (game {first} first; lines {}), as two writers of one journal leave it: each game counts once",
            crate::error::path_text(&self.path),
            self.repeated.len(),
            lines.join(", ")
        ))
    }

    /// Checks every game against the run `info` describes (the shard, and
    /// the schedule, which puts game `id` in `slot(id)` when it is fixed in
    /// advance), and the header against `info`'s config.
    ///
    /// # Errors
    /// [`Error::Config`] naming the file, line and field of the first
    /// problem.
    pub fn check_run(
        &self,
        info: &TournamentInfo,
        slot: &dyn Fn(u64) -> Option<Slot>,
    ) -> Result<()> {
        if self.header.config_hash != info.config_hash {
            return Err(Error::config_at(
                &self.path,
                1,
                1,
                format!(
                    "config_hash: the journal is of config {}, its tournament.json of {}",
                    self.header.config_hash, info.config_hash
                ),
            ));
        }
        let text = std::fs::read_to_string(&self.path).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        for (rec, &n) in self.games.iter().zip(&self.lines) {
            check_in_run(rec, info, slot)
                .map_err(|b| bad_field(&self.path, n, all.get(n - 1).copied().unwrap_or(""), &b))?;
        }
        Ok(())
    }
}

impl Journal {
    /// Creates a new journal with `header`; refuses to overwrite one. The
    /// header is written whole to a temporary file, synced and renamed into
    /// place, so a kill at any moment leaves either no journal or one with
    /// its whole header (which `--resume` continues).
    ///
    /// # Errors
    /// [`Error::Io`], including when the file exists.
    pub fn create(path: &Path, header: &Header) -> Result<Journal> {
        if path.exists() {
            return Err(Error::io(
                path,
                std::io::Error::from(std::io::ErrorKind::AlreadyExists),
            ));
        }
        let line = serde_json::to_string(header).expect("headers serialize");
        crate::util::write_durable(path, &format!("{line}\n"))?;
        Journal::append_to(
            path,
            std::fs::metadata(path)
                .map_err(|e| Error::io(path, e))?
                .len(),
        )
    }

    /// Replaces the header of the journal at `path` (its first line), keeping
    /// its first `valid_len` bytes of games: how a run is extended to a
    /// longer one of its family. The new file is written whole, synced and
    /// renamed into place, so a kill leaves the old journal or the new.
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn rewrite_header(path: &Path, header: &Header, valid_len: u64) -> Result<()> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let end = usize::try_from(valid_len).map_or(bytes.len(), |n| n.min(bytes.len()));
        let kept = &bytes[..end];
        let games = kept
            .iter()
            .position(|&b| b == b'\n')
            .map_or(&kept[kept.len()..], |i| &kept[i + 1..]);
        let line = serde_json::to_string(header).expect("headers serialize");
        let text = format!("{line}\n{}", String::from_utf8_lossy(games));
        crate::util::write_durable(path, &text)
    }

    /// Opens an existing journal for appending after its last complete line
    /// (a torn last line is cut off). Writes go to the end of the file
    /// (append mode), whatever else has the file open.
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn append_to(path: &Path, valid_len: u64) -> Result<Journal> {
        let mut file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        file.set_len(valid_len).map_err(|e| Error::io(path, e))?;
        // A header written without its newline (by an older version killed
        // inside create) gets one, so the next game starts on a line of its
        // own.
        let text = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        if text.last().is_some_and(|&b| b != b'\n') {
            file.write_all(b"\n").map_err(|e| Error::io(path, e))?;
        }
        Ok(Journal {
            file,
            path: path.to_path_buf(),
            unsynced: false,
            lines: Vec::new(),
        })
    }

    /// Forces the games appended so far to the disk (`fsync`), so a power
    /// cut cannot lose them. The runner calls it at least once a second
    /// while games arrive, and at the end.
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn sync(&mut self) -> Result<()> {
        if self.unsynced {
            self.file
                .sync_data()
                .map_err(|e| Error::io(&self.path, e))?;
            self.unsynced = false;
        }
        Ok(())
    }

    /// True when games were appended since the last [`Journal::sync`].
    pub fn unsynced(&self) -> bool {
        self.unsynced
    }

    /// Appends a game and flushes it to the operating system.
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn append(&mut self, rec: &GameRecord) -> Result<()> {
        self.append_all(std::slice::from_ref(rec))
    }

    /// Appends games, a line each, in one write to the operating system
    /// (games that finished together reach the file together).
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn append_all(&mut self, recs: &[GameRecord]) -> Result<()> {
        self.lines.clear();
        for rec in recs {
            serde_json::to_writer(&mut self.lines, rec).expect("records serialize");
            self.lines.push(b'\n');
        }
        self.unsynced = true;
        self.file
            .write_all(&self.lines)
            .and_then(|()| self.file.flush())
            .map_err(|e| Error::io(&self.path, e))
    }
}
