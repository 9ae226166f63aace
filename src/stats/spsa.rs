//! SPSA (simultaneous perturbation stochastic approximation) with the gain
//! schedule of fishtest and OpenBench (official-stockfish/fishtest,
//! `server/fishtest/spsa_handler.py`), so their users' parameter lines
//! carry over: per parameter, with N iterations,
//!
//! - A = ⌊a_ratio·N⌋, c = c_end·N^γ, a_end = r_end·c_end², a = a_end·(A+N)^α;
//! - iteration k (from 0) perturbs by c_k = c/(k+1)^γ and steps by
//!   a_k = a/(A+k+1)^α;
//! - it draws one flip vector Δ ∈ {±1}^p from (seed, k), plays
//!   θ+ = clamp(θ + c_k·Δ) against θ− = clamp(θ − c_k·Δ), takes R = θ+'s
//!   wins − losses over its games, and sets θ ← clamp(θ + a_k·R/(c_k·Δ)).
//!
//! fishtest counts its iterations in game pairs reported by workers, in
//! the order they arrive; here an iteration is a fixed number of pairs and
//! iterations apply in index order, so a tune is a function of its config
//! and its games alone. Iteration k is played with θ after iterations
//! 0..k−delay−1 (`records::tune::Replay` replays it), so `delay` iterations can be in
//! flight at once whatever plays them.
//!
//! Integer fields are tuned as reals and played rounded to the nearest
//! integer, halves away from zero ([`Param::played`]). Their perturbation
//! is at least [`INTEGER_MIN_PERTURBATION`] (OpenBench's rule), so the two
//! sides round to different integers: a smaller c_k would give both sides
//! the same value and the iteration nothing to measure
//! ([`Spsa::perturbation`], [`Param::sides`]). The step keeps c_k, as
//! fishtest's does: `arena report` computes θ from the folder alone, which
//! does not say which fields are integers.

use crate::rng::{mix, SplitMix64, GOLDEN};

/// The least perturbation of an integer parameter (OpenBench's): θ ± 0.5
/// are a whole unit apart, so they round to different integers.
pub const INTEGER_MIN_PERTURBATION: f64 = 0.5;

/// One tuned number.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its field (or placeholder) name.
    pub name: String,
    /// Its value before the tune.
    pub start: f64,
    /// Its least value.
    pub min: f64,
    /// Its greatest value.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The step at the last iteration, relative to `c_end²`.
    pub r_end: f64,
    /// Whether the field is an integer (played rounded).
    pub integer: bool,
}

impl Param {
    /// `x` within the parameter's bounds.
    pub fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }

    /// The value a game plays for `x`: `x` itself, or for an integer
    /// field the nearest integer (halves away from zero).
    pub fn played(&self, x: f64) -> f64 {
        if self.integer {
            x.round()
        } else {
            x
        }
    }

    /// The values the two sides play from `theta` pushed by `step` (c·Δ):
    /// `theta + step` and `theta - step`, each clamped and played. For an
    /// integer field the two always differ (its bounds are integers at
    /// least one apart): where both come to one integer (clamped to a
    /// bound, or a sum rounded the other way), the side pushed up plays
    /// the next integer above it, or at the greatest value the side
    /// pushed down the next below.
    pub fn sides(&self, theta: f64, step: f64) -> (f64, f64) {
        let plus = self.played(self.clamp(theta + step));
        let minus = self.played(self.clamp(theta - step));
        if !self.integer || plus != minus {
            return (plus, minus);
        }
        // Which side moves up: the one pushed up (plus when step > 0).
        let up_is_plus = step > 0.0;
        let (up, down) = if plus < self.max {
            (plus + 1.0, minus)
        } else {
            (plus, minus - 1.0)
        };
        if up_is_plus {
            (up, down)
        } else {
            (down, up)
        }
    }
}

/// The schedule's settings, shared by every parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// N: the iterations of the tune.
    pub iterations: u64,
    /// α, the step's decay (fishtest: 0.602).
    pub alpha: f64,
    /// γ, the perturbation's decay (fishtest: 0.101).
    pub gamma: f64,
    /// A as a fraction of N (fishtest: 0.1).
    pub a_ratio: f64,
    /// Iterations played before the results of an earlier one apply.
    pub delay: u64,
}

/// One parameter's gains at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// c_k, the perturbation.
    pub c: f64,
    /// a_k, the step.
    pub a: f64,
}

/// A tune: its parameters, schedule and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters, in the config's order.
    pub params: Vec<Param>,
    /// The schedule.
    pub schedule: Schedule,
    /// The seed of the flip vectors.
    pub seed: u64,
}

/// A setting's number as a message shows it: as written when it is of a
/// usual size, in exponent form (`-1e300`) when it is huge or tiny, so a
/// line never quotes hundreds of digits.
pub fn short(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-6..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Why a tune's settings cannot run: the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSetting {
    /// The parameter (its index) the setting belongs to, if any.
    pub param: Option<usize>,
    /// The setting's name.
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl Spsa {
    /// Checks the settings: each parameter's bounds, start and gains, its
    /// name given once, at least one iteration, and a delay shorter than
    /// the tune.
    ///
    /// # Errors
    /// The first setting that is wrong.
    pub fn check(&self) -> Result<(), BadSetting> {
        let s = &self.schedule;
        let bad = |param, field, message: String| {
            Err(BadSetting {
                param,
                field,
                message,
            })
        };
        if s.iterations == 0 {
            return bad(None, "iterations", "must be at least 1".into());
        }
        if s.delay >= s.iterations {
            return bad(
                None,
                "delay",
                format!("{} is not less than iterations ({})", s.delay, s.iterations),
            );
        }
        for (name, v) in [
            ("alpha", s.alpha),
            ("gamma", s.gamma),
            ("a_ratio", s.a_ratio),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return bad(
                    None,
                    name,
                    format!("{} must be a finite number, 0 or more", short(v)),
                );
            }
        }
        if self.params.is_empty() {
            return bad(None, "params", "a tune needs at least one parameter".into());
        }
        (0..self.params.len()).try_for_each(|i| self.check_param(i))
    }

    /// Parameter `i`'s settings: given once, its bounds, start and gains.
    fn check_param(&self, i: usize) -> Result<(), BadSetting> {
        let (s, p) = (&self.schedule, &self.params[i]);
        let bad = |field, message: String| {
            Err(BadSetting {
                param: Some(i),
                field,
                message,
            })
        };
        if self.params[..i].iter().any(|q| q.name == p.name) {
            return bad("field", format!("{:?} is listed twice", p.name));
        }
        if !(p.min.is_finite() && p.max.is_finite() && p.min < p.max) {
            return bad(
                "min",
                format!("min {} must be below max {}", short(p.min), short(p.max)),
            );
        }
        if p.integer && (p.min.fract() != 0.0 || p.max.fract() != 0.0) {
            return bad(
                "min",
                format!(
                    "an integer field's bounds must be integers, not {} and {}",
                    short(p.min),
                    short(p.max)
                ),
            );
        }
        if !(p.start >= p.min && p.start <= p.max) {
            return bad(
                "start",
                format!(
                    "{} is outside [{}, {}]",
                    short(p.start),
                    short(p.min),
                    short(p.max)
                ),
            );
        }
        for (field, v) in [("c_end", p.c_end), ("r_end", p.r_end)] {
            if !(v.is_finite() && v > 0.0) {
                return bad(field, format!("{} must be above 0", short(v)));
            }
        }
        for k in [0, s.iterations - 1] {
            let g = self.gains(i, k);
            if !(g.a.is_finite() && g.c.is_finite() && g.a > 0.0 && g.c > 0.0) {
                return bad(
                    self.gains_at_fault(i),
                    format!(
                        "with alpha {} and gamma {}, iteration {k}'s gains are c = {}, a = {}: not numbers a tune can step by",
                        s.alpha, s.gamma, g.c, g.a
                    ),
                );
            }
        }
        Ok(())
    }

    /// The setting that makes parameter `i`'s gains no numbers to step
    /// by: the schedule's `a_ratio`, `alpha` or `gamma` when their terms
    /// alone overflow (whatever the parameter), else its `r_end` when
    /// `c_end` alone gives finite gains, else its `c_end`.
    fn gains_at_fault(&self, i: usize) -> &'static str {
        let (p, s) = (&self.params[i], &self.schedule);
        let n = s.iterations as f64;
        let finite = |x: f64| x.is_finite() && x > 0.0;
        if !finite(s.a_ratio * n + n) {
            return "a_ratio";
        }
        let big_a = (s.a_ratio * n).floor();
        if !finite(libm::pow(big_a + n, s.alpha)) {
            let usual = libm::pow((0.1 * n).floor() + n, s.alpha);
            return if finite(usual) { "a_ratio" } else { "alpha" };
        }
        if !finite(libm::pow(n, s.gamma)) {
            return "gamma";
        }
        let c_fine = [0, s.iterations - 1]
            .iter()
            .all(|&k| finite(self.gains(i, k).c));
        if c_fine && finite(p.c_end * p.c_end) {
            "r_end"
        } else {
            "c_end"
        }
    }

    /// Parameter `i`'s gains at iteration `k` (from 0).
    pub fn gains(&self, i: usize, k: u64) -> Gains {
        let (p, s) = (&self.params[i], &self.schedule);
        let n = s.iterations as f64;
        let big_a = (s.a_ratio * n).floor();
        let c = p.c_end * libm::pow(n, s.gamma);
        let a = p.r_end * p.c_end * p.c_end * libm::pow(big_a + n, s.alpha);
        Gains {
            c: c / libm::pow(k as f64 + 1.0, s.gamma),
            a: a / libm::pow(big_a + k as f64 + 1.0, s.alpha),
        }
    }

    /// Iteration `k`'s flip vector: +1 or -1 per parameter, drawn from the
    /// seed and `k` alone.
    pub fn flips(&self, k: u64) -> Vec<f64> {
        let mut rng = SplitMix64::new(mix(self.seed ^ mix(k.wrapping_add(1).wrapping_mul(GOLDEN))));
        self.params
            .iter()
            .map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 })
            .collect()
    }

    /// Parameter `i`'s perturbation at iteration `k`: c_k, and for an
    /// integer parameter at least [`INTEGER_MIN_PERTURBATION`].
    pub fn perturbation(&self, i: usize, k: u64) -> f64 {
        let c = self.gains(i, k).c;
        if self.params[i].integer {
            c.max(INTEGER_MIN_PERTURBATION)
        } else {
            c
        }
    }

    /// The two sides iteration `k` plays from `theta`: θ + c·Δ and
    /// θ − c·Δ with c the [perturbation](Self::perturbation), each
    /// clamped, as the values the games play (integer fields rounded, and
    /// never the same: [`Param::sides`]).
    pub fn sides(&self, k: u64, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let flips = self.flips(k);
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        for (i, p) in self.params.iter().enumerate() {
            let (a, b) = p.sides(theta[i], self.perturbation(i, k) * flips[i]);
            plus.push(a);
            minus.push(b);
        }
        (plus, minus)
    }

    /// θ after iteration `k`, whose θ+ scored `result` (wins − losses)
    /// against its θ−: each parameter stepped by a_k·R/(c_k·Δ), with c_k
    /// as the schedule gives it (not raised for integers: see the module's
    /// notes), and clamped.
    pub fn step(&self, k: u64, theta: &[f64], result: i64) -> Vec<f64> {
        let flips = self.flips(k);
        self.params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let g = self.gains(i, k);
                p.clamp(theta[i] + g.a * result as f64 / (g.c * flips[i]))
            })
            .collect()
    }

    /// The start: every parameter's `start`.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }
}

#[cfg(test)]
#[path = "spsa_tests.rs"]
mod tests;
