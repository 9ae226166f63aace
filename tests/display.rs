//! What results look like on screen: snapshots of the result block (whose
//! header names both sides, from the first one's point of view, while the
//! other lines keep fastchess's shape that fishtest and OpenBench scripts
//! parse), the rating table, and the values that do not exist yet or run
//! off to infinity (`—`, `> +800`; never `nan` or `inf`). Tiny fixed-depth
//! engines keep the games deterministic and the tests to a second.

use crate::util::{arena, repo, stderr, stdout};
use std::path::{Path, PathBuf};

/// A fresh folder under cargo's temporary directory.
fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("display")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An alpha-beta engine to `depth` with the classic weights.
fn engine(name: &str, depth: u32) -> String {
    format!(
        "Inline(Engine(name: {name:?}, search: AlphaBeta(fail: Soft), limit: Depth({depth}), eval: WeightedSquares(weights: {:?})))",
        repo("engines/weights/squares-classic.ron")
    )
}

/// Runs a tournament of `engines` in `format` into `dir/out` and returns
/// the folder.
fn run(dir: &Path, name: &str, engines: &[String], format: &str) -> PathBuf {
    let out = dir.join("out");
    let config = dir.join("c.ron");
    std::fs::write(
        &config,
        format!(
            "Tournament(name: {name:?}, engines: [{}], format: {format}, book: (file: {:?}, order: Sequential), concurrency: 2, out: {:?})",
            engines.join(", "),
            repo("openings/all-4ply.txt"),
            out
        ),
    )
    .unwrap();
    let r = arena(&["run", config.to_str().unwrap(), "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    out
}

/// `arena report DIR`'s text.
/// `arena report DIR`'s block, without its last line, which says where
/// report.html is (checked here).
fn report(dir: &Path) -> String {
    let r = arena(&["report", dir.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    let text = stdout(&r);
    let last = format!("Report: {}\n", dir.join("report.html").display());
    text.strip_suffix(&last)
        .unwrap_or_else(|| panic!("no {last:?} at the end of:\n{text}"))
        .to_string()
}

fn assert_no_nan_or_inf(text: &str) {
    for word in ["nan", "NaN", "inf"] {
        assert!(
            !text
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == word),
            "{word} in:\n{text}"
        );
    }
}

#[test]
fn an_sprt_block_names_both_sides_from_the_candidates_point_of_view() {
    let dir = tmp("sprt");
    let out = run(
        &dir,
        "snap",
        &[engine("base", 1), engine("new", 2)],
        "Sprt(elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 8)",
    );
    assert_eq!(
        report(&out),
        "Final results of new vs base (snap, 16 games):\n\
         Elo: 254.73 +/- 287.32, nElo: 317.16 +/- 170.24\n\
         LOS: 99.99 %, DrawRatio: 37.50 %, PairsRatio: —\n\
         Games: 16, Wins: 13, Losses: 3, Draws: 0, Points: 13.0 (81.25 %)\n\
         Ptnml(0-2): [0, 0, 3, 0, 5], WL/DD Ratio: —\n\
         LLR: 0.49 (16.7%) (-2.94, 2.94) [0.00, 20.00]\n\
         SPRT verdict: continue\n"
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("```\nFinal results of new vs base (snap, 16 games):\nElo: 254.73"),
        "{summary}"
    );

    // Before the first game: the same shape, every missing value `—`, and
    // the sides already in the order the games will fill.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::copy(out.join("tournament.json"), empty.join("tournament.json")).unwrap();
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let header = journal.lines().next().unwrap();
    std::fs::write(empty.join("journal.jsonl"), format!("{header}\n")).unwrap();
    let text = report(&empty);
    assert_eq!(
        text.lines().take(6).collect::<Vec<_>>(),
        [
            "Results of new vs base (snap, 0 games):",
            "Elo: — +/- —, nElo: — +/- —",
            "LOS: —, DrawRatio: —, PairsRatio: —",
            "Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (—)",
            "Ptnml(0-2): [0, 0, 0, 0, 0], WL/DD Ratio: —",
            "LLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 20.00]",
        ]
    );
    assert_no_nan_or_inf(&text);
    assert_no_nan_or_inf(&std::fs::read_to_string(empty.join("summary.md")).unwrap());
}

#[test]
fn a_two_engine_match_is_read_from_the_first_engines_point_of_view() {
    let dir = tmp("match");
    let out = run(
        &dir,
        "m",
        &[engine("deep", 2), engine("shallow", 1)],
        "RoundRobin(rounds: 2)",
    );
    let text = report(&out);
    assert!(
        text.starts_with("Final results of deep vs shallow (m, 4 games):\nElo: "),
        "{text}"
    );
}

#[test]
fn the_rating_table_caps_extreme_values_and_says_what_its_columns_mean() {
    let dir = tmp("table");
    let random = "Inline(Engine(name: \"random\", search: Random, seed: 3))".to_string();
    let out = run(
        &dir,
        "table",
        &[random, engine("ab1", 1), engine("ab2", 2)],
        "RoundRobin(rounds: 3)",
    );
    assert_eq!(
        report(&out),
        "Final results of table (18 games):\n\
         Rank  Name         Elo     +/-      nElo     +/-   Games    Score    Draw  Ptnml(0-2)\n   \
         1  ab2        238.9   177.5    > +800       —      12   100.0%    0.0%  [0, 0, 0, 0, 6]\n   \
         2  ab1        -21.7   139.3     -22.0   196.6      12    45.8%    8.3%  [3, 0, 0, 1, 2]\n   \
         3  random    -217.2   167.2    < -800       —      12     4.2%    8.3%  [5, 1, 0, 0, 0]\n\
         Elo: maximum likelihood over all games, average = 0; nElo: from each engine's own game pairs; +/-: half-width of the 95% interval\n"
    );
}

/// `arena run` of `deep` (depth 2) against `shallow` (depth 1), `rounds`
/// pairs at concurrency 1 (so games finish in order), stdout a pipe, with
/// `more` flags; returns stdout and the journal's game records.
fn piped(dir: &Path, rounds: u64, more: &[&str]) -> (String, Vec<serde_json::Value>) {
    let out = dir.join("out");
    let config = dir.join("c.ron");
    std::fs::write(
        &config,
        format!(
            "Tournament(name: \"p\", engines: [{}, {}], format: RoundRobin(rounds: {rounds}), book: (file: {:?}, order: Sequential), concurrency: 1, out: {:?})",
            engine("deep", 2),
            engine("shallow", 1),
            repo("openings/all-4ply.txt"),
            out
        ),
    )
    .unwrap();
    let mut args = vec!["run", config.to_str().unwrap(), "--overwrite"];
    args.extend_from_slice(more);
    let r = arena(&args);
    assert!(r.status.success(), "{}", stderr(&r));
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let games = journal
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (stdout(&r), games)
}

/// The intermediate result blocks in `text` (the final one says `Final`).
fn blocks(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("Results of "))
        .count()
}

#[test]
fn a_piped_run_prints_a_line_per_game_as_cutechess_does() {
    let dir = tmp("per-game");
    let (text, games) = piped(&dir, 3, &[]);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(games.len(), 6);
    // At concurrency 1 the games finish in order, each line naming black
    // first and the result the journal holds.
    for (i, (line, g)) in lines.iter().zip(&games).enumerate() {
        let (black, white) = (g["black"].as_str().unwrap(), g["white"].as_str().unwrap());
        let head = format!("Finished game {} ({black} vs {white}): ", i + 1);
        assert!(line.starts_with(&head), "{line} for {g}");
        let score = match g["result"].as_f64().unwrap() {
            r if r > 0.5 => "1-0",
            r if r < 0.5 => "0-1",
            _ => "1/2-1/2",
        };
        assert!(
            line[head.len()..].starts_with(&format!("{score} {{")),
            "{line} for {g}"
        );
    }
    // Game 1 of the journal: deep black, 1.0, disc_diff 26, game over.
    assert_eq!(
        lines[0],
        "Finished game 1 (deep vs shallow): 1-0 {black wins by 26 discs}"
    );
    // The lines come before the final block, which is unchanged.
    let last = text.find("Finished game 6 ").unwrap();
    let fin = text
        .find("Final results of deep vs shallow (p, 6 games):")
        .unwrap();
    assert!(last < fin, "{text}");
    assert_eq!(blocks(&text), 0, "{text}");

    let (quiet, _) = piped(&dir, 3, &["--quiet"]);
    assert_eq!(quiet, "", "--quiet prints nothing");
}

#[test]
fn the_rating_interval_sets_how_often_a_pipe_gets_the_result_block() {
    let dir = tmp("interval");
    // 12 pairs: by default one block (after pair 10) before the final one.
    let (text, _) = piped(&dir, 12, &[]);
    assert_eq!(blocks(&text), 1, "{text}");
    assert!(
        text.contains("Results of deep vs shallow (p, 20 games):"),
        "{text}"
    );
    let (text, _) = piped(&dir, 12, &["--ratinginterval", "0"]);
    assert_eq!(blocks(&text), 0, "{text}");
    assert!(
        text.contains("Final results of deep vs shallow (p, 24 games):"),
        "{text}"
    );
    // Every pair but the last, whose block is the final one.
    let (text, _) = piped(&dir, 12, &["--ratinginterval", "1"]);
    assert_eq!(blocks(&text), 11, "{text}");
    for pairs in 1..=11 {
        let header = format!("Results of deep vs shallow (p, {} games):", 2 * pairs);
        assert!(text.contains(&header), "{header} in {text}");
    }
    // `arena match` takes the flag too, and prints its games.
    let r = arena(&[
        "match",
        repo("engines/squares-classic.ron").to_str().unwrap(),
        repo("engines/random.ron").to_str().unwrap(),
        "--depth",
        "1",
        "--pairs",
        "3",
        "--concurrency",
        "1",
        "--book",
        repo("openings/all-4ply.txt").to_str().unwrap(),
        "--out",
        dir.join("match").to_str().unwrap(),
        "--ratinginterval",
        "1",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let text = stdout(&r);
    assert_eq!(blocks(&text), 2, "{text}");
    let games = text
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .count();
    assert_eq!(games, 6, "{text}");
}

#[test]
fn stats_print_a_dash_for_what_does_not_exist_and_cap_extreme_elo() {
    let text = stdout(&arena(&["stats", "wdl", "0", "0", "0"]));
    assert!(
        text.starts_with(
            "Elo: — +/- —, nElo: — +/- —\n\
             LOS: —, DrawRatio: —\n\
             Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (—)\n\
             LLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 5.00]\n"
        ),
        "{text}"
    );
    let text = stdout(&arena(&["stats", "wdl", "1000", "1", "0"]));
    assert!(
        text.starts_with("Elo: > +800 +/- —, nElo: > +800 +/- —\n"),
        "{text}"
    );
    let text = stdout(&arena(&["stats", "penta", "5", "0", "0", "0", "0"]));
    assert!(
        text.starts_with("Elo: < -800 +/- —, nElo: < -800 +/- —\n"),
        "{text}"
    );
    assert!(text.contains("PairsRatio: 0.00"), "{text}");
    for args in [
        &["wdl", "0", "0", "0"][..],
        &["wdl", "25", "0", "0"],
        &["penta", "0", "0", "0", "0", "0"],
        &["penta", "0", "0", "0", "0", "9"],
        &["penta", "0", "0", "7", "0", "0"],
    ] {
        assert_no_nan_or_inf(&stdout(&arena(&[&["stats"], args].concat())));
    }
}

#[test]
fn search_json_names_the_unit_of_every_score() {
    let out = arena(&["search", "--depth", "3", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(json.get("score").is_none(), "{json}");
    assert_eq!(json["score_discs"], 3.0);
    for it in json["iterations"].as_array().unwrap() {
        assert!(
            it["score_discs"].is_number() && it.get("score").is_none(),
            "{it}"
        );
    }
    let text = stdout(&arena(&["search", "--depth", "3"]));
    assert!(
        text.starts_with("best move d3, score +3.00 discs, depth 3,"),
        "{text}"
    );
    let out = arena(&[
        "search",
        "--game",
        "tictactoe",
        "--algorithm",
        "negamax",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["score_points"], 0.0);
    assert!(json["iterations"][0]["score_points"].is_number(), "{json}");
}
