//! The one way a run is driven, on one machine or as a worker of a shared
//! run: check the engines, open the folder, tell the observer, play the
//! scheduler's games on the pool's threads into the collector, finish the
//! statistics and end. What differs between the two kinds of run is what
//! each plugs in, a [`Venue`]: the folder it opens (a whole run's, or a
//! worker's seat in a shared one), the scheduler (the format's games, or
//! pairs claimed from the other workers), the other writers it follows and
//! how it ends (one machine's exit code, or a worker's summary line).

use super::collector::{Collector, Others, Outputs};
use super::observer::{End, RunObserver, Start, WorkerSummary};
use super::pool::{Ended, Pool};
use super::tally::Tally;
use crate::error::{Error, Result};
use crate::records::journal::Journal;
use crate::records::{GameRecord, TournamentInfo};
use crate::report::{Results, Status};
use crate::tournament::schedule::Scheduler;
use crate::tournament::tune::output::TunedCheck;

use super::prepare::{
    check_concurrency, check_memory, check_programs, check_tables, engine_warnings, info,
    RunOptions, RunOutcome, EXIT_STOPPED,
};
use crate::tournament::config::Tournament;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// A run's folder, open and checked, and how its games are to be played.
pub(crate) struct Opened {
    /// The run's record as the folder keeps it (`tournament.json`): the
    /// one asked for, with what a resume by another build notes.
    pub info: TournamentInfo,
    /// The journal this run appends to.
    pub journal: Journal,
    /// The games already finished (a resumed journal's, other workers').
    pub games: Vec<GameRecord>,
    /// For a worker of a shared run, the worker that journalled each of
    /// `games` (empty for a run of one writer).
    pub writers: Vec<Arc<str>>,
    /// Whether this run continues games of its own.
    pub resuming: bool,
    /// The games the run has in all.
    pub total: u64,
    /// Whether its pair counter may stop the run (an SPRT, unsharded).
    pub decides: bool,
    /// The other writers of a shared run, followed as they play.
    pub others: Option<Box<dyn Others>>,
    /// What the run writes besides its journal.
    pub outputs: Outputs,
    /// Threads that play games.
    pub threads: usize,
    /// Games handed out ahead to each thread ([`Pool::queued`]).
    pub queued: super::pool::Queued,
    /// The folder of external engines' transcripts.
    pub logs: PathBuf,
    /// Whether any game left to play is an error (the folder held this
    /// run and no resume was asked for).
    pub must_be_finished: bool,
}

/// How a run ended, as its venue sees it.
pub(crate) struct Ending {
    /// The process exit code.
    pub exit_code: u8,
    /// Whether the run's games were all there before it started.
    pub already_held: bool,
    /// A worker's summary, for its last line (none when it was stopped).
    pub worker: Option<WorkerSummary>,
}

/// What a kind of run plugs into [`drive`].
pub(crate) trait Venue {
    /// The run's record in its folder, from the config's (`base`).
    fn info(&self, base: TournamentInfo) -> TournamentInfo;

    /// Opens `out` for the run `info` on `threads` threads at most, after
    /// every check, calling `ready` (the observer's events file) once no
    /// refusal can come: for one machine before anything is written; for a
    /// worker once its seat, claims folder and journal are set up (a
    /// refused worker writes nothing of the run's). `shows_run`: whether
    /// the run's observer shows anything of the whole run
    /// ([`RunObserver::shows_run`]).
    fn open(
        &mut self,
        out: &Path,
        info: &TournamentInfo,
        threads_shows_run: (usize, bool),
        ready: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Opened>;

    /// The scheduler of the games this run plays.
    fn scheduler(&mut self) -> &mut dyn Scheduler;

    /// A failure of the scheduler's that ends the run once its games in
    /// flight are in (a claim that could not be written).
    fn failure(&mut self) -> Option<Error> {
        None
    }

    /// After the games, their statistics `results`: how the
    /// run ends. `played` games were journalled by this run; `reading` is
    /// its time reading other writers' journals, `followed` the last tally
    /// of the run's lead it followed instead (a worker's).
    fn end(
        &mut self,
        info: &TournamentInfo,
        results: &Results,
        played: u64,
        reading_followed: (Duration, Option<Tally>),
    ) -> Result<Ending>;
}

/// What a run checks and records before its folder is opened: its
/// game-thread count (checked, with the tables, memory and programs it
/// needs) and its info as `venue` records it.
///
/// # Errors
/// As [`crate::tournament::run`].
fn prepare(
    t: &Tournament,
    opts: &RunOptions,
    venue: &mut dyn Venue,
) -> Result<(usize, TournamentInfo)> {
    // The config's own was checked with the config: only an override is
    // checked here.
    let concurrency = match opts.concurrency {
        Some(c) => check_concurrency(c)?,
        None => t.concurrency,
    };
    check_tables(t, concurrency)?;
    check_memory(t, concurrency)?;
    check_programs(t)?;
    let info = venue.info(TournamentInfo {
        build: Some(crate::tournament::folder::build_info(t)?),
        speed: super::prepare::speed(t, opts.speed_factor),
        ..info(t, opts.shard)
    });
    Ok((concurrency, info))
}

/// What the run warns of before its first game: the engines' limits their
/// protocols cannot carry, and a tune's idle game threads (of this
/// process's `threads`: a worker knows only its own).
fn warnings(t: &Tournament, threads: usize) -> Vec<String> {
    let mut warnings = engine_warnings(t);
    warnings.extend(t.plan.tune().and_then(|tune| tune.idle_warning(threads)));
    warnings
}

/// Runs `t` in `venue`, telling `observer` what happens.
///
/// # Errors
/// As [`crate::tournament::run`].
pub(crate) fn drive(
    t: &Tournament,
    opts: &RunOptions,
    observer: &mut dyn RunObserver,
    venue: &mut dyn Venue,
) -> Result<RunOutcome> {
    let out = opts.out.clone().unwrap_or_else(|| t.out.clone());
    let (concurrency, info) = prepare(t, opts, venue)?;
    // The games play the clocks scaled to this machine; the record keeps
    // the config's.
    let scaled = match &info.speed {
        Some(s) => t.scaled(s.factor),
        None => t.clone(),
    };
    let threads = (concurrency, observer.shows_run());
    let opened = venue.open(&out, &info, threads, &mut || observer.open())?;
    let info = opened.info.clone();
    let outputs = opened.outputs;
    let done = opened.games.len() as u64;
    let warnings = warnings(t, opened.threads);
    observer.started(&Start {
        total: opened.total,
        done,
        book_note: info.book_note().as_deref(),
        resuming: opened.resuming,
        warnings: &warnings,
    });
    let mut collector = Collector::new(
        &info,
        &out,
        opened.journal,
        (opened.games, opened.writers),
        opened.decides,
        (opened.others, opened.outputs),
        observer,
    );
    collector.engines(&t.engines);
    let pool = Pool {
        tournament: Arc::new(scaled),
        threads: opened.threads,
        queued: opened.queued,
        stop: opts.stop.clone(),
        build: Arc::clone(&opts.players.0),
        logs: opened.logs,
        must_be_finished: opened
            .must_be_finished
            .then_some((done, opened.total, out.as_path())),
    };
    let ended = pool.play(venue.scheduler(), &mut collector);
    let played = collector.played();
    let reading = (collector.others_time(), collector.followed());
    let ended = ended?;
    if let Some(e) = venue.failure() {
        return Err(e);
    }
    let (results, games) = collector.finish(ended != Ended::Done)?;
    let ending = venue.end(&info, &results, played, reading)?;
    let tuned = tuned(t, outputs, &results, &out)?;
    // A record is about nine allocations: 10,000 games are freed on a
    // thread of their own rather than before the run's end is shown.
    std::thread::spawn(move || drop(games));
    observer.finished(&End {
        results: &results,
        out: &out,
        already_held: ending.already_held,
        worker: ending.worker.as_ref(),
        tuned: tuned.as_ref(),
    });
    let exit_code = if results.status == Status::Stopped {
        EXIT_STOPPED
    } else {
        ending.exit_code
    };
    Ok(RunOutcome {
        results,
        out,
        exit_code,
    })
}

/// A tune's `tuned.ron`, written when the run ends (a worker writes it
/// once the whole tune is in: every worker that ends then writes the same
/// bytes); where it is and how to check it.
///
/// # Errors
/// As [`Tune::write`].
fn tuned(
    t: &Tournament,
    outputs: Outputs,
    results: &Results,
    out: &Path,
) -> Result<Option<TunedCheck>> {
    match (t.plan.tune(), &results.tune) {
        (Some(tune), Some(summary))
            if outputs == Outputs::Folder || summary.iterations_done == summary.iterations =>
        {
            let values: Vec<f64> = summary.params.iter().map(|p| p.value).collect();
            tune.write(&values, summary.iterations_done, out).map(Some)
        }
        _ => Ok(None),
    }
}
