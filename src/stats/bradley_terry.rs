//! The Bradley-Terry likelihood behind [`ratings`](super::ratings::ratings):
//! games and points between engines as matrices, the log-likelihood of
//! ratings on the logistic Elo scale with its gradient and Fisher
//! information, the maximum found by Newton's method with step halving (the
//! likelihood is concave), and the covariance of that maximum. The last
//! engine is fixed at 0 throughout, since the likelihood only sees
//! differences; anchoring is the caller's.
//!
//! Dense: `n x n` matrices and `n^3` work a step, for the few engines whose
//! ratings come with a likelihood-of-superiority matrix; many engines are
//! rated by `hubs`, from the pairs that met.

use super::crosstable::Crosstable;
use super::linalg::{cholesky, cholesky_inverse, cholesky_solve};

/// ln(10) / 400: the logistic slope per Elo.
pub(super) const K: f64 = std::f64::consts::LN_10 / 400.0;

/// `ln(1 / (1 + e^-x))` without overflow.
pub(super) fn ln_sigmoid(x: f64) -> f64 {
    if x > 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// `1 / (1 + e^-x)` without overflow.
pub(super) fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Games and points as plain matrices, the form the solver works on.
pub(super) struct Matrices {
    games: Vec<Vec<f64>>,
    points: Vec<Vec<f64>>,
}

impl Matrices {
    /// The games and points between the engines of `table`.
    pub(super) fn new(table: &Crosstable) -> Matrices {
        let n = table.len();
        Matrices {
            games: (0..n)
                .map(|i| (0..n).map(|j| table.games_between(i, j)).collect())
                .collect(),
            points: (0..n)
                .map(|i| (0..n).map(|j| table.points_against(i, j)).collect())
                .collect(),
        }
    }

    /// Adds `draws` virtual draws between every two engines that met.
    pub(super) fn add_virtual_draws(&mut self, draws: f64) {
        let n = self.games.len();
        for i in 0..n {
            for j in 0..n {
                if i != j && self.games[i][j] > 0.0 {
                    self.games[i][j] += draws;
                    self.points[i][j] += draws / 2.0;
                }
            }
        }
    }

    fn log_likelihood(&self, r: &[f64]) -> f64 {
        let n = r.len();
        let mut sum = 0.0;
        for i in 0..n {
            for j in 0..n {
                if i != j && self.points[i][j] > 0.0 {
                    sum += self.points[i][j] * ln_sigmoid(K * (r[i] - r[j]));
                }
            }
        }
        sum
    }

    /// Gradient and Fisher information (minus the Hessian) in Elo units.
    fn gradient_information(&self, r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let n = r.len();
        let mut gradient = vec![0.0; n];
        let mut info = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in 0..n {
                if i == j || self.games[i][j] == 0.0 {
                    continue;
                }
                let p = sigmoid(K * (r[i] - r[j]));
                gradient[i] += K * (self.points[i][j] - self.games[i][j] * p);
                let w = K * K * self.games[i][j] * p * (1.0 - p);
                info[i][i] += w;
                info[i][j] -= w;
            }
        }
        (gradient, info)
    }

    /// The maximum-likelihood ratings with the last engine fixed at 0, or
    /// `None` if Newton's method fails (should not happen when the maximum
    /// exists).
    pub(super) fn newton(&self) -> Option<Vec<f64>> {
        let n = self.games.len();
        let free = n - 1;
        let mut r = vec![0.0; n];
        let mut converged = free == 0;
        for _ in 0..200 {
            if converged {
                break;
            }
            let (gradient, info) = self.gradient_information(&r);
            let l = reduced_cholesky(&info, free)?;
            let delta = cholesky_solve(&l, &gradient[..free]);
            let current = self.log_likelihood(&r);
            let mut t = 1.0;
            loop {
                let trial: Vec<f64> = (0..n)
                    .map(|i| if i < free { r[i] + t * delta[i] } else { 0.0 })
                    .collect();
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

    /// The covariance of the ratings `r` with the last engine fixed at 0
    /// (its row and column are 0), from the inverse information; `None` if
    /// the information is not positive definite.
    pub(super) fn covariance(&self, r: &[f64]) -> Option<Vec<Vec<f64>>> {
        let n = r.len();
        let free = n - 1;
        let mut cov = vec![vec![0.0; n]; n];
        if free > 0 {
            let (_, info) = self.gradient_information(r);
            let inverse = cholesky_inverse(&reduced_cholesky(&info, free)?);
            for i in 0..free {
                cov[i][..free].copy_from_slice(&inverse[i]);
            }
        }
        Some(cov)
    }
}

/// The Cholesky factor of the information matrix `info` restricted to the
/// first `free` engines (the last one is fixed at 0).
fn reduced_cholesky(info: &[Vec<f64>], free: usize) -> Option<Vec<Vec<f64>>> {
    let reduced: Vec<Vec<f64>> = info[..free]
        .iter()
        .map(|row| row[..free].to_vec())
        .collect();
    cholesky(&reduced)
}
