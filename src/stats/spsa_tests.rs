//! SPSA: gains against a hand computation, flips, sides, steps and the
//! settings' checks.

use super::*;

/// The parameter and schedule of the example line.
fn example(delay: u64) -> Spsa {
    Spsa {
        params: vec![Param {
            name: "aspiration".into(),
            start: 50.0,
            min: 5.0,
            max: 300.0,
            c_end: 10.0,
            r_end: 0.002,
            integer: true,
        }],
        schedule: Schedule {
            iterations: 5000,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            delay,
        },
        seed: 1,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

/// Three iterations computed by hand (a calculator's logarithms):
/// A = 500, c = 10·5000^0.101 = 23.637197, a = 0.2·5500^0.602 =
/// 35.704942; c_k = c/(k+1)^0.101, a_k = a/(501+k)^0.602; with flips
/// +1, −1, +1 and results +2, −1, 0 from θ = 50.
#[test]
fn three_steps_as_computed_by_hand() {
    let spsa = example(0);
    let want = [
        (23.637196764553636, 0.846108433323176, 50.071591267082226),
        (22.03900284051823, 0.8450933747951853, 50.1099366214937),
        (21.15469283162108, 0.8440815503982284, 50.1099366214937),
    ];
    let (flips, results) = ([1.0, -1.0, 1.0], [2i64, -1, 0]);
    let mut theta = 50.0;
    for (k, &(c, a, after)) in want.iter().enumerate() {
        let g = spsa.gains(0, k as u64);
        assert!(close(g.c, c) && close(g.a, a), "iteration {k}: {g:?}");
        theta = spsa.params[0].clamp(theta + g.a * results[k] as f64 / (g.c * flips[k]));
        assert!(close(theta, after), "iteration {k}: {theta}");
    }
    // The same through `step`, with the seed's own flips.
    let mut theta = spsa.start();
    for k in 0..3 {
        let f = spsa.flips(k)[0];
        let g = spsa.gains(0, k);
        let by_hand = theta[0] + g.a * results[k as usize] as f64 / (g.c * f);
        theta = spsa.step(k, &theta, results[k as usize]);
        assert!(close(theta[0], by_hand));
    }
}

#[test]
fn sides_are_clamped_and_rounded_for_integer_fields() {
    let spsa = example(0);
    let (plus, minus) = spsa.sides(0, &[290.0]);
    let f = spsa.flips(0)[0];
    let (hi, lo) = if f > 0.0 {
        (plus, minus)
    } else {
        (minus, plus)
    };
    assert_eq!(hi, vec![300.0]);
    assert_eq!(lo, vec![(290.0f64 - 23.637196764553636).round()]);
}

#[test]
fn flips_depend_on_seed_and_iteration_only() {
    let mut spsa = example(0);
    spsa.params.push(Param {
        name: "b".into(),
        ..spsa.params[0].clone()
    });
    let all: Vec<Vec<f64>> = (0..64).map(|k| spsa.flips(k)).collect();
    assert_eq!(all, (0..64).map(|k| spsa.flips(k)).collect::<Vec<_>>());
    let ones = all.iter().flatten().filter(|&&f| f > 0.0).count();
    assert!((40..=88).contains(&ones), "{ones} of 128 flips are +1");
    spsa.seed = 2;
    assert_ne!(all, (0..64).map(|k| spsa.flips(k)).collect::<Vec<_>>());
}

#[test]
fn bad_settings_name_their_field() {
    let field = |f: &dyn Fn(&mut Spsa)| {
        let mut s = example(0);
        f(&mut s);
        s.check().err().map(|e| e.field)
    };
    assert_eq!(field(&|_| {}), None);
    assert_eq!(field(&|s| s.schedule.iterations = 0), Some("iterations"));
    assert_eq!(field(&|s| s.schedule.delay = 5000), Some("delay"));
    assert_eq!(field(&|s| s.params[0].min = 300.0), Some("min"));
    assert_eq!(field(&|s| s.params[0].start = 4.0), Some("start"));
    assert_eq!(field(&|s| s.params[0].min = 5.4), Some("min"));
    assert_eq!(field(&|s| s.params[0].c_end = 0.0), Some("c_end"));
    assert_eq!(field(&|s| s.params[0].r_end = -1.0), Some("r_end"));
    // Gains that overflow are blamed on the setting that overflows them.
    assert_eq!(field(&|s| s.schedule.a_ratio = 1e308), Some("a_ratio"));
    assert_eq!(field(&|s| s.schedule.alpha = 1e300), Some("alpha"));
    assert_eq!(field(&|s| s.schedule.gamma = 1e300), Some("gamma"));
    assert_eq!(field(&|s| s.params[0].r_end = 1e308), Some("r_end"));
    assert_eq!(field(&|s| s.params[0].c_end = 1e200), Some("c_end"));
    let twice = |s: &mut Spsa| s.params.push(s.params[0].clone());
    assert_eq!(field(&twice), Some("field"));
}

/// An integer parameter whose c_end is below 0.5 (c_k under 0.5 for
/// most of the tune).
fn small_c(c_end: f64) -> Spsa {
    let mut spsa = example(0);
    spsa.schedule.iterations = 200;
    spsa.params[0].c_end = c_end;
    spsa.params[0].min = 0.0;
    spsa.params[0].max = 10.0;
    spsa.params[0].start = 4.0;
    spsa
}

#[test]
fn an_integer_perturbation_below_a_half_is_raised_to_a_half() {
    let spsa = small_c(0.3);
    assert!(spsa.gains(0, 199).c < 0.5);
    assert_eq!(spsa.perturbation(0, 199), 0.5);
    // Early iterations above the floor keep their c_k.
    let c0 = spsa.gains(0, 0).c;
    assert!(c0 > 0.5, "{c0}");
    assert_eq!(spsa.perturbation(0, 0), c0);
    // A real parameter keeps c_k however small.
    let mut real = small_c(0.3);
    real.params[0].integer = false;
    assert_eq!(real.perturbation(0, 199), real.gains(0, 199).c);
    // At θ = 4 the sides are 4.5 and 3.5 before rounding: 5 and 4.
    let (plus, minus) = spsa.sides(199, &[4.0]);
    let mut both = [plus[0], minus[0]];
    both.sort_by(f64::total_cmp);
    assert_eq!(both, [4.0, 5.0]);
}

#[test]
fn integer_sides_at_a_bound_still_differ() {
    let spsa = small_c(0.3);
    for (theta, want) in [(10.0, [9.0, 10.0]), (0.0, [0.0, 1.0]), (9.8, [9.0, 10.0])] {
        let (plus, minus) = spsa.sides(199, &[theta]);
        let mut both = [plus[0], minus[0]];
        both.sort_by(f64::total_cmp);
        assert_eq!(both, want, "theta {theta}");
    }
    // The side pushed up is the greater (or equal, clamped) one.
    for k in 0..50 {
        let (plus, minus) = spsa.sides(k, &[10.0]);
        let up = spsa.flips(k)[0] > 0.0;
        assert_eq!(plus[0] > minus[0], up, "iteration {k}");
    }
}

proptest::proptest! {
    /// Whatever θ, bounds, c_end and iteration, an integer parameter's
    /// two sides are different integers within its bounds, the one
    /// pushed up above the other.
    #[test]
    fn integer_sides_always_differ(
        min in -50i64..50,
        width in 1i64..40,
        at in 0.0f64..=1.0,
        c_end in 0.001f64..3.0,
        k in 0u64..1000,
        seed in 0u64..1000,
    ) {
        let mut spsa = small_c(c_end);
        spsa.schedule.iterations = 1000;
        spsa.seed = seed;
        let p = &mut spsa.params[0];
        p.min = min as f64;
        p.max = (min + width) as f64;
        p.start = p.min;
        let theta = p.min + at * width as f64;
        let (plus, minus) = spsa.sides(k, &[theta]);
        let (plus, minus) = (plus[0], minus[0]);
        let p = &spsa.params[0];
        proptest::prop_assert!(plus != minus, "θ {theta}: both {plus}");
        for x in [plus, minus] {
            proptest::prop_assert!(x == x.round() && x >= p.min && x <= p.max);
        }
        proptest::prop_assert_eq!(plus > minus, spsa.flips(k)[0] > 0.0);
    }

    /// Whatever the results, θ and both sides stay within the bounds
    /// (θ before an iteration is the fold of the results it may see:
    /// `records::tune`'s tests check the replay against it).
    #[test]
    fn theta_stays_in_bounds(results in proptest::collection::vec(-2i64..=2, 0..40), delay in 0u64..5) {
        let spsa = example(delay);
        let p = &spsa.params[0];
        // θ after 0, 1, 2… iterations.
        let mut after = vec![spsa.start()];
        for (k, &r) in results.iter().enumerate() {
            let theta = after[k.saturating_sub(delay as usize)].clone();
            proptest::prop_assert!(theta[0] >= p.min && theta[0] <= p.max);
            let (plus, minus) = spsa.sides(k as u64, &theta);
            for x in [plus[0], minus[0]] {
                proptest::prop_assert!(x >= p.min && x <= p.max && x == x.round());
            }
            after.push(spsa.step(k as u64, &after[k], r));
        }
    }
}
