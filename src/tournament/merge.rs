//! `arena merge`: shard folders combined into one run. Every shard of one
//! config must be there exactly once and finished, each journal must agree
//! with its `tournament.json`, and only then are the games combined and
//! every output recomputed, so a merge equals the unsharded run. With
//! `--allow-partial` the shards that are there are merged and the results
//! say what is missing; a partial SPRT never decides. Shards of another
//! arena build or engine binary are refused too, unless
//! `--allow-mixed-builds`, which the results then note.

use super::folder::{header, info_json, lock_error, read_info};
use crate::error::{Error, Result, Wording};
use crate::records::build::mismatch_of;
use crate::records::journal::{self, Journal};
use crate::records::{GameRecord, Shard, TournamentInfo};
use crate::report::{analyse, write_outputs, Results};
use crate::util::{write_durable, FolderLock};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One shard folder, read and checked.
struct ShardRun {
    dir: PathBuf,
    info: TournamentInfo,
    shard: Shard,
    games: Vec<GameRecord>,
}

/// An error about a folder: its name, then what is wrong with it.
fn about(dir: &Path, message: String) -> Error {
    Error::Run(format!("{} {message}", crate::error::path_text(dir)).into())
}

/// Reads a shard folder: its info, its journal (every line checked), and
/// the journal against the info.
fn read_shard(dir: &Path) -> Result<ShardRun> {
    let info = read_info(dir)?;
    if info.workers {
        return Err(about(
            dir,
            "holds a run played by workers, not a shard: arena report gives its results".into(),
        ));
    }
    let shard = Shard::parse(&info.shard).map_err(|_| {
        about(
            dir,
            format!(
                "is a {} run, not a shard (K/N): merge shard folders",
                info.shard
            ),
        )
    })?;
    let c = journal::read(&dir.join("journal.jsonl"))?;
    if c.header.shard != info.shard {
        return Err(about(
            dir,
            format!(
                "its journal is of shard {} but its tournament.json of shard {}",
                c.header.shard, info.shard
            ),
        ));
    }
    super::folder::check_journal(&c, &info)?;
    Ok(ShardRun {
        dir: dir.to_path_buf(),
        info,
        shard,
        games: c.games,
    })
}

/// Games a shard schedules.
fn scheduled(info: &TournamentInfo, shard: Shard) -> u64 {
    2 * (0..info.total_pairs).filter(|&p| shard.owns(p)).count() as u64
}

/// The shards, by index, after checking they are of one config and one
/// split and none is given twice; then what is missing or unfinished.
fn check_set(runs: &[ShardRun]) -> Result<(BTreeMap<u64, &ShardRun>, Vec<String>)> {
    let first = &runs[0];
    let mut by_index: BTreeMap<u64, &ShardRun> = BTreeMap::new();
    for r in runs {
        if r.info.config_hash != first.info.config_hash {
            let at = crate::error::path_text(&first.dir);
            let changes = crate::records::changes::config_changes(&first.info, &r.info)
                .map_or(String::new(), |c| format!("; from {at} to this one: {c}"));
            return Err(about(
                &r.dir,
                format!(
                    "was run with another config (hash {}; {at} has {}{changes}): only shards of one config merge",
                    r.info.config_hash, first.info.config_hash
                ),
            ));
        }
        if r.shard.count != first.shard.count {
            return Err(about(
                &r.dir,
                format!(
                    "is shard {} but {} is shard {}: shards of one split merge",
                    r.shard,
                    crate::error::path_text(&first.dir),
                    first.shard
                ),
            ));
        }
        if let Some(other) = by_index.insert(r.shard.index, r) {
            return Err(Error::Run(
                format!(
                    "shard {} given twice ({} and {})",
                    r.shard,
                    crate::error::path_text(&other.dir),
                    crate::error::path_text(&r.dir)
                )
                .into(),
            ));
        }
    }
    let n = first.shard.count;
    let mut lacking: Vec<String> = (1..=n)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| format!("shard {k}/{n} is missing"))
        .collect();
    for r in by_index.values() {
        let want = scheduled(&r.info, r.shard);
        if (r.games.len() as u64) < want {
            lacking.push(format!(
                "shard {} in {} is unfinished ({} of {want} games)",
                r.shard,
                crate::error::path_text(&r.dir),
                r.games.len()
            ));
        }
    }
    Ok((by_index, lacking))
}

/// What `arena merge` lets through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// Merge the shards that are there, finished or not; the merge is
    /// marked partial with what it lacks.
    pub allow_partial: bool,
    /// Merge shards of different arena builds or engine binaries; the
    /// merge records which (`tournament.json`'s `mixed_builds`, a note in
    /// the results).
    pub allow_mixed_builds: bool,
}

/// The builds of the shards against the first one's: `None` when all are
/// one build (CPU features aside), else each differing folder with what
/// differs, the first given first. A shard resumed by another build
/// (`resumed_builds`) is of mixed builds itself, whatever its last build.
fn mixed_builds(runs: &[ShardRun]) -> Option<Vec<String>> {
    let first = &runs[0];
    let resumed = runs.iter().filter_map(|r| {
        let what = r.info.resumed_builds.as_ref()?;
        Some(format!(
            "{} was resumed by another build: {what}",
            crate::error::path_text(&r.dir)
        ))
    });
    let differ: Vec<String> = resumed
        .chain(runs[1..].iter().filter_map(|r| {
            let what = mismatch_of(first.info.build.as_ref(), r.info.build.as_ref())?;
            Some(format!(
                "{} and {}: {what}",
                crate::error::path_text(&first.dir),
                crate::error::path_text(&r.dir)
            ))
        }))
        .collect();
    (!differ.is_empty()).then_some(differ)
}

/// Combines the journals of shard folders into `out` (`arena merge`).
/// Every shard must be present once, finished and of one build, unless
/// `opts` allows otherwise: then the merge records what it lacks or how
/// its builds differ.
///
/// # Errors
/// Folders of different configs or splits, a shard given twice, a missing
/// or unfinished shard (without `allow_partial`), shards of different
/// builds (without `allow_mixed_builds`), a journal that disagrees with its
/// tournament.json, an output folder that holds a journal or is in use,
/// I/O errors.
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    opts: &MergeOptions,
) -> Result<(TournamentInfo, Results)> {
    if dirs.is_empty() {
        return Err(Error::Argument {
            argument: "DIR".into(),
            message: "name at least one results folder".into(),
        });
    }
    let runs = dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<Vec<_>>>()?;
    let (by_index, lacking) = check_set(&runs)?;
    let mixed = mixed_builds(&runs);
    if let (Some(differ), false) = (&mixed, opts.allow_mixed_builds) {
        return Err(Error::Run(
            Wording::text(format!(
                "shards of different builds: {}; run every shard with one arena build and the same engine programs, or pass ",
                differ[0]
            ))
            .setting("allow_mixed_builds"),
        ));
    }
    if !lacking.is_empty() && !opts.allow_partial {
        return Err(Error::Run(
            Wording::text(format!(
                "{}; merge every shard, finished (resume the unfinished ones), or pass ",
                lacking.join("; ")
            ))
            .setting("allow_partial"),
        ));
    }
    let mut info = runs[0].info.clone();
    info.shard = "merged".into();
    info.partial = (!lacking.is_empty()).then(|| lacking.join("; "));
    if let Some(differ) = mixed {
        // No one build played these games: the note says which did.
        info.build = None;
        info.mixed_builds = Some(differ.join("; "));
        info.resumed_builds = None;
    }
    let mut games: Vec<GameRecord> = by_index
        .values()
        .flat_map(|r| r.games.iter().cloned())
        .collect();
    games.sort_by_key(|g| g.game_id);
    let _lock = write_merged(out, &info, &games)?;
    let results = analyse(&info, &games);
    write_outputs(out, &info, &results, &games)?;
    Ok((info, results))
}

/// Writes the merged journal and tournament.json into `out`, which must be
/// free (no journal) and not in use.
fn write_merged(out: &Path, info: &TournamentInfo, games: &[GameRecord]) -> Result<FolderLock> {
    super::folder::make_folder(out)?;
    let lock = FolderLock::take(out).map_err(lock_error)?;
    super::folder::refuse_strangers(out)?;
    let journal_path = out.join("journal.jsonl");
    if journal_path.exists() {
        return Err(Error::Run(
            format!(
                "{} already holds a journal; merge into an empty folder",
                crate::error::path_text(out)
            )
            .into(),
        ));
    }
    write_durable(&out.join("tournament.json"), &info_json(info))?;
    let mut j = Journal::create(&journal_path, &header(info))?;
    for g in games {
        j.append(g)?;
    }
    j.sync()?;
    Ok(lock)
}
