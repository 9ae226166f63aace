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
        &["search", "--engine", strong.to_str().unwrap(), "--depth", "3"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}
