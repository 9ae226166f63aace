//! SPSA tunes through the real binary: the same trajectory and tuned.ron at
//! any concurrency and after a kill and resume, a toy tune whose answer is
//! known moving the right way, and every bad setting named.

use crate::tournament::{games, tmp};
use crate::util::{arena, repo, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tune of a depth-1 disc-counting engine's `endgame_exact_at` (more
/// exact solving can only help it), with `format` the Spsa's settings
/// after its parameter list; written in `dir`, playing into `dir/out`.
fn toy(dir: &Path, param: &str, format: &str) -> PathBuf {
    let text = format!(
        r#"Tournament(
    name: "toy",
    engines: [Inline(Engine(
        name: "d1",
        search: AlphaBeta(fail: Soft),
        limit: Depth(1),
        eval: Discs,
        endgame_exact_at: 4,
    ))],
    format: Spsa(
        params: [{param}],
        {format}
    ),
    book: (file: {book:?}, order: Random),
    concurrency: 2,
    seed: 3,
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

const PARAM: &str =
    r#"(field: "endgame_exact_at", start: 4, min: 0, max: 14, c_end: 1, r_end: 0.02)"#;

/// PARAM and a real-valued number (a clock number, which a depth-limited
/// engine never uses): its values go through the journal as decimals and
/// must read back as the very numbers the tune computes.
const PARAMS: &str = r#"(field: "endgame_exact_at", start: 4, min: 0, max: 14, c_end: 1, r_end: 0.02),
            (field: "time.increment_share", start: 0.75, min: 0.2, max: 1.0, c_end: 0.05, r_end: 0.02)"#;

fn run(config: &Path, out: &Path, more: &[&str]) -> std::process::Output {
    crate::util::run_quiet(config, out, more)
}

/// What must be equal between two runs of one tune: its games (by id),
/// its results' tune section and tuned.ron, byte for byte.
fn outcome(out: &Path) -> (Vec<String>, String, String) {
    let mut g = match std::fs::read_dir(out.join("workers")) {
        // A shared run: every worker's journal, each game once.
        Ok(entries) => {
            let mut all = Vec::new();
            for e in entries {
                let journal = e.unwrap().path().join("journal.jsonl");
                all.extend(arena::records::journal::read(&journal).unwrap().games);
            }
            all
        }
        Err(_) => games(out),
    };
    g.sort_by_key(|g| g.game_id);
    g.dedup_by_key(|g| g.game_id);
    let lines = g
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {} {:?}",
                g.game_id, g.black, g.white, g.moves, g.tune
            )
        })
        .collect();
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let tuned = std::fs::read_to_string(out.join("tuned.ron")).unwrap();
    (lines, results["tune"].to_string(), tuned)
}

#[test]
fn a_tune_is_the_same_at_any_concurrency_and_after_a_kill_and_resume() {
    let dir = tmp("tune-same");
    let config = toy(
        &dir,
        PARAMS,
        "iterations: 60, pairs_per_iteration: 2, delay: 3,",
    );
    let one = dir.join("c1");
    let out = run(&config, &one, &["--concurrency", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let two = dir.join("c2");
    let out = run(&config, &two, &["--concurrency", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let reference = outcome(&one);
    assert_eq!(reference.0.len(), 240);
    assert_eq!(outcome(&two), reference);

    let killed = dir.join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", config.to_str().unwrap(), "--out"])
        .arg(&killed)
        .arg("--quiet")
        .spawn()
        .unwrap();
    let journal = killed.join("journal.jsonl");
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(20) {
        let n = std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count());
        if n > 30 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let played = arena::records::journal::read(&journal).unwrap().games.len();
    assert!(
        played < 240,
        "the kill came before the end ({played} games)"
    );
    let out = run(&config, &killed, &["--resume", "--concurrency", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(outcome(&killed), reference);
}

#[test]
fn a_toy_tune_raises_a_setting_that_only_helps() {
    let dir = tmp("tune-toy");
    let param = r#"(field: "endgame_exact_at", start: 2, min: 0, max: 12, c_end: 1, r_end: 0.1)"#;
    let config = toy(
        &dir,
        param,
        "iterations: 100, pairs_per_iteration: 2, delay: 4,",
    );
    let out = run(&config, &dir.join("out"), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/results.json")).unwrap())
            .unwrap();
    let tune = &results["tune"];
    assert_eq!(tune["iterations_done"], 100);
    let value = tune["params"][0]["value"].as_f64().unwrap();
    assert!(value > 8.0, "endgame_exact_at went from 2 to {value}");
    let tuned = std::fs::read_to_string(dir.join("out/tuned.ron")).unwrap();
    let written = format!("endgame_exact_at: {},", value.round());
    assert!(tuned.contains(&written), "{tuned}");
    assert!(tuned.contains("name: \"d1-tuned\""), "{tuned}");
    // A tune's folder goes into the history database like any run's.
    let db = dir.join("history.db");
    let add = arena(&[
        "history",
        "add",
        dir.join("out").to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(add.status.success(), "{}", stderr(&add));
    // The report plots the parameter and tables its start and value.
    let html = std::fs::read_to_string(dir.join("out/report.html")).unwrap();
    assert!(html.contains("<section id=\"tune\">"), "no tune section");
    assert!(html.contains("tune-0"), "no figure of the parameter");
    assert!(html.contains("<code>endgame_exact_at</code>"));
    // tuned.ron is an engine file arena reads.
    let tuned_file = dir.join("out/tuned.ron");
    let check = arena(&["search", "--engine", tuned_file.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn a_tune_prints_its_values_and_the_command_that_checks_it() {
    let dir = tmp("tune-lines");
    let config = toy(&dir, PARAM, "iterations: 20, delay: 1,");
    let out = arena(&["run", config.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Tune: 20 of 20 iterations applied"), "{text}");
    assert!(text.contains("endgame_exact_at  4 -> "), "{text}");
    assert!(text.contains("--depth 1 --sprt elo0=0 elo1=5"), "{text}");
}

#[test]
fn every_bad_tune_setting_is_one_line_naming_its_field_and_nothing_is_written() {
    let dir = tmp("tune-bad");
    let p = |changes: &str| -> String {
        let mut s = PARAM.to_string();
        for change in changes.split(';').filter(|c| !c.is_empty()) {
            let (from, to) = change.split_once("=>").unwrap();
            s = s.replace(from, to);
        }
        s
    };
    let format = "iterations: 10, delay: 2,";
    let cases: Vec<(String, &str, &str)> = vec![
        (
            p("endgame_exact_at\"=>exact\""),
            format,
            "field: the engine has no field \"exact\"",
        ),
        (
            p("endgame_exact_at\"=>search\""),
            format,
            "field: the engine's field \"search\" is not a number",
        ),
        (
            p("min: 0=>min: 14"),
            format,
            "min: min 14 must be below max 14",
        ),
        (
            p("start: 4=>start: 20"),
            format,
            "start: 20 is outside [0, 14]",
        ),
        (p("c_end: 1=>c_end: 0"), format, "c_end: 0 must be above 0"),
        (
            p("r_end: 0.02=>r_end: -1"),
            format,
            "r_end: -1 must be above 0",
        ),
        (
            p("min: 0=>min: 0.5"),
            format,
            "an integer field's bounds must be integers",
        ),
        (p(""), "iterations: 0,", "iterations: must be at least 1"),
        (
            p(""),
            "iterations: 10, delay: 10,",
            "delay: 10 is not less than iterations (10)",
        ),
        (
            format!("{}, {}", p(""), p("")),
            format,
            "field: \"endgame_exact_at\" is listed twice",
        ),
        (
            p(""),
            "iterations: 10, pairs_per_iteration: 0,",
            "pairs_per_iteration: must be at least 1",
        ),
    ];
    for (i, (param, format, said)) in cases.iter().enumerate() {
        let case = dir.join(format!("case{i}"));
        std::fs::create_dir_all(&case).unwrap();
        let config = toy(&case, param, format);
        let out = arena(&["run", config.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{param} {format}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("tune.ron:1"), "{err}");
        assert!(err.contains(said), "{param} {format}: {err}");
        assert!(!case.join("out").exists(), "{param}: wrote its folder");
    }
    // Two engines, or a shard, are refused.
    let config = toy(&dir, PARAM, format);
    let random = format!(
        "engines: [Path({:?}), ",
        repo("engines/random.ron").display()
    );
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("engines: [", &random);
    std::fs::write(&config, text).unwrap();
    let out = arena(&["run", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("engines:"), "{}", stderr(&out));
    let config = toy(&dir, PARAM, format);
    let out = arena(&["run", config.to_str().unwrap(), "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--shard"), "{}", stderr(&out));
    let out = arena(&["run", config.to_str().unwrap(), "--rounds", "3"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// Starts worker `id` of the run `config` in `out`, at concurrency 1, its
/// output in `dir/worker-ID.log`.
fn worker(config: &Path, out: &Path, dir: &Path, id: &str) -> std::process::Child {
    let log = std::fs::File::create(dir.join(format!("worker-{id}.log"))).unwrap();
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", config.to_str().unwrap(), "--out"])
        .arg(out)
        .args(["--worker", id, "--concurrency", "1"])
        .stdin(std::process::Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap()
}

/// Waits (bounded) for every worker to exit 0.
fn all_succeed(children: &mut [std::process::Child], dir: &Path) {
    let began = Instant::now();
    for child in children.iter_mut() {
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if began.elapsed() > Duration::from_secs(120) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("a worker ran past 2 minutes");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let logs: String = ["a", "b", "c"]
            .iter()
            .map(|id| {
                std::fs::read_to_string(dir.join(format!("worker-{id}.log"))).unwrap_or_default()
            })
            .collect();
        assert!(status.success(), "{status}\n{logs}");
    }
}

#[test]
fn one_worker_and_three_workers_give_the_one_machine_tune() {
    let dir = tmp("tune-workers");
    let config = toy(
        &dir,
        PARAMS,
        "iterations: 40, pairs_per_iteration: 2, delay: 3,",
    );
    let one = dir.join("one");
    let out = run(&config, &one, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let reference = outcome(&one);
    for ids in [&["a"][..], &["a", "b", "c"][..]] {
        let shared = dir.join(format!("workers-{}", ids.len()));
        let mut children: Vec<_> = ids
            .iter()
            .map(|id| worker(&config, &shared, &dir, id))
            .collect();
        all_succeed(&mut children, &dir);
        let report = arena(&["report", shared.to_str().unwrap()]);
        assert!(report.status.success(), "{}", stderr(&report));
        assert_eq!(outcome(&shared), reference, "{} workers", ids.len());
        let status = arena(&["status", shared.to_str().unwrap()]);
        assert!(
            stdout(&status).contains("Tune: iteration 40/40: endgame_exact_at="),
            "{}",
            stdout(&status)
        );
    }
}

#[test]
fn a_tune_of_clock_numbers_and_probcut_confidence_writes_them_into_tuned_ron() {
    let dir = tmp("tune-fields");
    let text = format!(
        r#"Tournament(
    name: "fields",
    engines: [Path({strong:?})],
    format: Spsa(
        params: [
            (field: "time.increment_share", start: 0.6, min: 0.3, max: 1.0, c_end: 0.05, r_end: 2.0),
            (field: "probcut_confidence", start: 1.75, min: 0.8, max: 3.0, c_end: 0.1, r_end: 2.0),
        ],
        iterations: 3, delay: 1,
    ),
    book: (file: {book:?}, order: Random),
    limit: Some(Depth(2)),
    seed: 5,
    out: {out:?},
)
"#,
        strong = repo("engines/strong.ron").display(),
        book = repo("openings/all-4ply.txt").display(),
        out = dir.join("out").display(),
    );
    let config = dir.join("tune.ron");
    std::fs::write(&config, text).unwrap();
    let out = run(&config, &dir.join("out"), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/results.json")).unwrap())
            .unwrap();
    let value = |i: usize| results["tune"]["params"][i]["value"].as_f64().unwrap();
    // Values other than the file's (starts other than its), whether or not
    // three iterations at depth 2 moved them.
    // strong.ron writes the share; the confidence is its ProbCut file's.
    let (share, confidence) = (0.75, 1.5);
    assert!(
        value(0) != share && value(1) != confidence,
        "{}",
        results["tune"]
    );
    let tuned = std::fs::read_to_string(dir.join("out/tuned.ron")).unwrap();
    // strong.ron's comments are kept, its own share is replaced where it
    // is written, and the confidence it leaves out is added.
    assert!(tuned.contains("// The strong preset"), "{tuned}");
    assert!(
        !tuned.contains(&format!("increment_share: {share},")),
        "{tuned}"
    );
    assert_eq!(tuned.matches("probcut_confidence:").count(), 1, "{tuned}");
    assert!(
        tuned.contains(&format!("increment_share: {}", value(0))),
        "{tuned}"
    );
    assert!(
        tuned.contains(&format!("probcut_confidence: Some({})", value(1))),
        "{tuned}"
    );
    let e = arena::engine::EngineConfig::load(&dir.join("out/tuned.ron")).unwrap();
    let s = e.searching().unwrap();
    assert_eq!(s.settings.time.increment_share, value(0));
    assert_eq!(s.probcut.as_ref().unwrap().confidence, value(1));
}

#[test]
fn an_inline_or_changed_engine_is_written_out_whole_with_its_weights_found() {
    let dir = tmp("tune-inline");
    std::fs::copy(repo("engines/weights/features-v1.ron"), dir.join("w.ron")).unwrap();
    let param = r#"(field: "endgame_exact_at", start: 4, min: 0, max: 8, c_end: 1, r_end: 0.1)"#;
    let config = toy(&dir, param, "iterations: 4,");
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("eval: Discs", "eval: Features(weights: \"w.ron\")");
    std::fs::write(&config, text).unwrap();
    let out = arena(&["run", config.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("out/base.ron --depth 1 --sprt"),
        "{}",
        stdout(&out)
    );
    for file in ["tuned.ron", "base.ron"] {
        let e = arena::engine::EngineConfig::load(&dir.join("out").join(file));
        assert!(e.is_ok(), "{file}: {}", e.unwrap_err());
    }
    // A changed file: its changes are kept in tuned.ron, and the check
    // names it as the config does.
    let changed = format!(
        "Arg(\"{}:tt_mib=2\")",
        repo("engines/pvs-tt-d8.ron").display()
    );
    let text = std::fs::read_to_string(&config).unwrap();
    let start = text.find("Inline(").unwrap();
    let end = text.find("))],").unwrap() + 2;
    std::fs::write(
        &config,
        format!("{}{changed}{}", &text[..start], &text[end..]),
    )
    .unwrap();
    let out = arena(&["run", config.to_str().unwrap(), "--overwrite"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("out/base.ron --depth 8 --sprt"),
        "{}",
        stdout(&out)
    );
    let e = arena::engine::EngineConfig::load(&dir.join("out/tuned.ron")).unwrap();
    assert_eq!(e.searching().unwrap().tt_mib, 2);
}

#[test]
fn a_resumed_journal_whose_values_are_not_the_tunes_is_refused() {
    let dir = tmp("tune-tampered");
    let config = toy(&dir, PARAM, "iterations: 10, delay: 1,");
    let out_dir = dir.join("out");
    let out = run(&config, &out_dir, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Keep the first 6 games, the fourth with other values.
    let journal = out_dir.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().take(7).map(str::to_string).collect();
    let (from, to) = ("\"black\":[", "\"black\":[99.0,");
    assert!(lines[4].contains(from));
    lines[4] = lines[4].replacen(from, to, 1);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let out = run(&config, &out_dir, &["--resume"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("journal.jsonl"), "{err}");
}

#[test]
fn an_external_engine_is_tuned_through_its_placeholders_as_in_process() {
    let dir = tmp("tune-external");
    let engine = dir.join("d1.ron");
    std::fs::write(
        &engine,
        "Engine(name: \"d1\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs, endgame_exact_at: 4)",
    )
    .unwrap();
    let external = dir.join("served.ron");
    let serve_args = |placeholder: &str| {
        format!(
            "[\"serve\", \"--engine\", \"{}:endgame_exact_at={placeholder}\", \"--protocol\", \"nboard\"]",
            engine.display()
        )
    };
    let write_external = |args: String| {
        let text = format!(
            "External(name: \"d1\", command: {:?}, args: {args}, protocol: Nboard, limit: Some(Depth(1)))",
            env!("CARGO_BIN_EXE_arena")
        );
        std::fs::write(&external, text).unwrap();
    };
    write_external(serve_args("{eea}"));
    let tune = |file: &Path, field: &str, out: &str| {
        let param = PARAM.replace("endgame_exact_at", field);
        let config = toy(&dir, &param, "iterations: 8, delay: 1,");
        let text = std::fs::read_to_string(&config).unwrap();
        let start = text.find("Inline(").unwrap();
        let end = text.find("))],").unwrap() + 2;
        let engine = format!("Path({:?})", file.display().to_string());
        std::fs::write(
            &config,
            format!("{}{engine}{}", &text[..start], &text[end..]),
        )
        .unwrap();
        (config.clone(), run(&config, &dir.join(out), &[]))
    };
    let (_, inside) = tune(&engine, "endgame_exact_at", "inside");
    assert!(inside.status.success(), "{}", stderr(&inside));
    let (_, served) = tune(&external, "eea", "served");
    assert!(served.status.success(), "{}", stderr(&served));
    let (a, b) = (outcome(&dir.join("inside")), outcome(&dir.join("served")));
    assert_eq!(a.0, b.0, "the same games, with the same values");
    let trajectory = |o: &(Vec<String>, String, String)| {
        serde_json::from_str::<serde_json::Value>(&o.1).unwrap()["trajectory"].clone()
    };
    assert_eq!(trajectory(&a), trajectory(&b));
    // tuned.ron is the external file with the values written in.
    let tuned = std::fs::read_to_string(dir.join("served/tuned.ron")).unwrap();
    assert!(
        tuned.contains("endgame_exact_at=") && !tuned.contains("{eea}"),
        "{tuned}"
    );
    assert!(tuned.contains("name: \"d1-tuned\""), "{tuned}");
    let e = arena::engine::EngineSpec::load(&dir.join("served/tuned.ron"), None);
    assert!(e.is_ok(), "{}", e.unwrap_err());

    // A placeholder no parameter fills, or a parameter with no placeholder.
    write_external(serve_args("{other}"));
    let (_, out) = tune(&external, "eea", "bad");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("placeholder {other}"),
        "{}",
        stderr(&out)
    );
    write_external(serve_args("4"));
    let (_, out) = tune(&external, "eea", "bad");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("none is {eea}"), "{}", stderr(&out));
}

#[test]
fn bounds_that_together_make_an_engine_its_checks_refuse_are_named() {
    // Each bound alone is fine (the other at its start), but the selective
    // passes at 16 empties under an exact solve from 18 are refused: such a
    // θ would lose its games as forfeits and bend the tune.
    let dir = tmp("tune-corners");
    let text = format!(
        r#"Tournament(
    name: "corners",
    engines: [Inline(Engine(
        name: "p",
        search: AlphaBeta(fail: Soft),
        limit: Depth(1),
        eval: Patterns(weights: {weights:?}),
        endgame_exact_at: 14,
        endgame_selective_at: 20,
        endcut: Some({cut:?}),
    ))],
    format: Spsa(
        params: [
            (field: "endgame_exact_at", start: 14, min: 10, max: 18, c_end: 1, r_end: 0.02),
            (field: "endgame_selective_at", start: 20, min: 16, max: 24, c_end: 1, r_end: 0.02),
        ],
        iterations: 10, delay: 2,
    ),
    book: (file: {book:?}, order: Random),
    seed: 3,
    out: {out:?},
)
"#,
        weights = repo("engines/weights/patterns-train2.bin").display(),
        cut = repo("engines/probcut/endgame-train2.ron").display(),
        book = repo("openings/all-4ply.txt").display(),
        out = dir.join("out").display(),
    );
    let config = dir.join("tune.ron");
    std::fs::write(&config, text).unwrap();
    let out = arena(&["run", config.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("tune.ron:"), "{err}");
    assert!(
        err.contains("the bounds together make an engine its checks refuse (endgame_exact_at = 18, endgame_selective_at = 16)"),
        "{err}"
    );
    assert!(!dir.join("out").exists(), "wrote its folder");
}
