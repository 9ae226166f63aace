//! Tournaments: determinism across thread counts, kill and resume, shards
//! and merge, SPRT verdicts and exit codes, config errors. Tiny engines
//! (depth 1-2) keep every test to seconds.

use crate::util::{arena, repo, stderr, stdout};
use arena::tournament::{self, GameRecord, RunOptions, Shard, Tournament};
use std::path::{Path, PathBuf};

/// A fresh folder under cargo's temporary directory.
pub fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("tournament")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn engine(name: &str, body: &str) -> String {
    format!("Inline(Engine(name: {name:?}, {body}))")
}

/// Writes a config into `dir` (book: the shipped 4-ply book) and loads it.
pub fn config(dir: &Path, format: &str, engines: &[String], extra: &str) -> (PathBuf, Tournament) {
    let book = repo("openings/all-4ply.txt");
    let text = format!(
        "Tournament(\n  name: \"t\",\n  engines: [{}],\n  format: {format},\n  book: (file: {:?}, order: Random, start: 3),\n  concurrency: 2,\n  seed: 7,\n  out: {:?},\n  {extra}\n)\n",
        engines.join(", "),
        book.display(),
        dir.join("out").display()
    );
    let path = dir.join("config.ron");
    std::fs::write(&path, text).unwrap();
    let t = Tournament::load(&path).unwrap_or_else(|e| panic!("{e}"));
    (path, t)
}

/// The classic weights, by absolute path (tests run in any target folder).
/// A round robin of two alpha-beta searchers on weighted squares, to
/// `depth` and one less, `rounds` pairs (written by [`config`]), and its
/// output folder.
pub fn searchers_config(dir: &Path, rounds: u64, depth: u32) -> (PathBuf, PathBuf) {
    let ab = |name: &str, depth: u32| {
        engine(
            name,
            &format!(
                "search: AlphaBeta(fail: Soft), limit: Depth({depth}), eval: WeightedSquares(weights: {:?})",
                squares()
            ),
        )
    };
    let format = format!("RoundRobin(rounds: {rounds})");
    let (cfg, t) = config(dir, &format, &[ab("a", depth), ab("b", depth - 1)], "");
    (cfg, t.out)
}

pub fn squares() -> PathBuf {
    repo("engines/weights/squares-classic.ron")
}

pub fn three_engines() -> Vec<String> {
    vec![
        engine("random", "search: Random, seed: 3"),
        engine("ab1", &format!("search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?})", squares())),
        engine("pvs2", "search: Pvs, deepening: true, limit: Depth(2), tt_mib: 1, ordering: [HashMove], eval: Discs"),
    ]
}

pub fn opts(out: &Path, concurrency: usize, shard: Shard, resume: bool) -> RunOptions {
    RunOptions {
        concurrency: Some(concurrency),
        out: Some(out.to_path_buf()),
        shard,
        resume,
        ..RunOptions::default()
    }
}

/// The games of a results folder without timings, in game_id order.
pub fn games(out: &Path) -> Vec<GameRecord> {
    let mut g = arena::records::journal::read(&out.join("journal.jsonl"))
        .unwrap()
        .games;
    g.sort_by_key(|r| r.game_id);
    for r in &mut g {
        r.times_ms.clear();
    }
    g
}

/// A game's two engines, in name order (colours aside).
pub fn players(g: &GameRecord) -> [&str; 2] {
    let mut names = [g.black.as_str(), g.white.as_str()];
    names.sort_unstable();
    names
}

/// results.json without the fields that name the run rather than its games,
/// and without timings (which no two runs share).
pub fn results(out: &Path) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("shard");
    for e in v["engine_moves"].as_array_mut().unwrap() {
        let e = e.as_object_mut().unwrap();
        e.remove("avg_time_ms");
        e.remove("nps");
    }
    v
}

/// games.ggf without each move's time (`B[F5/-1.50/0.012]` becomes
/// `B[F5/-1.50]`) and the date (`DT[...]`, the journal's last write),
/// which no two runs share.
fn untimed_ggf(out: &Path) -> String {
    let text = std::fs::read_to_string(out.join("games.ggf")).unwrap();
    assert!(text.contains("DT["), "games.ggf is dated");
    let pieces: Vec<&str> = text
        .split(']')
        .filter(|piece| !piece.starts_with("DT["))
        .map(|piece| match (piece.rfind('['), piece.rfind('/')) {
            (Some(open), Some(slash)) if piece[open..].matches('/').count() == 2 => &piece[..slash],
            _ => piece,
        })
        .collect();
    pieces.join("]")
}

#[test]
fn same_games_and_results_with_1_or_4_threads() {
    let dir = tmp("threads");
    let (_, t) = config(&dir, "RoundRobin(rounds: 4)", &three_engines(), "");
    let a = dir.join("a");
    let b = dir.join("b");
    tournament::run(&t, &opts(&a, 1, Shard::ALL, false), &mut tournament::Silent).unwrap();
    tournament::run(&t, &opts(&b, 4, Shard::ALL, false), &mut tournament::Silent).unwrap();
    assert_eq!(games(&a).len(), 24);
    assert_eq!(games(&a), games(&b));
    assert_eq!(results(&a), results(&b));
    assert_eq!(untimed_ggf(&a), untimed_ggf(&b));
}

#[test]
fn every_pair_plays_one_opening_both_ways_round() {
    let dir = tmp("pairs");
    let (_, t) = config(&dir, "RoundRobin(rounds: 3)", &three_engines(), "");
    let out = dir.join("o");
    tournament::run(
        &t,
        &opts(&out, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let g = games(&out);
    for pair in g.chunks(2) {
        assert_eq!(pair[0].pair_id, pair[1].pair_id);
        assert_eq!(pair[0].opening_id, pair[1].opening_id);
        assert_eq!(
            (&pair[0].black, &pair[0].white),
            (&pair[1].white, &pair[1].black)
        );
        let plies = pair[0].opening_plies;
        assert_eq!(
            pair[0].moves[..2 * plies],
            pair[1].moves[..2 * plies],
            "same opening moves"
        );
    }
    let mut openings: Vec<usize> = g.iter().map(|r| r.opening_id).collect();
    openings.dedup();
    assert_eq!(openings.len(), 9, "a new opening for each of the 9 pairs");
}

#[test]
fn a_tournament_on_the_balanced_book_plays_each_opening_both_ways_round() {
    let dir = tmp("balanced");
    let book = repo("openings/balanced-8ply.txt");
    let text = format!(
        "Tournament(name: \"b\", engines: [{}, {}], format: RoundRobin(rounds: 6), book: (file: {:?}, order: Random, start: 0), seed: 3, out: {:?})",
        engine("ab1", "search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs"),
        engine("random", "search: Random"),
        book.display(),
        dir.join("out").display()
    );
    let path = dir.join("c.ron");
    std::fs::write(&path, text).unwrap();
    let t = Tournament::load(&path).unwrap();
    assert!(t.book.len() >= 2000);
    let out = dir.join("o");
    tournament::run(
        &t,
        &opts(&out, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let g = games(&out);
    assert_eq!(g.len(), 12);
    for pair in g.chunks(2) {
        let opening = &t.book.openings[pair[0].opening_id];
        let moves = opening.move_list().unwrap();
        assert_eq!(moves.len(), 16, "8-ply openings");
        for game in pair {
            assert!(
                game.moves.starts_with(&moves),
                "{} starts with {moves}",
                game.moves
            );
        }
        assert_eq!(
            (&pair[0].black, &pair[0].white),
            (&pair[1].white, &pair[1].black)
        );
    }
}

#[test]
fn resume_after_a_torn_journal_gives_the_uninterrupted_results() {
    let dir = tmp("resume");
    let (_, t) = config(&dir, "RoundRobin(rounds: 3)", &three_engines(), "");
    let full = dir.join("full");
    tournament::run(
        &t,
        &opts(&full, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();

    // A kill mid-write: the header, 7 whole games and half of the 8th.
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let text = std::fs::read_to_string(full.join("journal.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut torn = lines[..8].join("\n");
    torn.push('\n');
    torn.push_str(&lines[8][..lines[8].len() / 2]);
    std::fs::write(cut.join("journal.jsonl"), torn).unwrap();

    // Without --resume the journal is never overwritten.
    let err = tournament::run(
        &t,
        &opts(&cut, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap_err()
    .to_string();
    // The library names the setting; the binary its flag (tests/flags.rs).
    assert!(err.contains("continue it with resume"), "{err}");
    tournament::run(
        &t,
        &opts(&cut, 2, Shard::ALL, true),
        &mut tournament::Silent,
    )
    .unwrap();
    assert_eq!(games(&cut), games(&full));
    assert_eq!(results(&cut), results(&full));
    // Every line of the resumed journal is whole.
    let j = std::fs::read_to_string(cut.join("journal.jsonl")).unwrap();
    assert_eq!(j.lines().count(), 1 + 18);
}

#[test]
fn kill_9_then_resume_matches_an_uninterrupted_run() {
    let dir = tmp("kill");
    let engines = vec![
        engine("ab4", "search: AlphaBeta(fail: Soft), limit: Depth(4), eval: Discs"),
        engine("pvs4", "search: Pvs, deepening: true, limit: Depth(4), tt_mib: 1, ordering: [HashMove, FastestFirst], eval: Discs"),
    ];
    let (path, t) = config(&dir, "RoundRobin(rounds: 100)", &engines, "");
    let full = dir.join("full");
    tournament::run(
        &t,
        &opts(&full, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();

    let killed = dir.join("killed");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            path.to_str().unwrap(),
            "--out",
            killed.to_str().unwrap(),
            "--quiet",
        ])
        .spawn()
        .unwrap();
    // Wait (bounded) until some games are in, then kill -9.
    let journal = killed.join("journal.jsonl");
    for _ in 0..2000 {
        let n = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n > 10 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let played = arena::records::journal::read(&journal).unwrap().games.len();
    assert!(
        played < 200,
        "the kill came before the end ({played} games)"
    );
    let out = arena(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        killed.to_str().unwrap(),
        "--resume",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(games(&killed), games(&full));
    assert_eq!(results(&killed), results(&full));
}

#[test]
fn a_journal_of_another_config_is_refused() {
    let dir = tmp("other");
    let (_, t) = config(&dir, "RoundRobin(rounds: 1)", &three_engines(), "");
    let out = dir.join("o");
    tournament::run(
        &t,
        &opts(&out, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    // Other engines and more rounds (more rounds alone would extend the
    // run, see tests/matchup.rs).
    let (_, t2) = config(&dir, "RoundRobin(rounds: 2)", &three_engines()[..2], "");
    for resume in [true, false] {
        let err = tournament::run(
            &t2,
            &opts(&out, 2, Shard::ALL, resume),
            &mut tournament::Silent,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("holds a run of another config")
                && err.contains(&t.hash)
                && err.contains(&t2.hash),
            "{err}"
        );
    }
    // --overwrite replaces it.
    let o = RunOptions {
        overwrite: true,
        ..opts(&out, 2, Shard::ALL, false)
    };
    tournament::run(&t2, &o, &mut tournament::Silent).unwrap();
    assert_eq!(games(&out).len(), 4);
}

#[test]
fn three_shards_merged_equal_the_unsharded_run() {
    let dir = tmp("shards");
    let (_, t) = config(&dir, "RoundRobin(rounds: 4)", &three_engines(), "");
    let whole = dir.join("whole");
    tournament::run(
        &t,
        &opts(&whole, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let p = dir.join(format!("shard{k}"));
        tournament::run(
            &t,
            &opts(&p, 1, Shard { index: k, count: 3 }, false),
            &mut tournament::Silent,
        )
        .unwrap();
        parts.push(p);
    }
    let merged = dir.join("merged");
    let out = arena(&[
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        parts[2].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(results(&merged), results(&whole));

    // report recomputes the same from the journal alone.
    std::fs::remove_file(merged.join("results.json")).unwrap();
    let out = arena(&["report", merged.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(results(&merged), results(&whole));
}

#[test]
fn sprt_accepts_h1_for_a_stronger_candidate_and_h0_fails_ci_with_exit_3() {
    let dir = tmp("sprt");
    let strong = engine(
        "ab2",
        &format!(
            "search: AlphaBeta(fail: Soft), limit: Depth(2), eval: WeightedSquares(weights: {:?})",
            squares()
        ),
    );
    let weak = engine("random", "search: Random");
    let sprt =
        "Sprt(elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 1000)";

    // [baseline, candidate]: the candidate is much stronger.
    let (path, _) = config(
        &dir,
        sprt,
        &[weak.clone(), strong.clone()],
        "fail_on_h0: true,",
    );
    let out = arena(&["run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("SPRT verdict: H1"), "{text}");
    for prefix in ["Elo: ", "LOS: ", "Games: ", "Ptnml(0-2): [", "LLR: "] {
        assert!(
            text.lines().any(|l| l.starts_with(prefix)),
            "{prefix} missing in {text}"
        );
    }
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/results.json")).unwrap())
            .unwrap();
    assert_eq!(r["verdict"], "H1");
    assert!(r["games"].as_u64().unwrap() < 2000, "stopped early");

    // The candidate is the random mover: H0, and exit code 3.
    let dir = tmp("sprt-h0");
    let (path, _) = config(&dir, sprt, &[strong, weak], "fail_on_h0: true,");
    let out = arena(&["run", path.to_str().unwrap(), "--concurrency", "1"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stdout(&out).contains("SPRT verdict: H0"));
}

fn config_error(text: &str) -> String {
    let dir = tmp("errors");
    let path = dir.join("c.ron");
    std::fs::write(&path, text).unwrap();
    let out = arena(&["run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    err
}

#[test]
fn config_errors_name_the_file_line_and_value() {
    let book = repo("openings/all-4ply.txt");
    let base = |format: &str, engines: &str, book: &str| {
        let out = tmp("errors-out").join("o");
        format!("Tournament(\n  name: \"x\",\n  engines: [{engines}],\n  format: {format},\n  book: (file: {book:?}, order: Sequential),\n  out: {out:?},\n)\n")
    };
    let two =
        "Inline(Engine(name: \"a\", search: Random)), Inline(Engine(name: \"b\", search: Random))";
    let e = config_error(&base(
        "Sprt(elo0: 5.0, elo1: 2.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 10)",
        two,
        book.to_str().unwrap(),
    ));
    assert!(
        e.contains("c.ron:4:") && e.contains("elo0 (5) must be below elo1 (2)"),
        "{e}"
    );

    let e = config_error(&base(
        "RoundRobin(rounds: 1)",
        "Inline(Engine(name: \"a\", search: Random)), Path(\"engines/x.ron\")",
        book.to_str().unwrap(),
    ));
    assert!(
        e.contains("c.ron:3:") && e.contains("engines/x.ron not found"),
        "{e}"
    );

    let empty = tmp("empty-book").join("y.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let e = config_error(&base("RoundRobin(rounds: 1)", two, empty.to_str().unwrap()));
    assert!(
        e.contains("c.ron:5:") && e.contains("has no openings"),
        "{e}"
    );

    let e = config_error(&base(
        "RoundRobin(rounds: 1, colour: 1)",
        two,
        book.to_str().unwrap(),
    ));
    assert!(e.contains("c.ron:4:") && e.contains("colour"), "{e}");

    let e = config_error(&base(
        "RoundRobin(rounds: 1)",
        "Inline(Engine(name: \"a\", search: Random)), Inline(Engine(name: \"a\", search: Random))",
        book.to_str().unwrap(),
    ));
    assert!(e.contains("two engines are named \"a\""), "{e}");
}

#[test]
fn every_shipped_config_loads() {
    let mut n = 0;
    for entry in std::fs::read_dir(repo("configs")).unwrap() {
        let path = entry.unwrap().path();
        Tournament::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n += 1;
    }
    assert!(n >= 4, "quick, sprt-eval, variants, gauntlet");
}

#[test]
fn regression_a_header_without_its_newline_survives_resume() {
    let dir = tmp("header");
    let (_, t) = config(&dir, "RoundRobin(rounds: 2)", &three_engines(), "");
    let full = dir.join("full");
    tournament::run(
        &t,
        &opts(&full, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let text = std::fs::read_to_string(full.join("journal.jsonl")).unwrap();
    std::fs::write(cut.join("journal.jsonl"), text.lines().next().unwrap()).unwrap();
    tournament::run(
        &t,
        &opts(&cut, 2, Shard::ALL, true),
        &mut tournament::Silent,
    )
    .unwrap();
    assert_eq!(games(&cut), games(&full));
    let out = arena(&["report", cut.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn regression_absurd_sizes_are_errors_not_aborts() {
    let dir = tmp("sizes");
    let path = dir.join("c.ron");
    let book = repo("openings/all-4ply.txt");
    std::fs::write(
        &path,
        format!(
            "Tournament(name: \"x\", engines: [{}, {}], format: RoundRobin(rounds: 18446744073709551615), book: (file: {:?}, order: Sequential), out: {:?})",
            engine("a", "search: Random"),
            engine("b", "search: Random"),
            book.display(),
            dir.join("o").display()
        ),
    )
    .unwrap();
    let out = arena(&["run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("rounds:") && stderr(&out).contains("at most"),
        "{}",
        stderr(&out)
    );

    let e = dir.join("asp.ron");
    std::fs::write(&e, "Engine(name: \"a\", search: Pvs, deepening: true, aspiration: Some(2147483647), limit: Depth(3), eval: Discs)").unwrap();
    let out = arena(&["search", "--engine", e.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("aspiration"), "{}", stderr(&out));

    let (valid, _) = config(&dir, "RoundRobin(rounds: 1)", &three_engines(), "");
    let out = arena(&["run", valid.to_str().unwrap(), "--concurrency", "100000"]);
    assert_eq!(out.status.code(), Some(2), "a bad command-line value");
    assert!(
        stderr(&out).contains("--concurrency") && stderr(&out).contains("1..=256"),
        "{}",
        stderr(&out)
    );
}
