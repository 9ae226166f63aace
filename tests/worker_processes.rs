//! Workers of one run as plain background processes (issue 38): the
//! checks tests/slurm.rs makes on a Slurm cluster, on any machine. Two
//! workers at concurrency 1 play a small SPRT into one folder; `arena
//! report` must give the verdict, LLR and counted games of the same config
//! run on one machine, at most `workers x concurrency` pairs may start past
//! the decision pair, and a worker killed with SIGKILL and started again
//! with the same ID must not change the report. The helpers are shared with
//! tests/slurm.rs.

use crate::tournament::{engine, tmp};
use crate::util::{arena, repo, stderr};
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a whole run of workers may take on a loaded 2-core machine
/// (it takes about 10 s on an idle one).
pub const RUN_LIMIT: Duration = Duration::from_secs(300);

/// The small SPRT of these tests: the same depth-5 alpha-beta search with
/// the v1 and v2 feature weights, whose games are the same whoever plays
/// them. It accepts H0 at about pair 100, in about 10 s at concurrency 2.
fn write_config(dir: &Path) -> PathBuf {
    let ab = |name: &str, weights: &str| {
        let w = repo(&format!("engines/weights/{weights}.ron"));
        engine(
            name,
            &format!(
                "search: AlphaBeta(fail: Soft), limit: Depth(5), eval: Features(weights: {w:?})"
            ),
        )
    };
    let text = format!(
        "Tournament(\n  name: \"workers\",\n  engines: [{}, {}],\n  format: Sprt(elo0: 0.0, elo1: 30.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 2000),\n  book: (file: {:?}, order: Random, start: 0),\n  concurrency: 2,\n  seed: 7,\n  out: {:?},\n)\n",
        ab("v1", "features-v1"),
        ab("v2", "features-v2"),
        repo("openings/balanced-8ply.txt"),
        dir.join("one"),
    );
    let path = dir.join("config.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// The config, and its results.json from one machine (`arena run CONFIG
/// --out DIR`), computed once for every test that compares with it.
pub fn reference() -> &'static (PathBuf, serde_json::Value) {
    static REFERENCE: OnceLock<(PathBuf, serde_json::Value)> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let dir = tmp("workers-reference");
        let config = write_config(&dir);
        let one = dir.join("one");
        let out = arena(&[
            "run",
            config.to_str().unwrap(),
            "--out",
            one.to_str().unwrap(),
            "--quiet",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let r = results(&one);
        assert!(
            r["verdict"] == "H0" || r["verdict"] == "H1",
            "the reference decides: {r}"
        );
        (config, r)
    })
}

/// A folder's results.json.
pub fn results(dir: &Path) -> serde_json::Value {
    let path = dir.join("results.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// What must be the same as on one machine: the verdict, the counted games
/// and everything computed from them (LLR, Elo, pentanomial, per engine and
/// meeting, ratings, forfeits). Games played past the decision, timings
/// and per-worker figures may differ.
pub fn assert_counted_equal(got: &serde_json::Value, want: &serde_json::Value, context: &str) {
    for key in [
        "verdict",
        "games",
        "forfeits",
        "complete",
        "head_to_head",
        "engines",
        "meetings",
        "ratings",
    ] {
        assert_eq!(
            got[key], want[key],
            "results.json field {key} differs from one machine's; {context}"
        );
    }
}

/// The index of the last pair the SPRT counted (pairs count from 0, in
/// order, up to the one that decides).
pub fn decision_pair(r: &serde_json::Value) -> u64 {
    let pairs = r["head_to_head"]["pairs"]
        .as_u64()
        .expect("head_to_head.pairs");
    assert!(pairs > 0, "no pair counted: {r}");
    pairs - 1
}

/// The pair ids in `line` of a journal, when it is a finished game.
fn pair_of_line(line: &str) -> Option<u64> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    v.get("pair_id")?.as_u64()
}

/// The games in worker `id`'s journal under `dir`.
pub fn worker_games(dir: &Path, id: &str) -> usize {
    let path = dir.join("workers").join(id).join("journal.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().filter(|l| pair_of_line(l).is_some()).count()
}

/// The pairs finished by some worker (in a journal under `dir/workers`).
pub fn finished_pairs(dir: &Path) -> BTreeSet<u64> {
    let mut pairs = BTreeSet::new();
    let Ok(workers) = std::fs::read_dir(dir.join("workers")) else {
        return pairs;
    };
    for w in workers {
        let journal = w.unwrap().path().join("journal.jsonl");
        let text = std::fs::read_to_string(&journal).unwrap_or_default();
        pairs.extend(text.lines().filter_map(pair_of_line));
    }
    pairs
}

/// Every pair some worker started: finished in a journal, or claimed
/// (`dir/claims/P`, whose name holds the pair's number).
pub fn started_pairs(dir: &Path) -> BTreeSet<u64> {
    let mut pairs = finished_pairs(dir);
    let claims = std::fs::read_dir(dir.join("claims")).expect("the run has a claims folder");
    for c in claims {
        let name = c.unwrap().file_name().to_string_lossy().into_owned();
        let digits: String = name.chars().filter(char::is_ascii_digit).collect();
        let p = digits
            .parse()
            .unwrap_or_else(|_| panic!("claim {name} names no pair"));
        pairs.insert(p);
    }
    pairs
}

/// At most `workers x concurrency` pairs were started past the pair that
/// decided `r`.
pub fn assert_few_past_decision(dir: &Path, r: &serde_json::Value, workers: u64, concurrency: u64) {
    let d = decision_pair(r);
    let past: Vec<u64> = started_pairs(dir).into_iter().filter(|&p| p > d).collect();
    assert!(
        past.len() as u64 <= workers * concurrency,
        "{} pairs started past the decision pair {d} with {workers} workers at concurrency {concurrency}: {past:?}",
        past.len()
    );
}

/// Runs `arena report DIR` and checks it exits 0 with the one-machine
/// results.
pub fn assert_report_equal(dir: &Path, want: &serde_json::Value, context: &str) {
    let out = arena(&["report", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "arena report: {}; {context}",
        stderr(&out)
    );
    assert_counted_equal(&results(dir), want, context);
}

/// Waits until `ok` holds, polling every 20 ms, for at most `limit`.
pub fn wait_for(limit: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    ok()
}

/// A worker `--worker ID --resume` at concurrency 1, its output in
/// `dir/worker-ID.log` (appended to across restarts).
fn spawn_worker(config: &Path, out: &Path, dir: &Path, id: &str) -> Child {
    let log = File::options()
        .create(true)
        .append(true)
        .open(dir.join(format!("worker-{id}.log")))
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--worker", id, "--resume", "--concurrency", "1"])
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("the arena binary runs")
}

/// The workers' logs, for failure messages.
fn logs(dir: &Path) -> String {
    let mut text = String::new();
    for id in ["1", "2"] {
        let log = std::fs::read_to_string(dir.join(format!("worker-{id}.log"))).unwrap_or_default();
        text += &format!("--- worker {id}:\n{log}");
    }
    text
}

/// Waits for `child` to exit, at most `limit`; kills it and fails after.
fn exit_within(child: &mut Child, limit: Duration, dir: &Path) -> ExitStatus {
    let mut status = None;
    wait_for(limit, || {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    status.unwrap_or_else(|| {
        let _ = child.kill();
        let _ = child.wait();
        panic!("a worker did not exit within {limit:?}\n{}", logs(dir))
    })
}

/// Waits for each worker and checks it exited 0 (the run decided).
fn all_exit_0(children: &mut [Child], dir: &Path) {
    for child in children.iter_mut() {
        let status = exit_within(child, RUN_LIMIT, dir);
        assert_eq!(
            status.code(),
            Some(0),
            "a worker exited with {status}\n{}",
            logs(dir)
        );
    }
}

#[test]
fn two_worker_processes_give_the_one_machine_report_and_stop_at_the_decision() {
    let (config, want) = reference();
    let dir = tmp("workers-processes");
    let out = dir.join("run");
    let mut workers = [
        spawn_worker(config, &out, &dir, "1"),
        spawn_worker(config, &out, &dir, "2"),
    ];
    all_exit_0(&mut workers, &dir);
    assert_report_equal(&out, want, &logs(&dir));
    assert_few_past_decision(&out, want, 2, 1);
}

#[test]
fn a_worker_process_killed_and_started_again_with_its_id_leaves_the_report_unchanged() {
    let (config, want) = reference();
    let dir = tmp("workers-processes-kill");
    let out = dir.join("run");
    let mut one = spawn_worker(config, &out, &dir, "1");
    let mut two = spawn_worker(config, &out, &dir, "2");
    let started = wait_for(RUN_LIMIT, || {
        worker_games(&out, "2") >= 2 || two.try_wait().unwrap().is_some()
    });
    assert!(started, "worker 2 journaled no games\n{}", logs(&dir));
    // Mid-run: worker 2 still plays and the run has not got to its decision.
    assert!(
        two.try_wait().unwrap().is_none(),
        "worker 2 ended before the kill\n{}",
        logs(&dir)
    );
    let finished = finished_pairs(&out).len() as u64;
    assert!(
        finished <= decision_pair(want),
        "the run was over ({finished} pairs) before the kill"
    );
    two.kill().unwrap();
    two.wait().unwrap();
    let mut again = spawn_worker(config, &out, &dir, "2");
    all_exit_0(std::slice::from_mut(&mut one), &dir);
    all_exit_0(std::slice::from_mut(&mut again), &dir);
    assert_report_equal(&out, want, &logs(&dir));
}
