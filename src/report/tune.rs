//! A tune's results, read back from its games: θ after each iteration
//! whose games are all in (in index order, as the run applied them), each
//! parameter's start and last value, and the trajectory the report plots.

use crate::records::tune::{Replay, TuneParam};
use crate::records::{Format, GameRecord, TournamentInfo};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Most points of a trajectory kept in `results.json` (a long tune's is
/// thinned to every k-th iteration, its last always kept).
pub const MOST_POINTS: u64 = 500;

/// A tune's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneSummary {
    /// The tune's iterations.
    pub iterations: u64,
    /// Iterations applied: each with all its games in, and every one
    /// before it.
    pub iterations_done: u64,
    /// Each parameter, in the config's order.
    pub params: Vec<TunedParam>,
    /// θ after 0, k, 2k, … iterations and after the last applied (k = 1
    /// for up to [`MOST_POINTS`] iterations).
    pub trajectory: Vec<TunePoint>,
}

/// One parameter of a tune.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedParam {
    /// Its field.
    pub field: String,
    /// Its value before the tune.
    pub start: f64,
    /// Its least value.
    pub min: f64,
    /// Its greatest value.
    pub max: f64,
    /// θ after the iterations applied (as tuned, not rounded).
    pub value: f64,
}

/// θ after some iterations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunePoint {
    /// Iterations applied.
    pub iteration: u64,
    /// θ then, in the order of the parameters.
    pub theta: Vec<f64>,
}

/// The results of the tune `info` runs (`None` for another format), over
/// `games` (each game id once).
pub fn tune_summary<'a>(
    info: &TournamentInfo,
    games: impl Iterator<Item = &'a GameRecord>,
) -> Option<TuneSummary> {
    let mut tally = TuneTally::new(info)?;
    games.for_each(|g| tally.add(g));
    Some(tally.summary())
}

/// [`tune_summary`] kept up to date game by game: θ moves on as each
/// iteration's games are all in (in index order), so a summary costs the
/// trajectory's points, not the games.
#[derive(Clone, Debug)]
pub struct TuneTally {
    iterations: u64,
    params: Vec<TuneParam>,
    /// θ, replayed as the run applied it.
    theta: Replay,
    /// Every this many iterations a point of the trajectory is kept.
    every: u64,
    /// θ after 0, k, 2k, … iterations.
    trajectory: Vec<TunePoint>,
}

impl TuneTally {
    /// No games yet of the tune `info` runs (`None` for another format).
    pub fn new(info: &TournamentInfo) -> Option<TuneTally> {
        let Format::Spsa {
            params,
            iterations,
            pairs_per_iteration,
            ..
        } = &info.format
        else {
            return None;
        };
        // Rounding only changes the values played, which the games hold.
        let spsa = info.format.spsa(info.seed, &[])?;
        let theta = Replay::new(Arc::new(spsa), *pairs_per_iteration, info.engines.first()?);
        Some(TuneTally {
            trajectory: vec![TunePoint {
                iteration: 0,
                theta: theta.theta().to_vec(),
            }],
            iterations: *iterations,
            params: params.clone(),
            theta,
            every: iterations.div_ceil(MOST_POINTS).max(1),
        })
    }

    /// Counts game `g` (a second record of a game id is not counted) and
    /// applies the iterations it completes.
    pub fn add(&mut self, g: &GameRecord) {
        let before = self.theta.applied();
        self.theta.add(g);
        self.theta.advance();
        for done in before + 1..=self.theta.applied() {
            if let (true, Some(theta)) = (
                done.is_multiple_of(self.every),
                self.theta.theta_after(done),
            ) {
                self.trajectory.push(TunePoint {
                    iteration: done,
                    theta: theta.to_vec(),
                });
            }
        }
    }

    /// The tune's results so far.
    pub fn summary(&self) -> TuneSummary {
        let done = self.theta.applied();
        let mut trajectory = self.trajectory.clone();
        if !done.is_multiple_of(self.every) {
            trajectory.push(TunePoint {
                iteration: done,
                theta: self.theta.theta().to_vec(),
            });
        }
        TuneSummary {
            iterations: self.iterations,
            iterations_done: done,
            params: self
                .params
                .iter()
                .zip(self.theta.theta())
                .map(|(p, &value)| TunedParam {
                    field: p.field.clone(),
                    start: p.start,
                    min: p.min,
                    max: p.max,
                    value,
                })
                .collect(),
            trajectory,
        }
    }
}

impl TuneSummary {
    /// One line of progress: `iteration 12/100: aspiration=61.3
    /// endgame_exact_at=17.2`.
    pub fn line(&self) -> String {
        let values: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}={}", p.field, short(p.value)))
            .collect();
        format!(
            "iteration {}/{}: {}",
            self.iterations_done,
            self.iterations,
            values.join(" ")
        )
    }

    /// The tune in a few lines: iterations applied, then each parameter's
    /// start, value now and bounds.
    pub fn block(&self) -> String {
        let width = self.params.iter().map(|p| p.field.len()).max().unwrap_or(0);
        let mut s = format!(
            "Tune: {} of {} iterations applied",
            self.iterations_done, self.iterations
        );
        for p in &self.params {
            s.push_str(&format!(
                "\n  {:width$}  {} -> {} (bounds {} to {})",
                p.field,
                short(p.start),
                short(p.value),
                p.min,
                p.max
            ));
        }
        s
    }
}

/// `x` with up to 3 decimals, trailing zeros dropped (`50`, `63.125`).
fn short(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
