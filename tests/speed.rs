//! One time control on mixed machines (a config's `speed`): clocks and
//! move times scaled by the machine's speed, measured by `arena bench`'s
//! positions or forced by `--speed-factor` / ARENA_SPEED_FACTOR; the factor
//! is recorded (tournament.json on one machine, worker.json for a worker)
//! and the report says it; bad settings are one line.

use crate::util::{arena_in_within, fresh, stderr};
use std::path::{Path, PathBuf};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(120);

/// A round of a move-time engine against the random mover, with `speed`.
fn config(dir: &Path, limit: &str, speed: &str) -> PathBuf {
    let path = dir.join("timed.ron");
    std::fs::write(
        &path,
        format!(
            "Tournament(\n  name: \"timed\",\n  engines: [Inline(Engine(name: \"timed\", search: Pvs, deepening: true, limit: {limit}, tt_mib: 1, eval: Discs)), Inline(Engine(name: \"r\", search: Random))],\n  format: RoundRobin(rounds: 1),\n  out: \"out\",\n  {speed}\n)\n"
        ),
    )
    .unwrap();
    path
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The move times of engine `name` in the journal at `path`.
fn move_times(path: &Path, name: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut times = Vec::new();
    for line in text.lines().skip(1) {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let black = g["black"] == name;
        for (i, t) in g["times_ms"].as_array().unwrap().iter().enumerate() {
            // Moves alternate from black's, passes aside: enough for a median.
            if (i % 2 == 0) == black {
                times.push(t.as_f64().unwrap());
            }
        }
    }
    times.sort_by(f64::total_cmp);
    times
}

#[test]
fn a_forced_factor_scales_the_move_time_and_is_recorded_and_reported() {
    let dir = fresh("speed", "forced");
    let c = config(&dir, "MoveTime(400)", "speed: (reference_nps: 1000000),");
    let out = dir.join("out");
    let o = arena_in_within(
        &dir,
        &[
            "run",
            c.to_str().unwrap(),
            "--quiet",
            "--speed-factor",
            "0.05",
        ],
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let info = json(&out.join("tournament.json"));
    assert_eq!(info["speed"]["factor"], 0.05);
    assert!(info["speed"]["nps"].is_null());
    // 400 ms a move scaled to 20: its moves take about 20 ms, not 400.
    let times = move_times(&out.join("journal.jsonl"), "timed");
    let median = times[times.len() / 2];
    assert!(median < 200.0, "median move {median} ms: {times:?}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("scaled by 0.050 on this machine"),
        "{summary}"
    );
    // The same by the environment variable, into another folder.
    let out2 = dir.join("env");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            c.to_str().unwrap(),
            "--quiet",
            "--out",
            out2.to_str().unwrap(),
        ])
        .env("ARENA_SPEED_FACTOR", "0.05")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&out2.join("tournament.json"))["speed"]["factor"], 0.05);
}

#[test]
fn a_measured_factor_is_the_reference_over_the_bench_speed_here() {
    let dir = fresh("speed", "measured");
    let c = config(&dir, "MoveTime(50)", "speed: (reference_nps: 1000),");
    let o = arena_in_within(&dir, &["run", c.to_str().unwrap(), "--quiet"], LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = &json(&dir.join("out/tournament.json"))["speed"];
    let nps = s["nps"].as_f64().unwrap();
    assert!(nps > 1000.0, "{s}");
    let factor = s["factor"].as_f64().unwrap();
    assert!((factor - 1000.0 / nps).abs() < 1e-12, "{s}");
}

#[test]
fn a_worker_records_its_own_factor_and_the_report_names_it() {
    let dir = fresh("speed", "worker");
    let c = config(&dir, "MoveTime(100)", "speed: (reference_nps: 1000000),");
    let o = arena_in_within(
        &dir,
        &[
            "run",
            c.to_str().unwrap(),
            "--quiet",
            "--worker",
            "w1",
            "--speed-factor",
            "0.1",
        ],
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = dir.join("out");
    assert!(json(&out.join("tournament.json")).get("speed").is_none());
    assert_eq!(
        json(&out.join("workers/w1/worker.json"))["speed"]["factor"],
        0.1
    );
    let o = arena_in_within(&dir, &["report", out.to_str().unwrap()], LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json(&out.join("results.json"));
    let notes = r["notes"].to_string();
    assert!(notes.contains("scaled by 0.100 on worker w1"), "{notes}");
}

#[test]
fn bad_speed_settings_are_one_line() {
    let dir = fresh("speed", "bad");
    for (limit, speed, code, words) in [
        (
            "Depth(2)",
            "speed: (reference_nps: 1000000),",
            1,
            "speed: scales clocks and move times, and no engine plays by one",
        ),
        (
            "MoveTime(10)",
            "speed: (reference_nps: 0),",
            1,
            "reference_nps: must be at least 1",
        ),
    ] {
        let c = config(&dir, limit, speed);
        let o = arena_in_within(&dir, &["run", c.to_str().unwrap()], LIMIT);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(words) && err.contains("timed.ron"), "{err}");
    }
    let c = config(&dir, "MoveTime(10)", "speed: (reference_nps: 1000000),");
    let o = arena_in_within(
        &dir,
        &["run", c.to_str().unwrap(), "--speed-factor", "0"],
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("give a factor from 0.01 to 100"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn arena_match_scales_its_move_time_by_the_machine_too() {
    let dir = fresh("speed", "match");
    let out = dir.join("out");
    let o = arena_in_within(
        &dir,
        &[
            "match",
            crate::util::repo("engines/squares-classic.ron")
                .to_str()
                .unwrap(),
            crate::util::repo("engines/random.ron").to_str().unwrap(),
            "--movetime",
            "400",
            "--pairs",
            "1",
            "--concurrency",
            "1",
            "--quiet",
            "--reference-nps",
            "1000000",
            "--speed-factor",
            "0.05",
            "--out",
            out.to_str().unwrap(),
        ],
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&out.join("tournament.json"))["speed"]["factor"], 0.05);
    let times = move_times(&out.join("journal.jsonl"), "squares-classic");
    assert!(!times.is_empty());
    let median = times[times.len() / 2];
    assert!(median < 200.0, "median move {median} ms: {times:?}");
}
