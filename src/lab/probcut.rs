//! Fitting and checking an engine's ProbCut parameters (`arena probcut fit`
//! and `arena probcut check`).
//!
//! **Fit.** Positions come from seeded self-play games with the engine's
//! evaluation (as for `arena eval fit`), shuffled by the seed; each is
//! searched by the engine's search (PVS, its table and ordering, without
//! ProbCut) to every depth up to the deepest pair. For each stage and each
//! (deep, shallow) pair, a least-squares line `v_deep ≈ a·v_shallow + b`
//! through the positions of that stage gives `a`, `b` and the residual
//! standard deviation `sigma`.
//!
//! **Check.** Held-out positions are searched by the engine to a fixed
//! depth (with deepening, as it plays) with and without its ProbCut file:
//! nodes, agreement of the best move, and score differences.

use super::fit::{self_play, FitOptions};
use crate::engine::EngineConfig;
use crate::eval::OthelloEval;
use crate::game::othello::{Board, Move};
use crate::game::Game;
use crate::search::probcut::{fit_line, Pair, ProbCut, Stage};
use crate::search::{search, Evaluator, Limit, SearchSettings, Searcher, Variant};
use crate::util::{parallel_map, SplitMix64};
use serde::Serialize;

/// What to sample.
#[derive(Clone, Debug)]
pub struct Sampling {
    /// Self-play games to draw positions from.
    pub games: u32,
    /// Seed of the games and of the draw.
    pub seed: u64,
    /// Positions to keep.
    pub positions: usize,
    /// Keep positions with more empties than this.
    pub min_empties: u32,
    /// Threads.
    pub threads: usize,
}

/// Positions drawn from self-play with `eval`: `positions` of them, with
/// more than `min_empties` empties, in a seeded random order.
pub fn sample_positions(eval: &OthelloEval, s: &Sampling) -> Vec<Board> {
    let opts = FitOptions {
        games: s.games,
        seed: s.seed,
        random_plies: 10,
        depth: 2,
        solve_at: 0,
        threads: s.threads,
    };
    let mut boards: Vec<Board> = self_play(eval, &opts)
        .into_iter()
        .map(|x| x.0)
        .filter(|b| b.empties() > s.min_empties && !b.is_over())
        .collect();
    let mut rng = SplitMix64::new(s.seed ^ 0x0050_524F_4243_5554);
    for i in (1..boards.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        boards.swap(i, j);
    }
    boards.truncate(s.positions);
    boards
}

/// The engine's searcher without ProbCut.
fn plain_searcher(config: &EngineConfig) -> Searcher<Board, OthelloEval> {
    Searcher::new(
        config.eval.clone(),
        config.raw.tt_mib.max(1),
        config.raw.ordering.clone(),
    )
}

/// The value of `b` at every depth from 0 (the evaluation) to `max_depth`.
fn values(config: &EngineConfig, b: &Board, max_depth: u32) -> Vec<i32> {
    let mut s = plain_searcher(config);
    (0..=max_depth)
        .map(|d| {
            if d == 0 {
                s.eval.evaluate(b)
            } else {
                s.full_window(b, Variant::Pvs, d)
            }
        })
        .collect()
}

/// One fitted pair with how many positions it rests on.
#[derive(Clone, Debug, Serialize)]
pub struct PairFit {
    /// The stage's `min_empties`.
    pub min_empties: u32,
    /// The pair.
    pub pair: Pair,
    /// Positions.
    pub samples: usize,
    /// Correlation of shallow and deep values.
    pub correlation: f64,
}

/// Fits every `(deep, shallow)` pair in every stage (`stage_bounds`,
/// decreasing, ending at 0) on `positions`.
pub fn fit(
    config: &EngineConfig,
    positions: &[Board],
    pairs: &[(u32, u32)],
    stage_bounds: &[u32],
    confidence: f64,
    threads: usize,
) -> (ProbCut, Vec<PairFit>) {
    let max_depth = pairs.iter().map(|p| p.0).max().unwrap_or(1);
    let table = parallel_map(positions, threads, |b| values(config, b, max_depth));
    let mut fits = Vec::new();
    let stages = stage_bounds
        .iter()
        .enumerate()
        .map(|(k, &min_empties)| {
            let upper = if k == 0 {
                u32::MAX
            } else {
                stage_bounds[k - 1]
            };
            let rows: Vec<&Vec<i32>> = positions
                .iter()
                .zip(&table)
                .filter(|(b, _)| b.empties() >= min_empties && b.empties() < upper)
                .map(|(_, v)| v)
                .collect();
            let mut stage_pairs = Vec::new();
            for &(deep, shallow) in pairs {
                let pts: Vec<(f64, f64)> = rows
                    .iter()
                    .map(|v| (f64::from(v[shallow as usize]), f64::from(v[deep as usize])))
                    .collect();
                if let Some((a, b, sigma)) = fit_line(&pts) {
                    if a > 0.01 && a < 100.0 {
                        let round = |x: f64, k: f64| (x * k).round() / k;
                        let pair = Pair {
                            deep,
                            shallow,
                            a: round(a, 1e4),
                            b: round(b, 10.0),
                            sigma: round(sigma, 10.0),
                        };
                        fits.push(PairFit {
                            min_empties,
                            pair,
                            samples: pts.len(),
                            correlation: correlation(&pts),
                        });
                        stage_pairs.push(pair);
                    }
                }
            }
            Stage {
                min_empties,
                pairs: stage_pairs,
            }
        })
        .collect();
    (ProbCut { confidence, stages }, fits)
}

pub(super) fn correlation(pts: &[(f64, f64)]) -> f64 {
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let syy: f64 = pts.iter().map(|p| (p.1 - my) * (p.1 - my)).sum();
    if sxx > 0.0 && syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        0.0
    }
}

/// ProbCut against the full search on a set of positions.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth of the searches.
    pub depth: u32,
    /// Nodes without ProbCut.
    pub nodes_full: u64,
    /// Nodes with ProbCut.
    pub nodes_probcut: u64,
    /// Positions where both chose the same move.
    pub same_move: usize,
    /// Mean absolute score difference, in discs.
    pub mean_score_difference: f64,
    /// Mean loss of the ProbCut move, in discs, judged by the full search
    /// at the same depth (0 when it is the same move).
    pub mean_move_loss: f64,
    /// Wall time without ProbCut, in seconds.
    pub seconds_full: f64,
    /// Wall time with ProbCut, in seconds.
    pub seconds_probcut: f64,
}

/// Searches `positions` to `depth` with deepening, with `config`'s ProbCut
/// and without it.
pub fn check(
    config: &EngineConfig,
    positions: &[Board],
    depth: u32,
    threads: usize,
) -> CheckReport {
    let settings = SearchSettings {
        variant: config.search.map_or(Variant::Pvs, |s| s.variant),
        deepening: true,
        aspiration: config.search.and_then(|s| s.aspiration),
        limit: Limit::Depth(depth),
    };
    let run = |b: &Board, with: bool| {
        let mut s = plain_searcher(config);
        if with {
            s.probcut = config.probcut.clone();
        }
        let out = search(&mut s, b, &settings, None, 0);
        (
            out.best_move.unwrap_or(Move::PASS),
            out.score,
            out.stats.nodes,
            out.elapsed.as_secs_f64(),
        )
    };
    let rows = parallel_map(positions, threads, |b| {
        let full = run(b, false);
        let pc = run(b, true);
        // The ProbCut move's value by the full search, one ply down.
        let loss = if pc.0 == full.0 {
            0
        } else {
            let mut s = plain_searcher(config);
            let after = b.play(pc.0);
            // Depth 0 is the evaluation (or the final score).
            let v = -s.full_window(&after, Variant::Pvs, depth - 1);
            (full.1 - v).max(0)
        };
        (full, pc, loss)
    });
    let n = rows.len().max(1) as f64;
    let units = f64::from(crate::eval::UNITS_PER_DISC);
    CheckReport {
        positions: rows.len(),
        depth,
        nodes_full: rows.iter().map(|r| r.0 .2).sum(),
        nodes_probcut: rows.iter().map(|r| r.1 .2).sum(),
        same_move: rows.iter().filter(|r| r.0 .0 == r.1 .0).count(),
        mean_score_difference: rows
            .iter()
            .map(|r| f64::from((r.0 .1 - r.1 .1).abs()))
            .sum::<f64>()
            / n
            / units,
        mean_move_loss: rows.iter().map(|r| f64::from(r.2)).sum::<f64>() / n / units,
        seconds_full: rows.iter().map(|r| r.0 .3).sum(),
        seconds_probcut: rows.iter().map(|r| r.1 .3).sum(),
    }
}
