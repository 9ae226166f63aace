//! Self-play games and the labels of their positions.
//!
//! A game starts from a book opening (chosen by the game's own seeded
//! generator) and is played by a PVS search of `play_depth` with the play
//! weights; above `exact_at` empties each move is, with chance `random`, a
//! uniformly random legal move instead (variety). From `exact_at` empties
//! on the exact solver plays, and every position it sees is labelled with
//! its exact value. Positions above are labelled later by [`Labeller`],
//! stage by stage. Each game and each label is computed on a cleared
//! searcher or solver, so none depends on what the thread did before: the
//! results are the same for any number of threads.

use super::config::Training;
use crate::endgame::Solver;
use crate::eval::{OthelloEval, Patterns, UNITS_PER_DISC};
use crate::game::othello::Board;
use crate::game::{Game, MoveList};
use crate::rng::SplitMix64;
use crate::search::{search, Limit, OrderBy, SearchSettings, Searcher, Variant};

/// One position of a self-play game.
#[derive(Clone, Copy, Debug)]
pub struct TrainPosition {
    /// The position.
    pub board: Board,
    /// The game it comes from.
    pub game: u32,
    /// Its label in centidiscs for the side to move, once known.
    pub label: Option<i32>,
    /// The game's outcome in centidiscs for the side to move: the exact
    /// value where the solver took over (or the final result of a game
    /// that ended before).
    pub outcome: i32,
}

/// Table size of the self-play and labelling searches (cleared before
/// each game or position, so it is kept small).
const SEARCH_TT_MIB: usize = 1;
/// Table size of the solver (cleared before each game).
const SOLVER_TT_MIB: usize = 4;

/// The settings of a fixed-depth PVS search with iterative deepening.
fn settings(depth: u32) -> SearchSettings {
    SearchSettings {
        time: crate::search::limits::TimeUse::default(),
        variant: Variant::Pvs,
        deepening: true,
        aspiration: None,
        limit: Limit::Depth(depth),
    }
}

/// The move ordering of the training searches.
fn ordering() -> Vec<OrderBy> {
    vec![OrderBy::HashMove, OrderBy::Killers, OrderBy::FastestFirst]
}

/// A thread's self-play engine and solver.
pub struct GamePlayer<'a> {
    training: &'a Training,
    searcher: Searcher<Board, OthelloEval>,
    solver: Solver,
}

impl<'a> GamePlayer<'a> {
    /// A player for the games of `training`.
    pub fn new(training: &'a Training) -> GamePlayer<'a> {
        GamePlayer {
            training,
            searcher: Searcher::new(training.play.clone(), SEARCH_TT_MIB, ordering()),
            solver: Solver::new(SOLVER_TT_MIB, None),
        }
    }

    /// The generator of game `g`: its opening and its random moves.
    fn rng(&self, g: u32) -> SplitMix64 {
        let mut mix = SplitMix64::new(self.training.seed ^ 0x7261_696E_7472_6169);
        let salt = mix.next_u64();
        SplitMix64::new(salt ^ u64::from(g).wrapping_mul(crate::rng::GOLDEN))
    }

    /// Plays game `g` and returns its positions (a position whose side to
    /// move must pass is left out: it has the value of the position after
    /// the pass).
    pub fn play(&mut self, g: u32) -> Vec<TrainPosition> {
        let t = self.training;
        let mut rng = self.rng(g);
        self.searcher.clear();
        self.solver.clear();
        let book = &t.book.openings;
        let mut b = book[rng.below(book.len() as u64) as usize].board;
        let mut out = Vec::with_capacity(64);
        let mut moves = MoveList::new();
        // The game's value for black, from the first exact solve.
        let mut black_value: Option<i32> = None;
        while !b.is_over() {
            moves.clear();
            b.generate_moves(&mut moves);
            let must_pass = b.must_pass();
            let mv = if b.empties() <= t.exact_at {
                let s = self.solver.solve(&b);
                if !must_pass {
                    out.push(TrainPosition {
                        board: b,
                        game: g,
                        label: Some(s.score * UNITS_PER_DISC),
                        outcome: 0,
                    });
                }
                if black_value.is_none() {
                    black_value = Some(if b.first_player_to_move() {
                        s.score
                    } else {
                        -s.score
                    });
                }
                s.best_move.unwrap_or(moves.get(0))
            } else {
                if !must_pass {
                    out.push(TrainPosition {
                        board: b,
                        game: g,
                        label: None,
                        outcome: 0,
                    });
                }
                // The draw is made for every move, so a game's random
                // choices do not depend on the searches' results.
                let roll = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let pick = rng.below(moves.len() as u64) as usize;
                if roll < t.random {
                    moves.get(pick)
                } else {
                    search(&mut self.searcher, &b, &settings(t.play_depth), None, 0)
                        .best_move
                        .unwrap_or(moves.get(0))
                }
            };
            b = b.play(mv);
        }
        let black_value = black_value.unwrap_or_else(|| b.black_disc_diff());
        for p in &mut out {
            let v = if p.board.first_player_to_move() {
                black_value
            } else {
                -black_value
            };
            p.outcome = v * UNITS_PER_DISC;
        }
        out
    }
}

/// A thread's labelling search: PVS to `depth` with an evaluation whose
/// lower stages are already fitted.
pub struct Labeller {
    searcher: Searcher<Board, OthelloEval>,
    depth: u32,
}

impl Labeller {
    /// A labeller searching to `depth` with `eval`.
    pub fn new(eval: &Patterns, depth: u32) -> Labeller {
        Labeller {
            searcher: Searcher::new(
                OthelloEval::Patterns(eval.clone()),
                SEARCH_TT_MIB,
                ordering(),
            ),
            depth,
        }
    }

    /// The label of `b`: its search score in centidiscs for the side to
    /// move.
    pub fn label(&mut self, b: &Board) -> i32 {
        self.searcher.clear();
        search(&mut self.searcher, b, &settings(self.depth), None, 0).score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::read_book;
    use std::path::{Path, PathBuf};

    fn training(exact_at: u32) -> Training {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let design = repo.join("engines/weights/patterns-empty.ron");
        let play = repo.join("engines/weights/features-fit.ron");
        Training {
            design: Patterns::load(&design).unwrap(),
            play: OthelloEval::from_weights_file(&play).unwrap(),
            book: read_book(&repo.join("openings/balanced-8ply.txt")).unwrap(),
            games: 4,
            seed: 9,
            play_depth: 2,
            random: 0.3,
            exact_at,
            label_depth: 2,
            search_weight: 1.0,
            held_out: 0,
            ridge: 20.0,
            iterations: 5,
            parity: false,
            out: PathBuf::from("w.bin"),
        }
    }

    #[test]
    fn exact_labels_are_the_solvers_values_and_keep_the_games_value() {
        let t = training(12);
        let mut player = GamePlayer::new(&t);
        for g in 0..4 {
            let positions = player.play(g);
            let exact: Vec<_> = positions.iter().filter(|p| p.label.is_some()).collect();
            assert!(!exact.is_empty(), "game {g} reaches 12 empties");
            for p in &positions {
                assert_eq!(p.label.is_some(), p.board.empties() <= 12);
                assert!(!p.board.must_pass());
            }
            for p in exact {
                let fresh = Solver::new(1, None).solve(&p.board).score * UNITS_PER_DISC;
                assert_eq!(p.label, Some(fresh), "game {g}: a fresh solve agrees");
                // The solver plays on along best moves: the value never
                // changes, so every exact label is the game's outcome.
                assert_eq!(p.label, Some(p.outcome), "game {g}");
            }
        }
    }

    #[test]
    fn a_game_is_the_same_on_a_used_player_and_a_fresh_one() {
        let t = training(10);
        let mut used = GamePlayer::new(&t);
        let _ = used.play(0);
        let again = used.play(1);
        let fresh = GamePlayer::new(&t).play(1);
        let key = |ps: &[TrainPosition]| -> Vec<(u64, u64, Option<i32>, i32)> {
            ps.iter()
                .map(|p| (p.board.player, p.board.opponent, p.label, p.outcome))
                .collect()
        };
        assert_eq!(key(&again), key(&fresh));
        assert_ne!(key(&GamePlayer::new(&t).play(0)), key(&fresh));
    }
}
