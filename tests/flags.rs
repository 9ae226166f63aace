//! Options the command line accepts but the library refuses once it
//! works: the library names the option's setting (`pairs`, `max_abs`), the
//! binary prints its flag (`--pairs`), byte for byte as it always has.

use crate::messages::{shipped, tmp};
use crate::util::{arena, data, repo, stderr, stdout};

#[test]
fn an_option_refused_after_parsing_is_named_by_its_flag() {
    // The library names the option's setting (`pairs`, `max_abs`); the
    // binary prints the flag, exactly as it always has.
    let dir = tmp("flags");
    let out = dir.join("x.ron");
    let out = out.to_str().unwrap();
    let r = |p: &str| repo(p).display().to_string();
    let (engine, random) = (r("engines/alphabeta-d6.ron"), r("engines/random.ron"));
    let (features, squares) = (
        r("engines/weights/features-fit.ron"),
        r("engines/weights/squares-classic.ron"),
    );
    let bad_book = dir.join("bad.txt");
    std::fs::write(&bad_book, "x\n").unwrap();
    let book = bad_book.to_str().unwrap();
    let fit = ["probcut", "fit", "--engine", &engine, "--out", out];
    let cases: Vec<(Vec<&str>, i32, String)> = vec![
        (
            [&fit[..], &["--pairs", "5:7"]].concat(),
            2,
            "--pairs: \"5:7\" is not deep:shallow with 1 <= deep <= 20 and shallow < deep".into(),
        ),
        (
            [&fit[..], &["--stages", "10,20,0"]].concat(),
            2,
            "--stages: [10, 20, 0]: give empties bounds strictly decreasing and ending at 0"
                .into(),
        ),
        (
            [&fit[..], &["--confidence", "11"]].concat(),
            2,
            "--confidence: 11 is not a number from 0 to 10".into(),
        ),
        (
            vec!["probcut", "check", "--engine", &random],
            1,
            format!("--engine: {random} is the random mover; ProbCut needs a searching engine"),
        ),
        (
            vec!["probcut", "fit-endgame", "--stages", "14", "--out", out],
            2,
            "--stages: \"14\" is not empties:shallow with 8 <= empties <= 26 and shallow <= 12, below empties".into(),
        ),
        (
            vec!["eval", "fit", "--base", &features, "--out", &features],
            1,
            "--out: would overwrite the base weights; write the fit to a new file".into(),
        ),
        (
            vec!["eval", "fit", "--base", &squares, "--out", out],
            1,
            format!("--base: {squares} is not a Features or Patterns weights file (only those are fitted)"),
        ),
        (
            vec!["eval", "fit", "--base", &features, "--ridge=-1", "--out", out],
            2,
            "--ridge: -1 is not a number >= 0".into(),
        ),
        (
            vec!["match", &engine, &random, "--games", "2", "--book", book, "--out", out],
            2,
            format!("--book: file: {book}: line 1: \"x\": position string has 1 squares, expected 64"),
        ),
    ];
    for (args, code, expected) in cases {
        let got = arena(&args);
        assert_eq!(got.status.code(), Some(code), "{args:?}: {}", stderr(&got));
        assert_eq!(stderr(&got), format!("error: {expected}\n"), "{args:?}");
    }
}

#[test]
fn rounds_of_an_sprt_and_a_model_without_an_exact_pair_name_their_flags() {
    let dir = tmp("flags-run");
    let sprt = dir.join("sprt.ron");
    std::fs::write(&sprt, shipped("configs/sprt-eval.ron")).unwrap();
    let out = dir.join("out");
    let got = arena(&[
        "run",
        sprt.to_str().unwrap(),
        "--rounds",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(got.status.code(), Some(2), "{}", stderr(&got));
    assert_eq!(
        stderr(&got),
        "error: --rounds: an SPRT plays pairs until it decides (max_pairs), not rounds\n"
    );
    let model = repo("engines/probcut/strong.ron").display().to_string();
    let obf = data("ffo/fforum-40-42.obf");
    let got = arena(&["solve", "--endcut", &model, obf.to_str().unwrap()]);
    assert_eq!(got.status.code(), Some(1), "{}", stderr(&got));
    assert_eq!(
        stderr(&got),
        format!("error: --endcut: {model}: no stage has an exact-score pair (deep: 60); fit one with arena probcut fit-endgame\n")
    );
}

#[test]
fn hints_name_the_flag_of_the_setting_to_change() {
    // A balanced book that keeps nothing says which option to raise, and a
    // database of something else which option to change: the library names
    // the setting (`max_abs`, `db`), the binary prints its flag.
    let dir = tmp("flags-hints");
    let engine = repo("engines/alphabeta-d6.ron").display().to_string();
    let book = dir.join("b.txt").display().to_string();
    let got = arena(&[
        "book",
        "generate",
        "--plies",
        "1",
        "--balanced",
        "--engine",
        &engine,
        "--depth",
        "2",
        "--max-abs",
        "0",
        "--out",
        &book,
    ]);
    assert_eq!(got.status.code(), Some(1), "{}", stderr(&got));
    assert_eq!(
        stderr(&got),
        format!(
            "error: none of the 4 openings searched scores within 0 discs of 0 with engine alphabeta-d6 at depth 2: \
             nothing written to {book}; raise --max-abs\n"
        )
    );
    let other = dir.join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE notes (text TEXT);")
        .unwrap();
    let other = other.display().to_string();
    let got = arena(&["history", "show", "--db", &other]);
    assert_eq!(got.status.code(), Some(1), "{}", stderr(&got));
    assert_eq!(
        stderr(&got),
        format!("error: {other}: not an arena history database (it holds other tables); give another --db file\n")
    );
}

#[test]
fn run_folder_hints_name_the_flags_that_help() {
    // The runner words what to do about a folder by the settings that do
    // it; the binary names their flags, as it always has.
    let dir = tmp("folder-hints");
    let config = repo("configs/tictactoe.ron").display().to_string();
    let at = |name: &str| dir.join(name).display().to_string();
    let (a, s) = (at("a"), at("s"));
    let run = |extra: &[&str]| arena(&[&["run", config.as_str(), "--quiet"][..], extra].concat());
    assert_eq!(run(&["--out", &a]).status.code(), Some(0));
    let refused = |got: std::process::Output, line: String| {
        assert_eq!(got.status.code(), Some(1), "{}", stderr(&got));
        assert_eq!(stderr(&got), format!("error: {line}\n"));
    };
    let other = run(&["--out", &a, "--seed", "2"]);
    let hashes = stderr(&other);
    let hashes = hashes
        .split_once("(hash ")
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(h, _)| h.to_string())
        .unwrap_or_default();
    refused(
        other,
        format!("{a} holds a run of another config (hash {hashes}): choose another output folder, or replace it with --overwrite"),
    );
    assert_eq!(run(&["--out", &s, "--shard", "1/2"]).status.code(), Some(0));
    refused(
        run(&["--out", &s, "--shard", "2/2"]),
        format!("{s} holds shard 1/2 of this config, not 2/2: choose another output folder, or replace it with --overwrite"),
    );
    let journal = dir.join("a/journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&journal, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    refused(
        run(&["--out", &a]),
        format!("{a} holds an unfinished run of this config (59 of 60 games played): continue it with --resume, or start afresh with --overwrite"),
    );
    refused(
        arena(&["merge", &s, "--out", &at("m")]),
        "shard 2/2 is missing; merge every shard, finished (resume the unfinished ones), or pass --allow-partial".into(),
    );
}

#[test]
fn every_command_s_help_says_what_it_writes_and_how_it_exits() {
    let commands = [
        "run", "match", "report", "merge", "status", "perft", "search", "bench", "solve", "eval",
        "tree", "stats", "serve", "train", "book", "probcut", "history", "watch",
    ];
    let subcommands = [
        "book check",
        "book generate",
        "book import",
        "probcut fit",
        "probcut check",
        "probcut fit-endgame",
        "history add",
        "history show",
        "history report",
        "eval fit",
        "eval convert",
        "stats wdl",
        "stats penta",
        "stats ratings",
    ];
    for c in commands.iter().chain(&subcommands) {
        let mut args: Vec<&str> = c.split(' ').collect();
        args.push("--help");
        let out = crate::util::arena(&args);
        assert!(out.status.success(), "{c}");
        let text = crate::util::stdout(&out);
        assert!(
            text.contains("Exit codes:")
                && text.contains("2 a bad command-line value")
                && text.contains("Writes"),
            "arena {c} --help:\n{text}"
        );
    }
    // The run's outputs, report.html among them, are named.
    let run = crate::util::stdout(&crate::util::arena(&["run", "--help"]));
    assert!(
        run.contains("report.html") && run.contains("130 stopped"),
        "{run}"
    );
}

/// A usage error clap finds is one line (its tip and the pointer to
/// `--help` on it too) with exit code 2, as every other error of arena is.
#[test]
fn clap_usage_errors_are_one_line_with_exit_2() {
    let config = crate::util::repo("configs/quick.ron");
    let c = config.to_str().unwrap();
    for args in [
        vec!["run", c, "--concurrency", "0"],
        vec!["search", "--depth", "0", "--position", "f5"],
        vec!["run", c, "--stop-grace", "-1s"],
        vec!["run"],
        vec!["run", c, "--no-such-flag"],
        vec!["no-such-command"],
    ] {
        let r = arena(&args);
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.trim_end().ends_with("try '--help')"), "{args:?}: {err}");
    }
    let r = arena(&["run", "--help"]);
    assert_eq!(r.status.code(), Some(0));
    assert!(stdout(&r).lines().count() > 3);
}
