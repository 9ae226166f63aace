use super::*;
use crate::records::GameRecord;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("e{i}")).collect()
}

/// Both games of pair `pair` of `a` (black first) and `b`, `a` scoring
/// `points` of 2.
fn pair(s: &mut Swiss, pair: u64, (a, b): (usize, usize), points: f64) {
    // `a` takes up to a point in the even game and the rest in the odd
    // one (where `b` is black and scores `odd`).
    let even = points.min(1.0);
    let odd = 1.0 - (points - even);
    s.played.absorb(&GameRecord::example(
        2 * pair,
        &format!("e{a}"),
        &format!("e{b}"),
        even,
    ));
    s.played.absorb(&GameRecord::example(
        2 * pair + 1,
        &format!("e{b}"),
        &format!("e{a}"),
        odd,
    ));
}

/// Plays every pair of `s` in order, the result of each from `result`
/// (given the pair's engines); returns the pairings played, by round.
fn play_out(
    s: &mut Swiss,
    result: &mut dyn FnMut(usize, usize) -> f64,
) -> Vec<Vec<(usize, usize)>> {
    let mut rounds: Vec<Vec<(usize, usize)>> = Vec::new();
    for p in 0..s.reserved() {
        match s.slot(p) {
            Slot::Play {
                first,
                second,
                round,
            } => {
                let r = round as usize;
                if rounds.len() <= r {
                    rounds.resize(r + 1, Vec::new());
                }
                if !rounds[r].contains(&(first, second)) {
                    rounds[r].push((first, second));
                }
                let points = result(first, second);
                pair(s, p, (first, second), points);
            }
            Slot::Skip => {}
            Slot::Wait => panic!("pair {p} waits though every pair before it is in"),
        }
    }
    rounds
}

#[test]
fn a_hand_computed_swiss_ranks_by_score_then_its_tie_breaks() {
    // Four engines, three rounds, one pair a pairing (docs/tournaments.md
    // walks through the same): round 1 pairs by seed, 0-1 and 2-3; then by
    // score, never the same two twice.
    let results = [
        ((0, 1), 2.0), // round 1: e0 wins
        ((2, 3), 2.0), // e2 wins
        ((0, 2), 2.0), // round 2: e0 wins
        ((1, 3), 0.0), // e3 wins
        ((0, 3), 0.0), // round 3: e3 wins
        ((2, 1), 0.0), // e1 wins
    ];
    for (tiebreaks, order) in [
        (default_tiebreaks(), ["e3", "e0", "e2", "e1"]),
        (vec![], ["e0", "e3", "e1", "e2"]),
    ] {
        let mut s = Swiss::new((3, 1), &tiebreaks, &names(4));
        let played = play_out(&mut s, &mut |a, b| {
            results
                .iter()
                .find(|(m, _)| *m == (a, b))
                .map(|r| r.1)
                .unwrap_or_else(|| panic!("{a}-{b} is not the hand pairing"))
        });
        assert_eq!(
            played,
            [
                vec![(0, 1), (2, 3)],
                vec![(0, 2), (1, 3)],
                vec![(0, 3), (2, 1)]
            ]
        );
        let st = s.standings();
        let rows: Vec<&str> = st.rows.iter().map(|r| r.engine.as_str()).collect();
        assert_eq!(rows, order);
        if !tiebreaks.is_empty() {
            // e3 and e0 on 2: Buchholz 1+1+2 = 4 each, cut-1 3 each,
            // Sonneborn-Berger 1*1 + 1*2 = 3 for e3 (it beat e1 and e0),
            // 1*1 + 1*1 = 2 for e0 (it beat e1 and e2): e3 first. e1 and
            // e2 on 1: Buchholz 2+2+1 = 5 each, cut-1 4 each, SB 1*1 = 1
            // for e1 (it beat e2), 1*2 = 2 for e2 (it beat e3): e2 ahead.
            let row = |e: &str| st.rows.iter().find(|r| r.engine == e).unwrap();
            assert_eq!(row("e3").tiebreaks[..3], [4.0, 3.0, 3.0]);
            assert_eq!(row("e0").tiebreaks[..3], [4.0, 3.0, 2.0]);
            assert_eq!(row("e1").tiebreaks[..3], [5.0, 4.0, 1.0]);
            assert_eq!(row("e2").tiebreaks[..3], [5.0, 4.0, 2.0]);
        }
    }
}

#[test]
fn direct_encounter_orders_engines_level_on_everything_before() {
    let results = [
        ((0, 1), 2.0),
        ((2, 3), 2.0),
        ((0, 2), 2.0),
        ((1, 3), 0.0),
        ((0, 3), 0.0),
        ((2, 1), 0.0),
    ];
    let mut s = Swiss::new((3, 1), &[TieBreak::DirectEncounter], &names(4));
    play_out(&mut s, &mut |a, b| {
        results.iter().find(|(m, _)| *m == (a, b)).unwrap().1
    });
    let st = s.standings();
    let rows: Vec<(&str, f64)> = st
        .rows
        .iter()
        .map(|r| (r.engine.as_str(), r.tiebreaks[0]))
        .collect();
    // e3 beat e0, e1 beat e2.
    assert_eq!(rows, [("e3", 1.0), ("e0", 0.0), ("e1", 1.0), ("e2", 0.0)]);
}

/// A pairing without repeats of `rank` exists (brute force).
fn exists(rank: &[usize], had_bye: &[bool], allowed: &dyn Fn(usize, usize) -> bool) -> bool {
    fn perfect_brute(left: &[usize], allowed: &dyn Fn(usize, usize) -> bool) -> bool {
        let Some((&a, rest)) = left.split_first() else {
            return true;
        };
        rest.iter().any(|&b| {
            allowed(a, b) && {
                let others: Vec<usize> = rest.iter().copied().filter(|&e| e != b).collect();
                perfect_brute(&others, allowed)
            }
        })
    }
    if rank.len() % 2 == 1 {
        return rank.iter().any(|&c| {
            !had_bye[c] && {
                let rest: Vec<usize> = rank.iter().copied().filter(|&e| e != c).collect();
                perfect_brute(&rest, allowed)
            }
        });
    }
    perfect_brute(rank, allowed)
}

#[test]
fn the_pairing_six_engines_dead_end_greedily_in_round_4_is_found() {
    // After 1-2 3-4 5-6, 1-3 2-5 4-6, 1-4 2-6 3-5 (0-based below), pairing
    // each engine with the first it has not met gives 1-5, 2-3, then 4-6
    // again; a pairing exists: 1-5, 2-4, 3-6.
    let met = [
        (0, 1),
        (2, 3),
        (4, 5),
        (0, 2),
        (1, 4),
        (3, 5),
        (0, 3),
        (1, 5),
        (2, 4),
    ];
    let allowed = |a: usize, b: usize| a != b && !met.contains(&(a.min(b), a.max(b)));
    let round = pairings((0..6).collect(), &[false; 6], &allowed).expect("a pairing exists");
    assert_eq!(round.boards, [(0, 4), (1, 3), (2, 5)]);
    assert_eq!(round.bye, None);
}

#[test]
fn a_pairing_is_found_whenever_one_exists_and_never_repeats() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for n in 2..=9usize {
        let most = if n % 2 == 0 { n - 1 } else { n } as u64;
        for _ in 0..30 {
            let mut s = Swiss::new((most, 1), &default_tiebreaks(), &names(n));
            let rounds = play_out(&mut s, &mut |_, _| [0.0, 1.0, 2.0][(next() % 3) as usize]);
            let mut seen = std::collections::HashSet::new();
            for r in &rounds {
                for &(a, b) in r {
                    assert!(
                        seen.insert((a.min(b), a.max(b))),
                        "{a}-{b} twice with {n} engines"
                    );
                }
            }
            let byes: Vec<usize> = s.paired.iter().filter_map(|r| r.bye).collect();
            let distinct: std::collections::HashSet<_> = byes.iter().collect();
            assert_eq!(distinct.len(), byes.len(), "a second bye: {byes:?}");
            // Where the rounds ended early, brute force finds no pairing.
            if let Some(r) = s.ended {
                assert!(r < most);
                let t = s.tallies();
                let had: Vec<bool> = t.iter().map(|x| x.byes > 0).collect();
                let allowed = |a: usize, b: usize| a != b && !t[a].met.iter().any(|m| m.0 == b);
                let all: Vec<usize> = (0..n).collect();
                assert!(
                    !exists(&all, &had, &allowed),
                    "{n} engines: round {} had a pairing",
                    r + 1
                );
                assert!(s.standings().note.is_some());
            } else {
                assert_eq!(rounds.len() as u64, most);
            }
        }
    }
}

#[test]
fn nine_engines_in_five_rounds_give_five_byes_to_five_engines() {
    let mut s = Swiss::new((5, 1), &default_tiebreaks(), &names(9));
    assert_eq!(s.reserved(), 20);
    play_out(&mut s, &mut |a, b| if a < b { 2.0 } else { 1.0 });
    let st = s.standings();
    assert_eq!(st.rounds_played, 5);
    assert_eq!(st.rows.iter().map(|r| r.byes).sum::<u64>(), 5);
    assert!(st.rows.iter().all(|r| r.byes <= 1));
    // A bye scores as a pairing won; every engine played or sat out each round.
    for r in &st.rows {
        assert_eq!(r.wins + r.draws + r.losses + r.byes, 5, "{r:?}");
        let score = r.wins as f64 + 0.5 * r.draws as f64 + r.byes as f64;
        assert_eq!(r.score, score);
    }
}
