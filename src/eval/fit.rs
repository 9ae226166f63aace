//! Fitting feature weights by least squares (`arena eval fit`): positions
//! from seeded self-play games, labelled by exact endgame solves, and a
//! ridge-regularised least-squares fit of the feature weights per stage.
//!
//! Each game starts with `random_plies` uniformly random moves (variety),
//! then the base weights' engine plays at `depth` until `solve_at` empties,
//! where the exact solver finds the game-theoretic value; the game goes on
//! along the solver's best moves. Every position from the 8th ply on is a
//! sample; its label is the exact value at `solve_at` empties seen from its
//! side to move (exact for positions at or below `solve_at`, a
//! good-play outcome above). Labels are centidiscs, like the evaluation.

use super::features::{feature_values, Features, FEATURES, NAMES};
use super::{OthelloEval, UNITS_PER_DISC};
use crate::book::SplitMix64;
use crate::endgame::Solver;
use crate::game::othello::Board;
use crate::game::{Game, MoveList};
use crate::search::{search, Fail, Limit, OrderBy, SearchSettings, Searcher, Variant};
use std::fmt::Write;

/// What to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Self-play games.
    pub games: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Random moves at the start of each game.
    pub random_plies: u32,
    /// Search depth of the playing engine.
    pub depth: u32,
    /// Empties at which the game is solved exactly.
    pub solve_at: u32,
    /// Ridge penalty (added to the diagonal of the normal equations, per
    /// sample).
    pub ridge: f64,
    /// Threads.
    pub threads: usize,
}

/// How well one stage fits.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StageFit {
    /// The stage's `min_empties`.
    pub min_empties: u32,
    /// Samples.
    pub samples: usize,
    /// Root-mean-square error of the base weights, in discs.
    pub rmse_before: f64,
    /// Root-mean-square error of the fitted weights, in discs.
    pub rmse_after: f64,
    /// The fitted weights, in [`NAMES`] order.
    pub weights: [f64; FEATURES],
}

/// One labelled sample: empties, features, label (centidiscs).
type Sample = (u32, [i32; FEATURES], f64);

/// Plays game `g` and returns its samples.
fn play(g: u32, base: &Features, opts: &FitOptions) -> Vec<Sample> {
    let mut rng = SplitMix64::new(opts.seed ^ u64::from(g).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let eval = OthelloEval::Features(base.clone());
    let settings = SearchSettings {
        variant: Variant::AlphaBeta { fail: Fail::Soft },
        deepening: false,
        aspiration: None,
        limit: Limit::Depth(opts.depth.max(1)),
    };
    let mut searcher = Searcher::new(eval, 1, vec![OrderBy::Killers, OrderBy::FastestFirst]);
    let mut solver = Solver::new(4, None);
    let mut b = Board::start();
    let mut moves = MoveList::new();
    let mut path: Vec<Board> = Vec::new();
    let mut ply = 0;
    let mut exact: Option<(Board, i32)> = None;
    while !b.is_over() {
        if ply >= 8 {
            path.push(b);
        }
        moves.clear();
        b.generate_moves(&mut moves);
        let mv = if ply < opts.random_plies {
            moves.get(rng.below(moves.len() as u64) as usize)
        } else if b.empties() <= opts.solve_at {
            let s = solver.solve(&b);
            if exact.is_none() {
                exact = Some((b, s.score));
            }
            s.best_move.unwrap_or(moves.get(0))
        } else {
            search(&mut searcher, &b, &settings, None, 0)
                .best_move
                .unwrap_or(moves.get(0))
        };
        b = b.play(mv);
        ply += 1;
    }
    // The value of the game: the exact solve, seen from black.
    let black_value = match exact {
        Some((at, v)) => {
            if at.first_player_to_move() {
                v
            } else {
                -v
            }
        }
        None => b.black_disc_diff(),
    };
    path.iter()
        .map(|p| {
            let v = if p.first_player_to_move() {
                black_value
            } else {
                -black_value
            };
            (
                p.empties(),
                feature_values(p),
                f64::from(v * UNITS_PER_DISC),
            )
        })
        .collect()
}

/// Plays the games (on `threads` threads, results in game order) and fits
/// one weight set per stage of `base`.
pub fn fit(base: &Features, opts: &FitOptions) -> Vec<StageFit> {
    let threads = opts.threads.max(1);
    let mut per_thread: Vec<Vec<(u32, Vec<Sample>)>> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (0..opts.games)
                        .filter(|g| *g as usize % threads == t)
                        .map(|g| (g, play(g, base, opts)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            per_thread.push(h.join().expect("fit threads do not panic"));
        }
    });
    let mut games: Vec<(u32, Vec<Sample>)> = per_thread.into_iter().flatten().collect();
    games.sort_by_key(|g| g.0);
    let samples: Vec<Sample> = games.into_iter().flat_map(|g| g.1).collect();

    let stages = base.stages();
    stages
        .iter()
        .enumerate()
        .map(|(k, &(min_empties, before))| {
            let upper = if k == 0 { u32::MAX } else { stages[k - 1].0 };
            let xs: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.0 >= min_empties && s.0 < upper)
                .collect();
            let mut ata = vec![vec![0.0; FEATURES]; FEATURES];
            let mut atb = vec![0.0; FEATURES];
            for (_, f, y) in &xs {
                for i in 0..FEATURES {
                    atb[i] += f64::from(f[i]) * y;
                    for j in 0..FEATURES {
                        ata[i][j] += f64::from(f[i]) * f64::from(f[j]);
                    }
                }
            }
            for (i, row) in ata.iter_mut().enumerate() {
                row[i] += opts.ridge * xs.len().max(1) as f64;
            }
            let weights: [f64; FEATURES] = match crate::stats::linalg::cholesky(&ata) {
                Some(l) => {
                    let w = crate::stats::linalg::cholesky_solve(&l, &atb);
                    std::array::from_fn(|i| (w[i] * 100.0).round() / 100.0)
                }
                None => before,
            };
            let rmse = |w: &[f64; FEATURES]| {
                if xs.is_empty() {
                    return 0.0;
                }
                let sse: f64 = xs
                    .iter()
                    .map(|(_, f, y)| {
                        let p: f64 = (0..FEATURES).map(|i| w[i] * f64::from(f[i])).sum();
                        (p - y) * (p - y)
                    })
                    .sum();
                (sse / xs.len() as f64).sqrt() / f64::from(UNITS_PER_DISC)
            };
            StageFit {
                min_empties,
                samples: xs.len(),
                rmse_before: rmse(&before),
                rmse_after: rmse(&weights),
                weights,
            }
        })
        .collect()
}

/// The weights file of a fit, with `header` lines as comments.
pub fn weights_file(fits: &[StageFit], header: &[String]) -> String {
    let mut out = String::new();
    for h in header {
        let _ = writeln!(out, "// {h}");
    }
    out.push_str("Features(\n    stages: [\n");
    for s in fits {
        let _ = writeln!(
            out,
            "        // {} samples; RMSE {:.2} discs (base weights: {:.2}).",
            s.samples, s.rmse_after, s.rmse_before
        );
        let _ = write!(out, "        (min_empties: {}", s.min_empties);
        for (name, w) in NAMES.iter().zip(s.weights) {
            let _ = write!(out, ", {name}: {w:?}");
        }
        out.push_str("),\n");
    }
    out.push_str("    ],\n)\n");
    out
}
