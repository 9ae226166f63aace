//! A tune's games: pair after pair of the base engine against itself, θ+
//! (engine 0) against θ− (engine 1), each pair one opening with colours
//! swapped, `pairs_per_iteration` pairs an iteration. Iteration k plays
//! the values of θ after iterations 0..k−delay−1, so it waits until those
//! iterations' games are all in; it reads no other result. Its games, and
//! so the whole trajectory, are then the same for any concurrency, any
//! timing and after a resume.
//!
//! A game two workers finished (a claim taken over from a worker thought
//! gone) counts as the worker with the lowest ID played it, in the live
//! trajectory as in `arena report` ([`Trajectory::absorb`]).

use crate::error::{Error, Wording};
use crate::records::tune::{Replay, Restepped};
use crate::records::GameRecord;
use crate::stats::spsa::Spsa;
use crate::tournament::schedule::{Finished, Next, Pairing, Schedule, Scheduler, TuneSides};
use std::sync::Arc;

/// θ as a tune's games come in ([`Replay`] keeps it), and the sides each
/// iteration plays once θ before it is known. A run of one machine and
/// each worker of a shared run keep one. Each game's recorded values are
/// checked against the sides θ gives its iteration.
pub struct Trajectory {
    theta: Replay,
    /// Games of `Finished` read so far.
    seen: usize,
    /// The sides of the iteration last asked for.
    sides: Option<Arc<TuneSides>>,
    /// Games read whose iteration's θ is not known yet: game id, iteration
    /// and the values black and white played.
    unchecked: Vec<(u64, u64, [Vec<f64>; 2], bool)>,
    /// A game whose values are not those of its iteration, or whose
    /// counted record changed after θ was stepped with another.
    pub failure: Option<String>,
}

impl Trajectory {
    /// No games yet of the tune `spsa` of `pairs_per_iteration` pairs an
    /// iteration, whose θ+ plays as `plus`.
    pub fn new(spsa: Arc<Spsa>, pairs_per_iteration: u64, plus: &str) -> Trajectory {
        Trajectory {
            theta: Replay::new(spsa, pairs_per_iteration, plus),
            seen: 0,
            sides: None,
            unchecked: Vec::new(),
            failure: None,
        }
    }

    /// Takes in the games finished since the last call (`games` grows by
    /// appending; `writers[i]`, when given, is the worker that journalled
    /// `games[i]`) and applies every iteration now complete, in index
    /// order. Of a game read twice, the first record counts; for a run of
    /// workers, the record of the lowest worker ID read before its
    /// iteration applies, as `arena report` counts it. A lower ID's record
    /// with another result read after that is a [failure](Self::failure):
    /// θ was stepped with the other.
    pub fn absorb(&mut self, games: &[GameRecord], writers: &[Arc<str>]) {
        for (i, g) in games.iter().enumerate().skip(self.seen) {
            match writers.get(i) {
                Some(w) => {
                    if let Some(r) = self.theta.add_written(g, w) {
                        self.restepped(&r);
                    }
                }
                None => self.theta.add(g),
            }
            let (black_plus, played) = match &g.tune {
                Some(t) => (g.game_id % 2 == 0, [t.black.clone(), t.white.clone()]),
                None => (true, [Vec::new(), Vec::new()]),
            };
            let k = self.theta.iteration_of(g.pair_id);
            self.unchecked.push((g.game_id, k, played, black_plus));
        }
        self.seen = self.seen.max(games.len());
        self.theta.advance();
        self.check();
    }

    /// The first game whose counted record changed after θ was stepped
    /// with another: the tune's failure.
    fn restepped(&mut self, r: &Restepped) {
        if self.failure.is_none() {
            self.failure = Some(format!(
                "game {} of iteration {} was finished by workers {} and {} with different results, and θ had been stepped with {}'s; a tune counts the lowest worker ID's, so θ after it is not the one played on (games that vary, as under a clock, cannot be played twice by a tune's workers)",
                r.game_id, r.iteration, r.stepped_with, r.counted, r.stepped_with
            ));
        }
    }

    /// Checks the games read whose iteration's θ is now known.
    fn check(&mut self) {
        let mut pending = std::mem::take(&mut self.unchecked);
        pending.retain(|(game, k, played, black_plus)| {
            let Some(sides) = self.sides_of_iteration(*k) else {
                return true;
            };
            let [plus, minus] = &sides.values;
            let want = if *black_plus { [plus, minus] } else { [minus, plus] };
            if self.failure.is_none() && (played[0] != *want[0] || played[1] != *want[1]) {
                self.failure = Some(format!(
                    "game {game} of the journal played {played:?} (black, white) where iteration {k} plays {want:?}: it is not a game of this tune"
                ));
            }
            false
        });
        self.unchecked = pending;
    }

    /// The iteration of pair `pair`.
    pub fn iteration_of(&self, pair: u64) -> u64 {
        self.theta.iteration_of(pair)
    }

    /// The sides of pair `pair`'s iteration, once θ before it is known.
    pub fn sides_of(&mut self, pair: u64) -> Option<Arc<TuneSides>> {
        let k = self.iteration_of(pair);
        let sides = self.sides_of_iteration(k)?;
        self.sides = Some(Arc::clone(&sides));
        Some(sides)
    }

    /// The sides of iteration `k`, once θ before it is known.
    fn sides_of_iteration(&self, k: u64) -> Option<Arc<TuneSides>> {
        if let Some(s) = self.sides.as_ref().filter(|s| s.iteration == k) {
            return Some(Arc::clone(s));
        }
        let theta = self.theta.theta_before(k)?;
        let (plus, minus) = self.theta.spsa().sides(k, theta);
        Some(Arc::new(TuneSides {
            iteration: k,
            values: [plus, minus],
        }))
    }
}

/// The scheduler of a tune on one machine.
pub struct TuneScheduler {
    /// The pairs, in order (the whole run: a tune is never sharded).
    fixed: Schedule,
    /// The next pair's game, taken from `fixed`, waiting for its θ.
    pending: Option<Pairing>,
    theta: Trajectory,
}

impl TuneScheduler {
    /// The tune over the pairs of `fixed`, θ kept by `theta`.
    pub fn new(fixed: Schedule, theta: Trajectory) -> TuneScheduler {
        TuneScheduler {
            fixed,
            pending: None,
            theta,
        }
    }
}

impl Scheduler for TuneScheduler {
    fn total(&self) -> u64 {
        self.fixed.total()
    }

    fn failure(&mut self) -> Option<Error> {
        let why = self.theta.failure.take()?;
        Some(Error::Run(Wording::text(why)))
    }

    fn next(&mut self, finished: &Finished<'_>) -> Next {
        self.theta.absorb(finished.games, finished.writers);
        if self.theta.failure.is_some() {
            return Next::Done;
        }
        if self.pending.is_none() {
            self.pending = self.fixed.next();
        }
        let Some(pair) = self.pending.as_ref().map(|p| p.pair_id) else {
            return Next::Done;
        };
        let Some(sides) = self.theta.sides_of(pair) else {
            return Next::Wait;
        };
        let mut p = self.pending.take().expect("a pending game");
        p.tune = Some(sides);
        Next::Play(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::game::TunePlayed;
    use crate::stats::spsa::{Param, Schedule as SpsaSchedule};

    /// A tune of one integer parameter, 4 iterations of one pair, no delay.
    fn spsa() -> Arc<Spsa> {
        Arc::new(Spsa {
            params: vec![Param {
                name: "x".into(),
                start: 5.0,
                min: 0.0,
                max: 10.0,
                c_end: 1.0,
                r_end: 0.5,
                integer: true,
            }],
            schedule: SpsaSchedule {
                iterations: 4,
                alpha: 0.602,
                gamma: 0.101,
                a_ratio: 0.1,
                delay: 0,
            },
            seed: 7,
        })
    }

    /// Game `id` of iteration 0 (θ the start), where θ+ (`e+`) scores
    /// `points`, with the values iteration 0 plays.
    fn game(id: u64, points: f64) -> GameRecord {
        let s = spsa();
        let (plus, minus) = s.sides(0, &s.start());
        let plus_black = id.is_multiple_of(2);
        let (black, white) = if plus_black {
            (plus, minus)
        } else {
            (minus, plus)
        };
        let (names, result) = if plus_black {
            (("e+", "e-"), points)
        } else {
            (("e-", "e+"), 1.0 - points)
        };
        GameRecord {
            tune: Some(TunePlayed {
                iteration: 0,
                black,
                white,
            }),
            ..GameRecord::example(id, names.0, names.1, result)
        }
    }

    fn writers(ids: &[&str]) -> Vec<Arc<str>> {
        ids.iter().map(|&i| Arc::from(i)).collect()
    }

    /// θ after iteration 0 whose θ+ scored `r`.
    fn after(r: i64) -> Vec<f64> {
        let s = spsa();
        s.step(0, &s.start(), r)
    }

    #[test]
    fn of_a_game_two_workers_finished_the_lowest_id_counts_whatever_came_first() {
        // Worker b's win comes first, then worker a's loss of the same
        // game, before the iteration is complete: a's counts.
        let games = vec![game(0, 1.0), game(0, 0.0), game(1, 0.5), game(1, 1.0)];
        let mut t = Trajectory::new(spsa(), 1, "e+");
        t.absorb(&games[..2], &writers(&["b", "a"]));
        assert_eq!(t.theta.applied(), 0);
        // A higher ID's record of game 1 after a's is left out.
        t.absorb(&games, &writers(&["b", "a", "a", "c"]));
        assert_eq!(t.failure, None);
        assert_eq!(t.theta.applied(), 1);
        assert_eq!(t.theta.theta(), &after(-1)[..]);
        // One writer: the first record counts.
        let mut one = Trajectory::new(spsa(), 1, "e+");
        one.absorb(&games, &[]);
        assert_eq!(one.theta.theta(), &after(1)[..]);
    }

    #[test]
    fn a_lower_id_with_another_result_after_the_step_ends_the_tune() {
        let mut games = vec![game(0, 1.0), game(1, 0.5)];
        let mut t = Trajectory::new(spsa(), 1, "e+");
        t.absorb(&games, &writers(&["b", "b"]));
        assert_eq!(t.theta.applied(), 1);
        // The same result from a lower ID: nothing changes.
        games.push(game(0, 1.0));
        t.absorb(&games, &writers(&["b", "b", "a"]));
        assert_eq!(t.failure, None);
        // Another result from a lower ID still: θ was stepped with b's.
        games.push(game(1, 0.0));
        t.absorb(&games, &writers(&["b", "b", "a", "a"]));
        let why = t.failure.expect("a failure");
        assert!(
            why.contains("game 1 of iteration 0") && why.contains("b and a"),
            "{why}"
        );
        assert!(!why.contains('\n'));
    }
}
