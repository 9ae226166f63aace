//! A player on a thread of its own, so the runner's deadline holds even
//! when the player does not return: [`Hosted`] forwards each call to the
//! player's thread and waits for the answer until the clock's deadline.
//! Past it, the move is lost on time and the thread is abandoned (it ends
//! when the stuck call does, and its answer is never read); the next game
//! builds a fresh player on a fresh thread. A panic on the player's thread
//! is that player's failure, with its message.
//!
//! Untimed games (no deadline) need none of this: the runner calls their
//! players directly, which costs nothing per move.

use super::player::{Clock, GameSetup, MoveInfo, Player, PlayerError};
use crate::game::Game;
use crate::util::panic::guard;
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Instant;

/// Builds the hosted player (again, after one was abandoned).
pub type Build<G> = Arc<dyn Fn() -> Box<dyn Player<G>> + Send + Sync>;

enum Request<G: Game> {
    NewGame(GameSetup<G>),
    Choose(G, Clock),
}

enum Answer<M> {
    NewGame(Result<(), PlayerError>),
    Choose(Result<MoveInfo<M>, PlayerError>),
}

/// The player's thread, seen from the caller.
struct Thread<G: Game> {
    requests: Sender<Request<G>>,
    answers: Receiver<Answer<G::Move>>,
}

/// A player whose calls run on its own thread, under the clock's deadline.
pub struct Hosted<G: Game> {
    name: String,
    build: Build<G>,
    thread: Option<Thread<G>>,
}

impl<G: Game> Hosted<G> {
    /// A hosted player named `name`, built by `build` on its first game
    /// (and again after it is abandoned).
    pub fn new(name: &str, build: Build<G>) -> Hosted<G> {
        Hosted {
            name: name.to_string(),
            build,
            thread: None,
        }
    }

    /// Starts the player's thread, building the player on it.
    fn start(&mut self) -> &Thread<G> {
        let (req_tx, req_rx) = bounded::<Request<G>>(1);
        let (ans_tx, ans_rx) = bounded::<Answer<G::Move>>(1);
        let build = Arc::clone(&self.build);
        std::thread::spawn(move || serve(&build, &req_rx, &ans_tx));
        self.thread.insert(Thread {
            requests: req_tx,
            answers: ans_rx,
        })
    }

    /// Sends `request` and waits for the answer until `deadline`.
    fn call(
        &mut self,
        request: Request<G>,
        deadline: Option<Instant>,
    ) -> Result<Answer<G::Move>, PlayerError> {
        let start = Instant::now();
        if self.thread.is_none() {
            self.start();
        }
        let thread = self.thread.as_ref().expect("started above");
        if thread.requests.send(request).is_err() {
            self.thread = None;
            return Err(PlayerError::Crashed("the player's thread ended".into()));
        }
        let answer = match deadline {
            Some(d) => thread.answers.recv_deadline(d).map_err(|e| match e {
                RecvTimeoutError::Timeout => PlayerError::Timeout(start.elapsed()),
                RecvTimeoutError::Disconnected => {
                    PlayerError::Crashed("the player's thread ended".into())
                }
            }),
            None => thread
                .answers
                .recv()
                .map_err(|_| PlayerError::Crashed("the player's thread ended".into())),
        };
        if answer.is_err() {
            // Abandon the thread: a stuck call keeps it busy, and its late
            // answer must never be read as the answer to a later request.
            self.thread = None;
        }
        answer
    }
}

impl<G: Game> Hosted<G> {
    /// A player that failed (or panicked) is not trusted again: the next
    /// game starts a fresh one.
    fn drop_on_error<T>(&mut self, result: Result<T, PlayerError>) -> Result<T, PlayerError> {
        if result.is_err() {
            self.thread = None;
        }
        result
    }
}

/// The player's thread: builds the player, then answers requests until the
/// caller is gone. Panics become the player's errors.
fn serve<G: Game>(
    build: &Build<G>,
    requests: &Receiver<Request<G>>,
    answers: &Sender<Answer<G::Move>>,
) {
    let mut player = match guard(|| build()) {
        Ok(p) => Some(p),
        Err(msg) => {
            let msg = format!("could not be built: {msg}");
            let _ = answers.send(Answer::NewGame(Err(PlayerError::Crashed(msg))));
            None
        }
    };
    for request in requests.iter() {
        let Some(p) = player.as_mut() else { return };
        let answer = match request {
            Request::NewGame(setup) => Answer::NewGame(
                guard(|| p.new_game(&setup)).unwrap_or_else(|m| Err(PlayerError::Crashed(m))),
            ),
            Request::Choose(pos, clock) => Answer::Choose(
                guard(|| p.choose(&pos, &clock)).unwrap_or_else(|m| Err(PlayerError::Crashed(m))),
            ),
        };
        if answers.send(answer).is_err() {
            return;
        }
    }
}

impl<G: Game> Player<G> for Hosted<G> {
    fn name(&self) -> &str {
        &self.name
    }

    /// Starts a fresh thread and player when the last one was abandoned;
    /// a new game has no deadline but the clock's whole time.
    fn new_game(&mut self, setup: &GameSetup<G>) -> Result<(), PlayerError> {
        let deadline = setup.clock.map(|c| Instant::now() + c.remaining);
        let result = match self.call(Request::NewGame(setup.clone()), deadline)? {
            Answer::NewGame(r) => r,
            Answer::Choose(_) => Err(PlayerError::Protocol("a move instead of ready".into())),
        };
        self.drop_on_error(result)
    }

    fn choose(&mut self, pos: &G, clock: &Clock) -> Result<MoveInfo<G::Move>, PlayerError> {
        let result = match self.call(Request::Choose(pos.clone(), *clock), clock.deadline)? {
            Answer::Choose(r) => r,
            Answer::NewGame(Err(e)) => Err(e),
            Answer::NewGame(Ok(())) => Err(PlayerError::Protocol("ready instead of a move".into())),
        };
        self.drop_on_error(result)
    }
}
