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
//! 0..k−delay−1 ([`Spsa::theta_before`]), so `delay` iterations can be in
//! flight at once whatever plays them.
//!
//! Integer fields are tuned as reals and played rounded to the nearest
//! integer, halves away from zero ([`Param::played`]).

use crate::rng::{mix, SplitMix64, GOLDEN};

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
                    format!("{v} must be a finite number, 0 or more"),
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
            return bad("min", format!("min {} must be below max {}", p.min, p.max));
        }
        if p.integer && (p.min.fract() != 0.0 || p.max.fract() != 0.0) {
            return bad(
                "min",
                format!(
                    "an integer field's bounds must be integers, not {} and {}",
                    p.min, p.max
                ),
            );
        }
        if !(p.start >= p.min && p.start <= p.max) {
            return bad(
                "start",
                format!("{} is outside [{}, {}]", p.start, p.min, p.max),
            );
        }
        for (field, v) in [("c_end", p.c_end), ("r_end", p.r_end)] {
            if !(v.is_finite() && v > 0.0) {
                return bad(field, format!("{v} must be above 0"));
            }
        }
        for k in [0, s.iterations - 1] {
            let g = self.gains(i, k);
            if !(g.a.is_finite() && g.c.is_finite() && g.a > 0.0 && g.c > 0.0) {
                return bad(
                    "c_end",
                    format!(
                        "with alpha {} and gamma {}, iteration {k}'s gains are c = {}, a = {}: not numbers a tune can step by",
                        s.alpha, s.gamma, g.c, g.a
                    ),
                );
            }
        }
        Ok(())
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

    /// The two sides iteration `k` plays from `theta`: θ + c_k·Δ and
    /// θ − c_k·Δ, each clamped, as the values the games play (integer
    /// fields rounded).
    pub fn sides(&self, k: u64, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let flips = self.flips(k);
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        for (i, p) in self.params.iter().enumerate() {
            let step = self.gains(i, k).c * flips[i];
            plus.push(p.played(p.clamp(theta[i] + step)));
            minus.push(p.played(p.clamp(theta[i] - step)));
        }
        (plus, minus)
    }

    /// θ after iteration `k`, whose θ+ scored `result` (wins − losses)
    /// against its θ−.
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

    /// The θ iteration `k` plays from: the start with the results of
    /// iterations 0..k−delay−1 applied in index order (`results[j]` is
    /// iteration j's; later ones are not looked at). `None` while
    /// `results` lacks one of those iterations: θ is not known yet.
    pub fn theta_before(&self, k: u64, results: &[i64]) -> Option<Vec<f64>> {
        let known = usize::try_from(k.saturating_sub(self.schedule.delay)).ok()?;
        let theta = results
            .get(..known)?
            .iter()
            .enumerate()
            .fold(self.start(), |theta, (j, &r)| {
                self.step(j as u64, &theta, r)
            });
        Some(theta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parameter and schedule of the example line.
    fn example(delay: u64) -> Spsa {
        Spsa {
            params: vec![Param {
                name: "aspiration".into(),
                start: 50.0,
                min: 5.0,
                max: 300.0,
                c_end: 10.0,
                r_end: 0.002,
                integer: true,
            }],
            schedule: Schedule {
                iterations: 5000,
                alpha: 0.602,
                gamma: 0.101,
                a_ratio: 0.1,
                delay,
            },
            seed: 1,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    /// Three iterations computed by hand (a calculator's logarithms):
    /// A = 500, c = 10·5000^0.101 = 23.637197, a = 0.2·5500^0.602 =
    /// 35.704942; c_k = c/(k+1)^0.101, a_k = a/(501+k)^0.602; with flips
    /// +1, −1, +1 and results +2, −1, 0 from θ = 50.
    #[test]
    fn three_steps_as_computed_by_hand() {
        let spsa = example(0);
        let want = [
            (23.637196764553636, 0.846108433323176, 50.071591267082226),
            (22.03900284051823, 0.8450933747951853, 50.1099366214937),
            (21.15469283162108, 0.8440815503982284, 50.1099366214937),
        ];
        let (flips, results) = ([1.0, -1.0, 1.0], [2i64, -1, 0]);
        let mut theta = 50.0;
        for (k, &(c, a, after)) in want.iter().enumerate() {
            let g = spsa.gains(0, k as u64);
            assert!(close(g.c, c) && close(g.a, a), "iteration {k}: {g:?}");
            theta = spsa.params[0].clamp(theta + g.a * results[k] as f64 / (g.c * flips[k]));
            assert!(close(theta, after), "iteration {k}: {theta}");
        }
        // The same through `step`, with the seed's own flips.
        let mut theta = spsa.start();
        for k in 0..3 {
            let f = spsa.flips(k)[0];
            let g = spsa.gains(0, k);
            let by_hand = theta[0] + g.a * results[k as usize] as f64 / (g.c * f);
            theta = spsa.step(k, &theta, results[k as usize]);
            assert!(close(theta[0], by_hand));
        }
    }

    #[test]
    fn sides_are_clamped_and_rounded_for_integer_fields() {
        let spsa = example(0);
        let (plus, minus) = spsa.sides(0, &[290.0]);
        let f = spsa.flips(0)[0];
        let (hi, lo) = if f > 0.0 {
            (plus, minus)
        } else {
            (minus, plus)
        };
        assert_eq!(hi, vec![300.0]);
        assert_eq!(lo, vec![(290.0f64 - 23.637196764553636).round()]);
    }

    #[test]
    fn theta_waits_for_the_delay_and_applies_in_index_order() {
        let spsa = example(2);
        let results = [2, -2, 1, 0, 2];
        for k in 0..=2 {
            assert_eq!(
                spsa.theta_before(k, &results),
                Some(spsa.start()),
                "iteration {k}"
            );
        }
        let after_two = spsa.step(1, &spsa.step(0, &spsa.start(), 2), -2);
        assert_eq!(spsa.theta_before(4, &results), Some(after_two.clone()));
        // Results past k - delay - 1 are not looked at.
        assert_eq!(spsa.theta_before(4, &results[..2]), Some(after_two));
        // Without them θ is not known yet.
        assert_eq!(spsa.theta_before(4, &results[..1]), None);
    }

    #[test]
    fn flips_depend_on_seed_and_iteration_only() {
        let mut spsa = example(0);
        spsa.params.push(Param {
            name: "b".into(),
            ..spsa.params[0].clone()
        });
        let all: Vec<Vec<f64>> = (0..64).map(|k| spsa.flips(k)).collect();
        assert_eq!(all, (0..64).map(|k| spsa.flips(k)).collect::<Vec<_>>());
        let ones = all.iter().flatten().filter(|&&f| f > 0.0).count();
        assert!((40..=88).contains(&ones), "{ones} of 128 flips are +1");
        spsa.seed = 2;
        assert_ne!(all, (0..64).map(|k| spsa.flips(k)).collect::<Vec<_>>());
    }

    #[test]
    fn bad_settings_name_their_field() {
        let field = |f: &dyn Fn(&mut Spsa)| {
            let mut s = example(0);
            f(&mut s);
            s.check().err().map(|e| e.field)
        };
        assert_eq!(field(&|_| {}), None);
        assert_eq!(field(&|s| s.schedule.iterations = 0), Some("iterations"));
        assert_eq!(field(&|s| s.schedule.delay = 5000), Some("delay"));
        assert_eq!(field(&|s| s.params[0].min = 300.0), Some("min"));
        assert_eq!(field(&|s| s.params[0].start = 4.0), Some("start"));
        assert_eq!(field(&|s| s.params[0].min = 5.4), Some("min"));
        assert_eq!(field(&|s| s.params[0].c_end = 0.0), Some("c_end"));
        assert_eq!(field(&|s| s.params[0].r_end = -1.0), Some("r_end"));
        let twice = |s: &mut Spsa| s.params.push(s.params[0].clone());
        assert_eq!(field(&twice), Some("field"));
    }

    proptest::proptest! {
        /// Whatever the results, θ and both sides stay within the bounds,
        /// and θ before an iteration is the fold of the results it may see.
        #[test]
        fn theta_stays_in_bounds(results in proptest::collection::vec(-2i64..=2, 0..40), delay in 0u64..5) {
            let spsa = example(delay);
            let p = &spsa.params[0];
            for k in 0..results.len() as u64 {
                let theta = spsa.theta_before(k, &results).expect("every earlier result is given");
                proptest::prop_assert!(theta[0] >= p.min && theta[0] <= p.max);
                let (plus, minus) = spsa.sides(k, &theta);
                for x in [plus[0], minus[0]] {
                    proptest::prop_assert!(x >= p.min && x <= p.max && x == x.round());
                }
                let known = k.saturating_sub(delay) as usize;
                let fold = results[..known]
                    .iter()
                    .enumerate()
                    .fold(spsa.start(), |t, (j, &r)| spsa.step(j as u64, &t, r));
                proptest::prop_assert_eq!(theta, fold);
            }
        }
    }
}
