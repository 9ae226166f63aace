//! Tests of the least-squares fits (`fit.rs`): the parity term, and a fit
//! of every pattern against one of the first ten.

use super::*;

/// Every position of `games` random games.
fn random_positions(seed: u64, games: usize) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::start();
        while !b.is_over() {
            out.push(b);
            moves.clear();
            b.generate_moves(&mut moves);
            b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
        }
    }
    out
}

#[test]
fn a_fit_of_every_pattern_weighs_the_fourth_lines_and_one_of_the_first_ten_cannot() {
    // Labels that only the fourth lines explain: a weight per
    // configuration of each instance of `row_4` (tied to its mirror
    // image, as fits tie them), summed.
    let row_4 = &SET[patterns::FIRST_PATTERNS];
    let mut rng = SplitMix64::new(3);
    let mut table = vec![0.0; row_4.size()];
    for i in 0..row_4.size() {
        let j = row_4.mirrored(i);
        if j >= i {
            table[i] = rng.below(401) as f64 - 200.0;
            table[j] = table[i];
        }
    }
    let label = |b: &Board| {
        let mut y = 0.0;
        patterns::for_each_index(b.player, b.opponent, |k, _, i| {
            if k == patterns::FIRST_PATTERNS {
                y += table[i];
            }
        });
        y
    };
    let samples: Vec<Sample> = random_positions(9, 40)
        .into_iter()
        .map(|b| (b, label(&b)))
        .collect();
    let refs: Vec<&Sample> = samples.iter().collect();
    let fit = |patterns: usize| {
        let canon = canonical_entries(patterns);
        let (w, _) = fit_stage(&refs, &canon, 1.0, 300, false);
        assert_eq!(w.tables.len(), patterns::stage_size(patterns));
        let e = Patterns::new(vec![0], vec![w.clone()]);
        (w, rmse(&e, &refs))
    };
    let (all, all_error) = fit(patterns::PATTERNS);
    let (_, first_error) = fit(patterns::FIRST_PATTERNS);
    let row_4_weights = &all.tables[patterns::offset(patterns::FIRST_PATTERNS)..];
    assert!(row_4_weights.iter().filter(|&&w| w != 0).count() > 100);
    assert!(
        all_error < 0.5 * first_error,
        "{all_error} against {first_error}"
    );
}

#[test]
fn the_fit_finds_a_parity_term_when_asked_and_leaves_it_at_0_otherwise() {
    // Labels that only the bias and the parity term can explain; a
    // heavy ridge keeps the tables out of it.
    let samples: Vec<Sample> = random_positions(7, 30)
        .into_iter()
        .map(|b| (b, 50.0 + 300.0 * patterns::parity(&b)))
        .collect();
    let refs: Vec<&Sample> = samples.iter().collect();
    let canon = canonical_entries(patterns::FIRST_PATTERNS);
    let (with, _) = fit_stage(&refs, &canon, 1e6, 200, true);
    assert!((with.parity - 300.0).abs() < 1.0, "{}", with.parity);
    assert!((with.bias - 50.0).abs() < 1.0, "{}", with.bias);
    assert!(with.mobility.abs() < 0.1, "{}", with.mobility);
    let (without, _) = fit_stage(&refs, &canon, 1e6, 200, false);
    assert_eq!(without.parity, 0.0);
    // Without the term, the labels' two values cannot both be met.
    let err = |w: &StageWeights| {
        let e = Patterns::new(vec![0], vec![w.clone()]);
        rmse(&e, &refs)
    };
    assert!(err(&with) < 0.05, "{}", err(&with));
    assert!(err(&without) > 1.0, "{}", err(&without));
}
