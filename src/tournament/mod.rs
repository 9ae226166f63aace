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
pub mod play;
pub mod progress;
pub mod schedule;
pub mod worker;

pub use crate::records::{Format, GameRecord, Shard};
pub use config::Tournament;
pub use folder::{merge, read_info, report};
pub use schedule::{Finished, Next, Pairing, Schedule, Scheduler};

use crate::error::{Error, Result};
use crate::records::{BookInfo, TournamentInfo};
use crate::report::Results;
use crate::stats::Verdict;
use crate::util::write_atomic;
use collector::Collector;
use crossbeam_channel::{bounded, unbounded};
use folder::open_journal;
use progress::Progress;
use std::collections::HashSet;
use std::path::PathBuf;

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
    let scheduler = schedule::for_format(&t.format, t.engines.len(), t.order.clone(), opts.shard);
    run_with(t, scheduler, opts)
}

/// Runs a tournament with the games `scheduler` chooses (a format of the
/// caller's); the config's format still names the statistics (an SPRT's
/// pair counter, a round-robin's ratings).
///
/// # Errors
/// As [`run`]; also a scheduler that waits while no game is in flight.
pub fn run_with(
    t: &Tournament,
    mut scheduler: Box<dyn Scheduler>,
    opts: &RunOptions,
) -> Result<RunOutcome> {
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
    let (journal, games) = open_journal(&out.join("journal.jsonl"), &info, opts.resume)?;
    write_atomic(
        &out.join("tournament.json"),
        &(serde_json::to_string_pretty(&info).expect("info serializes") + "\n"),
    )?;
    let total = scheduler.total();
    let progress = Progress::new(total, games.len() as u64, opts.quiet);
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
    // Shards play their whole slice; `arena merge` decides.
    let decides = opts.shard == Shard::ALL;
    let mut collector = Collector::new(&info, &out, journal, games, decides, progress);
    let workers = concurrency.min(usize::try_from(total).unwrap_or(usize::MAX));
    play_all(t, workers, scheduler.as_mut(), &mut collector)?;
    let (results, _) = collector.finish()?;
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

/// Plays the scheduler's games on up to `workers` threads, keeping every
/// worker busy: a new game is asked for each time a result comes back, and
/// none once the run has failed, its SPRT has decided or the scheduler is
/// done. Games of a resumed journal are skipped.
///
/// # Errors
/// A scheduler that waits for results while no game is in flight.
fn play_all(
    t: &Tournament,
    workers: usize,
    scheduler: &mut dyn Scheduler,
    collector: &mut Collector<'_>,
) -> Result<()> {
    let resumed: HashSet<u64> = collector.games().iter().map(|g| g.game_id).collect();
    let mut done = false;
    std::thread::scope(|scope| {
        let (job_tx, job_rx) = bounded::<Pairing>(workers);
        let (res_tx, res_rx) = unbounded::<std::result::Result<GameRecord, String>>();
        let (mut spawned, mut in_flight) = (0usize, 0usize);
        loop {
            while in_flight < workers && !done && !collector.failed() && !collector.decided() {
                match next_game(scheduler, collector, &resumed) {
                    Next::Play(p) => {
                        if spawned == in_flight {
                            let (job_rx, res_tx) = (job_rx.clone(), res_tx.clone());
                            scope.spawn(move || worker::serve(t, &job_rx, &res_tx));
                            spawned += 1;
                        }
                        job_tx.send(p).expect("workers are running");
                        in_flight += 1;
                    }
                    Next::Wait => break,
                    Next::Done => done = true,
                }
            }
            if in_flight == 0 {
                break;
            }
            let Ok(answer) = res_rx.recv() else { break };
            in_flight -= 1;
            collector.take(answer);
        }
    });
    if done || collector.failed() || collector.decided() {
        Ok(())
    } else {
        Err(Error::Argument {
            argument: "format".into(),
            message: "the scheduler waits for results but no game is in flight".into(),
        })
    }
}

/// The scheduler's next answer, past the games a resumed journal holds.
fn next_game(
    scheduler: &mut dyn Scheduler,
    collector: &Collector<'_>,
    resumed: &HashSet<u64>,
) -> Next {
    loop {
        let finished = Finished {
            games: collector.games(),
            sprt_decided: collector.decided(),
        };
        match scheduler.next(&finished) {
            Next::Play(p) if resumed.contains(&p.game_id) => continue,
            other => return other,
        }
    }
}
