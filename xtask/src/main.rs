//! arena's own measurements, so that anyone can repeat a figure from a
//! checkout (docs/inside.md):
//!
//! - `cargo xtask verify`: the bench signature, the game hash of
//!   configs/quick.ron and every shipped config's hash, against the values
//!   pinned here; exit 1 when one differs.
//! - `cargo xtask compare REF [--rounds N] [--paired] -- ARGS...`: builds
//!   REF in a worktree of its own and this checkout, runs `arena ARGS` with
//!   each, in rounds, and prints the user-CPU ratio (this checkout over
//!   REF) and the markdown table the results pages paste.
//! - `cargo xtask scale [--quick] [--workers N,N] [--games N,N] [--strace]`:
//!   a run's cost per game (wall, CPU, read and write calls) on one machine
//!   and over 1 to 256 workers, and at 100,000 and 1,000,000 games.
//! - `cargo xtask tune-cost [--rounds N] [--iterations N]`: a tune of a
//!   depth-1 engine over `arena match` of it against itself with as many
//!   pairs, wall and user CPU, in alternating rounds.
//! - `cargo xtask watch-cost [--games N] [--tail N] [--batch N] [--arena PATH]`:
//!   what `arena watch` costs following a run of `--games` games: catching
//!   up, CPU per refresh with and without new games, memory.

mod compare;
mod scale;
mod tune_cost;
mod verify;
mod watch_cost;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

const USAGE: &str = "usage:
  cargo xtask verify [--no-build]
      the bench signature, the quick.ron game hash and the shipped configs' hashes
  cargo xtask compare REF [--rounds N] [--paired] -- ARENA_ARGS...
      user CPU of `arena ARENA_ARGS` built from REF and from this checkout, in rounds
      (alternating: one after the other, the order swapped each round; --paired: both
      at once, one per core, the cores swapped each round); `{out}` in ARENA_ARGS
      becomes a fresh folder for each run
  cargo xtask scale [--quick] [--workers N,N] [--games N,N] [--strace] [--long-only] [--arena PATH]
      cost per game of configs/report-10k.ron on one machine (--quiet, plain lines) and
      over 1, 4, 16, 64, 256 workers, then at 100,000 and 1,000,000 games (one machine,
      4 workers): wall, CPU per game, read/write calls; --strace also counts every
      file-system call of the workers in a second, traced pass; --quick: 1 and 4
      workers, 100,000 games
  cargo xtask tune-cost [--rounds N] [--iterations N]
      wall and user CPU of a tune of a depth-1 engine over `arena match` of it against
      itself with as many pairs, in alternating rounds
  cargo xtask watch-cost [--games N] [--tail N] [--batch N] [--arena PATH]
      CPU and memory of `arena watch` following a run of N games (1,000,000): catching up,
      a refresh with no new game, refreshes as the last --tail games (20,000) come
      --batch (200) a half second; and whether live.json then equals results.json";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("verify") => verify::run(&args[1..]),
        Some("compare") => compare::run(&args[1..]),
        Some("scale") => scale::run(&args[1..]),
        Some("tune-cost") => tune_cost::run(&args[1..]),
        Some("watch-cost") => watch_cost::run(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What a task failed on, in one line.
pub type Result<T> = std::result::Result<T, String>;

/// The repository's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is inside the repository")
        .to_path_buf()
}

/// Where the tasks keep what they build and run: `target/xtask/`.
pub fn scratch() -> PathBuf {
    root().join("target").join("xtask")
}

/// Runs `command` (in the repository unless it says otherwise) and fails
/// naming it when it cannot start or exits non-zero.
pub fn check(command: &mut Command) -> Result<()> {
    let shown = format!("{command:?}");
    let status = command
        .status()
        .map_err(|e| format!("{shown} cannot start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

/// Stdout of `command`, trimmed; fails naming it when it exits non-zero.
pub fn output(command: &mut Command) -> Result<String> {
    let shown = format!("{command:?}");
    let out = command
        .output()
        .map_err(|e| format!("{shown} cannot start: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{shown} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Builds the arena binary of the checkout in `dir` (release, into
/// `target_dir`) and gives its path.
pub fn build_arena(dir: &std::path::Path, target_dir: &std::path::Path) -> Result<PathBuf> {
    check(
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([
                "build",
                "--release",
                "--quiet",
                "--package",
                "arena",
                "--bin",
                "arena",
            ])
            .env("CARGO_TARGET_DIR", target_dir)
            .current_dir(dir),
    )?;
    Ok(target_dir.join("release").join("arena"))
}
