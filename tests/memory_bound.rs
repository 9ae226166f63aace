//! A run's memory is known before its first game (issue 67): thousands of
//! engines from one matrix play with a game thread keeping the players of
//! a few, their ratings solved from the pairs that met; a run the machine
//! cannot hold is refused at once on one line naming the setting; and
//! Ctrl-C or SIGTERM while a huge config loads ends the process at once
//! with exit 130. Every run here has an address-space limit (so none can
//! take the machine down) and a time limit, and reports its peak resident
//! memory.

use crate::tournament::tmp;
use crate::util::skip;
use serde_json::Value;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The address space each run here may take.
const ADDRESS_SPACE: u64 = 2 << 30;

/// The resident memory no run here may reach.
const MAX_RESIDENT_KIB: i64 = 1 << 20;

/// A running `arena`, limited to [`ADDRESS_SPACE`], its standard error
/// read as it comes.
struct Run {
    child: Child,
    start: Instant,
    err: std::thread::JoinHandle<String>,
}

/// How a [`Run`] ended.
struct Ended {
    /// The exit code (`None`: killed by a signal).
    code: Option<i32>,
    stderr: String,
    /// Peak resident memory, KiB.
    max_rss_kib: i64,
    /// From the start.
    took: Duration,
}

impl Run {
    /// `arena args`, in `dir`.
    fn start(dir: &Path, args: &[&str]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
        cmd.args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // SAFETY: setrlimit(2) is async-signal-safe, and the closure
        // touches nothing but its own locals.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: ADDRESS_SPACE,
                    rlim_max: ADDRESS_SPACE,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = cmd.spawn().expect("the arena binary runs");
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let err = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        });
        Run {
            child,
            start: Instant::now(),
            err,
        }
    }

    fn pid(&self) -> libc::pid_t {
        libc::pid_t::try_from(self.child.id()).expect("a pid")
    }

    /// Sends `signal` to the run.
    fn signal(&self, signal: libc::c_int) {
        // SAFETY: a signal to the child this test started and has not
        // reaped.
        unsafe { libc::kill(self.pid(), signal) };
    }

    /// Whether the run has ended (without reaping it).
    fn running(&self) -> bool {
        // SAFETY: siginfo_t is plain data; zeroed, its pid reads 0.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid(2) with WNOWAIT only looks; `info` is ours.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                self.child.id(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: si_pid is set (non-zero) once the child has ended.
        r == 0 && unsafe { info.si_pid() } == 0
    }

    /// Waits for the run's end, killing it (and failing the test) after
    /// `limit` from now; its exit, standard error and peak memory.
    fn end_within(mut self, limit: Duration) -> Ended {
        let until = Instant::now() + limit;
        let mut status = 0;
        // SAFETY: rusage is plain data that wait4(2) fills.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: waits for our own child, filling our locals.
            let r = unsafe { libc::wait4(self.pid(), &mut status, libc::WNOHANG, &mut usage) };
            if r == self.pid() {
                break;
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                let err = self.err.join().unwrap_or_default();
                panic!("arena still running after {limit:?}: killed\n{err}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ended {
            code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            stderr: self.err.join().unwrap_or_default(),
            max_rss_kib: usage.ru_maxrss,
            took: self.start.elapsed(),
        }
    }
}

/// The base engine of the matrices: PVS to depth 1 on disc counts.
const BASE: &str =
    "Engine(name: \"m\", search: Pvs, deepening: true, limit: Depth(1), tt_mib: TT, eval: Discs)\n";

/// A matrix axis of the field `field` with `count` values: seeds from 1,
/// tables from 0 MiB, aspiration windows from 10 centidiscs by 10.
fn axis(field: &str, count: usize) -> String {
    let values: Vec<String> = (0..count)
        .map(|i| match field {
            "seed" => format!("{:?}", (i + 1).to_string()),
            "tt_mib" => format!("{:?}", i.to_string()),
            _ => format!("{:?}", (10 * (i + 1)).to_string()),
        })
        .collect();
    format!("({field:?}, [{}])", values.join(", "))
}

/// A config in `dir` of one matrix over the base engine (its table `tt`
/// MiB), the `axes` of so many values each, in `format`, on `concurrency`
/// game threads.
fn config(
    dir: &Path,
    tt: usize,
    axes: &[(&str, usize)],
    format: &str,
    concurrency: usize,
) -> PathBuf {
    std::fs::write(dir.join("base.ron"), BASE.replace("TT", &tt.to_string())).unwrap();
    let axes: Vec<String> = axes.iter().map(|&(f, n)| axis(f, n)).collect();
    let text = format!(
        "Tournament(name: \"big\", engines: [Matrix(base: \"base.ron\", axes: [{}])], \
         format: {format}, concurrency: {concurrency}, seed: 1, out: \"out\")\n",
        axes.join(", ")
    );
    let path = dir.join("config.ron");
    std::fs::write(&path, text).unwrap();
    path
}

/// Three axes of 20 values: 8,000 engines.
const AXES_8000: [(&str, usize); 3] = [("seed", 20), ("tt_mib", 20), ("aspiration", 20)];

/// The games in the journal of `out` so far.
fn games_in(out: &Path) -> usize {
    std::fs::read_to_string(out.join("journal.jsonl")).map_or(0, |j| {
        j.lines().filter(|l| l.contains("\"game_id\"")).count()
    })
}

/// results.json of `out`.
fn results(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("results.json")).expect("results.json");
    serde_json::from_str(&text).expect("results.json is JSON")
}

/// Lets `run` play until `out` holds `games` games (failing past `limit`
/// or if it ends first), then stops it with SIGTERM: exit 130 within 30
/// s, and its peak memory.
fn play_then_terminate(run: Run, out: &Path, games: usize, limit: Duration) -> Ended {
    let until = Instant::now() + limit;
    while games_in(out) < games {
        if !run.running() {
            let ended = run.end_within(Duration::from_secs(5));
            panic!(
                "ended before {games} games: {:?}\n{}",
                ended.code, ended.stderr
            );
        }
        assert!(
            Instant::now() < until,
            "fewer than {games} games after {limit:?}: {}",
            games_in(out)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    run.signal(libc::SIGTERM);
    let asked = Instant::now();
    let ended = run.end_within(Duration::from_secs(60));
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert!(
        asked.elapsed() < Duration::from_secs(30),
        "{:?}",
        asked.elapsed()
    );
    ended
}

/// A run that plays: no player was refused its tables, and it stayed
/// below [`MAX_RESIDENT_KIB`].
fn assert_played_within(ended: &Ended, out: &Path) {
    let r = results(out);
    assert_eq!(r["forfeits"], 0, "{}", r["terminations"]);
    assert!(
        ended.max_rss_kib < MAX_RESIDENT_KIB,
        "peak resident memory {} MiB",
        ended.max_rss_kib / 1024
    );
}

/// The skip (or, with ARENA_REQUIRE_ALL, the failure) of a test whose run
/// this machine's available memory refused; true if it was so.
fn refused_for_memory(ended: &Ended) -> bool {
    let refused = ended.code == Some(1) && ended.stderr.contains("available");
    if refused {
        skip(&format!(
            "this machine has too little memory available: {}",
            ended.stderr.trim()
        ));
    }
    refused
}

#[test]
fn an_8000_engine_gauntlet_at_depth_1_plays_in_bounded_memory() {
    let dir = tmp("memory-8000-gauntlet");
    let config = config(
        &dir,
        1,
        &AXES_8000,
        "Gauntlet(challengers: 1, rounds: 1)",
        2,
    );
    let out = dir.join("out");
    let run = Run::start(&dir, &["run", config.to_str().unwrap(), "--quiet"]);
    // Loading 8,000 engines takes seconds in a test build; then games.
    let until = Instant::now() + Duration::from_secs(300);
    while games_in(&out) == 0 && run.running() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    if !run.running() {
        let ended = run.end_within(Duration::from_secs(5));
        if refused_for_memory(&ended) {
            return;
        }
        panic!("ended before a game: {:?}\n{}", ended.code, ended.stderr);
    }
    let ended = play_then_terminate(run, &out, 400, Duration::from_secs(300));
    assert_played_within(&ended, &out);
    let r = results(&out);
    assert_eq!(r["status"], "stopped");
    assert_eq!(r["engines"].as_array().map(Vec::len), Some(8000));
}

#[test]
fn a_400_engine_gauntlet_is_rated_from_its_meetings_without_a_los_matrix() {
    let dir = tmp("memory-400-gauntlet");
    let config = config(
        &dir,
        1,
        &[("seed", 20), ("tt_mib", 20)],
        "Gauntlet(challengers: 1, rounds: 1)",
        2,
    );
    let out = dir.join("out");
    let run = Run::start(&dir, &["run", config.to_str().unwrap(), "--quiet"]);
    let ended = run.end_within(Duration::from_secs(600));
    if refused_for_memory(&ended) {
        return;
    }
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_played_within(&ended, &out);
    let r = results(&out);
    assert_eq!(r["games"], 798);
    let ratings = &r["ratings"];
    assert_eq!(ratings["engines"].as_array().map(Vec::len), Some(400));
    assert_eq!(ratings["los"], Value::Array(Vec::new()));
    let notes = r["notes"].to_string();
    assert!(notes.contains("no LOS matrix"), "{notes}");
    let sum: f64 = ratings["engines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["elo"].as_f64())
        .sum();
    assert!(sum.abs() < 1e-6, "ratings average 0: {sum}");
}

#[test]
fn a_400_engine_round_robin_keeps_the_tables_of_a_few_players_a_game_thread() {
    // 400 engines of 16 MiB tables on 2 game threads: 12.5 GiB if every
    // game thread kept every engine's player, beyond the 2 GiB limit.
    let dir = tmp("memory-400-round-robin");
    let config = config(
        &dir,
        16,
        &[("seed", 20), ("aspiration", 20)],
        "RoundRobin(rounds: 1)",
        2,
    );
    let out = dir.join("out");
    let run = Run::start(&dir, &["run", config.to_str().unwrap(), "--quiet"]);
    let until = Instant::now() + Duration::from_secs(120);
    while games_in(&out) == 0 && run.running() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    if !run.running() {
        let ended = run.end_within(Duration::from_secs(5));
        if refused_for_memory(&ended) {
            return;
        }
        panic!("ended before a game: {:?}\n{}", ended.code, ended.stderr);
    }
    // Past the first engine's 399 pairs: every game thread has met many
    // more engines than it keeps.
    let ended = play_then_terminate(run, &out, 1000, Duration::from_secs(300));
    assert_played_within(&ended, &out);
}

#[test]
fn an_8000_engine_round_robin_is_refused_at_once_naming_the_engines() {
    let dir = tmp("memory-8000-round-robin");
    let config = config(&dir, 1, &AXES_8000, "RoundRobin(rounds: 1)", 1);
    let ended =
        Run::start(&dir, &["run", config.to_str().unwrap()]).end_within(Duration::from_secs(30));
    let err = ended.stderr.trim();
    assert_eq!(ended.code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("config.ron:")
            && err.contains("engines: 8000 engines")
            && err.contains("31996000"),
        "{err}"
    );
    assert!(!err.contains("rounds"), "{err}");
    assert!(ended.took < Duration::from_secs(2), "{:?}", ended.took);
    assert!(!dir.join("out").exists(), "nothing is written");
}

#[test]
fn a_run_whose_game_threads_tables_exceed_the_memory_is_refused_naming_concurrency() {
    // 16 engines of 128 MiB tables: each alone fits 4 game threads (512
    // MiB), all of them on 4 game threads (8 GiB) do not fit the limit.
    let dir = tmp("memory-tables");
    let config = config(&dir, 128, &[("seed", 16)], "RoundRobin(rounds: 1)", 4);
    let ended =
        Run::start(&dir, &["run", config.to_str().unwrap()]).end_within(Duration::from_secs(30));
    let err = ended.stderr.trim();
    assert_eq!(ended.code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "error: concurrency: 4 game threads each keep the players of up to 16 engines"
        ) && err.contains("available"),
        "{err}"
    );
    assert!(ended.took < Duration::from_secs(5), "{:?}", ended.took);
    assert!(!dir.join("out").exists(), "nothing is written");
}

#[test]
fn sigterm_while_a_huge_matrix_loads_ends_the_run_at_once() {
    let dir = tmp("memory-sigterm-loading");
    let config = config(
        &dir,
        1,
        &AXES_8000,
        "Gauntlet(challengers: 1, rounds: 1)",
        2,
    );
    let run = Run::start(&dir, &["run", config.to_str().unwrap(), "--quiet"]);
    // Past the start (the handlers are in place), inside the 8,000
    // engines' loading.
    std::thread::sleep(Duration::from_millis(300));
    run.signal(libc::SIGTERM);
    let asked = Instant::now();
    let ended = run.end_within(Duration::from_secs(60));
    let waited = asked.elapsed();
    // Stopped (130), or refused before (1): never killed by the signal.
    assert!(
        matches!(ended.code, Some(130 | 1)),
        "{:?}: {}",
        ended.code,
        ended.stderr
    );
    assert!(
        waited < Duration::from_secs(5),
        "{waited:?}: {}",
        ended.stderr
    );
    assert!(ended.max_rss_kib < MAX_RESIDENT_KIB);
    if ended.code == Some(130) && !dir.join("out").exists() {
        assert!(
            ended.stderr.contains("stopped while the config was read"),
            "{}",
            ended.stderr
        );
    }
}
