//! Records the git commit arena is built from (`ARENA_COMMIT`), with
//! `-dirty` when tracked files differ from it, so a results folder can say
//! which build played its games. A build outside a git checkout of arena
//! (crates.io, a tarball, git missing) records none and still builds.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets it");
    // What `arena --version` prints after the name: `0.1.0 (abc1234)`.
    let line = match commit(&dir) {
        Some(commit) => {
            println!("cargo:rustc-env=ARENA_COMMIT={commit}");
            let dirty = if commit.ends_with("-dirty") {
                "-dirty"
            } else {
                ""
            };
            format!("{version} ({}{dirty})", &commit[..7.min(commit.len())])
        }
        None => version,
    };
    println!("cargo:rustc-env=ARENA_VERSION_LINE={line}");
}

/// Runs git in `dir`; its trimmed output when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        // Never rewrite the index (git status refreshes it otherwise): a
        // changed index must not look like a changed source.
        .arg("--no-optional-locks")
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit of the checkout `dir` is the top of, `-dirty` when tracked
/// files changed; `None` when `dir` is not the top of a git checkout (a
/// package unpacked inside some other repository records none).
fn commit(dir: &Path) -> Option<String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(dir).ok()? {
        return None;
    }
    // Rerun when HEAD moves: HEAD itself, the branch it points to, and the
    // packed refs (a worktree's HEAD and the shared refs both resolved by git).
    let mut watch = vec![git(dir, &["rev-parse", "--git-path", "HEAD"])?];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch.push(git(dir, &["rev-parse", "--git-path", &branch])?);
    }
    watch.push(git(dir, &["rev-parse", "--git-path", "packed-refs"])?);
    for path in watch {
        let path = dir.join(path);
        // A file that does not exist would rerun this script on every build.
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    // And when the source changes (whether it is dirty).
    for source in [
        "src",
        "Cargo.toml",
        "Cargo.lock",
        "engines",
        "openings",
        "tests/data/bench.txt",
    ] {
        println!("cargo:rerun-if-changed={source}");
    }
    let head = git(dir, &["rev-parse", "HEAD"])?;
    let status = git(dir, &["status", "--porcelain", "--untracked-files=no"])?;
    Some(if status.is_empty() {
        head
    } else {
        format!("{head}-dirty")
    })
}
