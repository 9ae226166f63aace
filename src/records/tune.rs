//! What a tune records: its parameters as the config writes them
//! ([`TuneParam`], inside [`Format::Spsa`](super::Format)), the values
//! each side of a game played (in the journal, a game's
//! [`TunePlayed`](super::game::TunePlayed)), and θ read back from its
//! games ([`Replay`]): the one home of a tune's iterations, of the
//! iteration each pair belongs to ([`iteration_of`]) and of θ's replay,
//! which the runner, the workers and the report all use.

use super::game::GameRecord;
use crate::stats::spsa::{Param, Schedule, Spsa};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

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

/// The iteration pair `pair` belongs to, in a tune of
/// `pairs_per_iteration` pairs an iteration (at least one).
pub fn iteration_of(pair: u64, pairs_per_iteration: u64) -> u64 {
    pair / pairs_per_iteration.max(1)
}

/// θ as a tune's games come in: the iterations' results, and θ after
/// each iteration applied, in index order, once all its games are in.
/// Of a game recorded twice the first record counts
/// ([`add`](Self::add)); in a run shared by workers, the record of the
/// lowest worker ID ([`add_written`](Self::add_written)), as `arena
/// report` counts it.
#[derive(Clone, Debug)]
pub struct Replay {
    spsa: Arc<Spsa>,
    pairs_per_iteration: u64,
    tally: Iterations,
    /// θ after 0, 1, 2… iterations, one row of the parameters each (the
    /// first is the start).
    thetas: Vec<f64>,
    /// Iterations applied (rows of `thetas` past the first).
    applied: usize,
    /// The worker whose record of each game counts (the lowest ID read).
    writers: HashMap<u64, Arc<str>>,
}

/// A game whose counted record changed after θ was stepped with the one
/// counted before: a lower worker ID's record, read late, with another
/// result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restepped {
    /// The game.
    pub game_id: u64,
    /// Its iteration.
    pub iteration: u64,
    /// The worker whose record θ was stepped with.
    pub stepped_with: Arc<str>,
    /// The lower worker ID whose record now counts.
    pub counted: Arc<str>,
}

impl Replay {
    /// No games yet of the tune `spsa` of `pairs_per_iteration` pairs an
    /// iteration, whose θ+ plays as `plus`.
    pub fn new(spsa: Arc<Spsa>, pairs_per_iteration: u64, plus: &str) -> Replay {
        Replay {
            tally: Iterations::new(spsa.schedule.iterations, pairs_per_iteration, plus),
            thetas: spsa.start(),
            applied: 0,
            spsa,
            pairs_per_iteration,
            writers: HashMap::new(),
        }
    }

    /// The tune.
    pub fn spsa(&self) -> &Spsa {
        &self.spsa
    }

    /// The iteration of pair `pair`.
    pub fn iteration_of(&self, pair: u64) -> u64 {
        iteration_of(pair, self.pairs_per_iteration)
    }

    /// Counts game `g` (a second record of a game id is not counted);
    /// [`advance`](Self::advance) applies what it completes.
    pub fn add(&mut self, g: &GameRecord) {
        self.tally.add(g);
    }

    /// Counts `g`, journalled by worker `w`, when no record of its game
    /// came from a lower worker ID (in place of a higher one's);
    /// [`advance`](Self::advance) applies what it completes. A record that
    /// changes a result θ was already stepped with is counted all the same
    /// and returned: θ after it is not the one played on.
    pub fn add_written(&mut self, g: &GameRecord, w: &Arc<str>) -> Option<Restepped> {
        let held = self.writers.get(&g.game_id).cloned();
        if held.as_ref().is_some_and(|h| h <= w) {
            return None;
        }
        self.writers.insert(g.game_id, Arc::clone(w));
        let (k, changed) = self.tally.replace(g)?;
        let stepped = changed && (k as u64) < self.applied();
        held.filter(|_| stepped).map(|h| Restepped {
            game_id: g.game_id,
            iteration: k as u64,
            stepped_with: h,
            counted: Arc::clone(w),
        })
    }

    /// Applies every iteration now complete, in index order.
    pub fn advance(&mut self) {
        let p = self.spsa.params.len();
        while let Some(r) = self.tally.result(self.applied) {
            let theta = self
                .spsa
                .step(self.applied as u64, &self.thetas[self.applied * p..], r);
            self.thetas.extend(theta);
            self.applied += 1;
        }
    }

    /// Iterations applied: each with all its games in, and every one
    /// before it.
    pub fn applied(&self) -> u64 {
        self.applied as u64
    }

    /// θ after `n` iterations, once they are applied (`n` = 0: the start).
    pub fn theta_after(&self, n: u64) -> Option<&[f64]> {
        let p = self.spsa.params.len();
        let n = usize::try_from(n).ok().filter(|&n| n <= self.applied)?;
        self.thetas.get(n.checked_mul(p)?..(n + 1).checked_mul(p)?)
    }

    /// θ after the iterations applied.
    pub fn theta(&self) -> &[f64] {
        self.theta_after(self.applied()).unwrap_or_default()
    }

    /// The θ iteration `k` plays from: after iterations 0..k−delay−1,
    /// once they are applied.
    pub fn theta_before(&self, k: u64) -> Option<&[f64]> {
        self.theta_after(k.saturating_sub(self.spsa.schedule.delay))
    }
}

/// The results of a tune's iterations as its games come in: θ+'s wins −
/// losses in each, and how many of its games are in.
#[derive(Clone, Debug, Default)]
struct Iterations {
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
    fn new(iterations: u64, pairs_per_iteration: u64, plus: &str) -> Iterations {
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
    fn add(&mut self, g: &GameRecord) {
        self.count(g, false);
    }

    /// Counts `g` in place of the record of its game id counted before,
    /// if any (one the caller's rule puts after it: another worker's
    /// record of a game two workers finished). The iteration of the game,
    /// and whether its result changed; `None` for a game outside the tune.
    fn replace(&mut self, g: &GameRecord) -> Option<(usize, bool)> {
        self.count(g, true)
    }

    /// Counts `g`; a record of a game counted before replaces it when
    /// `replace`, else is left out. The game's iteration and whether its
    /// result differs from the record counted before.
    fn count(&mut self, g: &GameRecord, replace: bool) -> Option<(usize, bool)> {
        let k = usize::try_from(iteration_of(g.pair_id, self.games_each / 2)).ok()?;
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
    #[cfg(test)]
    fn complete(&self) -> impl Iterator<Item = i64> + '_ {
        self.tally
            .iter()
            .take_while(|(n, _)| *n == self.games_each)
            .map(|&(_, r)| r)
    }

    /// Iteration `k`'s result, once all its games are in.
    fn result(&self, k: usize) -> Option<i64> {
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
        let (black, white) = if plus_black {
            ("e+", "e-")
        } else {
            ("e-", "e+")
        };
        let result = if plus_black { points } else { 1.0 - points };
        GameRecord::example(id, black, white, result)
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

    /// The tune of the SPSA tests' example line, `delay` iterations late,
    /// one pair an iteration, θ+ playing as `e+`.
    fn example(delay: u64) -> Replay {
        let param = TuneParam {
            field: "aspiration".into(),
            start: 50.0,
            min: 5.0,
            max: 300.0,
            c_end: 10.0,
            r_end: 0.002,
        };
        let schedule = Schedule {
            iterations: 5000,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            delay,
        };
        Replay::new(Arc::new(spsa_of(&[param], schedule, 1, &[true])), 1, "e+")
    }

    /// The two games of each iteration `k` of one pair, whose θ+ scores
    /// `results[k]` (−2 to 2).
    fn games_of(results: &[i64]) -> Vec<GameRecord> {
        let mut games = Vec::new();
        for (k, &r) in results.iter().enumerate() {
            let points = match r {
                2 => [1.0, 1.0],
                1 => [1.0, 0.5],
                0 => [0.5, 0.5],
                -1 => [0.0, 0.5],
                _ => [0.0, 0.0],
            };
            games.push(game(2 * k as u64, points[0]));
            games.push(game(2 * k as u64 + 1, points[1]));
        }
        games
    }

    /// A replay of `results`' games.
    fn replayed(delay: u64, results: &[i64]) -> Replay {
        let mut r = example(delay);
        games_of(results).iter().for_each(|g| r.add(g));
        r.advance();
        r
    }

    #[test]
    fn theta_waits_for_the_delay_and_applies_in_index_order() {
        let results = [2, -2, 1, 0, 2];
        let r = replayed(2, &results);
        let spsa = r.spsa().clone();
        for k in 0..=2 {
            assert_eq!(r.theta_before(k), Some(&spsa.start()[..]), "iteration {k}");
        }
        let after_two = spsa.step(1, &spsa.step(0, &spsa.start(), 2), -2);
        assert_eq!(r.theta_before(4), Some(&after_two[..]));
        // Results past k - delay - 1 are not looked at.
        assert_eq!(
            replayed(2, &results[..2]).theta_before(4),
            Some(&after_two[..])
        );
        // Without them θ is not known yet.
        assert_eq!(replayed(2, &results[..1]).theta_before(4), None);
    }

    #[test]
    fn a_pair_is_of_the_iteration_its_index_says() {
        assert_eq!(iteration_of(0, 3), 0);
        assert_eq!(iteration_of(5, 3), 1);
        assert_eq!(iteration_of(6, 3), 2);
        assert_eq!(example(0).iteration_of(7), 7);
    }

    #[test]
    fn a_lower_id_read_after_the_step_is_counted_and_reported() {
        let mut r = example(0);
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        assert_eq!(r.add_written(&game(0, 1.0), &b), None);
        assert_eq!(r.add_written(&game(1, 1.0), &b), None);
        r.advance();
        assert_eq!(r.applied(), 1);
        // A higher ID's record is left out; the same result from a lower
        // ID changes nothing.
        assert_eq!(r.add_written(&game(1, 0.0), &Arc::from("c")), None);
        assert_eq!(r.add_written(&game(0, 1.0), &a), None);
        let want = Restepped {
            game_id: 1,
            iteration: 0,
            stepped_with: b.clone(),
            counted: a.clone(),
        };
        assert_eq!(r.add_written(&game(1, 0.0), &a), Some(want));
    }

    proptest::proptest! {
        /// θ before an iteration is the fold of the results it may see,
        /// whatever the delay.
        #[test]
        fn theta_before_is_the_fold_of_the_results_it_may_see(
            results in proptest::collection::vec(-2i64..=2, 0..40),
            delay in 0u64..5,
        ) {
            let r = replayed(delay, &results);
            let spsa = r.spsa().clone();
            for k in 0..results.len() as u64 {
                let known = k.saturating_sub(delay) as usize;
                let fold = results[..known]
                    .iter()
                    .enumerate()
                    .fold(spsa.start(), |t, (j, &x)| spsa.step(j as u64, &t, x));
                proptest::prop_assert_eq!(r.theta_before(k), Some(&fold[..]));
            }
        }
    }
}
