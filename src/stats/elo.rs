//! Elo from a score distribution: the logistic Elo difference and its 95%
//! interval, the likelihood of superiority (LOS) and normalized Elo, from
//! win/draw/loss counts (trinomial, [`Wdl`]) or, through
//! [`crate::stats::Ptnml`], from game pairs (pentanomial).
//!
//! The formulas are fishtest's (`stat_util.get_elo`) and fastchess's, which
//! agree whenever no category is empty. Where a value does not exist (score
//! 0 or 1, zero variance, no games) it is left non-finite here and explained
//! by [`EloEstimate::undefined`]; JSON output turns it into `null`.

use statrs::distribution::{ContinuousCDF, Normal};

/// Normalized Elo per unit of t-value: `800 / ln 10` (347.4355855...).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The 97.5% quantile of the standard normal distribution (1.959963985...),
/// the half-width in standard errors of a two-sided 95% interval.
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.975)
}

/// The standard normal CDF. `NaN` in, `NaN` out; `±inf` give 1 and 0.
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else if x == f64::INFINITY {
        1.0
    } else if x == f64::NEG_INFINITY {
        0.0
    } else {
        Normal::standard().cdf(x)
    }
}

/// The logistic Elo difference of an expected score: `-400 log10(1/s - 1)`.
/// A score of 1 gives `+inf`, 0 gives `-inf`; scores outside `[0, 1]` are
/// clamped to those ends (so an interval end beyond 100% maps to `+inf`);
/// `NaN` stays `NaN`.
pub fn score_to_elo(score: f64) -> f64 {
    if score.is_nan() {
        f64::NAN
    } else if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // `+ 0.0` turns the -0 of a score of exactly 1/2 into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The result of one game for the engine whose statistics are kept (the
/// engine under test, or the first engine of a head-to-head).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// It won: 1 point.
    Win,
    /// A draw: 1/2 point.
    Draw,
    /// It lost: 0 points.
    Loss,
}

impl Outcome {
    /// Points for the engine: 1, 0.5 or 0.
    pub fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The outcome worth `points` (1, 0.5 or 0), `None` for anything else.
    pub fn from_points(points: f64) -> Option<Outcome> {
        if points == 1.0 {
            Some(Outcome::Win)
        } else if points == 0.5 {
            Some(Outcome::Draw)
        } else if points == 0.0 {
            Some(Outcome::Loss)
        } else {
            None
        }
    }

    /// The same game seen from the opponent.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// Win/draw/loss counts of one engine against another (trinomial). The
/// statistics assume fewer than 2^53 games in all (exact as `f64`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts of `wins`, `draws` and `losses`.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game (`NaN` without games).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }

    /// Drawn games per game (`NaN` without games).
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games() as f64
    }

    /// The counts in the order of increasing score: losses, draws, wins.
    pub fn frequencies(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Elo, LOS and normalized Elo from these games (trinomial: each game an
    /// independent sample).
    pub fn estimate(&self) -> EloEstimate {
        EloEstimate::from_frequencies(Basis::Trinomial, &self.frequencies())
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// What one sample of the statistics is: a game, or a pair of games with
/// colours swapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// One game per sample; outcomes 0, 1/2, 1.
    Trinomial,
    /// One pair of games per sample; per-game scores 0, 1/4, 1/2, 3/4, 1.
    Pentanomial,
}

impl Basis {
    /// Games in one sample: 1 or 2.
    pub fn games_per_sample(self) -> u64 {
        match self {
            Basis::Trinomial => 1,
            Basis::Pentanomial => 2,
        }
    }

    /// Number of outcome categories: 3 or 5.
    pub fn categories(self) -> usize {
        match self {
            Basis::Trinomial => 3,
            Basis::Pentanomial => 5,
        }
    }

    /// The per-game score of category `i`: `i / (categories - 1)`.
    pub fn value(self, i: usize) -> f64 {
        i as f64 / (self.categories() - 1) as f64
    }

    /// The name used in output: "trinomial" or "pentanomial".
    pub fn name(self) -> &'static str {
        match self {
            Basis::Trinomial => "trinomial",
            Basis::Pentanomial => "pentanomial",
        }
    }
}

/// Elo estimates from a score distribution. Scores and errors are per game;
/// values that do not exist are non-finite (see [`EloEstimate::undefined`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Games or pairs.
    pub basis: Basis,
    /// Number of samples: games (trinomial) or pairs (pentanomial).
    pub samples: u64,
    /// Number of games.
    pub games: u64,
    /// Mean points per game, in `[0, 1]`.
    pub score: f64,
    /// Standard deviation of one sample's per-game score (for pairs: of the
    /// pair's average score).
    pub sigma: f64,
    /// Standard error of `score`: `sigma / sqrt(samples)`.
    pub std_error: f64,
    /// Logistic Elo difference, `-400 log10(1/score - 1)`.
    pub elo: f64,
    /// Elo at the lower end of the 95% score interval `score - z*std_error`.
    pub elo_lower: f64,
    /// Elo at the upper end of the 95% score interval `score + z*std_error`.
    pub elo_upper: f64,
    /// Half the width of the Elo interval: `(elo_upper - elo_lower) / 2`.
    pub elo_error: f64,
    /// Likelihood of superiority: `Phi((score - 1/2) / std_error)`, in
    /// `[0, 1]`; exactly 1/2 when the score is 1/2.
    pub los: f64,
    /// Normalized Elo: `(800 / ln 10) (score - 1/2) / sigma_game` with
    /// `sigma_game = sigma` for games and `sqrt(2) sigma` for pairs; 0 when
    /// the score is 1/2.
    pub nelo: f64,
    /// Half the width of the 95% interval of normalized Elo:
    /// `z (800 / ln 10) / sqrt(games)`.
    pub nelo_error: f64,
}

impl EloEstimate {
    /// Estimates from `counts[i]` samples scoring `basis.value(i)` per game
    /// (3 counts for games, 5 for pairs). No pseudo-counts are added.
    ///
    /// # Panics
    /// If `counts.len()` is not `basis.categories()`.
    pub fn from_frequencies(basis: Basis, counts: &[u64]) -> EloEstimate {
        assert_eq!(
            counts.len(),
            basis.categories(),
            "one count per outcome category"
        );
        let samples: u64 = counts.iter().sum();
        let games = samples * basis.games_per_sample();
        let n = samples as f64;
        let score = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * basis.value(i))
            .sum::<f64>()
            / n;
        let variance = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * (basis.value(i) - score).powi(2))
            .sum::<f64>()
            / n;
        let sigma = variance.sqrt();
        let std_error = sigma / n.sqrt();
        let z = z95();
        let elo = score_to_elo(score);
        let elo_lower = score_to_elo(score - z * std_error);
        let elo_upper = score_to_elo(score + z * std_error);
        let elo_error = (elo_upper - elo_lower) / 2.0;
        let (los, nelo) = if score == 0.5 {
            (0.5, 0.0)
        } else {
            let sigma_game = sigma * (basis.games_per_sample() as f64).sqrt();
            (
                normal_cdf((score - 0.5) / std_error),
                NELO_PER_T * (score - 0.5) / sigma_game,
            )
        };
        let nelo_error = if nelo.is_finite() {
            z * NELO_PER_T / (games as f64).sqrt()
        } else {
            f64::NAN
        };
        EloEstimate {
            basis,
            samples,
            games,
            score,
            sigma,
            std_error,
            elo,
            elo_lower,
            elo_upper,
            elo_error,
            los,
            nelo,
            nelo_error,
        }
    }

    /// Why some values do not exist: `(field, reason)` for each non-finite
    /// field among `score`, `elo`, `elo_error`, `los`, `nelo`, `nelo_error`
    /// (the names are the JSON keys).
    pub fn undefined(&self) -> Vec<(&'static str, String)> {
        let unit = match self.basis {
            Basis::Trinomial => "game",
            Basis::Pentanomial => "pair",
        };
        if self.samples == 0 {
            let reason = format!("no {unit}s: nothing to estimate");
            return ["score", "elo", "elo_error", "los", "nelo", "nelo_error"]
                .into_iter()
                .map(|field| (field, reason.clone()))
                .collect();
        }
        let mut out = Vec::new();
        let sign = if self.score > 0.5 { "+" } else { "-" };
        if !self.elo.is_finite() {
            out.push((
                "elo",
                format!(
                    "the score is {:.0}%: the Elo difference is {sign}infinity",
                    self.score * 100.0
                ),
            ));
        }
        if !self.elo_error.is_finite() {
            let reason = if self.elo.is_finite() {
                "the 95% interval of the score reaches 0% or 100%, where Elo is infinite"
                    .to_string()
            } else {
                "the Elo difference itself is infinite".to_string()
            };
            out.push(("elo_error", reason));
        }
        if !self.nelo.is_finite() {
            out.push((
                "nelo",
                format!(
                    "every {unit} scored the same, so the variance is 0 and normalized Elo is {sign}infinity"
                ),
            ));
            out.push((
                "nelo_error",
                "normalized Elo itself is infinite".to_string(),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    #[test]
    fn z95_is_the_normal_quantile() {
        close(z95(), 1.959963984540054, 1e-12);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-800.0, -100.0, 0.0, 5.0, 190.0, 600.0] {
            close(score_to_elo(elo_to_score(elo)), elo, 1e-9);
        }
        close(score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-12);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(1.2), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert!(score_to_elo(f64::NAN).is_nan());
    }

    /// fastchess `elo_test.cpp`, "EloWDL 2": W=136, D=111, L=96.
    #[test]
    fn fastchess_wdl_136_111_96() {
        let e = Wdl::new(136, 111, 96).estimate();
        assert_eq!(e.games, 343);
        close(e.elo, 40.70, 0.005);
        close(e.elo_error, 30.43, 0.005);
        close(e.nelo, 49.77, 0.005);
        close(e.nelo_error, 36.77, 0.005);
        assert_eq!(format!("{:.2}", e.los * 100.0), "99.60");
    }

    /// fastchess `elo_test.cpp`, "EloWDL 1": W=76, D=123, L=89.
    #[test]
    fn fastchess_wdl_76_123_89() {
        let e = Wdl::new(76, 123, 89).estimate();
        close(e.nelo, -20.76, 0.005);
        close(e.nelo_error, 40.13, 0.005);
        assert_eq!(format!("{:.2}", e.los * 100.0), "15.53");
    }

    /// fastchess `elo_test.cpp`, "EloWDL 3": W=34, D=0, L=356.
    #[test]
    fn fastchess_wdl_34_0_356() {
        let e = Wdl::new(34, 0, 356).estimate();
        close(e.nelo, -508.44, 0.005);
        close(e.nelo_error, 34.48, 0.005);
    }

    #[test]
    fn no_games_is_undefined_everywhere() {
        let e = Wdl::default().estimate();
        assert!(e.score.is_nan() && e.elo.is_nan() && e.los.is_nan() && e.nelo.is_nan());
        assert_eq!(e.undefined().len(), 6);
    }

    #[test]
    fn all_draws() {
        let e = Wdl::new(0, 50, 0).estimate();
        assert_eq!(
            (e.score, e.elo, e.elo_error, e.los, e.nelo),
            (0.5, 0.0, 0.0, 0.5, 0.0)
        );
        close(e.nelo_error, z95() * NELO_PER_T / 50f64.sqrt(), 1e-12);
        assert!(e.undefined().is_empty());
    }

    #[test]
    fn all_wins() {
        let e = Wdl::new(10, 0, 0).estimate();
        assert_eq!(e.elo, f64::INFINITY);
        assert!(e.elo_error.is_nan());
        assert_eq!(e.los, 1.0);
        assert_eq!(e.nelo, f64::INFINITY);
        let fields: Vec<_> = e.undefined().into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["elo", "elo_error", "nelo", "nelo_error"]);
    }

    #[test]
    fn all_losses() {
        let e = Wdl::new(0, 0, 7).estimate();
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert_eq!(e.los, 0.0);
        assert_eq!(e.nelo, f64::NEG_INFINITY);
    }

    #[test]
    fn one_game() {
        let e = Wdl::new(1, 0, 0).estimate();
        assert_eq!(e.games, 1);
        assert_eq!(e.score, 1.0);
        let e = Wdl::new(0, 1, 0).estimate();
        assert_eq!((e.elo, e.los, e.nelo), (0.0, 0.5, 0.0));
    }

    #[test]
    fn interval_past_100_percent_has_infinite_error() {
        // 9 wins and a draw: the score is 95%, its interval reaches past 1.
        let e = Wdl::new(9, 1, 0).estimate();
        close(e.elo, 400.0 * 19f64.log10(), 1e-9);
        assert_eq!(e.elo_upper, f64::INFINITY);
        assert_eq!(e.elo_error, f64::INFINITY);
        let fields: Vec<_> = e.undefined().into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["elo_error"]);
    }

    #[test]
    fn outcome_points_round_trip() {
        for o in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
            assert_eq!(Outcome::from_points(o.points()), Some(o));
            assert_eq!(o.reversed().points(), 1.0 - o.points());
        }
        assert_eq!(Outcome::from_points(0.25), None);
    }
}
