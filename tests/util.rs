//! Helpers shared by the integration tests.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Path of a file under `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
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

/// Stdout of a run as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stderr of a run as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
