//! The exact endgame solver against the FFO suite's published scores.

use crate::util::{arena, data, stderr, stdout};

fn solve_json(file: &str, extra: &[&str]) -> serde_json::Value {
    let path = data(file);
    let mut args = vec!["solve", path.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let out = arena(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn ffo_1_to_19_are_solved_exactly_with_a_best_move() {
    let r = solve_json("ffo/fforum-1-19.obf", &[]);
    assert_eq!(r["total"], 19);
    assert_eq!(r["correct"], 19);
    for p in r["positions"].as_array().unwrap() {
        assert_eq!(p["score"], p["expected_score"], "{p}");
        for key in ["line", "empties", "best_move", "nodes", "seconds"] {
            assert!(p.get(key).is_some(), "{key}");
        }
    }
}

#[test]
fn ffo_1_to_19_are_solved_the_same_without_evaluation_ordering() {
    // Ordering changes the work, never the result.
    let with = solve_json("ffo/fforum-1-19.obf", &[]);
    let without = solve_json("ffo/fforum-1-19.obf", &["--no-eval-order"]);
    let features = solve_json(
        "ffo/fforum-1-19.obf",
        &[
            "--order-eval",
            crate::util::repo("engines/weights/features-fit.ron")
                .to_str()
                .unwrap(),
            "--eval-from",
            "8",
        ],
    );
    assert_eq!(without["correct"], 19);
    assert_eq!(features["correct"], 19);
    let scores = |r: &serde_json::Value| -> Vec<i64> {
        r["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["score"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(scores(&with), scores(&without));
    assert_eq!(scores(&with), scores(&features));
    assert_ne!(with["nodes"], without["nodes"], "the evaluation took part");
}

#[test]
fn ffo_40_to_42_are_solved_exactly() {
    if cfg!(debug_assertions) {
        return; // seconds in release, minutes in debug: a release-build test
    }
    let r = solve_json("ffo/fforum-40-42.obf", &[]);
    assert_eq!(r["correct"], 3);
    let scores: Vec<i64> = r["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, vec![38, 0, 6], "published FFO #40-#42 scores");
}

#[test]
fn a_wrong_expectation_is_reported_and_exit_1() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("wrong.obf");
    // FFO #1 is +18 with G8; claim +20.
    std::fs::write(
        &f,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+20;\n",
    )
    .unwrap();
    let out = arena(&["solve", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("WRONG"), "{}", stdout(&out));
}

#[test]
fn a_bad_obf_line_names_the_file_and_line() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.obf");
    std::fs::write(
        &f,
        "% comment\n--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; Z9:+18;\n",
    )
    .unwrap();
    let out = arena(&["solve", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("bad.obf:2:") && err.contains("Z9"), "{err}");
}

#[test]
fn a_position_takes_the_same_nodes_alone_or_after_others() {
    // Nothing of one solve (its table) reaches the next: each position's
    // node count is its own, whatever came before it.
    let all = solve_json("ffo/fforum-1-19.obf", &[]);
    let all = all["positions"].as_array().unwrap();
    for (i, line) in [(0, "1"), (9, "10"), (18, "19")] {
        let alone = solve_json("ffo/fforum-1-19.obf", &["--lines", line]);
        let alone = &alone["positions"][0];
        assert_eq!(alone["line"], all[i]["line"]);
        assert_eq!(alone["nodes"], all[i]["nodes"], "line {line}");
    }
}

#[test]
fn two_threads_solve_to_the_same_scores() {
    let scores = |r: &serde_json::Value| -> Vec<(i64, i64)> {
        r["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["line"].as_i64().unwrap(), p["score"].as_i64().unwrap()))
            .collect()
    };
    // FFO #1-#19 and, in release builds (seconds, not minutes), #40-#42.
    let files: &[&str] = if cfg!(debug_assertions) {
        &["ffo/fforum-1-19.obf"]
    } else {
        &["ffo/fforum-1-19.obf", "ffo/fforum-40-42.obf"]
    };
    for &file in files {
        let one = solve_json(file, &[]);
        let two = solve_json(file, &["--threads", "2"]);
        assert_eq!(two["threads"], 2);
        assert_eq!(two["correct"], two["total"], "{file}");
        assert_eq!(scores(&one), scores(&two), "{file}");
    }
    let out = arena(&[
        "solve",
        data("ffo/fforum-1-19.obf").to_str().unwrap(),
        "--threads",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn selective_passes_change_the_work_never_the_result() {
    // Every position gets the passes (--selective-from 0): FFO #1-#19 and,
    // in release builds, #40-#42 (where they run by default, from 20
    // empties), against the exact search alone.
    let files: &[&str] = if cfg!(debug_assertions) {
        &["ffo/fforum-1-19.obf"]
    } else {
        &["ffo/fforum-1-19.obf", "ffo/fforum-40-42.obf"]
    };
    for &file in files {
        let plain = solve_json(file, &["--no-selective"]);
        let passes = solve_json(file, &["--selective-from", "0"]);
        assert_eq!(passes["correct"], passes["total"], "{file}");
        for (a, b) in plain["positions"]
            .as_array()
            .unwrap()
            .iter()
            .zip(passes["positions"].as_array().unwrap())
        {
            assert_eq!(a["score"], b["score"], "{file}: {a} {b}");
        }
        assert_ne!(plain["nodes"], passes["nodes"], "{file}: the passes ran");
    }
}

#[test]
fn a_cut_model_without_exact_pairs_is_refused_by_name() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("solve");
    std::fs::create_dir_all(&dir).unwrap();
    // A midgame ProbCut file: its pairs predict depth 4, not the exact score.
    let midgame = crate::util::repo("engines/probcut/strong.ron");
    let ffo = data("ffo/fforum-1-19.obf");
    let out = arena(&[
        "solve",
        ffo.to_str().unwrap(),
        "--endcut",
        midgame.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("--endcut") && err.contains("strong.ron") && err.contains("deep: 60"),
        "{err}"
    );
    // A malformed one names its file and line.
    let bad = dir.join("bad-endcut.ron");
    std::fs::write(
        &bad,
        "ProbCut(confidence: 1.5, stages: [\n(min_empties: 0, pairs: [(deep: 60, shallow: 2, a: NaN, b: 0.0, sigma: 1.0)])])\n",
    )
    .unwrap();
    let out = arena(&[
        "solve",
        ffo.to_str().unwrap(),
        "--endcut",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("bad-endcut.ron:2") && err.contains("a"),
        "{err}"
    );
    // Turning the passes off and naming a model contradict each other.
    let out = arena(&[
        "solve",
        ffo.to_str().unwrap(),
        "--endcut",
        bad.to_str().unwrap(),
        "--no-selective",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
