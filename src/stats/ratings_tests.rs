//! Ratings: the dense and the hub solvers against each other and against
//! hand-made tables, reasons a table cannot be rated, the memory bound.

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

/// The maximum likelihood's reason as the first version found it: the
/// transitive closure of "scored against", `n^3`.
fn closure_reason(table: &Crosstable) -> Option<String> {
    let n = table.len();
    let reach: Vec<Vec<bool>> = (0..n)
        .map(|i| {
            let mut seen = vec![false; n];
            seen[i] = true;
            let mut stack = vec![i];
            while let Some(a) = stack.pop() {
                for (b, seen_b) in seen.iter_mut().enumerate() {
                    if !*seen_b && table.points_against(a, b) > 0.0 {
                        *seen_b = true;
                        stack.push(b);
                    }
                }
            }
            seen
        })
        .collect();
    if reach.iter().all(|row| row.iter().all(|&b| b)) {
        return None;
    }
    let component =
        |i: usize| -> Vec<usize> { (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect() };
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

/// Random tables of few engines and few decisive games.
fn random_table(rng: &mut crate::rng::SplitMix64) -> Crosstable {
    let mut t = Crosstable::new();
    let n = 2 + rng.below(6) as usize;
    for i in 0..n {
        t.engine(&format!("e{i}"));
    }
    for _ in 0..rng.below(12) {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a != b {
            t.add_game(a, b, [0.0, 0.5, 1.0, 1.0, 0.0][rng.below(5) as usize]);
        }
    }
    t
}

#[test]
fn the_groups_give_the_reason_the_closure_gave() {
    let mut rng = crate::rng::SplitMix64::new(11);
    for _ in 0..2000 {
        let t = random_table(&mut rng);
        assert_eq!(no_mle_reason(&t), closure_reason(&t), "{t:?}");
    }
}

/// A gauntlet of 3 challengers among 60 engines, one draw and a few
/// games of each meeting.
fn gauntlet() -> Crosstable {
    let mut rng = crate::rng::SplitMix64::new(5);
    let mut t = Crosstable::new();
    for i in 0..60 {
        t.engine(&format!("e{i:02}"));
    }
    for c in 0..3 {
        for j in (c + 1)..60 {
            t.add_game(c, j, 0.5);
            for _ in 0..4 {
                t.add_game(c, j, [0.0, 0.5, 1.0][rng.below(3) as usize]);
            }
        }
    }
    t
}

/// The ratings by name (engines of equal ratings may come in either
/// order, by rounding).
fn by_name(mut r: Vec<EngineRating>) -> Vec<EngineRating> {
    r.sort_by(|a, b| a.name.cmp(&b.name));
    r
}

#[test]
fn many_engines_are_rated_as_the_dense_form_rates_them() {
    let t = gauntlet();
    for anchor in [None, Some(7)] {
        let (want, los) = dense(&t, None, anchor).unwrap();
        let (got, none) = by_hubs(&t, None, anchor).unwrap();
        assert_eq!((los.len(), none.len()), (60, 0));
        for (d, s) in by_name(want).iter().zip(&by_name(got)) {
            assert_eq!((&d.name, d.games, d.points), (&s.name, s.games, s.points));
            close(s.elo, d.elo, 1e-6);
            close(s.std_error, d.std_error, 1e-6);
        }
    }
    // With the prior too.
    let (want, _) = dense(&t, Some(PRIOR_VIRTUAL_DRAWS), None).unwrap();
    let (got, _) = by_hubs(&t, Some(PRIOR_VIRTUAL_DRAWS), None).unwrap();
    for (d, s) in by_name(want).iter().zip(&by_name(got)) {
        close(s.elo, d.elo, 1e-6);
    }
}

#[test]
fn beyond_the_los_limit_there_is_no_los_matrix() {
    let mut t = Crosstable::new();
    let n = LOS_MAX_ENGINES + 1;
    for i in 0..n {
        t.engine(&format!("e{i}"));
    }
    for j in 1..n {
        t.add_game(0, j, 0.5);
        t.add_game(j, 0, if j % 2 == 0 { 1.0 } else { 0.0 });
    }
    let r = ratings(&t, &Anchor::Average).unwrap();
    assert!(r.los.is_empty());
    assert_eq!(r.engines.len(), n);
    assert_eq!(r.games, 2 * (n as u64 - 1));
    close(r.engines.iter().map(|e| e.elo).sum::<f64>(), 0.0, 1e-6);
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
