//! `arena match` (a match without a config) and the `arena run` overrides.

use crate::tournament::{games, players, tmp};
use crate::util::{arena, repo, stderr, stdout};

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_match_from_the_command_line_plays_like_a_config() {
    let dir = tmp("match");
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/random.ron"),
    );
    let book = repo("openings/all-4ply.txt");
    let out = dir.join("m");
    let args = [
        "match",
        s(&a),
        s(&b),
        "--games",
        "6",
        "--depth",
        "2",
        "--book",
        s(&book),
        "--concurrency",
        "2",
        "--out",
        s(&out),
        "--quiet",
    ];
    let r = arena(&args);
    assert!(r.status.success(), "{}", stderr(&r));
    let g = games(&out);
    assert_eq!(g.len(), 6);
    assert!(g
        .iter()
        .all(|r| [r.black.as_str(), r.white.as_str()].contains(&"squares-classic")));
    // --depth replaced the preset's own depth (4): every searched move is 2 deep.
    assert!(g
        .iter()
        .flat_map(|r| r.depths.iter())
        .all(|&d| d.is_some_and(|d| d <= 2)));
    // The same command again shows the finished match.
    let again = arena(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(games(&out), g);

    let odd = arena(&["match", s(&a), s(&b), "--games", "7", "--book", s(&book)]);
    assert_eq!(odd.status.code(), Some(2));
    assert!(
        stderr(&odd).contains("--games: 7: games come in pairs"),
        "{}",
        stderr(&odd)
    );
    let tc = arena(&["match", s(&a), s(&b), "--tc", "fast", "--book", s(&book)]);
    assert_eq!(tc.status.code(), Some(2));
    // One engine file against itself (self-play, once refused since the
    // two names clashed): the second plays as NAME-2.
    let self_out = dir.join("self");
    let same = arena(&[
        "match",
        s(&a),
        s(&a),
        "--games",
        "2",
        "--depth",
        "1",
        "--book",
        s(&book),
        "--out",
        s(&self_out),
        "--quiet",
    ]);
    assert!(same.status.success(), "{}", stderr(&same));
    let g = games(&self_out);
    assert_eq!(g.len(), 2);
    for r in &g {
        let names = players(r);
        assert_eq!(names, ["squares-classic", "squares-classic-2"]);
    }
}

#[test]
fn run_overrides_rounds_and_seed() {
    let dir = tmp("run-overrides");
    let cfg = repo("configs/quick.ron");
    let out = dir.join("o");
    let r = arena(&[
        "run",
        s(&cfg),
        "--rounds",
        "1",
        "--seed",
        "9",
        "--out",
        s(&out),
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(games(&out).len(), 6, "3 meetings, 1 round, 2 games each");
    let sprt = repo("configs/sprt-eval.ron");
    let r = arena(&["run", s(&sprt), "--rounds", "2", "--out", s(&dir.join("x"))]);
    assert_eq!(r.status.code(), Some(2));
    assert!(stderr(&r).contains("--rounds"), "{}", stderr(&r));
}

/// `arena match` run in `dir` (a folder without the repository's files).
fn arena_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("arena runs")
}

#[test]
fn a_match_runs_from_any_folder_with_the_built_in_book() {
    let dir = tmp("match-anywhere");
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/random.ron"),
    );
    let args = [
        "match",
        s(&a),
        s(&b),
        "--games",
        "2",
        "--depth",
        "1",
        "--quiet",
    ];
    let r = arena_in(&dir, &args);
    assert!(r.status.success(), "{}", stderr(&r));
    let err = stderr(&r);
    let notes: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("built-in book"))
        .collect();
    assert_eq!(
        notes,
        ["note: no openings/balanced-8ply.txt here; playing the built-in book (2206 openings)"],
        "{err}"
    );
    let g = games(&only_folder(&dir.join("results")));
    assert_eq!(g.len(), 2);
    // Both games start from an 8-ply opening of the book, not the start.
    assert!(g.iter().all(|r| r.opening_plies == 8), "{g:?}");
    // A refused match stays one line: no note before the error.
    let missing = dir.join("none.ron");
    let bad = arena_in(&dir, &["match", s(&a), s(&missing)]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stderr(&bad).lines().count(), 1, "{}", stderr(&bad));
    // A book named on the command line is played without the note.
    let book = repo("openings/all-4ply.txt");
    let out2 = dir.join("m2");
    let named = arena_in(
        &dir,
        &[
            "match",
            s(&a),
            s(&b),
            "--games",
            "2",
            "--depth",
            "1",
            "--book",
            s(&book),
            "--out",
            s(&out2),
            "--quiet",
        ],
    );
    assert!(named.status.success(), "{}", stderr(&named));
    assert!(!stderr(&named).contains("built-in"), "{}", stderr(&named));
}

/// The one folder in `dir`.
fn only_folder(dir: &std::path::Path) -> std::path::PathBuf {
    let found: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found[0].clone()
}

#[test]
fn a_match_is_named_by_event_and_its_folder_by_its_settings() {
    let dir = tmp("match-event");
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/random.ron"),
    );
    let book = repo("openings/all-4ply.txt");
    let run = |more: &[&str]| {
        let mut args = vec!["match", s(&a), s(&b), "--depth", "1", "--book", s(&book)];
        args.extend_from_slice(more);
        let r = arena_in(&dir, &args);
        assert!(r.status.success(), "{}", stderr(&r));
        let text = stdout(&r);
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("Results written to "))
            .unwrap_or_else(|| panic!("no path in {text}"));
        dir.join(line)
    };
    let first = run(&["--games", "2"]);
    let name = first.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("match-squares-classic-vs-random-") && name.len() == 40,
        "{name}"
    );
    assert_eq!(games(&first).len(), 2);
    // Other settings: another folder, not a refusal by the old one.
    let more = run(&["--games", "4", "--event", "long run"]);
    assert_ne!(more, first);
    assert_eq!(games(&more).len(), 4);
    let summary = std::fs::read_to_string(more.join("summary.md")).unwrap();
    assert!(summary.starts_with("# long run\n"), "{summary}");
    // The same settings again: the same, finished folder.
    assert_eq!(run(&["--games", "2"]), first);
    let empty = arena_in(
        &dir,
        &["match", s(&a), s(&b), "--event", "", "--book", s(&book)],
    );
    assert_eq!(empty.status.code(), Some(2));
    assert_eq!(
        stderr(&empty).trim(),
        "error: --event: a tournament needs a non-empty name"
    );
}

#[test]
fn a_match_can_be_an_sprt_of_the_first_engine_that_stops_when_it_decides() {
    let dir = tmp("match-sprt");
    let (v1, v2) = (
        repo("engines/features-v1.ron"),
        repo("engines/features-v2.ron"),
    );
    let book = repo("openings/balanced-8ply.txt");
    let out = dir.join("sprt");
    let args = [
        "match",
        s(&v2),
        s(&v1),
        "--sprt",
        "elo0=0",
        "elo1=20",
        "--depth",
        "2",
        "--book",
        s(&book),
        "--out",
        s(&out),
        "--fail-on-h0",
        "--quiet",
    ];
    let r = arena(&args);
    assert_eq!(r.status.code(), Some(3), "{}", stderr(&r));
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["verdict"], "H0");
    // Stopped at the decision, long before the 5000 pairs it may play.
    let games = results["games"].as_u64().unwrap();
    assert!(games < 2000 && results["complete"] == true, "{results}");
    // The statistics are the first engine's (v2 is the weaker at depth 2).
    assert!(
        results["head_to_head"]["elo"].as_f64().unwrap() < 0.0,
        "{results}"
    );
    let report = arena(&["report", s(&out)]);
    assert!(
        stdout(&report).contains("Final results of features-v2 vs features-v1"),
        "{}",
        stdout(&report)
    );
    // Without --fail-on-h0 the same verdict exits 0; bad values exit 2.
    let r = arena(&[
        "match",
        s(&v2),
        s(&v1),
        "--sprt",
        "elo0=0",
        "elo1=20",
        "--depth",
        "2",
        "--book",
        s(&book),
        "--out",
        s(&dir.join("plain")),
        "--quiet",
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    for bad in [
        &["elo0=0", "elo1=x"][..],
        &["elo0=0", "gamma=1"],
        &["elo0=5", "elo1=0"],
    ] {
        let mut a = vec!["match", s(&v2), s(&v1), "--book", s(&book), "--sprt"];
        a.extend_from_slice(bad);
        let r = arena(&a);
        assert_eq!(r.status.code(), Some(2), "{bad:?}: {}", stderr(&r));
        assert!(stderr(&r).trim().lines().count() == 1, "{}", stderr(&r));
    }
}

/// The games of a folder without their timings and nodes (which no two
/// runs share), as comparable values.
fn moves_of(out: &std::path::Path) -> Vec<(u64, String, String, String)> {
    games(out)
        .into_iter()
        .map(|g| (g.game_id, g.black, g.white, g.moves))
        .collect()
}

#[test]
fn resume_extends_a_finished_match_and_its_games_so_far_come_first() {
    let dir = tmp("match-extend");
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/random.ron"),
    );
    let book = repo("openings/all-4ply.txt");
    let run = |games: &str, more: &[&str]| {
        let mut args = vec!["match", s(&a), s(&b), "--depth", "1", "--book", s(&book)];
        args.extend_from_slice(&["--games", games, "--quiet"]);
        args.extend_from_slice(more);
        arena_in(&dir, &args)
    };
    let folder = |r: &std::process::Output| -> std::path::PathBuf {
        let found: Vec<_> = std::fs::read_dir(dir.join("results"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(found.len(), 1, "one folder: {found:?} {}", stderr(r));
        found[0].clone()
    };
    let r = run("4", &[]);
    assert!(r.status.success(), "{}", stderr(&r));
    let out = folder(&r);
    let short = moves_of(&out);
    assert_eq!(short.len(), 4);
    // Longer without --resume: one line that says how to extend it.
    let r = run("8", &[]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let e = stderr(&r);
    assert!(
        e.lines().count() == 1
            && e.contains("holds this run with 2 pairs (this one has 4)")
            && e.contains("--resume"),
        "{e}"
    );
    assert_eq!(moves_of(&out), short, "the refused run wrote nothing");
    // With --resume: the same folder, the old games first, then the rest;
    // the same games as a longer run from scratch.
    let r = run("8", &["--resume"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(folder(&r), out);
    let long = moves_of(&out);
    assert_eq!(long.len(), 8);
    assert_eq!(long[..4], short[..]);
    let fresh = dir.join("fresh");
    let r = run("8", &["--out", s(&fresh)]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(moves_of(&fresh), long);
    // A report of the extended folder agrees with the fresh one.
    let report = |d: &std::path::Path| {
        let r = arena(&["report", s(d), "--json"]);
        assert!(r.status.success(), "{}", stderr(&r));
        let v: serde_json::Value = serde_json::from_str(&stdout(&r)).unwrap();
        (v["games"].clone(), v["config_hash"].clone())
    };
    assert_eq!(report(&out), report(&fresh));
    // Shorter is never a continuation.
    let r = run("4", &["--resume"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("holds a longer run of this config (4 pairs; this one has 2)"),
        "{}",
        stderr(&r)
    );
}

#[test]
fn resume_extends_a_finished_config_run_by_more_rounds() {
    let dir = tmp("run-extend");
    let out = dir.join("q");
    let config = repo("configs/quick.ron");
    let run = |rounds: &str, more: &[&str]| {
        let mut args = vec![
            "run",
            s(&config),
            "--out",
            s(&out),
            "--rounds",
            rounds,
            "--quiet",
        ];
        args.extend_from_slice(more);
        arena(&args)
    };
    let r = run("1", &[]);
    assert!(r.status.success(), "{}", stderr(&r));
    let r = run("2", &["--resume"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let fresh = dir.join("fresh");
    let r = arena(&[
        "run",
        s(&config),
        "--out",
        s(&fresh),
        "--rounds",
        "2",
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(moves_of(&out).len(), 12);
    assert_eq!(moves_of(&out), moves_of(&fresh));
}
