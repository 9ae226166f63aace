use super::*;
use crate::records::GameRecord;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("e{i}")).collect()
}

/// Both games of pair `pair` between engines `a` (black first) and `b`,
/// `a` scoring `points` of 2 and `discs` more discs in each game it wins
/// (0 in a draw).
fn pair(k: &mut Knockout, pair: u64, (a, b): (usize, usize), points: f64, discs: i32) {
    // `a` takes up to a point in the even game and the rest in the odd
    // one (where `b` is black and scores `odd`).
    let even = points.min(1.0);
    let odd = 1.0 - (points - even);
    let mut g = GameRecord::example(2 * pair, &format!("e{a}"), &format!("e{b}"), even);
    g.disc_diff = discs;
    k.played.absorb(&g);
    let mut g = GameRecord::example(2 * pair + 1, &format!("e{b}"), &format!("e{a}"), odd);
    g.disc_diff = 0;
    k.played.absorb(&g);
}

#[test]
fn seeds_are_placed_as_tournaments_place_them() {
    assert_eq!(bracket_order(2), [0, 1]);
    assert_eq!(bracket_order(4), [0, 3, 1, 2]);
    assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
}

#[test]
fn byes_go_to_the_top_seeds_and_winners_advance() {
    // Five engines in a bracket of eight: seeds 1 to 3 have byes, 4 meets 5.
    let mut k = Knockout::new((1, 0), None, &names(5));
    assert_eq!(k.reserved(), 7);
    let plays: Vec<Slot> = (0..4).map(|p| k.slot(p)).collect();
    assert_eq!(
        plays,
        [
            Slot::Skip,
            Slot::Play {
                first: 3,
                second: 4,
                round: 0
            },
            Slot::Skip,
            Slot::Skip
        ]
    );
    // The semifinal of seed 1 waits for 4 against 5; the other is known.
    assert_eq!(k.slot(4), Slot::Wait);
    assert_eq!(
        k.slot(5),
        Slot::Play {
            first: 1,
            second: 2,
            round: 1
        }
    );
    assert_eq!(k.slot(6), Slot::Wait);
    pair(&mut k, 1, (3, 4), 0.5, 0);
    assert_eq!(
        k.slot(4),
        Slot::Play {
            first: 0,
            second: 4,
            round: 1
        }
    );
    pair(&mut k, 4, (0, 4), 2.0, 10);
    pair(&mut k, 5, (1, 2), 0.0, 0);
    assert_eq!(
        k.slot(6),
        Slot::Play {
            first: 0,
            second: 2,
            round: 2
        }
    );
    pair(&mut k, 6, (0, 2), 1.5, 4);
    let b = k.bracket();
    let places: Vec<(&str, &str)> = b
        .places
        .iter()
        .map(|(e, p)| (e.as_str(), p.as_str()))
        .collect();
    assert_eq!(
        places,
        [
            ("e0", "1"),
            ("e2", "2"),
            ("e1", "3-4"),
            ("e4", "3-4"),
            ("e3", "5")
        ]
    );
    assert_eq!(b.matches[0].by.as_deref(), Some("bye"));
    assert_eq!(b.matches[6].winner.as_deref(), Some("e0"));
}

#[test]
fn a_tie_plays_extra_pairs_one_at_a_time_then_the_tie_breaks_decide() {
    // Two engines, 1 pair a match and up to 2 more while tied.
    let mut k = Knockout::new((1, 2), None, &names(2));
    assert_eq!(k.reserved(), 3);
    assert!(matches!(k.slot(0), Slot::Play { .. }));
    assert_eq!(k.slot(1), Slot::Wait);
    pair(&mut k, 0, (0, 1), 1.0, 0);
    assert!(matches!(k.slot(1), Slot::Play { .. }));
    assert_eq!(k.slot(2), Slot::Wait);
    pair(&mut k, 1, (0, 1), 0.5, 0);
    // Decided on points after the first extra pair: the second is not needed.
    assert_eq!(k.slot(2), Slot::Skip);
    assert_eq!(k.bracket().matches[0].winner.as_deref(), Some("e1"));
    assert_eq!(k.bracket().matches[0].by.as_deref(), Some("points"));

    // Tied on points: more pairs won (1.5 or 2) decides: e1 scores 3 of
    // 6 as e0 does, but wins one pair to e0's two.
    let mut k = Knockout::new((3, 0), None, &names(2));
    pair(&mut k, 0, (0, 1), 1.5, 0);
    pair(&mut k, 1, (0, 1), 1.5, 0);
    pair(&mut k, 2, (0, 1), 0.0, 0);
    let m = &k.bracket().matches[0];
    assert_eq!((m.points, m.winner.as_deref()), ([3.0, 3.0], Some("e0")));
    assert_eq!(m.by.as_deref(), Some("pairs won"));
    let mut k = Knockout::new((2, 1), None, &names(2));
    pair(&mut k, 0, (0, 1), 1.5, 0);
    pair(&mut k, 1, (0, 1), 0.5, 0);
    pair(&mut k, 2, (0, 1), 1.0, 0);
    let m = &k.bracket().matches[0];
    assert_eq!((m.points, m.pairs), ([3.0, 3.0], 3));
    assert_eq!(m.by.as_deref(), Some("seed"), "pairs won 1-1, discs 0");

    // Then the disc sum, then the higher seed.
    let mut k = Knockout::new((1, 0), None, &names(2));
    pair(&mut k, 0, (0, 1), 1.0, -6);
    assert_eq!(k.bracket().matches[0].winner.as_deref(), Some("e1"));
    assert_eq!(k.bracket().matches[0].by.as_deref(), Some("discs"));
}

#[test]
fn a_seed_list_orders_the_bracket() {
    let seeds = vec!["e2".to_string(), "e0".to_string()];
    let k = Knockout::new((1, 0), Some(&seeds), &names(4));
    // Seeds: e2, e0, e1, e3; seed 1 meets seed 4, seed 2 meets seed 3.
    assert_eq!(
        k.slot(0),
        Slot::Play {
            first: 2,
            second: 3,
            round: 0
        }
    );
    assert_eq!(
        k.slot(1),
        Slot::Play {
            first: 0,
            second: 1,
            round: 0
        }
    );
}
