//! One worker's run: [`run_worker`], the shared-folder counterpart of
//! [`crate::tournament::run`], driven the same way with a worker's
//! [`Venue`] plugged in.

use super::claims::{ClaimScheduler, Claims};
use super::{Peers, WorkerOptions};
use crate::error::{Error, Result};
use crate::records::{Shard, TournamentInfo};
use crate::report::{Results, Status};
use crate::tournament::runner::driver::{drive, Ending, Opened, Venue};
use crate::tournament::runner::observer::{RunObserver, WorkerSummary};
use crate::tournament::runner::pool::Queued;
use crate::tournament::runner::tally::Tally;
use crate::tournament::schedule::Scheduler;
use crate::tournament::{RunOptions, RunOutcome, Tournament};
use std::path::Path;
use std::time::Duration;

/// Most play a worker holds queued for its game threads (pairs claimed and
/// not started; see [`Queued::Play`]): random movers queue a full
/// [`crate::tournament::runner::pool::QUEUED`], games of a second or more
/// none.
const HOLD: Duration = Duration::from_millis(50);

/// The verdict and the pairs counted up to it, when the run's SPRT has
/// decided: from the running counter's results (counting every game of
/// the run again at a worker's end costs each of many workers an LLR a
/// pair), or for a worker that followed the run's lead, from its tally.
fn decision(results: &Results, followed: Option<Tally>) -> Option<(&'static str, u64)> {
    let counted = || {
        let verdict = results.verdict.filter(|v| *v == "H0" || *v == "H1")?;
        Some((verdict, results.head_to_head.as_ref()?.pairs?))
    };
    counted().or_else(|| followed?.decision.map(|(v, pairs)| (v.name(), pairs)))
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
    let mut seat = Seat {
        w,
        resume: opts.resume,
        began: std::time::Instant::now(),
        scheduler: None,
        heartbeat: None,
        own: 0,
        summary: None,
        tune: t.plan.tune().map(|tune| tune.trajectory()),
    };
    let outcome = drive(t, opts, observer, &mut seat)?;
    let summary = seat
        .summary
        .take()
        .ok_or_else(|| Error::Internal("a worker's run ended without its summary".into()))?;
    Ok((outcome, summary))
}

/// A worker's seat in a shared run, as the [`Venue`] the driver plays it
/// in: its own journal and heartbeat under `workers/ID/`, pairs claimed
/// from the other workers, whose journals it follows.
struct Seat<'w> {
    w: &'w WorkerOptions,
    resume: bool,
    began: std::time::Instant,
    scheduler: Option<ClaimScheduler>,
    /// Beating from the folder's opening to the run's end.
    heartbeat: Option<super::heartbeat::Heartbeat>,
    /// Games it had journalled before this session.
    own: u64,
    summary: Option<WorkerSummary>,
    /// A tune's θ, which gates the pairs a worker claims.
    tune: Option<crate::tournament::tune::Trajectory>,
}

impl Venue for Seat<'_> {
    fn info(&self, base: TournamentInfo) -> TournamentInfo {
        TournamentInfo {
            workers: true,
            shard: Shard::ALL.to_string(),
            ..base
        }
    }

    fn open(
        &mut self,
        out: &Path,
        info: &TournamentInfo,
        (threads, shows_run): (usize, bool),
        ready: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Opened> {
        let w = self.w;
        let folder = super::open(out, info, w, self.resume)?;
        let plan = crate::tournament::folder::plan(info, &out.join("tournament.json"))?;
        self.scheduler = Some(
            ClaimScheduler::new(
                plan.clone(),
                Claims::new(out, &w.id),
                folder.mine.clone(),
                w.stale_after,
                info.sprt().is_some().then_some(threads),
                self.tune.take(),
            )
            .with_rounds(crate::records::rounds::Rounds::of(
                &info.format,
                &info.engines,
            )),
        );
        self.heartbeat = Some(folder.heartbeat);
        self.own = folder.games.len() as u64;
        let mut peers = Peers::new(out, &w.id, info, plan, !shows_run);
        let mut games = folder.games;
        let me: std::sync::Arc<str> = w.id.as_str().into();
        let mut writers = vec![me; games.len()];
        for (writer, g) in peers.poll()? {
            writers.push(writer);
            games.push(g);
        }
        ready()?;
        Ok(Opened {
            info: info.clone(),
            journal: folder.journal,
            games,
            writers,
            resuming: self.own > 0,
            total: 2 * info.total_pairs,
            decides: true,
            others: Some(Box::new(peers)),
            outputs: crate::tournament::runner::collector::Outputs::Journal,
            threads,
            // Pairs waiting in a worker's queue are held from the other
            // workers: for a short while at most.
            queued: Queued::Play(HOLD),
            logs: out.join("workers").join(&w.id).join("logs"),
            must_be_finished: false,
        })
    }

    fn scheduler(&mut self) -> &mut dyn Scheduler {
        self.scheduler
            .as_mut()
            .expect("the driver opens the folder before it plays")
    }

    fn failure(&mut self) -> Option<Error> {
        self.scheduler.as_mut()?.failure.take()
    }

    fn end(
        &mut self,
        info: &TournamentInfo,
        results: &Results,
        played: u64,
        (reading, followed): (Duration, Option<Tally>),
    ) -> Result<Ending> {
        drop(self.heartbeat.take());
        let (claimed, unreadable, all_finished) = match self.scheduler.as_mut() {
            Some(s) => (
                s.claimed,
                std::mem::take(&mut s.unreadable),
                s.all_finished(),
            ),
            None => (0, Vec::new(), false),
        };
        let summary = WorkerSummary {
            id: self.w.id.clone(),
            pairs: claimed,
            games: self.own + played,
            decided: decision(results, followed),
            reading: (reading, self.began.elapsed()),
            unreadable,
            followed: followed.is_some(),
        };
        let stopped = results.status == Status::Stopped;
        let over =
            results.complete || all_finished || followed.is_some_and(|t| t.over(info.total_pairs));
        if !stopped && !over {
            return Err(Error::Internal("a worker ended before its run did".into()));
        }
        let worker = (!stopped).then(|| summary.clone());
        self.summary = Some(summary);
        Ok(Ending {
            exit_code: 0,
            already_held: false,
            worker,
        })
    }
}
