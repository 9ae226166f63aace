//! One game between two [`Player`]s, for any [`Game`]: the runner tells
//! each player the game starts, asks the side to move for a move under its
//! clock, plays forced passes itself, and ends the game when it is over or
//! when a player fails (a panic, an error, an overrun clock, an illegal
//! move), which loses it the game with the reason recorded.

use crate::engine::{Clock, GameSetup, MoveInfo, Player, PlayerError};
use crate::game::{Game, MoveList};
use crate::search::limits::ClockState;
use crate::util::panic::guard;
use std::time::{Duration, Instant};

/// Why a player lost a game early.
#[derive(Clone, Debug, PartialEq)]
pub enum Forfeit<M> {
    /// Its time ran out: the time it took and the time it had.
    Time {
        /// Time used on the move (or the handshake).
        used: Duration,
        /// Time it had.
        allowed: Duration,
    },
    /// It panicked or failed (the message).
    Crash(String),
    /// It answered a move that is not legal.
    Illegal(M),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending<M> {
    /// Played to the end: the final score from the first player's view.
    Over {
        /// Positive when the first player won (Othello: black's disc
        /// difference, empties to the winner).
        first_score: i32,
    },
    /// Stopped by adjudication (the exact result of perfect play from
    /// there, or a call on the players' reported scores): the final score
    /// from the first player's view.
    Adjudicated {
        /// Positive when the first player wins.
        first_score: i32,
        /// Why, in words (`solved at 18 empties`, `resign: NAME (…)`).
        how: String,
    },
    /// Player `loser` (0 first, 1 second) forfeited.
    Forfeit {
        /// 0 for the first player, 1 for the second.
        loser: usize,
        /// Why.
        why: Forfeit<M>,
    },
}

/// A played game: the moves after the start, what each move cost, and how
/// it ended.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    /// Every move played from the start position, forced passes included.
    pub moves: Vec<G::Move>,
    /// Nodes of each move (0 for forced passes, `None` when its player
    /// did not say).
    pub nodes: Vec<Option<u64>>,
    /// Milliseconds of each move, as the runner timed it (0 for forced
    /// passes), rounded to microseconds.
    pub times_ms: Vec<f64>,
    /// Depth of each move (0 for forced passes, `None` when its player
    /// did not say).
    pub depths: Vec<Option<u32>>,
    /// Score of each move, from the mover's view, in the engine's units
    /// (`None` when it gave none, and for forced passes).
    pub scores: Vec<Option<i32>>,
    /// How it ended.
    pub ending: Ending<G::Move>,
}

/// The time a move under `MoveTime(ms)` may take before it is lost:
/// the engine's `ms`, plus a margin for the engine's own overshoot and the
/// hand-over (10% and 100 ms).
pub fn move_time_allowance(move_time: Duration) -> Duration {
    move_time + move_time / 10 + Duration::from_millis(100)
}

/// The runner's time limits of one side.
#[derive(Clone, Copy)]
struct SideTime {
    clock: Option<ClockState>,
    move_time: Option<Duration>,
}

impl SideTime {
    /// The time the next move may take (`None`: untimed).
    fn allowed(&self) -> Option<Duration> {
        let per_move = self.move_time.map(move_time_allowance);
        match (self.clock.map(|c| c.remaining), per_move) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Ends a game early, before the side to move is asked for a move.
pub trait Adjudicator<G: Game> {
    /// The first player's final score when this adjudicator ends the game
    /// at `pos`, with the reason in words: `moves` were played from the
    /// game's start (after its opening), each with the score its player
    /// reported (`scores`, `None` for forced passes and moves without one).
    fn adjudicate(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        scores: &[Option<i32>],
    ) -> Option<(i32, String)>;
}

/// The moves a game's record has room for from the start (Othello's 60 and
/// a few passes).
const PLIES: usize = 64;

impl<G: Game> Default for Played<G> {
    /// No moves, and no room for any yet.
    fn default() -> Self {
        Played {
            moves: Vec::new(),
            nodes: Vec::new(),
            times_ms: Vec::new(),
            depths: Vec::new(),
            scores: Vec::new(),
            ending: Ending::Over { first_score: 0 },
        }
    }
}

impl<G: Game> Played<G> {
    /// No moves, ended as a draw; the vectors keep their room, and have
    /// room for a whole game of Othello at least (no growing move by move).
    pub fn clear(&mut self) {
        self.moves.clear();
        self.nodes.clear();
        self.times_ms.clear();
        self.depths.clear();
        self.scores.clear();
        self.moves.reserve(PLIES);
        self.nodes.reserve(PLIES);
        self.times_ms.reserve(PLIES);
        self.depths.reserve(PLIES);
        self.scores.reserve(PLIES);
        self.ending = Ending::Over { first_score: 0 };
    }
}

/// Plays a game from `setups[0].start` between `players[0]` (moving first)
/// and `players[1]`, each with the clock and time per move of its setup,
/// ended early by `adjudicator` when it says so.
pub fn play<G: Game>(
    players: [&mut dyn Player<G>; 2],
    setups: [GameSetup<G>; 2],
    adjudicator: Option<&mut dyn Adjudicator<G>>,
) -> Played<G> {
    let mut played = Played::default();
    play_into(players, setups, adjudicator, &mut played);
    played
}

/// [`play`] into `played`, cleared first: a game thread plays every game into
/// the same vectors, which keep their room from game to game.
pub fn play_into<G: Game>(
    players: [&mut dyn Player<G>; 2],
    setups: [GameSetup<G>; 2],
    mut adjudicator: Option<&mut dyn Adjudicator<G>>,
    played: &mut Played<G>,
) {
    let [first, second] = players;
    let mut players = [first, second];
    let mut times = [0, 1].map(|i| SideTime {
        clock: setups[i].clock,
        move_time: setups[i].move_time,
    });
    played.clear();
    // One clock read a step: the instant a player's answer came is when
    // the next step's time starts (the runner's own work between them, a
    // move played and the next one's moves generated, is charged to the
    // next mover: nanoseconds, where a read costs tens of them).
    let mut now = Instant::now();
    if let Err((loser, why)) = start_game(&mut players, &setups, &times, &mut now) {
        played.ending = Ending::Forfeit { loser, why };
        return;
    }
    let mut pos = setups[0].start.clone();
    let mut moves = MoveList::new();
    while !pos.is_over() {
        if let Some(a) = adjudicator.as_mut() {
            if let Some((first_score, how)) = a.adjudicate(&pos, &played.moves, &played.scores) {
                played.ending = Ending::Adjudicated { first_score, how };
                return;
            }
            // The adjudicator's time (a solve, say) is not the mover's.
            now = Instant::now();
        }
        let side = usize::from(!pos.first_player_to_move());
        moves.clear();
        pos.generate_moves(&mut moves);
        let (info, elapsed) = if moves.len() == 1 && G::pass_move() == Some(moves.get(0)) {
            (MoveInfo::bare(moves.get(0), Duration::ZERO), Duration::ZERO)
        } else {
            match ask(
                &mut *players[side],
                &pos,
                &moves,
                &mut times[side],
                &mut now,
            ) {
                Ok(answer) => answer,
                Err(why) => {
                    played.ending = Ending::Forfeit { loser: side, why };
                    return;
                }
            }
        };
        pos = pos.play(info.mv);
        played.record(&info, elapsed);
    }
    let score = pos.final_score();
    let first_score = if pos.first_player_to_move() {
        score
    } else {
        -score
    };
    played.ending = Ending::Over { first_score };
}

/// Tells both players, the first one first, that the game of its setup
/// begins, each one's time counted from `now` (which becomes the instant
/// the last one answered). The first to fail forfeits: its side and why.
fn start_game<G: Game>(
    players: &mut [&mut dyn Player<G>; 2],
    setups: &[GameSetup<G>; 2],
    times: &[SideTime; 2],
    now: &mut Instant,
) -> Result<(), (usize, Forfeit<G::Move>)> {
    for side in 0..2 {
        let start = *now;
        let started = guarded(|| players[side].new_game(&setups[side]));
        *now = Instant::now();
        if let Err(why) = started {
            return Err((side, timed(why, *now - start, times[side].allowed())));
        }
    }
    Ok(())
}

/// A move as a player gave it, and the time it took.
type Answer<M> = (MoveInfo<M>, Duration);

/// Asks `player` for a move in `pos` (whose legal moves are `moves`) under
/// its time, which started at `now`, then charges its clock: the move and
/// the time it took, or why it loses (an error, a panic, the time, an
/// illegal move). `now` becomes the instant the answer came.
fn ask<G: Game>(
    player: &mut dyn Player<G>,
    pos: &G,
    moves: &MoveList<G::Move>,
    time: &mut SideTime,
    now: &mut Instant,
) -> Result<Answer<G::Move>, Forfeit<G::Move>> {
    let allowed = time.allowed();
    let start = *now;
    let clock = Clock {
        game: time.clock,
        deadline: allowed.map(|a| start + a),
        started: Some(start),
    };
    let answer = guarded(|| player.choose(pos, &clock));
    *now = Instant::now();
    let elapsed = *now - start;
    let info = answer.map_err(|why| timed(why, elapsed, allowed))?;
    if let Some(a) = allowed.filter(|&a| elapsed > a) {
        return Err(Forfeit::Time {
            used: elapsed,
            allowed: a,
        });
    }
    if let Some(c) = &mut time.clock {
        c.remaining = c.remaining - elapsed + c.increment;
    }
    if !moves.iter().any(|m| m == info.mv) {
        return Err(Forfeit::Illegal(info.mv));
    }
    Ok((info, elapsed))
}

impl<G: Game> Played<G> {
    /// A move played, with what its player reported and the time the
    /// runner measured.
    fn record(&mut self, info: &MoveInfo<G::Move>, elapsed: Duration) {
        self.moves.push(info.mv);
        self.nodes.push(info.nodes);
        self.times_ms.push(rounded_ms(elapsed));
        self.depths.push(info.depth);
        self.scores.push(info.score);
    }
}

/// `d` in milliseconds, rounded to the microsecond (in integers: no
/// floating-point rounding call a move).
fn rounded_ms(d: Duration) -> f64 {
    let micros = d.as_secs() * 1_000_000 + u64::from((d.subsec_nanos() + 500) / 1000);
    micros as f64 / 1e3
}

/// A time forfeit with the time used and allowed filled in (a player's own
/// timeout knows neither).
fn timed<M>(why: Forfeit<M>, used: Duration, allowed: Option<Duration>) -> Forfeit<M> {
    match why {
        Forfeit::Time { .. } => Forfeit::Time {
            used,
            allowed: allowed.unwrap_or(used),
        },
        other => other,
    }
}

/// Runs a player's call, turning a panic or an error into a forfeit.
fn guarded<T, M>(call: impl FnOnce() -> Result<T, PlayerError>) -> Result<T, Forfeit<M>> {
    match guard(call) {
        Ok(Ok(x)) => Ok(x),
        Ok(Err(PlayerError::Timeout(t))) => Err(Forfeit::Time {
            used: t,
            allowed: t,
        }),
        Ok(Err(PlayerError::Crashed(msg) | PlayerError::Protocol(msg))) => Err(Forfeit::Crash(msg)),
        Err(msg) => Err(Forfeit::Crash(msg)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::RandomPlayer;
    use crate::game::tictactoe::{Cell, TicTacToe};

    /// Plays a fixed list of answers, then fails; or panics when told to.
    struct Scripted {
        answers: Vec<Result<Cell, PlayerError>>,
        panic_at: Option<usize>,
        delay: Duration,
        asked: usize,
    }

    impl Player<TicTacToe> for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }

        fn new_game(&mut self, _: &GameSetup<TicTacToe>) -> Result<(), PlayerError> {
            self.asked = 0;
            Ok(())
        }

        fn choose(&mut self, _: &TicTacToe, _: &Clock) -> Result<MoveInfo<Cell>, PlayerError> {
            let i = self.asked;
            self.asked += 1;
            assert!(self.panic_at != Some(i), "scripted panic");
            std::thread::sleep(self.delay);
            let answer = self.answers.get(i).cloned();
            answer
                .unwrap_or_else(|| Err(PlayerError::Protocol("out of moves".into())))
                .map(|mv| MoveInfo::bare(mv, Duration::ZERO))
        }
    }

    fn scripted(cells: &[u8]) -> Scripted {
        Scripted {
            answers: cells.iter().map(|&c| Ok(Cell(c))).collect(),
            panic_at: None,
            delay: Duration::ZERO,
            asked: 0,
        }
    }

    fn setups(clock: Option<ClockState>) -> [GameSetup<TicTacToe>; 2] {
        [0, 1].map(|side| GameSetup {
            game_id: 0,
            start: TicTacToe::new(),
            opening: Vec::new(),
            first: side == 0,
            clock,
            move_time: None,
            seed: 1,
        })
    }

    #[test]
    fn a_tic_tac_toe_game_through_the_player_seam() {
        // X takes the top row while O plays the middle row.
        let (mut x, mut o) = (scripted(&[0, 1, 2]), scripted(&[3, 4]));
        let p = play::<TicTacToe>([&mut x, &mut o], setups(None), None);
        assert_eq!(p.moves.len(), 5);
        // A win scores 10 minus the plies played (quicker wins score more).
        assert_eq!(p.ending, Ending::Over { first_score: 5 });
        // Random players finish a game too, whoever wins.
        let (mut a, mut b) = (RandomPlayer::new("a", 1), RandomPlayer::new("b", 2));
        let p = play::<TicTacToe>([&mut a, &mut b], setups(None), None);
        assert!((5..=9).contains(&p.moves.len()));
        assert!(matches!(p.ending, Ending::Over { .. }));
    }

    #[test]
    fn a_failing_player_forfeits_with_its_reason() {
        // An occupied cell is illegal.
        let (mut x, mut o) = (scripted(&[0, 1]), scripted(&[0]));
        let p = play::<TicTacToe>([&mut x, &mut o], setups(None), None);
        assert_eq!(
            p.ending,
            Ending::Forfeit {
                loser: 1,
                why: Forfeit::Illegal(Cell(0))
            }
        );
        // A panic is caught and named.
        let (mut x, mut o) = (scripted(&[0, 1]), scripted(&[4]));
        x.panic_at = Some(1);
        let p = play::<TicTacToe>([&mut x, &mut o], setups(None), None);
        assert_eq!(
            p.ending,
            Ending::Forfeit {
                loser: 0,
                why: Forfeit::Crash("scripted panic".into())
            }
        );
        // An error is the player's reason.
        let (mut x, mut o) = (scripted(&[0]), scripted(&[]));
        let p = play::<TicTacToe>([&mut x, &mut o], setups(None), None);
        assert_eq!(
            p.ending,
            Ending::Forfeit {
                loser: 1,
                why: Forfeit::Crash("out of moves".into())
            }
        );
        assert_eq!(p.moves.len(), 1);
    }

    /// Ends every game once two cells are taken, as a draw.
    struct AfterTwo;

    impl Adjudicator<TicTacToe> for AfterTwo {
        fn adjudicate(
            &mut self,
            pos: &TicTacToe,
            _: &[Cell],
            _: &[Option<i32>],
        ) -> Option<(i32, String)> {
            (pos.plies() >= 2).then(|| (0, "two cells".into()))
        }
    }

    #[test]
    fn an_adjudicator_ends_the_game_before_the_next_move() {
        let (mut x, mut o) = (scripted(&[0, 1, 2]), scripted(&[3, 4]));
        let p = play::<TicTacToe>([&mut x, &mut o], setups(None), Some(&mut AfterTwo));
        assert_eq!(p.moves, vec![Cell(0), Cell(3)]);
        assert_eq!(
            p.ending,
            Ending::Adjudicated {
                first_score: 0,
                how: "two cells".into()
            }
        );
    }

    #[test]
    fn a_move_time_is_rounded_to_the_microsecond() {
        assert_eq!(rounded_ms(Duration::from_nanos(1_234_567)), 1.235);
        assert_eq!(rounded_ms(Duration::from_nanos(1_234_499)), 1.234);
        assert_eq!(rounded_ms(Duration::from_nanos(499)), 0.0);
        assert_eq!(rounded_ms(Duration::new(2, 999_999_600)), 3000.0);
    }

    #[test]
    fn an_empty_clock_loses_on_time() {
        let clock = ClockState {
            remaining: Duration::from_millis(1),
            increment: Duration::ZERO,
        };
        let (mut x, mut o) = (scripted(&[0, 1, 2]), scripted(&[3, 4]));
        x.delay = Duration::from_millis(2);
        let p = play::<TicTacToe>([&mut x, &mut o], setups(Some(clock)), None);
        let Ending::Forfeit {
            loser: 0,
            why: Forfeit::Time { used, allowed },
        } = p.ending
        else {
            panic!("{:?}", p.ending)
        };
        assert_eq!(allowed, Duration::from_millis(1));
        assert!(used >= Duration::from_millis(2), "{used:?}");
    }
}
