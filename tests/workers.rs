//! Workers of one run (`arena run --worker ID`): separate processes sharing
//! one folder give exactly the one-machine run's verdict, LLR and counted
//! games, however they are started, killed and restarted; and every bad
//! input is one line.

use crate::util::{arena, repo, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test.
fn tmp(name: &str) -> PathBuf {
    crate::util::fresh("workers", name)
}

/// An SPRT of the two feature evaluations at depth `depth` that decides
/// (H0) after about 300 pairs, written into `dir`.
pub fn sprt_config(dir: &Path, depth: u32) -> PathBuf {
    let text = format!(
        "Tournament(\n  name: \"w\",\n  engines: [Path({:?}), Path({:?})],\n  format: Sprt(elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 5000),\n  book: (file: {:?}, order: Random, start: 0),\n  concurrency: 1,\n  seed: 1,\n  out: \"out\",\n  limit: Some(Depth({depth})),\n)\n",
        repo("engines/features-v1.ron"),
        repo("engines/features-v2.ron"),
        repo("openings/balanced-8ply.txt"),
    );
    let path = dir.join("sprt.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// The SPRT config of [`sprt_config`] as a round robin of `rounds`
/// rounds, written into `dir`.
pub fn round_robin_config(dir: &Path, depth: u32, rounds: u32) -> PathBuf {
    let text = std::fs::read_to_string(sprt_config(dir, depth))
        .unwrap()
        .replace(
        "Sprt(elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 5000)",
        &format!("RoundRobin(rounds: {rounds})"),
    );
    let config = dir.join("rr.ron");
    std::fs::write(&config, text).unwrap();
    config
}

/// A worker of the run `config` in `out`, started in the background.
pub fn worker(config: &Path, out: &Path, id: &str, more: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--worker", id, "--quiet"])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `arena run CONFIG --out OUT --worker ID` with `more`, waited for.
fn run_worker(config: &Path, out: &Path, id: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--worker",
        id,
    ];
    args.extend_from_slice(more);
    arena(&args)
}

/// Waits for `child` (bounded): its exit code and stderr.
pub fn finish(child: Child, limit: Duration) -> (i32, String) {
    let start = Instant::now();
    let mut child = child;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (status.code().unwrap_or(-1), stderr(&out));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("a worker ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// results.json of a folder.
pub fn results(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

/// What must be equal to the one-machine run: verdict, LLR, counted
/// games, the pentanomial counts, Elo.
pub fn decision(r: &Value) -> Value {
    let h = &r["head_to_head"];
    serde_json::json!({
        "verdict": r["verdict"], "games": r["games"], "complete": r["complete"],
        "llr": h["llr"], "ptnml": h["ptnml"], "elo": h["elo"], "engines": r["engines"],
    })
}

/// The one-machine run of `config` into `dir/one`: its results.
pub fn one_machine(config: &Path, dir: &Path) -> Value {
    let one = dir.join("one");
    let r = arena(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        one.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    results(&one)
}

/// Pairs claimed past the last counted pair.
pub fn claimed_past_decision(dir: &Path, r: &Value) -> Vec<u64> {
    let last = r["games"].as_u64().unwrap() / 2 - 1;
    let mut past: Vec<u64> = std::fs::read_dir(dir.join("claims"))
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .to_str()?
                .split('.')
                .next()?
                .parse()
                .ok()
        })
        .filter(|&p| p > last)
        .collect();
    past.sort_unstable();
    past.dedup();
    past
}

/// Games in a worker's journal so far.
fn journalled(out: &Path, id: &str) -> usize {
    std::fs::read_to_string(out.join("workers").join(id).join("journal.jsonl"))
        .map_or(0, |t| t.lines().count().saturating_sub(1))
}

const LIMIT: Duration = Duration::from_secs(120);

/// Waits (bounded) until worker `id` has journalled `n` games.
fn wait_for_games(out: &Path, id: &str, n: usize) {
    let start = Instant::now();
    while journalled(out, id) < n {
        assert!(start.elapsed() < LIMIT, "worker {id} never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
}

// Two workers, and one killed and started again with its ID:
// tests/worker_processes.rs, with and without Slurm (tests/slurm.rs).

#[test]
fn a_worker_killed_for_good_does_not_block_the_run() {
    let dir = tmp("killed");
    let config = sprt_config(&dir, 4);
    let one = one_machine(&config, &dir);

    // Killed for good: the other takes over its claims once its heartbeat
    // is stale.
    let out = dir.join("abandoned");
    let a = worker(&config, &out, "1", &["--stale-after", "2s"]);
    let mut b = worker(&config, &out, "2", &["--stale-after", "2s"]);
    wait_for_games(&out, "2", 30);
    b.kill().unwrap();
    b.wait().unwrap();
    let (code, err) = finish(a, LIMIT);
    assert_eq!(code, 0, "{err}");
    let r = arena(&["report", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(decision(&results(&out)), decision(&one));
}

#[test]
fn a_worker_started_late_joins_and_one_started_after_the_end_plays_nothing() {
    let dir = tmp("late");
    let config = sprt_config(&dir, 4);
    let one = one_machine(&config, &dir);
    let out = dir.join("shared");
    let a = worker(&config, &out, "early", &[]);
    wait_for_games(&out, "early", 100);
    let b = worker(&config, &out, "late", &[]);
    for w in [a, b] {
        let (code, err) = finish(w, LIMIT);
        assert_eq!(code, 0, "{err}");
    }
    // After the decision: a new worker plays nothing and says so.
    let c = run_worker(&config, &out, "after", &[]);
    assert_eq!(c.status.code(), Some(0), "{}", stderr(&c));
    assert!(
        stdout(&c).contains("run decided H0 after"),
        "{}",
        stdout(&c)
    );
    assert!(
        stdout(&c).contains("this worker (after) played 0 pairs"),
        "{}",
        stdout(&c)
    );
    let r = arena(&["report", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let shared = results(&out);
    assert_eq!(decision(&shared), decision(&one));
    let past = claimed_past_decision(&out, &shared);
    assert!(past.len() <= 2, "pairs claimed past the decision: {past:?}");
    // The live view reads the finished run.
    let s = arena(&["status", out.to_str().unwrap()]);
    assert!(s.status.success(), "{}", stderr(&s));
    let text = stdout(&s);
    assert!(
        text.contains("verdict H0") && text.contains("ended") && text.contains("late"),
        "{text}"
    );
}

#[test]
fn a_round_robin_is_complete_when_every_pair_is_played_even_with_a_worker_gone() {
    let dir = tmp("rr");
    let config = round_robin_config(&dir, 3, 150);
    let one = one_machine(&config, &dir);
    let out = dir.join("shared");
    let stale = ["--stale-after", "2s"];
    let mut ws: Vec<Child> = ["x", "y"]
        .iter()
        .map(|id| worker(&config, &out, id, &stale))
        .collect();
    let mut gone = worker(&config, &out, "z", &stale);
    wait_for_games(&out, "z", 11);
    gone.kill().unwrap();
    gone.wait().unwrap();
    for w in ws.drain(..) {
        let (code, err) = finish(w, LIMIT);
        assert_eq!(code, 0, "{err}");
    }
    let r = arena(&["report", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let shared = results(&out);
    assert_eq!(shared["games"], 300);
    assert_eq!(shared["engines"], one["engines"]);
    assert_eq!(shared["head_to_head"], one["head_to_head"]);
    // Every pair z claimed and left unfinished was taken over (a
    // second-generation claim). (The kill may also land between two of its
    // pairs, when z leaves none unfinished.)
    let z_games: Vec<u64> = arena::records::journal::read(&out.join("workers/z/journal.jsonl"))
        .unwrap()
        .games
        .iter()
        .map(|g| g.game_id)
        .collect();
    let claims = out.join("claims");
    for e in std::fs::read_dir(&claims).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let Ok(pair) = name.parse::<u64>() else {
            continue;
        };
        let owner = std::fs::read_to_string(claims.join(&name)).unwrap();
        let finished = z_games.contains(&(2 * pair)) && z_games.contains(&(2 * pair + 1));
        if owner.trim() == "z" && !finished {
            assert!(
                claims.join(format!("{pair}.1")).exists(),
                "z's unfinished pair {pair} was not taken over"
            );
        }
    }
}

#[test]
fn bad_worker_input_is_one_line() {
    let dir = tmp("bad");
    let config = sprt_config(&dir, 1);
    let out = dir.join("out");
    let run = |more: &[&str]| {
        let mut args = vec![
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        arena(&args)
    };
    let one_line = |r: &std::process::Output, code: i32, needle: &str| {
        let err = stderr(r);
        assert_eq!(r.status.code(), Some(code), "{err}");
        assert!(err.contains(needle), "{needle:?} not in {err}");
        assert!(
            !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
            "{err}"
        );
    };
    for id in ["a/b", "..", ".hidden", ""] {
        one_line(&run(&["--worker", id]), 2, "--worker");
    }
    let r = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--worker",
            "auto",
        ])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .unwrap();
    one_line(&r, 2, "SLURM_ARRAY_TASK_ID");
    one_line(&run(&["--worker", "1", "--shard", "1/2"]), 2, "--shard");

    // A worker run is played to its end, then misused.
    assert!(run(&["--worker", "1", "--quiet"]).status.success());
    one_line(&run(&[]), 1, "holds a run played by workers");
    let merged = dir.join("merged");
    one_line(
        &arena(&[
            "merge",
            out.to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ]),
        1,
        "not a shard",
    );
    // The same ID again without --resume.
    one_line(&run(&["--worker", "1"]), 1, "--resume");
    // Another config's workers.
    let other = std::fs::read_to_string(&config)
        .unwrap()
        .replace("seed: 1", "seed: 2");
    let other_config = dir.join("other.ron");
    std::fs::write(&other_config, other).unwrap();
    one_line(
        &arena(&[
            "run",
            other_config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--worker",
            "2",
        ]),
        1,
        "another config",
    );
    // A one-machine folder is not joined.
    let single = dir.join("single");
    assert!(arena(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        single.to_str().unwrap(),
        "--quiet"
    ])
    .status
    .success());
    one_line(&run_worker(&config, &single, "1", &[]), 1, "one machine");
}

#[test]
fn a_worker_journal_that_lies_and_an_unfinished_run_are_reported() {
    let dir = tmp("lies");
    let config = sprt_config(&dir, 1);
    let out = dir.join("out");
    let r = run_worker(&config, &out, "1", &["--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    // A worker whose journal holds games of pairs it never claimed.
    let liar = out.join("workers").join("liar");
    std::fs::create_dir_all(&liar).unwrap();
    let journal = std::fs::read_to_string(out.join("workers/1/journal.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().take(3).collect();
    std::fs::write(liar.join("journal.jsonl"), lines.join("\n") + "\n").unwrap();
    let r = arena(&["report", out.to_str().unwrap()]);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains("workers/liar/journal.jsonl:2") && err.contains("never claimed"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&liar).unwrap();

    // An unfinished run: its journal cut short (as a worker killed for good
    // leaves it). The report is written, marked partial, and exits 1 naming
    // what is missing, or 0 with --allow-partial.
    let path = out.join("workers/1/journal.jsonl");
    let cut: Vec<&str> = journal.lines().take(41).collect();
    std::fs::write(&path, cut.join("\n") + "\n").unwrap();
    let r = arena(&["report", out.to_str().unwrap()]);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains("neither decided nor complete") && err.contains("claimed pairs unfinished"),
        "{err}"
    );
    assert_eq!(results(&out)["status"], "partial");
    let r = arena(&["report", out.to_str().unwrap(), "--allow-partial"]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
}

#[test]
fn a_live_worker_id_is_refused_naming_its_host_and_pid() {
    let dir = tmp("live");
    let config = sprt_config(&dir, 6);
    let out = dir.join("out");
    let a = worker(&config, &out, "1", &[]);
    wait_for_games(&out, "1", 2);
    let r = run_worker(&config, &out, "1", &["--resume"]);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains("worker \"1\"") && err.contains(&format!("(pid {})", a.id())),
        "{err}"
    );
    // SIGTERM (how Slurm stops a job): 130, its journal whole, and the run
    // goes on with --resume.
    let pid = libc::pid_t::try_from(a.id()).unwrap();
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let (code, err) = finish(a, Duration::from_secs(30));
    assert_eq!(code, 130, "{err}");
    let j = arena(&["report", out.to_str().unwrap(), "--allow-partial"]);
    assert_eq!(j.status.code(), Some(0), "{}", stderr(&j));
    let heartbeat = std::fs::read_to_string(out.join("workers/1/heartbeat")).unwrap();
    assert!(heartbeat.trim_end().ends_with("ended"), "{heartbeat}");
}

/// Makes the run in `out` look started and played by another arena build:
/// its `tournament.json` and its workers' `worker.json` name another
/// commit, as that build would have written them.
pub fn pretend_another_build(out: &Path) {
    let mut files = vec![out.join("tournament.json")];
    for e in std::fs::read_dir(out.join("workers")).unwrap() {
        files.push(e.unwrap().path().join("worker.json"));
    }
    for path in files {
        let mut info: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        info["build"]["commit"] = Value::from("0123456789abcdef0123456789abcdef01234567");
        std::fs::write(&path, serde_json::to_string_pretty(&info).unwrap()).unwrap();
    }
}

#[test]
fn a_worker_of_another_build_is_refused_unless_allowed_and_noted() {
    let dir = tmp("builds");
    let config = sprt_config(&dir, 1);
    let out = dir.join("out");
    let first = run_worker(&config, &out, "1", &["--quiet"]);
    assert!(first.status.success(), "{}", stderr(&first));
    pretend_another_build(&out);
    let args = [
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--worker",
        "2",
        "--quiet",
    ];
    let r = arena(&args);
    let err = stderr(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains("was started by another build")
            && err.contains("0123456789ab")
            && err.contains("--allow-mixed-builds"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let mut allowed = args.to_vec();
    allowed.push("--allow-mixed-builds");
    let r = arena(&allowed);
    assert!(r.status.success(), "{}", stderr(&r));
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("workers/2/worker.json")).unwrap())
            .unwrap();
    assert_eq!(record["allow_mixed_builds"], true);
    let r = arena(&["report", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    let notes = results(&out)["notes"].to_string();
    assert!(
        notes.contains("workers of mixed builds played this run"),
        "{notes}"
    );
}

/// Unmounts a folder when dropped.
struct Unmount(PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_worker_on_a_read_only_filesystem_is_one_line_and_status_still_reads() {
    let dir = tmp("read-only");
    let config = sprt_config(&dir, 1);
    // A worker run, copied onto a filesystem then made read-only.
    let played = dir.join("played");
    let r = run_worker(&config, &played, "1", &["--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let ro = dir.join("ro");
    std::fs::create_dir_all(&ro).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "tmpfs"])
        .arg(&ro)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        crate::util::skip("cannot mount a filesystem here (needs root, as CI runs)");
        return;
    }
    let _unmount = Unmount(ro.clone());
    let copied = Command::new("cp")
        .arg("-r")
        .arg(&played)
        .arg(ro.join("run"))
        .status()
        .unwrap();
    assert!(copied.success());
    let remount = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&ro)
        .status()
        .unwrap();
    assert!(remount.success());
    let out = ro.join("run");
    for (args, code) in [
        (
            vec![
                "run",
                config.to_str().unwrap(),
                "--out",
                ro.join("new").to_str().unwrap(),
                "--worker",
                "1",
            ],
            1,
        ),
        (
            vec![
                "run",
                config.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--worker",
                "2",
            ],
            1,
        ),
        (vec!["report", out.to_str().unwrap()], 1),
    ] {
        let r = arena(&args);
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(code), "{args:?}: {err}");
        assert!(
            err.contains("Read-only file system") && err.trim().lines().count() == 1,
            "{err}"
        );
    }
    let s = arena(&["status", out.to_str().unwrap()]);
    assert!(s.status.success(), "{}", stderr(&s));
    assert!(stdout(&s).contains("verdict H0"), "{}", stdout(&s));
}
