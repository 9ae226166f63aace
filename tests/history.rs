//! `arena history`: runs stored across nights in an SQLite file, with the
//! real binary on real results folders: adding (twice is a no-op, a resumed
//! run replaces its earlier state), listing, the HTML report (one plot per
//! test name), a database of an older schema version, and the bad inputs
//! (one line each, exit 1 for files and 2 for a bad `--label`).

use crate::util::{repo, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

/// A fresh scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-history-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `arena` with `GITHUB_SHA` set to `sha`, or unset.
fn arena_sha(args: &[&str], sha: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args).env_remove("GITHUB_SHA");
    if let Some(s) = sha {
        cmd.env("GITHUB_SHA", s);
    }
    cmd.output().expect("the arena binary runs")
}

fn arena(args: &[&str]) -> Output {
    arena_sha(args, None)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    stdout(out)
}

/// `configs/quick.ron` for one round (3 engines, 6 games) into `dir/name`.
fn quick_run(dir: &Path, name: &str) -> PathBuf {
    let out = dir.join(name);
    let config = repo("configs/quick.ron");
    ok(&arena(&[
        "run",
        path(&config),
        "--rounds",
        "1",
        "--out",
        path(&out),
        "--quiet",
    ]));
    out
}

/// A tiny SPRT (a depth-1 weighted-squares player against the random
/// mover, at most 8 pairs) named `name`, into `dir/folder`.
fn sprt_run(dir: &Path, name: &str, folder: &str) -> PathBuf {
    let out = dir.join(folder);
    let r = |p: &str| repo(p).display().to_string();
    let config = dir.join(format!("{folder}.ron"));
    let text = format!(
        "Tournament(name: {name:?}, engines: [Path({:?}), Inline(Engine(name: \"squares\", \
         search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?})))], \
         format: Sprt(elo0: 0.0, elo1: 200.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 8), \
         book: (file: {:?}, order: Random, start: 0), seed: 3, out: {:?})",
        r("engines/random.ron"),
        r("engines/weights/squares-classic.ron"),
        r("openings/all-4ply.txt"),
        path(&out),
    );
    std::fs::write(&config, text).unwrap();
    ok(&arena(&["run", path(&config), "--quiet"]));
    out
}

/// Sets the time of the last game of a results folder (its journal's
/// modification time) to `days_ago` days before now.
fn age(folder: &Path, days_ago: u64) {
    let when = SystemTime::now() - Duration::from_secs(days_ago * 86_400);
    std::fs::File::options()
        .write(true)
        .open(folder.join("journal.jsonl"))
        .unwrap()
        .set_modified(when)
        .unwrap();
}

fn show_json(db: &Path) -> Value {
    let text = ok(&arena(&["history", "show", "--db", path(db), "--json"]));
    assert_eq!(text.lines().count(), 1, "one JSON object: {text}");
    serde_json::from_str(&text).unwrap()
}

fn runs(db: &Path) -> Vec<Value> {
    show_json(db)["runs"].as_array().unwrap().clone()
}

/// Exit code `code` and exactly one `error: ` line holding each needle.
fn one_line(out: &Output, code: i32, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} in {err}");
    }
}

#[test]
fn add_two_runs_then_again_show_and_report() {
    let dir = scratch("add");
    let quick = quick_run(&dir, "quick");
    let sprt = sprt_run(&dir, "squares-vs-random", "sprt");
    age(&sprt, 1);
    let db = dir.join("history.db");
    let out = arena_sha(
        &[
            "history",
            "add",
            path(&quick),
            path(&sprt),
            "--db",
            path(&db),
            "--label",
            "branch=main",
        ],
        Some("abc123"),
    );
    let text = ok(&out);
    assert_eq!(text.matches("added run").count(), 2, "{text}");

    let all = runs(&db);
    assert_eq!(all.len(), 2);
    // Oldest first: the SPRT's last game is a day older.
    let (s, q) = (&all[0], &all[1]);
    assert_eq!(s["name"], "squares-vs-random");
    assert_eq!(q["name"], "quick");
    for r in [s, q] {
        assert_eq!(r["labels"]["commit"], "abc123", "{r}");
        assert_eq!(r["labels"]["branch"], "main", "{r}");
        assert_eq!(r["status"], "complete");
        assert_eq!(r["games_digest"].as_str().unwrap().len(), 16);
    }
    // The stored head-to-head is results.json's.
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(sprt.join("results.json")).unwrap()).unwrap();
    let h = &results["head_to_head"];
    for key in [
        "games", "wins", "draws", "losses", "ptnml", "elo", "nelo", "llr", "verdict",
    ] {
        assert_eq!(s[key], h[key], "{key}");
    }
    assert_eq!(s["llr_upper"], h["upper_bound"]);
    assert_eq!(s["engines"].as_array().unwrap().len(), 2);
    // A three-engine run stores each engine's results and rating instead.
    assert!(q["elo"].is_null());
    let engines = q["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 3);
    assert!(engines
        .iter()
        .all(|e| e["games"] == 4 && e["elo"].is_number()));

    // The same folder again: nothing changes.
    let text = ok(&arena(&["history", "add", path(&quick), "--db", path(&db)]));
    assert!(text.starts_with("already stored as run"), "{text}");
    assert_eq!(runs(&db), all);

    let table = ok(&arena(&["history", "show", "--db", path(&db)]));
    assert_eq!(table.lines().count(), 3, "{table}");
    assert!(
        table.contains("squares-vs-random") && table.contains("commit=abc123"),
        "{table}"
    );

    let html = dir.join("history.html");
    let text = ok(&arena(&[
        "history",
        "report",
        "--db",
        path(&db),
        "--out",
        path(&html),
    ]));
    assert!(text.contains("2 runs of 2 tests"), "{text}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<figure class=\"elo\"").count(), 2);
    assert_eq!(page.matches("<svg").count(), 2);
    assert!(
        page.contains("data-test=\"quick\"") && page.contains("data-test=\"squares-vs-random\"")
    );
    assert!(!page.contains("<script"), "no scripts");
}

#[test]
fn a_resumed_run_replaces_its_earlier_state_and_another_run_is_new() {
    let dir = scratch("resume");
    let run = quick_run(&dir, "quick");
    let journal = run.join("journal.jsonl");
    let whole = std::fs::read_to_string(&journal).unwrap();
    // What a kill after three games leaves: the header and three games.
    let cut: Vec<&str> = whole.lines().take(4).collect();
    std::fs::write(&journal, cut.join("\n") + "\n").unwrap();
    let db = dir.join("h.db");
    let text = ok(&arena(&[
        "history",
        "add",
        path(&run),
        "--db",
        path(&db),
        "--label",
        "a=1",
    ]));
    assert!(
        text.contains("added run 1") && text.contains("3 games, in_progress"),
        "{text}"
    );

    let config = repo("configs/quick.ron");
    let args = [
        "run",
        path(&config),
        "--rounds",
        "1",
        "--out",
        path(&run),
        "--resume",
        "--quiet",
    ];
    ok(&arena(&args));
    let text = ok(&arena(&[
        "history",
        "add",
        path(&run),
        "--db",
        path(&db),
        "--label",
        "b=2",
    ]));
    assert!(
        text.contains("updated run 1") && text.contains("(3 -> 6 games, complete)"),
        "{text}"
    );
    let all = runs(&db);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["game_lines"], 6);
    assert_eq!(all[0]["labels"], serde_json::json!({"a": "1", "b": "2"}));

    // The same config played again elsewhere (another night) is a run of
    // its own: its games' times differ.
    let again = quick_run(&dir, "again");
    let text = ok(&arena(&["history", "add", path(&again), "--db", path(&db)]));
    assert!(text.contains("added run 2"), "{text}");
    assert_eq!(runs(&db).len(), 2);
}

#[test]
fn a_version_1_database_is_migrated_and_keeps_its_runs() {
    let dir = scratch("migrate");
    let db = dir.join("old.db");
    let fixture = std::fs::read_to_string(crate::util::data("history-v1.sql")).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(&fixture)
        .unwrap();

    let shown = show_json(&db);
    assert_eq!(shown["schema_version"], 2);
    let all = shown["runs"].as_array().unwrap();
    assert_eq!(all.len(), 2);
    let first = &all[0];
    assert_eq!(first["name"], "eval-v2-vs-v1");
    assert_eq!(first["verdict"], "H0");
    assert_eq!(first["elo"], -19.45);
    assert_eq!(first["ptnml"], serde_json::json!([80, 6, 149, 6, 63]));
    assert_eq!(first["labels"]["commit"], "c0ffee1");
    // Version 1 kept engine names only; version 2's columns are null.
    let names: Vec<&str> = first["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["features-v1", "features-v2"]);
    assert!(first["engines"][0]["games"].is_null() && first["nelo"].is_null());

    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 2);
    drop(conn);

    // The migrated database takes new runs and plots the old ones.
    let run = sprt_run(&dir, "eval-v2-vs-v1", "sprt");
    ok(&arena(&["history", "add", path(&run), "--db", path(&db)]));
    assert_eq!(runs(&db).len(), 3);
    let html = dir.join("h.html");
    ok(&arena(&[
        "history",
        "report",
        "--db",
        path(&db),
        "--out",
        path(&html),
    ]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), 1, "one test name, one plot");
    assert!(
        page.contains("c0ffee2") && page.contains("H1 accepted") && page.contains("H0 accepted")
    );
}

#[test]
fn bad_inputs_are_one_line() {
    let dir = scratch("bad");
    let run = quick_run(&dir, "quick");
    let db = dir.join("h.db");

    // Not a results folder: nothing is added, not even the good folder.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = arena(&[
        "history",
        "add",
        path(&run),
        path(&empty),
        "--db",
        path(&db),
    ]);
    one_line(
        &out,
        1,
        &[
            path(&empty),
            "not a results folder of arena (no tournament.json)",
        ],
    );
    assert_eq!(stdout(&out), "");
    assert!(!db.exists(), "nothing written when a folder is bad");

    // A label without '=' is a bad command-line value.
    let out = arena(&[
        "history",
        "add",
        path(&run),
        "--db",
        path(&db),
        "--label",
        "commit",
    ]);
    one_line(&out, 2, &["--label", "\"commit\": expected KEY=VALUE"]);
    let out = arena(&[
        "history",
        "add",
        path(&run),
        "--db",
        path(&db),
        "--label",
        "=x",
    ]);
    one_line(&out, 2, &["--label", "the key must be"]);

    // A file that is not a database, for each command.
    let bad = dir.join("bad.db");
    std::fs::write(
        &bad,
        "these are not the bytes of an SQLite file\n".repeat(200),
    )
    .unwrap();
    for args in [
        vec!["history", "add", path(&run), "--db", path(&bad)],
        vec!["history", "show", "--db", path(&bad)],
        vec![
            "history",
            "report",
            "--db",
            path(&bad),
            "--out",
            path(&dir.join("x.html")),
        ],
    ] {
        one_line(&arena(&args), 1, &[path(&bad), "file is not a database"]);
    }

    // A database of something else, one from a newer arena, a missing one.
    let other = dir.join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE notes (text TEXT);")
        .unwrap();
    let out = arena(&["history", "add", path(&run), "--db", path(&other)]);
    one_line(&out, 1, &[path(&other), "not an arena history database"]);
    let newer = dir.join("newer.db");
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA application_id = 1634887022; PRAGMA user_version = 99;")
        .unwrap();
    let out = arena(&["history", "show", "--db", path(&newer)]);
    one_line(
        &out,
        1,
        &[path(&newer), "schema version 99", "use a newer arena"],
    );
    let out = arena(&["history", "show", "--db", path(&dir.join("missing.db"))]);
    one_line(&out, 1, &["missing.db"]);
}
