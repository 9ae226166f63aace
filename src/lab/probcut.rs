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
use crate::rng::SplitMix64;
use crate::search::probcut::{fit_line, Pair, ProbCut, Stage};
use crate::search::{search, Evaluator, Limit, SearchSettings, Searcher, Variant};
use crate::util::{parallel_map, parallel_map_with, stage_of};
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
    SplitMix64::new(s.seed ^ 0x0050_524F_4243_5554).shuffle(&mut boards);
    boards.truncate(s.positions);
    boards
}

/// The engine's searcher without ProbCut.
fn plain_searcher(config: &EngineConfig) -> Searcher<Board, OthelloEval> {
    let (tt_mib, ordering) = config
        .searching()
        .map_or((0, Vec::new()), |s| (s.tt_mib, s.ordering.clone()));
    Searcher::new(config.eval().clone(), tt_mib.max(1), ordering)
}

/// The value of `b` at every depth from 0 (the evaluation) to `max_depth`,
/// on `s` (cleared first: the result is that of a fresh searcher).
fn values(s: &mut Searcher<Board, OthelloEval>, b: &Board, max_depth: u32) -> Vec<i32> {
    s.clear();
    s.probcut = None;
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

/// The value of `b` searched to `depth` (deepening from 1, as the engine
/// plays) with ProbCut `pc` inside the search: what a node of that depth
/// returns in play once the shallower pairs are fitted.
fn selective_value(
    s: &mut Searcher<Board, OthelloEval>,
    b: &Board,
    depth: u32,
    pc: &ProbCut,
) -> i32 {
    s.clear();
    s.probcut = Some(pc.clone());
    let mut v = s.eval.evaluate(b);
    for d in 1..=depth {
        v = s.full_window(b, Variant::Pvs, d);
    }
    v
}

/// The pair `(deep, shallow)` of the stage at `min_empties`, fitted to
/// `pts` (shallow value, deep value): `None` when they give no line or its
/// slope is not between 0.01 and 100.
fn fit_pair(min_empties: u32, (deep, shallow): (u32, u32), pts: &[(f64, f64)]) -> Option<PairFit> {
    let (a, b, sigma) = fit_line(pts)?;
    if !(a > 0.01 && a < 100.0) {
        return None;
    }
    let round = |x: f64, k: f64| (x * k).round() / k;
    let pair = Pair {
        deep,
        shallow,
        a: round(a, 1e4),
        b: round(b, 10.0),
        sigma: round(sigma, 10.0),
    };
    Some(PairFit {
        min_empties,
        pair,
        samples: pts.len(),
        correlation: correlation(pts),
    })
}

/// Fits every `(deep, shallow)` pair in every stage (`stage_bounds`,
/// decreasing, ending at 0) on `positions`.
///
/// The shallow values are always plain searches (a ProbCut test searches
/// without ProbCut). The deep values are plain too unless `nested`: then
/// the pairs are fitted from the shallowest `deep` up, and each deep value
/// comes from a search that already cuts with the pairs fitted below it,
/// which is what a node of that depth returns in play (and costs about what
/// the engine's own search to that depth costs, so pairs as deep as the
/// engine reaches in play can be fitted).
pub fn fit(
    config: &EngineConfig,
    positions: &[Board],
    pairs: &[(u32, u32)],
    stage_bounds: &[u32],
    confidence: f64,
    nested: bool,
    threads: usize,
) -> (ProbCut, Vec<PairFit>) {
    let max_depth = pairs.iter().map(|p| p.0).max().unwrap_or(1);
    let plain_to = if nested {
        pairs.iter().map(|p| p.1).max().unwrap_or(0)
    } else {
        max_depth
    };
    // One searcher per thread, cleared for each position (a 64 MiB table
    // allocated per search costs more than the shallow searches).
    let searcher = || plain_searcher(config);
    let table = parallel_map_with(positions, threads, searcher, |s, b| values(s, b, plain_to));
    let stages: Vec<usize> = positions
        .iter()
        .map(|b| stage_of(stage_bounds, b.empties()))
        .collect();
    let mut pc = ProbCut {
        confidence,
        stages: stage_bounds
            .iter()
            .map(|&min_empties| Stage {
                min_empties,
                pairs: Vec::new(),
            })
            .collect(),
    };
    let mut fits: Vec<(usize, PairFit)> = Vec::new();
    let mut depths: Vec<u32> = pairs.iter().map(|p| p.0).collect();
    depths.sort_unstable();
    depths.dedup();
    for deep in depths {
        // The deep values, kept apart from the plain table: a later pair's
        // shallow side must stay plain even where it equals this depth.
        let column: Vec<i32> = if nested {
            parallel_map_with(positions, threads, searcher, |s, b| {
                selective_value(s, b, deep, &pc)
            })
        } else {
            table.iter().map(|v| v[deep as usize]).collect()
        };
        for (k, stage) in pc.stages.iter_mut().enumerate() {
            let rows: Vec<usize> = (0..positions.len()).filter(|&i| stages[i] == k).collect();
            for &(_, shallow) in pairs.iter().filter(|p| p.0 == deep) {
                let pts: Vec<(f64, f64)> = rows
                    .iter()
                    .map(|&i| (f64::from(table[i][shallow as usize]), f64::from(column[i])))
                    .collect();
                if let Some(fitted) = fit_pair(stage.min_empties, (deep, shallow), &pts) {
                    stage.pairs.push(fitted.pair);
                    fits.push((k, fitted));
                }
            }
        }
    }
    // Reported stage by stage, as the file lists them.
    fits.sort_by_key(|f| f.0);
    (pc, fits.into_iter().map(|f| f.1).collect())
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
        time: crate::search::limits::TimeUse::default(),
        variant: config
            .searching()
            .map_or(Variant::Pvs, |s| s.settings.variant),
        deepening: true,
        aspiration: config.searching().and_then(|s| s.settings.aspiration),
        limit: Limit::Depth(depth),
    };
    let run = |b: &Board, with: bool| {
        let mut s = plain_searcher(config);
        if with {
            s.probcut = config.searching().and_then(|c| c.probcut.clone());
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn setup() -> (EngineConfig, Vec<Board>) {
        let path = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/engines/features-fit.ron"
        ));
        let config = EngineConfig::load(path)
            .unwrap()
            .othello(path, "test")
            .unwrap();
        let positions = sample_positions(
            config.eval(),
            &Sampling {
                games: 6,
                seed: 3,
                positions: 40,
                min_empties: 14,
                threads: 2,
            },
        );
        assert_eq!(positions.len(), 40);
        (config, positions)
    }

    #[test]
    fn a_nested_fit_cuts_its_deep_searches_with_the_pairs_below() {
        let (config, positions) = setup();
        let pairs = [(3, 1), (4, 2), (5, 1), (6, 2)];
        let (plain, _) = fit(&config, &positions, &pairs, &[30, 0], 1.0, false, 2);
        let (nested, fits) = fit(&config, &positions, &pairs, &[30, 0], 1.0, true, 2);
        // Reported stage by stage, as the file lists them, pairs in order.
        let listed: Vec<(u32, u32)> = fits.iter().map(|f| (f.min_empties, f.pair.deep)).collect();
        let mut sorted = listed.clone();
        sorted.sort_by_key(|&(m, d)| (std::cmp::Reverse(m), d));
        assert_eq!(listed, sorted);
        for (p, n) in plain.stages.iter().zip(&nested.stages) {
            // Nothing is fitted below depth 3: its deep values are plain.
            assert_eq!(p.pairs[0], n.pairs[0]);
            assert_eq!(p.pairs.len(), 4);
            assert_eq!(n.pairs.len(), 4);
        }
        // Deeper, the deep values are those of searches that cut: they
        // differ from the plain ones somewhere, so the fits do.
        assert_ne!(plain, nested);
        // The deep value of a nested pair is what the search with the
        // pairs fitted below it returns.
        let below = ProbCut {
            confidence: 1.0,
            stages: nested
                .stages
                .iter()
                .map(|s| Stage {
                    min_empties: s.min_empties,
                    pairs: s.pairs.iter().copied().filter(|p| p.deep < 6).collect(),
                })
                .collect(),
        };
        let mut s = plain_searcher(&config);
        let mut cut = 0;
        for b in &positions {
            let v = selective_value(&mut s, b, 6, &below);
            let plain_v = values(&mut s, b, 6)[6];
            cut += usize::from(v != plain_v);
        }
        assert!(cut > 0, "no search was cut");
    }

    #[test]
    fn a_nested_pair_fits_plain_shallow_values_against_cut_deep_ones() {
        // Pair 7:4's shallow depth is pair 4:2's deep depth: its shallow
        // values must still be plain searches (a ProbCut test never cuts),
        // not the depth-4 values cut by pair 3:1.
        let (config, positions) = setup();
        let pairs = [(3, 1), (4, 2), (7, 4)];
        let (nested, _) = fit(&config, &positions, &pairs, &[0], 1.0, true, 2);
        let pairs_below = |n: usize| ProbCut {
            confidence: 1.0,
            stages: vec![Stage {
                min_empties: 0,
                pairs: nested.stages[0].pairs[..n].to_vec(),
            }],
        };
        let mut s = plain_searcher(&config);
        let mut cut_at_4 = 0;
        let pts: Vec<(f64, f64)> = positions
            .iter()
            .map(|b| {
                let shallow = values(&mut s, b, 4)[4];
                cut_at_4 += usize::from(selective_value(&mut s, b, 4, &pairs_below(1)) != shallow);
                let deep = selective_value(&mut s, b, 7, &pairs_below(2));
                (f64::from(shallow), f64::from(deep))
            })
            .collect();
        assert!(
            cut_at_4 > 0,
            "the depth-4 values must differ for this test to tell"
        );
        let (a, b, sigma) = fit_line(&pts).unwrap();
        let got = nested.stages[0].pairs[2];
        assert_eq!((got.deep, got.shallow), (7, 4));
        assert!((got.a - a).abs() < 1e-4, "{got:?} against a {a}");
        assert!((got.b - b).abs() < 0.06, "{got:?} against b {b}");
        assert!(
            (got.sigma - sigma).abs() < 0.06,
            "{got:?} against sigma {sigma}"
        );
    }

    #[test]
    fn a_nested_fit_does_not_depend_on_the_thread_count() {
        let (config, positions) = setup();
        let pairs = [(3, 1), (4, 2), (5, 1)];
        let one = fit(&config, &positions, &pairs, &[30, 0], 1.5, true, 1).0;
        let two = fit(&config, &positions, &pairs, &[30, 0], 1.5, true, 2).0;
        assert_eq!(one, two);
    }
}
