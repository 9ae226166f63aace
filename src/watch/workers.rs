//! What a run shared by workers adds to its page, read from its folder as
//! `arena report` and `arena status` read it: each worker (its heartbeat,
//! its journal's games), the stale time the workers recorded, and the
//! games two workers played (the same note `arena report` writes; the
//! watcher keeps two bytes per game id for it, not the games).

use crate::records::GameRecord;
use crate::tournament::workers::heartbeat::{self, Beat};
use crate::tournament::workers::report::twice_entry;
use crate::tournament::workers::{check_id, WorkerRecord, STALE_AFTER};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// One worker of a shared run, as a run's page shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WorkerView {
    /// Its ID.
    pub id: String,
    /// Its host and process id, from its heartbeat (empty without one).
    pub host: String,
    /// Its process id (0 without a heartbeat).
    pub pid: u32,
    /// Games in its journal.
    pub games: u64,
    /// Seconds since its last heartbeat (`None`: none).
    pub heartbeat_age_s: Option<u64>,
    /// "live", "ended", "stale" or "none".
    pub state: &'static str,
}

impl WorkerView {
    /// Worker `id`, whose journal holds `games`, by its heartbeat `beat`.
    pub fn new(id: &str, games: u64, beat: Option<&(Beat, SystemTime)>) -> WorkerView {
        let age = beat.map(|(_, t)| heartbeat::age(*t));
        let state = match (beat, age) {
            (None, _) => "none",
            (Some((b, _)), _) if b.count.is_none() => "ended",
            (Some(_), Some(a)) if a <= heartbeat::LIVE => "live",
            _ => "stale",
        };
        WorkerView {
            id: id.to_string(),
            host: beat.map(|(b, _)| b.host.clone()).unwrap_or_default(),
            pid: beat.map(|(b, _)| b.pid).unwrap_or(0),
            games,
            heartbeat_age_s: age.map(|a| a.as_secs()),
            state,
        }
    }
}

/// The worker IDs that have a folder under `dir/workers`, in order.
pub fn worker_ids(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir.join("workers")) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| check_id(n).is_ok())
        .collect();
    ids.sort();
    ids
}

/// Each worker's heartbeat (those that have one).
pub fn beats(dir: &Path) -> Vec<(String, Beat, SystemTime)> {
    worker_ids(dir)
        .into_iter()
        .filter_map(|id| {
            let path = dir.join("workers").join(&id).join("heartbeat");
            Beat::read(&path).map(|(b, t)| (id, b, t))
        })
        .collect()
}

/// The run's stale time: the longest `stale_after` its workers recorded
/// in their `worker.json` (a worker's peers wait that long before they
/// take its claims over), or the workers' default when none did (a run
/// on one machine, or workers of an older build).
pub fn stale_after(dir: &Path) -> Duration {
    worker_ids(dir)
        .iter()
        .filter_map(|id| WorkerRecord::read(&dir.join("workers").join(id)).ok()?)
        .filter_map(|r| r.stale_after_ms)
        .max()
        .map_or(STALE_AFTER, Duration::from_millis)
}

/// Which worker's journal gave each game id first, to name both workers
/// of a game two played.
pub struct FirstReaders {
    /// Game ids below this (twice the run's pairs) have their first
    /// reader kept; another is noted without it.
    limit: u64,
    /// Worker IDs, in the order first seen.
    names: Vec<String>,
    /// By game id: an index into `names` (`u16::MAX`: none yet).
    first: Vec<u16>,
    /// Games read twice: (the later worker by ID, game id, entry).
    twice: Vec<(String, u64, String)>,
}

impl FirstReaders {
    /// None read yet, of the run `info`.
    pub fn new(info: &crate::records::TournamentInfo) -> FirstReaders {
        FirstReaders {
            limit: info.total_pairs.saturating_mul(2),
            names: Vec::new(),
            first: Vec::new(),
            twice: Vec::new(),
        }
    }

    /// Game `g` read from worker `id`'s journal; `again`: its id was read
    /// before (from another worker's journal).
    pub fn read(&mut self, id: &str, g: &GameRecord, again: bool) {
        let at = usize::try_from(g.game_id)
            .ok()
            .filter(|_| g.game_id < self.limit);
        if again {
            let first = at
                .and_then(|i| self.first.get(i))
                .and_then(|&w| self.names.get(usize::from(w)))
                .map_or("another worker", String::as_str);
            let (a, b) = if id < first { (id, first) } else { (first, id) };
            let entry = twice_entry(g.game_id, a, b);
            self.twice.push((b.to_string(), g.game_id, entry));
            return;
        }
        let Some(at) = at else {
            return;
        };
        let w = match self.names.iter().position(|n| n == id) {
            Some(w) => w,
            None => {
                self.names.push(id.to_string());
                self.names.len() - 1
            }
        };
        if at >= self.first.len() {
            self.first.resize(at + 1, u16::MAX);
        }
        self.first[at] = u16::try_from(w).unwrap_or(u16::MAX);
    }

    /// The games read twice, as `arena report`'s note lists them (by the
    /// later worker's ID, then by game id).
    pub fn twice(&self) -> Vec<String> {
        let mut all: Vec<&(String, u64, String)> = self.twice.iter().collect();
        all.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
        all.into_iter().map(|(_, _, e)| e.clone()).collect()
    }
}
