//! The little linear algebra the ratings need: Cholesky factorization of a
//! small symmetric positive-definite matrix, solving with it and inverting
//! it. Matrices are dense, row-major `Vec<Vec<f64>>`.

/// The lower-triangular Cholesky factor `L` of `a = L Lᵀ`, or `None` if `a`
/// is not (numerically) positive definite.
pub(crate) fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - dot;
                if d.is_nan() || d <= 0.0 {
                    return None;
                }
                l[i][i] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - dot) / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` given the Cholesky factor `l`.
pub(crate) fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let dot: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - dot) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let dot: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - dot) / l[i][i];
    }
    x
}

/// The inverse of `L Lᵀ` given the Cholesky factor `l`.
pub(crate) fn cholesky_inverse(l: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = l.len();
    let mut inverse = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let column = cholesky_solve(l, &e);
        for (i, v) in column.into_iter().enumerate() {
            inverse[i][j] = v;
        }
    }
    inverse
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts() {
        let a = vec![
            vec![4.0, 2.0, 0.6],
            vec![2.0, 5.0, 1.0],
            vec![0.6, 1.0, 3.0],
        ];
        let l = cholesky(&a).unwrap();
        let x = cholesky_solve(&l, &[1.0, 2.0, 3.0]);
        for (i, row) in a.iter().enumerate() {
            let ax: f64 = row.iter().zip(&x).map(|(p, q)| p * q).sum();
            assert!((ax - [1.0, 2.0, 3.0][i]).abs() < 1e-12);
        }
        let inv = cholesky_inverse(&l);
        for (i, row) in a.iter().enumerate() {
            for j in 0..3 {
                let v: f64 = row
                    .iter()
                    .zip(&inv)
                    .map(|(x, inv_row)| x * inv_row[j])
                    .sum();
                assert!((v - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn rejects_a_singular_matrix() {
        assert!(cholesky(&[vec![1.0, 1.0], vec![1.0, 1.0]]).is_none());
    }
}
