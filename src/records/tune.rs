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
    /// Per game id, what its counted record gave θ+ (+1 a win, −1 a loss,
    /// 0 a draw); a game journalled twice counts once.
    counted: Vec<Option<i8>>,
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

    /// Counts a finished game (once per game id: a second record of it is
    /// not counted; games outside the tune are not counted).
    pub fn add(&mut self, g: &GameRecord) {
        self.count(g, false);
    }

    /// Counts `g` in place of the record of its game id counted before,
    /// if any (one the caller's rule puts after it: another worker's
    /// record of a game two workers finished). The iteration of the game,
    /// and whether its result changed; `None` for a game outside the tune.
    pub fn replace(&mut self, g: &GameRecord) -> Option<(usize, bool)> {
        self.count(g, true)
    }

    /// Counts `g`; a record of a game counted before replaces it when
    /// `replace`, else is left out. The game's iteration and whether its
    /// result differs from the record counted before.
    fn count(&mut self, g: &GameRecord, replace: bool) -> Option<(usize, bool)> {
        let k = usize::try_from(g.pair_id / (self.games_each / 2)).ok()?;
        let id = usize::try_from(g.game_id).ok()?;
        let outcome = self.outcome(g);
        let slot = self.tally.get_mut(k)?;
        if self.counted.len() <= id {
            self.counted.resize(id + 1, None);
        }
        let before = self.counted[id];
        match before {
            None => {
                slot.0 += 1;
                slot.1 += i64::from(outcome);
                self.counted[id] = Some(outcome);
            }
            Some(b) if replace => {
                slot.1 += i64::from(outcome) - i64::from(b);
                self.counted[id] = Some(outcome);
            }
            Some(_) => {}
        }
        Some((k, before.is_some_and(|b| b != outcome)))
    }

    /// What `g` gives θ+: +1 a win, −1 a loss, 0 a draw (or a game θ+ did
    /// not play).
    fn outcome(&self, g: &GameRecord) -> i8 {
        let points = g.points_of(&self.plus).unwrap_or(0.5);
        if points > 0.5 {
            1
        } else if points < 0.5 {
            -1
        } else {
            0
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `id` of a tune of one pair an iteration, `e+` against `e-`,
    /// where `e+` scores `points`.
    fn game(id: u64, points: f64) -> GameRecord {
        let plus_black = id.is_multiple_of(2);
        GameRecord {
            tune: None,
            pair_id: id / 2,
            game_id: id,
            round: id / 2,
            opening_id: 0,
            black: if plus_black { "e+" } else { "e-" }.into(),
            white: if plus_black { "e-" } else { "e+" }.into(),
            start: None,
            opening_plies: 0,
            moves: String::new(),
            result: if plus_black { points } else { 1.0 - points },
            disc_diff: 0,
            reason: "game over".into(),
            nodes: vec![],
            times_ms: vec![],
            depths: vec![],
            scores: vec![],
        }
    }

    #[test]
    fn a_second_record_counts_only_when_it_replaces_the_first() {
        let mut it = Iterations::new(3, 1, "e+");
        it.add(&game(0, 1.0));
        assert_eq!(it.result(0), None, "one game of two in");
        it.add(&game(1, 0.5));
        assert_eq!(it.result(0), Some(1));
        // Added again with another result: left out.
        it.add(&game(1, 1.0));
        assert_eq!(it.result(0), Some(1));
        // Put in place of the first: the iteration's result follows it.
        assert_eq!(it.replace(&game(1, 1.0)), Some((0, true)));
        assert_eq!(it.result(0), Some(2));
        assert_eq!(it.replace(&game(1, 1.0)), Some((0, false)));
        assert_eq!(it.replace(&game(0, 0.0)), Some((0, true)));
        assert_eq!(it.result(0), Some(0));
        // A replacement of a game not counted yet counts it once.
        assert_eq!(it.replace(&game(2, 0.0)), Some((1, false)));
        it.add(&game(3, 0.0));
        assert_eq!(it.result(1), Some(-2));
        assert_eq!(it.complete().collect::<Vec<_>>(), vec![0, -2]);
        // A game past the tune is no game of it.
        assert_eq!(it.replace(&game(6, 1.0)), None);
    }
}
