//! A journal read as it grows: another process appends to it (a worker of
//! the same run), and each [`Tail::more_upto`] returns the games written
//! since the last call, checked like a resumed journal's, up to a bound
//! (a follower catches up with a long journal in steps). A line not yet ended (being written) is left for
//! the next call. Of the games read only their ids (and a hash of each
//! line, to tell a repeated line from a changed one: 4 bytes a game of the
//! run, in a table over all the run's ids; a worker's peer, which holds a
//! share of them, in a map) are kept.

use super::check::{check_counted_in_run, check_in_run, Slot};
use super::game::BadGame;
use super::game::GameRecord;
use super::info::TournamentInfo;
use super::journal::{Gathered, Taken};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Most bytes a [`Tail`] keeps room for between reads.
pub const READ_KEPT: usize = 1 << 16;

/// A journal followed from where the last read stopped.
pub struct Tail {
    path: PathBuf,
    /// Bytes of complete lines read so far.
    offset: u64,
    /// Lines read so far.
    line_no: usize,
    got: Gathered,
    /// The bytes of the last read, kept for the next (no allocation, and
    /// no fresh pages, a read).
    buf: Vec<u8>,
}

impl Tail {
    /// Follows the journal at `path` (which may not exist yet).
    pub fn new(path: &Path) -> Tail {
        Tail {
            path: path.to_path_buf(),
            offset: 0,
            line_no: 0,
            got: Gathered::default(),
            buf: Vec::new(),
        }
    }

    /// Follows the journal at `path` reading its games for what is
    /// counted of them: no moves, no per-move figures, the moves not
    /// replayed ([`GameRecord::counted_from_json`]); how a worker follows
    /// its peers, whose games it counts but never shows move by move.
    pub fn counted(path: &Path) -> Tail {
        let mut tail = Tail::new(path);
        tail.got.counted = true;
        tail
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// As [`Tail::more_upto`] with no bound: every game appended since
    /// the last call (the tests' reader).
    #[cfg(test)]
    pub fn more(
        &mut self,
        info: &TournamentInfo,
        slot: &dyn Fn(u64) -> Option<Slot>,
    ) -> Result<Vec<GameRecord>> {
        self.more_upto(info, slot, u64::MAX).map(|(games, _)| games)
    }

    /// The games appended since the last call, each checked as a game of
    /// the run `info` (its config hash, the schedule's `slot` for its id),
    /// reading at most about `most` bytes (a line longer than that whole);
    /// true when it read to the file's end. A journal not created yet has
    /// none.
    ///
    /// # Errors
    /// I/O, or the file, line and field of a bad line.
    pub fn more_upto(
        &mut self,
        info: &TournamentInfo,
        slot: &dyn Fn(u64) -> Option<Slot>,
        most: u64,
    ) -> Result<(Vec<GameRecord>, bool)> {
        let mut bytes = std::mem::take(&mut self.buf);
        let read = self.read_new(most, &mut bytes);
        let got = match read {
            Ok(at_end) => self
                .take_lines(info, slot, &bytes)
                .map(|games| (games, at_end)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Vec::new(), true)),
            Err(e) => Err(Error::io(&self.path, e)),
        };
        // The room of a long read (catching up with a journal) is given
        // back: a worker follows every other worker.
        if bytes.capacity() > READ_KEPT {
            bytes = Vec::new();
        }
        self.buf = bytes;
        got
    }

    /// The games of the whole lines of `bytes` (read from past
    /// `self.offset`), each checked.
    fn take_lines(
        &mut self,
        info: &TournamentInfo,
        slot: &dyn Fn(u64) -> Option<Slot>,
        bytes: &[u8],
    ) -> Result<Vec<GameRecord>> {
        let mut games = Vec::new();
        let mut start = 0;
        let mut line = String::new();
        while let Some(len) = bytes[start..].iter().position(|&b| b == b'\n') {
            let raw = &bytes[start..=start + len];
            start += len + 1;
            self.line_no += 1;
            self.offset += raw.len() as u64;
            let n = self.line_no;
            super::journal::decode_line(&self.path, n, raw, true, &mut line)?;
            if line.trim().is_empty() {
                continue;
            }
            if self.got.header.is_none() {
                self.got.take_header(&self.path, n, &line)?;
                self.check_header(info)?;
                // A table over all the run's game ids for a journal that
                // holds a share of them (a worker's peer) would cost each
                // of many workers the run's ids times the workers: a
                // peer's go to the map.
                if !self.got.counted {
                    self.got
                        .seen
                        .dense_below(info.total_pairs.saturating_mul(2));
                }
                continue;
            }
            if self.got.take_game(&self.path, n, &line, true)? != Taken::Game {
                continue;
            }
            let rec = self.got.take_last().expect("a game was taken");
            let checked = if self.got.counted {
                check_counted_in_run(&rec, info, slot)
            } else {
                check_in_run(&rec, info, slot)
            };
            checked.map_err(|b: BadGame| super::journal::bad_field(&self.path, n, &line, &b))?;
            games.push(rec);
        }
        Ok(games)
    }

    /// Puts into `bytes` the bytes past what was read before, at most
    /// `most` of them unless they hold no whole line (then up to the end
    /// of the first); true when they reach the file's end. Nothing is read
    /// when the file has not grown: a look at its length, as it is opened.
    fn read_new(&self, most: u64, bytes: &mut Vec<u8>) -> std::io::Result<bool> {
        bytes.clear();
        let (file, len) = crate::util::text::open_file_len(&self.path)?;
        let left = len.saturating_sub(self.offset);
        if left == 0 {
            return Ok(true);
        }
        let want = usize::try_from(left.min(most)).unwrap_or(usize::MAX);
        crate::util::text::read_range(&file, self.offset, want, bytes)?;
        if left < most || bytes.len() < want {
            return Ok(true);
        }
        if bytes.contains(&b'\n') {
            return Ok(false);
        }
        // As much as asked for, and no whole line: on to the first's end.
        let mut chunk = Vec::new();
        loop {
            let at = self.offset + bytes.len() as u64;
            crate::util::text::read_range(&file, at, READ_KEPT, &mut chunk)?;
            match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    bytes.extend_from_slice(&chunk[..=end]);
                    return Ok(false);
                }
                None if chunk.is_empty() => return Ok(false),
                None => bytes.extend_from_slice(&chunk),
            }
        }
    }

    /// The header must be of the run's config.
    fn check_header(&self, info: &TournamentInfo) -> Result<()> {
        let h = self.got.header.as_ref().expect("read");
        if h.config_hash != info.config_hash {
            return Err(Error::config_at(
                &self.path,
                self.line_no,
                1,
                format!(
                    "config_hash: the journal is of config {}, the run's tournament.json of {}",
                    h.config_hash, info.config_hash
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::journal::{Header, Journal};

    /// The header of the journals these tests write (of [`info`]'s run).
    fn header() -> Header {
        Header {
            arena_journal: 1,
            config_hash: "abc".into(),
            name: "t".into(),
            shard: "1/1".into(),
            game: crate::game::GameKind::Othello,
        }
    }

    fn info() -> TournamentInfo {
        serde_json::from_str(
            r#"{"config_hash":"abc","name":"t","engines":["a","b"],"format":{"RoundRobin":{"rounds":5}},"total_pairs":5,"book":{"file":"","openings":1,"order":"Sequential","start":0},"seed":1,"fail_on_h0":false,"shard":"1/1"}"#,
        )
        .unwrap()
    }

    fn game(id: u64) -> GameRecord {
        GameRecord {
            tune: None,
            pair_id: id / 2,
            game_id: id,
            round: 0,
            opening_id: 0,
            black: if id.is_multiple_of(2) { "a" } else { "b" }.into(),
            white: if id.is_multiple_of(2) { "b" } else { "a" }.into(),
            start: None,
            opening_plies: 0,
            moves: "e6".into(),
            // Black crashes (a legal first move, then a forfeit).
            result: 0.0,
            disc_diff: -64,
            reason: format!(
                "crash: {} (x)",
                if id.is_multiple_of(2) { "a" } else { "b" }
            ),
            nodes: Vec::new(),
            times_ms: Vec::new(),
            depths: Vec::new(),
            scores: Vec::new(),
        }
    }

    #[test]
    fn a_growing_journal_is_read_line_by_line_and_a_line_being_written_waits() {
        let dir = std::env::temp_dir().join(format!("arena-tail-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let mut tail = Tail::new(&path);
        let none = |_: u64| None;
        // Not created yet: nothing.
        assert!(tail.more(&info(), &none).unwrap().is_empty());
        let header = header();
        let mut j = Journal::create(&path, &header).unwrap();
        assert!(tail.more(&info(), &none).unwrap().is_empty());
        let mut line = serde_json::to_string(&game(0)).unwrap();
        // Half a line: left for later.
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        let cut = line.len() / 2;
        f.write_all(&line.as_bytes()[..cut]).unwrap();
        assert!(tail.more(&info(), &none).unwrap().is_empty());
        line.push('\n');
        f.write_all(&line.as_bytes()[cut..]).unwrap();
        let got = tail.more(&info(), &none).unwrap();
        assert_eq!(got.iter().map(|g| g.game_id).collect::<Vec<_>>(), [0]);
        j.append(&game(1)).unwrap();
        j.append(&game(2)).unwrap();
        let got = tail.more(&info(), &none).unwrap();
        assert_eq!(got.iter().map(|g| g.game_id).collect::<Vec<_>>(), [1, 2]);
        assert!(tail.more(&info(), &none).unwrap().is_empty());
        // A game line repeated byte for byte is read as nothing new; the
        // same game with other content is an error naming the line.
        j.append(&game(1)).unwrap();
        assert!(tail.more(&info(), &none).unwrap().is_empty());
        let mut changed = game(1);
        changed.reason.push_str(" again");
        j.append(&changed).unwrap();
        let err = tail.more(&info(), &none).unwrap_err().to_string();
        assert!(err.contains(":6:") && err.contains("twice"), "{err}");
        // Another config's journal is refused.
        let other = dir.join("other.jsonl");
        let h = Header {
            config_hash: "zzz".into(),
            ..header
        };
        Journal::create(&other, &h).unwrap();
        let err = Tail::new(&other)
            .more(&info(), &none)
            .unwrap_err()
            .to_string();
        assert!(err.contains("config_hash"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_long_journal_is_read_in_steps_of_a_bounded_size() {
        let dir = std::env::temp_dir().join(format!("arena-tail-steps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let header = header();
        let mut j = Journal::create(&path, &header).unwrap();
        for id in 0..10 {
            j.append(&game(id)).unwrap();
        }
        let line = serde_json::to_string(&game(0)).unwrap().len() as u64;
        let none = |_: u64| None;
        let mut tail = Tail::new(&path);
        let mut ids = Vec::new();
        let mut steps = 0;
        loop {
            // Less than one line a step: each step still reads one whole.
            let (games, at_end) = tail.more_upto(&info(), &none, line / 2).unwrap();
            assert!(games.len() <= 1, "{} games in a step", games.len());
            ids.extend(games.iter().map(|g| g.game_id));
            steps += 1;
            if at_end {
                break;
            }
            assert!(steps < 100);
        }
        assert_eq!(ids, (0..10).collect::<Vec<u64>>());
        let (games, at_end) = tail.more_upto(&info(), &none, 3 * line).unwrap();
        assert!(games.is_empty() && at_end);
        // A step of three lines' worth takes the whole lines in it.
        let mut tail = Tail::new(&path);
        let (games, at_end) = tail.more_upto(&info(), &none, 4 * line).unwrap();
        assert!(
            games.len() >= 2 && !at_end,
            "{} games in a step",
            games.len()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_counted_tail_reads_what_counts_and_checks_it() {
        let dir = std::env::temp_dir().join(format!("arena-tail-counted-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let mut j = Journal::create(&path, &header()).unwrap();
        let mut full = game(0);
        full.nodes = vec![Some(7)];
        full.times_ms = vec![1.5];
        full.depths = vec![Some(3)];
        j.append(&full).unwrap();
        let none = |_: u64| None;
        let got = Tail::counted(&path).more(&info(), &none).unwrap();
        let counted = GameRecord {
            moves: String::new(),
            nodes: Vec::new(),
            times_ms: Vec::new(),
            depths: Vec::new(),
            ..full.clone()
        };
        assert_eq!(got, [counted]);
        // Read whole, the same line is the full record.
        assert_eq!(Tail::new(&path).more(&info(), &none).unwrap(), [full]);
        // A result that is none, or a line without its moves: refused,
        // naming the line and the field.
        let mut bad = game(1);
        bad.result = 0.25;
        j.append(&bad).unwrap();
        let err = Tail::counted(&path)
            .more(&info(), &none)
            .unwrap_err()
            .to_string();
        assert!(err.contains(":3:") && err.contains("result"), "{err}");
        let other = dir.join("other.jsonl");
        Journal::create(&other, &header()).unwrap();
        let mut line = serde_json::to_value(game(1)).unwrap();
        line.as_object_mut().unwrap().remove("moves");
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&other)
            .unwrap();
        use std::io::Write;
        writeln!(f, "{line}").unwrap();
        let err = Tail::counted(&other)
            .more(&info(), &none)
            .unwrap_err()
            .to_string();
        assert!(err.contains(":2:") && err.contains("moves"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
