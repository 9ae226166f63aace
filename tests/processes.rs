//! No process of a run outlives it: the real binary with script engines,
//! checked against the process table. Each script carries a marker of its
//! own in its arguments (a number of seconds, so that its `sleep` children
//! carry it too), and the test looks in /proc for any command line that
//! holds it. Every wait is bounded.

use crate::tournament::{games, tmp};
use crate::util::repo;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A marker no other process carries: `61.PID0N`, a valid `sleep` time.
fn marker(n: u32) -> String {
    format!("61.{}0{n}", std::process::id())
}

/// The processes whose command line holds `marker` (as a whole argument).
fn with_marker(marker: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let args: Vec<String> = raw
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if args.iter().any(|a| a == marker) {
            found.push((pid, args.join(" ")));
        }
    }
    found
}

/// Waits until `ok` holds, for `limit` at most; returns whether it did.
fn wait_for(limit: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    ok()
}

/// Kills what a failed test left (so one failure does not leave 60 s
/// sleeps behind).
fn cleanup(marker: &str) {
    for (pid, _) in with_marker(marker) {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
}

/// Sends `signal` (a name for kill(1)) to `child`.
fn signal(child: &Child, signal: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal}");
}

/// Waits for `child` to exit, for `limit` at most (then kills it and fails).
fn exit_within(child: &mut Child, limit: Duration) -> ExitStatus {
    let until = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("arena did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A shell script engine `name` in `dir`, with `body`, and its engine file
/// (NBoard) passing it `args`.
fn script(dir: &Path, name: &str, body: &str, args: &[&str], rest: &str) -> PathBuf {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    let file = dir.join(format!("{name}.ron"));
    let text = format!(
        "External(name: {name:?}, command: {:?}, args: {args:?}, protocol: Nboard, {rest})",
        path.display()
    );
    std::fs::write(&file, text).unwrap();
    file
}

/// A depth-1 engine file in `dir`.
fn quick(dir: &Path) -> PathBuf {
    let path = dir.join("quick.ron");
    std::fs::write(
        &path,
        "Engine(name: \"quick\", search: Pvs, limit: Depth(1), eval: Discs)",
    )
    .unwrap();
    path
}

/// `arena match A B` into `dir/out` with a small book and `more`.
fn match_command(dir: &Path, a: &Path, b: &Path, more: &[&str]) -> Command {
    let mut c = match_shown(dir, a, b, more);
    c.arg("--quiet").stdout(Stdio::null());
    c
}

/// [`match_command`] with its plain lines on a piped stdout.
fn match_shown(dir: &Path, a: &Path, b: &Path, more: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    c.arg("match")
        .arg(a)
        .arg(b)
        .arg("--book")
        .arg(repo("openings/all-4ply.txt"))
        .arg("--out")
        .arg(dir.join("out"))
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// The last line of each transcript of `engine`, without its time.
fn last_lines(dir: &Path, engine: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir.join("out/logs")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with(&format!("{engine}-")) {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let last = text.lines().last().unwrap_or("").to_string();
            lines.push(last.get(11..).unwrap_or("").to_string());
        }
    }
    lines
}

/// A script that plays through `arena serve` (depth 1), after `before`.
fn served(dir: &Path, before: &str) -> String {
    let file = quick(dir);
    format!(
        "{before}\n{:?} serve --engine {:?} --protocol nboard",
        env!("CARGO_BIN_EXE_arena"),
        file.display()
    )
}

#[test]
fn what_an_engine_starts_with_setsid_is_ended_with_the_run() {
    let dir = tmp("proc-setsid");
    let m = marker(1);
    let body = served(&dir, "setsid sleep \"$1\" &");
    let x = script(&dir, "spawner", &body, &[&m], "");
    let out = match_command(
        &dir,
        &x,
        &quick(&dir),
        &["--games", "2", "--concurrency", "1"],
    )
    .output()
    .unwrap();
    let left = with_marker(&m);
    cleanup(&m);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(left.is_empty(), "left running: {left:?}");
    assert_eq!(last_lines(&dir, "spawner"), ["# ended: quit"]);
}

/// An engine that answers its handshake, then sleeps on `go` (marked).
const HANG: &str = "while IFS= read -r line; do
    case \"$line\" in
        ping*) echo \"pong ${line#ping }\" ;;
        go*) sleep \"$1\" ;;
    esac
done";

#[test]
fn two_quick_ctrl_c_end_arena_and_every_engine_at_once() {
    let dir = tmp("proc-two-sigint");
    let m = marker(2);
    let x = script(&dir, "hang", HANG, &[&m], "reply_timeout_ms: 30000");
    let mut child = match_command(
        &dir,
        &x,
        &quick(&dir),
        &["--games", "4", "--concurrency", "2"],
    )
    .spawn()
    .unwrap();
    // Both games in flight, the engine thinking in each.
    let thinking = wait_for(Duration::from_secs(10), || {
        with_marker(&m)
            .iter()
            .filter(|(_, c)| c.starts_with("sleep"))
            .count()
            == 2
    });
    if !thinking {
        let _ = child.kill();
        cleanup(&m);
        panic!("the engines never got to think: {:?}", with_marker(&m));
    }
    let sent = Instant::now();
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, "INT");
    let status = exit_within(&mut child, Duration::from_secs(8));
    let took = sent.elapsed();
    let left = with_marker(&m);
    cleanup(&m);
    assert_eq!(status.code(), Some(130));
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(left.is_empty(), "left running: {left:?}");
    assert_eq!(
        last_lines(&dir, "hang"),
        ["# ended: killed after quit grace"; 2]
    );
}

#[test]
fn a_sigterm_says_the_games_in_flight_get_the_grace_then_are_abandoned() {
    let dir = tmp("proc-sigterm-note");
    let m = marker(6);
    let x = script(&dir, "hang", HANG, &[&m], "reply_timeout_ms: 30000");
    let args = [
        "--games",
        "4",
        "--concurrency",
        "2",
        "--stop-grace",
        "500ms",
    ];
    let mut child = match_shown(&dir, &x, &quick(&dir), &args).spawn().unwrap();
    let thinking = wait_for(Duration::from_secs(10), || {
        with_marker(&m)
            .iter()
            .filter(|(_, c)| c.starts_with("sleep"))
            .count()
            == 2
    });
    if !thinking {
        let _ = child.kill();
        cleanup(&m);
        panic!("the engines never got to think: {:?}", with_marker(&m));
    }
    signal(&child, "TERM");
    let status = exit_within(&mut child, Duration::from_secs(8));
    cleanup(&m);
    assert_eq!(status.code(), Some(130));
    let mut shown = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut shown).unwrap();
    let note = "stopping: the 2 games in flight get 500 ms, then are abandoned (a second signal abandons them now)";
    assert_eq!(shown.matches(note).count(), 1, "{shown}");
    assert!(!shown.contains("Ctrl-C again"), "{shown}");
}

#[test]
fn sigterm_abandons_a_long_game_after_the_grace_and_resume_completes() {
    let dir = tmp("proc-sigterm");
    let m = marker(3);
    let flag = dir.join("slow");
    std::fs::write(&flag, "").unwrap();
    // Passes the lines on to a real engine, holding `go` while the flag is there.
    let relay = format!(
        "while IFS= read -r line; do case \"$line\" in go*) [ -e {:?} ] && sleep \"$1\" ;; esac; printf '%s\\n' \"$line\"; done",
        flag.display()
    );
    let body = served(&dir, &format!("{relay} |"));
    let x = script(&dir, "slow", &body.replace("|\n", "| "), &[&m], "");
    let args = ["--games", "2", "--concurrency", "1", "--stop-grace", "1s"];
    let mut child = match_command(&dir, &x, &quick(&dir), &args)
        .spawn()
        .unwrap();
    let thinking = wait_for(Duration::from_secs(10), || {
        with_marker(&m).iter().any(|(_, c)| c.starts_with("sleep"))
    });
    if !thinking {
        let _ = child.kill();
        cleanup(&m);
        panic!("the engine never got to think: {:?}", with_marker(&m));
    }
    let sent = Instant::now();
    signal(&child, "TERM");
    let status = exit_within(&mut child, Duration::from_secs(12));
    let took = sent.elapsed();
    let left = with_marker(&m);
    cleanup(&m);
    assert_eq!(status.code(), Some(130));
    assert!(
        took >= Duration::from_secs(1),
        "the grace was not given: {took:?}"
    );
    assert!(took < Duration::from_secs(7), "{took:?}");
    assert!(left.is_empty(), "left running: {left:?}");
    let journal = std::fs::read_to_string(dir.join("out/journal.jsonl")).unwrap();
    for line in journal.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    assert_eq!(
        last_lines(&dir, "slow"),
        ["# ended: killed after quit grace"]
    );
    std::fs::remove_file(&flag).unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let out = match_command(&dir, &x, &quick(&dir), &resume)
        .output()
        .unwrap();
    cleanup(&m);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(games(&dir.join("out")).len(), 2);
}

#[test]
fn a_kill_9_of_arena_ends_its_engines() {
    let dir = tmp("proc-kill9");
    let m = marker(4);
    // Ignores the end of its input and never answers `go`.
    let body = "trap '' PIPE HUP TERM
while IFS= read -r line; do
    case \"$line\" in
        ping*) echo \"pong ${line#ping }\" ;;
        go*) while :; do sleep 0.1; done ;;
    esac
done";
    let x = script(&dir, "stubborn", body, &[&m], "reply_timeout_ms: 30000");
    let mut child = match_command(
        &dir,
        &x,
        &quick(&dir),
        &["--games", "4", "--concurrency", "2"],
    )
    .spawn()
    .unwrap();
    let started = wait_for(Duration::from_secs(10), || with_marker(&m).len() == 2);
    // Let both reach `go`.
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "KILL");
    let _ = child.wait();
    let gone = wait_for(Duration::from_secs(2), || with_marker(&m).is_empty());
    let left = with_marker(&m);
    cleanup(&m);
    assert!(started, "the engines never started");
    assert!(gone, "left running 2 s after kill -9: {left:?}");
}

#[test]
fn a_flooding_engine_transcript_stops_at_the_cap_and_the_run_goes_on() {
    let dir = tmp("proc-flood");
    let m = marker(5);
    let flood = "head -c 18000000 /dev/zero | tr '\\0' x | fold -w 1000 >&2";
    let x = script(&dir, "flood", &served(&dir, flood), &[&m], "");
    let out = match_command(
        &dir,
        &x,
        &quick(&dir),
        &["--games", "2", "--concurrency", "1"],
    )
    .output()
    .unwrap();
    cleanup(&m);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = dir.join("out/logs/flood-0.log");
    let size = std::fs::metadata(&log).unwrap().len();
    assert!(size <= 16 << 20, "{size}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("# transcript capped at 16 MiB").count(), 1);
    assert_eq!(last_lines(&dir, "flood"), ["# ended: quit"]);
    assert_eq!(games(&dir.join("out")).len(), 2);
    // The summary says so, naming the engine, and `arena report` keeps it.
    let note = "the transcript of engine \"flood\" stopped at the 16 MiB cap (logs/flood-0.log)";
    let summary = dir.join("out/summary.md");
    let md = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(md.matches(note).count(), 1, "{md}");
    assert!(!md.contains("\"quick\" stopped"), "{md}");
    std::fs::remove_file(&summary).unwrap();
    let report = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("report")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(md.matches(note).count(), 1, "{md}");
}
