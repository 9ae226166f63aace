//! Same build everywhere: each shard's tournament.json records the arena
//! build and the external engines' program hashes that played it, `merge`
//! refuses shards of another build (naming both) unless
//! `--allow-mixed-builds`, which the results note, and `arena --version`
//! names the commit. Fixtures of "another build" are records edited as that
//! build would have written them; every run is the real binary.

use crate::tournament::{config, engine, squares, tmp};
use crate::util::{arena, repo, stderr, stdout};
use arena::records::build::{sha256_file, COMMIT, VERSION, VERSION_LINE};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Edits a folder's tournament.json.
fn edit_info(dir: &Path, edit: impl FnOnce(&mut Value)) {
    let path = dir.join("tournament.json");
    let mut info = json(&path);
    edit(&mut info);
    std::fs::write(&path, serde_json::to_string_pretty(&info).unwrap() + "\n").unwrap();
}

/// Runs shard `k` of 2 of `cfg` into `dir/k`, with `path` as PATH when
/// given.
fn shard(cfg: &Path, dir: &Path, k: u32, path: Option<&Path>) -> PathBuf {
    let out = dir.join(k.to_string());
    let shard = format!("{k}/2");
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    c.args([
        "run",
        s(cfg),
        "--shard",
        &shard,
        "--out",
        s(&out),
        "--quiet",
    ]);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    let got = c.output().unwrap();
    assert_eq!(got.status.code(), Some(0), "shard {k}: {}", stderr(&got));
    out
}

fn merge(dirs: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(dirs.iter().map(|d| s(d)));
    args.extend(["--out", s(out)]);
    args.extend_from_slice(extra);
    arena(&args)
}

/// A round-robin of two tiny in-process engines, 4 pairs.
fn in_process(dir: &Path) -> PathBuf {
    let ab = engine(
        "ab1",
        &format!(
            "search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?})",
            squares()
        ),
    );
    let random = engine("random", "search: Random, seed: 3");
    config(dir, "RoundRobin(rounds: 4)", &[ab, random], "").0
}

#[test]
fn version_names_the_commit_arena_was_built_from() {
    let out = arena(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), format!("arena {VERSION_LINE}\n"));
    // Built from this checkout, so the commit is known, and it is HEAD's
    // (the build reruns when HEAD moves).
    if repo(".git").exists() {
        let head = Command::new("git")
            .args(["-C", s(&repo("")), "rev-parse", "HEAD"])
            .output()
            .unwrap();
        let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
        let commit = COMMIT.expect("a build from a git checkout knows its commit");
        assert!(commit.starts_with(&head), "{commit} vs HEAD {head}");
        assert!(VERSION_LINE.starts_with(&format!("{VERSION} ({}", &head[..7])));
    }
}

#[test]
fn merge_refuses_shards_of_another_build_unless_allowed_and_notes_it() {
    let dir = tmp("build-mixed");
    let cfg = in_process(&dir);
    let (a, b) = (shard(&cfg, &dir, 1, None), shard(&cfg, &dir, 2, None));
    let build = &json(&a.join("tournament.json"))["build"];
    assert_eq!(build["version"], VERSION);
    assert_eq!(build["commit"].as_str(), COMMIT);
    assert_eq!(build["engines"], serde_json::json!({}));
    let known = ["popcnt", "bmi1", "bmi2", "lzcnt", "avx2"];
    assert!(build["cpu"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| known.contains(&f.as_str().unwrap())));

    // Other CPU features (another node) are no other build.
    edit_info(&b, |i| i["build"]["cpu"] = serde_json::json!(["popcnt"]));
    let same = dir.join("same");
    let out = merge(&[&a, &b], &same, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        json(&same.join("results.json"))["notes"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    assert_eq!(json(&same.join("tournament.json"))["build"], *build);

    // Shard 2 as an arena built from another commit would have written it.
    let other = "0123456789abcdef0123456789abcdef01234567";
    edit_info(&b, |i| i["build"]["commit"] = other.into());
    let refused = dir.join("refused");
    let out = merge(&[&a, &b], &refused, &[]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    let ours = COMMIT.unwrap_or("unknown");
    let want = format!(
        "shards of different builds: {} and {}: arena {VERSION} (commit {ours}) vs arena {VERSION} (commit {other}); run every shard with one arena build and the same engine programs, or pass --allow-mixed-builds",
        a.display(),
        b.display()
    );
    assert!(e.contains(&want), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(!refused.join("journal.jsonl").exists());

    let mixed = dir.join("mixed");
    let out = merge(&[&a, &b], &mixed, &["--allow-mixed-builds"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let note = format!(
        "shards of mixed builds were merged (mixed builds allowed): {} and {}: arena {VERSION} (commit {ours}) vs arena {VERSION} (commit {other})",
        a.display(),
        b.display()
    );
    let info = json(&mixed.join("tournament.json"));
    assert_eq!(info["build"], Value::Null);
    assert!(info["mixed_builds"].as_str().unwrap().contains(other));
    let notes = || json(&mixed.join("results.json"))["notes"].clone();
    assert_eq!(notes(), serde_json::json!([note]));
    let md = std::fs::read_to_string(mixed.join("summary.md")).unwrap();
    assert!(md.contains(&note), "{md}");
    // `arena report` recomputes the results from the record: the note stays.
    std::fs::remove_file(mixed.join("results.json")).unwrap();
    let out = arena(&["report", s(&mixed)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(notes(), serde_json::json!([note]));
}

#[test]
fn folders_of_an_older_arena_without_a_build_merge_as_before() {
    let dir = tmp("build-older");
    let cfg = in_process(&dir);
    let (a, b) = (shard(&cfg, &dir, 1, None), shard(&cfg, &dir, 2, None));
    let now = dir.join("now");
    let out = merge(&[&a, &b], &now, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // An arena before build records wrote no `build`: one such shard
    // with one of today is two builds.
    edit_info(&b, |i| {
        i.as_object_mut().unwrap().remove("build");
    });
    let out = merge(&[&a, &b], &dir.join("one-old"), &[]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "{}: arena {VERSION} (commit {}) vs an arena that recorded no build",
            b.display(),
            COMMIT.unwrap_or("unknown")
        )),
        "{e}"
    );

    // Both old: merged as before, with the same results.
    edit_info(&a, |i| {
        i.as_object_mut().unwrap().remove("build");
    });
    let old = dir.join("old");
    let out = merge(&[&a, &b], &old, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        json(&old.join("results.json")),
        json(&now.join("results.json"))
    );
    assert!(json(&old.join("tournament.json")).get("build").is_none());
}

/// An NBoard engine started by name through `PATH`: a script in `bin/`
/// that runs `arena serve` at depth 1.
fn script_engine(dir: &Path) -> (PathBuf, PathBuf) {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let served = dir.join("served.ron");
    let text = format!(
        "Engine(name: \"served\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?}))",
        squares()
    );
    std::fs::write(&served, text).unwrap();
    let script = bin.join("served-engine");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec \"{}\" serve --engine \"{}\" --protocol nboard\n",
            env!("CARGO_BIN_EXE_arena"),
            served.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (bin, script)
}

#[test]
fn an_engine_program_changed_between_shards_is_refused_and_so_is_its_resume() {
    let dir = tmp("build-engine");
    let (bin, script) = script_engine(&dir);
    let ext = dir.join("ext.ron");
    std::fs::write(
        &ext,
        "External(name: \"ext\", command: \"served-engine\", protocol: Nboard, limit: Some(Depth(1)))",
    )
    .unwrap();
    let external = format!("Path({:?})", ext.display().to_string());
    let random = engine("random", "search: Random, seed: 3");
    let (cfg, _) = config(&dir, "RoundRobin(rounds: 2)", &[external, random], "");
    // PATH finds the script (and the shell it starts).
    let path = std::env::join_paths([bin.clone(), "/usr/bin".into(), "/bin".into()]).unwrap();
    let a = shard(&cfg, &dir, 1, Some(Path::new(&path)));
    let before = sha256_file(&script).unwrap();
    assert_eq!(
        json(&a.join("tournament.json"))["build"]["engines"],
        serde_json::json!({ "ext": before })
    );

    // The program is rebuilt (here: one more line) before shard 2 runs.
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        text.replace("#!/bin/sh\n", "#!/bin/sh\n# rebuilt\n"),
    )
    .unwrap();
    let after = sha256_file(&script).unwrap();
    let b = shard(&cfg, &dir, 2, Some(Path::new(&path)));
    let out = merge(&[&a, &b], &dir.join("m"), &[]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    let want = format!(
        "{} and {}: engine \"ext\" program SHA-256 {before} vs {after}",
        a.display(),
        b.display()
    );
    assert!(e.contains(&want), "{e}");

    // Shard 1 resumed with the changed program: refused, naming both.
    let run = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
        c.args(["run", s(&cfg), "--shard", "1/2", "--out", s(&a), "--quiet"]);
        c.args(extra).env("PATH", &path).output().unwrap()
    };
    let out = run(&["--resume"]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "holds a run of another build (engine \"ext\" program SHA-256 {before} vs {after})"
        )),
        "{e}"
    );
    // Shown again (finished, no --resume): its record keeps the build that played it.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        json(&a.join("tournament.json"))["build"]["engines"]["ext"],
        before
    );
    // Allowed, the resume goes on: the record takes the new build and
    // keeps how it differed, which the results note, and a later resume by
    // the same build needs nothing more.
    let out = run(&["--resume", "--allow-mixed-builds"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let info = json(&a.join("tournament.json"));
    assert_eq!(info["build"]["engines"]["ext"], after);
    let differ = format!("engine \"ext\" program SHA-256 {before} vs {after}");
    assert_eq!(info["resumed_builds"], differ.as_str());
    let notes = json(&a.join("results.json"))["notes"].to_string();
    assert!(
        notes.contains(&format!(
            "resumed by another build (mixed builds allowed): {}",
            differ.replace('"', "\\\"")
        )),
        "{notes}"
    );
    let out = run(&["--resume"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        json(&a.join("tournament.json"))["resumed_builds"],
        differ.as_str()
    );
    // Its build is now shard 2's, but a merge still sees two builds.
    let out = merge(&[&a, &b], &dir.join("m2"), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("was resumed by another build"),
        "{}",
        stderr(&out)
    );
    // Without --resume (or --worker) the flag is a usage error.
    let out = run(&["--allow-mixed-builds"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--allow-mixed-builds") && stderr(&out).contains("--resume"),
        "{}",
        stderr(&out)
    );
}
