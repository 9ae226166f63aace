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
//!
//! Up to [`LOS_MAX_ENGINES`] engines the likelihood is maximized over dense
//! matrices, and the ratings come with their likelihood-of-superiority
//! matrix. More engines are rated from the pairs that met
//! (the private `hubs`): memory grows with the engines and their
//! meetings, and the work with the cube of the hubs (a gauntlet's
//! challengers), not of the engines; there is no LOS matrix, which alone
//! would hold `n^2` numbers.

use super::bradley_terry::Matrices;
use super::crosstable::Crosstable;
use super::elo::{normal_cdf, z95};
use super::hubs::Played;

/// Virtual draws added between every two engines that played each other
/// when the maximum-likelihood ratings do not exist.
pub const PRIOR_VIRTUAL_DRAWS: f64 = 2.0;

/// Most engines whose ratings are computed over dense matrices and come
/// with a likelihood-of-superiority matrix ([`Ratings::los`]).
pub const LOS_MAX_ENGINES: usize = 256;

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
    /// approximation of `r_i - r_j` with its standard error. Empty for
    /// more than [`LOS_MAX_ENGINES`] engines.
    pub los: Vec<Vec<f64>>,
    /// Games rated (real games).
    pub games: u64,
}

/// The first engine (by index) that no chain of games connects to engine
/// 0, if any.
fn unreached(table: &Crosstable) -> Option<usize> {
    let mut seen = vec![false; table.len()];
    let mut stack = Vec::new();
    if let Some(first) = seen.first_mut() {
        *first = true;
        stack.push(0);
    }
    while let Some(i) = stack.pop() {
        for (j, games, _) in table.opponents(i) {
            if games > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().position(|&s| !s)
}

/// The strongly connected groups of a directed graph (`out[i]`: the ends
/// of `i`'s edges; `into[j]`: their starts): each vertex's group, numbered
/// from 0 (Kosaraju: a search that lists vertices as it finishes them,
/// then searches backwards from the last finished).
fn groups(out: &[Vec<usize>], into: &[Vec<usize>]) -> Vec<usize> {
    let n = out.len();
    let mut finished = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some(&(i, next)) = stack.last() {
            match out[i].get(next) {
                Some(&j) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    if !seen[j] {
                        seen[j] = true;
                        stack.push((j, 0));
                    }
                }
                None => {
                    finished.push(i);
                    stack.pop();
                }
            }
        }
    }
    let mut group = vec![usize::MAX; n];
    let mut count = 0;
    for &start in finished.iter().rev() {
        if group[start] != usize::MAX {
            continue;
        }
        group[start] = count;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for &j in &into[i] {
                if group[j] == usize::MAX {
                    group[j] = count;
                    stack.push(j);
                }
            }
        }
        count += 1;
    }
    group
}

/// Why the maximum likelihood does not exist, or `None` if it does: the
/// "scored a point against" graph must be strongly connected.
fn no_mle_reason(table: &Crosstable) -> Option<String> {
    let n = table.len();
    let (mut beat, mut beaten_by) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    for (i, ends) in beat.iter_mut().enumerate() {
        for (j, _, points) in table.opponents(i) {
            if points > 0.0 {
                ends.push(j);
                beaten_by[j].push(i);
            }
        }
    }
    let group = groups(&beat, &beaten_by);
    let count = group.iter().max().map_or(0, |g| g + 1);
    if count <= 1 {
        return None;
    }
    // Whether anyone outside each group scored against it, and whether it
    // scored against anyone outside.
    let (mut entered, mut leaves) = (vec![false; count], vec![false; count]);
    for (i, ends) in beat.iter().enumerate() {
        for &j in ends.iter().filter(|&&j| group[j] != group[i]) {
            leaves[group[i]] = true;
            entered[group[j]] = true;
        }
    }
    let members = |g: usize| -> Vec<usize> { (0..n).filter(|&i| group[i] == g).collect() };
    // A top group: nobody outside it scored against it. A bottom group: it
    // scored against nobody outside it. Each, the group of the first
    // engine in one.
    let top = group.iter().copied().find(|&g| !entered[g]).map(members);
    let bottom = group.iter().copied().find(|&g| !leaves[g]).map(members);
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
    let reason = no_mle_reason(table);
    let draws = reason.is_some().then_some(PRIOR_VIRTUAL_DRAWS);
    let (engines, los) = if table.len() <= LOS_MAX_ENGINES {
        dense(table, draws, anchor_index)?
    } else {
        by_hubs(table, draws, anchor_index)?
    };
    let method = match reason {
        None => Method::MaximumLikelihood,
        Some(reason) => Method::Prior {
            virtual_draws: PRIOR_VIRTUAL_DRAWS,
            reason,
        },
    };
    Ok(Ratings {
        engines,
        anchor: anchor.clone(),
        method,
        los,
        games: table.total_games().round() as u64,
    })
}

/// The rated engines (with `draws` virtual draws between every two that
/// met, when given) and their LOS matrix, over dense matrices.
///
/// # Errors
/// [`RatingsError::NotConverged`].
fn dense(
    table: &Crosstable,
    draws: Option<f64>,
    anchor_index: Option<usize>,
) -> Result<(Vec<EngineRating>, Vec<Vec<f64>>), RatingsError> {
    let mut m = Matrices::new(table);
    if let Some(d) = draws {
        m.add_virtual_draws(d);
    }
    let r = m.newton().ok_or(RatingsError::NotConverged)?;
    let cov = m.covariance(&r).ok_or(RatingsError::NotConverged)?;
    let (order, engines) = rate_engines(table, &r, &cov, anchor_index);
    Ok((engines, los_matrix(&order, &r, &cov)))
}

/// The rated engines, as [`dense`] rates them, from the pairs that met
/// ([`Played`]); no LOS matrix.
///
/// # Errors
/// [`RatingsError::NotConverged`].
fn by_hubs(
    table: &Crosstable,
    draws: Option<f64>,
    anchor_index: Option<usize>,
) -> Result<(Vec<EngineRating>, Vec<Vec<f64>>), RatingsError> {
    let mut played = Played::new(table).ok_or(RatingsError::NoGames)?;
    if let Some(d) = draws {
        played.add_virtual_draws(d);
    }
    let r = played.newton().ok_or(RatingsError::NotConverged)?;
    let (anchored, variances) = played
        .anchored(&r, anchor_index)
        .ok_or(RatingsError::NotConverged)?;
    Ok((listed(table, &anchored, &variances).1, Vec::new()))
}

/// About the most bytes rating `engines` engines takes, while computed and
/// as kept: dense matrices up to [`LOS_MAX_ENGINES`] engines; beyond, the
/// hubs' system (`hubs`: how many engines hold one of every pair that met,
/// a gauntlet's challengers, all engines but one in a round robin) and
/// what each engine and each of the `meetings` pairs that met take.
pub fn bytes_needed(engines: usize, hubs: usize, meetings: u64) -> u64 {
    // A crosstable entry each way, a meeting, its weight and places in
    // each engine's lists: about 300 bytes.
    let per_meeting = 300;
    let square = |k: usize| (k as u64).saturating_mul(k as u64).saturating_mul(8);
    let apart = if engines <= LOS_MAX_ENGINES {
        // Games, points, information, its reduced copy and factor, the
        // inverse, the covariance, the anchoring, the LOS matrix and its
        // summary (twice as wide): 11 squares.
        square(engines).saturating_mul(11)
    } else {
        // The hubs' system, its factor and inverse.
        square(hubs).saturating_mul(3)
    };
    // About 24 numbers and lists of each engine.
    let per_engine = 24 * 8;
    apart
        .saturating_add(meetings.saturating_mul(per_meeting))
        .saturating_add((engines as u64).saturating_mul(per_engine))
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
    if let Some(k) = unreached(table) {
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
    let variances: Vec<f64> = (0..n).map(variance).collect();
    listed(table, &anchored, &variances)
}

/// The engines of `table` with their `anchored` ratings and the
/// `variances` of those, from the highest rating to the lowest (ties by
/// name), and that order as indexes into `table`.
fn listed(
    table: &Crosstable,
    anchored: &[f64],
    variances: &[f64],
) -> (Vec<usize>, Vec<EngineRating>) {
    let z = z95();
    let mut order: Vec<usize> = (0..anchored.len()).collect();
    order.sort_by(|&i, &j| {
        anchored[j]
            .total_cmp(&anchored[i])
            .then_with(|| table.names()[i].cmp(&table.names()[j]))
    });
    let engines = order
        .iter()
        .map(|&i| {
            let se = variances[i].sqrt();
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
#[path = "ratings_tests.rs"]
mod tests;
