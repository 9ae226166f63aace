//! A results folder: its journal opened for a new run or resumed (after
//! checking it is of the same config and shard), its `tournament.json`
//! read back, and the folder-level commands `report` (recompute every output
//! from the journal) and `merge` (combine shard folders).

use super::config::Tournament;
pub use super::record::read_info;
use super::schedule::{self, Schedule};
use crate::engine::external::transcript;
use crate::engine::EngineSpec;
use crate::error::{Error, Result, Wording};
use crate::records::changes::config_changes;
use crate::records::check::Slot;
use crate::records::journal::{self, Header, Journal};
use crate::records::{BuildInfo, GameRecord, Shard, TournamentInfo};
use crate::report::{analyse, write_outputs, Results};
use crate::util::{write_durable, FolderLock, LockError};
use std::path::{Path, PathBuf};

/// How to treat a folder that already holds a journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Continue it (`--resume`); `any_build` lets another build of arena
    /// or of its engine programs continue it (`--allow-mixed-builds`),
    /// which the record then notes.
    Resume {
        /// Another build may continue the run.
        any_build: bool,
    },
    /// Replace it (`--overwrite`).
    Overwrite,
    /// Neither: a finished run of the same config shows its results; an
    /// unfinished one is an error that says what to do.
    Show,
}

/// A results folder opened for a run: locked for as long as this lives,
/// with its journal open for appending and the games it already holds.
pub struct RunFolder {
    /// The lock (released when dropped).
    pub lock: FolderLock,
    /// The run's record as written to `tournament.json`.
    pub info: TournamentInfo,
    /// The journal.
    pub journal: Journal,
    /// Games already played (a resumed or finished run's).
    pub games: Vec<GameRecord>,
    /// True when the folder held this run's journal and no `--resume` was
    /// given: the run must already be finished (then its results are
    /// shown), or it is an error.
    pub must_be_finished: bool,
}

/// True when `dir` holds a run played by workers (its `tournament.json`
/// says so, or it has a `workers` or `claims` folder).
pub fn is_worker_folder(dir: &Path) -> bool {
    dir.join("workers").is_dir()
        || dir.join("claims").is_dir()
        || read_info(dir).is_ok_and(|i| i.workers)
}

/// Opens the results folder `out` for the run `info`: takes its lock (a
/// second run on the same folder is refused at once), then creates the
/// journal, or continues the existing one of the same config and shard as
/// `existing` says, calling `ready` once every check has passed and before
/// `tournament.json` and the journal are written (the journal's header
/// is rewritten before it only when `--resume` extends a run to a longer
/// one of its family). `tournament.json` is written before the journal.
///
/// # Errors
/// A folder in use, a journal of another config or shard (naming both),
/// a corrupt journal (file, line, field), I/O.
pub fn open_run(
    out: &Path,
    info: &TournamentInfo,
    existing: Existing,
    ready: &mut dyn FnMut() -> Result<()>,
) -> Result<RunFolder> {
    let made = first_missing(out);
    make_folder(out)?;
    if is_worker_folder(out) {
        return Err(Error::Run(
            Wording::text(format!(
                "{} holds a run played by workers: join it with ",
                crate::error::path_text(out)
            ))
            .setting("worker")
            .then(" ID, or see its results with arena report"),
        ));
    }
    let lock = FolderLock::take(out).map_err(lock_error)?;
    remove_stale_temporaries(out);
    refuse_strangers(out)?;
    let path = out.join("journal.jsonl");
    let folder = crate::error::path_text(out);
    let old = if path.exists() && existing != Existing::Overwrite {
        let mut c = journal::read(&path)?;
        if extends(out, &folder, &c.header, info, existing)? {
            Journal::rewrite_header(&path, &header(info), c.valid_len)?;
            c = journal::read(&path)?;
        }
        refuse_foreign(out, &folder, &c.header, info)?;
        Some(c)
    } else {
        None
    };
    let kept = kept_build(out, &folder, info, old.is_some(), existing)?;
    let info = &kept;
    // Every refusal is behind: what the caller opens (an events file) may
    // fail now and leave the folder as it was (a folder this call made is
    // taken away again, lock file and all).
    if let Err(e) = ready() {
        drop(lock);
        unmake_folder(out, made.as_deref());
        return Err(e);
    }
    write_durable(&out.join("tournament.json"), &info_json(info))?;
    let (journal, games, must_be_finished) = match (old, existing) {
        (Some(c), Existing::Resume { .. } | Existing::Show) => {
            check_journal(&c, info)?;
            let must = existing == Existing::Show;
            (Journal::append_to(&path, c.valid_len)?, c.games, must)
        }
        (_, Existing::Overwrite) => {
            // Only arena's own files: refuse_strangers has checked them.
            for name in ["journal.jsonl", "results.json", "summary.md", "games.ggf"] {
                let p = out.join(name);
                if p.exists() {
                    std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
                }
            }
            (Journal::create(&path, &header(info))?, Vec::new(), false)
        }
        (None, Existing::Resume { .. } | Existing::Show) => {
            (Journal::create(&path, &header(info))?, Vec::new(), false)
        }
    };
    Ok(RunFolder {
        lock,
        info: kept,
        journal,
        games,
        must_be_finished,
    })
}

/// The record to write when the folder's journal is continued: a resumed
/// run must be of the build that started it (a record without a build, of
/// an older arena, is not checked) unless another build is allowed, which
/// the record then notes (`resumed_builds`, kept by every later resume); a
/// finished run shown again keeps the build that played it. A new or
/// replaced journal records `info`'s.
///
/// # Errors
/// A resume by another build that is not allowed, naming both.
fn kept_build(
    out: &Path,
    folder: &str,
    info: &TournamentInfo,
    continued: bool,
    existing: Existing,
) -> Result<TournamentInfo> {
    let old = match read_info(out) {
        Ok(old) if continued => old,
        _ => return Ok(info.clone()),
    };
    let kept = TournamentInfo {
        resumed_builds: old.resumed_builds.clone(),
        ..info.clone()
    };
    let differ = match (&old.build, &info.build) {
        (Some(old), Some(new)) => old.mismatch(new),
        _ => None,
    };
    match (existing, differ) {
        (Existing::Resume { any_build: false }, Some(differ)) => Err(Error::Run(
            Wording::text(format!(
                "{folder} holds a run of another build ({differ}): resume it with the build that started it, allow it with "
            ))
            .setting("allow_mixed_builds")
            .then(", or replace it with ")
            .setting("overwrite"),
        )),
        (Existing::Resume { any_build: true }, Some(differ)) => Ok(TournamentInfo {
            resumed_builds: Some(match kept.resumed_builds {
                Some(before) => format!("{before}; {differ}"),
                None => differ,
            }),
            ..info.clone()
        }),
        (Existing::Show, Some(_)) => Ok(TournamentInfo {
            build: old.build,
            ..kept
        }),
        _ => Ok(kept),
    }
}

/// Creates the results folder `out` (and its parents) when it is not
/// there; an `out` that is a file, or a symbolic link to nothing, is
/// refused in words (not the system's `File exists`).
///
/// # Errors
/// [`Error::Io`] naming `out`.
pub fn make_folder(out: &Path) -> Result<()> {
    let refuse = |why: String| {
        Error::io(
            out,
            std::io::Error::new(std::io::ErrorKind::NotADirectory, why),
        )
    };
    match (std::fs::symlink_metadata(out), std::fs::metadata(out)) {
        (Ok(link), Err(_)) if link.file_type().is_symlink() => {
            let target = std::fs::read_link(out).unwrap_or_default();
            return Err(refuse(format!(
                "is a symbolic link to {}, which does not exist; create that folder, or give another output folder",
                crate::error::path_text(&target)
            )));
        }
        (_, Ok(m)) if !m.is_dir() => {
            return Err(refuse(
                "is a file, not a folder; give a folder for the results".into(),
            ))
        }
        _ => {}
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))
}

/// The outermost folder of `out` (itself or an ancestor) that does not
/// exist yet: what [`make_folder`] will create. `None` when `out` exists.
fn first_missing(out: &Path) -> Option<PathBuf> {
    let mut missing = None;
    let mut at = Some(out);
    while let Some(p) = at.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
        missing = Some(p.to_path_buf());
        at = p.parent();
    }
    missing
}

/// Takes away what [`make_folder`] made for `out` when the run was refused
/// before writing anything: the lock file, then each folder from `out` up
/// to `made` that is empty. Nothing when `out` existed before.
fn unmake_folder(out: &Path, made: Option<&Path>) {
    let Some(top) = made else {
        return;
    };
    let _ = std::fs::remove_file(out.join(".arena.lock"));
    let mut at = Some(out);
    while let Some(p) = at {
        if std::fs::remove_dir(p).is_err() || p == top {
            break;
        }
        at = p.parent();
    }
}

/// The files a run writes in its folder besides the journal (`logs/`
/// aside), which `--overwrite` may replace.
const OUTPUTS: [&str; 5] = [
    "tournament.json",
    "results.json",
    "summary.md",
    "report.html",
    "games.ggf",
];

/// A run never replaces a file it did not write: a `journal.jsonl` that
/// does not start with an arena journal's header, and, in a folder without
/// a journal, any of arena's output names (but a `tournament.json` arena
/// wrote before it was stopped), are refused, naming the file; so is any of
/// these names that is not a regular file (a link, a FIFO, a folder).
///
/// # Errors
/// [`Error::Run`] naming the file.
pub fn refuse_strangers(out: &Path) -> Result<()> {
    let journal = out.join("journal.jsonl");
    let refuse = |path: &Path, why: &str| {
        Error::Run(
            format!(
                "{} {why}; arena replaces only files it wrote: give another output folder, or move the file away",
                crate::error::path_text(path)
            )
            .into(),
        )
    };
    let kind = |path: &Path| match std::fs::symlink_metadata(path) {
        Ok(m) => Ok(Some(m.file_type().is_file())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    };
    let has_journal = match kind(&journal)? {
        None => false,
        Some(false) => return Err(refuse(&journal, "is not a regular file")),
        Some(true) if !starts_as_journal(&journal) => {
            return Err(refuse(&journal, "is not an arena journal"))
        }
        Some(true) => true,
    };
    for name in OUTPUTS {
        let path = out.join(name);
        match kind(&path)? {
            None => {}
            Some(false) => return Err(refuse(&path, "is not a regular file")),
            Some(true) if has_journal => {}
            Some(true) if name == "tournament.json" && read_info(out).is_ok() => {}
            Some(true) => {
                return Err(refuse(
                    &path,
                    "was not written by an arena run (the folder holds no journal.jsonl)",
                ))
            }
        }
    }
    Ok(())
}

/// True when the file at `path` is empty (a journal a kill cut before its
/// header) or starts with an arena journal's header line.
fn starts_as_journal(path: &Path) -> bool {
    use std::io::{BufRead, Read};
    let Ok(file) = crate::util::text::open_file(path) else {
        return false;
    };
    // A header is a short line: read no more than needed to find it.
    let mut reader = std::io::BufReader::new(file.take(1 << 16));
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return true,
            Ok(_) if line.trim().is_empty() => {}
            Ok(_) => return serde_json::from_str::<Header>(line.trim()).is_ok(),
            Err(_) => return false,
        }
    }
}

/// Whether `--resume` extends the folder's run to `info`, a longer run of
/// the same family (the same config but for its rounds or most pairs,
/// the same shard, one machine): its games so far are then the first
/// games of the longer run. A shorter run, or a longer one without
/// `--resume`, is refused saying what would continue it; any other
/// difference is left to [`refuse_foreign`].
///
/// # Errors
/// A shorter run; a longer one without `--resume`.
fn extends(
    out: &Path,
    folder: &str,
    h: &Header,
    info: &TournamentInfo,
    existing: Existing,
) -> Result<bool> {
    if h.config_hash == info.config_hash {
        return Ok(false);
    }
    let Ok(old) = read_info(out) else {
        return Ok(false);
    };
    let same_family = old.config_hash == h.config_hash
        && old.family.is_some()
        && old.family == info.family
        && old.shard == info.shard
        && !old.workers
        && !info.workers;
    if !same_family {
        return Ok(false);
    }
    let (was, now) = (old.total_pairs, info.total_pairs);
    if now < was {
        return Err(Error::Run(
            Wording::text(format!(
                "{folder} holds a longer run of this config ({was} pairs; this one has {now}): choose another output folder, or replace it with "
            ))
            .setting("overwrite"),
        ));
    }
    match existing {
        Existing::Resume { .. } => Ok(true),
        Existing::Show | Existing::Overwrite => Err(Error::Run(
            Wording::text(format!(
                "{folder} holds this run with {was} pairs (this one has {now}): extend it with "
            ))
            .setting("resume")
            .then(", or replace it with ")
            .setting("overwrite"),
        )),
    }
}

/// A journal of another config or shard is never continued or shown (only
/// `--overwrite` replaces it, without reading it). Another config is
/// refused naming the fields it changes, when the folder's record keeps
/// the config of its journal in normal form (else by the two hashes).
fn refuse_foreign(out: &Path, folder: &str, h: &Header, info: &TournamentInfo) -> Result<()> {
    if h.config_hash != info.config_hash {
        let changes = read_info(out)
            .ok()
            .filter(|old| old.config_hash == h.config_hash)
            .and_then(|old| config_changes(&old, info))
            .map_or(String::new(), |c| format!(", which changes {c}"));
        return Err(Error::Run(
            Wording::text(format!(
                "{folder} holds a run of another config (hash {}; this config is {}{changes}): choose another output folder, or replace it with ",
                h.config_hash, info.config_hash
            ))
            .setting("overwrite"),
        ));
    }
    if h.shard != info.shard {
        return Err(Error::Run(
            Wording::text(format!(
                "{folder} holds shard {} of this config, not {}: choose another output folder, or replace it with ",
                h.shard, info.shard
            ))
            .setting("overwrite"),
        ));
    }
    Ok(())
}

/// The journal header of a run.
pub fn header(info: &TournamentInfo) -> Header {
    Header {
        arena_journal: 1,
        config_hash: info.config_hash.clone(),
        name: info.name.clone(),
        shard: info.shard.clone(),
        game: info.game,
    }
}

/// The build that plays `t` here: this arena's, and the SHA-256 of each
/// external engine's program file as a run starts it.
///
/// # Errors
/// A program not found in `PATH` or that cannot be read, naming the engine
/// and the file.
pub fn build_info(t: &Tournament) -> Result<BuildInfo> {
    let mut programs = Vec::new();
    for e in &t.engines {
        if let EngineSpec::External(x) = e {
            let file = x.program_file().ok_or_else(|| {
                Error::Run(
                    format!(
                        "engine {:?}: no program {} in PATH to record its SHA-256",
                        x.name,
                        crate::error::path_text(&x.program)
                    )
                    .into(),
                )
            })?;
            programs.push((x.name.as_str(), file));
        }
    }
    BuildInfo::current(programs.iter().map(|(n, f)| (*n, f.as_path())))
}

/// `tournament.json`'s text.
pub fn info_json(info: &TournamentInfo) -> String {
    serde_json::to_string_pretty(info).expect("info serializes") + "\n"
}

/// The error of a folder that is locked by another process.
pub fn lock_error(e: LockError) -> Error {
    match e {
        LockError::Busy { .. } => Error::Run(e.to_string().into()),
        LockError::Io(e) => e,
    }
}

/// Temporary files a killed writer left behind (`.NAME.PID.N.tmp`); the
/// folder's lock is ours, so no live writer owns them.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.ends_with(".tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Recomputes results.json, summary.md and games.ggf of a results folder
/// from its journal (`arena report`).
///
/// # Errors
/// A missing or bad journal or tournament.json.
pub fn report(dir: &Path) -> Result<(TournamentInfo, Results)> {
    // The folder itself named when it is not one (not its lock file).
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(Error::io(
                dir,
                std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder"),
            ))
        }
        Err(e) => return Err(Error::io(dir, e)),
    }
    // A folder that holds no run is left as it was: no lock file.
    read_info(dir)?;
    let _lock = FolderLock::take(dir).map_err(lock_error)?;
    let info = read_info(dir)?;
    let c = journal::read(&dir.join("journal.jsonl"))?;
    check_journal(&c, &info)?;
    let mut results = analyse(&info, &c.games);
    results.notes.extend(c.repeat_note());
    note_capped_transcripts(dir, &info, &mut results);
    write_outputs(dir, &info, &results, &c.games)?;
    Ok((info, results))
}

/// Adds to `results`' notes (summary.md, results.json, report.html) each
/// engine whose transcript in `dir/logs` stopped at the size cap; a run of
/// in-process engines has no transcripts, and no such note.
pub fn note_capped_transcripts(dir: &Path, info: &TournamentInfo, results: &mut Results) {
    for (engine, file) in transcript::capped(&dir.join("logs"), &info.engines) {
        results.notes.push(format!(
            "the transcript of engine {engine:?} stopped at the {} MiB cap (logs/{file}): its later lines are not kept",
            transcript::CAP >> 20
        ));
    }
}

/// Checks a journal's games against the run `info` describes: its shard,
/// and for each game id the engines, round and opening the schedule of
/// `info`'s format, book order and seed gives it (so a line with colours
/// swapped or another opening is an error, not a different result).
///
/// # Errors
/// The first problem, naming the journal's line and field; a book in
/// `tournament.json` no schedule can be made of.
pub fn check_journal(c: &journal::Contents, info: &TournamentInfo) -> Result<()> {
    if info.custom_schedule {
        // A scheduler of the caller's: no fixed slots to check against.
        return c.check_run(info, &|_| None);
    }
    if let Some(mut rounds) = crate::records::rounds::Rounds::of(&info.format, &info.engines) {
        // A knockout's or Swiss's pairs depend on results: its replay of
        // the journal says who plays each pair.
        c.check_run(info, &|_| None)?;
        rounds.absorb(&c.games);
        if let Some((game, why)) = rounds.misplaced_game() {
            let line = c
                .games
                .iter()
                .position(|g| g.game_id == game)
                .map_or(0, |i| c.lines[i]);
            return Err(Error::config_at(&c.path, line, 0, why));
        }
        return Ok(());
    }
    let plan = plan(info, &c.path.with_file_name("tournament.json"))?;
    c.check_run(info, &|game_id| {
        let p = plan.pairing(game_id);
        Some(Slot {
            black: p.black,
            white: p.white,
            round: p.round,
            opening_id: p.opening_id,
        })
    })
}

/// The whole schedule of the run `info` describes (every shard's pairs),
/// as its `tournament.json` (at `path`, for errors) gives it.
///
/// # Errors
/// A book or format in `tournament.json` no schedule can be made of.
pub fn plan(info: &TournamentInfo, path: &Path) -> Result<Schedule> {
    let bad_info = |message: String| Error::config_at(path, 0, 0, message);
    let book = &info.book;
    let order = crate::book::OpeningOrder::new(book.openings, book.order, info.seed, book.start)
        .map_err(|e| bad_info(format!("book: {e}")))?;
    // A knockout's or Swiss's engines come from its replay of the results
    // (records::rounds); the schedule gives its pairs' numbers and openings.
    let meetings = if info.format.by_results() {
        vec![(0, 1)]
    } else {
        schedule::meetings(&info.format, info.engines.len())
    };
    if meetings.is_empty() && info.total_pairs > 0 {
        return Err(bad_info(format!(
            "format: {:?} has no meeting of its {} engines",
            info.format,
            info.engines.len()
        )));
    }
    Ok(Schedule::of_meetings(
        meetings,
        info.total_pairs,
        order,
        Shard::ALL,
    ))
}
