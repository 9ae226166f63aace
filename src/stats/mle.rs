//! Maximum-likelihood distributions under a hypothesis, as fishtest's
//! `LLRcalc.py` computes them (M. Van den Bergh, "Comments on normalized
//! Elo", sections 1 and 4.1): given the observed frequencies `phat` of
//! outcomes with per-game scores `values`, the most likely distribution
//! whose expected score is `s` (logistic model), or whose t-value
//! `(mu - ref) / sigma` is `t` (normalized model).
//!
//! Both solutions have the form `p_i = phat_i / (1 + x phi_i)`, with `x` the
//! root of the secular equation `sum_i phat_i phi_i / (1 + x phi_i) = 0`
//! (found by [`super::root::secular`]).

use super::root::secular;

/// Mean and variance of the distribution `p` over `values`.
pub(crate) fn moments(values: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = values.iter().zip(p).map(|(a, q)| a * q).sum();
    let var: f64 = values
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mu).powi(2))
        .sum();
    (mu, var)
}

/// The most likely distribution with expected score `s`, for `s` strictly
/// between the smallest and largest value. `None` otherwise.
pub(crate) fn mle_expected(values: &[f64], phat: &[f64], s: f64) -> Option<Vec<f64>> {
    let phi: Vec<f64> = values.iter().map(|a| a - s).collect();
    let x = secular(&phi, phat, 0.0)?;
    Some(
        phat.iter()
            .zip(&phi)
            .map(|(q, f)| q / (1.0 + x * f))
            .collect(),
    )
}

/// Largest change of a probability between fixed-point iterations that
/// counts as converged.
const T_VALUE_TOLERANCE: f64 = 1e-12;
/// Largest change of a probability after all iterations that still counts
/// as converged: when an empty category (pseudo-count 1e-3 among up to
/// millions of samples) must take a large probability, `1 + x phi_i` is
/// tiny and carries a relative rounding error up to about 1e-7, so the
/// iteration jitters at that level instead of settling (fishtest stops at
/// 1e-9, or after 10 iterations regardless, and then checks the t-value to
/// 1e-5).
const T_VALUE_NOISE: f64 = 1e-6;
/// Largest error of the t-value of a result (relative for `|t| > 1`).
const T_VALUE_CHECK: f64 = 1e-6;
/// Fixed-point iterations tried for one value of `t`.
const T_VALUE_ITERATIONS: usize = 100;

/// The most likely distribution whose t-value `(mu - reference) / sigma`
/// equals `t`. `None` if it cannot be found (which needs extreme `t`).
///
/// The constraint is not convex, and the fixed-point iteration can settle
/// on different stationary points depending on where it starts, so two
/// starts are tried and the more likely result is kept:
/// - fishtest's: iterate the linearized constraint from the uniform
///   distribution. For large `|t|` this fails (the linearized constraint no
///   longer changes sign).
/// - a continuation: start from `phat` itself, the exact solution for the
///   observed t-value, and move `t` towards its target in steps, halving a
///   step whose iteration fails.
pub(crate) fn mle_t_value(
    values: &[f64],
    phat: &[f64],
    reference: f64,
    t: f64,
) -> Option<Vec<f64>> {
    if !t.is_finite() {
        return None;
    }
    let uniform = vec![1.0 / values.len() as f64; values.len()];
    let log_likelihood = |p: &[f64]| -> f64 { phat.iter().zip(p).map(|(q, pi)| q * pi.ln()).sum() };
    [
        t_value_fixed_point(values, phat, reference, t, &uniform),
        t_value_continuation(values, phat, reference, t),
    ]
    .into_iter()
    .flatten()
    .max_by(|a, b| log_likelihood(a).total_cmp(&log_likelihood(b)))
}

/// The continuation start of [`mle_t_value`].
fn t_value_continuation(values: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let (mu, var) = moments(values, phat);
    if var.is_nan() || var <= 0.0 {
        return None;
    }
    let mut current_t = (mu - reference) / var.sqrt();
    let mut p = phat.to_vec();
    let mut step = t - current_t;
    for _ in 0..200 {
        if current_t == t {
            return Some(p);
        }
        let next_t = if (t - current_t).abs() <= step.abs() {
            t
        } else {
            current_t + step
        };
        match t_value_fixed_point(values, phat, reference, next_t, &p) {
            Some(q) => {
                p = q;
                current_t = next_t;
                step *= 2.0;
            }
            // Retry half as far as the step that failed.
            None => step = 0.5 * (next_t - current_t),
        }
    }
    None
}

/// fishtest's iteration for one `t`, from the distribution `start`.
fn t_value_fixed_point(
    values: &[f64],
    phat: &[f64],
    reference: f64,
    t: f64,
    start: &[f64],
) -> Option<Vec<f64>> {
    let mut p = start.to_vec();
    let mut change = f64::INFINITY;
    // Each iteration's root starts from the last one's.
    let mut x = 0.0;
    for _ in 0..T_VALUE_ITERATIONS {
        let (mu, var) = moments(values, &p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        // The gradient of mu - reference - t*sigma at p (up to a constant).
        let phi: Vec<f64> = values
            .iter()
            .map(|a| a - reference - t * (var + (a - mu).powi(2)) / (2.0 * sigma))
            .collect();
        x = secular(&phi, phat, x)?;
        change = 0.0;
        for ((pi, q), f) in p.iter_mut().zip(phat).zip(&phi) {
            let new = q / (1.0 + x * f);
            change = change.max((new - *pi).abs());
            *pi = new;
        }
        if change < T_VALUE_TOLERANCE {
            break;
        }
    }
    // Like fishtest, check that the result has the t-value asked for.
    let (mu, var) = moments(values, &p);
    let reached = ((mu - reference) / var.sqrt() - t).abs() <= T_VALUE_CHECK * t.abs().max(1.0);
    (change < T_VALUE_NOISE && reached).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES3: [f64; 3] = [0.0, 0.5, 1.0];

    #[test]
    fn expected_score_constraint_holds() {
        let phat = [0.3, 0.3, 0.4];
        for s in [0.1, 0.5, 0.55, 0.9] {
            let p = mle_expected(&VALUES3, &phat, s).unwrap();
            let (mu, _) = moments(&VALUES3, &p);
            assert!((mu - s).abs() < 1e-12, "{mu} vs {s}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert!(mle_expected(&VALUES3, &phat, 1.0).is_none());
    }

    #[test]
    fn expected_score_of_the_observed_mean_is_the_observation() {
        let phat = [0.3, 0.3, 0.4];
        let p = mle_expected(&VALUES3, &phat, 0.55).unwrap();
        for (a, b) in p.iter().zip(phat) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn t_value_constraint_holds() {
        let phat = [0.25, 0.45, 0.3];
        for t in [-0.5, -0.01, 0.0, 0.02, 0.3] {
            let p = mle_t_value(&VALUES3, &phat, 0.5, t).unwrap();
            let (mu, var) = moments(&VALUES3, &p);
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-9);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    /// Far from the observation, for pairs: the first attempt fails and
    /// the continuation must shrink the step (fishtest: LLR 6571.417465).
    #[test]
    fn continuation_shrinks_a_failed_step() {
        let counts = [1e-3, 18.0, 1e-3, 31568.0, 39665.0];
        let n: f64 = counts.iter().sum();
        let phat: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let t = -22.32703248017839 / super::super::elo::NELO_PER_T * 2f64.sqrt();
        let p = mle_t_value(&values, &phat, 0.5, t).unwrap();
        let (mu, var) = moments(&values, &p);
        assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-7);
    }

    /// Two stationary points: the continuation from `phat` ends in a less
    /// likely one than fishtest's start from the uniform distribution;
    /// the more likely one is kept (fishtest: LLR -21.363010 for
    /// `penta 0 0 3765 0 0 --elo0 1.0585 --elo1 18.565`).
    #[test]
    fn the_more_likely_stationary_point_wins() {
        let counts = [1e-3, 1e-3, 42727.0, 1e-3, 1e-3];
        let n: f64 = counts.iter().sum();
        let phat: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let t = -0.5950550510288988 / super::super::elo::NELO_PER_T * 2f64.sqrt();
        let best = mle_t_value(&values, &phat, 0.5, t).unwrap();
        let other = t_value_continuation(&values, &phat, 0.5, t).unwrap();
        let ll = |p: &[f64]| phat.iter().zip(p).map(|(q, pi)| q * pi.ln()).sum::<f64>();
        assert!(
            ll(&best) > ll(&other) + 1e-8,
            "{} vs {}",
            ll(&best),
            ll(&other)
        );
        assert!((best[0] - 5.827848129517139e-6).abs() < 1e-12, "{best:?}");
    }

    /// An empty category that must take a large probability: the
    /// iteration settles only to rounding noise (fishtest: LLR 4.552008).
    #[test]
    fn empty_category_far_from_the_observation() {
        let phat = [1e-3 / 316.001, 164.0 / 316.001, 152.0 / 316.001];
        let t = -1.127751447134379 / super::super::elo::NELO_PER_T;
        let p = mle_t_value(&VALUES3, &phat, 0.5, t).unwrap();
        let (mu, var) = moments(&VALUES3, &p);
        assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-7);
    }

    #[test]
    fn extreme_t_value_is_reached_by_continuation() {
        // fishtest's iteration from the uniform distribution fails here.
        let phat = [0.3, 0.4, 0.3];
        let t = 1000.0 / super::super::elo::NELO_PER_T;
        let p = mle_t_value(&VALUES3, &phat, 0.5, t).unwrap();
        let (mu, var) = moments(&VALUES3, &p);
        assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-9);
    }
}
