//! `--events FILE`: the run as JSON lines for other tools, one object a
//! line (a game, fresh statistics, the end), written beside what the
//! terminal shows without changing it.

use crate::tournament::{config, engine, games, searchers_config, squares, tmp};
use crate::util::{arena, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

/// `arena run CONFIG --out DIR` with `more` flags.
fn run(config: &Path, out: &Path, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    let r = arena(&args);
    assert!(r.status.success(), "{}", stderr(&r));
    r
}

/// The lines of an events file, parsed.
fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn events_hold_one_line_per_game_and_one_end_and_leave_the_display_alone() {
    let dir = tmp("events");
    let engines = [
        engine("random", "search: Random, seed: 3"),
        engine(
            "ab1",
            &format!(
                "search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?})",
                squares()
            ),
        ),
    ];
    let (cfg, _) = config(&dir, "RoundRobin(rounds: 12)", &engines, "");
    let (plain, observed) = (dir.join("plain"), dir.join("observed"));
    let events = dir.join("events.jsonl");
    // One worker: with two, the per-game lines and the interval block
    // follow the order games happen to finish in, run by run.
    let one = ["--concurrency", "1"];
    let shown = run(&cfg, &plain, &one);
    let both = run(
        &cfg,
        &observed,
        &["--events", events.to_str().unwrap(), one[0], one[1]],
    );
    // The display is the same with events written beside it.
    assert_eq!(
        stdout(&both).replace(observed.to_str().unwrap(), "OUT"),
        stdout(&shown).replace(plain.to_str().unwrap(), "OUT")
    );

    let lines = lines(&events);
    let journal = games(&observed);
    assert_eq!(journal.len(), 24);
    let game_lines: Vec<&Value> = lines.iter().filter(|l| l["event"] == "game").collect();
    assert_eq!(game_lines.len(), journal.len(), "one line per game");
    let ids: BTreeSet<u64> = game_lines
        .iter()
        .map(|l| l["game_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, journal.iter().map(|g| g.game_id).collect());
    for g in &journal {
        let line = game_lines
            .iter()
            .find(|l| l["game_id"] == g.game_id)
            .unwrap();
        assert_eq!(line["pair_id"], g.pair_id);
        assert_eq!(line["opening_id"], g.opening_id);
        assert_eq!(line["black"], g.black.as_str());
        assert_eq!(line["white"], g.white.as_str());
        assert_eq!(line["result"], g.result);
        assert_eq!(line["disc_diff"], g.disc_diff);
        assert_eq!(line["reason"], g.reason.as_str());
        assert_eq!(line["moves"], g.moves.as_str());
    }
    let intervals: Vec<&Value> = lines.iter().filter(|l| l["event"] == "interval").collect();
    assert!(!intervals.is_empty());
    for i in &intervals {
        assert!(
            i["games"].as_u64().unwrap() >= 1 && i["scheduled"] == 24,
            "{i}"
        );
        assert_eq!(
            (&i["first"], &i["second"]),
            (&Value::from("random"), &Value::from("ab1"))
        );
    }
    // One end, the last line, with the final figures.
    let last = lines.last().unwrap();
    assert_eq!(lines.iter().filter(|l| l["event"] == "finished").count(), 1);
    assert_eq!(last["event"], "finished", "{last}");
    assert_eq!(
        (&last["games"], &last["status"]),
        (&Value::from(24), &Value::from("complete"))
    );
    assert_eq!(last["out"], observed.to_str().unwrap());
    assert_eq!(last["already_held"], false);
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(observed.join("results.json")).unwrap())
            .unwrap();
    assert_eq!(last["elo"], results["head_to_head"]["elo"]);

    // With --quiet nothing is printed, and the events are still written;
    // a finished folder shown again writes only its end.
    let r = run(
        &cfg,
        &observed,
        &["--quiet", "--events", events.to_str().unwrap()],
    );
    assert_eq!(stdout(&r), "");
    let again = self::lines(&events);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(
        (&again[0]["event"], &again[0]["already_held"]),
        (&Value::from("finished"), &Value::from(true))
    );
}

#[test]
fn an_events_file_that_cannot_be_created_is_an_error_before_any_game() {
    let dir = tmp("events-bad");
    let (cfg, _) = config(
        &dir,
        "RoundRobin(rounds: 1)",
        &[
            engine("a", "search: Random, seed: 1"),
            engine("b", "search: Random, seed: 2"),
        ],
        "",
    );
    let events = dir.join("missing/events.jsonl");
    let r = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--quiet",
        "--events",
        events.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let err = stderr(&r);
    assert!(err.contains("cannot open the events file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for file in ["journal.jsonl", "tournament.json"] {
        assert!(!dir.join("out").join(file).exists(), "{file} was written");
    }
}

#[test]
fn an_events_file_of_the_run_itself_is_refused_and_nothing_is_touched() {
    let dir = tmp("events-own");
    let (cfg, out) = searchers_config(&dir, 2, 3);
    let c = cfg.to_str().unwrap();
    let r = arena(&["run", c, "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let journal = out.join("journal.jsonl");
    let before = std::fs::read(&journal).unwrap();
    let config_text = std::fs::read(&cfg).unwrap();
    let book = crate::util::repo("openings/all-4ply.txt");
    let book_text = std::fs::read(&book).unwrap();
    // The journal (however it is spelled), another file of the folder, the
    // folder itself, the config, the book.
    let dotted = out.join("../out/journal.jsonl");
    for events in [
        journal.clone(),
        dotted,
        out.join("results.json"),
        out.join("new-file.jsonl"),
        out.clone(),
        cfg.clone(),
        book.clone(),
    ] {
        for resume in [false, true] {
            let mut args = vec!["run", c, "--events", events.to_str().unwrap()];
            if resume {
                args.push("--resume");
            }
            let r = arena(&args);
            let err = stderr(&r);
            assert_eq!(r.status.code(), Some(2), "{}: {err}", events.display());
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.starts_with("error: --events: "), "{err}");
        }
    }
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        before,
        "the journal is kept"
    );
    assert_eq!(std::fs::read(&cfg).unwrap(), config_text);
    assert_eq!(std::fs::read(&book).unwrap(), book_text);
    assert!(!out.join("new-file.jsonl").exists());
    let r = arena(&["report", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
}

#[test]
fn a_second_writer_with_events_is_refused_before_it_touches_them() {
    let dir = tmp("events-second");
    let (cfg, out) = searchers_config(&dir, 20, 7);
    let c = cfg.to_str().unwrap();
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", c, "--quiet", "--concurrency", "1"])
        .spawn()
        .unwrap();
    let journal = out.join("journal.jsonl");
    let started = crate::worker_processes::wait_for(Duration::from_secs(60), || {
        std::fs::read_to_string(&journal).is_ok_and(|j| j.lines().count() > 2)
    });
    assert!(started, "the first run plays");
    // Events of the run itself: refused whatever else is asked.
    let own = arena(&["run", c, "--resume", "--events", journal.to_str().unwrap()]);
    assert_eq!(own.status.code(), Some(2), "{}", stderr(&own));
    // Events elsewhere: the second writer is refused, its events untouched.
    let events = dir.join("events.jsonl");
    std::fs::write(&events, "kept\n").unwrap();
    let second = arena(&["run", c, "--resume", "--events", events.to_str().unwrap()]);
    let err = stderr(&second);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains("in use by another arena run"), "{err}");
    assert_eq!(std::fs::read_to_string(&events).unwrap(), "kept\n");
    let ended = crate::worker_processes::wait_for(Duration::from_secs(300), || {
        first.try_wait().unwrap().is_some()
    });
    if !ended {
        first.kill().ok();
    }
    assert!(first.wait().unwrap().success());
    let report = arena(&["report", out.to_str().unwrap(), "--json"]);
    assert!(report.status.success(), "{}", stderr(&report));
    let results: Value = serde_json::from_str(&stdout(&report)).unwrap();
    assert_eq!(
        results["games_played"], 40,
        "every game of the first run is kept"
    );
}

#[test]
fn a_pipe_is_written_when_read_and_refused_at_once_when_nobody_reads_it() {
    let dir = tmp("events-fifo");
    let (cfg, _) = searchers_config(&dir, 1, 3);
    let fifo = dir.join("events.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let args = [
        "run",
        cfg.to_str().unwrap(),
        "--quiet",
        "--events",
        fifo.to_str().unwrap(),
    ];
    let r = crate::util::arena_in_within(&dir, &args, Duration::from_secs(30));
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a pipe that no process reads"), "{err}");
    // The refused run wrote nothing: the same command without the pipe
    // simply starts.
    let plain = ["run", cfg.to_str().unwrap(), "--quiet"];
    let r = crate::util::arena_in_within(&dir, &plain, Duration::from_secs(60));
    assert!(r.status.success(), "{}", stderr(&r));
    // With a reader, every event arrives through it.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let mut wrote = false;
    for _ in 0..100 {
        let args = [
            "run",
            cfg.to_str().unwrap(),
            "--quiet",
            "--overwrite",
            "--events",
            fifo.to_str().unwrap(),
        ];
        let r = crate::util::arena_in_within(&dir, &args, Duration::from_secs(60));
        if r.status.success() {
            wrote = true;
            break;
        }
        // The reader has not opened the pipe yet.
        assert!(
            stderr(&r).contains("a pipe that no process reads"),
            "{}",
            stderr(&r)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(wrote, "the run never found the reader");
    let text = reader.join().unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.iter().filter(|e| e["event"] == "game").count(), 2);
    assert_eq!(events.last().unwrap()["event"], "finished");
}

/// A second name of a file of the run (a hard link, which a comparison of
/// paths cannot see) is refused as the file itself is: the journal, the
/// config, an engine file and the weights it reads, for `run` and
/// `match`, and nothing is written.
#[test]
fn an_events_file_that_is_a_hard_link_of_a_file_of_the_run_is_refused() {
    let dir = tmp("events-hard-link");
    let weights = dir.join("squares.ron");
    std::fs::copy(squares(), &weights).unwrap();
    let engine_file = dir.join("ab.ron");
    std::fs::write(
        &engine_file,
        "Engine(name: \"ab\", game: Othello, search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: \"squares.ron\"))",
    )
    .unwrap();
    let (cfg, out) = searchers_config(&dir, 1, 2);
    let c = cfg.to_str().unwrap();
    let r = arena(&["run", c, "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let journal = out.join("journal.jsonl");
    let link = |target: &Path, name: &str| {
        let l = dir.join(name);
        std::fs::hard_link(target, &l).unwrap();
        l
    };
    let files =
        [&journal, &cfg, &engine_file, &weights].map(|f| (f.clone(), std::fs::read(f).unwrap()));
    let cases = [
        (link(&journal, "journal-link"), vec!["run", c, "--resume"]),
        (link(&cfg, "config-link"), vec!["run", c, "--resume"]),
        (
            link(&out.join("results.json"), "results-link"),
            vec!["run", c, "--resume"],
        ),
    ];
    let engine_link = link(&engine_file, "engine-link");
    let weights_link = link(&weights, "weights-link");
    let e = engine_file.to_str().unwrap();
    let match_out = dir.join("match");
    let m = match_out.to_str().unwrap();
    let matches = [engine_link, weights_link].map(|l| {
        (
            l,
            vec!["match", e, e, "--games", "2", "--depth", "1", "--out", m],
        )
    });
    for (events, mut args) in cases.into_iter().chain(matches) {
        args.extend(["--events", events.to_str().unwrap()]);
        let r = arena(&args);
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(2), "{}: {err}", events.display());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: --events: "), "{err}");
    }
    for (file, before) in files {
        assert_eq!(
            std::fs::read(&file).unwrap(),
            before,
            "{} is kept",
            file.display()
        );
    }
    assert!(!match_out.exists(), "the refused match made no folder");
    let r = arena(&["report", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
}
