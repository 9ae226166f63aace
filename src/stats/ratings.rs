//! Multi-engine ratings for round-robins and gauntlets: maximum-likelihood
//! Bradley-Terry ratings on the logistic Elo scale from all games of a
//! [`Crosstable`] (a draw is half a win and half a loss), anchored so the
//! average is 0 or a named engine is 0, with standard errors from the Fisher
//! information and a likelihood-of-superiority matrix.
//!
//! The model: engine `i` scores `1 / (1 + 10^(-(r_i - r_j) / 400))` per game
//! against engine `j`. The likelihood is maximized by Newton's method with
//! step halving (it is concave). The maximum exists if and only if the
//! engines cannot be split into two groups one of which scored every point
//! in the games between them (Zermelo, Ford). When it does not exist, the
//! ratings fall back to a prior of [`PRIOR_VIRTUAL_DRAWS`] virtual draws
//! between every two engines that met (as BayesElo's default prior), and
//! [`Ratings::method`] says so.

use super::bradley_terry::Matrices;
use super::crosstable::Crosstable;
use super::elo::{normal_cdf, z95};

/// Virtual draws added between every two engines that played each other
/// when the maximum-likelihood ratings do not exist.
pub const PRIOR_VIRTUAL_DRAWS: f64 = 2.0;

/// Which rating is fixed, since the likelihood only sees differences.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Anchor {
    /// The ratings average 0.
    #[default]
    Average,
    /// This engine is rated 0.
    Engine(String),
}

/// How the ratings were obtained.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// Maximum likelihood from the games alone.
    MaximumLikelihood,
    /// The maximum likelihood does not exist; the games plus a prior of
    /// `virtual_draws` draws between every two engines that met.
    Prior {
        /// Virtual draws per pair of engines that met.
        virtual_draws: f64,
        /// Why the maximum likelihood does not exist.
        reason: String,
    },
}

/// Why ratings could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingsError {
    /// No games at all.
    #[error("no games to rate")]
    NoGames,
    /// The anchor engine is not in the table.
    #[error("anchor `{0}`: no such engine")]
    UnknownAnchor(String),
    /// Two groups of engines never met, directly or through others: their
    /// ratings are not comparable.
    #[error("no games connect `{0}` and `{1}`: their ratings cannot be compared")]
    Disconnected(String, String),
    /// Newton's method failed (should not happen).
    #[error("the rating iteration did not converge")]
    NotConverged,
}

/// One engine's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRating {
    /// The engine.
    pub name: String,
    /// Its rating (Elo, relative to the anchor).
    pub elo: f64,
    /// Standard error of `elo` relative to the anchor (0 for the anchor
    /// engine itself).
    pub std_error: f64,
    /// Half-width of the 95% interval: `1.96 * std_error`.
    pub error: f64,
    /// Games played (real games, not virtual ones).
    pub games: u64,
    /// Points scored.
    pub points: f64,
}

impl EngineRating {
    /// Points per game.
    pub fn score(&self) -> f64 {
        self.points / self.games as f64
    }
}

/// The rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Engines from the highest rating to the lowest.
    pub engines: Vec<EngineRating>,
    /// What is rated 0.
    pub anchor: Anchor,
    /// Maximum likelihood, or the fallback prior.
    pub method: Method,
    /// `los[i][j]`: probability that engine `i` is stronger than engine `j`
    /// (same order as `engines`; `NaN` on the diagonal), from the normal
    /// approximation of `r_i - r_j` with its standard error.
    pub los: Vec<Vec<f64>>,
    /// Games rated (real games).
    pub games: u64,
}

/// Engines reachable from engine 0 along `edge(i, j)`.
fn reachable(n: usize, start: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; n];
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        for (j, seen_j) in seen.iter_mut().enumerate() {
            if !*seen_j && edge(i, j) {
                *seen_j = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// Why the maximum likelihood does not exist, or `None` if it does: the
/// "scored a point against" graph must be strongly connected.
fn no_mle_reason(table: &Crosstable) -> Option<String> {
    let n = table.len();
    let beat = |i: usize, j: usize| table.points_against(i, j) > 0.0;
    // reach[i][j]: i scored, directly or through others, against j.
    let reach: Vec<Vec<bool>> = (0..n).map(|i| reachable(n, i, beat)).collect();
    if reach.iter().all(|row| row.iter().all(|&b| b)) {
        return None;
    }
    let component =
        |i: usize| -> Vec<usize> { (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect() };
    // A top group: nobody outside it scored against it. A bottom group: it
    // scored against nobody outside it.
    let top = (0..n)
        .map(component)
        .find(|c| (0..n).all(|j| c.contains(&j) || c.iter().all(|&i| !reach[j][i])));
    let bottom = (0..n)
        .map(component)
        .find(|c| (0..n).all(|j| c.contains(&j) || c.iter().all(|&i| !reach[i][j])));
    let names = |c: &[usize]| {
        c.iter()
            .map(|&i| table.names()[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(match (top, bottom) {
        (Some(t), Some(b)) if b.len() < t.len() => {
            format!("{} scored no points against the other engines", names(&b))
        }
        (Some(t), _) => format!("{} scored every point against the other engines", names(&t)),
        (None, Some(b)) => format!("{} scored no points against the other engines", names(&b)),
        (None, None) => "some engines scored every point against the others".to_string(),
    })
}

/// Maximum-likelihood ratings of the engines in `table` (see the module
/// documentation), with the fallback prior when the maximum does not exist.
///
/// # Errors
/// [`RatingsError`]: no games, an unknown anchor, or engines that no chain
/// of games connects.
pub fn ratings(table: &Crosstable, anchor: &Anchor) -> Result<Ratings, RatingsError> {
    let anchor_index = check_table(table, anchor)?;
    let mut m = Matrices::new(table);
    let method = match no_mle_reason(table) {
        None => Method::MaximumLikelihood,
        Some(reason) => {
            m.add_virtual_draws(PRIOR_VIRTUAL_DRAWS);
            Method::Prior {
                virtual_draws: PRIOR_VIRTUAL_DRAWS,
                reason,
            }
        }
    };
    let r = m.newton().ok_or(RatingsError::NotConverged)?;
    let cov = m.covariance(&r).ok_or(RatingsError::NotConverged)?;
    let (order, engines) = rate_engines(table, &r, &cov, anchor_index);
    Ok(Ratings {
        engines,
        anchor: anchor.clone(),
        method,
        los: los_matrix(&order, &r, &cov),
        games: table.total_games().round() as u64,
    })
}

/// The anchor's index (`None` for the average), after checking that there
/// are games, that the anchor is an engine of the table, and that games
/// connect every engine to every other.
fn check_table(table: &Crosstable, anchor: &Anchor) -> Result<Option<usize>, RatingsError> {
    if table.total_games() == 0.0 {
        return Err(RatingsError::NoGames);
    }
    let anchor_index = match anchor {
        Anchor::Average => None,
        Anchor::Engine(name) => Some(
            table
                .index_of(name)
                .ok_or_else(|| RatingsError::UnknownAnchor(name.clone()))?,
        ),
    };
    let connected = reachable(table.len(), 0, |i, j| table.games_between(i, j) > 0.0);
    if let Some(k) = connected.iter().position(|&c| !c) {
        return Err(RatingsError::Disconnected(
            table.names()[0].clone(),
            table.names()[k].clone(),
        ));
    }
    Ok(anchor_index)
}

/// The anchoring map `A`: rating = `A r` for ratings `r` with the last
/// engine fixed. It subtracts the average, or the anchor engine's rating.
fn anchor_matrix(n: usize, anchor_index: Option<usize>) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let identity = if i == j { 1.0 } else { 0.0 };
                    match anchor_index {
                        None => identity - 1.0 / n as f64,
                        Some(k) => identity - if j == k { 1.0 } else { 0.0 },
                    }
                })
                .collect()
        })
        .collect()
}

/// The anchored ratings of `r` (covariance `cov`) from the highest to the
/// lowest (ties by name), and that order as indexes into `table`.
fn rate_engines(
    table: &Crosstable,
    r: &[f64],
    cov: &[Vec<f64>],
    anchor_index: Option<usize>,
) -> (Vec<usize>, Vec<EngineRating>) {
    let n = r.len();
    let a = anchor_matrix(n, anchor_index);
    let anchored: Vec<f64> = a
        .iter()
        .map(|row| row.iter().zip(r).map(|(x, y)| x * y).sum())
        .collect();
    let variance = |i: usize| -> f64 {
        let mut v = 0.0;
        for p in 0..n {
            for q in 0..n {
                v += a[i][p] * cov[p][q] * a[i][q];
            }
        }
        v.max(0.0)
    };
    let z = z95();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| {
        anchored[j]
            .total_cmp(&anchored[i])
            .then_with(|| table.names()[i].cmp(&table.names()[j]))
    });
    let engines = order
        .iter()
        .map(|&i| {
            let se = variance(i).sqrt();
            EngineRating {
                name: table.names()[i].clone(),
                elo: anchored[i],
                std_error: se,
                error: z * se,
                games: table.games_of(i).round() as u64,
                points: table.points_of(i),
            }
        })
        .collect();
    (order, engines)
}

/// `los[i][j]` (engines in `order`): the probability that `r[i] > r[j]`
/// under the normal approximation with covariance `cov`; `NaN` on the
/// diagonal.
fn los_matrix(order: &[usize], r: &[f64], cov: &[Vec<f64>]) -> Vec<Vec<f64>> {
    order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| {
                    if i == j {
                        return f64::NAN;
                    }
                    let var = (cov[i][i] + cov[j][j] - 2.0 * cov[i][j]).max(0.0);
                    normal_cdf((r[i] - r[j]) / var.sqrt())
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bradley_terry::K;
    use crate::stats::close;

    /// A scores 75% against B in 100 games (60 wins, 30 draws, 10 losses).
    fn two_engines() -> Crosstable {
        let mut t = Crosstable::new();
        let a = t.engine("A");
        let b = t.engine("B");
        for k in 0..100 {
            t.add_game(
                a,
                b,
                if k < 60 {
                    1.0
                } else if k < 90 {
                    0.5
                } else {
                    0.0
                },
            );
        }
        t
    }

    #[test]
    fn two_engines_seventy_five_percent() {
        let r = ratings(&two_engines(), &Anchor::Average).unwrap();
        assert_eq!(r.method, Method::MaximumLikelihood);
        let diff = 400.0 * 3f64.log10(); // 190.85
        close(r.engines[0].elo, diff / 2.0, 1e-6);
        close(r.engines[1].elo, -diff / 2.0, 1e-6);
        assert_eq!(r.engines[0].name, "A");
        // Var(diff) = 1 / (k^2 * 100 * 0.75 * 0.25); each rating has half
        // the difference's standard error.
        let se_diff = 1.0 / (K * (100.0f64 * 0.75 * 0.25).sqrt());
        close(r.engines[0].std_error, se_diff / 2.0, 1e-6);
        close(r.los[0][1], normal_cdf(diff / se_diff), 1e-9);
        assert!(r.los[0][0].is_nan());
    }

    #[test]
    fn anchored_on_an_engine() {
        let r = ratings(&two_engines(), &Anchor::Engine("B".into())).unwrap();
        close(r.engines[0].elo, 400.0 * 3f64.log10(), 1e-6);
        assert_eq!(r.engines[1].elo, 0.0);
        assert_eq!(r.engines[1].std_error, 0.0);
        close(r.engines[0].std_error, 1.0 / (K * 18.75f64.sqrt()), 1e-6);
        assert_eq!(
            ratings(&two_engines(), &Anchor::Engine("X".into())),
            Err(RatingsError::UnknownAnchor("X".into()))
        );
    }

    #[test]
    fn three_engines_transitive() {
        // A-B 75%, B-C 75%, A-C 90%: ratings decrease, average 0.
        let mut t = Crosstable::new();
        let (a, b, c) = (t.engine("A"), t.engine("B"), t.engine("C"));
        for k in 0..40 {
            t.add_game(a, b, if k < 30 { 1.0 } else { 0.0 });
            t.add_game(b, c, if k < 30 { 1.0 } else { 0.0 });
            t.add_game(a, c, if k < 36 { 1.0 } else { 0.0 });
        }
        let r = ratings(&t, &Anchor::Average).unwrap();
        let names: Vec<_> = r.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        close(r.engines.iter().map(|e| e.elo).sum::<f64>(), 0.0, 1e-9);
        // The gradient vanishes: each engine's expected points equal its points.
        let elo = |name: &str| r.engines.iter().find(|e| e.name == name).unwrap().elo;
        let expected = |x: f64, y: f64| 40.0 / (1.0 + 10f64.powf(-(x - y) / 400.0));
        close(
            expected(elo("A"), elo("B")) + expected(elo("A"), elo("C")),
            66.0,
            1e-6,
        );
        close(
            expected(elo("C"), elo("A")) + expected(elo("C"), elo("B")),
            14.0,
            1e-6,
        );
        assert!(r.los[0][2] > r.los[0][1] && r.los[0][1] > 0.5);
    }

    #[test]
    fn no_mle_falls_back_to_the_prior() {
        let mut t = Crosstable::new();
        let (a, b) = (t.engine("A"), t.engine("B"));
        for _ in 0..10 {
            t.add_game(a, b, 1.0);
        }
        let r = ratings(&t, &Anchor::Average).unwrap();
        let Method::Prior {
            virtual_draws,
            reason,
        } = &r.method
        else {
            panic!("{:?}", r.method)
        };
        assert_eq!(*virtual_draws, 2.0);
        assert_eq!(reason, "A scored every point against the other engines");
        // With the prior A scores 11 of 12: diff = 400 log10(11).
        close(
            r.engines[0].elo - r.engines[1].elo,
            400.0 * 11f64.log10(),
            1e-6,
        );
        assert_eq!(r.engines[0].games, 10);
    }

    #[test]
    fn no_mle_names_the_loser_when_it_is_the_smaller_group() {
        // A and B trade wins; both beat C, which scores nothing.
        let mut t = Crosstable::new();
        let (a, b, c) = (t.engine("A"), t.engine("B"), t.engine("C"));
        t.add_game(a, b, 1.0);
        t.add_game(b, a, 1.0);
        t.add_game(a, c, 1.0);
        t.add_game(b, c, 1.0);
        let r = ratings(&t, &Anchor::Average).unwrap();
        let Method::Prior { reason, .. } = &r.method else {
            panic!("{:?}", r.method)
        };
        assert_eq!(reason, "C scored no points against the other engines");
        assert_eq!(r.engines[2].name, "C");
        // A draw for C against B makes the maximum likelihood exist.
        t.add_game(c, b, 0.5);
        assert_eq!(
            ratings(&t, &Anchor::Average).unwrap().method,
            Method::MaximumLikelihood
        );
    }

    #[test]
    fn disconnected_groups_are_an_error() {
        let mut t = Crosstable::new();
        let (a, b, c, d) = (t.engine("A"), t.engine("B"), t.engine("C"), t.engine("D"));
        t.add_game(a, b, 0.5);
        t.add_game(c, d, 0.5);
        assert_eq!(
            ratings(&t, &Anchor::Average),
            Err(RatingsError::Disconnected("A".into(), "C".into()))
        );
        assert_eq!(
            ratings(&Crosstable::new(), &Anchor::Average),
            Err(RatingsError::NoGames)
        );
    }
}
