//! The tournament runner: a checked config ([`config`]), a [`Scheduler`]
//! per format ([`schedule`]), worker threads that play games ([`worker`],
//! [`play`]) fed over crossbeam channels, and the main thread's
//! [`Collector`](collector::Collector), which owns the journal, the
//! statistics, the progress display ([`progress`]) and the SPRT decision.
//! No sleeps, no polling, no shared mutable state but the channels.
//!
//! The main thread keeps `concurrency` games in flight: it asks the
//! scheduler for a new game each time a result comes back, so stopping (an
//! SPRT verdict) means asking for no more and finishing the games already
//! started. The results folder ([`folder`]) is where runs resume, and what
//! `report` and `merge` read.

pub mod collector;
pub mod config;
pub mod folder;
pub mod matchup;
pub mod merge;
pub mod options;
pub mod play;
pub mod pool;
pub mod progress;
pub mod schedule;
pub mod worker;

pub use crate::records::{Format, GameRecord, Shard};
pub use config::Tournament;
pub use folder::{read_info, report};
pub use merge::merge;
pub use schedule::{Finished, Next, Pairing, Schedule, Scheduler};

use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::records::{BookInfo, TournamentInfo};
use crate::report::colour::Paint;
use crate::report::{Results, Status};
use crate::stats::Verdict;
use collector::Collector;
use crossbeam_channel::Receiver;
use folder::{open_run, Existing};
use pool::{Ended, Pool};
use progress::Progress;
use std::path::PathBuf;
use std::sync::Arc;
use worker::PlayerFactory;

/// How to run a tournament (the command line's overrides).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads, instead of the config's.
    pub concurrency: Option<usize>,
    /// Output folder, instead of the config's.
    pub out: Option<PathBuf>,
    /// The slice of pairs to play.
    pub shard: Shard,
    /// Continue the journal in the output folder.
    pub resume: bool,
    /// Replace a journal in the output folder.
    pub overwrite: bool,
    /// No progress output.
    pub quiet: bool,
    /// Stop requests (Ctrl-C, SIGTERM): the first stops scheduling and lets
    /// the games in flight finish; the second abandons them. Either way the
    /// outputs are written, marked stopped, and `--resume` continues.
    pub stop: Option<Receiver<()>>,
    /// How players are built (the engine files' players by default; tests
    /// plug in their own).
    pub players: PlayerFactory,
}

/// How a run ended.
#[derive(Debug)]
pub struct RunOutcome {
    /// The results, as written to results.json.
    pub results: Results,
    /// Where they were written.
    pub out: PathBuf,
    /// Process exit code: 3 when the SPRT accepted H0 and `fail_on_h0` is
    /// set, 130 when stopped before the end.
    pub exit_code: u8,
}

/// Exit code of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT).
pub const EXIT_STOPPED: u8 = 130;

/// The record of a tournament in its output folder.
pub fn info(t: &Tournament, shard: Shard) -> TournamentInfo {
    TournamentInfo {
        config_hash: t.hash.clone(),
        name: t.name.clone(),
        engines: t.engine_names(),
        format: t.format,
        total_pairs: schedule::total_pairs(&t.format, t.engines.len()),
        book: match &t.book_settings {
            Some(b) => BookInfo {
                file: b.file.display().to_string(),
                openings: t.book.len(),
                order: b.order,
                start: b.start,
            },
            None => BookInfo::none(),
        },
        seed: t.seed,
        fail_on_h0: t.fail_on_h0,
        shard: shard.to_string(),
        partial: None,
        game: t.game,
        custom_schedule: false,
        adjudicate: Some(crate::records::AdjudicateInfo {
            solve_at_empties: t.adjudicate.solve_at_empties,
        }),
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

/// Checks, before any game, that the machine gives the tables every
/// worker's players will hold (each worker keeps one player per engine).
///
/// # Errors
/// [`Error::Alloc`] naming the engine and its `tt_mib`.
fn check_tables(t: &Tournament, workers: usize) -> Result<()> {
    for e in t.engines.iter().filter_map(EngineSpec::in_process) {
        e.check_tables(workers).map_err(|err| match err {
            Error::Alloc { setting, source } => Error::Alloc {
                setting: format!("engine {:?}: {setting}", e.name),
                source,
            },
            other => other,
        })?;
    }
    Ok(())
}

/// Checks, before any game, that every external engine's program starts.
///
/// # Errors
/// [`Error::Start`] naming the engine and the program.
fn check_programs(t: &Tournament) -> Result<()> {
    for e in &t.engines {
        if let EngineSpec::External(x) = e {
            x.check_starts()?;
        }
    }
    Ok(())
}

/// Runs (or resumes) a tournament and writes its outputs.
///
/// # Errors
/// An output folder in use or holding another run's journal, a corrupt
/// journal, I/O errors, or a failure inside a worker.
pub fn run(t: &Tournament, opts: &RunOptions) -> Result<RunOutcome> {
    let scheduler = schedule::for_format(&t.format, t.engines.len(), t.order.clone(), opts.shard);
    run_scheduled(t, scheduler, opts, false)
}

/// Runs a tournament with the games `scheduler` chooses (a format of the
/// caller's); the config's format still names the statistics (an SPRT's
/// pair counter, a round-robin's ratings).
///
/// # Errors
/// As [`run`]; also a scheduler that waits while no game is in flight.
pub fn run_with(
    t: &Tournament,
    scheduler: Box<dyn Scheduler>,
    opts: &RunOptions,
) -> Result<RunOutcome> {
    run_scheduled(t, scheduler, opts, true)
}

/// [`run_with`], saying whether the scheduler is the caller's (`custom`):
/// `tournament.json` records it, and the journal's games are then not
/// checked against the format's fixed schedule.
fn run_scheduled(
    t: &Tournament,
    mut scheduler: Box<dyn Scheduler>,
    opts: &RunOptions,
    custom: bool,
) -> Result<RunOutcome> {
    let out = opts.out.clone().unwrap_or_else(|| t.out.clone());
    let concurrency = opts.concurrency.unwrap_or(t.concurrency);
    if concurrency == 0 || concurrency > 256 {
        return Err(Error::usage(
            "concurrency",
            format!("{concurrency} threads: must be 1 to 256"),
        ));
    }
    check_tables(t, concurrency)?;
    check_programs(t)?;
    let info = TournamentInfo {
        custom_schedule: custom,
        ..info(t, opts.shard)
    };
    let existing = match (opts.resume, opts.overwrite) {
        (true, _) => Existing::Resume,
        (false, true) => Existing::Overwrite,
        (false, false) => Existing::Show,
    };
    let folder = open_run(&out, &info, existing)?;
    let total = scheduler.total();
    let progress = Progress::new(total, folder.games.len() as u64, opts.quiet);
    if let Some(msg) = info.book_note() {
        progress.note(&format!("note: {msg}"));
    }
    if !folder.games.is_empty() && opts.resume {
        progress.note(&format!(
            "resuming: {} of {} games already played",
            folder.games.len(),
            total
        ));
    }
    // Shards play their whole slice; `arena merge` decides.
    let decides = info.decides();
    let played = folder.games.len();
    let mut collector =
        Collector::new(&info, &out, folder.journal, folder.games, decides, progress);
    // At least one: a shard that owns no pair still asks its scheduler,
    // which says it is done, and leaves an empty journal for `arena merge`.
    let workers = concurrency
        .min(usize::try_from(total).unwrap_or(usize::MAX))
        .max(1);
    let pool = Pool {
        tournament: Arc::new(t.clone()),
        workers,
        stop: opts.stop.clone(),
        build: Arc::clone(&opts.players.0),
        logs: out.join("logs"),
        must_be_finished: folder
            .must_be_finished
            .then_some((played as u64, total, &out)),
    };
    let ended = pool.play(scheduler.as_mut(), &mut collector)?;
    let (results, _) = collector.finish(ended != Ended::Done)?;
    drop(folder.lock);
    if !opts.quiet {
        if existing == Existing::Show && played > 0 {
            progress::say(&format!(
                "{} already holds this run, finished:",
                out.display()
            ));
        }
        progress::say(&results.final_text(Paint::for_stdout()));
        progress::say(&format!("Results written to {}", out.display()));
    }
    let code = if results.status == Status::Stopped {
        EXIT_STOPPED
    } else {
        exit_code(&info, &results)
    };
    Ok(RunOutcome {
        results,
        out,
        exit_code: code,
    })
}
