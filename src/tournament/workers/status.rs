//! `arena status DIR`: a live view of a run that workers play, read
//! without a lock and without writing anything: the counted prefix (games,
//! Elo, LLR and how far to a bound), each worker's pairs and last write,
//! and an estimate of the pairs left.

use super::claims::{claim_owners, Owner};
use super::heartbeat;
use super::report::{combine, WorkerGames};
use crate::error::Result;
use crate::records::journal;
use crate::records::{GameRecord, TournamentInfo};
use crate::report::{analyse, Results};
use crate::tournament::folder::read_info;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// One worker, as the status shows it.
#[derive(Debug)]
pub struct WorkerRow {
    /// Its ID.
    pub id: String,
    /// Pairs it claimed (the newest claim is its).
    pub claimed: u64,
    /// Of them, finished.
    pub finished: u64,
    /// Games in its journal.
    pub games: u64,
    /// How long ago its journal was last written (`None`: no journal).
    pub last_write: Option<Duration>,
    /// Its heartbeat: "live", "ended", "silent 42s", or "none".
    pub heartbeat: String,
}

/// A run played by workers, as it stands.
#[derive(Debug)]
pub struct Status {
    /// The run.
    pub info: TournamentInfo,
    /// The statistics of the games so far (the counted prefix for an SPRT).
    pub results: Results,
    /// Pairs claimed, and of them finished.
    pub claimed: u64,
    /// Pairs finished (both games in a journal).
    pub finished: u64,
    /// Per worker.
    pub workers: Vec<WorkerRow>,
    /// Pairs still to play, estimated (an SPRT's from its LLR's drift so far).
    pub pairs_left: Option<u64>,
}

/// Reads the run in `dir` as it stands. A journal being written is read up
/// to its last whole line.
///
/// # Errors
/// Not a worker run's folder, a bad `tournament.json` or journal.
pub fn status(dir: &Path) -> Result<Status> {
    let info = read_info(dir)?;
    if !info.workers {
        let dir = crate::error::path_text(dir);
        let why = format!("{dir} is not a run played by workers (arena report shows it)");
        return Err(crate::error::Error::Run(why.into()));
    }
    let owners = claim_owners(dir)?;
    let mut workers = Vec::new();
    let mut rows = Vec::new();
    for id in worker_ids(dir) {
        let folder = dir.join("workers").join(&id);
        let (games, last_write) = journal_games(&folder.join("journal.jsonl"));
        let heartbeat = heartbeat_word(&folder.join("heartbeat"));
        rows.push((id.clone(), games.len() as u64, last_write, heartbeat));
        workers.push(WorkerGames { id, games });
    }
    let (games, _) = combine(workers);
    let done: BTreeSet<u64> = games.iter().map(|g| g.game_id).collect();
    let pair_done = |p: u64| done.contains(&(2 * p)) && done.contains(&(2 * p + 1));
    let per = claims_per_worker(&owners, pair_done);
    let workers = rows
        .into_iter()
        .map(|(id, games, last_write, heartbeat)| {
            let (claimed, finished) = per.get(id.as_str()).copied().unwrap_or_default();
            WorkerRow {
                id,
                claimed,
                finished,
                games,
                last_write,
                heartbeat,
            }
        })
        .collect();
    let results = analyse(&info, &games);
    let finished = (0..info.total_pairs).filter(|&p| pair_done(p)).count() as u64;
    let pairs_left = estimate_left(&info, &results, finished);
    Ok(Status {
        claimed: owners.len() as u64,
        finished,
        info,
        results,
        workers,
        pairs_left,
    })
}

/// The IDs of the workers with a folder under `dir/workers` (names that are
/// not a valid worker ID are passed over), in order; none if there is no
/// such folder.
fn worker_ids(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir.join("workers"))
        .map(|e| {
            e.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| super::check_id(n).is_ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The games in the worker journal at `path` and how long ago it was last
/// written; no games and no age if it cannot be read.
fn journal_games(path: &Path) -> (Vec<GameRecord>, Option<Duration>) {
    match journal::read(path) {
        Ok(c) => {
            let age = std::fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .map(heartbeat::age);
            (c.games, age)
        }
        Err(_) => (Vec::new(), None),
    }
}

/// The heartbeat file at `beat` in a word for the status: "none", "ended",
/// "live" or "silent 42s".
fn heartbeat_word(beat: &Path) -> String {
    match heartbeat::Beat::read(beat) {
        None => "none".to_string(),
        Some((b, _)) if b.count.is_none() => "ended".to_string(),
        Some(_) if heartbeat::is_live(beat) => "live".to_string(),
        Some((_, t)) => format!("silent {}s", heartbeat::age(t).as_secs()),
    }
}

/// Per worker ID (`""` for a pair whose newest claim names no worker): the
/// pairs whose newest claim is its, and of them those `pair_done` says are
/// finished.
fn claims_per_worker(
    owners: &BTreeMap<u64, Vec<Owner>>,
    pair_done: impl Fn(u64) -> bool,
) -> BTreeMap<&str, (u64, u64)> {
    let mut per: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for (&p, o) in owners {
        let owner = o.last().and_then(Owner::worker);
        let e = per.entry(owner.unwrap_or("")).or_default();
        e.0 += 1;
        e.1 += u64::from(pair_done(p));
    }
    per
}

/// Pairs left: none once complete; for an SPRT, the pairs its LLR would
/// take to reach the bound it drifts towards at its pace so far (capped by
/// the pairs the run has left); otherwise the unfinished pairs.
pub fn estimate_left(info: &TournamentInfo, results: &Results, finished: u64) -> Option<u64> {
    if results.complete {
        return Some(0);
    }
    let left = info.total_pairs.saturating_sub(finished);
    let Some(sprt) = results.head_to_head.as_ref().and_then(|h| h.sprt.as_ref()) else {
        return Some(left);
    };
    let counted = results.games / 2;
    if counted == 0 || !sprt.llr.is_finite() || sprt.llr == 0.0 {
        return None;
    }
    let pace = sprt.llr / counted as f64;
    let bound = if pace > 0.0 {
        sprt.upper_bound
    } else {
        sprt.lower_bound
    };
    let pairs = ((bound - sprt.llr) / pace).ceil().max(0.0) as u64;
    Some(pairs.min(left))
}

impl Status {
    /// The status as text.
    pub fn text(&self, dir: &Path) -> String {
        let r = &self.results;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} in {}: {} of {} pairs finished, {} claimed",
            self.info.name,
            crate::error::path_text(dir),
            self.finished,
            self.info.total_pairs,
            self.claimed
        );
        write_counted(&mut s, r);
        if let Some(tune) = &r.tune {
            let _ = writeln!(s, "Tune: {}", tune.line());
        }
        if let Some(rounds) = r.rounds_text() {
            let _ = writeln!(s, "{rounds}");
        }
        let _ = writeln!(
            s,
            "Status: {}{}",
            r.status.words(),
            r.verdict
                .map(|v| format!(", verdict {v}"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            s,
            "{:<16} {:>8} {:>9} {:>10} {:>7} {:>11}  heartbeat",
            "worker", "claimed", "finished", "unfinished", "games", "last write"
        );
        write_worker_rows(&mut s, &self.workers);
        match self.pairs_left {
            Some(n) => {
                let _ = writeln!(s, "Pairs left (estimate): {n}");
            }
            None => {
                let _ = writeln!(s, "Pairs left (estimate): —");
            }
        }
        s
    }
}

/// Writes the "Counted:" line: the games counted and, for a head-to-head,
/// the Elo with its error and any SPRT's LLR, bounds and progress.
fn write_counted(s: &mut String, r: &Results) {
    let Some(h) = &r.head_to_head else {
        let _ = writeln!(s, "Counted: {} games", r.games);
        return;
    };
    let _ = write!(
        s,
        "Counted: {} games, Elo {:.2} +/- {:.2}",
        r.games, h.elo, h.elo_error
    );
    if let Some(t) = &h.sprt {
        let _ = write!(
            s,
            ", LLR {:.2} ({:.2}, {:.2}) [{:+.1}, {:+.1}]: {}",
            t.llr,
            t.lower_bound,
            t.upper_bound,
            t.elo0,
            t.elo1,
            if t.llr >= 0.0 {
                format!("{:.0}% of the way to H1", 100.0 * t.llr / t.upper_bound)
            } else {
                format!("{:.0}% of the way to H0", 100.0 * t.llr / t.lower_bound)
            }
        );
    }
    s.push('\n');
}

/// Writes one line per worker under the table header `text` writes.
fn write_worker_rows(s: &mut String, workers: &[WorkerRow]) {
    for w in workers {
        let write = w
            .last_write
            .map_or("—".to_string(), |d| format!("{}s ago", d.as_secs()));
        let _ = writeln!(
            s,
            "{:<16} {:>8} {:>9} {:>10} {:>7} {:>11}  {}",
            w.id,
            w.claimed,
            w.finished,
            w.claimed - w.finished,
            w.games,
            write,
            w.heartbeat
        );
    }
}
