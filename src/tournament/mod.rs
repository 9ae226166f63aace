//! The tournament runner: a checked config ([`config`]), a pure schedule
//! ([`schedule`]), worker threads that play games ([`worker`]) fed over
//! crossbeam channels, and the main thread that owns the journal
//! ([`journal`]), the statistics, the progress display ([`progress`]) and the
//! SPRT decision. No sleeps, no polling, no shared mutable state but the
//! channels.
//!
//! The main thread keeps exactly `concurrency` games in flight: it sends a
//! new game each time a result comes back, so stopping (an SPRT verdict)
//! means sending no more and finishing the games already started.

pub mod config;
pub mod play;
pub mod progress;
pub mod schedule;
pub mod worker;

pub use crate::records::{Format, GameRecord, Shard};
pub use config::Tournament;
pub use schedule::{Pairing, Schedule};

use crate::error::{Error, Result};
use crate::records::journal::{self, Header, Journal};
use crate::records::{BookInfo, TournamentInfo};
use crate::report::{analyse, write_outputs, PairCounter, Results};
use crate::stats::Verdict;
use crate::util::write_atomic;
use crossbeam_channel::{bounded, unbounded};
use progress::Progress;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to run a tournament (the command line's overrides).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads, instead of the config's.
    pub concurrency: Option<usize>,
    /// Output folder, instead of the config's.
    pub out: Option<PathBuf>,
    /// The slice of pairs to play.
    pub shard: Shard,
    /// Continue the journal in the output folder.
    pub resume: bool,
    /// No progress output.
    pub quiet: bool,
}

/// How a run ended.
#[derive(Debug)]
pub struct RunOutcome {
    /// The results, as written to results.json.
    pub results: Results,
    /// Where they were written.
    pub out: PathBuf,
    /// Process exit code: 3 when the SPRT accepted H0 and `fail_on_h0` is set.
    pub exit_code: u8,
}

/// The record of a tournament in its output folder.
pub fn info(t: &Tournament, shard: Shard) -> TournamentInfo {
    TournamentInfo {
        config_hash: t.hash.clone(),
        name: t.name.clone(),
        engines: t.engine_names(),
        format: t.format,
        total_pairs: schedule::total_pairs(&t.format, t.engines.len()),
        book: BookInfo {
            file: t.book_settings.file.display().to_string(),
            openings: t.book.len(),
            order: t.book_settings.order,
            start: t.book_settings.start,
        },
        seed: t.seed,
        fail_on_h0: t.fail_on_h0,
        shard: shard.to_string(),
    }
}

/// The exit code results call for.
pub fn exit_code(info: &TournamentInfo, results: &Results) -> u8 {
    if info.fail_on_h0 && results.verdict() == Some(Verdict::H0) {
        3
    } else {
        0
    }
}

/// Runs (or resumes) a tournament and writes its outputs.
///
/// # Errors
/// An output folder that holds another run's journal, I/O errors, or a
/// failure inside a worker.
pub fn run(t: &Tournament, opts: &RunOptions) -> Result<RunOutcome> {
    let out = opts.out.clone().unwrap_or_else(|| t.out.clone());
    let concurrency = opts.concurrency.unwrap_or(t.concurrency);
    if concurrency == 0 || concurrency > 256 {
        return Err(Error::Argument {
            argument: "--concurrency".into(),
            message: format!("{concurrency} threads: must be 1 to 256"),
        });
    }
    std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    let info = info(t, opts.shard);
    let journal_path = out.join("journal.jsonl");
    let (mut journal, mut games) = open_journal(&journal_path, &info, opts.resume)?;
    write_atomic(
        &out.join("tournament.json"),
        &(serde_json::to_string_pretty(&info).expect("info serializes") + "\n"),
    )?;

    let done: HashSet<u64> = games.iter().map(|g| g.game_id).collect();
    let mut schedule = Schedule::new(&t.format, t.engines.len(), t.order.clone(), opts.shard);
    let total = schedule.total();
    let mut pending = Vec::new();
    while let Some(p) = schedule.next() {
        if !done.contains(&p.game_id) {
            pending.push(p);
        }
    }
    let mut results = analyse(&info, &games);
    let mut progress = Progress::new(total, games.len() as u64, opts.quiet);
    if let Some(msg) = crate::book::wrap_notice(t.book.len(), info.total_pairs) {
        progress.note(&format!("note: {msg}"));
    }
    if !games.is_empty() {
        progress.note(&format!(
            "resuming: {} of {} games already played",
            games.len(),
            total
        ));
    }

    // Early stopping: an SPRT of the whole tournament (shards play their
    // whole slice; `arena merge` decides).
    let mut counter = PairCounter::new(&info).filter(|_| opts.shard == Shard::ALL);
    let mut stop = false;
    if let Some(c) = counter.as_mut() {
        for g in &games {
            stop |= c.add(g);
        }
    }

    let mut failure: Option<Error> = None;
    if !stop && !pending.is_empty() {
        std::thread::scope(|scope| {
            let (job_tx, job_rx) = bounded::<Pairing>(concurrency);
            let (res_tx, res_rx) = unbounded::<std::result::Result<GameRecord, String>>();
            for _ in 0..concurrency.min(pending.len()) {
                let (job_rx, res_tx) = (job_rx.clone(), res_tx.clone());
                scope.spawn(move || {
                    let mut players = worker::Players::new(t);
                    for job in job_rx.iter() {
                        let rec = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            worker::play_game(&mut players, &job)
                        }))
                        .map_err(|_| format!("the worker playing game {} failed", job.game_id));
                        if res_tx.send(rec).is_err() {
                            break;
                        }
                    }
                });
            }
            drop((job_rx, res_tx));
            let mut next = pending.into_iter();
            let mut in_flight = 0usize;
            for p in next.by_ref().take(concurrency) {
                job_tx.send(p).expect("workers are running");
                in_flight += 1;
            }
            let mut last_analysis = Instant::now();
            let mut last_write = Instant::now();
            let mut analysed_pairs = results.games / 2;
            while in_flight > 0 {
                let Ok(answer) = res_rx.recv() else { break };
                in_flight -= 1;
                match answer {
                    Ok(rec) => {
                        if failure.is_none() {
                            if let Err(e) = journal.append(&rec) {
                                failure = Some(e);
                                stop = true;
                            }
                        }
                        if let Some(c) = counter.as_mut() {
                            stop |= c.add(&rec);
                        }
                        games.push(rec);
                    }
                    Err(msg) => {
                        failure.get_or_insert(Error::Argument {
                            argument: "tournament".into(),
                            message: msg,
                        });
                        stop = true;
                    }
                }
                // Statistics when the display needs them (plain lines every
                // 10 pairs, the bar twice a second); files every 2 seconds.
                let pairs_now = games.len() as u64 / 2;
                let for_display = (progress.is_plain() && pairs_now >= analysed_pairs + 10)
                    || (progress.is_bar() && last_analysis.elapsed() > Duration::from_millis(500));
                let for_files = last_write.elapsed() > Duration::from_secs(2);
                if for_display || for_files {
                    results = analyse(&info, &games);
                    analysed_pairs = pairs_now;
                    last_analysis = Instant::now();
                }
                if for_files && failure.is_none() {
                    last_write = Instant::now();
                    if let Err(e) = write_outputs(&out, &results, &games) {
                        failure = Some(e);
                        stop = true;
                    }
                }
                progress.update(games.len() as u64, &results);
                if !stop {
                    if let Some(p) = next.next() {
                        if job_tx.send(p).is_ok() {
                            in_flight += 1;
                        }
                    }
                }
            }
            drop(job_tx);
        });
    }
    results = analyse(&info, &games);
    progress.finish();
    if let Some(e) = failure {
        return Err(e);
    }
    write_outputs(&out, &results, &games)?;
    if !opts.quiet {
        println!("{}", progress::report_text(&results));
        if let Some(v) = results.verdict {
            println!("SPRT verdict: {v}");
        }
        println!("Results written to {}", out.display());
    }
    let code = exit_code(&info, &results);
    Ok(RunOutcome {
        results,
        out,
        exit_code: code,
    })
}

/// Opens the journal of a run: a new one, or (with `resume`) the existing
/// one after checking it belongs to the same config and shard.
fn open_journal(
    path: &Path,
    info: &TournamentInfo,
    resume: bool,
) -> Result<(Journal, Vec<GameRecord>)> {
    let header = Header {
        arena_journal: 1,
        config_hash: info.config_hash.clone(),
        name: info.name.clone(),
        shard: info.shard.clone(),
    };
    if !path.exists() {
        return Ok((Journal::create(path, &header)?, Vec::new()));
    }
    let folder = path
        .parent()
        .unwrap_or(Path::new("."))
        .display()
        .to_string();
    if !resume {
        return Err(Error::Argument {
            argument: "--out".into(),
            message: format!(
                "{folder} already holds a tournament journal; continue it with --resume, or choose another output folder"
            ),
        });
    }
    let c = journal::read(path)?;
    if c.header.config_hash != info.config_hash {
        return Err(Error::Argument {
            argument: "--resume".into(),
            message: format!(
                "the journal in {folder} was written by a different config (hash {}, this config {}): games would not match; use another output folder",
                c.header.config_hash, info.config_hash
            ),
        });
    }
    if c.header.shard != info.shard {
        return Err(Error::Argument {
            argument: "--shard".into(),
            message: format!(
                "the journal in {folder} is of shard {}, not {}",
                c.header.shard, info.shard
            ),
        });
    }
    Ok((Journal::append_to(path, c.valid_len)?, c.games))
}

/// Recomputes results.json, summary.md and games.ggf of a results folder
/// from its journal (`arena report`).
///
/// # Errors
/// A missing or bad journal or tournament.json.
pub fn report(dir: &Path) -> Result<(TournamentInfo, Results)> {
    let info = read_info(dir)?;
    let c = journal::read(&dir.join("journal.jsonl"))?;
    let results = analyse(&info, &c.games);
    write_outputs(dir, &results, &c.games)?;
    Ok((info, results))
}

/// Reads `tournament.json` from a results folder.
///
/// # Errors
/// I/O or a malformed file.
pub fn read_info(dir: &Path) -> Result<TournamentInfo> {
    let path = dir.join("tournament.json");
    let text = crate::error::read_text(&path)?;
    let info: TournamentInfo = serde_json::from_str(&text)
        .map_err(|e| Error::config_at(&path, e.line(), e.column(), e.to_string()))?;
    for (i, name) in info.engines.iter().enumerate() {
        if info.engines[..i].contains(name) {
            return Err(Error::config_at(
                &path,
                0,
                0,
                format!("engines: {name:?} is listed twice"),
            ));
        }
    }
    if info.engines.len() < 2 || info.total_pairs > schedule::MAX_PAIRS {
        return Err(Error::config_at(
            &path,
            0,
            0,
            format!(
                "not a tournament of arena: {} engines, {} pairs (2 or more engines, at most {} pairs)",
                info.engines.len(),
                info.total_pairs,
                schedule::MAX_PAIRS
            ),
        ));
    }
    Ok(info)
}

/// Combines the journals of shard folders into `out` (`arena merge`): every
/// folder must be of the same config; the merged journal holds each game
/// once, and every output is recomputed.
///
/// # Errors
/// Folders of different configs, an existing journal in `out`, I/O errors.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<(TournamentInfo, Results)> {
    let mut info: Option<TournamentInfo> = None;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut seen = HashSet::new();
    for dir in dirs {
        let i = read_info(dir)?;
        if let Some(first) = &info {
            if first.config_hash != i.config_hash {
                return Err(Error::Argument {
                    argument: dir.display().to_string(),
                    message: format!(
                        "is a run of config {} but {} is of config {}: only shards of one config merge",
                        i.config_hash,
                        dirs[0].display(),
                        first.config_hash
                    ),
                });
            }
        } else {
            info = Some(i);
        }
        for g in journal::read(&dir.join("journal.jsonl"))?.games {
            if seen.insert(g.game_id) {
                games.push(g);
            }
        }
    }
    let mut info = info.ok_or_else(|| Error::Argument {
        argument: "DIR".into(),
        message: "name at least one results folder".into(),
    })?;
    info.shard = "merged".into();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let journal_path = out.join("journal.jsonl");
    games.sort_by_key(|g| g.game_id);
    let header = Header {
        arena_journal: 1,
        config_hash: info.config_hash.clone(),
        name: info.name.clone(),
        shard: info.shard.clone(),
    };
    let mut j = Journal::create(&journal_path, &header).map_err(|e| match e {
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists => {
            Error::Argument {
                argument: "--out".into(),
                message: format!(
                    "{} already holds a journal; merge into an empty folder",
                    out.display()
                ),
            }
        }
        other => other,
    })?;
    for g in &games {
        j.append(g)?;
    }
    write_atomic(
        &out.join("tournament.json"),
        &(serde_json::to_string_pretty(&info).expect("info serializes") + "\n"),
    )?;
    let results = analyse(&info, &games);
    write_outputs(out, &results, &games)?;
    Ok((info, results))
}
