//! The running results equal a full analysis of the same games, whatever
//! order the games come in, for an SPRT that decides, one that does not
//! (a shard) and a round-robin of three engines.

use super::*;
use crate::records::Format;
use crate::rng::SplitMix64;
use crate::stats::Model;

fn info(engines: &[&str], format: Format, pairs: u64, shard: &str) -> TournamentInfo {
    TournamentInfo {
        shard: shard.into(),
        ..TournamentInfo::example(engines, format, pairs)
    }
}

fn sprt(max_pairs: u64) -> Format {
    Format::Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        model: Model::Normalized,
        max_pairs,
    }
}

/// Game `id` of `black` against `white` with a result drawn from `rng`.
fn game(id: u64, black: &str, white: &str, rng: &mut SplitMix64) -> GameRecord {
    let result = [0.0, 0.5, 1.0, 1.0][(rng.next_u64() % 4) as usize];
    GameRecord {
        disc_diff: ((result - 0.5) * 20.0) as i32,
        reason: if id % 37 == 5 {
            format!("time forfeit: {black} (used 2 s of 1 s)")
        } else {
            "game over".into()
        },
        // Times of µs as the runner rounds them, whose sum in floating
        // point would depend on the order the games come in.
        moves: "f5d6c3d3c4".into(),
        times_ms: (0..5)
            .map(|_| (rng.next_u64() % 100_000) as f64 / 1000.0)
            .collect(),
        ..GameRecord::example(id, black, white, result)
    }
}

/// Two engines, colours swapped within each pair.
fn head_to_head(pairs: u64, rng: &mut SplitMix64) -> Vec<GameRecord> {
    (0..2 * pairs)
        .map(|id| {
            let (b, w) = if id % 2 == 0 {
                ("base", "new")
            } else {
                ("new", "base")
            };
            game(id, b, w, rng)
        })
        .collect()
}

/// `games` shuffled, with some games twice (a later record of an id does
/// not count).
fn shuffled(games: &[GameRecord], rng: &mut SplitMix64) -> Vec<GameRecord> {
    let mut out = games.to_vec();
    for i in (1..out.len()).rev() {
        out.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    let again: Vec<GameRecord> = out.iter().step_by(7).cloned().collect();
    out.extend(again);
    out
}

/// Feeds `games` one by one into a [`Live`] and checks its results
/// against the analysis of the games so far at every tenth game.
fn same_as_analysis(info: &TournamentInfo, games: &[GameRecord]) {
    let mut live = Live::new(info, info.decides());
    for (n, g) in games.iter().enumerate() {
        live.add(g);
        if n % 10 == 9 || n + 1 == games.len() {
            let full = serde_json::to_value(super::super::analyse(info, &games[..=n])).unwrap();
            let kept = serde_json::to_value(live.results()).unwrap();
            assert_eq!(kept, full, "after {} games", n + 1);
        }
    }
}

#[test]
fn an_sprt_counts_as_the_analysis_does_in_any_order() {
    let mut rng = SplitMix64::new(7);
    let run = info(&["base", "new"], sprt(300), 300, "1/1");
    let games = head_to_head(300, &mut rng);
    same_as_analysis(&run, &games);
    same_as_analysis(&run, &shuffled(&games, &mut rng));
}

#[test]
fn a_shard_counts_every_game() {
    let mut rng = SplitMix64::new(8);
    let run = info(&["base", "new"], sprt(90), 90, "2/3");
    let games: Vec<GameRecord> = head_to_head(90, &mut rng)
        .into_iter()
        .filter(|g| (g.game_id / 2) % 3 == 1)
        .collect();
    same_as_analysis(&run, &shuffled(&games, &mut rng));
}

#[test]
fn a_round_robin_of_three_rates_as_the_analysis_does() {
    let mut rng = SplitMix64::new(9);
    let names = ["a", "b", "c"];
    let run = info(&names, Format::RoundRobin { rounds: 20 }, 60, "1/1");
    let games: Vec<GameRecord> = (0..120)
        .map(|id| {
            let meeting = (id / 2) % 3;
            let (x, y) = (names[meeting as usize], names[(meeting as usize + 1) % 3]);
            let (b, w) = if id % 2 == 0 { (x, y) } else { (y, x) };
            game(id, b, w, &mut rng)
        })
        .collect();
    same_as_analysis(&run, &shuffled(&games, &mut rng));
}

/// `games` with openings (a pair's two games share one, and its moves).
fn with_openings(games: Vec<GameRecord>) -> Vec<GameRecord> {
    let moves = ["f5d6", "f5f6", "e6f4", "d3c3", "c4e3"];
    games
        .into_iter()
        .map(|g| {
            let o = (g.game_id / 2 % 5) as usize;
            GameRecord {
                opening_id: o,
                opening_plies: 2,
                moves: format!("{}c3", moves[o]),
                ..g
            }
        })
        .collect()
}

/// A live page's sections drawn from a [`Live::drawing`] fed `games` in
/// order are report.html's sections of the same games.
fn draws_as_the_report(info: &TournamentInfo, games: &[GameRecord]) {
    let mut live = Live::drawing(info, info.decides());
    for g in games {
        live.add(g);
    }
    let full = super::super::analyse(info, games);
    let want = crate::report::html::report_sections(
        info,
        &full,
        &crate::report::html::drawn_of(info, &full, games),
    );
    let kept = live.results();
    let got = crate::report::html::report_sections(info, &kept, live.drawn().unwrap());
    assert_eq!(got, want);
    assert!(
        got.contains("Openings") && got.contains("Elo over pairs"),
        "{got}"
    );
}

#[test]
fn a_live_page_draws_what_the_report_draws() {
    let mut rng = SplitMix64::new(10);
    let run = info(&["base", "new"], sprt(300), 300, "1/1");
    let games = with_openings(head_to_head(300, &mut rng));
    draws_as_the_report(&run, &games);
    let rr = info(
        &["base", "new"],
        Format::RoundRobin { rounds: 40 },
        40,
        "1/1",
    );
    draws_as_the_report(&rr, &with_openings(head_to_head(40, &mut rng)));
}

#[test]
fn a_long_head_to_head_s_pairs_are_thinned_to_a_bounded_trace() {
    let mut rng = SplitMix64::new(11);
    let pairs = 3 * crate::report::drawing::KEPT as u64 + 7;
    let run = info(
        &["base", "new"],
        Format::RoundRobin { rounds: pairs },
        pairs,
        "1/1",
    );
    let mut live = Live::drawing(&run, run.decides());
    for g in head_to_head(pairs, &mut rng) {
        live.add(&g);
    }
    assert_eq!(live.complete_pairs(), pairs);
    let trace = live.results().trace.unwrap();
    let n = trace.tallies.len();
    assert!(
        n <= crate::report::drawing::KEPT + 1 && n > 100,
        "{n} points"
    );
    assert_eq!(trace.counted(), pairs, "the last pair is always kept");
    assert_eq!(trace.at.len(), n);
    assert!(trace.at.windows(2).all(|w| w[0] < w[1]));
    // The last point's tally is every pair's.
    let all = live.results().engines[0].pairs;
    assert_eq!(trace.tallies[n - 1], all);
}

/// The finished pairs are the longest run of pairs from the first with
/// both games in, whatever order the games come in and with games twice.
#[test]
fn the_finished_pairs_are_the_first_pairs_with_both_games_in() {
    let mut rng = SplitMix64::new(12);
    let run = info(&["base", "new"], sprt(60), 60, "1/1");
    let games = shuffled(&head_to_head(60, &mut rng), &mut rng);
    let mut live = Live::new(&run, run.decides());
    let mut seen = std::collections::HashSet::new();
    for g in &games {
        live.add(g);
        seen.insert(g.game_id);
        let finished = (0..)
            .find(|p| !(seen.contains(&(2 * p)) && seen.contains(&(2 * p + 1))))
            .unwrap();
        assert_eq!(live.finished_pairs(), finished, "after game {}", g.game_id);
    }
    assert_eq!(live.finished_pairs(), 60);
}
