//! Helpers shared by the integration tests.

use std::path::Path;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Path of a file under `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A fresh, empty folder `name` under the tests' temporary folder
/// `group`, for one test.
pub fn fresh(group: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Path of a file in the repository.
pub fn repo(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// Runs the `arena` binary built for these tests.
pub fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("the arena binary runs")
}

/// `arena run CONFIG --out OUT --quiet MORE...` from the repository,
/// bounded at 5 minutes.
pub fn run_quiet(config: &Path, out: &Path, more: &[&str]) -> Output {
    let mut args = vec![
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend(more);
    arena_in_within(&repo("."), &args, Duration::from_secs(300))
}

/// Stdout of a run as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stderr of a run as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The variable `.ci/run` sets where it installs every outside program the
/// tests use: there a test that would skip fails instead.
pub const REQUIRE_ALL: &str = "ARENA_REQUIRE_ALL";

/// Says on stderr that the running test skips its checks, and why (a
/// program we do not ship, a right this machine does not give); with
/// [`REQUIRE_ALL`] set, fails instead, so CI runs every test.
pub fn skip(why: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    if std::env::var_os(REQUIRE_ALL).is_some() {
        panic!("{test}: {REQUIRE_ALL} is set, and this test would skip: {why}");
    }
    eprintln!("{test}: skipped: {why}");
}

/// Says on stderr that the running test skips its checks because data we
/// do not ship is absent (the shared folder beside the repository): a
/// skip everywhere, [`REQUIRE_ALL`] or not, since `.ci/run` installs
/// programs, not another project's data, and a user's CI has no such
/// folder.
pub fn skip_data(why: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    eprintln!("{test}: skipped: {why}");
}

/// Where the program `name` is found in PATH, as an engine file's
/// `command` or a test's outside tool is.
pub fn in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The program `name` from PATH, or `None` after [`skip`] says the test
/// skips and how to install it (`how`).
pub fn program(name: &str, how: &str) -> Option<PathBuf> {
    let found = in_path(name);
    if found.is_none() {
        skip(&format!("{name} is not in PATH ({how})"));
    }
    found
}

/// `arena args` run in `dir`, killed (and the test failed) past `limit`.
pub(crate) fn arena_in_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().ok();
            let out = child.wait_with_output().unwrap();
            panic!(
                "arena {} still running after {} s: killed\n{}",
                args.join(" "),
                limit.as_secs(),
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}
