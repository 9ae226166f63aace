//! Multi-ProbCut (Buro 1997, 1999): at a node searched to `deep` plies, a
//! shallow search to `shallow` plies predicts the deep value through a
//! fitted linear model `v_deep ≈ a·v_shallow + b` with error `sigma`. When
//! the prediction lies beyond the window by more than `confidence` sigmas,
//! the node is cut without the deep search: two null-window searches at the
//! shallow depth test "is `a·v + b − t·sigma ≥ beta`?" and "is
//! `a·v + b + t·sigma ≤ alpha`?". Several (deep, shallow) pairs may share a
//! depth, and the parameters differ by game stage (empties), as in
//! Logistello. A node whose search would reach every game end (depth at
//! least the empties) is never cut.
//!
//! The parameters are data, fitted by `arena probcut fit` and loaded from a
//! RON file an engine names (`probcut: Some("probcut/....ron")`):
//! ```ron
//! ProbCut(
//!     confidence: 1.5,
//!     stages: [
//!         (min_empties: 36, pairs: [(deep: 4, shallow: 2, a: 0.98, b: 12.0, sigma: 180.0)]),
//!         (min_empties: 0, pairs: []),
//!     ],
//! )
//! ```
//! `a`, `b` and `sigma` are in the evaluation's units (centidiscs). ProbCut
//! makes a search inexact: the tests that compare search variants with
//! minimax run without it.

use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One (deep, shallow) pair's fitted model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// Depth of the node the model predicts.
    pub deep: u32,
    /// Depth of the shallow search.
    pub shallow: u32,
    /// Slope.
    pub a: f64,
    /// Intercept (centidiscs).
    pub b: f64,
    /// Standard deviation of the prediction error (centidiscs).
    pub sigma: f64,
}

/// The pairs of one game stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// The stage applies from this many empties up (to the previous stage).
    pub min_empties: u32,
    /// Its pairs, tried in order.
    pub pairs: Vec<Pair>,
}

/// ProbCut parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "ProbCut")]
pub struct ProbCut {
    /// Cut when the prediction is this many sigmas beyond the window.
    pub confidence: f64,
    /// Stages, highest `min_empties` first, the last at 0.
    pub stages: Vec<Stage>,
}

/// Deepest depth a pair may name.
pub const MAX_DEPTH: u32 = 60;

impl ProbCut {
    /// Parses a parameters file (`path` only names it in errors).
    ///
    /// # Errors
    /// Malformed RON or a bad value, naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<ProbCut> {
        let pc: ProbCut = crate::util::parse_ron(text, path)?;
        let field = |f: &str, n: usize, msg: String| {
            Err(crate::util::ron_scan::config_field_nth(
                path, text, f, n, msg,
            ))
        };
        if !(pc.confidence.is_finite() && pc.confidence >= 0.0 && pc.confidence <= 10.0) {
            return field(
                "confidence",
                0,
                format!("{} is not a number from 0 to 10", pc.confidence),
            );
        }
        let bounds: Vec<u32> = pc.stages.iter().map(|s| s.min_empties).collect();
        crate::util::check_stages(&bounds, text, path)?;
        let mut n = 0;
        for (k, s) in pc.stages.iter().enumerate() {
            for p in &s.pairs {
                let at = |f: &str, msg: String| field(f, n, format!("stage {}: {msg}", k + 1));
                if p.deep == 0 || p.deep > MAX_DEPTH {
                    return at(
                        "deep",
                        format!("{} is not a depth from 1 to {MAX_DEPTH}", p.deep),
                    );
                }
                if p.shallow >= p.deep {
                    return at(
                        "shallow",
                        format!("{} must be less than deep ({})", p.shallow, p.deep),
                    );
                }
                if !(p.a.is_finite() && p.a > 0.01 && p.a < 100.0) {
                    return at("a", format!("{} is not a slope between 0.01 and 100", p.a));
                }
                if !(p.b.is_finite() && p.b.abs() < 1e6) {
                    return at("b", format!("{} is not a finite intercept", p.b));
                }
                if !(p.sigma.is_finite() && p.sigma >= 0.0 && p.sigma < 1e6) {
                    return at("sigma", format!("{} is not a finite sigma >= 0", p.sigma));
                }
                n += 1;
            }
        }
        Ok(pc)
    }

    /// Loads a parameters file.
    ///
    /// # Errors
    /// As [`ProbCut::parse`], or the file cannot be read.
    pub fn load(path: &Path) -> Result<ProbCut> {
        ProbCut::parse(&crate::util::text::read_text(path)?, path)
    }

    /// The file text of these parameters, with `header` lines as comments.
    pub fn to_file(&self, header: &[String]) -> String {
        let mut out = String::new();
        for h in header {
            out.push_str(&format!("// {h}\n"));
        }
        out.push_str(&format!(
            "ProbCut(\n    // Cut when the predicted deep value is this many sigmas beyond the window.\n    confidence: {:?},\n    stages: [\n",
            self.confidence
        ));
        for s in &self.stages {
            out.push_str(&format!(
                "        (min_empties: {}, pairs: [\n",
                s.min_empties
            ));
            for p in &s.pairs {
                out.push_str(&format!(
                    "            (deep: {}, shallow: {}, a: {:?}, b: {:.1}, sigma: {:.1}),\n",
                    p.deep, p.shallow, p.a, p.b, p.sigma
                ));
            }
            out.push_str("        ]),\n");
        }
        out.push_str("    ],\n)\n");
        out
    }

    /// Index of the stage for a position with `empties` empties.
    #[inline]
    pub(super) fn stage(&self, empties: u32) -> usize {
        self.stages
            .iter()
            .position(|s| empties >= s.min_empties)
            .unwrap_or(self.stages.len() - 1)
    }
}

/// Least-squares line through `(x, y)` points: `(a, b, sigma)`, sigma the
/// residuals' standard deviation (n − 2 degrees of freedom). `None` for
/// fewer than 3 points or no spread in x.
pub fn fit_line(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 3 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = points
        .iter()
        .map(|p| {
            let e = p.1 - (a * p.0 + b);
            e * e
        })
        .sum();
    Some((a, b, (sse / (n - 2.0)).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_line_recovers_a_line_and_its_noise() {
        let pts: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i);
                let noise = if i % 2 == 0 { 1.0 } else { -1.0 };
                (x, 2.0 * x + 5.0 + noise)
            })
            .collect();
        let (a, b, s) = fit_line(&pts).unwrap();
        assert!((a - 2.0).abs() < 1e-3, "{a}");
        assert!((b - 5.0).abs() < 0.1, "{b}");
        assert!((s - 1.0).abs() < 0.02, "{s}");
        assert!(fit_line(&pts[..2]).is_none());
        assert!(fit_line(&[(1.0, 1.0), (1.0, 2.0), (1.0, 3.0)]).is_none());
    }

    #[test]
    fn bad_parameters_are_refused_with_their_field() {
        let path = Path::new("pc.ron");
        let ok = "ProbCut(confidence: 1.5, stages: [(min_empties: 0, pairs: [(deep: 4, shallow: 2, a: 1.0, b: 0.0, sigma: 100.0)])])";
        assert!(ProbCut::parse(ok, path).is_ok());
        for (bad, field) in [
            (ok.replace("shallow: 2", "shallow: 4"), "shallow"),
            (ok.replace("a: 1.0", "a: -1.0"), "a:"),
            (ok.replace("sigma: 100.0", "sigma: NaN"), "sigma"),
            (
                ok.replace("confidence: 1.5", "confidence: -2.0"),
                "confidence",
            ),
            (ok.replace("deep: 4", "deep: 0"), "deep"),
            (
                ok.replace("min_empties: 0", "min_empties: 3"),
                "min_empties",
            ),
        ] {
            let e = ProbCut::parse(&bad, path).unwrap_err().to_string();
            assert!(e.contains(field) && e.contains("pc.ron"), "{bad}: {e}");
        }
    }
}
