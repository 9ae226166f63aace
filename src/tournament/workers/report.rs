//! `arena report DIR` of a run played by workers: every worker's journal
//! read and checked (its games must be the run's, of pairs it claimed),
//! combined (a game played by two workers counts once), and the run's
//! outputs written, by one writer holding the folder's lock.

use super::claims::{claim_owners, Owner};
use super::heartbeat;
use crate::error::{Error, Result};
use crate::records::journal;
use crate::records::{GameRecord, TournamentInfo};
use crate::report::{analyse, write_outputs, Results};
use crate::tournament::folder::{check_journal, lock_error, read_info};
use crate::util::FolderLock;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One worker's journal, read and checked.
pub struct WorkerGames {
    /// Its ID.
    pub id: String,
    /// Its games, in journal order.
    pub games: Vec<GameRecord>,
}

/// What a worker run's report found.
pub struct WorkerReport {
    /// The run.
    pub info: TournamentInfo,
    /// Its results, as written.
    pub results: Results,
    /// What keeps it from being decided or complete (`None` when it is).
    pub missing: Option<String>,
}

/// Reads every worker's journal in `dir` (by ID order), each checked
/// against the run and against the claims: a game of a pair its worker
/// never claimed is a lie, named by file and line. Also gives the notes on
/// what was read: folders in `workers/` whose names cannot be worker IDs
/// (a filesystem's `.snapshot` or `lost+found`), left alone, and journals
/// that repeat a game line exactly.
///
/// # Errors
/// A bad journal (file, line, field).
pub fn read_workers(dir: &Path, info: &TournamentInfo) -> Result<(Vec<WorkerGames>, Vec<String>)> {
    let owners = claim_owners(dir)?;
    let workers = dir.join("workers");
    let mut names: Vec<String> = match std::fs::read_dir(&workers) {
        Ok(entries) => entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io(&workers, e)),
    };
    names.sort();
    let (ids, strangers): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|n| super::check_id(n).is_ok());
    let mut notes = Vec::new();
    if !strangers.is_empty() {
        notes.push(format!(
            "{} holds folders whose names are no worker IDs, left alone: {}",
            crate::error::path_text(&workers),
            strangers.join(", ")
        ));
    }
    let mut all = Vec::new();
    for id in ids {
        let path = workers.join(&id).join("journal.jsonl");
        if !path.exists() {
            continue;
        }
        let c = journal::read(&path)?;
        check_journal(&c, info)?;
        for (g, &line) in c.games.iter().zip(&c.lines) {
            let claimed = owners
                .get(&g.pair_id)
                .is_some_and(|o| o.iter().any(|w| w.is(&id)));
            if !claimed {
                return Err(Error::config_at(
                    &path,
                    line,
                    1,
                    format!(
                        "game_id: game {} is of pair {}, which worker {id:?} never claimed (claims/{} {})",
                        g.game_id,
                        g.pair_id,
                        g.pair_id,
                        owners.get(&g.pair_id).map_or("does not exist".to_string(), |o| format!("names {}", owner_names(o)))
                    ),
                ));
            }
        }
        notes.extend(c.repeat_note());
        all.push(WorkerGames { id, games: c.games });
    }
    Ok((all, notes))
}

/// The run's games, each once (the first worker's by ID when two played
/// it), and the notes on games played twice. The games are moved, not
/// copied: a report of a long run holds each once.
pub fn combine(workers: Vec<WorkerGames>) -> (Vec<GameRecord>, Vec<String>) {
    let ids: Vec<String> = workers.iter().map(|w| w.id.clone()).collect();
    let mut by_id: BTreeMap<u64, (usize, GameRecord)> = BTreeMap::new();
    let mut twice: Vec<String> = Vec::new();
    for (w, worker) in workers.into_iter().enumerate() {
        for g in worker.games {
            match by_id.get(&g.game_id) {
                Some(&(first, _)) => twice.push(twice_entry(g.game_id, &ids[first], &ids[w])),
                None => {
                    by_id.insert(g.game_id, (w, g));
                }
            }
        }
    }
    let games = by_id.into_values().map(|(_, g)| g).collect();
    (games, twice_note(&twice).into_iter().collect())
}

/// One game of [`twice_note`]: game `game_id`, played by workers `first`
/// and `second`.
pub fn twice_entry(game_id: u64, first: &str, second: &str) -> String {
    format!("game {game_id} ({first} and {second})")
}

/// The note on games two workers played (`twice`: each a
/// [`twice_entry`]), when any.
pub fn twice_note(twice: &[String]) -> Option<String> {
    (!twice.is_empty()).then(|| {
        format!(
            "{} games were played by two workers (a claim taken over from a worker thought gone); each counts once, as its first worker by ID played it: {}",
            twice.len(),
            twice.join(", ")
        )
    })
}

/// The note on workers of another build than the one that started the
/// run (each joined with `--allow-mixed-builds`, or it would have been
/// refused).
///
/// # Errors
/// A worker whose record says another build and no permission: not
/// written by arena.
fn mixed_builds(
    dir: &Path,
    info: &TournamentInfo,
    workers: &[(&str, usize)],
) -> Result<Option<String>> {
    let mut differ = Vec::new();
    for &(id, _) in workers {
        let folder = dir.join("workers").join(id);
        let Some(record) = super::WorkerRecord::read(&folder)? else {
            continue;
        };
        let Some(d) =
            crate::records::build::mismatch_of(record.build.as_ref(), info.build.as_ref())
        else {
            continue;
        };
        if !record.allow_mixed_builds {
            let path = folder.join("worker.json");
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let (line, column) = key_place(&text, "build");
            return Err(Error::config_at(
                &path,
                line,
                column,
                format!("build: worker {id:?} played with another build than the run's ({d}), and its record does not allow mixed builds (allow_mixed_builds)"),
            ));
        }
        differ.push(format!("worker {id}: {d}"));
    }
    Ok((!differ.is_empty()).then(|| {
        format!(
            "workers of mixed builds played this run (mixed builds allowed): {}",
            differ.join("; ")
        )
    }))
}

/// The line and column (1-based) of `key`'s first `"key":` in the JSON
/// `text` (1, 1 when it is not there).
fn key_place(text: &str, key: &str) -> (usize, usize) {
    let quoted = format!("\"{key}\"");
    text.lines()
        .enumerate()
        .find_map(|(i, l)| Some((i + 1, l.find(&quoted)? + 1)))
        .unwrap_or((1, 1))
}

/// The owners of a claim, oldest first, in words.
fn owner_names(owners: &[Owner]) -> String {
    let words: Vec<String> = owners.iter().map(Owner::to_string).collect();
    words.join(", ")
}

/// The note on the claims that named no worker (each taken over by the
/// next generation, or still to be).
pub fn unreadable_note(owners: &BTreeMap<u64, Vec<Owner>>) -> Option<String> {
    let odd: Vec<&str> = owners
        .values()
        .flatten()
        .filter_map(|o| match o {
            Owner::Unreadable(why) => Some(why.as_str()),
            Owner::Worker(_) => None,
        })
        .collect();
    (!odd.is_empty()).then(|| {
        format!(
            "{} claims name no worker (a worker takes such a pair over as a gone worker's, by the next claim): {}",
            odd.len(),
            odd.join("; ")
        )
    })
}

/// Games per worker, for the notes.
fn per_worker(workers: &[(&str, usize)]) -> String {
    let parts: Vec<String> = workers
        .iter()
        .map(|(id, games)| format!("{id} {games}"))
        .collect();
    format!("games journalled per worker: {}", parts.join(", "))
}

/// What keeps an undecided, incomplete run from its end: the unfinished
/// claims (with their workers' last heartbeat) and the unclaimed pairs.
pub fn missing(dir: &Path, info: &TournamentInfo, games: &[GameRecord]) -> Result<String> {
    let done: BTreeSet<u64> = games.iter().map(|g| g.game_id).collect();
    let owners = claim_owners(dir)?;
    let mut unfinished = Vec::new();
    for (&pair, o) in &owners {
        if done.contains(&(2 * pair)) && done.contains(&(2 * pair + 1)) {
            continue;
        }
        let Some(Owner::Worker(owner)) = o.last() else {
            let why = o.last().map(Owner::to_string).unwrap_or_default();
            unfinished.push(format!("{pair} ({why}, to be taken over)"));
            continue;
        };
        let heart = dir.join("workers").join(owner).join("heartbeat");
        let when = match heartbeat::Beat::read(&heart) {
            Some((b, t)) if b.count.is_some() => {
                format!("last heartbeat {}s ago", heartbeat::age(t).as_secs())
            }
            Some(_) => "ended".to_string(),
            None => "no heartbeat".to_string(),
        };
        unfinished.push(format!("{pair} (worker {owner}, {when})"));
    }
    let unclaimed = (0..info.total_pairs)
        .filter(|p| !owners.contains_key(p))
        .count();
    let mut parts = Vec::new();
    if !unfinished.is_empty() {
        let shown: Vec<&String> = unfinished.iter().take(5).collect();
        let more = unfinished.len().saturating_sub(5);
        parts.push(format!(
            "{} claimed pairs unfinished: {}{}",
            unfinished.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    if unclaimed > 0 {
        parts.push(format!("{unclaimed} pairs not claimed yet"));
    }
    Ok(parts.join("; "))
}

/// The notes a worker run's results carry on how its workers played it:
/// claims that named no worker, games two workers played (`twice`, from
/// [`combine`]), games per worker (`workers`: each ID, by ID order, with
/// the games of its journal), mixed builds. `arena report` and `arena
/// watch` add the same.
///
/// # Errors
/// Unreadable claims; a worker of another build not allowed to be.
pub fn workers_notes(
    dir: &Path,
    info: &TournamentInfo,
    workers: &[(&str, usize)],
    twice: Vec<String>,
) -> Result<Vec<String>> {
    let mut notes = Vec::new();
    notes.extend(unreadable_note(&claim_owners(dir)?));
    notes.extend(twice);
    notes.push(per_worker(workers));
    notes.extend(mixed_builds(dir, info, workers)?);
    for &(id, _) in workers {
        let record = super::WorkerRecord::read(&dir.join("workers").join(id))?;
        if let Some(speed) = record.and_then(|r| r.speed) {
            notes.push(speed.note(&format!("worker {id}")));
        }
    }
    Ok(notes)
}

/// Writes the outputs of the worker run in `dir` from its workers'
/// journals. A run neither decided nor complete is written marked partial
/// (no verdict), with what it lacks.
///
/// # Errors
/// A folder in use, a bad `tournament.json`, a worker's journal that is not
/// of this run or lies about its claims, I/O.
pub fn report(dir: &Path) -> Result<WorkerReport> {
    // A folder that holds no run is left as it was: no lock file.
    read_info(dir)?;
    let _lock = FolderLock::take(dir).map_err(lock_error)?;
    let mut info = read_info(dir)?;
    let (workers, read_notes) = read_workers(dir, &info)?;
    let counts: Vec<(String, usize)> = workers
        .iter()
        .map(|w| (w.id.clone(), w.games.len()))
        .collect();
    let (games, twice) = combine(workers);
    let mut results = analyse(&info, &games);
    let mut lacking = None;
    if !results.complete {
        let what = missing(dir, &info, &games)?;
        info.partial = Some(what.clone());
        results = analyse(&info, &games);
        lacking = Some(what);
    }
    results.notes.extend(read_notes);
    let journalled: Vec<(&str, usize)> = counts.iter().map(|(id, n)| (id.as_str(), *n)).collect();
    results
        .notes
        .extend(workers_notes(dir, &info, &journalled, twice)?);
    crate::tournament::folder::note_capped_transcripts(dir, &info, &mut results);
    write_outputs(dir, &info, &results, &games)?;
    Ok(WorkerReport {
        info,
        results,
        missing: lacking,
    })
}
