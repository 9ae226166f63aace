//! A tune's games: pair after pair of the base engine against itself, θ+
//! (engine 0) against θ− (engine 1), each pair one opening with colours
//! swapped, `pairs_per_iteration` pairs an iteration. Iteration k plays
//! the values of θ after iterations 0..k−delay−1, so it waits until those
//! iterations' games are all in; it reads no other result. Its games, and
//! so the whole trajectory, are then the same for any concurrency, any
//! timing and after a resume.

use crate::error::{Error, Wording};
use crate::records::tune::Iterations;
use crate::records::GameRecord;
use crate::stats::spsa::Spsa;
use crate::tournament::schedule::{Finished, Next, Pairing, Schedule, Scheduler, TuneSides};
use std::sync::Arc;

/// θ as a tune's games come in: the iterations applied, in index order,
/// and the sides each iteration plays once θ before it is known. A run of
/// one machine and each worker of a shared run keep one. Each game's
/// recorded values are checked against the sides θ gives its iteration.
pub struct Trajectory {
    spsa: Arc<Spsa>,
    pairs_per_iteration: u64,
    /// Games of `Finished` read so far.
    seen: usize,
    /// The iterations' results.
    iterations: Iterations,
    /// θ after 0, 1, 2… iterations, one row of the parameters each (the
    /// first is the start).
    thetas: Vec<f64>,
    /// The sides of the iteration last asked for.
    sides: Option<Arc<TuneSides>>,
    /// Games read whose iteration's θ is not known yet: game id, iteration
    /// and the values black and white played.
    unchecked: Vec<(u64, u64, [Vec<f64>; 2], bool)>,
    /// A game whose values are not those of its iteration.
    pub failure: Option<String>,
}

impl Trajectory {
    /// No games yet of the tune `spsa` of `pairs_per_iteration` pairs an
    /// iteration, whose θ+ plays as `plus`.
    pub fn new(spsa: Arc<Spsa>, pairs_per_iteration: u64, plus: &str) -> Trajectory {
        Trajectory {
            iterations: Iterations::new(spsa.schedule.iterations, pairs_per_iteration, plus),
            thetas: spsa.start(),
            spsa,
            pairs_per_iteration,
            seen: 0,
            sides: None,
            unchecked: Vec::new(),
            failure: None,
        }
    }

    /// Iterations applied.
    fn applied(&self) -> usize {
        self.thetas.len() / self.spsa.params.len() - 1
    }

    /// Takes in the games finished since the last call (`games` grows by
    /// appending) and applies every iteration now complete, in index order.
    pub fn absorb(&mut self, games: &[GameRecord]) {
        for g in games.get(self.seen..).unwrap_or_default() {
            self.iterations.add(g);
            let (black_plus, played) = match &g.tune {
                Some(t) => (g.game_id % 2 == 0, [t.black.clone(), t.white.clone()]),
                None => (true, [Vec::new(), Vec::new()]),
            };
            let k = self.iteration_of(g.pair_id);
            self.unchecked.push((g.game_id, k, played, black_plus));
        }
        self.seen = self.seen.max(games.len());
        let p = self.spsa.params.len();
        let mut applied = self.applied();
        while let Some(r) = self.iterations.result(applied) {
            let theta = self
                .spsa
                .step(applied as u64, &self.thetas[applied * p..], r);
            self.thetas.extend(theta);
            applied += 1;
        }
        self.check();
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
        pair / self.pairs_per_iteration
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
        let known = usize::try_from(k.saturating_sub(self.spsa.schedule.delay)).ok()?;
        let p = self.spsa.params.len();
        let theta = self.thetas.get(known * p..(known + 1) * p)?;
        let (plus, minus) = self.spsa.sides(k, theta);
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
        self.theta.absorb(finished.games);
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
