//! Players: the seam through which a game asks for moves. [`Player`] is
//! generic over the game, fallible, told when a game starts
//! ([`Player::new_game`]) and given the runner's [`Clock`] with each
//! request. The runner owns clocks and deadlines and turns a failing player
//! into a forfeit with its reason. In-process engines ([`RandomPlayer`],
//! [`SearchPlayer`]) implement it here; external processes plug in the same
//! way.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::config::{EngineConfig, EngineKind, SearchEngine};
use crate::endgame::Solver;
use crate::eval::UNITS_PER_DISC;
use crate::eval::{EvalBoard, OthelloEval};
use crate::game::othello::{Board, Move};
use crate::game::{Game, MoveList};
use crate::rng::SplitMix64;
use crate::search::limits::{budget, ClockState};
use crate::search::smp::{self, search_together};
use crate::search::{Limit, SearchOutcome, SearchStats, Searcher, StopReason};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a player is told when a game starts.
#[derive(Clone, Debug)]
pub struct GameSetup<G: Game> {
    /// The game's id in its tournament.
    pub game_id: u64,
    /// The position play starts from (after the opening).
    pub start: G,
    /// The opening's moves, when it was given as moves.
    pub opening: Vec<G::Move>,
    /// True when this player moves first in the game (Othello: black).
    pub first: bool,
    /// This player's clock, in a timed game.
    pub clock: Option<ClockState>,
    /// This player's time per move, under `MoveTime(ms)` (the runner
    /// allows a margin past it, see the tournament's `play`).
    pub move_time: Option<Duration>,
    /// Seed of every random choice this player makes in this game (the
    /// tournament seed mixed with the game and the colour).
    pub seed: u64,
}

/// The runner's clock for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left and increment, in a timed game.
    pub game: Option<ClockState>,
    /// When the runner will declare the move lost on time (`None`: untimed).
    pub deadline: Option<Instant>,
    /// When the move's time started, as the runner read it (`None`: when
    /// the player was asked). An in-process player times its move from
    /// here instead of reading the clock again: a clock read costs about
    /// as much as a random mover's whole move.
    pub started: Option<Instant>,
}

impl Clock {
    /// The clock of a move asked for now, with `game` time left.
    pub fn starting_now(game: Option<ClockState>) -> Clock {
        let now = Instant::now();
        Clock {
            game,
            deadline: game.map(|c| now + c.remaining),
            started: Some(now),
        }
    }

    /// When the move's time started: [`Clock::started`], or now.
    pub fn start(&self) -> Instant {
        self.started.unwrap_or_else(Instant::now)
    }
}

/// One move chosen, with what the search behind it saw.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo<M> {
    /// The move.
    pub mv: M,
    /// Score for the mover in the engine's units (centidiscs for Othello;
    /// `None` for players that do not search).
    pub score: Option<i32>,
    /// Depth reached (`None` when the player did not say: a GTP engine,
    /// an NBoard engine that sent no `search` line).
    pub depth: Option<u32>,
    /// Nodes searched (`None` when the player did not say).
    pub nodes: Option<u64>,
    /// Time the player took, as it measured it.
    pub time: Duration,
    /// Principal variation, the move first (empty when unknown).
    pub pv: Vec<M>,
}

impl<M> MoveInfo<M> {
    /// Move `mv` and what the search `out` that found it saw.
    pub fn of_search(mv: M, out: SearchOutcome<M>) -> MoveInfo<M> {
        MoveInfo {
            mv,
            score: Some(out.score),
            depth: Some(out.depth),
            nodes: Some(out.stats.nodes),
            time: out.elapsed,
            pv: out.pv,
        }
    }

    /// A move no search was behind (a random mover's, a forced pass):
    /// depth and nodes 0, and no score.
    pub fn bare(mv: M, time: Duration) -> MoveInfo<M> {
        MoveInfo {
            depth: Some(0),
            nodes: Some(0),
            ..MoveInfo::unreported(mv, time)
        }
    }

    /// A move its player said nothing about (a GTP engine's): no score,
    /// depth or nodes.
    pub fn unreported(mv: M, time: Duration) -> MoveInfo<M> {
        MoveInfo {
            mv,
            score: None,
            depth: None,
            nodes: None,
            time,
            pv: Vec::new(),
        }
    }
}

/// Why a player could not give a move. The runner records it as the reason
/// the player lost the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The player failed (a panic, a crashed process, a failed start).
    #[error("{0}")]
    Crashed(String),
    /// No answer in time.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// An answer that is not a move (garbage from a process).
    #[error("{0}")]
    Protocol(String),
}

/// Something that plays a game `G`.
pub trait Player<G: Game>: Send {
    /// Display name.
    fn name(&self) -> &str;

    /// A new game starts; forget the last one (a player must play the same
    /// game the same way whatever it played before).
    ///
    /// # Errors
    /// A player that cannot start the game (it forfeits it).
    fn new_game(&mut self, setup: &GameSetup<G>) -> Result<(), PlayerError>;

    /// The move to play in `pos` (which is not over and has a move other
    /// than a forced pass; the runner plays forced passes itself).
    ///
    /// # Errors
    /// A player that cannot answer (it forfeits the game).
    fn choose(&mut self, pos: &G, clock: &Clock) -> Result<MoveInfo<G::Move>, PlayerError>;

    /// From now on (and in every later game) a [`Player::choose`] in
    /// progress returns soon after `flag` is set, its answer then worth
    /// nothing: how `arena serve` abandons a search when the GUI pings.
    /// Players that answer at once need not look at it.
    fn stop_when(&mut self, flag: &Arc<AtomicBool>) {
        let _ = flag;
    }
}

/// Plays a uniformly random legal move, for any game.
pub struct RandomPlayer {
    name: String,
    engine_seed: u64,
    rng: SplitMix64,
}

impl RandomPlayer {
    /// A random mover named `name`; its seed in each game is the game's
    /// seed mixed with `engine_seed`.
    pub fn new(name: &str, engine_seed: u64) -> Self {
        RandomPlayer {
            name: name.to_string(),
            engine_seed,
            rng: SplitMix64::new(engine_seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, setup: &GameSetup<G>) -> Result<(), PlayerError> {
        self.rng = SplitMix64::new(setup.seed ^ self.engine_seed);
        Ok(())
    }

    fn choose(&mut self, pos: &G, clock: &Clock) -> Result<MoveInfo<G::Move>, PlayerError> {
        let start = clock.start();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return Err(PlayerError::Protocol(
                "asked to move in a finished game".into(),
            ));
        }
        // Multiply-shift on one draw (no rejection): the random mover's
        // choices stay those of every earlier version.
        let pick = (u128::from(self.rng.next_u64()) * moves.len() as u128) >> 64;
        Ok(MoveInfo::bare(moves.get(pick as usize), start.elapsed()))
    }
}

/// The evaluation the solver orders moves with at high empties: the
/// engine's own when it is a feature or pattern evaluation (disc counts and
/// square tables order worse than fastest-first alone).
fn solver_eval(eval: &OthelloEval) -> Option<OthelloEval> {
    match eval {
        OthelloEval::Features(_) | OthelloEval::Patterns(_) => Some(eval.clone()),
        OthelloEval::Discs | OthelloEval::Squares(_) => None,
    }
}

/// The tables a player keeps for its next game: the search's (if any)
/// and the solver (if any).
type Kept = (
    Option<Arc<crate::search::TranspositionTable>>,
    Option<Solver>,
);

/// A searching engine (with the exact solver for the endgame when its
/// config asks for one).
pub struct SearchPlayer {
    name: String,
    engine: SearchEngine,
    /// True until the first search: a new game need not rebuild anything.
    fresh: bool,
    searcher: Searcher<EvalBoard, OthelloEval>,
    /// The helper searches of a parallel search (`threads` - 1 of them).
    helpers: Vec<Searcher<EvalBoard, OthelloEval>>,
    solver: Option<Solver>,
    /// Stops every search and solve when set (see [`Player::stop_when`]).
    stop: Option<Arc<AtomicBool>>,
}

impl SearchPlayer {
    /// The player of the engine `name`, searching as `engine` does.
    pub fn new(name: &str, engine: &SearchEngine) -> Self {
        SearchPlayer::assemble(name, engine, None)
    }

    /// [`SearchPlayer::new`], around the tables of `kept` (the search's
    /// and the solver's, emptied) when given.
    fn assemble(name: &str, engine: &SearchEngine, kept: Option<Kept>) -> Self {
        let new_tables = kept.is_none();
        let (mut searcher, solver) = match kept {
            None => {
                let searcher =
                    Searcher::new(engine.eval.clone(), engine.tt_mib, engine.ordering.clone());
                let solver = (engine.endgame_exact_at > 0).then(|| {
                    Solver::new(engine.tt_mib.max(1), solver_eval(&engine.eval))
                        .with_endcut(engine.endcut.clone())
                });
                (searcher, solver)
            }
            Some((tt, solver)) => (
                Searcher::with_table(engine.eval.clone(), tt, engine.ordering.clone()),
                solver.map(Solver::renewed),
            ),
        };
        searcher.probcut = engine.probcut.clone();
        let threads = engine.threads as usize;
        let solver = solver.map(|mut solver| {
            solver.set_threads(threads);
            solver
        });
        // Under a clock the tables' pages come now, not in the first timed
        // move that writes them: a fresh 64 MiB table's pages took 50 to
        // 300 ms to come, and a move time of 100 ms was overrun by as much.
        // A depth or node limit does not care when, and a shallow search
        // would never touch most of them. Kept tables have theirs.
        if engine.timed() && new_tables {
            if let Some(solver) = &solver {
                solver.back_pages();
            }
            if let Some(tt) = &searcher.tt {
                tt.back_pages();
            }
        }
        SearchPlayer {
            fresh: true,
            helpers: smp::helpers(&searcher, threads),
            searcher,
            solver,
            name: name.to_string(),
            engine: engine.clone(),
            stop: None,
        }
    }

    /// Searches `pos` and returns the whole outcome (for `arena search`).
    ///
    /// At `endgame_exact_at` empties or fewer the exact solver runs first:
    /// to the end under depth and node limits (it is deterministic and
    /// ignores the node budget), within `endgame_share` of a move time or
    /// the soft budget of a clock under time limits, where it also runs
    /// from `endgame_selective_at` empties, its selective passes first.
    /// When the time runs out it plays the last selective pass that
    /// finished; with none, the search takes over with what is left of
    /// the move's time.
    pub fn analyse(&mut self, pos: &Board, clock: Option<ClockState>) -> SearchOutcome<Move> {
        self.analyse_since(pos, clock, Instant::now())
    }

    /// [`SearchPlayer::analyse`] of a move whose time started at `start`.
    fn analyse_since(
        &mut self,
        pos: &Board,
        clock: Option<ClockState>,
        start: Instant,
    ) -> SearchOutcome<Move> {
        self.fresh = false;
        let mut settings = self.engine.settings;
        // Roughly half the empties are ours to play.
        let moves_left = pos.empties().div_ceil(2);
        let mut clock = clock;
        // The selective passes are for a move whose time may run out: under
        // a depth or node limit the solver runs, exactly, from
        // `endgame_exact_at` only.
        let solves_at = match settings.limit {
            Limit::MoveTime(_) | Limit::Clock(..) => self.engine.solves_at(),
            Limit::Depth(_) | Limit::Nodes(_) => self.engine.endgame_exact_at,
        };
        if self.solver.is_some() && pos.empties() <= solves_at && !pos.is_over() {
            if let Some(out) = self.solve(pos, clock, moves_left, start) {
                return out;
            }
            // The search that follows gets what is left of the move's
            // time, not all of it again (a move time of 500 ms was being
            // spent as 250 ms of solve + 500 ms of search).
            let used = start.elapsed();
            if let Some(c) = &mut clock {
                c.remaining = c.remaining.saturating_sub(used);
            }
            settings.limit = time_left(settings.limit, used);
        }
        let mut out = search_together(
            &mut self.searcher,
            &mut self.helpers,
            &EvalBoard::new(*pos, &self.engine.eval),
            &settings,
            clock,
            moves_left,
        );
        out.elapsed = start.elapsed();
        out
    }

    /// The solver's answer for `pos` (see [`SearchPlayer::analyse`]): the
    /// exact one, or the last selective pass that finished in time; `None`
    /// when neither came in time.
    fn solve(
        &mut self,
        pos: &Board,
        clock: Option<ClockState>,
        moves_left: u32,
        start: Instant,
    ) -> Option<SearchOutcome<Move>> {
        let settings = &self.engine.settings;
        let solver = self.solver.as_mut()?;
        let budget = match settings.limit {
            Limit::Depth(_) | Limit::Nodes(_) => None,
            Limit::MoveTime(ms) => {
                Some(Duration::from_millis(ms).mul_f64(self.engine.endgame_share))
            }
            Limit::Clock(base, inc) => {
                let c = clock.unwrap_or(ClockState {
                    remaining: Duration::from_millis(base),
                    increment: Duration::from_millis(inc),
                });
                Some(budget(c, moves_left, &settings.time).soft)
            }
        };
        let solved = match budget {
            None => Some(solver.solve(pos)),
            Some(b) => solver.solve_until(pos, start + b),
        };
        // A selective pass searched to the end too, and was stopped by the
        // time before the exact pass finished.
        let (best_move, score, nodes, elapsed, stop) = match solved {
            Some(sol) => (
                sol.best_move,
                sol.score,
                sol.nodes,
                sol.elapsed,
                StopReason::Depth,
            ),
            None => {
                let pass = solver.last_pass()?;
                (
                    pass.best_move,
                    pass.score,
                    pass.nodes,
                    start.elapsed(),
                    StopReason::Time,
                )
            }
        };
        Some(SearchOutcome {
            best_move,
            score: score * UNITS_PER_DISC,
            depth: pos.empties(),
            pv: best_move.into_iter().collect(),
            stats: SearchStats {
                nodes,
                ..SearchStats::default()
            },
            elapsed,
            stop,
            iterations: Vec::new(),
        })
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.searcher.stats
    }
}

impl Player<Board> for SearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    /// A fresh searcher (table, killers, history) and solver, so a game
    /// never depends on the games before it. Under a clock the tables stay
    /// and are emptied: their pages are backed already, and writing zeros
    /// over them costs about a third of handing them back and asking for
    /// them again (each page zeroed by the system, perhaps compacted),
    /// each game (docs/results/2026-11-28-runner.md). An emptied table is a
    /// new one, so the games are the same. Without a clock the tables
    /// are made anew, their pages coming as a search writes them (a
    /// shallow search never touches most of a large table).
    fn new_game(&mut self, _setup: &GameSetup<Board>) -> Result<(), PlayerError> {
        if !self.fresh {
            let stop = self.stop.take();
            // The old tables go first: the new ones may be written whole at
            // once (under a time limit), and both at a time would hold
            // twice the memory.
            let tt = self.searcher.tt.take();
            self.helpers.clear();
            let solver = self.solver.take();
            let kept = self.engine.timed().then(|| {
                if let Some(tt) = &tt {
                    tt.clear();
                }
                (tt, solver)
            });
            *self = SearchPlayer::assemble(&self.name, &self.engine, kept);
            if let Some(flag) = stop {
                self.stop_when(&flag);
            }
        }
        Ok(())
    }

    fn choose(&mut self, pos: &Board, clock: &Clock) -> Result<MoveInfo<Move>, PlayerError> {
        let out = self.analyse_since(pos, clock.game, clock.start());
        let mv = match out.best_move {
            Some(mv) => mv,
            None => {
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    return Err(PlayerError::Protocol(
                        "asked to move in a finished game".into(),
                    ));
                }
                moves.get(0)
            }
        };
        Ok(MoveInfo::of_search(mv, out))
    }

    fn stop_when(&mut self, flag: &Arc<AtomicBool>) {
        self.searcher.stop_when(flag);
        if let Some(solver) = &mut self.solver {
            solver.stop_when(flag);
        }
        self.stop = Some(Arc::clone(flag));
    }
}

/// `limit` for a search that starts `used` into the move: a move time
/// shrinks by what was used (to 1 ms at least); other limits are as they
/// were (a clock's remaining time is taken off by the caller).
fn time_left(limit: Limit, used: Duration) -> Limit {
    match limit {
        Limit::MoveTime(ms) => {
            let used = u64::try_from(used.as_millis()).unwrap_or(u64::MAX);
            Limit::MoveTime(ms.saturating_sub(used).max(1))
        }
        Limit::Depth(_) | Limit::Nodes(_) | Limit::Clock(..) => limit,
    }
}

/// Builds the player `config` describes. Each game thread builds each engine's
/// player once and calls [`Player::new_game`] before every game.
pub fn build_player(config: &EngineConfig) -> Box<dyn Player<Board>> {
    match &config.kind {
        EngineKind::Random { seed, .. } => Box::new(RandomPlayer::new(&config.name, *seed)),
        EngineKind::Search(s) => Box::new(SearchPlayer::new(&config.name, s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_after_a_failed_solve_gets_the_rest_of_the_move_time() {
        let used = Duration::from_millis(250);
        assert_eq!(time_left(Limit::MoveTime(500), used), Limit::MoveTime(250));
        assert_eq!(time_left(Limit::MoveTime(200), used), Limit::MoveTime(1));
        assert_eq!(time_left(Limit::Depth(9), used), Limit::Depth(9));
        assert_eq!(time_left(Limit::Nodes(7), used), Limit::Nodes(7));
        assert_eq!(
            time_left(Limit::Clock(1000, 10), used),
            Limit::Clock(1000, 10)
        );
    }

    fn strong(limit: Limit) -> SearchEngine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/strong.ron");
        let config = EngineConfig::load(&path).unwrap();
        let mut engine = config.searching().unwrap().clone();
        engine.tt_mib = 2;
        engine.settings.limit = limit;
        engine
    }

    fn setup() -> GameSetup<Board> {
        GameSetup {
            game_id: 0,
            start: Board::start(),
            opening: Vec::new(),
            first: true,
            clock: None,
            move_time: None,
            seed: 0,
        }
    }

    #[test]
    fn a_timed_player_keeps_its_tables_emptied_and_an_untimed_one_starts_anew() {
        let pos = Board::start();
        let key = pos.hash();
        for (limit, kept) in [(Limit::MoveTime(30), true), (Limit::Depth(4), false)] {
            let engine = strong(limit);
            assert_eq!(engine.timed(), kept);
            let mut player = SearchPlayer::new("strong", &engine);
            player.new_game(&setup()).unwrap();
            player.analyse(&pos, None);
            let before = Arc::clone(player.searcher.tt.as_ref().unwrap());
            assert!(before.probe(key).is_some(), "the search stored the root");
            player.new_game(&setup()).unwrap();
            let after = player.searcher.tt.as_ref().unwrap();
            assert_eq!(Arc::ptr_eq(&before, after), kept, "{limit:?}");
            assert!(
                after.probe(key).is_none(),
                "{limit:?}: a new game's table is empty"
            );
            // The helpers (none here) and the solver are the engine's as new.
            assert_eq!(player.solver.as_ref().unwrap().threads(), 1);
            assert!(player.fresh);
        }
    }
}
