//! What a hostile probe of workers found, each case through the real binary
//! and bounded in time: two processes started with one worker ID, a
//! journal that repeats a game line, claims that name no worker, stray
//! folders in `workers/`, an edited `worker.json`, and command-line values
//! given twice, empty or through a batch system's variable.

use crate::tournament::{searchers_config, tmp};
use crate::util::{arena, stderr, stdout};
use crate::workers::finish;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A round robin of two depth-limited searchers, `rounds` pairs.
fn round_robin(dir: &Path, rounds: u64, depth: u32) -> PathBuf {
    searchers_config(dir, rounds, depth).0
}

/// `arena run CONFIG --out OUT --worker ID` in the background.
fn spawn_worker(config: &Path, out: &Path, id: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(config)
        .arg("--out")
        .arg(out)
        .args(["--worker", id, "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `path` as text.
fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn two_workers_started_at_once_with_one_id_one_is_refused_naming_the_other() {
    let dir = tmp("probe-same-id");
    // Games that last seconds: the winner is still playing when the loser
    // checks, however late it starts.
    let cfg = round_robin(&dir, 200, 5);
    for round in 0..20 {
        let out = dir.join(format!("run-{round}"));
        let mut pair = [spawn_worker(&cfg, &out, "x"), spawn_worker(&cfg, &out, "x")];
        let start = Instant::now();
        let first = loop {
            if let Some(i) = (0..2).find(|&i| pair[i].try_wait().unwrap().is_some()) {
                break i;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "neither was refused"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let winner_pid = pair[1 - first].id();
        let [a, b] = pair;
        let (refused, mut winner) = if first == 0 { (a, b) } else { (b, a) };
        let (code, err) = finish(refused, Duration::from_secs(10));
        assert_eq!(code, 1, "round {round}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "round {round}: {err}");
        assert!(
            err.contains("worker \"x\"") && err.contains(&format!("(pid {winner_pid})")),
            "round {round}: {err}"
        );
        assert!(
            winner.try_wait().unwrap().is_none(),
            "round {round}: the winner plays on"
        );
        winner.kill().unwrap();
        winner.wait().unwrap();
    }
}

#[test]
fn a_journal_that_repeats_a_game_line_is_read_once_noted_and_resumed() {
    let dir = tmp("probe-repeat");
    let cfg = round_robin(&dir, 3, 3);
    let out = dir.join("out");
    let r = arena(&["run", s(&cfg), "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let journal = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let second = text.lines().nth(2).unwrap().to_string();
    std::fs::write(&journal, format!("{text}{second}\n")).unwrap();
    let r = arena(&["report", s(&out), "--json"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let results: Value = serde_json::from_str(&stdout(&r)).unwrap();
    assert_eq!(results["games_played"], 6, "counted once");
    let notes = results["notes"].to_string();
    assert!(notes.contains("repeats 1 game lines exactly"), "{notes}");
    let r = arena(&["run", s(&cfg), "--resume", "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    // The same game with another content is an error naming the line.
    let mut game: Value = serde_json::from_str(&second).unwrap();
    game["times_ms"][0] = Value::from(999.0);
    let changed = game.to_string();
    std::fs::write(&journal, format!("{text}{changed}\n")).unwrap();
    let r = arena(&["report", s(&out)]);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains(":8:") && err.contains("other content"),
        "{err}"
    );
}

#[test]
fn claims_that_name_no_worker_are_taken_over_and_noted() {
    let dir = tmp("probe-claims");
    let cfg = round_robin(&dir, 6, 3);
    let reference = dir.join("reference");
    let r = arena(&[
        "run",
        s(&cfg),
        "--out",
        s(&reference),
        "--worker",
        "a",
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let out = dir.join("odd");
    let claims = out.join("claims");
    std::fs::create_dir_all(claims.join("1")).unwrap();
    std::fs::copy(
        reference.join("tournament.json"),
        out.join("tournament.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere"), claims.join("2")).unwrap();
    std::fs::write(claims.join("3"), b"\xff\xfe\n").unwrap();
    // Before any worker: the report names each, and why.
    let r = arena(&["report", s(&out)]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let missing = stderr(&r);
    for says in [
        "claims/1 is a folder",
        "claims/2 is a link to nothing",
        "claims/3 is not UTF-8",
    ] {
        assert!(missing.contains(says), "{missing}");
    }
    let worker = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", s(&cfg), "--out", s(&out), "--worker", "b"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let done = wait_output(worker, Duration::from_secs(120));
    assert!(done.status.success(), "{}", stderr(&done));
    let said = stdout(&done);
    assert!(
        said.contains("it took over claims that name no worker: claims/1 is a folder"),
        "{said}"
    );
    let r = arena(&["report", s(&out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let (got, want) = (results(&out), results_of(&reference));
    assert_eq!(got["games_played"], want["games_played"]);
    assert_eq!(got["ratings"], want["ratings"]);
    let notes = got["notes"].to_string();
    assert!(notes.contains("3 claims name no worker"), "{notes}");
}

/// The results `arena report` wrote in `out`.
fn results(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

/// The results of a worker run, reported.
fn results_of(out: &Path) -> Value {
    let r = arena(&["report", s(out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    results(out)
}

/// Waits for `child` (killed and failed past `limit`), with its output.
fn wait_output(mut child: Child, limit: Duration) -> std::process::Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().ok();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn stray_folders_an_edited_record_and_a_folder_with_no_run() {
    let dir = tmp("probe-folders");
    let cfg = round_robin(&dir, 2, 3);
    let out = dir.join("run");
    let r = arena(&["run", s(&cfg), "--out", s(&out), "--worker", "a", "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    // A filesystem's own folders in workers/: left alone, noted.
    for stray in [".snapshot", "lost+found"] {
        std::fs::create_dir_all(out.join("workers").join(stray)).unwrap();
    }
    let r = arena(&["report", s(&out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let notes = results(&out)["notes"].to_string();
    assert!(
        notes.contains("names are no worker IDs, left alone: .snapshot, lost+found"),
        "{notes}"
    );
    // An edited worker.json: refused at the line of its build.
    let record = out.join("workers/a/worker.json");
    let text = std::fs::read_to_string(&record).unwrap();
    let line = text.lines().position(|l| l.contains("\"build\"")).unwrap() + 1;
    let edited = text.replacen("\"commit\": \"", "\"commit\": \"0123456789ab", 1);
    assert_ne!(edited, text, "{text}");
    std::fs::write(&record, edited).unwrap();
    let r = arena(&["report", s(&out)]);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("worker.json:{line}:")), "{err}");
    // A folder that holds no run is left exactly as it was.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let r = arena(&["report", s(&empty)]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert_eq!(
        std::fs::read_dir(&empty).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn values_given_twice_empty_or_through_a_variable_are_named() {
    let dir = tmp("probe-values");
    let cfg = round_robin(&dir, 1, 3);
    let random = crate::util::repo("engines/random.ron");
    let sprt = arena(&[
        "match",
        s(&random),
        s(&random),
        "--sprt",
        "elo0=0",
        "elo0=1",
        "elo1=5",
    ]);
    let err = stderr(&sprt);
    assert_eq!(sprt.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--sprt") && err.contains("elo0= is given twice"),
        "{err}"
    );
    let empty = arena(&["match", "", s(&random)]);
    let err = stderr(&empty);
    assert_eq!(empty.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: \"\": an engine argument is empty"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let auto = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            s(&cfg),
            "--out",
            s(&dir.join("run")),
            "--worker",
            "auto",
        ])
        .env("SLURM_ARRAY_TASK_ID", " 3")
        .output()
        .unwrap();
    let err = stderr(&auto);
    assert_eq!(auto.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: SLURM_ARRAY_TASK_ID (read by --worker auto): "),
        "{err}"
    );
    assert!(!dir.join("run").exists(), "nothing written");
}
