//! The main thread's side of a run: every finished game goes to the journal
//! first, then to the [`PairCounter`] (which decides an SPRT), the
//! statistics, the run's [`RunObserver`] and, every two seconds, the output
//! files. A failure (a journal that cannot be written, a game thread that died)
//! is kept and stops the run; the games already journalled stay. So does an
//! engine that loses its first games the same way without making a move
//! (it exits at start, does not answer its handshake): the run stops with
//! the outputs written, instead of forfeiting every game.

use super::blocks::Blocks;
use super::observer::{Cadence, RunObserver};
use super::starts::Starts;
use super::tally::Tally;
use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::records::journal::Journal;
use crate::records::{GameRecord, TournamentInfo};
use crate::report::{
    analyse_counted, write_games_ggf, write_outputs, write_reports, Live, Results, Status,
};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Least time between rewrites of the output files during a run.
const WRITE_EVERY: Duration = Duration::from_secs(2);

/// A rewrite of the output files reads every game: the next waits at
/// least this many times as long as the last took, so the rewrites of a
/// long run cost a bounded share of its time.
const WRITE_SHARE: u32 = 10;

/// Least time between two reads of the other workers' journals while
/// games come (a worker whose scheduler waits on them reads them when it
/// asks again): at most a few reads a second, whatever the games' rate.
const POLL_EVERY: Duration = Duration::from_millis(200);

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
    /// For a worker of a shared run, the worker that journalled each of
    /// `games`, in the same order (empty for a run of one writer).
    writers: Vec<Arc<str>>,
    /// This worker's ID, for a worker of a shared run.
    me: Option<Arc<str>>,
    /// The run's statistics kept game by game (the SPRT's pair counter
    /// within, for unsharded SPRT runs): what a progress line shows.
    live: Live,
    /// The statistics last shown or written.
    results: Results,
    /// True until the observer has seen the latest statistics.
    fresh: bool,
    observer: &'a mut dyn RunObserver,
    /// How often the observer needs statistics.
    cadence: Cadence,
    last_analysis: Instant,
    last_write: Instant,
    /// Time until the next rewrite of the output files.
    write_every: Duration,
    last_sync: Instant,
    last_poll: Instant,
    /// The plain lines' result blocks, when the observer takes them.
    blocks: Option<Blocks>,
    failure: Option<Error>,
    /// How each engine's first games of this run went.
    starts: Starts,
    /// How each engine is started, for the message of a broken one.
    commands: HashMap<String, String>,
    /// An engine that failed its first games without a move: the run
    /// stops, its games and outputs kept.
    broken: Option<Error>,
    /// Games journalled by this run (not a resumed journal's, not peers').
    played: u64,
    /// A worker of a shared run: the other workers' journals, whose games
    /// join the count (they are not journalled again).
    others: Option<Box<dyn Others>>,
    /// What the run writes besides its journal, as its venue decides.
    outputs: Outputs,
}

/// What a run writes besides its journal, as its venue decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// Its folder's results files, rewritten while it plays and at its end,
    /// and a tune's `tuned.ron` at its end (a run on one machine).
    Folder,
    /// None while it plays: `arena report` writes the results files; a
    /// tune's `tuned.ron` once the whole tune is in (a worker).
    Journal,
}

/// The other writers of a shared run, as one of them follows them: their
/// games count with its own but are not journalled again, and the run
/// writes no output file (`arena report` does).
pub trait Others {
    /// The games they journalled since the last call, each with the ID of
    /// the writer that journalled it.
    ///
    /// # Errors
    /// A journal that cannot be read or is not of this run.
    fn poll(&mut self) -> Result<Vec<(Arc<str>, GameRecord)>>;

    /// The ID of the writer following them (the one that plays this
    /// run's games).
    fn me(&self) -> Arc<str>;

    /// The time spent reading them so far.
    fn spent(&self) -> Duration;

    /// Hands them what the writer following them has counted of the run
    /// (its own games with theirs), after each look: the run's lead
    /// publishes it, any other keeps it to itself.
    fn publish(&mut self, _counted: &Tally) {}

    /// The lead's tally, when the writer follows it instead of reading
    /// their journals (`None` while it reads them).
    fn followed(&self) -> Option<Tally> {
        None
    }

    /// The run's live workers, when the lead counted them (for a worker
    /// that leads or follows; `None`: its scheduler counts them).
    fn live_workers(&self) -> Option<u64> {
        None
    }
}

impl<'a> Collector<'a> {
    /// A collector writing to `journal` and `out`, starting from the games
    /// of a resumed journal (and, for a worker, the other workers' read
    /// so far, `writers` naming who journalled each); `decides` when its
    /// pair counter may stop the run (an unsharded SPRT); following
    /// `others`, the other writers of a shared run, if any, and writing
    /// `outputs`; reporting to `observer`.
    pub fn new(
        info: &'a TournamentInfo,
        out: &'a Path,
        journal: Journal,
        (games, writers): (Vec<GameRecord>, Vec<Arc<str>>),
        decides: bool,
        (others, outputs): (Option<Box<dyn Others>>, Outputs),
        observer: &'a mut dyn RunObserver,
    ) -> Collector<'a> {
        let mut live = Live::new(info, decides);
        for g in &games {
            live.add(g);
        }
        let results = analyse_counted(info, &games, live.counter());
        let cadence = observer.cadence();
        let mut collector = Collector {
            info,
            out,
            journal,
            // Blocks a resumed run showed before are not shown again.
            blocks: cadence.block_pairs().map(|n| Blocks::new(info, n, &games)),
            results,
            games,
            me: others.as_ref().map(|o| o.me()),
            writers,
            live,
            fresh: true,
            cadence,
            observer,
            last_analysis: Instant::now(),
            last_write: Instant::now(),
            write_every: WRITE_EVERY,
            last_sync: Instant::now(),
            last_poll: Instant::now(),
            failure: None,
            starts: Starts::default(),
            commands: HashMap::new(),
            broken: None,
            played: 0,
            others,
            outputs,
        };
        collector.poll();
        collector
    }

    /// Reads what the other workers of a shared run have journalled since
    /// the last look (nothing for a run of one machine).
    pub fn poll(&mut self) {
        let Some(others) = self.others.as_mut() else {
            return;
        };
        self.last_poll = Instant::now();
        match others.poll() {
            Ok(games) => {
                for (writer, rec) in games {
                    self.live.add(&rec);
                    self.games.push(rec);
                    self.writers.push(writer);
                    if let Some(b) = self.blocks.as_mut() {
                        b.note(&self.games, self.games.len() - 1);
                    }
                }
            }
            Err(e) => {
                self.failure.get_or_insert(e);
            }
        }
        self.publish();
    }

    /// Hands the other writers what this run has counted (the run's lead
    /// publishes it).
    fn publish(&mut self) {
        let counted = self.tally();
        if let Some(others) = self.others.as_mut() {
            others.publish(&counted);
        }
    }

    /// What this run has counted: its finished pairs and the SPRT's
    /// decision.
    fn tally(&self) -> Tally {
        let decision = self.live.counter().and_then(|c| {
            let state = c.state().filter(|_| c.decided())?;
            Some((state.verdict, c.counted().len() as u64))
        });
        Tally {
            finished: self.live.finished_pairs(),
            decision,
        }
    }

    /// The tally of the run's lead, when this worker follows it instead
    /// of reading the other workers' journals.
    pub fn followed(&self) -> Option<Tally> {
        self.others.as_ref()?.followed()
    }

    /// The run's live workers as its lead counted them (`None` when this
    /// worker neither leads nor follows the lead).
    pub fn live_workers(&self) -> Option<u64> {
        self.others.as_ref()?.live_workers()
    }

    /// Learns the run's external engines and how they are started: one
    /// that fails its first games (see [`super::starts::BROKEN_AFTER`]) stops the run,
    /// named with its command.
    pub fn engines(&mut self, engines: &[EngineSpec]) {
        for e in engines {
            let command = match e {
                EngineSpec::Engine(_) => continue,
                EngineSpec::External(x) => {
                    let mut line = crate::error::path_text(&x.program);
                    for a in &x.args {
                        line.push(' ');
                        line.push_str(&a.escape_debug().to_string());
                    }
                    if let Some(dir) = &x.working_dir {
                        line.push_str(&format!(", in {}", crate::error::path_text(dir)));
                    }
                    line
                }
            };
            self.commands.insert(e.name().to_string(), command);
        }
    }

    /// Follows the first games of the external engines of game `i`; the
    /// first one found broken stops the run. (An in-process engine that
    /// fails is a bug of its player, which its forfeits show; the runner
    /// plays on, as `tests/trust.rs` asks.)
    fn watch_starts(&mut self, i: usize) {
        // Only external engines are followed: a run of in-process engines
        // does no work here per game.
        if self.commands.is_empty() {
            return;
        }
        let commands = &self.commands;
        let rec = &self.games[i];
        if let Some((engine, games, reason)) = self.starts.see(rec, |n| commands.contains_key(n)) {
            let Some(command) = self.commands.get(&engine).cloned() else {
                return;
            };
            self.broken.get_or_insert(Error::Broken {
                engine,
                command,
                games,
                reason,
            });
        }
    }

    /// Time spent reading the other workers' journals (none for a run of
    /// one machine).
    pub fn others_time(&self) -> Duration {
        self.others.as_ref().map_or(Duration::ZERO, |o| o.spent())
    }

    /// The games this run has journalled (a resumed journal's and other
    /// workers' aside).
    pub fn played(&self) -> u64 {
        self.played
    }

    /// The games finished so far.
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// For a worker of a shared run, the worker that journalled each of
    /// [`games`](Self::games), in the same order (empty for a run of one
    /// writer).
    pub fn writers(&self) -> &[Arc<str>] {
        &self.writers
    }

    /// The games as they count when some were journalled by two workers
    /// (a claim taken over, a pair played alongside a slow owner) with
    /// other outcomes: each once, the record of the lowest worker ID, as
    /// `arena report` combines the workers' journals. `None` when no game
    /// is there twice with another outcome: the running statistics, which
    /// took each game's first record, then counted what the kept one
    /// would have, all but the engines' move figures (a worker's cover
    /// its own games anyway), and each of many workers does not count the
    /// whole run again at its end.
    fn counted_once(&self) -> Option<Vec<GameRecord>> {
        if self.writers.len() != self.games.len() {
            return None;
        }
        let mut first: HashMap<u64, usize> = HashMap::new();
        let differ = self.games.iter().enumerate().any(|(i, g)| {
            let at = *first.entry(g.game_id).or_insert(i);
            at != i && !same_count(&self.games[at], g)
        });
        if !differ {
            return None;
        }
        let mut best: HashMap<u64, usize> = HashMap::new();
        for (i, g) in self.games.iter().enumerate() {
            let at = best.entry(g.game_id).or_insert(i);
            if *at != i && self.writers[i] < self.writers[*at] {
                *at = i;
            }
        }
        let mut keep: Vec<usize> = best.into_values().collect();
        keep.sort_unstable();
        Some(keep.into_iter().map(|i| self.games[i].clone()).collect())
    }

    /// True once the SPRT has decided (as the lead's tally says, for a
    /// worker that follows it).
    pub fn decided(&self) -> bool {
        self.live.decided() || self.followed().is_some_and(|t| t.decision.is_some())
    }

    /// True once something failed (an engine that fails its first games
    /// included): start no more games.
    pub fn failed(&self) -> bool {
        self.failure.is_some() || self.broken.is_some()
    }

    /// Tells the observer of a first stop request (with the grace of the
    /// games in flight after a SIGTERM).
    pub fn stop_requested(&mut self, in_flight: usize, grace: Option<std::time::Duration>) {
        self.observer.stop_requested(in_flight, grace);
    }

    /// Takes a game thread's answer: a game to journal and count, or the message
    /// of a game thread that failed.
    pub fn take(&mut self, answer: std::result::Result<GameRecord, String>) {
        self.take_all(std::iter::once(answer));
    }

    /// Takes the answers that were waiting, in the order they came: their
    /// games go to the journal in one write (up to a failure: none after
    /// it), then each is counted and shown to the observer as [`take`](Self::take)
    /// does one by one.
    pub fn take_all(
        &mut self,
        answers: impl IntoIterator<Item = std::result::Result<GameRecord, String>>,
    ) {
        let from = self.games.len();
        let mut journalled = from;
        for answer in answers {
            match answer {
                Ok(rec) => {
                    self.games.push(rec);
                    if let Some(me) = &self.me {
                        self.writers.push(Arc::clone(me));
                    }
                    if self.failure.is_none() {
                        journalled = self.games.len();
                    }
                }
                Err(message) => {
                    self.failure.get_or_insert(Error::Internal(message));
                }
            }
        }
        if journalled > from {
            if let Err(e) = self.journal.append_all(&self.games[from..journalled]) {
                self.failure.get_or_insert(e);
            }
        }
        // Each game as if it had come alone: the statistics the observer
        // asks for are of the games up to it.
        for i in from..self.games.len() {
            self.live.add(&self.games[i]);
            if let Some(b) = self.blocks.as_mut() {
                b.note(&self.games, i);
            }
            self.played += 1;
            self.watch_starts(i);
            self.observer.game_finished(&self.games[i], i as u64 + 1);
            self.refresh(i + 1);
        }
        if self.last_poll.elapsed() >= POLL_EVERY {
            self.poll();
        }
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync();
        }
        if from == self.games.len() {
            self.refresh(from);
        }
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

    /// Statistics when the observer's [`Cadence`] asks for them: a result
    /// block for every so many pairs (plain lines, [`Blocks`]); the
    /// running statistics of the first `upto` games twice a second (the
    /// bar); nothing when quiet. The output files of one machine are
    /// rewritten from a full analysis every 2 s, or less often when a
    /// rewrite takes long (a worker writes none).
    fn refresh(&mut self, upto: usize) {
        let time_due = self
            .cadence
            .every
            .is_some_and(|d| self.last_analysis.elapsed() > d);
        if time_due {
            self.results = self.live.results();
            self.last_analysis = Instant::now();
            self.fresh = true;
        }
        let for_files =
            self.outputs == Outputs::Folder && self.last_write.elapsed() > self.write_every;
        if for_files && self.failure.is_none() {
            let began = Instant::now();
            let games = &self.games[..upto];
            let results = analyse_counted(self.info, games, self.live.counter());
            if let Err(e) = write_outputs(self.out, self.info, &results, games) {
                self.failure = Some(e);
            }
            self.write_every = WRITE_EVERY.max(began.elapsed() * WRITE_SHARE);
            self.last_write = Instant::now();
        }
        if self.fresh {
            self.fresh = false;
            self.observer.interval(&self.results);
        }
        if let Some(b) = self.blocks.as_mut() {
            b.show(&self.games, &mut *self.observer);
        }
    }

    /// The final statistics, written with every output file (marked
    /// stopped when the run was `stopped` before its end, or an engine
    /// failed its first games); the first failure, if any. The journal is
    /// synced first.
    ///
    /// # Errors
    /// The run's failure, or one writing the outputs; then an engine that
    /// failed its first games ([`Error::Broken`]), after the outputs are
    /// written.
    pub fn finish(mut self, stopped: bool) -> Result<(Results, Vec<GameRecord>)> {
        self.sync();
        self.publish();
        // games.ggf is made and written on a thread of its own while the
        // statistics are computed and the other outputs written.
        let writes = self.failure.is_none() && self.outputs == Outputs::Folder;
        let once = self.counted_once();
        let counted = once.as_deref().unwrap_or(&self.games);
        // A worker writes no file: when no game is there twice, its running
        // statistics are the analysis' (all but the report's trace), so
        // each of many workers does not read every game again at its end.
        let live = self.outputs == Outputs::Journal && once.is_none();
        let (results, ggf) = std::thread::scope(|s| {
            let ggf = writes.then(|| s.spawn(|| write_games_ggf(self.out, self.info, &self.games)));
            let results = if live {
                self.live.results()
            } else {
                analyse_counted(self.info, counted, self.live.counter())
            };
            let ggf = ggf.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            (results, ggf)
        });
        self.results = results;
        if (stopped || self.broken.is_some()) && !self.results.complete {
            self.results.status = Status::Stopped;
            self.results.status_note = Some(format!(
                "stopped after {} of {} games (resuming the run continues it)",
                self.results.games_played, self.results.games_scheduled
            ));
        }
        crate::tournament::folder::note_capped_transcripts(self.out, self.info, &mut self.results);
        self.observer.play_ended();
        if let Some(e) = self.failure {
            return Err(e);
        }
        if self.outputs == Outputs::Folder {
            write_reports(self.out, self.info, &self.results, &self.games)?;
        }
        if let Some(written) = ggf {
            written?;
        }
        if let Some(e) = self.broken {
            return Err(e);
        }
        Ok((self.results, self.games))
    }
}

/// Whether two records of one game count alike: the same sides, outcome
/// and values (their moves' times may differ).
fn same_count(a: &GameRecord, b: &GameRecord) -> bool {
    a.black == b.black
        && a.white == b.white
        && a.result == b.result
        && a.disc_diff == b.disc_diff
        && a.reason == b.reason
        && a.tune == b.tune
}

#[cfg(test)]
#[path = "collector_tests.rs"]
mod tests;
