//! A game thread's side of a tournament game: its players (one per engine, built
//! on first use, reset before every game, at most
//! [`KEPT_PLAYERS`] kept), the opening set up, the game played by
//! [`play`](super::play::play), and the result turned into a
//! [`GameRecord`].

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::adjudicate::Judge;
use super::play::{play_into, Adjudicator, Ending, Forfeit, Played};
use crate::engine::external::reaper::Engines;
use crate::engine::external::InRun;
use crate::engine::hosted::{Build, Hosted};
use crate::engine::{EngineSpec, GameSetup, Player};
use crate::game::othello::{board_string, Board, Move};
use crate::game::tictactoe::TicTacToe;
use crate::game::{Game, GameKind};
use crate::records::game::points_for;
use crate::records::game::TunePlayed;
use crate::records::GameRecord;
use crate::search::limits::ClockState;
use crate::search::Limit;
use crate::tournament::config::Tournament;
use crate::tournament::memory::KEPT_PLAYERS;
use crate::tournament::schedule::Pairing;
use crate::util::panic::guard;
use crossbeam_channel::Receiver;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The seed of game `game_id` in a tournament seeded `seed`, for the engine
/// playing `colour` (0 black, 1 white): SplitMix64's finaliser over the three.
pub fn game_seed(seed: u64, game_id: u64, colour: u64) -> u64 {
    crate::rng::mix(
        seed.wrapping_add(game_id.wrapping_mul(crate::rng::GOLDEN))
            .wrapping_add(colour.wrapping_mul(0xD1B5_4A32_D192_ED03)),
    )
}

/// How a game thread builds an engine's player: [`EngineSpec::player`] in a real run;
/// tests plug in players of their own (misbehaving ones, say).
pub type BuildPlayer = dyn Fn(&EngineSpec) -> Box<dyn Player<Board>> + Send + Sync;

/// A [`BuildPlayer`] to hand to a run ([`RunOptions::players`](super::prepare::RunOptions)).
#[derive(Clone)]
pub struct PlayerFactory(pub Arc<BuildPlayer>);

impl Default for PlayerFactory {
    /// The players engine files describe.
    fn default() -> PlayerFactory {
        PlayerFactory(Arc::new(|spec: &EngineSpec| spec.player()))
    }
}

impl std::fmt::Debug for PlayerFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlayerFactory")
    }
}

/// A game thread's players: each engine's, built on first use and reset by
/// [`Player::new_game`] before every game, so a game depends only on its
/// inputs, never on what the game thread played before. So keeping a
/// player is only a cache: at most [`KEPT_PLAYERS`] are kept, the one used
/// least recently dropped before another is built, and a run of thousands
/// of engines holds the tables of a few on each game thread. An engine whose games
/// have a clock is [`Hosted`] on a thread of its own, so its deadline holds
/// even if it hangs. A player that panics while being built forfeits. An
/// external engine's player (a process, which keeps its own deadlines)
/// writes its transcript to `logs/ENGINE-THREAD.log`.
pub struct Players<'t> {
    tournament: &'t Tournament,
    build: Arc<BuildPlayer>,
    built: Vec<Option<Box<dyn Player<Board>>>>,
    /// The engines whose players are built, the one used least recently
    /// first.
    kept: Vec<usize>,
    /// In a tune, the values each built player plays with: a player is
    /// used again only for a game of the same values.
    values: Vec<Vec<f64>>,
    /// The players of a tic-tac-toe tournament.
    tictactoe: Vec<Option<Box<dyn Player<TicTacToe>>>>,
    /// The game thread's adjudicator.
    adjudicator: Judge,
    /// The transcripts' folder, this game thread's index and the run's engine
    /// processes.
    logs: Logs,
    /// The vectors this game thread plays its games into, kept from game to
    /// game (a record takes the per-move ones, see [`Room`]).
    rooms: Rooms,
    /// Per-move vectors of records the main thread has journalled, given
    /// back to be played into again.
    spares: Receiver<Room>,
}

/// A record's per-move vectors with room for a whole game: a game thread plays
/// a game into them and sends them in its record; the main thread gives
/// the record copies of their exact length (memory of the main thread,
/// whose heap grows in large steps, where a game thread's grows a page at a
/// time with a system call) and sends them back for the next game. So a
/// run's memory grows by what its games hold, not by room, and a game thread
/// allocates nothing for its games' moves.
#[derive(Default)]
pub struct Room {
    nodes: Vec<Option<u64>>,
    times_ms: Vec<f64>,
    depths: Vec<Option<u32>>,
    scores: Vec<Option<i32>>,
}

impl Room {
    /// Gives `rec` copies of its per-move vectors at their exact length,
    /// made by the calling thread, and returns the vectors it had.
    pub fn take_from(rec: &mut GameRecord) -> Room {
        fn exact<T: Clone>(v: &mut Vec<T>) -> Vec<T> {
            let copy = v.clone();
            std::mem::replace(v, copy)
        }
        Room {
            nodes: exact(&mut rec.nodes),
            times_ms: exact(&mut rec.times_ms),
            depths: exact(&mut rec.depths),
            scores: exact(&mut rec.scores),
        }
    }
}

/// A game thread's [`Played`] of each game.
#[derive(Default)]
struct Rooms {
    othello: Played<Board>,
    tictactoe: Played<TicTacToe>,
}

/// Where a game thread's external engines write their transcripts (the folder
/// and the game thread's index), and the run's engine processes they join.
pub type Logs = (PathBuf, usize, Engines);

impl<'t> Players<'t> {
    /// No players built yet; `build` makes them, external ones log to
    /// `logs.0` as game thread `logs.1`, their processes among `logs.2`; games
    /// are played into the [`Room`]s that come back on `spares`, when some
    /// do.
    pub fn new(
        tournament: &'t Tournament,
        build: Arc<BuildPlayer>,
        logs: Logs,
        spares: Receiver<Room>,
    ) -> Players<'t> {
        Players {
            tournament,
            build,
            built: (0..tournament.engines.len()).map(|_| None).collect(),
            kept: Vec::with_capacity(KEPT_PLAYERS + 1),
            values: vec![Vec::new(); tournament.engines.len()],
            tictactoe: (0..tournament.engines.len()).map(|_| None).collect(),
            adjudicator: Judge::new(tournament.adjudicate),
            logs,
            rooms: Rooms::default(),
            spares,
        }
    }

    /// Gives `played` the vectors of a [`Room`] that came back, when its
    /// own went with the last record and one did.
    fn refill<G: Game>(&self, played: &mut Played<G>) {
        if played.nodes.capacity() > 0 {
            return;
        }
        if let Ok(room) = self.spares.try_recv() {
            played.nodes = room.nodes;
            played.times_ms = room.times_ms;
            played.depths = room.depths;
            played.scores = room.scores;
        }
    }

    /// Builds engine `i`'s player of `G` for game `p` if it is not built
    /// yet, or was built with other values than a tune's game plays: on a
    /// thread of its own when its games have a clock, unless it is a
    /// process (which keeps its own deadlines).
    ///
    /// # Errors
    /// The message of a panic while building it, or what the engine's
    /// checks say of a tune's values.
    fn ensure<G: TournamentGame>(&mut self, i: usize, p: &Pairing) -> Result<(), String> {
        let wanted = p.tune.as_ref().map(|s| &s.values[i]);
        let same = wanted.is_none_or(|v| *v == self.values[i]);
        self.used(i);
        if G::seats(self)[i].is_some() && same {
            return Ok(());
        }
        // The one built before goes first (a process ends), and the one
        // used least recently when too many are kept.
        G::seats(self)[i] = None;
        self.make_room::<G>([p.black, p.white]);
        let tuned = match (self.tournament.plan.tune(), wanted) {
            (Some(tune), Some(values)) => Some(tune.engine(i, values)?),
            _ => None,
        };
        let spec = tuned.as_ref().unwrap_or(&self.tournament.engines[i]);
        let (clock, move_time) = time_of(spec);
        let player = match G::builder(self, spec) {
            Builder::Process(player) => player,
            Builder::InProcess(build) if clock.is_some() || move_time.is_some() => {
                Box::new(Hosted::new(spec.name(), build))
            }
            Builder::InProcess(build) => guard(|| build())?,
        };
        G::seats(self)[i] = Some(player);
        self.values[i] = wanted.cloned().unwrap_or_default();
        Ok(())
    }

    /// Notes that engine `i`'s player is wanted now: it is kept longest.
    fn used(&mut self, i: usize) {
        self.kept.retain(|&k| k != i);
        self.kept.push(i);
    }

    /// Drops the players used least recently while more than
    /// [`KEPT_PLAYERS`] are kept, never one of `playing` (the game's).
    fn make_room<G: TournamentGame>(&mut self, playing: [usize; 2]) {
        while self.kept.len() > KEPT_PLAYERS {
            let Some(at) = self.kept.iter().position(|k| !playing.contains(k)) else {
                return;
            };
            let gone = self.kept.remove(at);
            G::seats(self)[gone] = None;
            self.values[gone] = Vec::new();
        }
    }
}

/// How a game thread builds an engine's player of one game.
pub enum Builder<G: Game> {
    /// A process, built already (it starts with its first game).
    Process(Box<dyn Player<G>>),
    /// An in-process player, built by this (on the hosting thread when
    /// its games have a clock).
    InProcess(Build<G>),
}

/// What the game thread's one game loop ([`play_game`]) needs to know of a
/// game: where a game starts, how its moves are written, its players and
/// its adjudication.
pub trait TournamentGame: Game {
    /// The score a forfeit gives the winner (the game's largest).
    const FORFEIT_SCORE: i32;

    /// Where game `p` of `t` starts: the position after the opening, the
    /// opening's moves, and the start written out when it is not reached by
    /// moves from the usual one.
    fn opening(t: &Tournament, p: &Pairing) -> (Self, Vec<Self::Move>, Option<String>);

    /// A game's moves as the journal writes them: the opening's, then
    /// the game's.
    fn transcript(opening: &[Self::Move], moves: &[Self::Move]) -> String;

    /// The game thread's [`Played`] of this game.
    fn room<'a>(players: &'a mut Players<'_>) -> &'a mut Played<Self>;

    /// The game thread's players of this game, one slot per engine.
    fn seats<'a>(players: &'a mut Players<'_>) -> &'a mut [Option<Box<dyn Player<Self>>>];

    /// How the player of `spec` (an engine of the run) is built.
    fn builder(players: &Players<'_>, spec: &EngineSpec) -> Builder<Self>;

    /// The two players of a game, black first (both built), and the
    /// adjudicator when the tournament adjudicates.
    fn pair<'a>(
        players: &'a mut Players<'_>,
        black: usize,
        white: usize,
    ) -> (
        [&'a mut dyn Player<Self>; 2],
        Option<&'a mut dyn Adjudicator<Self>>,
    );
}

impl TournamentGame for Board {
    const FORFEIT_SCORE: i32 = 64;

    fn opening(t: &Tournament, p: &Pairing) -> (Board, Vec<Move>, Option<String>) {
        let opening = &t.book.openings[p.opening_id];
        let start = opening
            .moves
            .is_none()
            .then(|| board_string(&opening.board));
        let moves = opening.moves.clone().unwrap_or_default();
        (opening.board, moves, start)
    }

    /// [`move_list_string`](crate::game::othello::notation::move_list_string)'s text, written without the formatter: the
    /// runner writes one a game.
    fn transcript(opening: &[Move], moves: &[Move]) -> String {
        let mut s = String::with_capacity(2 * (opening.len() + moves.len()));
        for mv in opening.iter().chain(moves) {
            match mv.to_square() {
                Some(sq) => {
                    s.push(char::from(b'a' + sq.column()));
                    s.push(char::from(b'1' + sq.row()));
                }
                None => s.push_str("pa"),
            }
        }
        s
    }

    fn seats<'a>(players: &'a mut Players<'_>) -> &'a mut [Option<Box<dyn Player<Board>>>] {
        &mut players.built
    }

    fn room<'a>(players: &'a mut Players<'_>) -> &'a mut Played<Board> {
        &mut players.rooms.othello
    }

    /// An external engine's process logs to its transcript; any other
    /// player comes from the run's factory.
    fn builder(players: &Players<'_>, spec: &EngineSpec) -> Builder<Board> {
        if let EngineSpec::External(_) = spec {
            let (logs, thread, engines) = &players.logs;
            return Builder::Process(spec.player_in(Some(InRun {
                logs,
                thread: *thread,
                engines,
            })));
        }
        let (build, spec) = (Arc::clone(&players.build), spec.clone());
        Builder::InProcess(Arc::new(move || build(&spec)))
    }

    fn pair<'a>(
        players: &'a mut Players<'_>,
        black: usize,
        white: usize,
    ) -> (
        [&'a mut dyn Player<Board>; 2],
        Option<&'a mut dyn Adjudicator<Board>>,
    ) {
        let engines = &players.tournament.engines;
        let names = [engines[black].name(), engines[white].name()];
        let adjudicator = players
            .adjudicator
            .for_game(names)
            .map(|a| a as &mut dyn Adjudicator<Board>);
        (pair_of(&mut players.built, black, white), adjudicator)
    }
}

impl TournamentGame for TicTacToe {
    const FORFEIT_SCORE: i32 = 10;

    fn opening(_: &Tournament, _: &Pairing) -> (TicTacToe, Vec<Self::Move>, Option<String>) {
        (TicTacToe::new(), Vec::new(), None)
    }

    fn transcript(opening: &[Self::Move], moves: &[Self::Move]) -> String {
        opening
            .iter()
            .chain(moves)
            .map(ToString::to_string)
            .collect()
    }

    fn seats<'a>(players: &'a mut Players<'_>) -> &'a mut [Option<Box<dyn Player<TicTacToe>>>] {
        &mut players.tictactoe
    }

    fn room<'a>(players: &'a mut Players<'_>) -> &'a mut Played<TicTacToe> {
        &mut players.rooms.tictactoe
    }

    fn builder(_: &Players<'_>, spec: &EngineSpec) -> Builder<TicTacToe> {
        let spec = spec.clone();
        Builder::InProcess(Arc::new(move || {
            spec.tictactoe_player()
                .expect("the config checked the game")
        }))
    }

    fn pair<'a>(
        players: &'a mut Players<'_>,
        black: usize,
        white: usize,
    ) -> (
        [&'a mut dyn Player<TicTacToe>; 2],
        Option<&'a mut dyn Adjudicator<TicTacToe>>,
    ) {
        (pair_of(&mut players.tictactoe, black, white), None)
    }
}

/// Two distinct built players of `built`, black's first.
fn pair_of<G: Game>(
    built: &mut [Option<Box<dyn Player<G>>>],
    black: usize,
    white: usize,
) -> [&mut dyn Player<G>; 2] {
    {
        let (lo, hi) = built.split_at_mut(black.max(white));
        let (a, b) = (lo[black.min(white)].as_deref_mut(), hi[0].as_deref_mut());
        let (Some(a), Some(b)) = (a, b) else {
            unreachable!("both players were built first")
        };
        if black < white {
            [a, b]
        } else {
            [b, a]
        }
    }
}

/// The clock an engine starts a game with, when its limit is a game clock,
/// and its time per move, when it is `MoveTime`: what the runner enforces.
fn time_of(engine: &EngineSpec) -> (Option<ClockState>, Option<Duration>) {
    match engine.limit() {
        Some(Limit::Clock(base, inc)) => (
            Some(ClockState {
                remaining: Duration::from_millis(base),
                increment: Duration::from_millis(inc),
            }),
            None,
        ),
        Some(Limit::MoveTime(ms)) => (None, Some(Duration::from_millis(ms))),
        Some(Limit::Depth(_) | Limit::Nodes(_)) | None => (None, None),
    }
}

/// Plays the game `p` of tournament `t` with a game thread's `players`.
pub fn play_game(players: &mut Players<'_>, p: &Pairing) -> GameRecord {
    match players.tournament.game {
        GameKind::Othello => play_one::<Board>(players, p),
        GameKind::TicTacToe => play_one::<TicTacToe>(players, p),
    }
}

/// The setups of a game's two sides.
fn setups<G: Game>(
    t: &Tournament,
    p: &Pairing,
    start: G,
    opening: &[G::Move],
) -> [GameSetup<G>; 2] {
    let engines = [&t.engines[p.black], &t.engines[p.white]];
    [0, 1].map(|colour| GameSetup {
        game_id: p.game_id,
        start: start.clone(),
        opening: opening.to_vec(),
        first: colour == 0,
        clock: time_of(engines[colour]).0,
        move_time: time_of(engines[colour]).1,
        seed: game_seed(t.seed, p.game_id, colour as u64),
    })
}

/// A game from the pair's opening, with players built on first use,
/// played into the game thread's room.
fn play_one<G: TournamentGame>(players: &mut Players<'_>, p: &Pairing) -> GameRecord {
    let t = players.tournament;
    let (start, opening, written_start) = G::opening(t, p);
    let setups = setups(t, p, start, &opening);
    // Taken out while the players play (a panic leaves an empty one).
    let mut played = std::mem::take(G::room(players));
    players.refill(&mut played);
    match [p.black, p.white].map(|i| players.ensure::<G>(i, p)) {
        [Ok(()), Ok(())] => {
            let (pair, adjudicator) = G::pair(players, p.black, p.white);
            play_into(pair, setups, adjudicator, &mut played);
        }
        [Err(msg), _] => unbuilt(&mut played, 0, &msg),
        [Ok(()), Err(msg)] => unbuilt(&mut played, 1, &msg),
    }
    let mut rec = record(t, p, &mut played, G::FORFEIT_SCORE);
    rec.start = written_start;
    rec.opening_plies = opening.len();
    rec.moves = G::transcript(&opening, &played.moves);
    *G::room(players) = played;
    rec
}

/// The record of a played game (moves, start and opening filled in by the
/// caller): its result, score and reason; a forfeit scores `forfeit_score`
/// (the game's largest) for the winner.
fn record<G: Game>(
    t: &Tournament,
    p: &Pairing,
    played: &mut Played<G>,
    forfeit_score: i32,
) -> GameRecord {
    let engines = [&t.engines[p.black], &t.engines[p.white]];
    let (result, disc_diff, reason) = match played.ending {
        Ending::Over { first_score } => (points_for(first_score), first_score, "game over".into()),
        Ending::Adjudicated {
            first_score,
            ref how,
        } => (
            points_for(first_score),
            first_score,
            format!("adjudicated: {how}"),
        ),
        Ending::Forfeit { loser, ref why } => {
            let name = engines[loser].name();
            let reason = match why {
                Forfeit::Time { used, allowed } => format!(
                    "time forfeit: {name} (used {:.3} s of {:.3} s)",
                    used.as_secs_f64(),
                    allowed.as_secs_f64()
                ),
                Forfeit::Crash(msg) => format!("crash: {name} ({msg})"),
                Forfeit::Illegal(mv) => format!("illegal move: {name} ({mv})"),
            };
            if loser == 0 {
                (0.0, -forfeit_score, reason)
            } else {
                (1.0, forfeit_score, reason)
            }
        }
    };
    GameRecord {
        pair_id: p.pair_id,
        game_id: p.game_id,
        round: p.round,
        opening_id: p.opening_id,
        black: engines[0].name().to_string(),
        white: engines[1].name().to_string(),
        start: None,
        opening_plies: 0,
        moves: String::new(),
        result,
        disc_diff,
        reason,
        nodes: std::mem::take(&mut played.nodes),
        times_ms: std::mem::take(&mut played.times_ms),
        depths: std::mem::take(&mut played.depths),
        scores: std::mem::take(&mut played.scores),
        tune: p.tune.as_ref().map(|s| TunePlayed {
            iteration: s.iteration,
            black: s.values[p.black].clone(),
            white: s.values[p.white].clone(),
        }),
    }
}

/// The game of a player that could not be built: lost before it started.
fn unbuilt<G: Game>(played: &mut Played<G>, loser: usize, msg: &str) {
    played.clear();
    played.ending = Ending::Forfeit {
        loser,
        why: Forfeit::Crash(format!("could not be built: {msg}")),
    };
}

/// A game thread: plays the games it receives with its own players and
/// sends each record back (or the message of a game that failed outside
/// the players' guard) until the jobs end or the results are not wanted;
/// `logs` is the transcripts' folder, the game thread's index and the run's
/// engine processes; `spares` brings back the [`Room`]s of records
/// journalled. The players (and their processes, which this thread
/// started) are dropped on this thread, before it ends.
pub fn serve(
    t: &Tournament,
    build: &Arc<BuildPlayer>,
    (jobs, spares): (&Receiver<Pairing>, &Receiver<Room>),
    send: impl Fn(std::result::Result<GameRecord, String>) -> bool,
    logs: Logs,
) {
    let mut players = Players::new(t, Arc::clone(build), logs, spares.clone());
    for job in jobs.iter() {
        let rec = guard(|| play_game(&mut players, &job))
            .map_err(|msg| format!("the game thread playing game {} failed: {msg}", job.game_id));
        if !send(rec) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::notation::move_list_string;

    #[test]
    fn a_transcript_is_the_move_list_notation_writes() {
        let mut moves: Vec<Move> = (0..64)
            .map(|i| Move::square(crate::game::othello::Square::new(i)))
            .collect();
        moves.push(Move::PASS);
        assert_eq!(
            <Board as TournamentGame>::transcript(&moves[..8], &moves[8..]),
            move_list_string(&moves)
        );
    }
}
