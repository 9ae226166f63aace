//! `--events FILE`: the run as JSON lines for other tools, one object a
//! line (a game, fresh statistics, the end), written beside what the
//! terminal shows without changing it.

use crate::tournament::{config, engine, games, squares, tmp};
use crate::util::{arena, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

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
    assert!(
        stderr(&r).contains("cannot create the events file"),
        "{}",
        stderr(&r)
    );
    assert!(!dir.join("out").exists(), "no game was played");
}
