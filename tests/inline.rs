//! Engines given on the command line, as cutechess-cli and fastchess take
//! them: an engine file with a field changed
//! (`engines/features-v1.ron:eval.weights=v2.ron`) and an external program
//! written out (`cmd=gtp-rhino arg=-l arg=1 proto=gtp`), through the real
//! binary run from a folder outside the repository, bounded in time.

use crate::grhino::gtp_rhino;
use crate::tournament::{games, players, tmp};
use crate::util::{arena_in_within, repo, stderr, stdout};
use arena::tournament::config::matchup::{match_tournament, MatchOptions};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The folder a run printed as its results' (relative to `dir`).
fn written_to(dir: &Path, out: &Output) -> PathBuf {
    let text = stdout(out);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Results written to "))
        .unwrap_or_else(|| panic!("no path in {text}\n{}", stderr(out)));
    dir.join(line)
}

#[test]
fn a_changed_engine_file_is_an_sprt_candidate_named_by_its_change() {
    let dir = tmp("inline-sprt");
    // The changed value is relative to the current folder.
    std::fs::copy(repo("engines/weights/features-v2.ron"), dir.join("v2.ron")).unwrap();
    let v1 = repo("engines/features-v1.ron");
    let candidate = format!("{}:eval.weights=v2.ron", s(&v1));
    let book = repo("openings/balanced-8ply.txt");
    let args = [
        "match",
        &candidate,
        s(&v1),
        "--sprt",
        "elo0=0",
        "elo1=20",
        "--depth",
        "2",
        "--book",
        s(&book),
    ];
    let r = arena_in_within(&dir, &args, Duration::from_secs(600));
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let out = written_to(&dir, &r);
    let folder = out.file_name().unwrap().to_str().unwrap();
    assert!(
        folder.starts_with("match-features-v1+weights=v2-vs-features-v1-"),
        "{folder}"
    );
    // features-v1 with v2's weights is features-v2 under another name: the
    // same verdict as tests/matchup.rs's SPRT of features-v2.
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["verdict"], "H0", "{results}");
    let g = games(&out);
    assert!(!g.is_empty());
    for r in &g {
        let names = players(r);
        assert_eq!(names, ["features-v1", "features-v1+weights=v2"]);
    }
}

#[test]
fn the_everyday_evaluation_comparison_is_one_command_that_decides() {
    // The issue's own command: the strong preset against itself with other
    // weights (the fitted ones, weaker than its trained ones at depth 4:
    // H0 in about 300 games, 40 s on one core of a 2-core EPYC).
    let dir = tmp("inline-strong");
    std::fs::copy(
        repo("engines/weights/patterns-fit.bin"),
        dir.join("new.bin"),
    )
    .unwrap();
    let strong = repo("engines/strong.ron");
    let candidate = format!("{}:eval.weights=new.bin", s(&strong));
    let args = [
        "match",
        &candidate,
        s(&strong),
        "--sprt",
        "elo0=0",
        "elo1=10",
        "--depth",
        "4",
        "--fail-on-h0",
    ];
    let r = arena_in_within(&dir, &args, Duration::from_secs(900));
    assert_eq!(r.status.code(), Some(3), "{}", stderr(&r));
    let out = written_to(&dir, &r);
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["verdict"], "H0", "{results}");
    assert!(
        stdout(&r).contains("Final results of strong+weights=new vs strong"),
        "{}",
        stdout(&r)
    );
}

#[test]
fn a_change_changes_the_fingerprint_and_name_sets_the_name() {
    let v1 = repo("engines/features-v1.ron");
    let options = MatchOptions {
        pairs: 1,
        limit: None,
        book: repo("openings/all-4ply.txt"),
        concurrency: 1,
        seed: 0,
        out: None,
        event: None,
        sprt: None,
        adjudicate: Default::default(),
        reference_nps: None,
    };
    let v2_weights = repo("engines/weights/features-v2.ron");
    let load =
        |a: &str| match_tournament(a, s(&v1), &options).unwrap_or_else(|e| panic!("{a}: {e}"));
    let plain = load(s(&v1));
    let weights = load(&format!("{}:eval.weights={}", s(&v1), s(&v2_weights)));
    let deeper = load(&format!("{}:limit=Depth(5)", s(&v1)));
    let named = load(&format!("{}:name=mine", s(&v1)));
    let hashes = [&plain.hash, &weights.hash, &deeper.hash, &named.hash];
    for (i, a) in hashes.iter().enumerate() {
        for b in &hashes[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert_eq!(plain.engine_names(), ["features-v1", "features-v1-2"]);
    assert_eq!(
        weights.engine_names(),
        ["features-v1+weights=features-v2", "features-v1"]
    );
    assert_eq!(deeper.engine_names()[0], "features-v1+limit=Depth(5)");
    assert_eq!(
        deeper.engines[0].limit(),
        Some(arena::search::Limit::Depth(5))
    );
    assert_eq!(named.engine_names(), ["mine", "features-v1"]);
    assert!(named
        .out
        .to_str()
        .unwrap()
        .starts_with("results/match-mine-vs-features-v1-"));
    // Several fields at once, a comma inside brackets belonging to the value.
    let two = load(&format!("{}:tt_mib=8,ordering=[HashMove,Killers]", s(&v1)));
    assert_eq!(
        two.engine_names()[0],
        "features-v1+tt_mib=8+ordering=[HashMove,Killers]"
    );
}

#[test]
fn a_program_written_out_plays_as_an_engine() {
    if gtp_rhino().is_none() {
        return;
    }
    let dir = tmp("inline-gtp");
    let ab = repo("engines/alphabeta-d6.ron");
    let args = [
        "match",
        "cmd=gtp-rhino arg=-l arg=1 proto=gtp",
        s(&ab),
        "--pairs",
        "2",
        "--concurrency",
        "1",
    ];
    // Level 1 and depth 6 take well under a second a game.
    let r = arena_in_within(&dir, &args, Duration::from_secs(300));
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let out = written_to(&dir, &r);
    let folder = out.file_name().unwrap().to_str().unwrap();
    assert!(
        folder.starts_with("match-gtp-rhino-vs-alphabeta-d6-"),
        "{folder}"
    );
    let g = games(&out);
    assert_eq!(g.len(), 4);
    for r in &g {
        let names = players(r);
        assert_eq!(names, ["alphabeta-d6", "gtp-rhino"]);
    }
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    for line in journal.lines().skip(1) {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["reason"], "game over", "{game}");
    }
}

#[test]
fn bad_engine_arguments_are_one_line_and_write_nothing() {
    let dir = tmp("inline-bad");
    let v1 = repo("engines/features-v1.ron");
    let random = repo("engines/random.ron");
    let changed = |fields: &str| format!("{}:{fields}", s(&v1));
    for (arg, says) in [
        (
            "cmd=sh proto=uci".to_string(),
            "proto=uci: arena speaks gtp or nboard",
        ),
        ("proto=gtp arg=-l".into(), "no cmd=PROGRAM"),
        ("cmd=sh arg=-l".into(), "no proto="),
        (
            "cmd=no-such-program-here proto=gtp".into(),
            "cmd=no-such-program-here: no such program in PATH",
        ),
        (
            "cmd=sh proto=gtp dir=no-such-folder".into(),
            "no such folder",
        ),
        (
            changed("eval.nope=1"),
            "`nope` is not a field of eval: Features",
        ),
        (changed("nope=1"), "`nope` is not a field of an engine"),
        (
            changed("nope.deeper=1"),
            "nope.deeper: nope is not written in the file",
        ),
        (
            changed("tt_mib.x=1"),
            "tt_mib is written 4, which has no fields",
        ),
        (
            changed("tt_mib=lots"),
            "tt_mib must be a whole number, got `lots`",
        ),
        (changed("eval.weights=missing.ron"), "missing.ron"),
        (changed("name="), "name= needs a value"),
        (
            format!("{}:tt_mib=1", s(&dir.join("none.ron"))),
            "not found",
        ),
    ] {
        let r = arena_in_within(&dir, &["match", &arg, s(&random)], Duration::from_secs(60));
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(2), "{arg}: {err}");
        assert_eq!(err.lines().count(), 1, "{arg}: {err}");
        assert!(err.starts_with(&format!("error: {arg}: ")), "{arg}: {err}");
        assert!(err.contains(says), "{arg}: {err}");
        assert!(!dir.join("results").exists(), "{arg}: wrote results");
    }
}

#[test]
fn eval_and_serve_take_a_changed_engine_file() {
    let dir = tmp("inline-eval-serve");
    let (v1, v2) = (
        repo("engines/features-v1.ron"),
        repo("engines/features-v2.ron"),
    );
    let v2_weights = repo("engines/weights/features-v2.ron");
    let eval = |engine: &str| {
        let r = arena_in_within(
            &dir,
            &[
                "eval",
                "--engine",
                engine,
                "--position",
                "f5d6c3d3c4",
                "--json",
            ],
            Duration::from_secs(60),
        );
        assert!(r.status.success(), "{engine}: {}", stderr(&r));
        let v: serde_json::Value = serde_json::from_str(&stdout(&r)).unwrap();
        v
    };
    // features-v1 with v2's weights evaluates as features-v2.
    let changed = eval(&format!("{}:eval.weights={}", s(&v1), s(&v2_weights)));
    let file = eval(s(&v2));
    assert_eq!(changed["engine"], "features-v1+weights=features-v2");
    assert_eq!(changed["terms"], file["terms"]);
    assert_ne!(eval(s(&v1))["terms"], file["terms"]);

    // `arena serve` serves a changed file, started as a program written
    // out: features-v1 at depth 2, named by the argument, over NBoard.
    let served = format!(
        "cmd={} arg=serve arg=--engine arg={}:limit=Depth(2),name=served arg=--protocol arg=nboard proto=nboard",
        env!("CARGO_BIN_EXE_arena"),
        s(&v1)
    );
    let book = repo("openings/all-4ply.txt");
    let out = dir.join("served");
    let args = [
        "match",
        &served,
        s(&v1),
        "--games",
        "2",
        "--depth",
        "2",
        "--book",
        s(&book),
        "--out",
        s(&out),
        "--concurrency",
        "1",
        "--quiet",
    ];
    let r = arena_in_within(&dir, &args, Duration::from_secs(120));
    assert!(r.status.success(), "{}", stderr(&r));
    let g = games(&out);
    assert_eq!(g.len(), 2);
    for r in &g {
        let names = players(r);
        // The program's file stem names it (the served engine's own name
        // is for its protocol only).
        assert_eq!(names, ["arena", "features-v1"]);
    }
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    for line in journal.lines().skip(1) {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["reason"], "game over", "{game}");
    }
    let bad = arena_in_within(
        &dir,
        &[
            "serve",
            "--engine",
            &format!("{}:nope=1", s(&v1)),
            "--protocol",
            "nboard",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("`nope` is not a field of an engine"),
        "{}",
        stderr(&bad)
    );
}
