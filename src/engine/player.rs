//! Players: what a tournament asks for a move. Built fresh per game from an
//! [`EngineConfig`] and a seed, so a game depends only on its inputs.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::config::EngineConfig;
use crate::endgame::Solver;
use crate::eval::OthelloEval;
use crate::eval::UNITS_PER_DISC;
use crate::game::othello::{Board, Move};
use crate::game::Game;
use crate::search::limits::{budget, ClockState};
use crate::search::{search, Limit, SearchOutcome, SearchStats, Searcher, StopReason};
use std::time::{Duration, Instant};

/// One move chosen, with what the search behind it saw.
#[derive(Clone, Debug)]
pub struct MoveReport {
    /// The move.
    pub mv: Move,
    /// Score for the mover in centidiscs (`None` for players that do not
    /// search).
    pub score: Option<i32>,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Something that plays Othello moves.
pub trait Player: Send {
    /// Display name.
    fn name(&self) -> &str;

    /// The move to play in `pos` (which is not over); `clock` is this
    /// player's clock when the game is timed.
    fn choose(&mut self, pos: &Board, clock: Option<ClockState>) -> MoveReport;
}

use crate::util::SplitMix64;

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    name: String,
    rng: SplitMix64,
}

impl RandomPlayer {
    /// A random mover named `name` with `seed`.
    pub fn new(name: &str, seed: u64) -> Self {
        RandomPlayer {
            name: name.to_string(),
            rng: SplitMix64::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, pos: &Board, _clock: Option<ClockState>) -> MoveReport {
        let start = Instant::now();
        let mut moves = crate::game::MoveList::new();
        pos.generate_moves(&mut moves);
        // Multiply-shift on one draw (no rejection): the random mover's
        // choices stay those of every earlier version.
        let pick = (u128::from(self.rng.next_u64()) * moves.len() as u128) >> 64;
        let mv = moves.get(pick as usize);
        MoveReport {
            mv,
            score: None,
            depth: 0,
            nodes: 0,
            elapsed: start.elapsed(),
        }
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

/// A searching engine (with the exact solver for the endgame when its
/// config asks for one).
pub struct SearchPlayer {
    config: EngineConfig,
    searcher: Searcher<Board, OthelloEval>,
    solver: Option<Solver>,
}

impl SearchPlayer {
    /// The player `config` describes (which must be a searching engine).
    pub fn new(config: &EngineConfig) -> Self {
        let mut searcher = Searcher::new(
            config.eval.clone(),
            config.raw.tt_mib,
            config.raw.ordering.clone(),
        );
        searcher.probcut = config.probcut.clone();
        SearchPlayer {
            searcher,
            solver: (config.raw.endgame_exact_at > 0)
                .then(|| Solver::new(config.raw.tt_mib.max(1), solver_eval(&config.eval))),
            config: config.clone(),
        }
    }

    /// Searches `pos` and returns the whole outcome (for `arena search`).
    ///
    /// At `endgame_exact_at` empties or fewer the exact solver runs first:
    /// to the end under depth and node limits (it is deterministic and
    /// ignores the node budget), within the soft time budget under time
    /// limits, falling back to the search when it does not finish.
    pub fn analyse(&mut self, pos: &Board, clock: Option<ClockState>) -> SearchOutcome<Move> {
        let settings = self.config.search.expect("a searching engine");
        // Roughly half the empties are ours to play.
        let moves_left = pos.empties().div_ceil(2);
        let start = Instant::now();
        let mut clock = clock;
        if let Some(solver) = &mut self.solver {
            if pos.empties() <= self.config.raw.endgame_exact_at && !pos.is_over() {
                let budget = match settings.limit {
                    Limit::Depth(_) | Limit::Nodes(_) => None,
                    Limit::MoveTime(ms) => Some(Duration::from_millis(ms) / 2),
                    Limit::Clock(base, inc) => {
                        let c = clock.unwrap_or(ClockState {
                            remaining: Duration::from_millis(base),
                            increment: Duration::from_millis(inc),
                        });
                        Some(budget(c, moves_left).soft)
                    }
                };
                let solved = match budget {
                    None => Some(solver.solve(pos)),
                    Some(b) => solver.solve_until(pos, start + b),
                };
                if let Some(sol) = solved {
                    return SearchOutcome {
                        best_move: sol.best_move,
                        score: sol.score * UNITS_PER_DISC,
                        depth: pos.empties(),
                        pv: sol.best_move.into_iter().collect(),
                        stats: SearchStats {
                            nodes: sol.nodes,
                            ..SearchStats::default()
                        },
                        elapsed: sol.elapsed,
                        stop: StopReason::Depth,
                        iterations: Vec::new(),
                    };
                }
                if let Some(c) = &mut clock {
                    c.remaining = c.remaining.saturating_sub(start.elapsed());
                }
            }
        }
        let mut out = search(&mut self.searcher, pos, &settings, clock, moves_left);
        out.elapsed = start.elapsed();
        out
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.searcher.stats
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn choose(&mut self, pos: &Board, clock: Option<ClockState>) -> MoveReport {
        let out = self.analyse(pos, clock);
        let mv = out.best_move.unwrap_or_else(|| {
            let mut moves = crate::game::MoveList::new();
            pos.generate_moves(&mut moves);
            moves.get(0)
        });
        MoveReport {
            mv,
            score: Some(out.score),
            depth: out.depth,
            nodes: out.stats.nodes,
            elapsed: out.elapsed,
        }
    }
}

/// Builds the player `config` describes, for one game: `seed` (the game's
/// seed mixed with the engine's) drives every random choice.
pub fn build_player(config: &EngineConfig, seed: u64) -> Box<dyn Player> {
    match config.search {
        None => Box::new(RandomPlayer::new(&config.name, seed ^ config.raw.seed)),
        Some(_) => Box::new(SearchPlayer::new(config)),
    }
}
