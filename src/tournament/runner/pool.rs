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

/// Most games handed out ahead to each game thread (see [`Pool::queued`]).
pub const QUEUED: usize = 16;

/// How many games wait for each game thread beyond the one it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queued {
    /// This many (a run of one machine: [`QUEUED`]).
    Games(usize),
    /// As many as take about this long to play at the pace of the games
    /// so far, at most [`QUEUED`] (none before a game has ended): a worker
    /// of a shared run holds the pairs waiting in its queue from the other
    /// workers, so it holds them no longer than this, whether its games
    /// last microseconds (random movers: a full queue, so its threads and
    /// its main thread do not take turns game by game) or seconds (none).
    Play(Duration),
}

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
    /// Games handed out ahead to each game thread beyond the one it plays:
    /// a game thread that ends a game finds the next one waiting instead
    /// of sleeping until the main thread has taken its answer. Games
    /// waiting are not started: a stop, a failure or an SPRT decision
    /// takes them back.
    pub queued: Queued,
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

    /// [`Pool::play`] with the engine processes joining `engines`.
    fn play_with(
        &self,
        scheduler: &mut dyn Scheduler,
        collector: &mut Collector<'_>,
        engines: &Engines,
    ) -> Result<Ended> {
        let resumed: HashSet<u64> = collector.games().iter().map(|g| g.game_id).collect();
        let channels = Channels::new(self.threads * (1 + QUEUED));
        let (jobs, messages) = (&channels.jobs.1, &channels.messages.1);
        // Dropped when this returns: the stop forwarder then ends.
        let (_running, done) = bounded::<()>(0);
        if let Some(stop) = &self.stop {
            forward_stops(stop.requests.clone(), channels.messages.0.clone(), done);
        }
        let grace = self.stop.as_ref().map_or(Duration::ZERO, |s| s.grace);
        let mut flight = Flight::default();
        // A message read while taking the answers that were waiting.
        let mut next: Option<Message> = None;
        loop {
            self.hand_out(
                &mut flight,
                &channels,
                scheduler,
                collector,
                &resumed,
                engines,
            )?;
            if flight.over(collector) {
                break;
            }
            let message = next.take().or_else(|| {
                next_message(messages, collector, flight.abandon_at, flight.ask_at.take())
            });
            match message {
                None => return Ok(abandon(jobs)),
                Some(Message::Ask) => collector.poll(),
                Some(Message::Game(answer)) => {
                    let ended;
                    let spares = &channels.spares.0;
                    (ended, next) = take_answers(answer, messages, (jobs, spares), collector);
                    flight.in_flight -= ended;
                    flight.answered += ended as u64;
                }
                Some(Message::Stop(_)) if flight.stopping => return Ok(abandon(jobs)),
                Some(Message::Stop(request)) => flight.stop(request, grace, jobs, collector),
            }
        }
        how_ended(flight.stopping, flight.done, collector)
    }

    /// Games handed out at once: one playing on each game thread, and
    /// `queued` waiting for each (for [`Queued::Play`], as many as the
    /// pace of the games answered so far allows).
    fn ahead(&self, flight: &Flight) -> usize {
        // Wall time the game threads have had since the first game.
        let busy = flight
            .first_out
            .map_or(0.0, |at| at.elapsed().as_secs_f64() * flight.spawned as f64);
        let waiting = waiting(self.queued, busy, flight.answered);
        self.threads * (1 + waiting)
    }

    /// Hands out the scheduler's games (past those `resumed` holds) until
    /// [`Pool::ahead`] are in flight, starting a game thread for a game the
    /// started ones cannot take (up to `threads`). Stops early when the
    /// scheduler waits, asks to be asked again (noted in `flight.ask_at`) or
    /// is done (noted in `flight.done`), and hands out nothing once the run
    /// has failed, its SPRT has decided or a stop was requested.
    ///
    /// # Errors
    /// A game left to play in a run that may not continue (no `--resume`).
    fn hand_out(
        &self,
        flight: &mut Flight,
        channels: &Channels,
        scheduler: &mut dyn Scheduler,
        collector: &Collector<'_>,
        resumed: &HashSet<u64>,
        engines: &Engines,
    ) -> Result<()> {
        while flight.in_flight < self.ahead(flight)
            && !flight.done
            && !flight.stopping
            && !collector.failed()
            && !collector.decided()
        {
            let ahead = flight.in_flight >= self.threads;
            match next_game(scheduler, collector, resumed, ahead) {
                Next::Play(p) => {
                    self.refuse_unfinished()?;
                    if flight.spawned < self.threads && flight.spawned <= flight.in_flight {
                        self.start_thread(flight.spawned, channels, engines);
                        flight.spawned += 1;
                    }
                    let jobs = &channels.jobs.0;
                    jobs.send(p).expect("game threads hold the job channel");
                    flight.in_flight += 1;
                    flight.first_out.get_or_insert_with(Instant::now);
                }
                Next::Wait => break,
                Next::Later(wait) => {
                    flight.ask_at = Some(Instant::now() + wait);
                    break;
                }
                Next::Done => flight.done = true,
            }
        }
        Ok(())
    }

    /// Starts game thread `index`, which takes its jobs and the rooms of
    /// journalled records from `channels` and answers on them; its engine
    /// processes join `engines`.
    fn start_thread(&self, index: usize, channels: &Channels, engines: &Engines) {
        let (t, build) = (Arc::clone(&self.tournament), Arc::clone(&self.build));
        let jobs = channels.jobs.1.clone();
        let (spares, answers) = (channels.spares.1.clone(), channels.messages.0.clone());
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

/// The channels between the main thread and the game threads, each as its
/// sending and its receiving end.
struct Channels {
    /// Games handed out, taken by the game threads.
    jobs: (Sender<Pairing>, Receiver<Pairing>),
    /// The game threads' answers and the forwarded stop requests, read by
    /// the main thread.
    messages: (Sender<Message>, Receiver<Message>),
    /// The rooms of journalled records, given back to the game threads.
    spares: (Sender<Room>, Receiver<Room>),
}

impl Channels {
    /// The channels of a pool that hands out at most `ahead` games at once.
    fn new(ahead: usize) -> Channels {
        Channels {
            jobs: bounded(ahead),
            messages: unbounded(),
            spares: unbounded(),
        }
    }
}

/// Where play stands, as the main thread keeps it.
#[derive(Default)]
struct Flight {
    /// Game threads started.
    spawned: usize,
    /// Games handed out and neither answered nor taken back.
    in_flight: usize,
    /// When the first game was handed out.
    first_out: Option<Instant>,
    /// Games answered or taken back since.
    answered: u64,
    /// The scheduler is done.
    done: bool,
    /// A stop was requested: no game is handed out any more.
    stopping: bool,
    /// After a SIGTERM: when the games in flight are abandoned.
    abandon_at: Option<Instant>,
    /// When the scheduler asked to be asked again.
    ask_at: Option<Instant>,
}

impl Flight {
    /// Play is over: no game is in flight, and the scheduler is not to be
    /// asked again (it is done, a stop was requested or the run failed).
    fn over(&self, collector: &Collector<'_>) -> bool {
        let waiting = self.ask_at.is_some() && !self.done && !self.stopping && !collector.failed();
        self.in_flight == 0 && !waiting
    }

    /// A first stop request: no game is handed out any more, the games no
    /// game thread has started are taken back from `jobs`, and after a
    /// SIGTERM the games in flight are to be abandoned `grace` from now; the
    /// collector is told.
    fn stop(
        &mut self,
        request: StopRequest,
        grace: Duration,
        jobs: &Receiver<Pairing>,
        collector: &mut Collector<'_>,
    ) {
        self.stopping = true;
        self.in_flight -= withdraw(jobs);
        let terminate = request == StopRequest::Terminate;
        self.abandon_at = terminate.then(|| Instant::now() + grace);
        collector.stop_requested(self.in_flight, terminate.then_some(grace));
    }
}

/// Ends every engine process of the run when dropped: when the pool
/// returns, however it returns.
struct EndAll(Engines);

impl Drop for EndAll {
    fn drop(&mut self) {
        self.0.end_all(QUIT_GRACE);
    }
}

/// Games to queue for each game thread as `queued` says, after `answered`
/// games took `busy` seconds of the game threads' time.
fn waiting(queued: Queued, busy: f64, answered: u64) -> usize {
    match queued {
        Queued::Games(n) => n.min(QUEUED),
        Queued::Play(_) if answered == 0 => 0,
        Queued::Play(hold) => {
            let each = busy / answered as f64;
            ((hold.as_secs_f64() / each.max(1e-9)) as usize).min(QUEUED)
        }
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

/// The scheduler's next answer, past the games a resumed journal holds
/// (`ahead`: it would wait for a game thread).
fn next_game(
    scheduler: &mut dyn Scheduler,
    collector: &Collector<'_>,
    resumed: &HashSet<u64>,
    ahead: bool,
) -> Next {
    loop {
        let finished = Finished {
            games: collector.games(),
            writers: collector.writers(),
            sprt_decided: collector.decided(),
            finished_pairs: collector.followed().map(|t| t.finished),
            live_workers: collector.live_workers(),
            ahead,
        };
        match scheduler.next(&finished) {
            Next::Play(p) if resumed.contains(&p.game_id) => continue,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_queues_as_many_games_as_its_hold_of_play_allows() {
        let hold = Queued::Play(Duration::from_millis(50));
        assert_eq!(waiting(Queued::Games(3), 0.0, 0), 3);
        assert_eq!(waiting(Queued::Games(100), 0.0, 0), QUEUED);
        // No pace yet: none.
        assert_eq!(waiting(hold, 0.0, 0), 0);
        // 10 ms a game: 5 fit in 50 ms; 1 ms: 50, at most QUEUED.
        assert_eq!(waiting(hold, 1.0, 100), 5);
        assert_eq!(waiting(hold, 1.0, 1000), QUEUED);
        // Games of seconds: none.
        assert_eq!(waiting(hold, 10.0, 2), 0);
    }
}
