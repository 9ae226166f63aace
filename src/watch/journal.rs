//! One journal of a run followed as it grows ([`Followed`]: read from
//! where the last read stopped, a replaced file told), and what is kept
//! of the games read ([`LastGame`]: the few a run's page lists).

use crate::error::Result;
use crate::records::check::Slot;
use crate::records::tail::Tail;
use crate::records::{GameRecord, TournamentInfo};
use std::path::Path;
use std::time::SystemTime;

/// One journal followed: where it was read to, and which file it was.
pub struct Followed {
    tail: Tail,
    /// The file's identity and length when last read: another file, or a
    /// shorter one, means the journal was replaced.
    file: Option<((u64, u64), u64)>,
    /// Games read from it.
    pub games: u64,
}

/// What one read of a journal gave.
pub enum Read {
    /// The file was replaced: nothing read (the run starts over).
    Replaced,
    /// Games appended, and whether the file's end was reached.
    Games(Vec<GameRecord>, bool),
}

impl Followed {
    /// The journal at `path`, not read yet.
    pub fn new(path: &Path) -> Followed {
        Followed {
            tail: Tail::new(path),
            file: None,
            games: 0,
        }
    }

    /// Reads at most about `most` bytes of what was appended.
    ///
    /// # Errors
    /// I/O, or the file, line and field of a bad line.
    pub fn more(
        &mut self,
        info: &TournamentInfo,
        slot: &dyn Fn(u64) -> Option<Slot>,
        most: u64,
    ) -> Result<Read> {
        let path = self.tail.path().to_path_buf();
        let now =
            crate::util::sys::file_id(&path).zip(std::fs::metadata(&path).ok().map(|m| m.len()));
        if let (Some((old_id, old_len)), Some((id, len))) = (self.file, now) {
            if old_id != id || len < old_len {
                return Ok(Read::Replaced);
            }
        }
        if self.file.is_some() && now.is_none() {
            return Ok(Read::Replaced);
        }
        self.file = now;
        let (games, at_end) = self.tail.more_upto(info, slot, most)?;
        self.games += games.len() as u64;
        Ok(Read::Games(games, at_end))
    }

    /// Whether the journal was there when last read.
    pub fn found(&self) -> bool {
        self.file.is_some()
    }

    /// When the journal was last written.
    pub fn modified(&self) -> Option<SystemTime> {
        std::fs::metadata(self.tail.path())
            .and_then(|m| m.modified())
            .ok()
    }
}

/// One of the last games, as a run's page lists it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LastGame {
    /// Its id.
    pub game_id: u64,
    /// Black's engine.
    pub black: String,
    /// White's engine.
    pub white: String,
    /// Black's points.
    pub result: f64,
    /// Black's discs minus white's.
    pub disc_diff: i32,
    /// How it ended.
    pub reason: String,
    /// A forfeit (crash, illegal move, time) rather than a game played out.
    pub forfeit: bool,
}

impl LastGame {
    /// What is kept of game `g`.
    pub fn of(g: &GameRecord) -> LastGame {
        LastGame {
            game_id: g.game_id,
            black: g.black.clone(),
            white: g.white.clone(),
            result: g.result,
            disc_diff: g.disc_diff,
            reason: g.reason.clone(),
            forfeit: is_forfeit(&g.reason),
        }
    }
}

/// A game that ended by a forfeit rather than on the board.
fn is_forfeit(reason: &str) -> bool {
    ["crash", "illegal", "time", "forfeit", "error", "panic"]
        .iter()
        .any(|w| reason.starts_with(w))
}
