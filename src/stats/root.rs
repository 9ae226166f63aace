//! A bracketed root finder (Brent's method: inverse quadratic interpolation
//! and secant steps, falling back to bisection), and the secular equation
//! `sum_i p_i a_i / (1 + x a_i) = 0` that every maximum-likelihood
//! distribution of the SPRT reduces to.
//!
//! The secular function decreases from `+inf` to `-inf` across its open
//! interval, so it has one root there. It is found by Newton's method from
//! a guess (the fixed-point iteration of the SPRT's t-value solves one
//! equation after another whose roots move little: the last root is a
//! good guess), each step kept inside the bracket that the signs seen so
//! far leave (bisecting it when a step would leave it): about three
//! evaluations where Brent's method from a bracket took eight, which is
//! most of an LLR's cost, and an SPRT run computes one after every pair.
//! Should Newton's method not settle (it always has in the tests), the
//! root is searched for by Brent's method after a bracket strictly inside
//! the interval has been found.

/// Finds a root of `f` in `[a, b]`, given `f(a)` and `f(b)` of opposite
/// signs (or one of them zero). Returns `None` if they have the same sign or
/// `f` returns a non-finite value.
///
/// The result is within `tol` (plus a few ulps) of a sign change of `f`.
pub(crate) fn brent(
    f: impl Fn(f64) -> f64,
    a: f64,
    b: f64,
    fa: f64,
    fb: f64,
    tol: f64,
) -> Option<f64> {
    if !fa.is_finite() || !fb.is_finite() {
        return None;
    }
    if fa == 0.0 {
        return Some(a);
    }
    if fb == 0.0 {
        return Some(b);
    }
    if fa.signum() == fb.signum() {
        return None;
    }
    let mut s = Brent {
        a,
        fa,
        b,
        fb,
        c: a,
        fc: fa,
        d: b - a,
        e: b - a,
    };
    for _ in 0..200 {
        s.keep_bracket();
        let tol1 = 2.0 * f64::EPSILON * s.b.abs() + 0.5 * tol;
        let half = 0.5 * (s.c - s.b);
        if half.abs() <= tol1 || s.fb == 0.0 {
            return Some(s.b);
        }
        s.choose_step(tol1, half);
        s.a = s.b;
        s.fa = s.fb;
        s.b += if s.d.abs() > tol1 {
            s.d
        } else {
            tol1.copysign(half)
        };
        s.fb = f(s.b);
        if !s.fb.is_finite() {
            return None;
        }
    }
    Some(s.b)
}

/// The state of Brent's method: `b` is the best estimate so far, `a` the
/// previous one, `c` the point that keeps the root bracketed between `b`
/// and `c`, with the function's values there; `d` is the last step and
/// `e` the one before.
struct Brent {
    a: f64,
    fa: f64,
    b: f64,
    fb: f64,
    c: f64,
    fc: f64,
    d: f64,
    e: f64,
}

impl Brent {
    /// Makes `c` bracket the root with `b` again (after `b` moved to the
    /// side of the sign change where `c` was), and makes `b` the end where
    /// the function is smaller.
    fn keep_bracket(&mut self) {
        if self.fb.signum() == self.fc.signum() {
            self.c = self.a;
            self.fc = self.fa;
            self.d = self.b - self.a;
            self.e = self.d;
        }
        if self.fc.abs() < self.fb.abs() {
            self.a = self.b;
            self.b = self.c;
            self.c = self.a;
            self.fa = self.fb;
            self.fb = self.fc;
            self.fc = self.fa;
        }
    }

    /// Sets the step `d` (and `e`, the step before): the interpolation when
    /// it falls well inside the bracket and shrinks fast enough, bisection
    /// (`half`, half the bracket) otherwise.
    fn choose_step(&mut self, tol1: f64, half: f64) {
        if self.e.abs() >= tol1 && self.fa.abs() > self.fb.abs() {
            let (p, q) = self.interpolation(half);
            let limit1 = 3.0 * half * q - (tol1 * q).abs();
            let limit2 = (self.e * q).abs();
            if 2.0 * p < limit1.min(limit2) {
                // Accept the interpolation.
                self.e = self.d;
                self.d = p / q;
                return;
            }
        }
        self.d = half;
        self.e = self.d;
    }

    /// The interpolated step as `p / q` with `p >= 0`: secant if there are
    /// only two distinct points, inverse quadratic otherwise.
    fn interpolation(&self, half: f64) -> (f64, f64) {
        let (a, b, fa, fb, fc) = (self.a, self.b, self.fa, self.fb, self.fc);
        let s = fb / fa;
        let (p, q) = if a == self.c {
            (2.0 * half * s, 1.0 - s)
        } else {
            let q = fa / fc;
            let r = fb / fc;
            (
                s * (2.0 * half * q * (q - r) - (b - a) * (r - 1.0)),
                (q - 1.0) * (r - 1.0) * (s - 1.0),
            )
        };
        (p.abs(), if p > 0.0 { -q } else { q })
    }
}

/// Solves the secular equation `sum_i p_i a_i / (1 + x a_i) = 0` for `x` in
/// the open interval `(-1 / max a, -1 / min a)`, where the left side
/// decreases from `+inf` to `-inf`, starting from `guess` (any value:
/// one outside the interval starts from 0). The weights `p` must be
/// positive.
///
/// Returns `None` unless some `a_i` is negative and some positive (then
/// there is no root), or if no finite bracket can be found.
pub(crate) fn secular(a: &[f64], p: &[f64], guess: f64) -> Option<f64> {
    let min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let lo = -1.0 / max;
    let hi = -1.0 / min;
    let tol = 1e-15 * (hi - lo).max(1.0);
    newton(a, p, (lo, hi), guess, tol).or_else(|| bracketed(a, p, (lo, hi), tol))
}

/// Most Newton steps [`secular`] takes before it turns to Brent's method.
const NEWTON_STEPS: usize = 60;

/// Newton's method for the secular equation inside `(lo, hi)`; `None` if
/// it has not settled within [`NEWTON_STEPS`] or met a non-finite value.
fn newton(a: &[f64], p: &[f64], (mut lo, mut hi): (f64, f64), guess: f64, tol: f64) -> Option<f64> {
    // The left side, its slope and the size of its terms at x.
    let at = |x: f64| {
        let (mut f, mut slope, mut size) = (0.0, 0.0, 0.0);
        for (&ai, &pi) in a.iter().zip(p) {
            let d = 1.0 / (1.0 + x * ai);
            let term = pi * ai * d;
            f += term;
            size += term.abs();
            slope -= term * ai * d;
        }
        (f, slope, size)
    };
    let mut x = if guess > lo && guess < hi { guess } else { 0.0 };
    for _ in 0..NEWTON_STEPS {
        let (f, slope, size) = at(x);
        if !f.is_finite() || !slope.is_finite() {
            return None;
        }
        if f == 0.0 {
            return Some(x);
        }
        // The root is past x on the side where f changes sign.
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let mut next = x - f / slope;
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        if (next - x).abs() <= tol {
            // A step this small is the root's distance where the terms
            // cancel; by a pole, where one term is all of f, it is the
            // pole's, and the root is taken only where the sign changes
            // within one more such step (the bracket's ends have known
            // signs).
            if f.abs() <= 1e-3 * size {
                return Some(next);
            }
            let beyond = next + (next - x);
            let sign = if beyond >= hi {
                -1.0
            } else if beyond <= lo {
                1.0
            } else {
                at(beyond).0
            };
            if sign == 0.0 || sign.signum() != f.signum() {
                return Some(next);
            }
            next = 0.5 * (lo + hi);
        }
        x = next;
    }
    None
}

/// Brent's method for the secular equation, once a bracket strictly inside
/// `(lo, hi)` is found.
fn bracketed(a: &[f64], p: &[f64], (lo, hi): (f64, f64), tol: f64) -> Option<f64> {
    let f = |x: f64| -> f64 {
        a.iter()
            .zip(p)
            .map(|(&ai, &pi)| pi * ai / (1.0 + x * ai))
            .sum()
    };
    let width = hi - lo;
    // Walk towards each end until the function has the sign it takes there.
    let mut left = None;
    let mut right = None;
    let mut delta = 0.25;
    for _ in 0..60 {
        if left.is_none() {
            let x = lo + delta * width;
            let fx = f(x);
            if fx.is_finite() && fx >= 0.0 {
                left = Some((x, fx));
            }
        }
        if right.is_none() {
            let x = hi - delta * width;
            let fx = f(x);
            if fx.is_finite() && fx <= 0.0 {
                right = Some((x, fx));
            }
        }
        if left.is_some() && right.is_some() {
            break;
        }
        delta *= 0.125;
    }
    let ((xa, fa), (xb, fb)) = (left?, right?);
    brent(f, xa, xb, fa, fb, tol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brent_finds_square_root_of_two() {
        let f = |x: f64| x * x - 2.0;
        let root = brent(f, 0.0, 2.0, f(0.0), f(2.0), 1e-14).unwrap();
        assert!((root - 2f64.sqrt()).abs() < 1e-13);
    }

    #[test]
    fn brent_rejects_a_non_bracket() {
        let f = |x: f64| x * x + 1.0;
        assert_eq!(brent(f, -1.0, 1.0, f(-1.0), f(1.0), 1e-12), None);
    }

    #[test]
    fn brent_handles_a_steep_pole_like_function() {
        // Root at x = 0.999, the function explodes near 1.
        let f = |x: f64| 1.0 / (1.0 - x) - 1000.0;
        let root = brent(f, 0.0, 1.0 - 1e-9, f(0.0), f(1.0 - 1e-9), 1e-15).unwrap();
        assert!((root - 0.999).abs() < 1e-12);
    }

    /// The left side of the secular equation at `x`, written out here
    /// apart from the solver's own.
    fn secular_lhs(a: &[f64], p: &[f64], x: f64) -> f64 {
        a.iter()
            .zip(p)
            .map(|(ai, pi)| pi * ai / (1.0 + x * ai))
            .sum()
    }

    #[test]
    fn secular_solution_satisfies_the_equation() {
        let a = [-0.55, -0.05, 0.45];
        let p = [0.3, 0.4, 0.3];
        let x = secular(&a, &p, 0.0).unwrap();
        let lhs = secular_lhs(&a, &p, x);
        assert!(lhs.abs() < 1e-12, "{lhs}");
        assert!(x > -1.0 / 0.45 && x < 1.0 / 0.55);
    }

    #[test]
    fn secular_with_a_tiny_weight_near_the_pole() {
        // A regularized empty category (weight ~1e-9) sits next to the pole.
        let a = [-0.5, 0.0, 0.5];
        let p = [1e-9, 0.5, 0.5 - 1e-9];
        let x = secular(&a, &p, 0.0).unwrap();
        let lhs = secular_lhs(&a, &p, x);
        // Near the pole `1 + x a_i` loses digits to cancellation.
        assert!(lhs.abs() < 1e-6, "{lhs}");
    }

    #[test]
    fn secular_without_a_sign_change_has_no_root() {
        assert_eq!(secular(&[0.1, 0.2], &[0.5, 0.5], 0.0), None);
        assert_eq!(secular(&[-0.1, 0.0], &[0.5, 0.5], 0.0), None);
    }

    /// Newton's method from any guess and Brent's method from a bracket
    /// find the same root.
    #[test]
    fn newton_and_brent_agree() {
        let cases: [(&[f64], &[f64]); 3] = [
            (&[-0.55, -0.05, 0.45], &[0.3, 0.4, 0.3]),
            (&[-0.5, 0.0, 0.5], &[1e-9, 0.5, 0.5 - 1e-9]),
            (
                &[-0.5, -0.25, 0.01, 0.25, 0.5],
                &[0.05, 0.2, 0.5, 0.2, 0.05],
            ),
        ];
        for (a, p) in cases {
            let min = a.iter().copied().fold(f64::INFINITY, f64::min);
            let max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (lo, hi) = (-1.0 / max, -1.0 / min);
            let tol = 1e-15 * (hi - lo).max(1.0);
            let by_brent = bracketed(a, p, (lo, hi), tol).unwrap();
            let by_poles = [lo + tol * 0.25, hi - tol * 0.25, lo + 1e-300, hi - 1e-300];
            for guess in [0.0, lo, hi, 0.5 * (lo + hi), lo + 1e-9, hi - 1e-9, 1e9]
                .into_iter()
                .chain(by_poles)
            {
                let x = secular(a, p, guess).unwrap();
                assert!(
                    (x - by_brent).abs() < 1e-12 * by_brent.abs().max(1.0),
                    "{x} {by_brent}"
                );
            }
        }
    }
}
