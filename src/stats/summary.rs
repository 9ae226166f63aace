//! JSON summaries: what `arena stats --json` prints and what a tournament
//! writes to `results.json`. A value that does not exist (infinite or
//! undefined) is written as `null`, and `notes` maps its key to the reason;
//! JSON never holds a bare NaN or Infinity.
//!
//! Scores, LOS and draw ratios are fractions in `[0, 1]`, not percentages.

use super::elo::{Basis, EloEstimate, Wdl};
use super::pentanomial::Ptnml;
use super::ratings::{Anchor, Method, Ratings};
use super::sprt::{SprtState, Verdict};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// Serializes a non-finite number as `null`.
fn finite<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else {
        s.serialize_none()
    }
}

/// Serializes `Some(non-finite)` as `null` (and `None` is skipped).
fn finite_option<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(v) => finite(v, s),
        None => s.serialize_none(),
    }
}

/// The SPRT part of a [`Summary`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtSummary {
    /// "normalized" or "logistic".
    pub model: &'static str,
    /// The H0 Elo.
    pub elo0: f64,
    /// The H1 Elo.
    pub elo1: f64,
    /// The type I error probability.
    pub alpha: f64,
    /// The type II error probability.
    pub beta: f64,
    /// The log-likelihood ratio (`null` if it could not be computed).
    #[serde(serialize_with = "finite")]
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`.
    pub lower_bound: f64,
    /// `ln((1 - beta) / alpha)`.
    pub upper_bound: f64,
    /// "H0", "H1" or "continue".
    pub verdict: Verdict,
}

impl SprtSummary {
    /// The summary of a test's state.
    pub fn new(state: &SprtState) -> SprtSummary {
        SprtSummary {
            model: state.sprt.model().name(),
            elo0: state.sprt.elo0(),
            elo1: state.sprt.elo1(),
            alpha: state.sprt.alpha(),
            beta: state.sprt.beta(),
            llr: state.llr,
            lower_bound: state.lower_bound,
            upper_bound: state.upper_bound,
            verdict: state.verdict,
        }
    }
}

/// Head-to-head statistics as one JSON object: `games, score, elo,
/// elo_error, los, draw_ratio, nelo, nelo_error, llr, lower_bound,
/// upper_bound, verdict` (DESIGN.md), plus `basis`, `pairs`, `wins`,
/// `draws`, `losses`, `ptnml`, `pairs_ratio`, `model`, `elo0`, `elo1`,
/// `alpha`, `beta` and `notes` where they apply.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// "trinomial" (games are the samples) or "pentanomial" (pairs are).
    pub basis: Basis,
    /// Games played.
    pub games: u64,
    /// Pairs played (pentanomial only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u64>,
    /// Games won (when known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
    /// Games drawn (when known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<u64>,
    /// Games lost (when known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u64>,
    /// Pentanomial counts LL, LD, WL+DD, WD, WW (pentanomial only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ptnml: Option<Ptnml>,
    /// Points per game.
    #[serde(serialize_with = "finite")]
    pub score: f64,
    /// Logistic Elo difference.
    #[serde(serialize_with = "finite")]
    pub elo: f64,
    /// Half-width of its 95% interval.
    #[serde(serialize_with = "finite")]
    pub elo_error: f64,
    /// Likelihood of superiority, in `[0, 1]`.
    #[serde(serialize_with = "finite")]
    pub los: f64,
    /// Drawn games per game (trinomial), or pairs scoring 1 of 2 (WL or
    /// DD) per pair (pentanomial), as fastchess reports them.
    #[serde(serialize_with = "finite")]
    pub draw_ratio: f64,
    /// Pairs won per pair lost (pentanomial only).
    #[serde(
        serialize_with = "finite_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub pairs_ratio: Option<f64>,
    /// Normalized Elo.
    #[serde(serialize_with = "finite")]
    pub nelo: f64,
    /// Half-width of its 95% interval.
    #[serde(serialize_with = "finite")]
    pub nelo_error: f64,
    /// The SPRT, if one is run.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSummary>,
    /// For each `null` value, why it does not exist.
    pub notes: BTreeMap<&'static str, String>,
}

impl Summary {
    /// Trinomial statistics of `wdl`.
    pub fn from_wdl(wdl: &Wdl, sprt: Option<&SprtState>) -> Summary {
        Summary::new(&wdl.estimate(), Some(wdl), None, sprt)
    }

    /// Pentanomial statistics of `ptnml`.
    pub fn from_ptnml(ptnml: &Ptnml, sprt: Option<&SprtState>) -> Summary {
        Summary::new(&ptnml.estimate(), None, Some(ptnml), sprt)
    }

    /// A summary of `estimate`, with the game counts of `wdl` (all finished
    /// games) and the pair counts of `ptnml` when known. The draw ratio is
    /// taken from the counts that match `estimate.basis`.
    pub fn new(
        estimate: &EloEstimate,
        wdl: Option<&Wdl>,
        ptnml: Option<&Ptnml>,
        sprt: Option<&SprtState>,
    ) -> Summary {
        let draw_ratio = match (estimate.basis, wdl, ptnml) {
            (Basis::Pentanomial, _, Some(p)) => p.draw_ratio(),
            (_, Some(w), _) => w.draw_ratio(),
            (_, None, Some(p)) => p.draw_ratio(),
            (_, None, None) => f64::NAN,
        };
        let mut notes: BTreeMap<&'static str, String> = estimate.undefined().into_iter().collect();
        if !draw_ratio.is_finite() {
            let unit = if estimate.basis == Basis::Pentanomial {
                "pairs"
            } else {
                "games"
            };
            notes.insert("draw_ratio", format!("no {unit}"));
        }
        let pairs_ratio = ptnml.map(Ptnml::pairs_ratio);
        if let Some(r) = pairs_ratio.filter(|r| !r.is_finite()) {
            let reason = if r.is_nan() {
                "no pair was won or lost"
            } else {
                "no pair was lost: the ratio is infinite"
            };
            notes.insert("pairs_ratio", reason.to_string());
        }
        if let Some(state) = sprt.filter(|s| !s.llr.is_finite()) {
            notes.insert(
                "llr",
                format!(
                    "the maximum-likelihood distributions for elo0 = {} and elo1 = {} could not be found",
                    state.sprt.elo0(),
                    state.sprt.elo1()
                ),
            );
        }
        Summary {
            basis: estimate.basis,
            games: wdl.map_or(estimate.games, Wdl::games),
            pairs: ptnml.map(Ptnml::pairs),
            wins: wdl.map(|w| w.wins),
            draws: wdl.map(|w| w.draws),
            losses: wdl.map(|w| w.losses),
            ptnml: ptnml.copied(),
            score: estimate.score,
            elo: estimate.elo,
            elo_error: estimate.elo_error,
            los: estimate.los,
            draw_ratio,
            pairs_ratio,
            nelo: estimate.nelo,
            nelo_error: estimate.nelo_error,
            sprt: sprt.map(SprtSummary::new),
            notes,
        }
    }
}

/// One engine of a [`RatingsSummary`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineSummary {
    /// The engine.
    pub name: String,
    /// Rating relative to the anchor.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub error: f64,
    /// Standard error.
    pub std_error: f64,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
    /// Points per game.
    pub score: f64,
}

/// Multi-engine ratings as one JSON object: `engines` (best first),
/// `anchor` (`null` for the average, else the engine's name), `method`
/// ("maximum_likelihood" or "prior"), `prior` (`null`, or the virtual draws
/// per pair and the reason the maximum likelihood does not exist), `games`,
/// and `los` (`los[i][j]`: probability engine `i` is stronger than engine
/// `j`, `null` on the diagonal).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingsSummary {
    /// Engines from the highest rating to the lowest.
    pub engines: Vec<EngineSummary>,
    /// The engine rated 0, or `null` when the average is 0.
    pub anchor: Option<String>,
    /// "maximum_likelihood" or "prior".
    pub method: &'static str,
    /// The fallback prior, when used.
    pub prior: Option<PriorSummary>,
    /// Games rated.
    pub games: u64,
    /// The LOS matrix, in the order of `engines`.
    pub los: Vec<Vec<Option<f64>>>,
}

/// The fallback prior of a [`RatingsSummary`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PriorSummary {
    /// Virtual draws added between every two engines that met.
    pub virtual_draws_per_pair: f64,
    /// Why the maximum-likelihood ratings do not exist.
    pub reason: String,
}

impl RatingsSummary {
    /// The summary of a rating list.
    pub fn new(r: &Ratings) -> RatingsSummary {
        let nullable = |x: f64| if x.is_finite() { Some(x) } else { None };
        RatingsSummary {
            engines: r
                .engines
                .iter()
                .map(|e| EngineSummary {
                    name: e.name.clone(),
                    elo: e.elo,
                    error: e.error,
                    std_error: e.std_error,
                    games: e.games,
                    points: e.points,
                    score: e.score(),
                })
                .collect(),
            anchor: match &r.anchor {
                Anchor::Average => None,
                Anchor::Engine(name) => Some(name.clone()),
            },
            method: match r.method {
                Method::MaximumLikelihood => "maximum_likelihood",
                Method::Prior { .. } => "prior",
            },
            prior: match &r.method {
                Method::MaximumLikelihood => None,
                Method::Prior {
                    virtual_draws,
                    reason,
                } => Some(PriorSummary {
                    virtual_draws_per_pair: *virtual_draws,
                    reason: reason.clone(),
                }),
            },
            games: r.games,
            los: r
                .los
                .iter()
                .map(|row| row.iter().map(|&x| nullable(x)).collect())
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::{Model, Sprt};

    #[test]
    fn non_finite_values_are_null_with_a_note() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let wdl = Wdl::new(3, 0, 0);
        let json =
            serde_json::to_value(Summary::from_wdl(&wdl, Some(&sprt.evaluate_wdl(&wdl)))).unwrap();
        assert!(json["elo"].is_null());
        assert!(json["notes"]["elo"].as_str().unwrap().contains("+infinity"));
        assert_eq!(json["los"], 1.0);
        assert_eq!(json["verdict"], "continue");
        assert!(json["llr"].is_number());
        let text = serde_json::to_string(&json).unwrap();
        assert!(!text.contains("NaN") && !text.contains("Infinity"));
    }

    #[test]
    fn no_sprt_leaves_the_keys_out() {
        let json =
            serde_json::to_value(Summary::from_ptnml(&Ptnml([1, 2, 3, 4, 5]), None)).unwrap();
        assert!(json.get("llr").is_none());
        assert_eq!(json["pairs"], 15);
        assert_eq!(json["games"], 30);
        assert_eq!(json["basis"], "pentanomial");
    }
}
