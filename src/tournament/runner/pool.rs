//! The pool of game threads: threads that play the scheduler's games, fed one game
//! at a time over a channel, their results collected on the main thread.
//! The main thread waits on one channel (results, and stop requests
//! forwarded from Ctrl-C and SIGTERM) until the journal's sync deadline; it
//! never polls.
//!
//! A first stop request stops scheduling and lets the games in flight
//! finish (after a SIGTERM, for the stop grace at most); a second abandons
//! them: the pool returns at once, and the threads, detached, end when
//! their game does (nothing they send is read). However the pool returns
//! (done, stopped, abandoned, an error, a panic), every engine process of
//! the run is ended before it does ([`Engines::end_all`]).

use super::collector::Collector;
use super::game_thread::{self, BuildPlayer, Room};
use super::stops::{StopRequest, Stops};
use crate::engine::external::reaper::{Engines, QUIT_GRACE};
use crate::error::{Error, Result, Wording};
use crate::records::GameRecord;
use crate::tournament::config::Tournament;
use crate::tournament::schedule::{Finished, Next, Pairing, Scheduler};
use crossbeam_channel::{bounded, select, unbounded, Receiver, Sender};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Games handed out ahead to each game thread of a run of one machine (see
/// [`Pool::queued`]).
pub const QUEUED: usize = 16;

/// How play ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The scheduler was done (or the SPRT decided, or a failure stopped it).
    Done,
    /// A stop request: no new games, the games in flight finished.
    Stopped,
    /// A second stop request: the games in flight were abandoned.
    Abandoned,
}

/// What the pool needs besides the scheduler and the collector.
pub struct Pool<'a> {
    /// The tournament, shared with the game threads.
    pub tournament: Arc<Tournament>,
    /// Most threads that play games.
    pub threads: usize,
    /// Games handed out ahead to each game thread beyond the one it plays
    /// ([`QUEUED`] for a run of one machine): a game thread that ends a game
    /// finds the next one waiting instead of sleeping until the main thread
    /// has taken its answer. Games waiting are not started: a stop, a
    /// failure or an SPRT decision takes them back.
    pub queued: usize,
    /// Stop requests, and the grace after a SIGTERM.
    pub stop: Option<Stops>,
    /// How players are built.
    pub build: Arc<BuildPlayer>,
    /// The folder of external engines' transcripts.
    pub logs: PathBuf,
    /// Set when the folder held this run and no `--resume` was given: the
    /// games played, the total and the folder; any game left to play is
    /// then an error.
    pub must_be_finished: Option<(u64, u64, &'a Path)>,
}

impl Pool<'_> {
    /// Plays the scheduler's games on up to `threads` threads, keeping every
    /// game thread busy: a new game is asked for each time a result comes back,
    /// and none once the run has failed, its SPRT has decided, a stop was
    /// requested or the scheduler is done. Games of a resumed journal are
    /// skipped. Every engine process of the run has ended when this returns.
    ///
    /// # Errors
    /// An unfinished run that may not continue (no `--resume`), or a
    /// scheduler that waits for results while no game is in flight.
    pub fn play(
        &self,
        scheduler: &mut dyn Scheduler,
        collector: &mut Collector<'_>,
    ) -> Result<Ended> {
        let engines = EndAll(Engines::default());
        self.play_with(scheduler, collector, &engines.0)
    }

    fn play_with(
        &self,
        scheduler: &mut dyn Scheduler,
        collector: &mut Collector<'_>,
        engines: &Engines,
    ) -> Result<Ended> {
        let resumed: HashSet<u64> = collector.games().iter().map(|g| g.game_id).collect();
        // Games handed out at once: one playing on each game thread, and
        // `queued` waiting for each.
        let ahead = self.threads * (1 + self.queued);
        let (job_tx, job_rx) = bounded::<Pairing>(ahead);
        let (res_tx, res_rx) = unbounded::<Message>();
        let (spare_tx, spare_rx) = unbounded::<Room>();
        // Dropped when this returns: the stop forwarder then ends.
        let (_running, done) = bounded::<()>(0);
        if let Some(stop) = &self.stop {
            forward_stops(stop.requests.clone(), res_tx.clone(), done);
        }
        let grace = self.stop.as_ref().map_or(Duration::ZERO, |s| s.grace);
        let (mut spawned, mut in_flight) = (0usize, 0usize);
        let (mut done, mut stopping) = (false, false);
        // After a SIGTERM: when the games in flight are abandoned.
        let mut abandon_at: Option<Instant> = None;
        // When the scheduler asked to be asked again.
        let mut ask_at: Option<Instant> = None;
        // A message read while taking the answers that were waiting.
        let mut next: Option<Message> = None;
        loop {
            while in_flight < ahead
                && !done
                && !stopping
                && !collector.failed()
                && !collector.decided()
            {
                match next_game(scheduler, collector, &resumed) {
                    Next::Play(p) => {
                        self.refuse_unfinished()?;
                        if spawned < self.threads && spawned <= in_flight {
                            self.start_thread(spawned, (&job_rx, &spare_rx), &res_tx, engines);
                            spawned += 1;
                        }
                        job_tx.send(p).expect("game threads hold the job channel");
                        in_flight += 1;
                    }
                    Next::Wait => break,
                    Next::Later(wait) => {
                        ask_at = Some(Instant::now() + wait);
                        break;
                    }
                    Next::Done => done = true,
                }
            }
            let waiting = ask_at.is_some() && !done && !stopping && !collector.failed();
            if in_flight == 0 && !waiting {
                break;
            }
            let message = next
                .take()
                .or_else(|| next_message(&res_rx, collector, abandon_at, ask_at.take()));
            match message {
                None => return Ok(abandon(&job_rx)),
                Some(Message::Ask) => collector.poll(),
                Some(Message::Game(answer)) => {
                    let ended;
                    (ended, next) = take_answers(answer, &res_rx, (&job_rx, &spare_tx), collector);
                    in_flight -= ended;
                }
                Some(Message::Stop(_)) if stopping => return Ok(abandon(&job_rx)),
                Some(Message::Stop(request)) => {
                    stopping = true;
                    in_flight -= withdraw(&job_rx);
                    let terminate = request == StopRequest::Terminate;
                    abandon_at = terminate.then(|| Instant::now() + grace);
                    collector.stop_requested(in_flight, terminate.then_some(grace));
                }
            }
        }
        how_ended(stopping, done, collector)
    }

    /// Starts game thread `index`, which takes its jobs and the rooms of
    /// journalled records from `jobs` and answers on `answers`; its engine
    /// processes join `engines`.
    fn start_thread(
        &self,
        index: usize,
        jobs: (&Receiver<Pairing>, &Receiver<Room>),
        answers: &Sender<Message>,
        engines: &Engines,
    ) {
        let (t, build) = (Arc::clone(&self.tournament), Arc::clone(&self.build));
        let (jobs, spares, answers) = (jobs.0.clone(), jobs.1.clone(), answers.clone());
        let logs = (self.logs.clone(), index, engines.clone());
        std::thread::spawn(move || {
            let send = |answer| answers.send(Message::Game(answer)).is_ok();
            game_thread::serve(&t, &build, (&jobs, &spares), send, logs);
        });
    }

    /// The error of a run that was shown, not resumed, and has games left.
    fn refuse_unfinished(&self) -> Result<()> {
        match self.must_be_finished {
            None => Ok(()),
            Some((played, total, out)) => Err(Error::Run(
                Wording::text(format!(
                    "{} holds an unfinished run of this config ({played} of {total} games played): continue it with ",
                    out.display()
                ))
                .setting("resume")
                .then(", or start afresh with ")
                .setting("overwrite"),
            )),
        }
    }
}

/// A game thread's answer: a game's record, or the message of a game that failed.
type ThreadAnswer = std::result::Result<GameRecord, String>;

/// What the main thread waits for, on one channel: a game thread's answer, or a
/// stop request (forwarded by [`forward_stops`]). One channel keeps the wait
/// a plain `recv`: games of random movers last microseconds, and a wait on
/// several channels costs more than the game. (The record travels by
/// value, as it always did: a stop request is rare, so the size of the
/// small variant does not matter.)
#[allow(clippy::large_enum_variant)]
enum Message {
    /// A game thread's answer.
    Game(ThreadAnswer),
    /// Ctrl-C or SIGTERM.
    Stop(StopRequest),
    /// The time the scheduler asked to be asked again has come.
    Ask,
}

/// Ends every engine process of the run when dropped: when the pool
/// returns, however it returns.
struct EndAll(Engines);

impl Drop for EndAll {
    fn drop(&mut self) {
        self.0.end_all(QUIT_GRACE);
    }
}

/// The next message, waited for until the journal's sync is due (then
/// synced, and waited for again), the scheduler is to be asked again
/// (`ask_at`: then [`Message::Ask`]) or the games in flight are to be
/// abandoned (`abandon_at`, after a SIGTERM: then `None`).
fn next_message(
    messages: &Receiver<Message>,
    collector: &mut Collector<'_>,
    abandon_at: Option<Instant>,
    ask_at: Option<Instant>,
) -> Option<Message> {
    loop {
        let until = |at: Option<Instant>| at.map(|at| at.saturating_duration_since(Instant::now()));
        let deadline = earliest(until(abandon_at), until(ask_at));
        let Some(wait) = earliest(collector.sync_due(), deadline) else {
            return Some(messages.recv().expect("the pool holds a sender"));
        };
        match messages.recv_timeout(wait) {
            Ok(m) => return Some(m),
            Err(_) if abandon_at.is_some_and(|at| Instant::now() >= at) => return None,
            Err(_) if ask_at.is_some_and(|at| Instant::now() >= at) => return Some(Message::Ask),
            Err(_) => collector.sync(),
        }
    }
}

/// Moves the game threads' answers already waiting into `answers`; the first
/// other message, if one comes, is returned.
fn take_waiting(messages: &Receiver<Message>, answers: &mut Vec<ThreadAnswer>) -> Option<Message> {
    while let Ok(m) = messages.try_recv() {
        match m {
            Message::Game(answer) => answers.push(answer),
            other => return Some(other),
        }
    }
    None
}

/// How play ended, once no game is in flight: stopped, done, or a
/// scheduler that waits for results that cannot come.
fn how_ended(stopping: bool, done: bool, collector: &Collector<'_>) -> Result<Ended> {
    if stopping {
        Ok(Ended::Stopped)
    } else if done || collector.failed() || collector.decided() {
        Ok(Ended::Done)
    } else {
        Err(Error::Internal(
            "the scheduler waits for results but no game is in flight".into(),
        ))
    }
}

/// Takes `answer`, and the answers waiting after it, to the collector (one
/// journal write for them all), each record with per-move vectors of its
/// exact length made here and its game thread's given back on `jobs.1` (see
/// [`Room`]); after a failure or an SPRT decision, takes back the games no
/// game thread has started from `jobs.0`. Returns how many games are no longer
/// in flight, and the first other message read meanwhile.
fn take_answers(
    answer: ThreadAnswer,
    messages: &Receiver<Message>,
    (jobs, spares): (&Receiver<Pairing>, &Sender<Room>),
    collector: &mut Collector<'_>,
) -> (usize, Option<Message>) {
    let mut answers = vec![answer];
    let next = take_waiting(messages, &mut answers);
    for rec in answers.iter_mut().flatten() {
        // The game threads hold the receiver while they play.
        let _ = spares.send(Room::take_from(rec));
    }
    let mut ended = answers.len();
    collector.take_all(answers);
    if collector.failed() || collector.decided() {
        ended += withdraw(jobs);
    }
    (ended, next)
}

/// Takes back the games handed out that no game thread has started; how many.
fn withdraw(jobs: &Receiver<Pairing>) -> usize {
    jobs.try_iter().count()
}

/// The games in flight are abandoned: the games no game thread has started are
/// taken back, so a game thread ends with the game it plays.
fn abandon(jobs: &Receiver<Pairing>) -> Ended {
    withdraw(jobs);
    Ended::Abandoned
}

/// The sooner of two waits.
fn earliest(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Forwards stop requests to the main thread's channel until the run ends
/// (`done` disconnects) or no more requests can come.
fn forward_stops(stop: Receiver<StopRequest>, to: Sender<Message>, done: Receiver<()>) {
    std::thread::spawn(move || loop {
        select! {
            recv(stop) -> request => {
                let Ok(request) = request else { return };
                if to.send(Message::Stop(request)).is_err() {
                    return;
                }
            }
            recv(done) -> _ => return,
        }
    });
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
            writers: collector.writers(),
            sprt_decided: collector.decided(),
        };
        match scheduler.next(&finished) {
            Next::Play(p) if resumed.contains(&p.game_id) => continue,
            other => return other,
        }
    }
}
