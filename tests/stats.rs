//! Statistics: reference values (`tests/data/stats/reference.txt`) through
//! `arena stats --json`, the text output, edge cases that must not print
//! NaN, the fastchess block, multi-engine ratings, and properties of the
//! SPRT log-likelihood ratio.

use crate::util::{arena, data, stderr, stdout};
use arena::stats::format::match_block;
use arena::stats::{Basis, Model, Outcome, PairTally, Ptnml, Sprt, Wdl, NELO_PER_T};
use proptest::prelude::*;
use serde_json::Value;

/// Runs `arena stats ARGS --json`, checks it succeeded and printed exactly
/// one JSON object on one line, and returns it.
fn stats_json(args: &[&str]) -> Value {
    let mut all = vec!["stats"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = arena(&all);
    assert!(out.status.success(), "arena {all:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one line of JSON: {text}");
    assert!(
        !text.contains("NaN") && !text.contains("Infinity"),
        "{text}"
    );
    let value: Value = serde_json::from_str(&text).expect("valid JSON");
    assert!(value.is_object());
    value
}

/// Checks `key=expected` against a JSON object: rounded to the digits of
/// `expected`; `key%` means the value times 100; `null` a null value.
fn check(json: &Value, key: &str, expected: &str, line: &str) {
    let (key, percent) = match key.strip_suffix('%') {
        Some(k) => (k, true),
        None => (key, false),
    };
    let actual = &json[key];
    if expected == "null" {
        assert!(actual.is_null(), "{line}: {key} is {actual}, not null");
        assert!(
            json["notes"][key].is_string(),
            "{line}: no note says why {key} is null"
        );
        return;
    }
    if let Some(number) = actual.as_f64() {
        let value = if percent { number * 100.0 } else { number };
        let decimals = expected.split_once('.').map_or(0, |(_, d)| d.len());
        let rounded = format!("{value:.decimals$}");
        assert_eq!(rounded, expected, "{line}: {key} = {value}");
    } else {
        assert_eq!(actual.as_str(), Some(expected), "{line}: {key} = {actual}");
    }
}

#[test]
fn reference_values() {
    let text = std::fs::read_to_string(data("stats/reference.txt")).unwrap();
    let mut cases = 0;
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (args, expected) = line.split_once("=>").expect("`args => key=value ...`");
        let args: Vec<&str> = args.split_whitespace().collect();
        let json = stats_json(&args);
        for pair in expected.split_whitespace() {
            let (key, value) = pair.split_once('=').expect("key=value");
            check(&json, key, value, line);
        }
        cases += 1;
    }
    assert!(cases >= 25, "only {cases} cases read");
}

#[test]
fn wdl_json_has_the_design_keys() {
    let json = stats_json(&["wdl", "136", "111", "96"]);
    for key in [
        "games",
        "score",
        "elo",
        "elo_error",
        "los",
        "draw_ratio",
        "nelo",
        "nelo_error",
        "llr",
        "lower_bound",
        "upper_bound",
        "verdict",
        "wins",
        "draws",
        "losses",
        "model",
        "elo0",
        "elo1",
        "alpha",
        "beta",
        "notes",
    ] {
        assert!(json.get(key).is_some(), "missing {key}: {json}");
    }
    assert!(json.get("pairs").is_none());
    // Defaults: [0, 5] normalized, alpha = beta = 0.05.
    assert_eq!(
        (json["elo0"].as_f64(), json["elo1"].as_f64()),
        (Some(0.0), Some(5.0))
    );
    assert_eq!(json["model"], "normalized");
    assert_eq!(json["verdict"], "continue");
    // Fractions, not percentages.
    assert!((json["los"].as_f64().unwrap() - 0.9960).abs() < 5e-5);
    assert!((json["draw_ratio"].as_f64().unwrap() - 111.0 / 343.0).abs() < 1e-12);
}

#[test]
fn penta_json_has_pairs() {
    let json = stats_json(&["penta", "34", "54", "63", "64", "75"]);
    assert_eq!(json["pairs"], 290);
    assert_eq!(json["games"], 580);
    assert_eq!(json["ptnml"], serde_json::json!([34, 54, 63, 64, 75]));
    assert_eq!(json["basis"], "pentanomial");
    assert!(json.get("wins").is_none());
}

#[test]
fn wdl_text_output() {
    let out = arena(&["stats", "wdl", "136", "111", "96"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77\n\
         LOS: 99.60 %, DrawRatio: 32.36 %\n\
         Games: 343, Wins: 136, Losses: 96, Draws: 111, Points: 191.5 (55.83 %)\n\
         LLR: 0.66 (22.6%) (-2.94, 2.94) [0.00, 5.00]\n\
         SPRT (normalized Elo, alpha 0.05, beta 0.05): continue\n"
    );
}

#[test]
fn penta_text_output() {
    let out = arena(&[
        "stats", "penta", "34", "54", "63", "64", "75", "--elo0", "-1", "--elo1", "3",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Elo: 55.58 +/- 27.65, nElo: 57.94 +/- 28.28");
    assert_eq!(
        lines[1],
        "LOS: 100.00 %, DrawRatio: 21.72 %, PairsRatio: 1.58"
    );
    assert_eq!(lines[2], "Pairs: 290, Games: 580, Points: 336.0 (57.93 %)");
    assert_eq!(lines[3], "Ptnml(0-2): [34, 54, 63, 64, 75]");
    assert!(
        lines[4].starts_with("LLR: ") && lines[4].ends_with("(-2.94, 2.94) [-1.00, 3.00]"),
        "{text}"
    );
}

#[test]
fn edge_cases_never_print_nan() {
    let cases: &[&[&str]] = &[
        &["wdl", "0", "0", "0"],
        &["wdl", "1", "0", "0"],
        &["wdl", "0", "1", "0"],
        &["wdl", "0", "0", "1"],
        &["wdl", "25", "0", "0"],
        &["wdl", "0", "25", "0"],
        &["wdl", "0", "0", "25"],
        &["wdl", "9", "1", "0"],
        &["penta", "0", "0", "0", "0", "0"],
        &["penta", "0", "0", "0", "0", "1"],
        &["penta", "0", "0", "7", "0", "0"],
        &["penta", "0", "0", "0", "12", "0"],
        &["penta", "3", "0", "0", "0", "0"],
        &["wdl", "0", "0", "0", "--model", "logistic"],
        &["penta", "0", "0", "0", "0", "9", "--model", "logistic"],
    ];
    for args in cases {
        let json = stats_json(args);
        // Every null value has a reason; every other value is a number.
        for (key, value) in json.as_object().unwrap() {
            if value.is_null() {
                assert!(
                    json["notes"][key].is_string(),
                    "{args:?}: {key} is null without a note"
                );
            }
        }
        assert!(
            json["llr"].is_number(),
            "{args:?}: the LLR always exists: {json}"
        );
        let text = stdout(&arena(&[&["stats"], *args].concat()));
        assert!(!text.contains("NaN"), "{args:?}: {text}");
    }
    let no_games = stats_json(&["wdl", "0", "0", "0"]);
    assert!(no_games["elo"].is_null() && no_games["score"].is_null());
    assert_eq!(no_games["verdict"], "continue");
    let all_wins = stats_json(&["wdl", "25", "0", "0"]);
    assert!(all_wins["elo"].is_null());
    assert!(all_wins["notes"]["elo"]
        .as_str()
        .unwrap()
        .contains("+infinity"));
    assert_eq!(all_wins["los"], 1.0);
    let all_draws = stats_json(&["wdl", "0", "25", "0"]);
    assert_eq!(
        (all_draws["elo"].as_f64(), all_draws["los"].as_f64()),
        (Some(0.0), Some(0.5))
    );
    assert_eq!(all_draws["nelo"].as_f64(), Some(0.0));
    let one_game = stats_json(&["wdl", "0", "0", "1"]);
    assert_eq!(one_game["games"], 1);
    assert_eq!(one_game["los"], 0.0);
}

#[test]
fn negative_elo_bounds_and_logistic_model() {
    let json = stats_json(&[
        "wdl", "50", "0", "60", "--elo0", "-3", "--elo1", "1", "--model", "logistic",
    ]);
    assert_eq!(json["elo0"].as_f64(), Some(-3.0));
    assert_eq!(json["model"], "logistic");
}

#[test]
fn bad_sprt_options_are_errors() {
    for (args, needle) in [
        (
            &["stats", "wdl", "1", "2", "3", "--elo0", "5", "--elo1", "0"][..],
            "--elo0/--elo1",
        ),
        (
            &["stats", "wdl", "1", "2", "3", "--alpha", "1.5"][..],
            "--alpha",
        ),
        (
            &["stats", "penta", "1", "2", "3", "4", "5", "--beta", "0"][..],
            "--beta",
        ),
        (
            &[
                "stats", "wdl", "1", "2", "3", "--alpha", "0.5", "--beta", "0.5",
            ][..],
            "--alpha/--beta",
        ),
        (
            &[
                "stats", "wdl", "1", "2", "3", "--elo1", "3000", "--model", "logistic",
            ][..],
            "--elo1",
        ),
    ] {
        let out = arena(args);
        // A bad command-line value is a usage error, found after clap or not.
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
    let out = arena(&[
        "stats",
        "wdl",
        "18446744073709551615",
        "18446744073709551615",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("W D L: "), "{}", stderr(&out));
    // Usage errors clap finds: exit code 2 as well.
    assert_eq!(arena(&["stats", "wdl", "1", "2"]).status.code(), Some(2));
    assert_eq!(
        arena(&["stats", "penta", "1", "2", "3", "4", "-5"])
            .status
            .code(),
        Some(2)
    );
}

/// The block the tournament prints, line by line as fastchess prints it;
/// the expected numbers were computed independently with fastchess's
/// formulas and fishtest's LLRcalc.py.
#[test]
fn fastchess_block_format() {
    let pairs = PairTally {
        ll: 10,
        ld: 100,
        wl: 120,
        dd: 80,
        wd: 150,
        ww: 40,
    };
    let mut wdl = pairs.wdl();
    wdl.add(Outcome::Win); // a game whose pair is not finished yet
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
    let state = sprt.evaluate_ptnml(&pairs.ptnml());
    assert_eq!(
        match_block(&wdl, &pairs, Basis::Pentanomial, Some(&state)),
        "Elo: 38.37 +/- 14.23, nElo: 58.57 +/- 21.53\n\
         LOS: 100.00 %, DrawRatio: 40.00 %, PairsRatio: 1.73\n\
         Games: 1001, Wins: 351, Losses: 240, Draws: 410, Points: 556.0 (55.54 %)\n\
         Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 1.50\n\
         LLR: 2.29 (77.6%) (-2.94, 2.94) [0.00, 5.00]"
    );
    let state = sprt.evaluate_wdl(&wdl);
    assert!((state.llr - 1.9756).abs() < 5e-5, "{}", state.llr);
    assert_eq!(
        match_block(&wdl, &pairs, Basis::Trinomial, Some(&state)),
        "Elo: 38.69 +/- 16.58, nElo: 50.67 +/- 21.52\n\
         LOS: 100.00 %, DrawRatio: 40.96 %\n\
         Games: 1001, Wins: 351, Losses: 240, Draws: 410, Points: 556.0 (55.54 %)\n\
         LLR: 1.98 (67.1%) (-2.94, 2.94) [0.00, 5.00]"
    );
    assert_eq!(
        match_block(&wdl, &pairs, Basis::Pentanomial, None)
            .lines()
            .count(),
        4
    );
}

#[test]
fn ratings_table_and_json() {
    let file = data("stats/ratings.txt");
    let out = arena(&["stats", "ratings", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Ratings (maximum likelihood, average = 0), 12 games; +/- is the half-width of the 95% interval"
    );
    assert!(lines[1].starts_with("Rank Name "), "{text}");
    assert!(
        lines[2].contains("alphabeta")
            && lines[3].contains("minimax")
            && lines[4].contains("random"),
        "{text}"
    );
    assert!(text.contains("LOS (%, row stronger than column):"));

    let json = stats_json(&["ratings", file.to_str().unwrap()]);
    assert_eq!(json["method"], "maximum_likelihood");
    assert!(json["prior"].is_null() && json["anchor"].is_null());
    let engines = json["engines"].as_array().unwrap();
    let sum: f64 = engines.iter().map(|e| e["elo"].as_f64().unwrap()).sum();
    assert!(sum.abs() < 1e-9);
    assert_eq!(engines[0]["name"], "alphabeta");
    assert_eq!(engines[0]["points"], 6.5);
    assert!(json["los"][0][0].is_null());
    let los = json["los"][0][2].as_f64().unwrap();
    assert!(los > 0.5 && los < 1.0);

    let anchored = stats_json(&["ratings", file.to_str().unwrap(), "--anchor", "random"]);
    let engines = anchored["engines"].as_array().unwrap();
    assert_eq!(anchored["anchor"], "random");
    assert_eq!(engines[2]["name"], "random");
    assert_eq!(engines[2]["elo"], 0.0);
    assert_eq!(engines[2]["std_error"], 0.0);
}

/// Two engines, A scoring 75% over 100 games: the difference is
/// 400 log10(3) = 190.85.
#[test]
fn ratings_two_engines_by_hand() {
    let dir = std::env::temp_dir().join(format!("arena-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.txt");
    let mut text = String::new();
    for k in 0..100 {
        text += if k < 75 { "A B 1\n" } else { "B A 1\n" };
    }
    std::fs::write(&file, text).unwrap();
    let json = stats_json(&["ratings", file.to_str().unwrap(), "--anchor", "B"]);
    let a = &json["engines"][0];
    assert_eq!(a["name"], "A");
    assert_eq!(format!("{:.2}", a["elo"].as_f64().unwrap()), "190.85");
    // Standard error 1 / (k sqrt(100 * 0.75 * 0.25)), k = ln 10 / 400.
    let se = 400.0 / std::f64::consts::LN_10 / 18.75f64.sqrt();
    assert!((a["std_error"].as_f64().unwrap() - se).abs() < 1e-6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ratings_without_mle_use_the_flagged_prior() {
    let file = data("stats/ratings-unbeaten.txt");
    let json = stats_json(&["ratings", file.to_str().unwrap()]);
    assert_eq!(json["method"], "prior");
    assert_eq!(json["prior"]["virtual_draws_per_pair"], 2.0);
    assert_eq!(
        json["prior"]["reason"],
        "strong scored every point against the other engines"
    );
    assert_eq!(json["engines"][0]["name"], "strong");
    let out = arena(&["stats", "ratings", file.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        text.starts_with("Ratings (prior of 2 virtual draws per pair, average = 0)"),
        "{text}"
    );
    assert!(text
        .contains("Note: the maximum-likelihood ratings do not exist (strong scored every point"));
}

#[test]
fn bad_ratings_files_name_the_file_and_line() {
    let file = data("stats/ratings-bad.txt");
    let out = arena(&["stats", "ratings", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("ratings-bad.txt: line 3: bad result `2`"),
        "{err}"
    );
    assert!(!err.contains("panicked"));

    let missing = data("stats/no-such-file.txt");
    let out = arena(&["stats", "ratings", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no-such-file.txt"),
        "{}",
        stderr(&out)
    );

    let file = data("stats/ratings.txt");
    let out = arena(&[
        "stats",
        "ratings",
        file.to_str().unwrap(),
        "--anchor",
        "nobody",
    ]);
    // A bad --anchor is a bad command-line value: exit code 2.
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--anchor: no engine named `nobody` in "),
        "{}",
        stderr(&out)
    );
}

fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

fn model() -> impl Strategy<Value = Model> {
    prop_oneof![Just(Model::Normalized), Just(Model::Logistic)]
}

/// Observed Elo in the units of `model`: logistic Elo of the score, or
/// normalized Elo.
fn observed(basis: Basis, counts: &[u64], model: Model) -> f64 {
    let e = arena::stats::EloEstimate::from_frequencies(basis, counts);
    match model {
        Model::Logistic => e.elo,
        Model::Normalized => e.nelo,
    }
}

fn llr(s: &Sprt, basis: Basis, counts: &[u64]) -> f64 {
    s.llr(basis, counts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The LLR exists for any counts (empty categories included) and any
    /// sensible hypotheses.
    #[test]
    fn llr_is_always_finite(
        counts in prop::collection::vec(prop_oneof![Just(0u64), 0u64..20, 0u64..100_000], 5),
        pentanomial in any::<bool>(),
        model in model(),
        elo0 in -100.0f64..100.0,
        width in 0.1f64..100.0,
    ) {
        let (basis, counts) = if pentanomial { (Basis::Pentanomial, &counts[..]) } else { (Basis::Trinomial, &counts[..3]) };
        let l = llr(&sprt(elo0, elo0 + width, model), basis, counts);
        prop_assert!(l.is_finite(), "{:?} {:?} [{}, {}]: {}", basis, counts, elo0, elo0 + width, l);
    }

    /// With no empty category, doubling every count doubles the LLR.
    #[test]
    fn doubling_counts_doubles_the_llr(
        counts in prop::collection::vec(1u64..400, 5),
        pentanomial in any::<bool>(),
        model in model(),
        elo0 in -10.0f64..5.0,
        width in 0.5f64..10.0,
    ) {
        let (basis, counts) = if pentanomial { (Basis::Pentanomial, &counts[..]) } else { (Basis::Trinomial, &counts[..3]) };
        let s = sprt(elo0, elo0 + width, model);
        let once = llr(&s, basis, counts);
        let doubled: Vec<u64> = counts.iter().map(|c| 2 * c).collect();
        let twice = llr(&s, basis, &doubled);
        prop_assert!(once.is_finite() && twice.is_finite());
        prop_assert!((twice - 2.0 * once).abs() <= 1e-7 * (1.0 + once.abs()), "{} vs 2 * {}", twice, once);
    }

    /// The LLR is positive when the observed Elo is at or above elo1, and
    /// negative when it is at or below elo0.
    #[test]
    fn llr_sign_follows_the_observation(
        counts in prop::collection::vec(1u64..300, 5),
        pentanomial in any::<bool>(),
        model in model(),
        gap in 0.0f64..30.0,
        width in 1.0f64..20.0,
    ) {
        let (basis, counts) = if pentanomial { (Basis::Pentanomial, &counts[..]) } else { (Basis::Trinomial, &counts[..3]) };
        let seen = observed(basis, counts, model);
        prop_assume!(seen.is_finite() && seen.abs() < 1500.0);
        // elo0 < elo1 <= observed.
        let above = sprt(seen - gap - width, seen - gap, model);
        let l = llr(&above, basis, counts);
        prop_assert!(l > 0.0, "observed {} >= elo1 {}: LLR {}", seen, seen - gap, l);
        // observed <= elo0 < elo1.
        let below = sprt(seen + gap, seen + gap + width, model);
        let l = llr(&below, basis, counts);
        prop_assert!(l < 0.0, "observed {} <= elo0 {}: LLR {}", seen, seen + gap, l);
    }

    /// Adding a win never lowers the LLR (empty categories included).
    #[test]
    fn a_win_never_lowers_the_llr(
        wins in 0u64..300,
        draws in 0u64..300,
        losses in 0u64..300,
        model in model(),
        elo0 in -20.0f64..10.0,
        width in 0.5f64..20.0,
    ) {
        let s = sprt(elo0, elo0 + width, model);
        let before = s.llr_wdl(&Wdl::new(wins, draws, losses));
        let after = s.llr_wdl(&Wdl::new(wins + 1, draws, losses));
        prop_assert!(after >= before - 1e-9, "{} -> {}", before, after);
    }

    /// For pairs: adding a WW pair never lowers the LLR.
    #[test]
    fn a_won_pair_never_lowers_the_llr(
        counts in prop::collection::vec(0u64..200, 5),
        model in model(),
        elo0 in -20.0f64..10.0,
        width in 0.5f64..20.0,
    ) {
        let s = sprt(elo0, elo0 + width, model);
        let p = Ptnml([counts[0], counts[1], counts[2], counts[3], counts[4]]);
        let mut q = p;
        q.0[4] += 1;
        let (before, after) = (s.llr_ptnml(&p), s.llr_ptnml(&q));
        prop_assert!(after >= before - 1e-9, "{} -> {}", before, after);
    }
}

#[test]
fn normalized_elo_unit() {
    assert!((NELO_PER_T - 347.43558552260146).abs() < 1e-9);
}
