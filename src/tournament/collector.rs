//! The main thread's side of a run: every finished game goes to the journal
//! first, then to the [`PairCounter`] (which decides an SPRT), the
//! statistics, the run's [`RunObserver`] and, every two seconds, the output
//! files. A failure (a journal that cannot be written, a worker that died)
//! is kept and stops the run; the games already journalled stay.

use super::observer::{Cadence, RunObserver};
use crate::error::{Error, Result};
use crate::records::journal::Journal;
use crate::records::{GameRecord, TournamentInfo};
use crate::report::{analyse, write_outputs, PairCounter, Results, Status};
use std::path::Path;
use std::time::{Duration, Instant};

/// Seconds between rewrites of the output files during a run.
const WRITE_EVERY: Duration = Duration::from_secs(2);

/// Most time between a game reaching the journal and the journal reaching
/// the disk (`fsync`): what a power cut can lose.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// What the main thread owns while games are played.
pub struct Collector<'a> {
    info: &'a TournamentInfo,
    out: &'a Path,
    journal: Journal,
    /// Every finished game (a resumed journal's first), in finishing order.
    games: Vec<GameRecord>,
    /// The SPRT's pair counter (unsharded SPRT runs only).
    counter: Option<PairCounter>,
    results: Results,
    /// True until the observer has seen the latest statistics.
    fresh: bool,
    observer: &'a mut dyn RunObserver,
    /// How often the observer needs statistics.
    cadence: Cadence,
    last_analysis: Instant,
    last_write: Instant,
    last_sync: Instant,
    analysed_pairs: u64,
    failure: Option<Error>,
}

impl<'a> Collector<'a> {
    /// A collector writing to `journal` and `out`, starting from the games
    /// of a resumed journal; `decides` when its pair counter may stop the
    /// run (an unsharded SPRT); reporting to `observer`.
    pub fn new(
        info: &'a TournamentInfo,
        out: &'a Path,
        journal: Journal,
        games: Vec<GameRecord>,
        decides: bool,
        observer: &'a mut dyn RunObserver,
    ) -> Collector<'a> {
        let mut counter = PairCounter::new(info).filter(|_| decides);
        if let Some(c) = counter.as_mut() {
            for g in &games {
                c.add(g);
            }
        }
        let results = analyse(info, &games);
        Collector {
            info,
            out,
            journal,
            analysed_pairs: results.games / 2,
            results,
            games,
            counter,
            fresh: true,
            cadence: observer.cadence(),
            observer,
            last_analysis: Instant::now(),
            last_write: Instant::now(),
            last_sync: Instant::now(),
            failure: None,
        }
    }

    /// The games finished so far.
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// True once the SPRT has decided.
    pub fn decided(&self) -> bool {
        self.counter.as_ref().is_some_and(PairCounter::decided)
    }

    /// True once something failed: start no more games.
    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }

    /// Tells the observer of a first stop request.
    pub fn stop_requested(&mut self, in_flight: usize) {
        self.observer.stop_requested(in_flight);
    }

    /// Takes a worker's answer: a game to journal and count, or the message
    /// of a worker that failed.
    pub fn take(&mut self, answer: std::result::Result<GameRecord, String>) {
        match answer {
            Ok(rec) => {
                if self.failure.is_none() {
                    if let Err(e) = self.journal.append(&rec) {
                        self.failure = Some(e);
                    }
                }
                if let Some(c) = self.counter.as_mut() {
                    c.add(&rec);
                }
                self.games.push(rec);
                self.observer
                    .game_finished(&self.games[self.games.len() - 1], self.games.len() as u64);
            }
            Err(message) => {
                self.failure.get_or_insert(Error::Internal(message));
            }
        }
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync();
        }
        self.refresh();
    }

    /// How long until the journal's unsynced games must reach the disk
    /// (`None` when everything is synced).
    pub fn sync_due(&self) -> Option<Duration> {
        self.journal
            .unsynced()
            .then(|| SYNC_EVERY.saturating_sub(self.last_sync.elapsed()))
    }

    /// Forces the journal to the disk.
    pub fn sync(&mut self) {
        self.last_sync = Instant::now();
        if let Err(e) = self.journal.sync() {
            self.failure.get_or_insert(e);
        }
    }

    /// Statistics when the observer's [`Cadence`] asks for them (plain
    /// lines every 10 pairs, the bar twice a second, nothing quiet); files
    /// every 2 seconds.
    fn refresh(&mut self) {
        let pairs_now = self.games.len() as u64 / 2;
        let for_observer = self
            .cadence
            .pairs
            .is_some_and(|n| pairs_now >= self.analysed_pairs + n)
            || self
                .cadence
                .every
                .is_some_and(|d| self.last_analysis.elapsed() > d);
        let for_files = self.last_write.elapsed() > WRITE_EVERY;
        if for_observer || for_files {
            self.results = analyse(self.info, &self.games);
            self.analysed_pairs = pairs_now;
            self.last_analysis = Instant::now();
            self.fresh = true;
        }
        if for_files && self.failure.is_none() {
            self.last_write = Instant::now();
            if let Err(e) = write_outputs(self.out, self.info, &self.results, &self.games) {
                self.failure = Some(e);
            }
        }
        if self.fresh {
            self.fresh = false;
            self.observer.interval(&self.results);
        }
    }

    /// The final statistics, written with every output file (marked
    /// stopped when the run was `stopped` before its end); the first
    /// failure, if any. The journal is synced first.
    ///
    /// # Errors
    /// The run's failure, or one writing the outputs.
    pub fn finish(mut self, stopped: bool) -> Result<(Results, Vec<GameRecord>)> {
        self.sync();
        self.results = analyse(self.info, &self.games);
        if stopped && !self.results.complete {
            self.results.status = Status::Stopped;
            self.results.status_note = Some(format!(
                "stopped after {} of {} games (continue with --resume)",
                self.results.games_played, self.results.games_scheduled
            ));
        }
        self.observer.play_ended();
        if let Some(e) = self.failure {
            return Err(e);
        }
        write_outputs(self.out, self.info, &self.results, &self.games)?;
        Ok((self.results, self.games))
    }
}
