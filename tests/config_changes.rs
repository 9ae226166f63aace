//! A run of another config is refused naming what changed, field by field
//! (issue 67, item 4), through the binary: a round robin (the seed, an
//! engine's depth and table), an SPRT (a bound), a tune (iterations, delay,
//! a parameter's bound), `arena match` (the limit), a worker joining a
//! folder and a shard given to `merge`; a folder that keeps no normal form
//! of its config (older), or an edited one, is refused by the two hashes as
//! before, and still shows and reports. Every run is tiny (random movers or
//! depth 1 and 2, a handful of games) and bounded in time.

use crate::tournament::tmp;
use crate::util::{arena_in_within, repo, stderr};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

/// The longest one command may take (CI is a loaded 2-core box).
const BOUND: Duration = Duration::from_secs(120);

/// What a refusal of `run` and `match` ends with, after what changed.
const CHOOSE: &str = "): choose another output folder, or replace it with --overwrite";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `arena args` in `dir`, bounded in time.
fn arena(dir: &Path, args: &[&str]) -> Output {
    arena_in_within(dir, args, BOUND)
}

/// `arena args` in `dir`, which must succeed.
fn ok(dir: &Path, args: &[&str]) {
    let got = arena(dir, args);
    assert!(got.status.success(), "arena {args:?}: {}", stderr(&got));
}

/// Writes `dir/FILE.ron`: the tournament "changes" of `engines` (inline)
/// and `format`, seed 1, the book by its path in this checkout, playing
/// into `dir/out`.
fn config(dir: &Path, file: &str, engines: &str, format: &str) -> PathBuf {
    let text = format!(
        "Tournament(\n  name: \"changes\",\n  engines: [{engines}],\n  format: {format},\n  book: (file: {:?}, order: Sequential),\n  concurrency: 2,\n  seed: 1,\n  out: {:?},\n)\n",
        repo("openings/all-4ply.txt"),
        dir.join("out"),
    );
    let path = dir.join(format!("{file}.ron"));
    std::fs::write(&path, text).unwrap();
    path
}

/// A random mover `a` and `b`, a PVS of `depth` plies and a table of
/// `tt_mib` MiB on disc counting.
fn two_engines(depth: u32, tt_mib: u32) -> String {
    format!(
        "Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"b\", search: Pvs, deepening: true, limit: Depth({depth}), tt_mib: {tt_mib}, ordering: [HashMove], eval: Discs))"
    )
}

/// A folder's `tournament.json`.
fn record(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap()).unwrap()
}

/// The config hash a folder's record names.
fn hash(out: &Path) -> String {
    record(out)["config_hash"].as_str().unwrap().to_string()
}

/// `got` is one error line, exit 1, `start`, the new config's hash (16 hex
/// digits), then `end`.
fn refused(got: &Output, start: &str, end: &str) {
    let err = stderr(got);
    assert_eq!(got.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    let line = err.trim_end_matches('\n');
    assert!(
        line.starts_with(start) && line.ends_with(end) && line.len() >= start.len() + end.len(),
        "{line}\nshould start with {start}\nand end with {end}"
    );
    let between = &line[start.len()..line.len() - end.len()];
    assert!(
        between.len() == 16 && between.chars().all(|c| c.is_ascii_hexdigit()),
        "not a hash: {between:?} in {line}"
    );
}

/// How the refusal of a run on `out` starts: the folder's hash, then this
/// config's.
fn another_config(out: &Path) -> String {
    format!(
        "error: {} holds a run of another config (hash {}; this config is ",
        out.display(),
        hash(out)
    )
}

#[test]
fn a_round_robin_names_a_changed_seed_and_engine_fields() {
    let dir = tmp("changes-round-robin");
    let out = dir.join("out");
    let first = config(&dir, "first", &two_engines(1, 1), "RoundRobin(rounds: 1)");
    ok(&dir, &["run", s(&first), "--quiet"]);
    // The record keeps the form it hashes, and no path of this machine.
    let form = &record(&out)["config"];
    assert_eq!(arena::records::changes::form_hash(form), hash(&out));
    let text = form.to_string();
    assert!(
        !text.contains("all-4ply") && !text.contains(s(&dir)),
        "{text}"
    );
    let start = another_config(&out);
    for more in [&[][..], &["--resume"][..]] {
        let got = arena(
            &dir,
            &[&["run", s(&first), "--seed", "2"][..], more].concat(),
        );
        refused(
            &got,
            &start,
            &format!(", which changes seed: 1 -> 2{CHOOSE}"),
        );
    }
    let deeper = config(&dir, "deeper", &two_engines(2, 2), "RoundRobin(rounds: 1)");
    refused(
        &arena(&dir, &["run", s(&deeper), "--resume"]),
        &start,
        &format!(", which changes engine b: limit.Depth 1 -> 2, engine b: tt_mib 1 -> 2{CHOOSE}"),
    );
    // Four changes: the first three named, the last counted.
    let more = config(&dir, "more", &two_engines(2, 2), "RoundRobin(rounds: 2)");
    refused(
        &arena(&dir, &["run", s(&more), "--resume", "--seed", "2"]),
        &start,
        &format!(", which changes engine b: limit.Depth 1 -> 2, engine b: tt_mib 1 -> 2, format.RoundRobin.rounds: 1 -> 2 and 1 more{CHOOSE}"),
    );
    // Nothing was touched: the first config still shows its run.
    assert_eq!(record(&out)["config"], *form);
    ok(&dir, &["run", s(&first), "--quiet"]);
}

#[test]
fn a_folder_without_the_normal_form_or_with_an_edited_one_is_refused_by_hashes() {
    let dir = tmp("changes-old-folder");
    let out = dir.join("out");
    let first = config(&dir, "first", &two_engines(1, 1), "RoundRobin(rounds: 1)");
    ok(&dir, &["run", s(&first), "--quiet"]);
    let write = |rec: &serde_json::Value| {
        let text = serde_json::to_string_pretty(rec).unwrap();
        std::fs::write(out.join("tournament.json"), text).unwrap();
    };
    // As an arena from before the normal form wrote it.
    let original = record(&out);
    let mut old = original.clone();
    old.as_object_mut().unwrap().remove("config");
    write(&old);
    ok(&dir, &["report", s(&out)]);
    let start = another_config(&out);
    let seed2 = ["run", s(&first), "--seed", "2", "--resume"];
    refused(&arena(&dir, &seed2), &start, CHOOSE);
    assert_eq!(record(&out), old, "a refusal writes nothing");
    // A form that no longer hashes to the record's hash is not believed
    // (believed, it would say `seed: 99 -> 2`).
    let mut edited = original;
    edited["config"]["seed"] = serde_json::json!(99);
    write(&edited);
    refused(&arena(&dir, &seed2), &start, CHOOSE);
    // The same config shows its run and records its form again; from then
    // on a change is named.
    ok(&dir, &["run", s(&first), "--quiet"]);
    let form = &record(&out)["config"];
    assert_eq!(arena::records::changes::form_hash(form), hash(&out));
    refused(
        &arena(&dir, &seed2),
        &start,
        &format!(", which changes seed: 1 -> 2{CHOOSE}"),
    );
}

#[test]
fn an_sprt_names_a_changed_bound() {
    let dir = tmp("changes-sprt");
    let out = dir.join("out");
    let engines = "Inline(Engine(name: \"base\", search: Random, seed: 1)), Inline(Engine(name: \"new\", search: Random, seed: 2))";
    let sprt = |elo1: &str| {
        format!("Sprt(elo0: 0.0, elo1: {elo1}, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 2)")
    };
    let first = config(&dir, "first", engines, &sprt("5.0"));
    ok(&dir, &["run", s(&first), "--quiet"]);
    let wider = config(&dir, "wider", engines, &sprt("10.0"));
    refused(
        &arena(&dir, &["run", s(&wider), "--resume"]),
        &another_config(&out),
        &format!(", which changes format.Sprt.elo1: 5.0 -> 10.0{CHOOSE}"),
    );
}

#[test]
fn a_tune_names_its_changed_iterations_delay_and_bound() {
    let dir = tmp("changes-tune");
    let out = dir.join("out");
    let engine = "Inline(Engine(name: \"d1\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs, endgame_exact_at: 4))";
    let tune = |file: &str, iterations: u32, delay: u32, max: u32| {
        let format = format!(
            "Spsa(params: [(field: \"endgame_exact_at\", start: 4, min: 0, max: {max}, c_end: 1, r_end: 0.02)], iterations: {iterations}, delay: {delay})"
        );
        config(&dir, file, engine, &format)
    };
    let first = tune("first", 4, 0, 14);
    ok(&dir, &["run", s(&first), "--quiet"]);
    let start = another_config(&out);
    refused(
        &arena(&dir, &["run", s(&tune("longer", 5, 0, 14)), "--resume"]),
        &start,
        &format!(", which changes format.Spsa.iterations: 4 -> 5{CHOOSE}"),
    );
    refused(
        &arena(&dir, &["run", s(&tune("all", 5, 1, 12)), "--resume"]),
        &start,
        &format!(", which changes format.Spsa.delay: 0 -> 1, format.Spsa.iterations: 4 -> 5, format.Spsa.params[endgame_exact_at].max: 14.0 -> 12.0{CHOOSE}"),
    );
}

#[test]
fn a_match_names_its_changed_limit() {
    let dir = tmp("changes-match");
    let out = dir.join("m");
    let (a, b, book) = (
        repo("engines/squares-classic.ron"),
        repo("engines/random.ron"),
        repo("openings/all-4ply.txt"),
    );
    let play = |depth: &str, more: &[&str]| {
        let args = [
            "match",
            s(&a),
            s(&b),
            "--games",
            "2",
            "--depth",
            depth,
            "--book",
            s(&book),
            "--out",
            s(&out),
            "--quiet",
        ];
        arena(&dir, &[&args[..], more].concat())
    };
    let got = play("1", &[]);
    assert!(got.status.success(), "{}", stderr(&got));
    // The random mover has no limit to change: only the searcher's is named.
    refused(
        &play("2", &["--resume"]),
        &another_config(&out),
        &format!(", which changes engine squares-classic: limit.Depth 1 -> 2{CHOOSE}"),
    );
}

#[test]
fn a_worker_of_another_config_and_a_shard_of_one_name_what_changed() {
    let dir = tmp("changes-workers");
    let cfg = config(&dir, "first", &two_engines(1, 1), "RoundRobin(rounds: 2)");
    let shared = dir.join("shared");
    let worker = |id: &str, more: &[&str]| {
        let args = [
            "run",
            s(&cfg),
            "--out",
            s(&shared),
            "--worker",
            id,
            "--quiet",
        ];
        arena(&dir, &[&args[..], more].concat())
    };
    let got = worker("1", &[]);
    assert!(got.status.success(), "{}", stderr(&got));
    refused(
        &worker("2", &["--seed", "2"]),
        &format!(
            "error: {} holds workers of another config (hash {}; this config is ",
            shared.display(),
            hash(&shared)
        ),
        ", which changes seed: 1 -> 2): give another output folder",
    );
    // Shards of two seeds: the second is refused, naming the seed.
    let (one, two) = (dir.join("one"), dir.join("two"));
    ok(
        &dir,
        &[
            "run",
            s(&cfg),
            "--out",
            s(&one),
            "--shard",
            "1/2",
            "--quiet",
        ],
    );
    ok(
        &dir,
        &[
            "run",
            s(&cfg),
            "--out",
            s(&two),
            "--shard",
            "2/2",
            "--seed",
            "2",
            "--quiet",
        ],
    );
    let got = arena(
        &dir,
        &["merge", s(&one), s(&two), "--out", s(&dir.join("m"))],
    );
    assert_eq!(got.status.code(), Some(1), "{}", stderr(&got));
    assert_eq!(
        stderr(&got),
        format!(
            "error: {two} was run with another config (hash {}; {one} has {}; from {one} to this one: seed: 1 -> 2): only shards of one config merge\n",
            hash(&dir.join("two")),
            hash(&dir.join("one")),
            one = one.display(),
            two = two.display(),
        )
    );
}
