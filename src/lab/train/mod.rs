//! `arena train FILE`: the training pipeline of the pattern evaluation.
//!
//! 1. **Self-play** ([`play`]): seeded games from the book's openings at
//!    `play_depth`, with controlled randomness above `exact_at` empties and
//!    exact play below, every position kept (but those whose side to move
//!    must pass).
//! 2. **Labels, from the end backwards** (as Logistello and Edax are
//!    trained): positions at `exact_at` empties or fewer get their exact
//!    value during self-play. Above, a label is `search_weight` times a
//!    `label_depth` search plus the rest times the game's exact outcome.
//!    With searches, the design's stages are taken from the last (fewest
//!    empties) to the first, and each in bands of `label_depth` empties
//!    from its fewest up: a band is labelled by searches whose evaluation
//!    has every stage below fitted (and this stage fitted on its earlier
//!    bands), so every search's leaves are scored by weights already
//!    fitted. Stages whose labels are all known without a search (exact,
//!    or outcomes with `search_weight: 0`) depend on no other stage and
//!    are fitted first, in parallel.
//! 3. **Fits**: each stage's tables, bias and mobility weight (and parity
//!    weight, with `parity: true`) by sparse least squares (CGLS,
//!    [`super::fit::fit_stage`]).
//! 4. **Held-out games** (every `held_out`th) stay out of the fits and
//!    measure them: the root-mean-square error per stage on their
//!    positions, for the fitted weights and for the play weights on the
//!    same labels.
//!
//! The weights are written in binary form (`.bin`, loaded in
//! milliseconds). Every step is deterministic for a given file and seed,
//! whatever the number of threads: the same file gives the same bytes.

pub mod config;
pub mod play;

pub use config::Training;

use super::fit::{canonical_entries, fit_stage, Sample};
use crate::eval::patterns::StageWeights;
use crate::eval::{OthelloEval, Patterns, UNITS_PER_DISC};
use crate::search::Evaluator;
use crate::util::par::parallel_map_with;
use crate::util::progress::Progress;
use crate::util::write_atomic_bytes;
use crate::Result;
use play::{GamePlayer, Labeller, TrainPosition};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// How one stage came out.
#[derive(Clone, Debug, Serialize)]
pub struct StageReport {
    /// Fewest empties of the stage's positions.
    pub min_empties: u32,
    /// Most empties of the stage's positions.
    pub max_empties: u32,
    /// Positions fitted.
    pub train: usize,
    /// Held-out positions measured.
    pub held_out: usize,
    /// Positions labelled by exact solves (the others by searches).
    pub exact: usize,
    /// Root-mean-square error on the fitted positions, in discs.
    pub rmse_train: f64,
    /// Root-mean-square error on the held-out positions, in discs.
    pub rmse_held_out: f64,
    /// The play weights' root-mean-square error on the same held-out
    /// positions and labels, in discs.
    pub rmse_held_out_play: f64,
    /// Conjugate-gradient steps run.
    pub iterations: u32,
    /// Seconds spent labelling by search.
    pub label_seconds: f64,
    /// Seconds spent fitting.
    pub fit_seconds: f64,
}

/// What `arena train` did.
#[derive(Clone, Debug, Serialize)]
pub struct TrainReport {
    /// The weights file written.
    pub out: PathBuf,
    /// Games played.
    pub games: u32,
    /// Positions kept (fitted and held out).
    pub positions: usize,
    /// Per stage, from the first (most empties) to the last.
    pub stages: Vec<StageReport>,
    /// Seconds of self-play (exact labels included).
    pub play_seconds: f64,
    /// Seconds in all.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// FNV-1a of the written file, in hex: equal runs give equal files.
    pub checksum: String,
}

/// Root-mean-square error of `eval` against the labels of `positions`, in
/// discs.
fn rmse(eval: &OthelloEval, positions: &[&TrainPosition]) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let sse: f64 = positions
        .iter()
        .map(|p| {
            let e = f64::from(eval.evaluate(&p.board) - p.label.unwrap_or(0));
            e * e
        })
        .sum();
    (sse / positions.len() as f64).sqrt() / f64::from(UNITS_PER_DISC)
}

/// How training works: on `n` threads, telling `progress` how far it is.
#[derive(Clone, Copy)]
struct Threads<'a> {
    n: usize,
    progress: &'a dyn Progress,
}

/// The games, played on `threads`, their positions in game order.
fn self_play(t: &Training, threads: Threads<'_>) -> Vec<TrainPosition> {
    let games: Vec<u32> = (0..t.games).collect();
    let bar = threads.progress;
    bar.begin(Some(u64::from(t.games)), "games", "self-play");
    let per_game = parallel_map_with(
        &games,
        threads.n,
        || GamePlayer::new(t),
        |player, &g| {
            let positions = player.play(g);
            bar.step();
            positions
        },
    );
    bar.end();
    per_game.into_iter().flatten().collect()
}

/// Labels, by search with the weights `stages` (bounds `bounds`) as they
/// are now, the positions of `band` that have no label yet.
fn label_band(
    t: &Training,
    positions: &mut [TrainPosition],
    band: &[usize],
    (bounds, stages): (&[u32], &[StageWeights]),
    threads: Threads<'_>,
    name: &str,
) {
    let todo: Vec<usize> = band
        .iter()
        .copied()
        .filter(|&i| positions[i].label.is_none())
        .collect();
    if todo.is_empty() {
        return;
    }
    let eval = Patterns::new(bounds.to_vec(), stages.to_vec());
    let bar = threads.progress;
    let message = format!("labelling {name} at depth {}", t.label_depth);
    bar.begin(Some(todo.len() as u64), "positions", &message);
    let boards: &[TrainPosition] = positions;
    let labels = parallel_map_with(
        &todo,
        threads.n,
        || Labeller::new(&eval, t.label_depth),
        |labeller, &i| {
            let p = &boards[i];
            let searched = f64::from(labeller.label(&p.board));
            let w = t.search_weight;
            bar.step();
            (w * searched + (1.0 - w) * f64::from(p.outcome)).round() as i32
        },
    );
    bar.end();
    for (i, label) in todo.into_iter().zip(labels) {
        positions[i].label = Some(label);
    }
}

/// One stage of the design: its index, its empties and its positions.
struct StagePlan {
    k: usize,
    min: u32,
    max: u32,
    members: Vec<usize>,
}

/// What fitting a stage took.
#[derive(Clone, Copy, Default)]
struct StageCost {
    iterations: u32,
    label_seconds: f64,
    fit_seconds: f64,
}

/// Fits a stage's weights to the labelled positions of `members` with at
/// most `high` empties, outside the held-out games (`None` when there are
/// none).
fn fit_labelled(
    t: &Training,
    positions: &[TrainPosition],
    members: &[usize],
    high: u32,
    canon: &[u32],
) -> Option<(StageWeights, u32)> {
    let samples: Vec<Sample> = members
        .iter()
        .map(|&i| &positions[i])
        .filter(|p| p.board.empties() <= high && !t.is_held_out(p.game))
        .filter_map(|p| p.label.map(|y| (p.board, f64::from(y))))
        .collect();
    if samples.is_empty() {
        return None;
    }
    let refs: Vec<&Sample> = samples.iter().collect();
    Some(fit_stage(&refs, canon, t.ridge, t.iterations, t.parity))
}

/// Labels and fits a stage that needs labelling searches: band by band of
/// `label_depth` empties from its fewest up, so that each band's searches
/// reach below it, where the stages (or this stage's earlier bands) are
/// already fitted.
fn fit_by_bands(
    t: &Training,
    positions: &mut [TrainPosition],
    plan: &StagePlan,
    stages: &mut [StageWeights],
    bounds: &[u32],
    canon: &[u32],
    threads: Threads<'_>,
) -> StageCost {
    let mut cost = StageCost::default();
    let mut low = plan.min;
    while low <= plan.max {
        let high = (low + t.label_depth - 1).min(plan.max);
        let band: Vec<usize> = plan
            .members
            .iter()
            .copied()
            .filter(|&i| (low..=high).contains(&positions[i].board.empties()))
            .collect();
        let label_start = Instant::now();
        let name = format!("{low}-{high} empties");
        label_band(t, positions, &band, (bounds, stages), threads, &name);
        cost.label_seconds += label_start.elapsed().as_secs_f64();
        // Fit on what is labelled so far when a later band is still to be
        // labelled by search, and always at the stage's end.
        let later = plan
            .members
            .iter()
            .any(|&i| positions[i].label.is_none() && positions[i].board.empties() > high);
        if later || high == plan.max {
            let fit_start = Instant::now();
            let spinner = threads.progress;
            spinner.begin(None, "", &format!("fitting {}-{high} empties", plan.min));
            if let Some((fitted, steps)) = fit_labelled(t, positions, &plan.members, high, canon) {
                stages[plan.k] = fitted;
                cost.iterations = steps;
            }
            spinner.end();
            cost.fit_seconds += fit_start.elapsed().as_secs_f64();
        }
        low = high + 1;
    }
    cost
}

/// The design's stages, from the first (most empties) to the last, each
/// with the positions whose empties it covers.
fn stage_plans(bounds: &[u32], positions: &[TrainPosition]) -> Vec<StagePlan> {
    (0..bounds.len())
        .map(|k| {
            let (min, max) = (bounds[k], if k == 0 { 60 } else { bounds[k - 1] - 1 });
            let members = (0..positions.len())
                .filter(|&i| (min..=max).contains(&positions[i].board.empties()))
                .collect();
            StagePlan {
                k,
                min,
                max,
                members,
            }
        })
        .collect()
}

/// Fits at once, in parallel, the stages of `ready`, whose every label is
/// known (exact, or outcomes): they depend on no other stage.
fn fit_ready(
    t: &Training,
    positions: &[TrainPosition],
    ready: &[&StagePlan],
    stages: &mut [StageWeights],
    costs: &mut [StageCost],
    canon: &[u32],
    threads: Threads<'_>,
) {
    let bar = threads.progress;
    let message = "fitting the stages labelled in self-play";
    bar.begin(Some(ready.len() as u64), "stages", message);
    let fits = parallel_map_with(
        ready,
        threads.n,
        || (),
        |(), plan| {
            let fit_start = Instant::now();
            let fit = fit_labelled(t, positions, &plan.members, plan.max, canon);
            bar.step();
            (fit, fit_start.elapsed().as_secs_f64())
        },
    );
    bar.end();
    for (plan, (fit, seconds)) in ready.iter().zip(fits) {
        costs[plan.k].fit_seconds = seconds;
        if let Some((fitted, steps)) = fit {
            stages[plan.k] = fitted;
            costs[plan.k].iterations = steps;
        }
    }
}

/// How each stage of `plans` came out: its counts, what it took, and the
/// errors of the `fitted` and play weights.
fn stage_reports(
    t: &Training,
    positions: &[TrainPosition],
    plans: &[StagePlan],
    costs: &[StageCost],
    fitted: &OthelloEval,
) -> Vec<StageReport> {
    plans
        .iter()
        .map(|plan| {
            let (held, train): (Vec<&TrainPosition>, Vec<&TrainPosition>) = plan
                .members
                .iter()
                .map(|&i| &positions[i])
                .partition(|p| t.is_held_out(p.game));
            let cost = costs[plan.k];
            StageReport {
                min_empties: plan.min,
                max_empties: plan.max,
                train: train.len(),
                held_out: held.len(),
                exact: plan
                    .members
                    .iter()
                    .filter(|&&i| positions[i].board.empties() <= t.exact_at)
                    .count(),
                rmse_train: rmse(fitted, &train),
                rmse_held_out: rmse(fitted, &held),
                rmse_held_out_play: rmse(&t.play, &held),
                iterations: cost.iterations,
                label_seconds: cost.label_seconds,
                fit_seconds: cost.fit_seconds,
            }
        })
        .collect()
}

/// Runs the training of `t` on `threads` threads (0: every core), telling
/// `progress` how far it is, and writes its weights.
///
/// # Errors
/// The weights file cannot be written.
pub fn train(t: &Training, threads: usize, progress: &dyn Progress) -> Result<TrainReport> {
    let n = crate::util::par::threads(threads);
    let threads = Threads { n, progress };
    let start = Instant::now();
    let mut positions = self_play(t, threads);
    if t.search_weight == 0.0 {
        // Outcomes only: every label is known without a search.
        for p in positions.iter_mut().filter(|p| p.label.is_none()) {
            p.label = Some(p.outcome);
        }
    }
    let play_seconds = start.elapsed().as_secs_f64();
    let bounds: Vec<u32> = t.design.stages().map(|s| s.0).collect();
    let mut stages: Vec<StageWeights> = t.design.stages().map(|s| s.1.clone()).collect();
    let canon = canonical_entries(t.design.patterns().len());
    let plans = stage_plans(&bounds, &positions);
    let mut costs = vec![StageCost::default(); plans.len()];
    // Stages whose every label is known (exact, or outcomes) depend on no
    // other stage: they are fitted at once, in parallel.
    let ready: Vec<&StagePlan> = plans
        .iter()
        .filter(|p| p.members.iter().all(|&i| positions[i].label.is_some()))
        .collect();
    fit_ready(
        t,
        &positions,
        &ready,
        &mut stages,
        &mut costs,
        &canon,
        threads,
    );
    // The others from the end backwards.
    for plan in plans.iter().rev() {
        if !ready.iter().any(|r| r.k == plan.k) {
            costs[plan.k] = fit_by_bands(
                t,
                &mut positions,
                plan,
                &mut stages,
                &bounds,
                &canon,
                threads,
            );
        }
    }
    let fitted = OthelloEval::Patterns(Patterns::new(bounds.clone(), stages.clone()));
    let reports = stage_reports(t, &positions, &plans, &costs, &fitted);
    let weights = Patterns::new(bounds, stages);
    let bytes = weights.to_binary();
    write_atomic_bytes(&t.out, &bytes)?;
    Ok(TrainReport {
        out: t.out.clone(),
        games: t.games,
        positions: positions.len(),
        stages: reports,
        play_seconds,
        seconds: start.elapsed().as_secs_f64(),
        threads: n,
        checksum: format!("{:016x}", crate::util::hash::fnv1a(&bytes)),
    })
}
