//! Tunes through the real binary, issue 67: the command a tune prints to
//! check itself plays both engines under the tune's limit and runs (an
//! engine file, a changed file, an inline engine, an external engine;
//! depth, node, move-time and clock limits); an integer parameter whose
//! perturbation falls below a half still plays two values and moves; a
//! process with more game threads than the tune keeps busy is warned; a
//! game two workers finished counts as the lowest worker ID played it, in a
//! worker's tuned.ron as in `arena report`.

use crate::tournament::{games, tmp};
use crate::util::{arena_in_within, repo, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longest any one command of these tests may take.
const LIMIT: Duration = Duration::from_secs(180);

/// A depth-3 engine (its own limit, which no tune here plays at).
const ENGINE: &str =
    "Engine(name: \"d\", search: AlphaBeta(fail: Soft), limit: Depth(3), eval: Discs, endgame_exact_at: 4)";

/// The tuned number of arena's own engine.
const PARAM: &str =
    r#"(field: "endgame_exact_at", start: 4, min: 0, max: 8, c_end: 1, r_end: 0.1)"#;

/// A tune config in `dir/tune.ron` of `engine` (as the config lists it)
/// and `params`, `format` the Spsa's settings after them, the config's
/// `limit` (`None` or `Some(...)`), at `concurrency`, into `dir/out`.
fn tune_config(
    dir: &Path,
    (engine, params): (&str, &str),
    format: &str,
    limit: &str,
    concurrency: usize,
) -> PathBuf {
    let text = format!(
        r#"Tournament(
    name: "checks",
    engines: [{engine}],
    format: Spsa(
        params: [{params}],
        {format}
    ),
    book: (file: {book:?}, order: Random),
    limit: {limit},
    concurrency: {concurrency},
    seed: 5,
    out: {out:?},
)
"#,
        book = repo("openings/all-4ply.txt").display(),
        out = dir.join("out").display(),
    );
    let path = dir.join("tune.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// `arena ARGS` from the repository's folder, bounded in time.
fn run(args: &[&str]) -> std::process::Output {
    arena_in_within(&repo(""), args, LIMIT)
}

/// The arguments after `arena` of the check command a run printed.
fn printed_check(text: &str) -> Vec<String> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("  arena match "))
        .unwrap_or_else(|| panic!("no check command in:\n{text}"));
    let mut args = vec!["match".to_string()];
    args.extend(line.split_whitespace().map(str::to_string));
    args
}

/// The limit each engine of the run in `out` played with, as its record
/// (`tournament.json`) keeps the config.
fn limits(out: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    let info: Value = serde_json::from_str(&text).unwrap();
    let engines = info["config"]["engines"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    engines
        .iter()
        .map(|e| match e.get("engine") {
            Some(inner) => inner["limit"].clone(),
            None => e["external"]["limit"].clone(),
        })
        .collect()
}

/// The kinds of engine a tune names.
#[derive(Clone, Copy, Debug)]
enum Kind {
    File,
    Arg,
    Inline,
    External,
}

/// Writes the engine files of `kind` into `dir`: the config's engine entry
/// and the tune's parameter.
fn engine_of(dir: &Path, kind: Kind) -> (String, &'static str) {
    let file = dir.join("d.ron");
    std::fs::write(&file, ENGINE).unwrap();
    match kind {
        Kind::File => (format!("Path({:?})", file.display().to_string()), PARAM),
        Kind::Arg => (format!("Arg(\"{}:seed=7\")", file.display()), PARAM),
        Kind::Inline => (format!("Inline({ENGINE})"), PARAM),
        Kind::External => {
            let served = dir.join("served.ron");
            let text = format!(
                "External(name: \"d\", command: {:?}, args: [\"serve\", \"--engine\", \"{}:endgame_exact_at={{eea}}\", \"--protocol\", \"nboard\"], protocol: Nboard, limit: Some(Depth(3)))",
                env!("CARGO_BIN_EXE_arena"),
                file.display()
            );
            std::fs::write(&served, text).unwrap();
            (
                format!("Path({:?})", served.display().to_string()),
                r#"(field: "eea", start: 4, min: 0, max: 8, c_end: 1, r_end: 0.1)"#,
            )
        }
    }
}

/// Tunes an engine of `kind` under `limit` (`flag` the `arena match` flag
/// that says it), then runs the check the tune printed, one pair: both
/// engines play under the tune's limit, and the check runs.
fn check_runs(name: &str, kind: Kind, limit: arena::search::Limit, flag: [&str; 2]) {
    let dir = tmp(&format!("tune-check-{name}"));
    let engine = engine_of(&dir, kind);
    let limit_text = format!("Some({})", ron::to_string(&limit).unwrap());
    let config = tune_config(
        &dir,
        (&engine.0, engine.1),
        "iterations: 2,",
        &limit_text,
        2,
    );
    let tune = run(&["run", config.to_str().unwrap()]);
    assert!(tune.status.success(), "{name}: {}", stderr(&tune));
    let mut args = printed_check(&stdout(&tune));
    let at = args.iter().position(|a| a == flag[0]);
    assert!(
        at.is_some_and(|i| args.get(i + 1).map(String::as_str) == Some(flag[1])),
        "{name}: no {flag:?} in {args:?}"
    );
    let most = args.iter().position(|a| a == "--max-pairs").unwrap() + 1;
    args[most] = "1".into();
    let out = dir.join("check");
    for more in [
        "--out",
        out.to_str().unwrap(),
        "--concurrency",
        "2",
        "--quiet",
    ] {
        args.push(more.to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let check = run(&args);
    assert!(
        check.status.success(),
        "{name}: {args:?}: {}",
        stderr(&check)
    );
    assert_eq!(games(&out).len(), 2, "{name}: one pair");
    let want = serde_json::to_value(limit).unwrap();
    assert_eq!(limits(&out), vec![want.clone(), want], "{name}");
    if matches!(kind, Kind::External | Kind::Arg | Kind::Inline) {
        let base = std::fs::read_to_string(dir.join("out/base.ron")).unwrap();
        assert!(!base.contains("{eea}"), "{name}: {base}");
    }
}

#[test]
fn the_printed_check_of_a_tune_plays_under_its_depth_for_every_kind_of_engine() {
    use arena::search::Limit;
    for (name, kind) in [
        ("file", Kind::File),
        ("arg", Kind::Arg),
        ("inline", Kind::Inline),
        ("external", Kind::External),
    ] {
        check_runs(name, kind, Limit::Depth(1), ["--depth", "1"]);
    }
}

#[test]
fn the_printed_check_of_a_tune_plays_under_its_nodes_move_time_or_clock() {
    use arena::search::Limit;
    check_runs(
        "file-nodes",
        Kind::File,
        Limit::Nodes(300),
        ["--nodes", "300"],
    );
    check_runs(
        "inline-nodes",
        Kind::Inline,
        Limit::Nodes(300),
        ["--nodes", "300"],
    );
    check_runs(
        "arg-movetime",
        Kind::Arg,
        Limit::MoveTime(5),
        ["--movetime", "5"],
    );
    check_runs(
        "file-clock",
        Kind::File,
        Limit::Clock(400, 4),
        ["--tc", "0.4+0.004"],
    );
    let slow = ["--movetime", "300"];
    check_runs(
        "external-movetime",
        Kind::External,
        Limit::MoveTime(300),
        slow,
    );
}

#[test]
fn arena_match_takes_a_node_limit_for_both_engines_and_refuses_it_for_a_program() {
    let dir = tmp("match-nodes");
    let (a, book) = (
        repo("engines/alphabeta-d6.ron"),
        repo("openings/all-4ply.txt"),
    );
    let out = dir.join("m");
    let (a, book, out_text) = (
        a.to_str().unwrap(),
        book.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let args = [
        "match", a, a, "--pairs", "1", "--nodes", "500", "--book", book,
    ];
    let mut played = args.to_vec();
    played.extend(["--out", out_text, "--quiet"]);
    let r = run(&played);
    assert!(r.status.success(), "{}", stderr(&r));
    let want = serde_json::to_value(arena::search::Limit::Nodes(500)).unwrap();
    assert_eq!(limits(&out), vec![want.clone(), want]);
    // Both are forced limits: one at a time.
    let mut two = args.to_vec();
    two.extend(["--depth", "2"]);
    let r = run(&two);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    // A program cannot be told a node limit: the flag is named.
    let program = format!("cmd={} arg=serve proto=nboard", env!("CARGO_BIN_EXE_arena"));
    let r = run(&[
        "match", &program, a, "--pairs", "1", "--nodes", "500", "--book", book,
    ]);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--nodes") && err.contains("Nodes(n) cannot be sent"),
        "{err}"
    );
}

#[test]
fn an_integer_whose_perturbation_falls_below_a_half_plays_two_values_and_moves() {
    let dir = tmp("tune-small-c");
    let engine = "Inline(Engine(name: \"d1\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs, endgame_exact_at: 10))";
    // c_end 0.3 over 20 iterations: c_k is 0.41 at the first and falls.
    let param = r#"(field: "endgame_exact_at", start: 10, min: 0, max: 14, c_end: 0.3, r_end: 2)"#;
    let format = "iterations: 20, pairs_per_iteration: 2, delay: 1,";
    let config = tune_config(&dir, (engine, param), format, "None", 2);
    let out = run(&["run", config.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let g = games(&dir.join("out"));
    assert_eq!(g.len(), 80);
    for r in &g {
        let t = r.tune.as_ref().expect("a tune's game");
        assert_ne!(
            t.black, t.white,
            "game {} played one value on both sides",
            r.game_id
        );
        assert!((t.black[0] - t.white[0]).abs() >= 1.0, "game {}", r.game_id);
    }
    let text = std::fs::read_to_string(dir.join("out/results.json")).unwrap();
    let results: Value = serde_json::from_str(&text).unwrap();
    let value = results["tune"]["params"][0]["value"].as_f64().unwrap();
    assert_ne!(value, 10.0, "θ never moved");
}

#[test]
fn a_process_with_more_threads_than_the_tune_keeps_busy_is_warned_once() {
    let dir = tmp("tune-idle");
    let engine =
        "Inline(Engine(name: \"d1\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs))";
    let param = r#"(field: "time.increment_share", start: 0.75, min: 0.2, max: 1.0, c_end: 0.05, r_end: 0.02)"#;
    // delay 0, one pair an iteration: at most 2 games at once.
    let config = tune_config(&dir, (engine, param), "iterations: 2, delay: 0,", "None", 4);
    let config = config.to_str().unwrap();
    let tune_warnings = |out: &std::process::Output| -> Vec<String> {
        assert!(out.status.success(), "{}", stderr(out));
        let err = stderr(out);
        err.lines()
            .filter(|l| l.starts_with("warning: tune:"))
            .map(str::to_string)
            .collect()
    };
    let out_dir = dir.join("alone");
    let alone = run(&["run", config, "--out", out_dir.to_str().unwrap(), "--quiet"]);
    let said = tune_warnings(&alone);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("concurrency 4 "), "{}", said[0]);
    assert!(said[0].contains("at most 2 games"), "{}", said[0]);
    assert!(said[0].contains("delay") && said[0].contains("pairs_per_iteration"));
    // Two threads are kept busy: nothing to say.
    let two = dir.join("two");
    let busy = run(&[
        "run",
        config,
        "--out",
        two.to_str().unwrap(),
        "--concurrency",
        "2",
    ]);
    assert_eq!(tune_warnings(&busy), Vec::<String>::new());
    // A worker knows its own threads.
    let shared = dir.join("shared");
    let shared = shared.to_str().unwrap();
    let worker = [
        "run",
        config,
        "--out",
        shared,
        "--worker",
        "a",
        "--concurrency",
        "3",
    ];
    let said = tune_warnings(&run(&worker));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("concurrency 3 "), "{}", said[0]);
}

/// The tuned value of `time.increment_share` in `results.json` of `out`.
fn reported(out: &Path) -> f64 {
    let text = std::fs::read_to_string(out.join("results.json")).unwrap();
    let results: Value = serde_json::from_str(&text).unwrap();
    results["tune"]["params"][0]["value"].as_f64().unwrap()
}

/// Writes worker `a`'s journal in `shared`: worker `b`'s record of game
/// `id`, lost on time by θ+ where b's θ+ did not lose, or by θ− where it
/// did (as a claim taken over under a clock can end), and a's claim of
/// its pair, taken over from b.
fn another_record(shared: &Path, id: u64) {
    let text = std::fs::read_to_string(shared.join("workers/b/journal.jsonl")).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let mut game: Value = lines
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|g| g["game_id"] == id)
        .unwrap();
    let black = game["black"].as_str().unwrap().to_string();
    let white = game["white"].as_str().unwrap().to_string();
    let result = game["result"].as_f64().unwrap();
    let plus_black = black.ends_with('+');
    let plus_points = if plus_black { result } else { 1.0 - result };
    let plus_loses = plus_points >= 0.5;
    // The side that loses on time: θ+ or θ−, by colour.
    let loser_black = plus_loses == plus_black;
    let loser = if loser_black { &black } else { &white };
    game["reason"] = Value::from(format!("time forfeit: {loser} (taken over)"));
    game["result"] = Value::from(if loser_black { 0.0 } else { 1.0 });
    game["disc_diff"] = Value::from(if loser_black { -64 } else { 64 });
    let a = shared.join("workers/a");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(a.join("journal.jsonl"), format!("{header}\n{game}\n")).unwrap();
    std::fs::write(shared.join(format!("claims/{}.1", id / 2)), "a\n").unwrap();
}

#[test]
fn a_game_two_workers_finished_counts_as_the_lowest_worker_id_played_it_everywhere() {
    let dir = tmp("tune-twice");
    let engine =
        "Inline(Engine(name: \"d1\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs))";
    let param = r#"(field: "time.increment_share", start: 0.75, min: 0.2, max: 1.0, c_end: 0.05, r_end: 0.02)"#;
    let config = tune_config(&dir, (engine, param), "iterations: 3, delay: 0,", "None", 1);
    let (config, shared) = (config.to_str().unwrap(), dir.join("shared"));
    let shared_text = shared.to_str().unwrap();
    let b = [
        "run",
        config,
        "--out",
        shared_text,
        "--worker",
        "b",
        "--quiet",
    ];
    let first = run(&b);
    assert!(first.status.success(), "{}", stderr(&first));
    let report = run(&["report", shared_text]);
    assert!(report.status.success(), "{}", stderr(&report));
    let by_b = reported(&shared);
    // Worker a (a lower ID than b) finished game 4 too, the first of the
    // last iteration (whose result no later game plays on), with another
    // result.
    another_record(&shared, 4);
    let report = run(&["report", shared_text]);
    assert!(report.status.success(), "{}", stderr(&report));
    let by_a = reported(&shared);
    assert_ne!(by_a, by_b, "a's record changed nothing");
    // Worker b again: its own record is read first, a's after it; the
    // tune it writes is the report's.
    let mut again = b.to_vec();
    again.push("--resume");
    let second = run(&again);
    assert!(second.status.success(), "{}", stderr(&second));
    let tuned = arena::engine::EngineConfig::load(&shared.join("tuned.ron")).unwrap();
    let share = tuned.searching().unwrap().settings.time.increment_share;
    assert_eq!(
        share, by_a,
        "worker b's tuned.ron against the report's {by_a} (b's own record gives {by_b})"
    );
}

/// A tune's bad settings, one line each naming the setting at fault, its
/// place in the config and no parser words: a negative or zero count says
/// the least it takes, too many pairs are blamed on the count that makes
/// them, overflowing gains on the schedule's setting, a huge bound is
/// shown short, a bound the engine refuses names no file of its own.
#[test]
fn a_tune_s_bad_settings_name_the_setting_at_fault_in_one_short_line() {
    let dir = tmp("tune-bad-settings");
    let pvs = "Engine(name: \"p\", search: Pvs, deepening: true, limit: Depth(2), ordering: [HashMove], tt_mib: 1, eval: Discs, aspiration: Some(50))";
    let cases = [
        (
            ENGINE,
            PARAM,
            "iterations: -5,",
            "iterations must be at least 1, got -5",
        ),
        (
            ENGINE,
            PARAM,
            "iterations: 0,",
            "iterations: must be at least 1",
        ),
        (
            ENGINE,
            PARAM,
            "iterations: 10, pairs_per_iteration: 1000000000000,",
            "pairs_per_iteration: 1000000000000 pairs an iteration",
        ),
        (
            ENGINE,
            PARAM,
            "iterations: 100000, pairs_per_iteration: 1000,",
            "iterations: 100000 iterations of 1000 pairs",
        ),
        (
            ENGINE,
            PARAM,
            "iterations: 10, a_ratio: 1e308,",
            "a_ratio: ",
        ),
        (
            pvs,
            r#"(field: "aspiration", start: 50, min: -1e300, max: 300, c_end: 10, r_end: 0.002)"#,
            "iterations: 10,",
            "min: aspiration = -1e300: the engine refuses it",
        ),
        (
            pvs,
            r#"(field: "tt_mib", start: 1, min: 0, max: 4, c_end: 1, r_end: 0.1)"#,
            "iterations: 10,",
            "min: tt_mib = 0: the engine refuses it: ordering: HashMove needs",
        ),
        (
            pvs,
            r#"(field: "search", start: 1, min: 0, max: 4, c_end: 1, r_end: 0.1)"#,
            "iterations: 10,",
            "field: the engine's field \"search\" is not a number",
        ),
    ];
    for (engine, params, format, want) in cases {
        let inline = format!("Inline({engine})");
        let config = tune_config(&dir, (&inline, params), format, "None", 1);
        let r = run(&["run", config.to_str().unwrap(), "--quiet"]);
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(1), "{format} {params}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("tune.ron:") && err.contains(want),
            "want {want:?}: {err}"
        );
        assert!(
            !err.contains("engine.ron") && !err.contains("expected"),
            "{err}"
        );
        assert!(err.len() < 300, "{} characters: {err}", err.len());
        assert!(!dir.join("out").exists());
    }
}
