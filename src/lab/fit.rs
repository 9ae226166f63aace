//! Fitting weights by least squares (`arena eval fit`): positions from
//! seeded self-play games, labelled by exact endgame solves, and a
//! ridge-regularised least-squares fit per stage: of the feature weights
//! (normal equations, Cholesky), or of the pattern tables (sparse conjugate
//! gradients on the normal equations, CGLS, with mirror-image
//! configurations sharing one weight).
//!
//! Each game starts with `random_plies` uniformly random moves (variety),
//! then an engine with the play weights (`--play`, by default the base)
//! plays at `depth` until `solve_at` empties,
//! where the exact solver finds the game-theoretic value; the game goes on
//! along the solver's best moves. Every position from the 8th ply on is a
//! sample; its label is the exact value at `solve_at` empties seen from its
//! side to move (exact for positions at or below `solve_at`, a
//! good-play outcome above). Labels are centidiscs, like the evaluation.

use crate::endgame::Solver;
use crate::eval::features::{feature_values, Features, FEATURES, NAMES};
use crate::eval::patterns::{self, Patterns, StageWeights, SET};
use crate::eval::{OthelloEval, UNITS_PER_DISC};
use crate::game::othello::bitboard::legal_moves;
use crate::game::othello::Board;
use crate::game::{Game, MoveList};
use crate::rng::SplitMix64;
use crate::search::{search, Fail, Limit, OrderBy, SearchSettings, Searcher, Variant};
use crate::util::par::parallel_map;
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
    /// The fitted weights, in [`NAMES`] order (feature fits only).
    pub weights: [f64; FEATURES],
}

/// One labelled sample: a position and its label (centidiscs, for the side
/// to move).
pub type Sample = (Board, f64);

/// Plays game `g` with `eval` and returns its samples.
fn play(g: u32, eval: &OthelloEval, opts: &FitOptions) -> Vec<Sample> {
    let mut rng = SplitMix64::new(opts.seed ^ u64::from(g).wrapping_mul(crate::rng::GOLDEN));
    let eval = eval.clone();
    let settings = SearchSettings {
        time: crate::search::limits::TimeUse::default(),
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
            (*p, f64::from(v * UNITS_PER_DISC))
        })
        .collect()
}

/// Plays the games with `eval` (on `threads` threads, results in game
/// order) and returns their samples.
pub fn self_play(eval: &OthelloEval, opts: &FitOptions) -> Vec<Sample> {
    let games: Vec<u32> = (0..opts.games).collect();
    parallel_map(&games, opts.threads, |&g| play(g, eval, opts))
        .into_iter()
        .flatten()
        .collect()
}

/// The samples whose empties fall in stage `k` of `min_empties`.
fn stage_samples<'a>(samples: &'a [Sample], min_empties: &[u32], k: usize) -> Vec<&'a Sample> {
    let upper = if k == 0 { u32::MAX } else { min_empties[k - 1] };
    samples
        .iter()
        .filter(|s| s.0.empties() >= min_empties[k] && s.0.empties() < upper)
        .collect()
}

/// Fits one feature weight set per stage of `base`, with `ridge` added to
/// the diagonal of the normal equations per sample.
pub fn fit_features(base: &Features, samples: &[Sample], ridge: f64) -> Vec<StageFit> {
    let stages = base.stages();
    let bounds: Vec<u32> = stages.iter().map(|s| s.0).collect();
    stages
        .iter()
        .enumerate()
        .map(|(k, &(min_empties, before))| {
            let xs: Vec<([i32; FEATURES], f64)> = stage_samples(samples, &bounds, k)
                .into_iter()
                .map(|(b, y)| (feature_values(b), *y))
                .collect();
            let mut ata = vec![vec![0.0; FEATURES]; FEATURES];
            let mut atb = vec![0.0; FEATURES];
            for (f, y) in &xs {
                for i in 0..FEATURES {
                    atb[i] += f64::from(f[i]) * y;
                    for j in 0..FEATURES {
                        ata[i][j] += f64::from(f[i]) * f64::from(f[j]);
                    }
                }
            }
            for (i, row) in ata.iter_mut().enumerate() {
                row[i] += ridge * xs.len().max(1) as f64;
            }
            let weights: [f64; FEATURES] = match crate::stats::linalg::cholesky(&ata) {
                _ if xs.is_empty() => before,
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
                    .map(|(f, y)| {
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

/// How well one pattern stage fits.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PatternStageFit {
    /// The stage's `min_empties`.
    pub min_empties: u32,
    /// Samples.
    pub samples: usize,
    /// Root-mean-square error of the base weights, in discs.
    pub rmse_before: f64,
    /// Root-mean-square error of the fitted weights, in discs.
    pub rmse_after: f64,
    /// Conjugate-gradient iterations run.
    pub iterations: u32,
}

/// `CANON[i]`: the table entry whose weight entry `i` shares (the smaller
/// of a configuration's index and its mirror image's), over the tables of
/// the first `patterns` patterns (those a fit gives weights).
pub fn canonical_entries(patterns: usize) -> Vec<u32> {
    let mut canon = vec![0u32; patterns::stage_size(patterns)];
    for (k, p) in SET.iter().enumerate().take(patterns) {
        let o = patterns::offset(k);
        for i in 0..p.size() {
            canon[o + i] = (o + i.min(p.mirrored(i))) as u32;
        }
    }
    canon
}

/// The design matrix of one stage: per sample, the table entries of its
/// instances of the fitted patterns (canonical; `stride` a sample), its
/// mobility difference, its parity term (+1 or −1; 0 when the parity is
/// not fitted, which leaves its weight at 0) and its label. The parameters
/// are the `size` table entries, then the bias, the mobility weight and
/// the parity weight.
struct Design {
    size: usize,
    stride: usize,
    entries: Vec<u32>,
    mobility: Vec<f64>,
    parity: Vec<f64>,
    labels: Vec<f64>,
}

impl Design {
    /// `canon` is [`canonical_entries`] of the patterns to fit.
    fn new(samples: &[&Sample], canon: &[u32], with_parity: bool) -> Design {
        let fitted = patterns::patterns_of(canon.len()).expect("canon covers a pattern set");
        // The fitted patterns' instances come first in a reading.
        let stride = patterns::instances_of(fitted);
        let mut entries = Vec::with_capacity(samples.len() * stride);
        let mut mobility = Vec::with_capacity(samples.len());
        let mut parity = Vec::with_capacity(samples.len());
        let mut labels = Vec::with_capacity(samples.len());
        for (b, y) in samples {
            for (k, i) in patterns::indices(b).into_iter().take(stride) {
                entries.push(canon[patterns::offset(k as usize) + i as usize]);
            }
            mobility.push(f64::from(
                legal_moves(b.player, b.opponent).count_ones() as i32
                    - legal_moves(b.opponent, b.player).count_ones() as i32,
            ));
            parity.push(if with_parity {
                patterns::parity(b)
            } else {
                0.0
            });
            labels.push(*y);
        }
        Design {
            size: canon.len(),
            stride,
            entries,
            mobility,
            parity,
            labels,
        }
    }

    /// Where the bias, the mobility and the parity weights are among the
    /// parameters.
    fn scalars(&self) -> (usize, usize, usize) {
        (self.size, self.size + 1, self.size + 2)
    }

    /// `A x`.
    fn apply(&self, x: &[f64], out: &mut [f64]) {
        let (bias, mobility, parity) = self.scalars();
        for (n, o) in out.iter_mut().enumerate() {
            let mut v = x[bias] + self.mobility[n] * x[mobility] + self.parity[n] * x[parity];
            for &e in &self.entries[n * self.stride..(n + 1) * self.stride] {
                v += x[e as usize];
            }
            *o = v;
        }
    }

    /// `Aᵀ r`.
    fn apply_transposed(&self, r: &[f64], out: &mut [f64]) {
        let (bias, mobility, parity) = self.scalars();
        out.iter_mut().for_each(|v| *v = 0.0);
        for (n, &rn) in r.iter().enumerate() {
            out[bias] += rn;
            out[mobility] += self.mobility[n] * rn;
            out[parity] += self.parity[n] * rn;
            for &e in &self.entries[n * self.stride..(n + 1) * self.stride] {
                out[e as usize] += rn;
            }
        }
    }
}

/// Least squares with a ridge penalty on the table entries, by conjugate
/// gradients on the normal equations (CGLS): at most `max_iterations`, or
/// until the gradient has shrunk by 1e-6.
fn cgls(a: &Design, ridge: f64, max_iterations: u32) -> (Vec<f64>, u32) {
    let params = a.size + 3;
    let rows = a.labels.len();
    let penalty = |i: usize| if i < a.size { ridge } else { 0.0 };
    let dot = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
    let mut x = vec![0.0; params];
    let mut r = a.labels.clone();
    let mut s = vec![0.0; params];
    a.apply_transposed(&r, &mut s);
    let mut p = s.clone();
    let mut gamma = dot(&s, &s);
    let gamma0 = gamma;
    let mut q = vec![0.0; rows];
    let mut iterations = 0;
    while iterations < max_iterations && gamma > 1e-12 * gamma0 && gamma > 0.0 {
        a.apply(&p, &mut q);
        let pp: f64 = p.iter().enumerate().map(|(i, v)| penalty(i) * v * v).sum();
        let alpha = gamma / (dot(&q, &q) + pp);
        for (xi, pi) in x.iter_mut().zip(&p) {
            *xi += alpha * pi;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        a.apply_transposed(&r, &mut s);
        for (i, si) in s.iter_mut().enumerate() {
            *si -= penalty(i) * x[i];
        }
        let next = dot(&s, &s);
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
        iterations += 1;
    }
    (x, iterations)
}

/// Fits one stage's tables, bias and mobility weight (and its parity
/// weight when `parity`; 0 otherwise) to `xs` (a non-empty set), with
/// `ridge` per table entry and at most `max_iterations` conjugate-gradient
/// steps; `canon` is [`canonical_entries`] of the patterns to fit, which
/// the weights then hold. Returns the weights and the steps taken.
pub fn fit_stage(
    xs: &[&Sample],
    canon: &[u32],
    ridge: f64,
    max_iterations: u32,
    parity: bool,
) -> (StageWeights, u32) {
    let design = Design::new(xs, canon, parity);
    let (x, iterations) = cgls(&design, ridge, max_iterations);
    let (bias, mobility, parity) = design.scalars();
    let tables: Vec<i16> = (0..design.size)
        .map(|i| {
            let w = x[canon[i] as usize].round();
            w.clamp(-patterns::MAX_TABLE_WEIGHT, patterns::MAX_TABLE_WEIGHT) as i16
        })
        .collect();
    let stage = StageWeights {
        bias: (x[bias] * 100.0).round() / 100.0,
        mobility: (x[mobility] * 100.0).round() / 100.0,
        parity: (x[parity] * 100.0).round() / 100.0,
        tables,
    };
    (stage, iterations)
}

/// Root-mean-square error of `eval` on `samples`, in discs.
fn rmse(eval: &Patterns, samples: &[&Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sse: f64 = samples
        .iter()
        .map(|(b, y)| {
            let e = f64::from(eval.evaluate(b)) - y;
            e * e
        })
        .sum();
    (sse / samples.len() as f64).sqrt() / f64::from(UNITS_PER_DISC)
}

/// Fits the pattern tables of every stage of `base` (stages on up to
/// `threads` threads), with `ridge` per table entry and at most
/// `max_iterations` conjugate-gradient steps a stage; the parity weights
/// too when `base` weighs the parity anywhere, and the patterns `base` has.
/// A stage without samples keeps the base's weights.
pub fn fit_patterns(
    base: &Patterns,
    samples: &[Sample],
    ridge: f64,
    max_iterations: u32,
    threads: usize,
) -> (Patterns, Vec<PatternStageFit>) {
    let bounds: Vec<u32> = base.stages().map(|s| s.0).collect();
    let parity = base.has_parity();
    let canon = canonical_entries(base.patterns().len());
    let stages: Vec<usize> = (0..bounds.len()).collect();
    let results = parallel_map(&stages, threads, |&k| {
        let xs = stage_samples(samples, &bounds, k);
        if xs.is_empty() {
            // Nothing to fit: the base stage stays.
            let base_stage = base.stages().nth(k).expect("k < stages").1.clone();
            return (base_stage, 0);
        }
        fit_stage(&xs, &canon, ridge, max_iterations, parity)
    });
    let iterations: Vec<u32> = results.iter().map(|r| r.1).collect();
    let fitted = Patterns::new(bounds.clone(), results.into_iter().map(|r| r.0).collect());
    let fits = (0..bounds.len())
        .map(|k| {
            let xs = stage_samples(samples, &bounds, k);
            PatternStageFit {
                min_empties: bounds[k],
                samples: xs.len(),
                rmse_before: rmse(base, &xs),
                rmse_after: rmse(&fitted, &xs),
                iterations: iterations[k],
            }
        })
        .collect();
    (fitted, fits)
}

/// Writes samples, one line each: the side to move's discs and the
/// opponent's as 16 hex digits (bit 0 = a1), then the label in centidiscs.
pub fn samples_text(samples: &[Sample]) -> String {
    let mut out = String::with_capacity(samples.len() * 42);
    for (b, y) in samples {
        let _ = writeln!(out, "{:016x} {:016x} {y}", b.player, b.opponent);
    }
    out
}

/// Reads what [`samples_text`] wrote.
///
/// # Errors
/// A malformed line, naming the file and line.
pub fn parse_samples(text: &str, path: &std::path::Path) -> crate::Result<Vec<Sample>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = || {
            crate::Error::config_at(
                path,
                n + 1,
                1,
                format!("expected `player-hex opponent-hex label`, got {line:?}"),
            )
        };
        let mut parts = line.split_whitespace();
        let (Some(p), Some(o), Some(y), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let p = u64::from_str_radix(p, 16).map_err(|_| bad())?;
        let o = u64::from_str_radix(o, 16).map_err(|_| bad())?;
        let y: f64 = y.parse().map_err(|_| bad())?;
        if p & o != 0 || !y.is_finite() || y.abs() > 6400.0 {
            return Err(bad());
        }
        out.push((
            Board {
                player: p,
                opponent: o,
                side: crate::game::othello::Color::Black,
            },
            y,
        ));
    }
    Ok(out)
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
