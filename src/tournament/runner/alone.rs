//! A run on one machine, as the [`Venue`] the driver plays it in: the
//! whole output folder, under its lock, and the format's (or the caller's)
//! scheduler.

use super::driver::{Ending, Opened, Venue};
use super::pool::{Queued, QUEUED};
use crate::error::Result;
use crate::records::TournamentInfo;
use crate::report::Results;
use crate::tournament::folder::{open_run, Existing, RunFolder};
use crate::tournament::schedule::Scheduler;
use crate::util::FolderLock;
use std::path::Path;
use std::time::Duration;

/// One machine's run of a scheduler's games.
pub(crate) struct Alone {
    scheduler: Box<dyn Scheduler>,
    /// Whether the scheduler is the caller's, not the format's.
    custom: bool,
    existing: Existing,
    /// The folder's lock, held until the run's end is shown.
    lock: Option<FolderLock>,
    /// Games the folder held when the run began.
    held: usize,
}

impl Alone {
    /// The run of `scheduler`'s games (`custom` when it is the caller's),
    /// doing with a journal already there what `existing` says.
    pub(crate) fn new(scheduler: Box<dyn Scheduler>, custom: bool, existing: Existing) -> Alone {
        Alone {
            scheduler,
            custom,
            existing,
            lock: None,
            held: 0,
        }
    }
}

impl Venue for Alone {
    fn info(&self, base: TournamentInfo) -> TournamentInfo {
        TournamentInfo {
            custom_schedule: self.custom,
            ..base
        }
    }

    fn open(
        &mut self,
        out: &Path,
        info: &TournamentInfo,
        (threads, _): (usize, bool),
        ready: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Opened> {
        let RunFolder {
            lock,
            journal,
            games,
            must_be_finished,
            info: kept,
        } = open_run(out, info, self.existing, ready)?;
        self.lock = Some(lock);
        let total = self.scheduler.total();
        self.held = games.len();
        Ok(Opened {
            info: kept,
            journal,
            games,
            writers: Vec::new(),
            resuming: self.held > 0 && matches!(self.existing, Existing::Resume { .. }),
            total,
            // Shards play their whole slice; `arena merge` decides.
            decides: info.decides(),
            others: None,
            outputs: super::collector::Outputs::Folder,
            // At least one: a shard that owns no pair still asks its
            // scheduler, which says it is done, and leaves an empty
            // journal for `arena merge`.
            threads: threads
                .min(usize::try_from(total).unwrap_or(usize::MAX))
                .max(1),
            queued: Queued::Games(QUEUED),
            logs: out.join("logs"),
            must_be_finished,
        })
    }

    fn scheduler(&mut self) -> &mut dyn Scheduler {
        self.scheduler.as_mut()
    }

    fn failure(&mut self) -> Option<crate::error::Error> {
        self.scheduler.failure()
    }

    fn end(
        &mut self,
        info: &TournamentInfo,
        results: &Results,
        _played: u64,
        _others: (Duration, Option<super::tally::Tally>),
    ) -> Result<Ending> {
        drop(self.lock.take());
        Ok(Ending {
            exit_code: super::prepare::exit_code(info, results),
            already_held: self.existing == Existing::Show && self.held > 0,
            worker: None,
        })
    }
}
