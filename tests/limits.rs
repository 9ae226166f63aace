//! Work that cannot be done is refused up front with one clear line: a
//! table the machine will not give (tested under a small address-space
//! limit, so no machine has to run short of memory), depths, times and
//! node budgets beyond the documented caps, and solves with too many
//! empties. Every run here is bounded in time.

use crate::util::{data, repo};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The binary under test.
fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_arena")
}

/// Runs `cmd` to its end, failing the test if it takes more than `secs`
/// seconds (the process is killed then).
pub fn run_bounded(mut cmd: Command, secs: u64) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(out) => out.expect("the command runs"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{cmd:?} did not finish within {secs} s");
        }
    }
}

/// `arena args` with at most `limit_kib` KiB of address space (`ulimit -v`),
/// bounded to 60 s.
fn arena_in(limit_kib: u64, args: &[&str]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {limit_kib} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args);
    run_bounded(cmd, 60)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch folder of this test process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-limits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts exit code `code` and exactly one stderr line containing each of
/// `needles`, with nothing on stdout.
pub fn assert_one_line(out: &Output, code: i32, needles: &[&str]) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} in {err}");
    }
    assert_eq!(text(&out.stdout), "", "nothing on stdout");
}

/// 2 GB of address space: the binary runs, a 16 GiB table cannot.
const SMALL_ADDRESS_SPACE_KIB: u64 = 2_000_000;

fn big_engine(dir: &Path) -> PathBuf {
    let path = dir.join("big.ron");
    std::fs::write(
        &path,
        "Engine(name: \"big\", search: Pvs, deepening: true, limit: Depth(4), \
         ordering: [HashMove], tt_mib: 16384, eval: Discs, endgame_exact_at: 10)",
    )
    .unwrap();
    path
}

#[test]
fn a_table_the_machine_refuses_is_one_line_and_exit_1_not_an_abort() {
    let dir = scratch("alloc");
    let engine = big_engine(&dir);
    let engine = engine.to_str().unwrap();
    let out = arena_in(SMALL_ADDRESS_SPACE_KIB, &["search", "--engine", engine]);
    assert_one_line(
        &out,
        1,
        &["big.ron: tt_mib 16384: could not allocate 16 GiB"],
    );

    let ffo = data("ffo/fforum-1-19.obf");
    let out = arena_in(
        SMALL_ADDRESS_SPACE_KIB,
        &[
            "solve",
            ffo.to_str().unwrap(),
            "--lines",
            "1",
            "--tt-mib",
            "16384",
        ],
    );
    assert_one_line(&out, 1, &["--tt-mib 16384: could not allocate 16 GiB"]);

    for game in ["othello", "tictactoe"] {
        let out = arena_in(
            SMALL_ADDRESS_SPACE_KIB,
            &[
                "search",
                "--game",
                game,
                "--algorithm",
                "pvs",
                "--tt-mib",
                "16384",
            ],
        );
        assert_one_line(&out, 1, &["--tt-mib 16384: could not allocate 16 GiB"]);
    }

    // A tournament checks every worker's tables before its first game.
    let config = dir.join("t.ron");
    std::fs::write(
        &config,
        format!(
            "Tournament(name: \"t\", engines: [Path({engine:?}), Inline(Engine(name: \"r\", search: Random))], \
             format: RoundRobin(rounds: 1), book: (file: {:?}, order: Sequential), out: {:?})",
            repo("openings/all-4ply.txt"),
            dir.join("out")
        ),
    )
    .unwrap();
    let out = arena_in(SMALL_ADDRESS_SPACE_KIB, &["run", config.to_str().unwrap()]);
    assert_one_line(
        &out,
        1,
        &["engine \"big\": tt_mib 16384: could not allocate 16 GiB"],
    );
    assert!(
        !dir.join("out").exists(),
        "nothing written before the check"
    );

    // The same commands with a table that fits run as usual.
    let out = arena_in(
        SMALL_ADDRESS_SPACE_KIB,
        &[
            "solve",
            ffo.to_str().unwrap(),
            "--lines",
            "1",
            "--tt-mib",
            "64",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let strong = repo("engines/strong.ron");
    let out = arena_in(
        SMALL_ADDRESS_SPACE_KIB,
        &[
            "search",
            "--engine",
            strong.to_str().unwrap(),
            "--depth",
            "3",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `arena args`, bounded to `secs` seconds.
pub fn arena_for(secs: u64, args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(args);
    run_bounded(cmd, secs)
}

/// Asserts a clap usage error (exit 2) naming `argument` and the range.
fn assert_usage(out: &Output, argument: &str, range: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: invalid value") && err.contains(argument) && err.contains(range),
        "{argument} {range}: {err}"
    );
}

#[test]
fn command_line_work_beyond_the_caps_is_refused_up_front_with_exit_2() {
    let cases: [(&[&str], &str, &str); 9] = [
        (&["perft", "--depth", "30"], "--depth", "0..=20"),
        (&["search", "--depth", "1000"], "--depth", "1..=60"),
        (
            &["search", "--game", "tictactoe", "--depth", "61"],
            "--depth",
            "1..=60",
        ),
        (
            &["search", "--movetime", "18446744073709551615"],
            "--movetime",
            "1..=86400000",
        ),
        (
            &["search", "--nodes", "10000000000000"],
            "--nodes",
            "1..=1000000000000",
        ),
        (&["bench", "--depth", "61"], "--depth", "1..=60"),
        (&["bench", "--depth", "0"], "--depth", "1..=60"),
        (&["bench", "--threads", "0"], "--threads", "1..=256"),
        (&["bench", "--threads", "257"], "--threads", "1..=256"),
    ];
    for (args, argument, range) in cases {
        assert_usage(&arena_for(10, args), argument, range);
    }
    // At the caps themselves, what finishes quickly runs.
    let out = arena_for(30, &["perft", "--game", "tictactoe", "--depth", "20"]);
    assert!(text(&out.stdout).contains("255168 nodes"), "{out:?}");
    let out = arena_for(30, &["search", "--game", "tictactoe", "--depth", "60"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn engine_limits_beyond_the_caps_name_the_field_and_the_cap() {
    let dir = scratch("caps");
    for (limit, says) in [
        (
            "Depth(1000)",
            "limit: Depth(1000) is deeper than the game: at most Depth(60)",
        ),
        ("Depth(4294967295)", "at most Depth(60)"),
        (
            "Nodes(18446744073709551615)",
            "more than the 1000000000000 nodes allowed",
        ),
        (
            "MoveTime(18446744073709551615)",
            "more than the 86400000 ms (24 hours) allowed",
        ),
        (
            "Clock(18446744073709551615, 0)",
            "each at most 86400000 ms (24 hours)",
        ),
        (
            "Clock(60000, 86400001)",
            "each at most 86400000 ms (24 hours)",
        ),
    ] {
        let path = dir.join("capped.ron");
        std::fs::write(
            &path,
            format!(
                "Engine(\n  name: \"c\",\n  search: Pvs,\n  deepening: true,\n  limit: {limit},\n  eval: Discs,\n)"
            ),
        )
        .unwrap();
        let out = arena_for(10, &["search", "--engine", path.to_str().unwrap()]);
        assert_one_line(&out, 1, &["capped.ron:5:3: ", says]);
        // A tournament refuses it before any game.
        let config = dir.join("run.ron");
        std::fs::write(
            &config,
            format!(
                "Tournament(name: \"t\", engines: [Path(\"capped.ron\"), Path({:?})], \
                 format: RoundRobin(rounds: 1), book: (file: {:?}, order: Sequential, start: 0), \
                 out: {:?})",
                repo("engines/random.ron"),
                repo("openings/all-4ply.txt"),
                dir.join("out"),
            ),
        )
        .unwrap();
        let out = arena_for(10, &["run", config.to_str().unwrap(), "--quiet"]);
        assert_one_line(&out, 1, &["capped.ron:5:3: ", says]);
        assert!(!dir.join("out").exists(), "no results folder");
    }
}

#[test]
fn a_solve_with_more_than_36_empties_is_refused_naming_the_line() {
    let dir = scratch("solve");
    let file = dir.join("deep.obf");
    std::fs::write(
        &file,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n\
         ---------------------------OX------XO--------------------------- X\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = arena_for(10, &["solve", f]);
    assert_one_line(
        &out,
        1,
        &["deep.obf:2:1: 60 empties: arena solve takes at most 36"],
    );
    let out = arena_for(10, &["solve", f, "--lines", "2", "--json"]);
    assert_one_line(&out, 1, &["deep.obf:2:1: 60 empties"]);
    // The other line alone is solved.
    let out = arena_for(60, &["solve", f, "--lines", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// Runs `command` (a shell command line) in a pseudo-terminal (`script`),
/// bounded to 60 s, and returns what the terminal showed.
fn in_terminal(command: &str, dir: &Path) -> String {
    let transcript = dir.join("terminal.txt");
    let mut cmd = Command::new("script");
    cmd.args(["-qfec", command, transcript.to_str().unwrap()]);
    let out = run_bounded(cmd, 60);
    assert!(out.status.success(), "{command}: {}", text(&out.stderr));
    std::fs::read_to_string(&transcript).unwrap()
}

#[test]
fn long_commands_show_progress_on_a_terminal_and_nowhere_else() {
    let dir = scratch("progress");
    let ffo = data("ffo/fforum-1-19.obf");
    let ffo = ffo.to_str().unwrap();
    let strong = repo("engines/strong.ron");
    let strong = strong.to_str().unwrap();
    let commands: [(&[&str], &str); 4] = [
        (&["perft", "--depth", "9"], "subtrees"),
        (&["solve", ffo, "--lines", "1-3"], "positions"),
        (&["search", "--engine", strong, "--depth", "5"], "searching"),
        (&["bench", "--depth", "2"], "positions"),
    ];
    for (args, shown) in commands {
        // Not a terminal: stderr stays empty, with or without --json.
        for json in [false, true] {
            let mut args = args.to_vec();
            if json {
                args.push("--json");
            }
            let out = arena_for(60, &args);
            assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
            assert_eq!(text(&out.stderr), "", "{args:?}");
            if json {
                let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
                assert!(v.is_object());
            }
        }
        // A terminal on stderr: the bar shows there, and the JSON on stdout
        // (a file) is still exactly one object.
        let json = dir.join("out.json");
        let line = format!(
            "'{}' {} --json > '{}'",
            bin(),
            args.iter()
                .map(|a| format!("'{a}'"))
                .collect::<Vec<_>>()
                .join(" "),
            json.display()
        );
        let screen = in_terminal(&line, &dir);
        assert!(screen.contains(shown), "{args:?} shows {shown:?}: {screen}");
        let stdout = std::fs::read_to_string(&json).unwrap();
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert!(v.is_object());
    }
}

/// An engine whose exact solve does not finish in its share of the move
/// time (three quarters for strong.ron)
/// searches instead with what is left of the move, not with a whole move
/// more: a 400 ms move used to take 200 ms of solve and then up to 400 ms
/// of search (0.485 s in one run here, when a search stopped deepening at
/// half its time; it would be 0.6 s now that a search uses all of it), and
/// so lost games on time in tournaments (the runner allows 10% + 100 ms).
/// Now it keeps within its time, with 25% for a loaded machine.
#[test]
fn a_failed_solve_and_the_search_after_it_share_one_move_time() {
    let dir = scratch("solve-fallback");
    let strong = std::fs::read_to_string(repo("engines/strong.ron")).unwrap();
    let engines = repo("engines");
    // Exact from 30 empties, without the selective passes (which would
    // play their last pass instead of searching).
    let engine = strong
        .replace("endgame_exact_at: 20", "endgame_exact_at: 30")
        .replace("    endgame_selective_at: 24,\n", "")
        .replace("    endcut: Some(\"probcut/endgame-train2.ron\"),\n", "")
        .replace("\"weights/", &format!("\"{}/weights/", engines.display()))
        .replace("\"probcut/", &format!("\"{}/probcut/", engines.display()));
    assert!(
        engine.contains("endgame_exact_at: 30")
            && engine.contains("/engines/weights/")
            && !engine.contains("endgame_selective_at")
    );
    let file = dir.join("solves-from-30.ron");
    std::fs::write(&file, engine).unwrap();
    // FFO #49: 26 empties, about 10 s to solve on one core.
    let ffo49 = "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X";
    let file = file.to_str().unwrap();
    let args = [
        "search",
        "--engine",
        file,
        "--position",
        ffo49,
        "--movetime",
        "400",
        "--json",
    ];
    let out = arena_for(60, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["depth"].as_u64().unwrap() < 26,
        "a search, not a solve: {v}"
    );
    let secs = v["seconds"].as_f64().unwrap();
    assert!(secs <= 0.5, "the move took {secs} s of its 0.4 s");
}

/// strong.ron at 18 empties solves first, within three quarters of a
/// 100 ms move time, then searches with what is left: each of five runs answers in
/// under 150 ms. The tables' pages once came in the first solve (a fresh
/// 64 MiB table: 50 to 300 ms of zeroing and compaction) and the move took
/// 0.10 to 0.43 s; now they come when the engine is built. The bound is
/// 50 % over the move time, room for a loaded 2-core machine.
#[test]
fn a_solve_at_18_empties_keeps_within_a_100_ms_move_time() {
    // A game of strong against itself 42 plies in (18 empties), where
    // the first solve made an engine forfeit on time.
    let pos = "c4c5b6c3e6b4a3a5e3c6b3f2d3f4f3f5g5a6a4e2g6d2a7b5c7f7d6d7f6e7d8\
               g3g4c8e8h4c2b2a1a2b7h5";
    let strong = repo("engines/strong.ron");
    let args = [
        "search",
        "--engine",
        strong.to_str().unwrap(),
        "--position",
        pos,
        "--movetime",
        "100",
        "--json",
    ];
    let worst = (0..5)
        .map(|_| {
            let out = arena_for(60, &args);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(v["best_move"].is_string(), "{v}");
            v["seconds"].as_f64().unwrap()
        })
        .fold(0.0, f64::max);
    assert!(worst < 0.15, "a move took {worst} s of its 0.1 s");
}

/// strong.ron at 24 empties (FFO #45, about 11 s to solve exactly on
/// one core) with 3 s a move: the solver has three quarters of it for its
/// selective passes and the exact one, runs out before the exact pass
/// finishes, and the move is the last pass that finished: a search to the
/// end (depth 24, no line beyond the move) that took its whole share. Before, the solve was thrown away and a
/// mid-game search of what was left played.
#[test]
fn a_solve_that_runs_out_plays_its_last_selective_pass() {
    let ffo45 = "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X";
    let strong = repo("engines/strong.ron");
    let args = [
        "search",
        "--engine",
        strong.to_str().unwrap(),
        "--position",
        ffo45,
        "--movetime",
        "3000",
        "--json",
    ];
    let out = arena_for(60, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["depth"], 24,
        "a search to the end, not the mid-game's: {v}"
    );
    assert_eq!(v["pv"].as_array().map(Vec::len), Some(1), "{v}");
    let best = v["best_move"].as_str().unwrap().to_uppercase();
    // The file lists every move's exact score; each of them is legal.
    let line = std::fs::read_to_string(repo("tests/data/ffo/fforum-40-59.obf")).unwrap();
    assert!(
        line.lines().nth(5).unwrap().contains(&format!("{best}:")),
        "{v}"
    );
    let secs = v["seconds"].as_f64().unwrap();
    assert!(secs <= 3.3, "the move took {secs} s of its 3 s");
    assert!(
        secs >= 2.0,
        "the solve ran to its deadline (2.25 s): {secs} s"
    );
}
