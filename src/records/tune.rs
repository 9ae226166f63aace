//! What a tune records: its parameters as the config writes them
//! ([`TuneParam`], inside [`Format::Spsa`](super::Format)), the values
//! each side of a game played (in the journal, a game's
//! [`TunePlayed`](super::game::TunePlayed)), and the
//! results of its iterations read back from its games ([`Iterations`]).

use super::game::GameRecord;
use crate::stats::spsa::{Param, Schedule, Spsa};
use serde::{Deserialize, Serialize};

/// One tuned number, as the config writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneParam {
    /// The engine file's field, as `FILE.ron:FIELD=VALUE` names it
    /// (`aspiration`, `eval.scale`).
    pub field: String,
    /// Its value before the tune.
    pub start: f64,
    /// Its least value.
    pub min: f64,
    /// Its greatest value.
    pub max: f64,
    /// The perturbation at the last iteration (fishtest's `c_end`).
    pub c_end: f64,
    /// The step at the last iteration, relative to `c_end²` (fishtest's
    /// `r_end`).
    pub r_end: f64,
}

/// fishtest's α.
pub fn default_alpha() -> f64 {
    0.602
}

/// fishtest's γ.
pub fn default_gamma() -> f64 {
    0.101
}

/// fishtest's A ratio.
pub fn default_a_ratio() -> f64 {
    0.1
}

/// One pair an iteration.
pub fn one_pair() -> u64 {
    1
}

/// The tune a `Spsa` format describes, seeded `seed`; `integer` says which
/// parameters are integer fields (played rounded; the trajectory itself
/// does not depend on it).
pub fn spsa_of(params: &[TuneParam], schedule: Schedule, seed: u64, integer: &[bool]) -> Spsa {
    Spsa {
        params: params
            .iter()
            .enumerate()
            .map(|(i, p)| Param {
                name: p.field.clone(),
                start: p.start,
                min: p.min,
                max: p.max,
                c_end: p.c_end,
                r_end: p.r_end,
                integer: integer.get(i).copied().unwrap_or(false),
            })
            .collect(),
        schedule,
        seed,
    }
}

/// The results of a tune's iterations as its games come in: θ+'s wins −
/// losses in each, and how many of its games are in.
#[derive(Clone, Debug, Default)]
pub struct Iterations {
    /// Per iteration: games in, and θ+'s wins − losses over them.
    tally: Vec<(u64, i64)>,
    /// Game ids counted (a game journalled twice counts once).
    counted: Vec<bool>,
    /// Games an iteration plays.
    games_each: u64,
    /// θ+'s name.
    plus: String,
}

impl Iterations {
    /// No games yet of a tune of `iterations` iterations of
    /// `pairs_per_iteration` pairs, whose θ+ plays as `plus`.
    pub fn new(iterations: u64, pairs_per_iteration: u64, plus: &str) -> Iterations {
        let n = usize::try_from(iterations).unwrap_or(usize::MAX);
        Iterations {
            tally: vec![(0, 0); n],
            counted: Vec::new(),
            games_each: 2 * pairs_per_iteration,
            plus: plus.to_string(),
        }
    }

    /// Counts a finished game (once per game id; games outside the tune
    /// are not counted).
    pub fn add(&mut self, g: &GameRecord) {
        let Some(k) = usize::try_from(g.pair_id / (self.games_each / 2)).ok() else {
            return;
        };
        let (Some(slot), Ok(id)) = (self.tally.get_mut(k), usize::try_from(g.game_id)) else {
            return;
        };
        if self.counted.len() <= id {
            self.counted.resize(id + 1, false);
        }
        if std::mem::replace(&mut self.counted[id], true) {
            return;
        }
        let points = g.points_of(&self.plus).unwrap_or(0.5);
        slot.0 += 1;
        slot.1 += if points > 0.5 {
            1
        } else if points < 0.5 {
            -1
        } else {
            0
        };
    }

    /// The results of iterations 0.. while each has all its games in.
    pub fn complete(&self) -> impl Iterator<Item = i64> + '_ {
        self.tally
            .iter()
            .take_while(|(n, _)| *n == self.games_each)
            .map(|&(_, r)| r)
    }

    /// Iteration `k`'s result, once all its games are in.
    pub fn result(&self, k: usize) -> Option<i64> {
        self.tally
            .get(k)
            .filter(|(n, _)| *n == self.games_each)
            .map(|&(_, r)| r)
    }
}
