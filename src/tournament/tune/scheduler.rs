//! A tune's games: pair after pair of the base engine against itself, θ+
//! (engine 0) against θ− (engine 1), each pair one opening with colours
//! swapped, `pairs_per_iteration` pairs an iteration. Iteration k plays
//! the values of θ after iterations 0..k−delay−1, so it waits until those
//! iterations' games are all in; it reads no other result. Its games, and
//! so the whole trajectory, are then the same for any concurrency, any
//! timing and after a resume.

use crate::records::tune::Iterations;
use crate::records::GameRecord;
use crate::stats::spsa::Spsa;
use crate::tournament::schedule::{Finished, Next, Pairing, Schedule, Scheduler, TuneSides};
use std::sync::Arc;

/// θ as a tune's games come in: the iterations applied, in index order,
/// and the sides each iteration plays once θ before it is known. A run of
/// one machine and each worker of a shared run keep one.
pub struct Trajectory {
    spsa: Arc<Spsa>,
    pairs_per_iteration: u64,
    /// Games of `Finished` read so far.
    seen: usize,
    /// The iterations' results.
    iterations: Iterations,
    /// θ after 0, 1, 2… iterations (the first is the start).
    thetas: Vec<Vec<f64>>,
    /// The sides of the iteration last asked for.
    sides: Option<Arc<TuneSides>>,
}

impl Trajectory {
    /// No games yet of the tune `spsa` of `pairs_per_iteration` pairs an
    /// iteration, whose θ+ plays as `plus`.
    pub fn new(spsa: Arc<Spsa>, pairs_per_iteration: u64, plus: &str) -> Trajectory {
        Trajectory {
            iterations: Iterations::new(spsa.schedule.iterations, pairs_per_iteration, plus),
            thetas: vec![spsa.start()],
            spsa,
            pairs_per_iteration,
            seen: 0,
            sides: None,
        }
    }

    /// Takes in the games finished since the last call (`games` grows by
    /// appending) and applies every iteration now complete, in index order.
    pub fn absorb(&mut self, games: &[GameRecord]) {
        for g in games.get(self.seen..).unwrap_or_default() {
            self.iterations.add(g);
        }
        self.seen = self.seen.max(games.len());
        let mut applied = self.thetas.len() - 1;
        while let Some(r) = self.iterations.result(applied) {
            let theta = self.spsa.step(applied as u64, &self.thetas[applied], r);
            self.thetas.push(theta);
            applied += 1;
        }
    }

    /// The iteration of pair `pair`.
    pub fn iteration_of(&self, pair: u64) -> u64 {
        pair / self.pairs_per_iteration
    }

    /// The sides of pair `pair`'s iteration, once θ before it is known.
    pub fn sides_of(&mut self, pair: u64) -> Option<Arc<TuneSides>> {
        let k = self.iteration_of(pair);
        if let Some(s) = self.sides.as_ref().filter(|s| s.iteration == k) {
            return Some(Arc::clone(s));
        }
        let known = usize::try_from(k.saturating_sub(self.spsa.schedule.delay)).ok()?;
        let theta = self.thetas.get(known)?;
        let (plus, minus) = self.spsa.sides(k, theta);
        let sides = Arc::new(TuneSides {
            iteration: k,
            values: [plus, minus],
        });
        self.sides = Some(Arc::clone(&sides));
        Some(sides)
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

    fn next(&mut self, finished: &Finished<'_>) -> Next {
        self.theta.absorb(finished.games);
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
