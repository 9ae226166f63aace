//! `cargo xtask verify`: that the engine and the runner still do what they
//! did, by three signatures pinned here, each changed only on purpose and
//! with its reason in the commit that changes it:
//!
//! - the bench signature: the nodes `arena bench` searches (24 positions
//!   to depth 9);
//! - the game hash of configs/quick.ron: one line `game_id black white
//!   moves result` per game in game_id order (`moves` the journal's string,
//!   `result` black's points written 1.0, 0.5 or 0.0), joined by "\n" with
//!   no newline at the end, hashed with SHA-256;
//! - each shipped config's `config_hash`, as arena computes it.

use crate::{build_arena, output, root, scratch, Result};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

/// Nodes of `arena bench` (it searches with strong.ron's window and
/// ordering): 3,553,372 since strong.ron became issue 51's candidate
/// (mobility before killers, no history or square values, aspiration 50;
/// 2026-12-03); 4,734,185 with its SPSA-tuned aspiration 51 before
/// (2026-12-02), 4,759,577 with 50 before that.
const BENCH_NODES: u64 = 3_553_372;

/// The game hash of configs/quick.ron.
const QUICK_GAME_HASH: &str = "63b6d988401aaf03002e67fd938a600c6c10f46f435aa6bbe48de6ad44b41dd2";

/// Each shipped config's hash.
const CONFIG_HASHES: &[(&str, &str)] = &[
    ("gauntlet.ron", "48fb66c70a119ff6"),
    // Eight matrix engines in a seeded bracket (new, 2026-12-06).
    ("knockout.ron", "5712deab42638935"),
    ("quick.ron", "c8a20ad57bd7d277"),
    ("report-10k.ron", "ace5f3073ea091b7"),
    ("sprt-eval.ron", "922bf03e938214eb"),
    // Both play engines/strong.ron: issue 51's candidate since 2026-12-03
    // (with its SPSA-tuned numbers of 2026-12-02: fef1339e1f23afb0 and
    // 21fb4e73faf19b83; before those: 20b47f489fc21702 and
    // be6c621da5f6c5fb).
    ("strength-vs-baseline-2s.ron", "16b4166771ee85f0"),
    ("strength-vs-baseline.ron", "8215f23929c39137"),
    ("strong-gauntlet.ron", "954f8e5cb348c782"),
    // Nine matrix engines in five Swiss rounds (new, 2026-12-06).
    ("swiss.ron", "0f9d012cb0776e66"),
    ("tictactoe.ron", "62fba1a592d51a91"),
    // A tune of pvs-tt-d8's endgame_exact_at and aspiration (new, 2026-11-29).
    ("tune-quick.ron", "5665e21ce0d44faa"),
    // A 3 x 2 matrix of search variants and orderings since 2026-11-29 (the
    // six hand-written engines it replaced hashed 661b512ac69ccf70).
    ("variants.ron", "1c41370102c95ba0"),
    ("vs-grhino-l3.ron", "a3c1168854a254df"),
    ("vs-grhino.ron", "8c8933de8e0f41b0"),
];

/// One signature checked.
struct Check {
    what: String,
    want: String,
    got: String,
}

/// The verdict on a check: the same, different, or not checked here (a
/// config of an engine program this machine lacks).
fn verdict(c: &Check) -> &'static str {
    if c.want == c.got {
        "same"
    } else if c.got.contains("no such program") {
        "not checked here"
    } else {
        "DIFFERENT"
    }
}

/// Runs `cargo xtask verify [--no-build]`; true when every signature is
/// as pinned.
pub fn run(args: &[String]) -> Result<bool> {
    let build = match args {
        [] => true,
        [flag] if flag == "--no-build" => false,
        _ => {
            return Err(format!(
                "verify takes --no-build and nothing else, got {args:?}"
            ))
        }
    };
    let target = root().join("target");
    let arena = if build {
        build_arena(&root(), &target)?
    } else {
        target.join("release").join("arena")
    };
    let mut checks = vec![bench(&arena)?, quick(&arena)?];
    checks.extend(configs()?);
    let mut same = true;
    println!("| signature | pinned | now | |");
    println!("| --- | --- | --- | --- |");
    for c in &checks {
        let v = verdict(c);
        same &= v != "DIFFERENT";
        println!("| {} | {} | {} | {v} |", c.what, c.want, c.got);
    }
    println!(
        "{}",
        if same {
            "verify: every signature is as pinned"
        } else {
            "verify: some signatures differ (see DIFFERENT above)"
        }
    );
    Ok(same)
}

/// The bench signature.
fn bench(arena: &Path) -> Result<Check> {
    let text = output(Command::new(arena).arg("bench").current_dir(root()))?;
    // "bench: 24 positions, depth 9: 3553372 nodes in 1.590 s (...)"
    let nodes = text
        .split(": ")
        .nth(2)
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| format!("arena bench printed {text:?}, with no node count"))?;
    Ok(Check {
        what: "arena bench nodes".into(),
        want: BENCH_NODES.to_string(),
        got: nodes.to_string(),
    })
}

/// The game hash of configs/quick.ron, played into a folder of its own.
fn quick(arena: &Path) -> Result<Check> {
    let out = scratch().join("verify-quick");
    let _ = std::fs::remove_dir_all(&out);
    output(
        Command::new(arena)
            .args(["run", "configs/quick.ron", "--quiet", "--out"])
            .arg(&out)
            .current_dir(root()),
    )?;
    Ok(Check {
        what: "configs/quick.ron game hash".into(),
        want: QUICK_GAME_HASH.into(),
        got: game_hash(&out.join("journal.jsonl"))?,
    })
}

/// The game hash of a journal (see the module's doc).
pub fn game_hash(journal: &Path) -> Result<String> {
    let text =
        std::fs::read_to_string(journal).map_err(|e| format!("{}: {e}", journal.display()))?;
    let mut games: Vec<(u64, String)> = Vec::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let g: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", journal.display()))?;
        let id = g["game_id"].as_u64().ok_or("a game without game_id")?;
        let result = g["result"].as_f64().ok_or("a game without result")?;
        let text = |key: &str| g[key].as_str().unwrap_or_default().to_string();
        games.push((
            id,
            format!(
                "{id} {} {} {} {result:.1}",
                text("black"),
                text("white"),
                text("moves")
            ),
        ));
    }
    games.sort_by_key(|g| g.0);
    let lines: Vec<String> = games.into_iter().map(|g| g.1).collect();
    let digest = Sha256::digest(lines.join("\n").as_bytes());
    Ok(digest.iter().map(|b| format!("{b:02x}")).collect())
}

/// Every shipped config's hash (a config arena cannot load here, such as
/// one of an engine program that is not installed, is said so).
fn configs() -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    let folder = root().join("configs");
    let entries = std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".ron") && !CONFIG_HASHES.iter().any(|(n, _)| *n == name) {
            checks.push(Check {
                what: format!("configs/{name} config_hash"),
                want: "(not pinned in xtask/src/verify.rs)".into(),
                got: "?".into(),
            });
        }
    }
    for &(name, want) in CONFIG_HASHES {
        let path = root().join("configs").join(name);
        let got = match arena::tournament::Tournament::load(&path) {
            Ok(t) => t.hash,
            Err(e) => format!("not loaded here: {e}"),
        };
        checks.push(Check {
            what: format!("configs/{name} config_hash"),
            want: want.into(),
            got,
        });
    }
    Ok(checks)
}
