//! Workers of one run: any number of `arena run CONFIG --out DIR --worker
//! ID`, started at any time on any machine that sees DIR, play one run
//! together, with no server. DIR holds:
//!
//! - `tournament.json`, written by the first worker (the others check it is
//!   their config's);
//! - `claims/`: one file per pair a worker took ([`claims`]);
//! - `workers/ID/`: each worker's own journal, heartbeat ([`heartbeat`]),
//!   seats (which process holds the ID: [`seat`]) and engine transcripts.
//!   A worker writes nothing else.
//!
//! Every worker follows the others' journals ([`peers`]) and counts the
//! SPRT over the finished prefix of pairs, as one machine does, so it stops
//! scheduling when the whole run decides. `arena report DIR` ([`report`])
//! combines the journals into the run's outputs: the same verdict, LLR and
//! counted games as the run on one machine, for engines whose games are
//! reproducible.

pub mod claims;
pub mod heartbeat;
pub mod links;
pub mod owners;
pub mod peers;
pub mod report;
pub mod run;
pub mod seat;
pub mod status;

pub use peers::Peers;
pub use run::run_worker;

use crate::error::{Error, Result};
use crate::records::journal::{self, Journal};
use crate::records::{GameRecord, TournamentInfo};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

/// How one worker of a shared run plays.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Its ID: the same when the scheduler requeues the task.
    pub id: String,
    /// How old a worker's heartbeat must be before its claims are taken
    /// over.
    pub stale_after: Duration,
    /// Join a run that another arena build (or other engine programs)
    /// started; recorded in the worker's `worker.json` and noted by
    /// `arena report`.
    pub allow_mixed_builds: bool,
}

/// What `workers/ID/worker.json` records of a worker.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WorkerRecord {
    /// Its ID.
    pub id: String,
    /// The host it last ran on.
    pub host: String,
    /// The arena build and engine programs it plays with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<crate::records::BuildInfo>,
    /// True when it joined a run of another build on purpose
    /// (`--allow-mixed-builds`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_mixed_builds: bool,
    /// Its `stale_after` in milliseconds (absent in the records of older
    /// builds): how long its peers' heartbeats may be silent, which
    /// `arena watch` takes as the run's stale time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale_after_ms: Option<u64>,
    /// How it scaled its clocks and move times to its machine's speed
    /// (a config's `speed`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<crate::records::SpeedInfo>,
}

impl WorkerRecord {
    /// Reads `workers/ID/worker.json` (`None` when there is none).
    ///
    /// # Errors
    /// A file that is not a worker record.
    pub fn read(folder: &Path) -> Result<Option<WorkerRecord>> {
        let path = folder.join("worker.json");
        if !path.exists() {
            return Ok(None);
        }
        let text = crate::util::text::read_text(&path)?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| Error::config_at(&path, e.line(), e.column(), e.to_string()))
    }
}

/// Checks worker `w`'s build against the one that started the run in
/// `out`, and records it in `workers/ID/worker.json`.
///
/// # Errors
/// Another build without `allow_mixed_builds`, naming both; I/O.
fn check_build(out: &Path, info: &TournamentInfo, w: &WorkerOptions) -> Result<()> {
    let theirs = crate::tournament::read_info(out)?;
    if let Some(differ) =
        crate::records::build::mismatch_of(info.build.as_ref(), theirs.build.as_ref())
    {
        if !w.allow_mixed_builds {
            return Err(Error::Run(
                crate::error::Wording::text(format!(
                    "{} was started by another build (this worker: {differ}): run every worker with one arena build and the same engine programs, or pass ",
                    crate::error::path_text(out)
                ))
                .setting("allow_mixed_builds"),
            ));
        }
    }
    let record = WorkerRecord {
        id: w.id.clone(),
        host: heartbeat::host_name(),
        build: info.build.clone(),
        allow_mixed_builds: w.allow_mixed_builds,
        stale_after_ms: Some(u64::try_from(w.stale_after.as_millis()).unwrap_or(u64::MAX)),
        speed: info.speed.clone(),
    };
    let json = serde_json::to_string_pretty(&record).expect("records serialize") + "\n";
    crate::util::write_durable(&out.join("workers").join(&w.id).join("worker.json"), &json)
}

/// The default `stale_after`: 5 minutes.
pub const STALE_AFTER: Duration = Duration::from_secs(300);

/// Checks a worker ID: 1 to 64 letters, digits, `-`, `_` or `.`, not
/// starting with `.` (so never `..` or a path).
///
/// # Errors
/// What is wrong, in words.
pub fn check_id(id: &str) -> std::result::Result<(), String> {
    if id.is_empty() || id.len() > 64 {
        return Err(format!("{id:?} must be 1 to 64 characters"));
    }
    if id.starts_with('.') {
        return Err(format!("{id:?} may not start with '.'"));
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "{id:?} has {c:?}: an ID is letters, digits, '-', '_' and '.' (it names a folder)"
        ));
    }
    Ok(())
}

/// A worker's own part of the run folder, opened.
pub struct WorkerFolder {
    /// Its heartbeat, beating while this lives.
    pub heartbeat: heartbeat::Heartbeat,
    /// Its journal, open for appending.
    pub journal: Journal,
    /// The games it already journalled (a restart's).
    pub games: Vec<GameRecord>,
    /// Pairs it claimed before and has not finished.
    pub mine: BTreeSet<u64>,
}

/// The error of a folder that is not a worker run's, or of another config.
fn refuse(out: &Path, why: &str) -> Error {
    Error::Run(format!("{} {why}", crate::error::path_text(out)).into())
}

/// Writes the run's `tournament.json` when this is the first worker, or
/// checks it is this config's: created whole under another name, then
/// linked into place, so two first workers cannot both write it.
fn share_info(out: &Path, info: &TournamentInfo) -> Result<()> {
    let path = out.join("tournament.json");
    if !path.exists() {
        if out.join("claims").exists() || out.join("workers").exists() {
            return Err(refuse(
                out,
                "has claims or workers but no tournament.json: it is not a run arena can join; give another output folder",
            ));
        }
        let tmp = out.join(format!(".tournament.json.{}.tmp", std::process::id()));
        // Each worker's speed is its own (its worker.json), not the run's.
        let shared = TournamentInfo {
            speed: None,
            ..info.clone()
        };
        crate::util::write_durable(&tmp, &crate::tournament::folder::info_json(&shared))?;
        let linked = std::fs::hard_link(&tmp, &path);
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    let theirs = crate::tournament::read_info(out)?;
    if !theirs.workers {
        return Err(refuse(
            out,
            "holds a run of one machine (or shard): workers need a folder of their own; give another output folder",
        ));
    }
    if theirs.config_hash != info.config_hash {
        let changes = crate::records::changes::config_changes(&theirs, info)
            .map_or(String::new(), |c| format!(", which changes {c}"));
        return Err(refuse(
            out,
            &format!(
                "holds workers of another config (hash {}; this config is {}{changes}): give another output folder",
                theirs.config_hash, info.config_hash
            ),
        ));
    }
    Ok(())
}

/// Opens worker `w`'s part of the run folder `out` for the run `info`:
/// checks the folder is this config's worker run, that no live worker has
/// this ID, that this is the build that started the run (or
/// `allow_mixed_builds`), starts the heartbeat, and opens (or, with
/// `resume`, continues) its journal.
///
/// # Errors
/// A folder of one machine's run or of another config, a live worker with
/// this ID (naming its host and pid), a journal with games and no
/// `resume`, a bad journal, I/O (a read-only folder).
pub fn open(
    out: &Path,
    info: &TournamentInfo,
    w: &WorkerOptions,
    resume: bool,
) -> Result<WorkerFolder> {
    let id = w.id.as_str();
    crate::tournament::folder::make_folder(out)?;
    if out.join("journal.jsonl").exists() {
        return Err(refuse(
            out,
            "holds a run of one machine (journal.jsonl): workers need a folder of their own; give another output folder",
        ));
    }
    share_info(out, info)?;
    let own = out.join("workers").join(id);
    for dir in [out.join("claims"), own.clone()] {
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    }
    seat::take(&own, id, out)?;
    check_build(out, info, w)?;
    let heartbeat = heartbeat::Heartbeat::start(&own.join("heartbeat"))?;
    let path = own.join("journal.jsonl");
    let (journal, games) = if path.exists() {
        let c = journal::read(&path)?;
        crate::tournament::folder::check_journal(&c, info)?;
        if !resume && !c.games.is_empty() {
            return Err(Error::Run(
                crate::error::Wording::text(format!(
                    "worker {id:?} already has {} games in {}: continue it with ",
                    c.games.len(),
                    crate::error::path_text(out)
                ))
                .setting("resume"),
            ));
        }
        (Journal::append_to(&path, c.valid_len)?, c.games)
    } else {
        (
            Journal::create(&path, &crate::tournament::folder::header(info))?,
            Vec::new(),
        )
    };
    // The pairs whose newest claim is this worker's, not finished.
    let played: BTreeSet<u64> = games.iter().map(|g| g.game_id).collect();
    let mine = claims::claim_owners(out)?
        .into_iter()
        .filter(|(p, owners)| {
            owners.last().is_some_and(|o| o.is(id))
                && !(played.contains(&(2 * p)) && played.contains(&(2 * p + 1)))
        })
        .map(|(p, _)| p)
        .collect();
    Ok(WorkerFolder {
        heartbeat,
        journal,
        games,
        mine,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worker_ids_name_a_folder_and_nothing_else() {
        for good in ["1", "node-7", "a_b.c", &"x".repeat(64)] {
            assert_eq!(check_id(good), Ok(()), "{good}");
        }
        for bad in ["", ".", "..", ".x", "a/b", "a b", "é", &"x".repeat(65)] {
            assert!(check_id(bad).is_err(), "{bad}");
        }
    }
}
