//! Engine fields that must be stated: a searching engine without `limit`
//! or `eval` is an error naming the field (never a silent `Depth(1)` or
//! `Discs`), the random mover needs neither, and stating a field keeps the
//! config hash of every shipped config (journals of earlier runs resume).

use crate::limits::arena_for;
use crate::util::{repo, stderr, stdout};
use arena::engine::EngineConfig;
use arena::tournament::Tournament;
use std::path::{Path, PathBuf};

/// Each shipped config's hash as the code before engines had to state
/// `limit` and `eval` computed it (`tournament.json`'s `config_hash`).
/// A hash changes only when what decides the games changes: strong-gauntlet's
/// changed in 3f0704f, when the ProbCut file it named was refitted for other
/// weights; it now names that old fit under its own file, patterns-fit.ron.
const SHIPPED_HASHES: [(&str, &str); 5] = [
    ("configs/quick.ron", "c8a20ad57bd7d277"),
    ("configs/gauntlet.ron", "48fb66c70a119ff6"),
    ("configs/sprt-eval.ron", "922bf03e938214eb"),
    ("configs/strong-gauntlet.ron", "954f8e5cb348c782"),
    // Since 2026-11-29 a matrix of search variants and orderings (the six
    // engines it replaced, written out by hand, hashed 661b512ac69ccf70).
    ("configs/variants.ron", "1c41370102c95ba0"),
];

#[test]
fn shipped_config_hashes_are_unchanged() {
    for (file, hash) in SHIPPED_HASHES {
        let t = Tournament::load(&repo(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(t.hash, hash, "{file}");
    }
}

/// Writes `text` as `name` in a scratch folder and returns its path.
fn scratch_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-fields-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A tournament of `engines` (RON list items) against the random mover.
fn tournament(name: &str, engines: &str) -> PathBuf {
    scratch_file(
        name,
        &format!(
            "Tournament(\n  name: \"t\",\n  engines: [\n{engines}\n    Path({:?}),\n  ],\n  \
             format: RoundRobin(rounds: 1),\n  book: (file: {:?}, order: Sequential, start: 0),\n  \
             out: {:?},\n)",
            repo("engines/random.ron"),
            repo("openings/all-4ply.txt"),
            std::env::temp_dir().join(format!("arena-fields-out-{}", std::process::id())),
        ),
    )
}

fn one_error_line(out: &std::process::Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(stdout(out), "");
    err
}

#[test]
fn a_searching_engine_without_a_limit_or_an_evaluation_is_an_error_naming_the_field() {
    let cases = [
        ("nolimit.ron", "search: Pvs,\n  eval: Discs,", "limit: missing; engine \"x\" searches, so it must state how long it searches (e.g. limit: Depth(6)); nothing is assumed"),
        ("noeval.ron", "search: AlphaBeta(fail: Soft),\n  limit: Depth(3),", "eval: missing; engine \"x\" searches, so it must state its evaluation (e.g. eval: Discs); nothing is assumed"),
        ("neither.ron", "search: Minimax,", "limit: missing"),
    ];
    for (file, fields, says) in cases {
        let path = scratch_file(file, &format!("Engine(\n  name: \"x\",\n  {fields}\n)"));
        let p = path.to_str().unwrap();
        let e = EngineConfig::load(&path).unwrap_err().to_string();
        assert!(
            e.ends_with(&format!("{file}:2:9: {says}")) || e.contains(says),
            "{e}"
        );
        assert!(
            e.contains(&format!("{file}:2:9: ")),
            "placed at the name: {e}"
        );
        let err = one_error_line(&arena_for(30, &["search", "--engine", p]));
        assert!(err.contains(says), "{err}");
        // A tournament refuses it, for a file engine and an inline one.
        let config = tournament("file.ron", &format!("    Path({p:?}),"));
        let err = one_error_line(&arena_for(
            30,
            &["run", config.to_str().unwrap(), "--quiet"],
        ));
        assert!(err.contains(file) && err.contains(says), "{err}");
        let inline = format!("    Inline(Engine(\n      name: \"x\",\n      {fields}\n    )),");
        let config = tournament("inline.ron", &inline);
        let err = one_error_line(&arena_for(
            30,
            &["run", config.to_str().unwrap(), "--quiet"],
        ));
        assert!(
            err.contains("inline.ron:5:13: ") && err.contains(says),
            "{err}"
        );
    }
}

#[test]
fn a_limit_from_the_command_line_is_enough_and_the_random_mover_needs_neither() {
    let path = scratch_file(
        "cli-limit.ron",
        "Engine(name: \"x\", search: Pvs, eval: Discs, tt_mib: 1, ordering: [HashMove])",
    );
    let p = path.to_str().unwrap();
    for limit in [["--depth", "3"], ["--nodes", "2000"], ["--movetime", "20"]] {
        let out = arena_for(30, &["search", "--engine", p, limit[0], limit[1], "--json"]);
        assert!(out.status.success(), "{limit:?}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert!(json["best_move"].is_string(), "{json}");
    }
    let random = EngineConfig::load(&repo("engines/random.ron")).unwrap();
    assert!(random.searching().is_none());
    assert!(!random.written().stated.limit && !random.written().stated.eval);
    // Flag-described searches keep their documented defaults (depth 4, discs).
    let out = arena_for(30, &["search", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["depth"], 4, "{json}");
}

#[test]
fn stating_the_old_defaults_hashes_as_leaving_them_out_did() {
    // An engine that states limit: Depth(1) and eval: Discs serializes as
    // the same engine without them did (the random mover's fingerprint).
    let load = |text: &str| {
        EngineConfig::parse(text, Path::new("e.ron"))
            .unwrap()
            .written()
            .clone()
    };
    let bare = load("Engine(name: \"r\", search: Random)");
    let full = load("Engine(name: \"r\", search: Random, limit: Depth(1), eval: Discs)");
    assert_ne!(bare.stated, full.stated);
    assert_eq!(
        serde_json::to_string(&bare).unwrap(),
        serde_json::to_string(&full).unwrap()
    );
    assert!(serde_json::to_string(&bare)
        .unwrap()
        .contains("\"limit\":{\"Depth\":1}"));
}

#[test]
fn threads_an_engine_cannot_use_are_an_error_naming_the_field() {
    let cases = [
        ("threads-0.ron", "tt_mib: 4,\n  threads: 0,", "3:3: threads: 0 threads: give 1 to 256"),
        ("threads-300.ron", "tt_mib: 4,\n  threads: 300,", "3:3: threads: 300 threads: give 1 to 256"),
        (
            "threads-no-table.ron",
            "threads: 2,",
            "2:3: threads: 2 threads share one transposition table between iterative deepening searches: needs deepening: true and tt_mib > 0",
        ),
    ];
    for (file, fields, says) in cases {
        let path = scratch_file(
            file,
            &format!("Engine(name: \"x\", search: Pvs, deepening: true, limit: Depth(4), eval: Discs,\n  {fields}\n)"),
        );
        let err = one_error_line(&arena_for(
            30,
            &["search", "--engine", path.to_str().unwrap()],
        ));
        assert!(err.contains(&format!("{file}:{says}")), "{err}");
    }
}

#[test]
fn an_engine_on_two_threads_searches_and_solves_with_its_helpers() {
    let path = scratch_file(
        "threads-2.ron",
        "Engine(name: \"x\", search: Pvs, deepening: true, limit: Depth(7), eval: Discs,\n  \
         ordering: [HashMove, Killers], tt_mib: 4, endgame_exact_at: 12, threads: 2)",
    );
    let p = path.to_str().unwrap();
    // A midgame position (the start): the main search and its helper.
    let out = arena_for(60, &["search", "--engine", p, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["depth"], 7, "{json}");
    assert!(json["best_move"].is_string(), "{json}");
    // FFO #1 has 14 empties: above the solver's 12, searched to the end
    // by depth 14 on two threads, it finds the file's exact score (+18).
    let ffo = std::fs::read_to_string(crate::util::data("ffo/fforum-1-19.obf")).unwrap();
    let pos = ffo
        .lines()
        .next()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .trim()
        .to_string();
    let out = arena_for(
        120,
        &[
            "search",
            "--engine",
            p,
            "--depth",
            "14",
            "--position",
            &pos,
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["score_discs"], 18.0, "{json}");
}

/// strong.ron's text without its tuned `time` and its selective endgame
/// (`endgame_selective_at`, `endcut`, `endgame_share`): every such field
/// then at its default. It sets no `probcut_confidence`, so its ProbCut
/// file's holds.
fn untuned_strong() -> String {
    let mut text = std::fs::read_to_string(repo("engines/strong.ron")).unwrap();
    assert!(!text.contains("probcut_confidence"));
    for line in [
        "    endgame_selective_at: 24,\n",
        "    endcut: Some(\"probcut/endgame-train2.ron\"),\n",
        "    endgame_share: 0.75,\n",
    ] {
        assert!(text.contains(line), "strong.ron sets {line}");
        text = text.replace(line, "");
    }
    let time = text
        .find("    time: TimeUse(")
        .expect("strong.ron sets time");
    let end = time + text[time..].find("    ),\n").unwrap() + "    ),\n".len();
    format!("{}{}", &text[..time], &text[end..])
}

/// strong.ron's text, untuned and without its selective endgame, with
/// `more` written after its seed, read
/// as if it were strong.ron (its weights and ProbCut paths resolve).
fn strong_with(more: &str) -> arena::error::Result<EngineConfig> {
    let path = repo("engines/strong.ron");
    let text = untuned_strong().replace("seed: 0,", &format!("seed: 0,\n    {more}"));
    assert!(text.contains(more));
    EngineConfig::parse(&text, &path)
}

#[test]
fn time_use_and_probcut_confidence_at_their_defaults_keep_the_fingerprint() {
    let base = repo("engines");
    let plain = strong_with("").unwrap().fingerprint(&base);
    let defaults = "time: (moves_extra: 2.0, increment_share: 0.75, most: 0.25, start_until: 0.5, abort_at: 3.0),";
    assert_eq!(strong_with(defaults).unwrap().fingerprint(&base), plain);
    let changed = strong_with("time: (increment_share: 0.5),").unwrap();
    assert_ne!(changed.fingerprint(&base), plain);
    let s = changed.searching().unwrap();
    assert_eq!(s.settings.time.increment_share, 0.5);
    assert_eq!(s.settings.time.most, 0.25, "the others keep their defaults");
    // The file's confidence is 1.5; the engine's field wins.
    let pc = strong_with("probcut_confidence: Some(2.25),").unwrap();
    assert_ne!(pc.fingerprint(&base), plain);
    let loaded = pc.searching().unwrap().probcut.as_ref().unwrap().confidence;
    assert_eq!(loaded, 2.25);
    let file = strong_with("").unwrap();
    assert_eq!(
        file.searching()
            .unwrap()
            .probcut
            .as_ref()
            .unwrap()
            .confidence,
        1.5
    );
}

#[test]
fn bad_time_use_or_probcut_confidence_is_named() {
    for (more, says) in [
        ("time: (most: 2.0),", "most: time.most is 2: give 0.01 to 1"),
        (
            "time: (abort_at: 0.5),",
            "abort_at: time.abort_at is 0.5: give 1 to 100",
        ),
        (
            "time: (moves_extra: 0.0),",
            "moves_extra: time.moves_extra is 0",
        ),
        ("time: (spare: 1.0),", "spare"),
        (
            "probcut_confidence: Some(0.0),",
            "probcut_confidence: 0 sigmas",
        ),
    ] {
        let e = strong_with(more).unwrap_err().to_string();
        assert!(e.contains(says), "{more}: {e}");
        assert!(e.contains("strong.ron:"), "{more}: {e}");
    }
    let e = EngineConfig::parse(
        "Engine(name: \"x\", search: Pvs, limit: Depth(2), eval: Discs, probcut_confidence: Some(2.0))",
        Path::new("x.ron"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("no ProbCut file"), "{e}");
}

#[test]
fn the_endgame_fields_at_their_defaults_keep_the_fingerprint_and_load_the_cut_model() {
    let base = repo("engines");
    let plain = strong_with("").unwrap().fingerprint(&base);
    assert_eq!(
        strong_with("endgame_share: 0.5, endgame_selective_at: 0,")
            .unwrap()
            .fingerprint(&base),
        plain
    );
    let sel = strong_with(
        "endgame_selective_at: 22, endcut: Some(\"probcut/endgame-train2.ron\"), endgame_share: 0.75,",
    )
    .unwrap();
    assert_ne!(sel.fingerprint(&base), plain);
    let s = sel.searching().unwrap();
    assert_eq!((s.endgame_selective_at, s.solves_at()), (22, 22));
    assert_eq!(s.endgame_share, 0.75);
    assert!(s.endcut.is_some());
    let s = strong_with("").unwrap();
    let s = s.searching().unwrap();
    assert_eq!(
        (s.endgame_selective_at, s.solves_at(), s.endgame_share),
        (0, 20, 0.5)
    );
    assert!(s.endcut.is_none());
}

#[test]
fn bad_endgame_fields_are_named() {
    let cut = "endcut: Some(\"probcut/endgame-train2.ron\"),";
    for (more, says) in [
        (
            "endgame_share: 0.0,".to_string(),
            "endgame_share: 0: give more than 0",
        ),
        (
            "endgame_share: 1.5,".to_string(),
            "endgame_share: 1.5: give more than 0",
        ),
        (
            cut.to_string(),
            "endcut: nothing uses it without endgame_selective_at",
        ),
        (
            format!("endgame_selective_at: 18, {cut}"),
            "endgame_selective_at: 18 empties: the selective passes come above the exact solve",
        ),
        (
            "endgame_selective_at: 22,".to_string(),
            "endgame_selective_at: the selective passes need a cut model",
        ),
        (
            format!("endgame_selective_at: 41, {cut}"),
            "endgame_selective_at: 41 empties: use 40 or fewer",
        ),
        (
            "endgame_selective_at: 22, endcut: Some(\"probcut/missing.ron\"),".to_string(),
            "endcut: cut model",
        ),
        (
            // A midgame ProbCut file has no exact-score pairs.
            "endgame_selective_at: 22, endcut: Some(\"probcut/strong.ron\"),".to_string(),
            "endcut: ",
        ),
    ] {
        let e = strong_with(&more).unwrap_err().to_string();
        assert!(e.contains(says), "{more}: {e}");
        assert!(e.contains("strong.ron:"), "{more}: {e}");
    }
    let e = EngineConfig::parse(
        "Engine(name: \"x\", search: Pvs, deepening: true, limit: Depth(2), eval: Discs, endgame_exact_at: 10, endgame_selective_at: 20, endcut: Some(\"c.ron\"))",
        Path::new("x.ron"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("use a Patterns or Features one"), "{e}");
}

#[test]
fn bench_of_an_engine_file_searches_as_that_engine() {
    // strong.ron with the bench's own evaluation and without ProbCut: the
    // settings the bench builds in, so the bench's signature.
    let weights = repo("engines/weights");
    let text = untuned_strong()
        .replace(
            "eval: Patterns(weights: \"weights/patterns-train2.bin\")",
            &format!(
                "eval: Features(weights: {:?})",
                weights.join("features-fit.ron")
            ),
        )
        .replace("probcut: Some(\"probcut/strong.ron\")", "probcut: None");
    assert!(text.contains("features-fit.ron") && text.contains("probcut: None"));
    let path = scratch_file("bench-as-built-in.ron", &text);
    let bench = |engine: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["bench", "--depth", "6", "--json", "--engine"])
            .arg(engine)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        v["nodes"].as_u64().unwrap()
    };
    let built_in = arena::engine::bench::bench(6).nodes;
    assert_eq!(bench(&path), built_in);
    // strong.ron itself: its patterns and its ProbCut, another count.
    assert_ne!(bench(&repo("engines/strong.ron")), built_in);
    // The random mover does not search: a usage error naming the flag.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["bench", "--engine"])
        .arg(repo("engines/random.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--engine"), "{}", stderr(&out));
}
