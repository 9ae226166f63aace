//! The two code paths (see `src/game/cpu.rs`): the AVX2/BMI2 code chosen at
//! run time and the baseline code `ARENA_SIMD=off` forces give the same
//! perft counts, exact scores and bench signature, each checked against
//! known facts, and `arena bench` says which path it took.

use crate::util::{data, stderr, stdout};
use std::process::{Command, Output};

/// `arena ARGS` with `ARENA_SIMD` set to `simd` (`None`: unset).
fn arena_with(simd: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args).env_remove("ARENA_SIMD");
    if let Some(v) = simd {
        cmd.env("ARENA_SIMD", v);
    }
    cmd.output().expect("the arena binary runs")
}

/// Whether this processor has the vector path (what `arena` detects).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).unwrap()
}

#[test]
fn both_paths_count_the_published_perft() {
    // Start position, depth 9: 3,005,288 leaves (tests/data/perft.txt).
    for simd in [None, Some("off")] {
        for bulk in [&[][..], &["--no-bulk"][..]] {
            let mut args = vec!["perft", "--depth", "9", "--json"];
            args.extend_from_slice(bulk);
            let r = json(&arena_with(simd, &args));
            assert_eq!(r["nodes"], 3_005_288, "ARENA_SIMD={simd:?} {bulk:?}");
        }
    }
}

#[test]
fn both_paths_solve_ffo_40_to_42_exactly_with_the_same_nodes() {
    let path = data("ffo/fforum-40-42.obf");
    let args = ["solve", path.to_str().unwrap(), "--json"];
    let fast = json(&arena_with(None, &args));
    let base = json(&arena_with(Some("off"), &args));
    assert_eq!(fast["correct"], 3, "{fast}");
    assert_eq!(base["correct"], 3, "{base}");
    for (f, b) in fast["positions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(base["positions"].as_array().unwrap())
    {
        assert_eq!(f["score"], f["expected_score"], "{f}");
        // The same search, move for move: the same node count.
        for key in ["score", "best_move", "nodes"] {
            assert_eq!(f[key], b[key], "{key}: {f} / {b}");
        }
    }
}

#[test]
fn both_paths_give_the_bench_signature_and_say_which_they_took() {
    // The documented bench (depth 9): 3,553,372 nodes (xtask/src/verify.rs).
    let fast = arena_with(None, &["bench"]);
    let base = arena_with(Some("off"), &["bench"]);
    for (out, path) in [
        (&fast, if has_avx2() { "avx2+bmi2" } else { "baseline" }),
        (&base, "baseline"),
    ] {
        assert!(out.status.success(), "{}", stderr(out));
        assert!(
            stdout(out).contains(": 3553372 nodes in "),
            "{}",
            stdout(out)
        );
        assert!(
            stdout(out).contains(&format!(" M nodes/s, simd {path})")),
            "{}",
            stdout(out)
        );
    }
}

#[test]
fn a_bad_arena_simd_value_is_refused_in_one_line() {
    let out = arena_with(Some("fast"), &["perft", "--depth", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: ARENA_SIMD must be off or auto, not \"fast\"\n"
    );
    let out = arena_with(Some("auto"), &["perft", "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
