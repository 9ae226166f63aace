//! The generalized sequential probability ratio test (GSPRT) as fishtest
//! computes it (`LLRcalc.LLR_logistic`, `LLRcalc.LLR_normalized`,
//! `stat_util.update_SPRT`), on game counts or on pair counts.
//!
//! For each hypothesis (Elo `elo0` for H0, `elo1` for H1) the most likely
//! distribution over the observed outcome categories is found, with the
//! hypothesis' expected score (logistic model) or t-value (normalized
//! model); the log-likelihood ratio is `LLR = N sum_i phat_i ln(p1_i / p0_i)`.
//! Empty categories get a pseudo-count of 1e-3 first (so `N` grows by 1e-3
//! for each). The test accepts H1 when `LLR > ln((1 - beta) / alpha)` and H0
//! when `LLR < ln(beta / (1 - alpha))`.

use super::elo::{elo_to_score, Basis, Wdl, NELO_PER_T};
use super::mle::{mle_expected, mle_t_value};
use super::pentanomial::Ptnml;

/// Pseudo-count given to an empty outcome category before the LLR.
pub const PSEUDO_COUNT: f64 = 1e-3;

/// How `elo0` and `elo1` are expressed.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Model {
    /// Normalized Elo: the hypotheses fix the t-value
    /// `(score - 1/2) / sigma_game` at `nelo / (800 / ln 10)`. fishtest's
    /// default; independent of the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: the hypotheses fix the expected score at
    /// `1 / (1 + 10^(-elo / 400))`.
    Logistic,
}

impl Model {
    /// The name used in output: "normalized" or "logistic".
    pub fn name(self) -> &'static str {
        match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        }
    }
}

/// The decision of the test so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Verdict {
    /// H0 accepted: `LLR < lower_bound` (fishtest: "rejected").
    H0,
    /// H1 accepted: `LLR > upper_bound` (fishtest: "accepted").
    H1,
    /// Neither bound crossed (or the LLR does not exist): play on.
    #[serde(rename = "continue")]
    Continue,
}

impl Verdict {
    /// "H0", "H1" or "continue", as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Continue => "continue",
        }
    }
}

/// A bad SPRT parameter.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// `elo0` is not below `elo1`, or one of them is not finite.
    #[error("elo0 ({elo0}) must be finite and less than elo1 ({elo1})")]
    EloBounds {
        /// The H0 Elo.
        elo0: f64,
        /// The H1 Elo.
        elo1: f64,
    },
    /// A logistic Elo so large that its expected score rounds to 0 or 1.
    #[error("{field} = {value}: logistic Elo must lie within ±{MAX_LOGISTIC_ELO}")]
    LogisticRange {
        /// "elo0" or "elo1".
        field: &'static str,
        /// The value.
        value: f64,
    },
    /// An error probability outside `(0, 1)`.
    #[error("{field} = {value}: must lie strictly between 0 and 1")]
    Probability {
        /// "alpha" or "beta".
        field: &'static str,
        /// The value.
        value: f64,
    },
    /// `alpha + beta >= 1`: the bounds would be crossed.
    #[error("alpha + beta = {sum}: must be less than 1")]
    ErrorSum {
        /// `alpha + beta`.
        sum: f64,
    },
}

/// Largest accepted |Elo| for the logistic model (expected score 1 - 1e-5).
pub const MAX_LOGISTIC_ELO: f64 = 2000.0;

/// A checked SPRT: hypotheses, error probabilities and model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: Model,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1` (both finite, within
    /// ±[`MAX_LOGISTIC_ELO`] for the logistic model), `alpha` and `beta` in
    /// `(0, 1)` with `alpha + beta < 1`.
    ///
    /// # Errors
    /// [`SprtError`] naming the bad parameter.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: Model,
    ) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::EloBounds { elo0, elo1 });
        }
        if model == Model::Logistic {
            for (field, value) in [("elo0", elo0), ("elo1", elo1)] {
                if value.abs() > MAX_LOGISTIC_ELO {
                    return Err(SprtError::LogisticRange { field, value });
                }
            }
        }
        for (field, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Probability { field, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorSum { sum: alpha + beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The H0 Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// The H1 Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// The probability of accepting H1 when H0 holds.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The probability of accepting H0 when H1 holds.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The Elo model of `elo0` and `elo1`.
    pub fn model(&self) -> Model {
        self.model
    }

    /// `ln(beta / (1 - alpha))`: below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 - beta) / alpha)`: above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The LLR of win/draw/loss counts (each game a sample). `NaN` if the
    /// maximum-likelihood distributions cannot be found (extreme hypotheses).
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr(Basis::Trinomial, &wdl.frequencies())
    }

    /// The LLR of pentanomial counts (each pair a sample). `NaN` if the
    /// maximum-likelihood distributions cannot be found (extreme hypotheses).
    pub fn llr_ptnml(&self, ptnml: &Ptnml) -> f64 {
        self.llr(Basis::Pentanomial, &ptnml.0)
    }

    /// The LLR of `counts[i]` samples with per-game score `basis.value(i)`.
    ///
    /// # Panics
    /// If `counts.len()` is not `basis.categories()`.
    pub fn llr(&self, basis: Basis, counts: &[u64]) -> f64 {
        assert_eq!(
            counts.len(),
            basis.categories(),
            "one count per outcome category"
        );
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { PSEUDO_COUNT } else { c as f64 })
            .collect();
        let n: f64 = regularized.iter().sum();
        let phat: Vec<f64> = regularized.iter().map(|c| c / n).collect();
        let values: Vec<f64> = (0..counts.len()).map(|i| basis.value(i)).collect();
        let mle = |elo: f64| match self.model {
            Model::Logistic => mle_expected(&values, &phat, elo_to_score(elo)),
            Model::Normalized => {
                // The t-value of one sample: a pair's average score has
                // sigma_game / sqrt(2).
                let t = elo / NELO_PER_T * (basis.games_per_sample() as f64).sqrt();
                mle_t_value(&values, &phat, 0.5, t)
            }
        };
        let (Some(p0), Some(p1)) = (mle(self.elo0), mle(self.elo1)) else {
            return f64::NAN;
        };
        n * phat
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(q, (a, b))| q * (b.ln() - a.ln()))
            .sum::<f64>()
    }

    /// The state of the test for an LLR: the bounds and the verdict.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower_bound, upper_bound) = (self.lower_bound(), self.upper_bound());
        let verdict = if llr > upper_bound {
            Verdict::H1
        } else if llr < lower_bound {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtState {
            sprt: *self,
            llr,
            lower_bound,
            upper_bound,
            verdict,
        }
    }

    /// [`Sprt::state`] of [`Sprt::llr_wdl`].
    pub fn evaluate_wdl(&self, wdl: &Wdl) -> SprtState {
        self.state(self.llr_wdl(wdl))
    }

    /// [`Sprt::state`] of [`Sprt::llr_ptnml`]; what the tournament uses.
    pub fn evaluate_ptnml(&self, ptnml: &Ptnml) -> SprtState {
        self.state(self.llr_ptnml(ptnml))
    }
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The test.
    pub sprt: Sprt,
    /// The log-likelihood ratio (`NaN` if it could not be computed).
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`.
    pub lower_bound: f64,
    /// `ln((1 - beta) / alpha)`.
    pub upper_bound: f64,
    /// H0, H1 or continue.
    pub verdict: Verdict,
}

impl SprtState {
    /// How far the LLR has gone towards the bound on its side, as fastchess
    /// prints it: `llr / upper_bound` when `llr >= 0`, else
    /// `-llr / lower_bound` (so negative, -1 at the lower bound).
    pub fn fraction(&self) -> f64 {
        if self.llr >= 0.0 {
            self.llr / self.upper_bound
        } else {
            -self.llr / self.lower_bound
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    #[test]
    fn bounds() {
        let s = sprt(0.0, 5.0, Model::Normalized);
        assert_eq!(format!("{:.3}", s.lower_bound()), "-2.944");
        assert_eq!(format!("{:.3}", s.upper_bound()), "2.944");
        let s = Sprt::new(0.0, 5.0, 0.05, 0.10, Model::Normalized).unwrap();
        assert_eq!(format!("{:.3}", s.lower_bound()), "-2.251");
        assert_eq!(format!("{:.3}", s.upper_bound()), "2.890");
    }

    #[test]
    fn bad_parameters_are_named() {
        assert!(matches!(
            Sprt::new(5.0, 0.0, 0.05, 0.05, Model::Normalized),
            Err(SprtError::EloBounds { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.0, 0.05, Model::Normalized),
            Err(SprtError::Probability { field: "alpha", .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.05, f64::NAN, Model::Normalized),
            Err(SprtError::Probability { field: "beta", .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.6, 0.5, Model::Normalized),
            Err(SprtError::ErrorSum { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5000.0, 0.05, 0.05, Model::Logistic),
            Err(SprtError::LogisticRange { field: "elo1", .. })
        ));
    }

    // fastchess `sprt_test.cpp` (Stats(w, l, d) and Stats(LL, LD, WL, DD,
    // WD, WW)); the values agree with fishtest's LLRcalc.py to the digits
    // shown (fishtest, to 6 digits, in the comments).

    #[test]
    fn normalized_trinomial() {
        let s = sprt(0.0, 2.0, Model::Normalized);
        close(s.llr_wdl(&Wdl::new(36433, 68692, 36027)), 0.923293, 1e-5);
        let s = sprt(-1.75, 0.25, Model::Normalized);
        close(s.llr_wdl(&Wdl::new(10871, 20431, 10650)), 2.297500, 1e-5);
        let s = sprt(0.0, 10.0, Model::Normalized);
        close(s.llr_wdl(&Wdl::new(4250, 0, 0)), 120.548268, 1e-4);
    }

    #[test]
    fn logistic_trinomial() {
        let s = sprt(0.5, 2.5, Model::Logistic);
        close(s.llr_wdl(&Wdl::new(21404, 40708, 21184)), -1.571889, 1e-5);
        let s = sprt(0.0, 2.0, Model::Logistic);
        close(s.llr_wdl(&Wdl::new(57433, 106593, 57030)), -2.593024, 1e-5);
    }

    #[test]
    fn normalized_pentanomial() {
        let s = sprt(0.0, 2.0, Model::Normalized);
        close(
            s.llr_ptnml(&Ptnml([365, 16618, 36229, 16974, 390])),
            2.250368,
            1e-5,
        );
        let s = sprt(-1.75, 0.25, Model::Normalized);
        close(
            s.llr_ptnml(&Ptnml([127, 4883, 10712, 5150, 104])),
            3.010154,
            1e-5,
        );
        let s = sprt(0.0, 5.0, Model::Normalized);
        close(s.llr_ptnml(&Ptnml([0, 0, 0, 0, 5550])), 111.797555, 1e-4);
    }

    #[test]
    fn logistic_pentanomial() {
        let s = sprt(0.5, 2.5, Model::Logistic);
        close(
            s.llr_ptnml(&Ptnml([223, 9863, 21279, 10037, 246])),
            -3.074126,
            1e-5,
        );
        let s = sprt(0.0, 2.0, Model::Logistic);
        close(
            s.llr_ptnml(&Ptnml([871, 26175, 55983, 26678, 821])),
            -4.978673,
            1e-5,
        );
    }

    /// The inputs of fishtest's `stat_util.py` self-test (a Stockfish
    /// regression test, [-3, 1] logistic, and a [0.2, 0.9] / [0.764, 3.439]
    /// low-draw-rate pair); values from fishtest's LLRcalc.py.
    #[test]
    fn fishtest_self_test_inputs() {
        let regression = Ptnml([10789, 19328, 33806, 19402, 10543]);
        close(
            sprt(-3.0, 1.0, Model::Logistic).llr_ptnml(&regression),
            2.131068,
            1e-5,
        );
        close(
            sprt(-3.0, 1.0, Model::Normalized).llr_ptnml(&regression),
            0.300870,
            1e-5,
        );
        let trinomial = Wdl::new(65388, 56553, 65804);
        close(
            sprt(-3.0, 1.0, Model::Logistic).llr_wdl(&trinomial),
            2.049043,
            1e-5,
        );
        let quiet = Ptnml([39, 2226, 31451, 2412, 40]);
        close(
            sprt(0.2, 0.9, Model::Logistic).llr_ptnml(&quiet),
            2.162543,
            1e-5,
        );
        close(
            sprt(0.764, 3.439, Model::Normalized).llr_ptnml(&quiet),
            2.162941,
            1e-5,
        );
    }

    /// Degenerate counts, where fastchess's older unit tests (2.97, 2.94)
    /// disagree with fishtest; these are fishtest's values.
    #[test]
    fn degenerate_counts_follow_fishtest() {
        let s = sprt(0.0, 5.0, Model::Normalized);
        close(s.llr_wdl(&Wdl::new(0, 16700, 0)), -3.450540, 1e-5);
        close(s.llr_ptnml(&Ptnml([0, 0, 0, 0, 104])), 2.094955, 1e-5);
        close(s.llr_wdl(&Wdl::new(10, 0, 0)), 0.142864, 1e-5);
        close(s.llr_wdl(&Wdl::new(0, 10, 0)), -0.001277, 1e-6);
    }

    /// Hypotheses so far out that fishtest's iteration from the uniform
    /// distribution fails (its linearized constraint has no sign change);
    /// the values were checked with a general constrained optimizer (SLSQP).
    #[test]
    fn extreme_normalized_hypotheses() {
        let s = sprt(0.0, 1000.0, Model::Normalized);
        close(s.llr_wdl(&Wdl::new(30, 40, 30)), -138.36942, 1e-4);
        close(s.llr_ptnml(&Ptnml([10, 20, 30, 20, 10])), -201.09898, 1e-4);
        let symmetric = sprt(-1000.0, 1000.0, Model::Normalized);
        close(symmetric.llr_ptnml(&Ptnml([10, 20, 30, 20, 10])), 0.0, 1e-9);
    }

    /// By hand: for small Elo differences the LLR is close to fishtest's
    /// Brownian approximation `N (s1 - s0) (2 s - s0 - s1) / (2 var)`
    /// (`LLRcalc.LLR_alt2`).
    #[test]
    fn logistic_llr_matches_the_brownian_approximation() {
        let wdl = Wdl::new(2100, 4000, 1900);
        let s = sprt(0.0, 5.0, Model::Logistic);
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(5.0));
        let e = wdl.estimate();
        let approx = 8000.0 * (s1 - s0) * (2.0 * e.score - s0 - s1) / (2.0 * e.sigma * e.sigma);
        let llr = s.llr_wdl(&wdl);
        assert!(
            (llr - approx).abs() < 0.01 * approx.abs(),
            "{llr} vs {approx}"
        );
    }

    #[test]
    fn verdicts_and_fraction() {
        let s = sprt(0.0, 5.0, Model::Normalized);
        assert_eq!(s.state(3.0).verdict, Verdict::H1);
        assert_eq!(s.state(-3.0).verdict, Verdict::H0);
        assert_eq!(s.state(2.9).verdict, Verdict::Continue);
        assert_eq!(s.state(f64::NAN).verdict, Verdict::Continue);
        close(s.state(1.23).fraction(), 1.23 / s.upper_bound(), 1e-12);
        close(s.state(-s.upper_bound() / 2.0).fraction(), -0.5, 1e-12);
    }

    #[test]
    fn zero_games_give_a_finite_llr() {
        for model in [Model::Normalized, Model::Logistic] {
            let s = sprt(0.0, 5.0, model);
            assert!(s.llr_wdl(&Wdl::default()).is_finite());
            assert!(s.llr_ptnml(&Ptnml::default()).is_finite());
        }
    }
}
