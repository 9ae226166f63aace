//! External engines: our own engines through `arena serve` over NBoard and
//! GTP play exactly the games they play in-process, and misbehaving
//! programs (small scripts under `tests/data/engines/`) lose their games
//! with the reason recorded while the run goes on. Every wait is bounded by
//! the engine files' deadlines.

use crate::tournament::{config, games, opts, squares, tmp};
use crate::util::{arena, data, repo, stderr};
use arena::tournament::{self, GameRecord, Shard};
use std::path::{Path, PathBuf};

/// A depth-3 PVS with a table and hash-move ordering (so a served engine
/// that kept its table between games would play differently).
fn searcher(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.ron"));
    let text = format!(
        "Engine(name: {name:?}, search: Pvs, deepening: true, limit: Depth(3), tt_mib: 1, ordering: [HashMove], eval: WeightedSquares(weights: {:?}))",
        squares()
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// An external engine file; `rest` holds the fields after the protocol.
fn external(
    dir: &Path,
    name: &str,
    command: &Path,
    args: &[&str],
    protocol: &str,
    rest: &str,
) -> PathBuf {
    let path = dir.join(format!("{name}.ron"));
    let text = format!(
        "External(name: {name:?}, command: {:?}, args: {args:?}, protocol: {protocol}, {rest})",
        command.display()
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn path_ref(p: &Path) -> String {
    format!("Path({:?})", p.display().to_string())
}

/// `x` against itself in-process, and against itself served over
/// `protocol`: the games of both runs, in game order.
fn round_trip(name: &str, protocol: &str) -> (Vec<GameRecord>, Vec<GameRecord>) {
    round_trip_with(name, protocol, 3, &[])
}

/// [`round_trip`], the served engine's file searching to `depth` and
/// `more` given to `arena serve`.
fn round_trip_with(
    name: &str,
    protocol: &str,
    depth: u32,
    more: &[&str],
) -> (Vec<GameRecord>, Vec<GameRecord>) {
    let dir = tmp(name);
    let x = searcher(&dir, "x");
    let twin = searcher(&dir, "twin");
    let file = dir.join("served.ron");
    let text = std::fs::read_to_string(&twin).unwrap();
    std::fs::write(&file, text.replace("Depth(3)", &format!("Depth({depth})"))).unwrap();
    let arena_bin = Path::new(env!("CARGO_BIN_EXE_arena"));
    let mut args = vec![
        "serve",
        "--engine",
        file.to_str().unwrap(),
        "--protocol",
        protocol,
    ];
    args.extend_from_slice(more);
    let served = external(
        &dir,
        "twin-ext",
        arena_bin,
        &args,
        protocol_name(protocol),
        // Without a limit of its own no depth is sent: it plays by `more`
        // or its file.
        if more.is_empty() && depth == 3 {
            "limit: Some(Depth(3))"
        } else {
            "limit: None"
        },
    );
    // The served twin has the twin's name, so whole records compare.
    let served_text = std::fs::read_to_string(&served)
        .unwrap()
        .replace("twin-ext", "twin");
    std::fs::write(&served, served_text).unwrap();
    let mut runs = Vec::new();
    for (run, second) in [("in-process", &twin), ("served", &served)] {
        let (_, t) = config(
            &dir,
            "RoundRobin(rounds: 2)",
            &[path_ref(&x), path_ref(second)],
            "",
        );
        let out = dir.join(run);
        tournament::run(
            &t,
            &opts(&out, 2, Shard::ALL, false),
            &mut tournament::Silent,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        runs.push(games(&out));
    }
    let served = runs.pop().unwrap();
    (runs.pop().unwrap(), served)
}

fn protocol_name(p: &str) -> &'static str {
    if p == "gtp" {
        "Gtp"
    } else {
        "Nboard"
    }
}

#[test]
fn nboard_through_arena_serve_plays_the_in_process_games() {
    let (inside, served) = round_trip("rt-nboard", "nboard");
    assert_eq!(inside.len(), 4);
    assert!(inside.iter().all(|g| g.reason == "game over"), "{inside:?}");
    // Moves, results, and the scores, depths and nodes NBoard carries.
    assert_eq!(inside, served);
}

#[test]
fn arena_serve_depth_overrides_the_engine_file() {
    // The served file searches to depth 1; `--depth 3` makes it the twin.
    let (inside, served) = round_trip_with("rt-depth", "nboard", 1, &["--depth", "3"]);
    assert_eq!(inside, served);
    let (_, shallow) = round_trip_with("rt-depth1", "nboard", 1, &[]);
    assert_ne!(
        inside, shallow,
        "depth 1 should play other games than depth 3"
    );
}

#[test]
fn arena_serve_refuses_a_limit_for_an_engine_that_does_not_search() {
    let dir = tmp("serve-random");
    let file = dir.join("random.ron");
    std::fs::write(&file, "Engine(name: \"r\", search: Random)").unwrap();
    let out = arena(&[
        "serve",
        "--engine",
        file.to_str().unwrap(),
        "--protocol",
        "gtp",
        "--movetime",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: --tc/--movetime/--depth: {} does not search, so it takes no limit\n",
            file.display()
        )
    );
}

#[test]
fn gtp_through_arena_serve_plays_the_in_process_games() {
    let (inside, served) = round_trip("rt-gtp", "gtp");
    assert_eq!(inside.len(), 4);
    let key = |g: &GameRecord| {
        (
            g.game_id,
            g.moves.clone(),
            g.result,
            g.disc_diff,
            g.reason.clone(),
        )
    };
    assert_eq!(
        inside.iter().map(key).collect::<Vec<_>>(),
        served.iter().map(key).collect::<Vec<_>>()
    );
}

/// The transcripts of `engine` in a results folder, joined.
fn transcripts(out: &Path, engine: &str) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(out.join("logs")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file.starts_with(&format!("{engine}-")) && file.ends_with(".log") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    text
}

#[test]
fn misbehaving_engines_lose_with_their_reason_and_the_run_goes_on() {
    let dir = tmp("misbehaving");
    let good = dir.join("good.ron");
    std::fs::write(
        &good,
        "Engine(name: \"good\", search: Pvs, limit: Depth(1), eval: Discs)",
    )
    .unwrap();
    let fast = "ready_timeout_ms: 1000, reply_timeout_ms: 1000";
    let bad = [
        (
            "crash",
            "Nboard",
            "killed by signal 11 waiting for the answer to `go`; its last error line: about to crash",
        ),
        (
            "hang",
            "Nboard",
            "timeout after 1.0 s waiting for the answer to `go`",
        ),
        (
            "silent",
            "Gtp",
            "timeout after 1.0 s waiting for the answer to `boardsize 8`",
        ),
        ("illegal", "Gtp", "illegal move: illegal (a1)"),
        ("garbage", "Nboard", "not a move: 'banana'"),
    ];
    let mut refs = vec![path_ref(&good)];
    for (name, protocol, _) in bad {
        let script = data(&format!("engines/{name}.sh"));
        refs.push(path_ref(&external(
            &dir,
            name,
            &script,
            &[],
            protocol,
            fast,
        )));
    }
    let (_, t) = config(&dir, "Gauntlet(challengers: 1, rounds: 1)", &refs, "");
    let out = dir.join("out");
    let started = std::time::Instant::now();
    tournament::run(
        &t,
        &opts(&out, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let g = games(&out);
    assert_eq!(g.len(), 10, "the run completes");
    assert!(out.join("results.json").is_file());
    for (name, _, reason) in bad {
        let theirs: Vec<&GameRecord> = g.iter().filter(|r| r.points_of(name).is_some()).collect();
        assert_eq!(theirs.len(), 2, "{name}");
        for r in theirs {
            assert_eq!(r.points_of(name), Some(0.0), "{name}: {r:?}");
            assert!(
                r.reason.contains(name) && r.reason.contains(reason),
                "{name}: {}",
                r.reason
            );
        }
    }
    let shows = [
        ("crash", "> go", "ended: killed by signal 11"),
        ("crash", "! about to crash", "> nboard 2"),
        ("hang", "timeout: 1.0", "ended: killed by signal 9"),
        ("silent", "> boardsize 8", "timeout: 1.0"),
        ("illegal", "> genmove", "< = a1"),
        ("garbage", "< hello there", "< === banana"),
    ];
    for (name, a, b) in shows {
        let log = transcripts(&out, name);
        assert!(log.contains(a) && log.contains(b), "{name}:\n{log}");
    }
    // Each game started its process again after the last one was killed.
    assert_eq!(transcripts(&out, "crash").matches("# started").count(), 2);
}

#[test]
fn an_external_engine_past_its_move_time_loses_on_time() {
    let dir = tmp("sleepy");
    let good = dir.join("good.ron");
    std::fs::write(
        &good,
        "Engine(name: \"good\", search: Pvs, limit: Depth(1), eval: Discs)",
    )
    .unwrap();
    let sleepy = external(
        &dir,
        "sleepy",
        &data("engines/sleepy.sh"),
        &[],
        "Nboard",
        "limit: Some(MoveTime(100))",
    );
    let (_, t) = config(
        &dir,
        "RoundRobin(rounds: 1)",
        &[path_ref(&good), path_ref(&sleepy)],
        "",
    );
    let out = dir.join("out");
    tournament::run(
        &t,
        &opts(&out, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let g = games(&out);
    assert_eq!(g.len(), 2);
    for r in &g {
        assert_eq!(r.points_of("sleepy"), Some(0.0), "{r:?}");
        assert!(
            r.reason.starts_with("time forfeit: sleepy (used 0.2"),
            "{}",
            r.reason
        );
        assert!(r.reason.ends_with("of 0.210 s)"), "{}", r.reason);
    }
    assert!(transcripts(&out, "sleepy").contains("> go"));
}

#[test]
fn a_program_that_does_not_exist_stops_the_run_before_any_game() {
    let dir = tmp("ghost");
    let good = dir.join("good.ron");
    std::fs::write(
        &good,
        "Engine(name: \"good\", search: Pvs, limit: Depth(1), eval: Discs)",
    )
    .unwrap();
    let missing = Path::new("/nonexistent/ghost-engine");
    let ghost = external(&dir, "ghost", missing, &[], "Gtp", "");
    let (cfg, _) = config(
        &dir,
        "RoundRobin(rounds: 1)",
        &[path_ref(&good), path_ref(&ghost)],
        "",
    );
    let out = arena(&["run", cfg.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: engine \"ghost\": cannot start /nonexistent/ghost-engine: "),
        "{err}"
    );
    assert!(!dir.join("out").join("journal.jsonl").exists());
}

/// `arena serve` over NBoard in a child process, its stdout lines arriving
/// on a channel with the time each was read; the child is killed when this
/// is dropped.
struct Served {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<(std::time::Instant, String)>,
}

impl Served {
    fn start(args: &[&str]) -> Served {
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("arena serve starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send((std::time::Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        Served { child, lines }
    }

    fn send(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `head`,
    /// waiting `limit` at most; the time that line was read.
    fn until(&self, head: &str, limit: std::time::Duration) -> (Vec<String>, std::time::Instant) {
        let end = std::time::Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    let done = line.starts_with(head);
                    seen.push(line);
                    if done {
                        return (seen, at);
                    }
                }
                Err(e) => panic!("no {head:?} within {limit:?} ({e}); got {seen:?}"),
            }
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn arena_serve_answers_a_ping_during_a_search_at_once_like_the_gui_needs() {
    use std::time::{Duration, Instant};
    let engine = repo("engines/pvs-tt-d8.ron");
    let engine = engine.to_str().unwrap();
    let mut served = Served::start(&[
        "--engine",
        engine,
        "--protocol",
        "nboard",
        "--movetime",
        "3000",
    ]);
    let game = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
    for line in ["nboard 2", game, "go"] {
        served.send(line);
    }
    std::thread::sleep(Duration::from_millis(200));
    // The GUI takes a move back: ping, then the new position and go.
    let pinged = Instant::now();
    served.send("ping 2");
    let (before, ponged) = served.until("pong", Duration::from_secs(20));
    assert_eq!(before, ["pong 2"], "the abandoned search answered");
    let waited = ponged - pinged;
    // Edax takes 12 ms; a loaded 2-core machine gets a wide margin.
    assert!(waited < Duration::from_secs(1), "pong after {waited:?}");
    served.send(game);
    served.send("go");
    let (answer, _) = served.until("===", Duration::from_secs(60));
    assert_eq!(answer.len(), 3, "{answer:?}");
    assert!(
        answer[0].starts_with("nodestats ") && answer[1].starts_with("search "),
        "{answer:?}"
    );
    served.send("quit");
    let start = Instant::now();
    while served.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "quit did not end the server"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(served.child.try_wait().unwrap().unwrap().success());
}
