//! Rendering tests of `report.html` on made-up runs: escaping, an empty
//! run, tic-tac-toe, an SPRT's LLR plot, a round-robin's heatmap.

use super::*;
use crate::book::Order;
use crate::game::GameKind;
use crate::records::{BookInfo, Format};
use crate::report::analyse;
use crate::stats::Model;

fn info(engines: &[&str], format: Format, pairs: u64) -> TournamentInfo {
    TournamentInfo {
        config_hash: "0123456789abcdef".into(),
        name: "test run".into(),
        book: BookInfo {
            file: "openings/x.txt".into(),
            openings: 50,
            order: Order::Sequential,
            start: 0,
        },
        ..TournamentInfo::example(engines, format, pairs)
    }
}

fn sprt(max_pairs: u64) -> Format {
    Format::Sprt {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
        model: Model::Normalized,
        max_pairs,
    }
}

/// Game `id` of `black` against `white` with black's disc difference.
fn game(id: u64, black: &str, white: &str, disc: i32) -> GameRecord {
    GameRecord {
        tune: None,
        pair_id: id / 2,
        game_id: id,
        round: 0,
        opening_id: (id / 2 % 50) as usize,
        black: black.into(),
        white: white.into(),
        start: None,
        opening_plies: 2,
        moves: "f5d6c3d3".into(),
        result: crate::records::game::points_for(disc),
        disc_diff: disc,
        reason: "game over".into(),
        nodes: vec![Some(100), Some(200)],
        times_ms: vec![1.0, 2.0],
        depths: vec![Some(3), Some(4)],
        scores: vec![],
    }
}

/// `pairs` pairs of `a` and `b` in which `b` wins 2 games of 3 (by 10
/// discs) and loses the others by 4.
fn head_to_head(a: &str, b: &str, pairs: u64) -> Vec<GameRecord> {
    (0..2 * pairs)
        .map(|id| {
            let (black, white) = if id % 2 == 0 { (a, b) } else { (b, a) };
            let b_wins = id % 3 != 0;
            let disc = if (black == b) == b_wins { 10 } else { -4 };
            game(id, black, white, disc)
        })
        .collect()
}

fn render(info: &TournamentInfo, games: &[GameRecord]) -> String {
    let results = analyse(info, games);
    report_html(info, &results, games, "2026-11-24 10:00:00 UTC")
}

#[test]
fn engine_names_and_the_run_name_are_escaped() {
    let evil = "<script>alert(1)</script>";
    let mut i = info(&["base", evil], sprt(100), 100);
    i.name = "<b>bold</b> & \"quoted\"".into();
    let page = render(&i, &head_to_head("base", evil, 20));
    assert!(!page.contains("<script"), "a name became markup");
    assert!(!page.contains("<b>bold"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("&lt;b&gt;bold&lt;/b&gt; &amp;"));
}

#[test]
fn an_empty_run_renders_without_figures_over_pairs() {
    let i = info(&["a", "b"], sprt(100), 100);
    let page = render(&i, &[]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("No games counted yet") || page.contains("id=\"header-elo\""));
    assert!(!page.contains("id=\"llr\""));
    assert!(page.contains("class=\"verdict undecided\""));
    assert!(page.ends_with("</html>"));
    let rr = info(&["a", "b", "c"], Format::RoundRobin { rounds: 2 }, 6);
    let page = render(&rr, &[]);
    assert!(page.contains("No games counted yet"));
    assert!(page.contains("No ratings yet"));
}

#[test]
fn an_sprt_run_draws_its_llr_with_both_bounds_and_the_decision() {
    let i = info(&["base", "new"], sprt(1000), 1000);
    let games = head_to_head("base", "new", 400);
    let results = analyse(&i, &games);
    assert_eq!(results.verdict, Some("H1"));
    let page = report_html(&i, &results, &games, "today");
    assert!(page.contains("<svg id=\"llr\" class=\"plot sprt llr\""));
    assert!(page.contains("H1 accepted beyond 2.94"));
    assert!(page.contains("H0 accepted beyond -2.94"));
    let pairs = results.trace().unwrap().tallies.len();
    assert!(page.contains(&format!("H1 accepted at pair {pairs}")));
    assert!(page.contains("<svg id=\"elo-over-pairs\""));
    assert!(page.contains("class=\"verdict h1\""));
    let h = results.head_to_head.as_ref().unwrap();
    assert!(page.contains(&format!("data-elo=\"{}\"", h.elo)));
    assert!(page.contains("id=\"disc-histogram\""));
    assert!(page.contains("id=\"pentanomial\""));
    assert!(page.contains("id=\"opening-table\""));
    assert!(
        !page.contains("crosstable-heatmap"),
        "two engines: no heatmap"
    );
}

#[test]
fn a_round_robin_has_ratings_and_the_crosstable_heatmap() {
    let i = info(&["a", "b", "c"], Format::RoundRobin { rounds: 4 }, 12);
    let mut games = Vec::new();
    for (k, (x, y)) in [("a", "b"), ("a", "c"), ("b", "c")].iter().enumerate() {
        for g in head_to_head(x, y, 4) {
            let id = 8 * k as u64 + g.game_id;
            games.push(GameRecord {
                game_id: id,
                pair_id: id / 2,
                ..g
            });
        }
    }
    let page = render(&i, &games);
    assert!(page.contains("<svg id=\"crosstable-heatmap\""));
    assert!(page.contains("<svg id=\"ratings\""));
    assert!(page.contains("id=\"rating-table\""));
    assert!(!page.contains("id=\"llr\""));
    assert!(page.contains("Leader: "));
    assert!(page.contains("class=\"verdict complete\""));
}

#[test]
fn a_tic_tac_toe_run_shows_scores_and_no_openings() {
    let mut i = info(&["random", "perfect"], Format::RoundRobin { rounds: 3 }, 3);
    i.game = GameKind::TicTacToe;
    i.book = BookInfo::none();
    let games: Vec<GameRecord> = head_to_head("random", "perfect", 3)
        .into_iter()
        .map(|g| GameRecord {
            disc_diff: g.disc_diff.signum() * 3,
            moves: "b2a1c3a3a2c1".into(),
            opening_plies: 0,
            ..g
        })
        .collect();
    let page = render(&i, &games);
    assert!(page.contains("final score (points)"));
    assert!(!page.contains("id=\"opening-table\""));
    assert!(page.contains("id=\"elo-over-pairs\""));
}

#[test]
fn a_stopped_run_and_a_shard_say_so() {
    let i = info(&["base", "new"], sprt(1000), 1000);
    let games = head_to_head("base", "new", 3);
    let mut results = analyse(&i, &games);
    results.status = Status::Stopped;
    let page = report_html(&i, &results, &games, "today");
    assert!(page.contains("class=\"verdict stopped\""));
    let mut shard = i.clone();
    shard.shard = "2/3".into();
    let page = render(&shard, &games);
    assert!(page.contains("no verdict (shard 2/3)"));
}
