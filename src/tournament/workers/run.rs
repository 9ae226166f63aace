//! One worker's run: [`run_worker`], the shared-folder counterpart of
//! [`crate::tournament::run`].

use super::claims::{ClaimScheduler, Claims};
use super::{Peers, WorkerOptions};
use crate::error::{Error, Result};
use crate::records::TournamentInfo;
use crate::report::{PairCounter, Status};
use crate::tournament::collector::Collector;
use crate::tournament::observer::{End, RunObserver, Start};
use crate::tournament::pool::{Ended, Pool};
use crate::tournament::{RunOptions, RunOutcome, Tournament, EXIT_STOPPED};
use std::sync::Arc;

/// What one worker did, for its last line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Its ID.
    pub id: String,
    /// Pairs it claimed in this session (taken over ones included).
    pub pairs: u64,
    /// Games it has journalled, over all its sessions.
    pub games: u64,
    /// The SPRT's verdict and the pairs counted when it came, once decided.
    pub decided: Option<(&'static str, u64)>,
    /// Its time reading the other workers' journals, and its whole time.
    pub reading: (std::time::Duration, std::time::Duration),
    /// The claims naming no worker that it took over (each file and why).
    pub unreadable: Vec<String>,
}

impl std::fmt::Display for WorkerSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (reading, wall) = self.reading;
        let played = format!(
            "this worker ({}) played {} pairs ({} games in its journal; {:.2} s of its {:.1} s reading the other workers' journals)",
            self.id,
            self.pairs,
            self.games,
            reading.as_secs_f64(),
            wall.as_secs_f64()
        );
        match self.decided {
            Some((verdict, pairs)) => {
                write!(f, "run decided {verdict} after {pairs} pairs; {played}")?;
            }
            None => write!(f, "run complete; {played}")?,
        }
        if !self.unreadable.is_empty() {
            write!(
                f,
                "; it took over claims that name no worker: {}",
                self.unreadable.join("; ")
            )?;
        }
        Ok(())
    }
}

/// The verdict and the pair it came at, when the SPRT of `info` has
/// decided over `games`.
fn decision(
    info: &TournamentInfo,
    games: &[crate::records::GameRecord],
) -> Option<(&'static str, u64)> {
    let mut c = PairCounter::new(info)?;
    for g in games {
        c.add(g);
    }
    let state = c.state()?;
    (c.decided()).then(|| (state.verdict.name(), c.counted().len() as u64))
}

/// Plays as worker `w` of the run `t` in `opts.out` (the config's folder by
/// default), with the other workers there: claims pairs, journals its
/// games under `workers/ID/`, and stops when the whole run has decided or
/// every pair is finished. Writes no output file: `arena report` does.
///
/// # Errors
/// As [`crate::tournament::run`]; also a folder of one machine's run or of
/// another config, a live worker with the same ID, a claim that cannot be
/// written, another worker's journal that is not of this run.
pub fn run_worker(
    t: &Tournament,
    opts: &RunOptions,
    w: &WorkerOptions,
    observer: &mut dyn RunObserver,
) -> Result<(RunOutcome, WorkerSummary)> {
    let began = std::time::Instant::now();
    let (out, concurrency, info) = prepare(t, opts)?;
    let folder = super::open(&out, &info, w, opts.resume)?;
    let plan = crate::tournament::folder::plan(&info, &out.join("tournament.json"))?;
    let mut scheduler = ClaimScheduler::new(
        plan.clone(),
        Claims::new(&out, &w.id),
        folder.mine.clone(),
        w.stale_after,
        info.sprt().is_some().then_some(concurrency),
    );
    let own = folder.games.len() as u64;
    let mut peers = Peers::new(&out, &w.id, &info, plan);
    let mut games = folder.games;
    games.extend(peers.poll()?);
    observer.open()?;
    observer.started(&Start {
        total: 2 * info.total_pairs,
        done: games.len() as u64,
        book_note: info.book_note().as_deref(),
        resuming: own > 0,
        warnings: &crate::tournament::engine_warnings(t),
    });
    let mut collector =
        Collector::new(&info, &out, folder.journal, games, true, observer).with_peers(peers);
    collector.engines(&t.engines);
    let pool = Pool {
        tournament: Arc::new(t.clone()),
        workers: concurrency,
        // A worker of a shared run claims only the pairs it plays: pairs
        // waiting in its queue would be held from the other workers.
        queued: 0,
        stop: opts.stop.clone(),
        build: Arc::clone(&opts.players.0),
        logs: out.join("workers").join(&w.id).join("logs"),
        must_be_finished: None,
    };
    let ended = pool.play(&mut scheduler, &mut collector)?;
    let played = collector.played();
    let reading = (collector.peers_time(), began.elapsed());
    if let Some(e) = scheduler.failure.take() {
        return Err(e);
    }
    let (results, games) = collector.finish(ended != Ended::Done)?;
    drop(folder.heartbeat);
    let summary = WorkerSummary {
        id: w.id.clone(),
        pairs: scheduler.claimed,
        games: own + played,
        decided: decision(&info, &games),
        reading,
        unreadable: std::mem::take(&mut scheduler.unreadable),
    };
    let line = summary.to_string();
    observer.finished(&End {
        results: &results,
        out: &out,
        already_held: false,
        worker: (results.status != Status::Stopped).then_some(line.as_str()),
    });
    let code = if results.status == Status::Stopped {
        EXIT_STOPPED
    } else if results.complete {
        0
    } else {
        return Err(Error::Internal("a worker ended before its run did".into()));
    };
    let outcome = RunOutcome {
        results,
        out,
        exit_code: code,
    };
    Ok((outcome, summary))
}

/// The output folder, the threads and the record of the run `t` as a
/// worker plays it, after checking the engines' tables and programs.
fn prepare(
    t: &Tournament,
    opts: &RunOptions,
) -> Result<(std::path::PathBuf, usize, TournamentInfo)> {
    let out = opts.out.clone().unwrap_or_else(|| t.out.clone());
    let concurrency =
        crate::tournament::check_concurrency(opts.concurrency.unwrap_or(t.concurrency))?;
    crate::tournament::check_tables(t, concurrency)?;
    crate::tournament::check_programs(t)?;
    let info = TournamentInfo {
        workers: true,
        build: Some(crate::tournament::folder::build_info(t)?),
        ..crate::tournament::info(t, crate::records::Shard::ALL)
    };
    Ok((out, concurrency, info))
}
