//! The Bradley-Terry likelihood of [`bradley_terry`](super::bradley_terry),
//! over the pairs of engines that met, for many engines: Newton's method
//! with its system solved by eliminating every engine outside a set of
//! hubs. The hubs hold one engine of every pair that met, so no two engines
//! outside them met, and their part of the information matrix is diagonal;
//! what is left to factor is a system of the hubs alone (the Schur
//! complement). A gauntlet's hubs are its challengers: 8,000 engines with
//! one challenger make a 1 x 1 system where the dense form makes an
//! 8,000 x 8,000 one. A round robin's hubs are all its engines but one, so
//! there it costs what the dense form costs.
//!
//! One engine outside the hubs is fixed at 0 (the likelihood only sees
//! differences); anchoring is the caller's. Of the covariance only what the
//! standard errors need is computed: each engine's variance, the sums of
//! the rows and one column, never the whole `n x n` matrix.

use super::bradley_terry::{ln_sigmoid, sigmoid, K};
use super::crosstable::Crosstable;
use super::linalg::{cholesky, cholesky_inverse, cholesky_solve};

/// Two engines that met: `a < b`, their games and each one's points.
#[derive(Clone, Copy, Debug)]
struct Meeting {
    a: usize,
    b: usize,
    games: f64,
    /// The points of `a`, then of `b`.
    points: [f64; 2],
}

impl Meeting {
    /// The engine `i` met here.
    fn other(&self, i: usize) -> usize {
        if self.a == i {
            self.b
        } else {
            self.a
        }
    }
}

/// The games between engines, by the pairs that met.
pub(super) struct Played {
    meetings: Vec<Meeting>,
    /// Each engine's meetings, as indexes into `meetings`.
    of: Vec<Vec<usize>>,
    /// Whether each engine is a hub: every meeting holds at least one.
    hub: Vec<bool>,
    /// The engine fixed at 0, one outside the hubs.
    fixed: usize,
}

/// Newton's system at some ratings: the gradient, each meeting's weight
/// in the information matrix, and that matrix factored once the engines
/// outside the hubs are eliminated.
struct System {
    gradient: Vec<f64>,
    /// `K^2 games p (1 - p)` of each meeting.
    weight: Vec<f64>,
    /// Each engine's own information (the matrix's diagonal).
    diagonal: Vec<f64>,
    /// The hubs, lowest index first.
    hubs: Vec<usize>,
    /// Each engine's place among the hubs (`usize::MAX` outside them).
    slot: Vec<usize>,
    /// The Cholesky factor of the hubs' system.
    factor: Vec<Vec<f64>>,
}

impl Played {
    /// The pairs that met in `table`; `None` without engines.
    pub(super) fn new(table: &Crosstable) -> Option<Played> {
        let n = table.len();
        let mut meetings = Vec::new();
        let mut of = vec![Vec::new(); n];
        for a in 0..n {
            for (b, games, points) in table.opponents(a) {
                if b > a && games > 0.0 {
                    of[a].push(meetings.len());
                    of[b].push(meetings.len());
                    let points = [points, table.points_against(b, a)];
                    meetings.push(Meeting {
                        a,
                        b,
                        games,
                        points,
                    });
                }
            }
        }
        let hub = cover(&meetings, &of);
        let fixed = (0..n).rev().find(|&i| !hub[i])?;
        Some(Played {
            meetings,
            of,
            hub,
            fixed,
        })
    }

    /// Adds `draws` virtual draws between every two engines that met.
    pub(super) fn add_virtual_draws(&mut self, draws: f64) {
        for m in &mut self.meetings {
            m.games += draws;
            m.points[0] += draws / 2.0;
            m.points[1] += draws / 2.0;
        }
    }

    fn log_likelihood(&self, r: &[f64]) -> f64 {
        let mut sum = 0.0;
        for m in &self.meetings {
            let x = K * (r[m.a] - r[m.b]);
            if m.points[0] > 0.0 {
                sum += m.points[0] * ln_sigmoid(x);
            }
            if m.points[1] > 0.0 {
                sum += m.points[1] * ln_sigmoid(-x);
            }
        }
        sum
    }

    /// The maximum-likelihood ratings with [`Played::fixed`] at 0, or
    /// `None` if Newton's method fails (as the dense form's).
    pub(super) fn newton(&self) -> Option<Vec<f64>> {
        let n = self.of.len();
        let mut r = vec![0.0; n];
        let mut converged = n < 2;
        for _ in 0..200 {
            if converged {
                break;
            }
            let system = self.system(&r)?;
            let delta = system.solve(self, &system.gradient);
            let current = self.log_likelihood(&r);
            let mut t = 1.0;
            loop {
                let trial: Vec<f64> = r.iter().zip(&delta).map(|(x, d)| x + t * d).collect();
                if self.log_likelihood(&trial) >= current - 1e-12 * current.abs() || t < 1e-6 {
                    r = trial;
                    break;
                }
                t *= 0.5;
            }
            let largest = delta.iter().fold(0.0f64, |a, d| a.max((t * d).abs()));
            converged = largest < 1e-9;
        }
        (converged && r.iter().all(|x| x.is_finite())).then_some(r)
    }

    /// The ratings `r` anchored (on engine `anchor`, or with the average
    /// 0 when `None`) and the variance of each, from the inverse
    /// information at `r`; `None` if that is not positive definite.
    pub(super) fn anchored(
        &self,
        r: &[f64],
        anchor: Option<usize>,
    ) -> Option<(Vec<f64>, Vec<f64>)> {
        let n = r.len();
        let system = self.system(r)?;
        let own = system.variances(self);
        let Some(k) = anchor else {
            let mean = r.iter().sum::<f64>() / n as f64;
            let sums = system.solve(self, &vec![1.0; n]);
            let total: f64 = sums.iter().sum();
            let nf = n as f64;
            let variances = (0..n)
                .map(|i| (own[i] - 2.0 * sums[i] / nf + total / (nf * nf)).max(0.0))
                .collect();
            return Some((r.iter().map(|x| x - mean).collect(), variances));
        };
        let mut unit = vec![0.0; n];
        unit[k] = 1.0;
        let column = system.solve(self, &unit);
        let variances = (0..n)
            .map(|i| {
                if i == k {
                    0.0
                } else {
                    (own[i] + own[k] - 2.0 * column[i]).max(0.0)
                }
            })
            .collect();
        Some((r.iter().map(|x| x - r[k]).collect(), variances))
    }

    /// The engines outside the hubs that are not fixed: those eliminated.
    fn eliminated(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.of.len()).filter(|&k| !self.hub[k] && k != self.fixed)
    }

    /// Newton's system at ratings `r`; `None` when it is not positive
    /// definite.
    fn system(&self, r: &[f64]) -> Option<System> {
        let n = r.len();
        let hubs: Vec<usize> = (0..n).filter(|&i| self.hub[i]).collect();
        let mut slot = vec![usize::MAX; n];
        for (s, &i) in hubs.iter().enumerate() {
            slot[i] = s;
        }
        let mut gradient = vec![0.0; n];
        let mut diagonal = vec![0.0; n];
        let mut weight = Vec::with_capacity(self.meetings.len());
        let mut schur = vec![vec![0.0; hubs.len()]; hubs.len()];
        for m in &self.meetings {
            let p = sigmoid(K * (r[m.a] - r[m.b]));
            let q = sigmoid(K * (r[m.b] - r[m.a]));
            gradient[m.a] += K * (m.points[0] - m.games * p);
            gradient[m.b] += K * (m.points[1] - m.games * q);
            let w = K * K * m.games * p * q;
            weight.push(w);
            diagonal[m.a] += w;
            diagonal[m.b] += w;
            let (x, y) = (slot[m.a], slot[m.b]);
            if x != usize::MAX && y != usize::MAX {
                schur[x][y] -= w;
                schur[y][x] -= w;
            }
        }
        for (s, &i) in hubs.iter().enumerate() {
            schur[s][s] += diagonal[i];
        }
        for k in self.eliminated() {
            let d = diagonal[k];
            if !(d > 0.0 && d.is_finite()) {
                return None;
            }
            for &m1 in &self.of[k] {
                let x = slot[self.meetings[m1].other(k)];
                for &m2 in &self.of[k] {
                    let y = slot[self.meetings[m2].other(k)];
                    schur[x][y] -= weight[m1] * weight[m2] / d;
                }
            }
        }
        let factor = cholesky(&schur)?;
        Some(System {
            gradient,
            weight,
            diagonal,
            hubs,
            slot,
            factor,
        })
    }
}

impl System {
    /// `x` with `I x = b` over every engine but the fixed one, where `I`
    /// is the information matrix; `x` is 0 at the fixed engine, whose `b`
    /// is not read.
    fn solve(&self, played: &Played, b: &[f64]) -> Vec<f64> {
        let mut rhs: Vec<f64> = self.hubs.iter().map(|&i| b[i]).collect();
        for k in played.eliminated() {
            for &m in &played.of[k] {
                let s = self.slot[played.meetings[m].other(k)];
                rhs[s] += self.weight[m] * b[k] / self.diagonal[k];
            }
        }
        let y = cholesky_solve(&self.factor, &rhs);
        let mut x = vec![0.0; b.len()];
        for (s, &i) in self.hubs.iter().enumerate() {
            x[i] = y[s];
        }
        for k in played.eliminated() {
            let from_hubs: f64 = played.of[k]
                .iter()
                .map(|&m| self.weight[m] * y[self.slot[played.meetings[m].other(k)]])
                .sum();
            x[k] = (b[k] + from_hubs) / self.diagonal[k];
        }
        x
    }

    /// The diagonal of the inverse information (0 at the fixed engine).
    fn variances(&self, played: &Played) -> Vec<f64> {
        let inverse = cholesky_inverse(&self.factor);
        let mut own = vec![0.0; self.diagonal.len()];
        for (s, &i) in self.hubs.iter().enumerate() {
            own[i] = inverse[s][s];
        }
        for k in played.eliminated() {
            let d = self.diagonal[k];
            let mut through_hubs = 0.0;
            for &m1 in &played.of[k] {
                let x = self.slot[played.meetings[m1].other(k)];
                for &m2 in &played.of[k] {
                    let y = self.slot[played.meetings[m2].other(k)];
                    through_hubs += self.weight[m1] * self.weight[m2] * inverse[x][y];
                }
            }
            own[k] = 1.0 / d + through_hubs / (d * d);
        }
        own
    }
}

/// Engines that hold one of every meeting, chosen greedily: the engine
/// with the most meetings not yet held (the lowest index of equals), until
/// every meeting is held. A gauntlet's challengers, having met the most,
/// come first and hold them all. Some engine is always left out: the last
/// one chosen held a meeting with an engine not chosen then, nor after.
fn cover(meetings: &[Meeting], of: &[Vec<usize>]) -> Vec<bool> {
    let n = of.len();
    let mut open: Vec<usize> = of.iter().map(Vec::len).collect();
    let mut held = vec![false; meetings.len()];
    let mut hub = vec![false; n];
    loop {
        let best = (0..n).max_by_key(|&i| (open[i], std::cmp::Reverse(i)));
        let Some(best) = best.filter(|&i| open[i] > 0) else {
            return hub;
        };
        hub[best] = true;
        open[best] = 0;
        for &m in &of[best] {
            if !held[m] {
                held[m] = true;
                open[meetings[m].other(best)] -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::stats::bradley_terry::Matrices;
    use crate::stats::close;

    /// A gauntlet of `challengers` against `n` engines of spread strength,
    /// `games` games a meeting, results drawn from the model.
    fn gauntlet(n: usize, challengers: usize, games: usize, seed: u64) -> Crosstable {
        let mut t = Crosstable::new();
        for i in 0..n {
            t.engine(&format!("e{i}"));
        }
        let mut rng = SplitMix64::new(seed);
        let strength = |i: usize| (i as f64 * 37.0) % 300.0 - 150.0;
        for c in 0..challengers {
            for j in (0..n).filter(|&j| j != c && !(j < challengers && j < c)) {
                // One draw each: the maximum likelihood exists.
                t.add_game(c, j, 0.5);
                let p = 1.0 / (1.0 + 10f64.powf(-(strength(c) - strength(j)) / 400.0));
                for _ in 0..games {
                    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    let points = if u < p * 0.8 {
                        1.0
                    } else if u < p * 0.8 + 0.2 {
                        0.5
                    } else {
                        0.0
                    };
                    t.add_game(c, j, points);
                }
            }
        }
        t
    }

    #[test]
    fn a_gauntlet_s_hubs_are_its_challengers() {
        let t = gauntlet(30, 2, 4, 1);
        let p = Played::new(&t).unwrap();
        assert_eq!(p.hub.iter().filter(|&&h| h).count(), 2);
        assert!(p.hub[0] && p.hub[1]);
        assert_eq!(p.fixed, 29);
    }

    /// The ratings and variances by hubs are the dense form's, to rounding.
    #[test]
    fn the_hubs_give_the_dense_ratings_and_errors() {
        let t = gauntlet(40, 3, 6, 7);
        let n = t.len();
        let m = Matrices::new(&t);
        let dense = m.newton().unwrap();
        let cov = m.covariance(&dense).unwrap();
        let p = Played::new(&t).unwrap();
        let r = p.newton().unwrap();
        let (anchored, variances) = p.anchored(&r, None).unwrap();
        let mean = dense.iter().sum::<f64>() / n as f64;
        let total: f64 = cov.iter().flatten().sum();
        for i in 0..n {
            close(anchored[i], dense[i] - mean, 1e-6);
            let row: f64 = cov[i].iter().sum();
            let want = cov[i][i] - 2.0 * row / n as f64 + total / (n * n) as f64;
            close(variances[i], want, 1e-6 * want.abs().max(1.0));
        }
        let (on_five, variances) = p.anchored(&r, Some(5)).unwrap();
        assert_eq!((on_five[5], variances[5]), (0.0, 0.0));
        for i in 0..n {
            close(on_five[i], dense[i] - dense[5], 1e-6);
            let want = cov[i][i] + cov[5][5] - 2.0 * cov[i][5];
            close(variances[i], want, 1e-6 * want.abs().max(1.0));
        }
    }
}
