//! The history of runs across nights (`arena history`): each run's summary
//! (name, config hash, date, engines, games, W/D/L, pentanomial, Elo with
//! its interval, LLR, verdict, status, labels) stored in an SQLite file
//! ([`History`], schema versioned by [`migrations`]), listed, and plotted
//! over time per test name ([`page`]).
//!
//! What identifies a run: its config hash, its shard and a digest of its
//! journal's game lines (FNV-1a over each game as a journal line, in
//! journal order). Adding the same state again changes nothing. A resumed
//! run that has played on since it was stored (its journal begins with
//! exactly the stored game lines) is a later state of the same run: it
//! replaces the stored row, keeping the row's id and labels (labels given
//! now are added, replacing one of the same key). Anything else is a run of
//! its own, including an earlier, shorter copy of a run already stored in a
//! longer state: the database keeps only the digest of the whole stored
//! journal, which cannot tell that copy from a run of the same config that
//! stopped sooner.

mod db;
pub mod migrations;
pub mod page;
mod plot;
mod time;

pub use db::{Added, History};
pub use migrations::SCHEMA_VERSION;
pub use time::{date_days, day_label, file_date, utc_date};

use super::results::{Results, Status};
use crate::error::Argument;
use crate::records::{GameRecord, TournamentInfo};
use crate::util::Fnv1a;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What can go wrong with a history database or its report. Each names the
/// file; the cause follows in the chain.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// SQLite refused the file: not a database, corrupt, not writable.
    /// (SQLite's reason is in the message rather than the chain: its own
    /// chain repeats it with the error code.)
    #[error("{}: {cause}", path.display())]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// SQLite's reason.
        cause: rusqlite::Error,
    },
    /// An SQLite database of something else (tables, but not ours).
    #[error("{}: not an arena history database (it holds other tables); give another {setting} file", path.display())]
    Foreign {
        /// The database.
        path: PathBuf,
        /// The option that names the database: `db`, by its setting's
        /// name (the binary prints its flag).
        setting: Argument,
    },
    /// A database written by a newer arena, whose schema this one does not
    /// know.
    #[error("{}: written by a newer arena (schema version {found}; this arena knows versions up to {known}); use a newer arena", path.display())]
    Newer {
        /// The database.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// The newest this arena knows.
        known: i64,
    },
    /// A file that could not be read or written (a missing database, the
    /// report).
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A plot that could not be drawn.
    #[error("plot of {name:?}: {message}")]
    Plot {
        /// The test name of the plot.
        name: String,
        /// What the plotting library said.
        message: String,
    },
}

/// One engine of a stored run: its results in the run and its rating
/// (the run's maximum-likelihood ratings, average 0). A run stored by
/// schema version 1 has only the names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineRow {
    /// Name.
    pub name: String,
    /// Games counted.
    pub games: Option<u64>,
    /// Wins.
    pub wins: Option<u64>,
    /// Draws.
    pub draws: Option<u64>,
    /// Losses.
    pub losses: Option<u64>,
    /// Points.
    pub points: Option<f64>,
    /// Rating.
    pub elo: Option<f64>,
    /// Half-width of the rating's 95% interval.
    pub elo_error: Option<f64>,
}

/// A run's summary as the history stores it. The head-to-head fields
/// (`wins` to `nelo_error`) are the candidate's in an SPRT and the first
/// engine's in any other two-engine run, as in `results.json`; they are
/// `null` with more engines. A value that does not exist (an infinite Elo,
/// no SPRT) is `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSummary {
    /// The tournament's name: runs of one name are one test over time.
    pub name: String,
    /// Hash of the normalized config.
    pub config_hash: String,
    /// `K/N`, or `merged`.
    pub shard: String,
    /// When the journal was last written (its last game), UTC, RFC 3339.
    pub date: String,
    /// FNV-1a of the journal's game lines, 16 hex digits.
    pub games_digest: String,
    /// Game lines in the journal.
    pub game_lines: u64,
    /// The engines, in config order.
    pub engines: Vec<EngineRow>,
    /// Games counted.
    pub games: u64,
    /// Games in the journal.
    pub games_played: u64,
    /// Games the run schedules.
    pub games_scheduled: u64,
    /// Head-to-head wins.
    pub wins: Option<u64>,
    /// Head-to-head draws.
    pub draws: Option<u64>,
    /// Head-to-head losses.
    pub losses: Option<u64>,
    /// Pairs by points scored: LL, LD, WL+DD, WD, WW.
    pub ptnml: Option<[u64; 5]>,
    /// Logistic Elo.
    pub elo: Option<f64>,
    /// Half-width of its 95% interval.
    pub elo_error: Option<f64>,
    /// Normalized Elo.
    pub nelo: Option<f64>,
    /// Half-width of its 95% interval.
    pub nelo_error: Option<f64>,
    /// The SPRT's log-likelihood ratio.
    pub llr: Option<f64>,
    /// The SPRT's lower bound.
    pub llr_lower: Option<f64>,
    /// The SPRT's upper bound.
    pub llr_upper: Option<f64>,
    /// `H0`, `H1` or `continue` for an SPRT.
    pub verdict: Option<String>,
    /// `in_progress`, `complete`, `stopped` or `partial`.
    pub status: String,
    /// Labels (`commit`, `branch`, ...).
    pub labels: BTreeMap<String, String>,
}

/// A run in the database: its id, when it was added and its summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoredRun {
    /// The row's id.
    pub id: i64,
    /// When it was added (or last replaced by a later state), UTC.
    pub added: String,
    /// The summary.
    #[serde(flatten)]
    pub run: RunSummary,
}

/// A run to add: its summary and the digest of every prefix of its game
/// lines (the `k`th is the digest of the first `k + 1` lines), which tell
/// whether it continues a stored run.
#[derive(Clone, Debug)]
pub struct NewRun {
    /// The summary.
    pub run: RunSummary,
    prefixes: Vec<u64>,
}

impl NewRun {
    /// The summary of the run `info` describes, from its journal's games
    /// (in journal order), their `results` (from [`super::analyse`]), the
    /// journal's `date` and the `labels` to store with it.
    pub fn new(
        info: &TournamentInfo,
        games: &[GameRecord],
        results: &Results,
        date: String,
        labels: BTreeMap<String, String>,
    ) -> NewRun {
        let prefixes = prefix_digests(games);
        let head = results.head_to_head.as_ref();
        let sprt = head.and_then(|h| h.sprt.as_ref());
        let run = RunSummary {
            name: info.name.clone(),
            config_hash: info.config_hash.clone(),
            shard: info.shard.clone(),
            date,
            games_digest: hex(prefixes.last().copied().unwrap_or(Fnv1a::new().finish())),
            game_lines: games.len() as u64,
            engines: engine_rows(results),
            games: results.games,
            games_played: results.games_played,
            games_scheduled: results.games_scheduled,
            wins: head.and_then(|h| h.wins),
            draws: head.and_then(|h| h.draws),
            losses: head.and_then(|h| h.losses),
            ptnml: head.and_then(|h| h.ptnml).map(|p| p.0),
            elo: head.and_then(|h| finite(h.elo)),
            elo_error: head.and_then(|h| finite(h.elo_error)),
            nelo: head.and_then(|h| finite(h.nelo)),
            nelo_error: head.and_then(|h| finite(h.nelo_error)),
            llr: sprt.and_then(|s| finite(s.llr)),
            llr_lower: sprt.map(|s| s.lower_bound),
            llr_upper: sprt.map(|s| s.upper_bound),
            verdict: results.verdict.map(str::to_string),
            status: status_name(results.status).to_string(),
            labels,
        };
        NewRun { run, prefixes }
    }

    /// The digest of the first `lines` game lines (`None` past the end or
    /// for none).
    pub fn prefix_digest(&self, lines: u64) -> Option<String> {
        let k = usize::try_from(lines).ok()?.checked_sub(1)?;
        self.prefixes.get(k).map(|&d| hex(d))
    }
}

/// The digest after each game line: FNV-1a over the games as the journal
/// writes them (one JSON object and a newline each).
fn prefix_digests(games: &[GameRecord]) -> Vec<u64> {
    let mut h = Fnv1a::new();
    games
        .iter()
        .map(|g| {
            let line = serde_json::to_string(g).expect("records serialize");
            h = h.feed(line.as_bytes()).feed(b"\n");
            h.finish()
        })
        .collect()
}

/// The engines of `results`, in config order, with their ratings.
fn engine_rows(results: &Results) -> Vec<EngineRow> {
    let rating = |name: &str| {
        results
            .ratings
            .as_ref()
            .and_then(|r| r.engines.iter().find(|e| e.name == name))
    };
    results
        .engines
        .iter()
        .map(|e| EngineRow {
            name: e.name.clone(),
            games: Some(e.games),
            wins: Some(e.wins),
            draws: Some(e.draws),
            losses: Some(e.losses),
            points: Some(e.points),
            elo: rating(&e.name).and_then(|r| finite(r.elo)),
            elo_error: rating(&e.name).and_then(|r| finite(r.error)),
        })
        .collect()
}

/// `results.json`'s name of a status.
pub fn status_name(status: Status) -> &'static str {
    match status {
        Status::InProgress => "in_progress",
        Status::Complete => "complete",
        Status::Stopped => "stopped",
        Status::Partial => "partial",
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn hex(digest: u64) -> String {
    format!("{digest:016x}")
}
