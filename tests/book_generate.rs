//! `arena book generate`: seeded samples and what the header records, usage
//! errors, and balanced books (openings a search scores near zero), checked
//! against the library's own search of the same positions.

use crate::book::{book_body, enumerate_from_start, lines, tmp};
use crate::util::{arena, repo, stderr, stdout};
use arena::book::read_book;
use arena::game::othello::notation::move_list_string;
use std::path::PathBuf;

#[test]
fn generate_sample_is_seeded_and_recorded() {
    let run = |seed: &str, name: &str| {
        let out = tmp(name);
        let r = arena(&[
            "book",
            "generate",
            "--plies",
            "5",
            "--limit",
            "30",
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(r.status.success(), "{}", stderr(&r));
        std::fs::read_to_string(out).unwrap()
    };
    let a = run("3", "sample-a.txt");
    let b = run("3", "sample-b.txt");
    let c = run("4", "sample-c.txt");
    assert_eq!(book_body(&a), book_body(&b));
    assert_ne!(book_body(&a), book_body(&c));
    assert_eq!(book_body(&a).len(), 30);
    assert!(book_body(&a).windows(2).all(|w| w[0] < w[1]));
    assert!(
        a.starts_with("# arena book generate --plies 5 --limit 30 --seed 3 --out "),
        "{a}"
    );
    assert!(
        a.contains("# A sample of 30 of them chosen with seed 3."),
        "{a}"
    );
    // Every sampled line is one of the enumerated openings.
    let all: std::collections::HashSet<String> = lines(5, false).into_iter().collect();
    assert!(book_body(&a).iter().all(|l| all.contains(l)));

    let out = tmp("too-many.txt");
    let r = arena(&[
        "book",
        "generate",
        "--plies",
        "2",
        "--limit",
        "50",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    assert!(
        stderr(&r).contains("note: --limit 50 is more than the 12 openings there are"),
        "{}",
        stderr(&r)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&r).trim()).unwrap();
    assert_eq!(
        (
            v["enumerated"].as_u64(),
            v["written"].as_u64(),
            v["seed"].as_u64()
        ),
        (Some(12), Some(12), Some(0))
    );
}

#[test]
fn generate_usage_errors() {
    let out = tmp("usage.txt");
    let out = out.to_str().unwrap();
    for args in [
        vec!["book", "generate", "--plies", "0", "--out", out],
        vec!["book", "generate", "--plies", "11", "--out", out],
        vec![
            "book", "generate", "--plies", "3", "--seed", "1", "--out", out,
        ],
        vec!["book", "generate", "--plies", "3"],
    ] {
        let r = arena(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
    }
}

/// The scores, for the side to move in centidiscs, of `boards` searched
/// through the library by `engine` (a file under the repository) to `depth`
/// plies, each by a fresh searcher.
fn depth_scores(engine: &str, depth: u32, boards: &[arena::Board]) -> Vec<i32> {
    let config = arena::engine::EngineConfig::load(&repo(engine)).unwrap();
    let engine = config.searching().expect("a searching engine");
    let mut settings = engine.settings;
    settings.limit = arena::search::Limit::Depth(depth);
    boards
        .iter()
        .map(|b| {
            let mut s: arena::search::Searcher<arena::Board, arena::eval::OthelloEval> =
                arena::search::Searcher::new(
                    engine.eval.clone(),
                    engine.tt_mib,
                    engine.ordering.clone(),
                );
            arena::search::search(&mut s, b, &settings, None, b.empties() / 2).score
        })
        .collect()
}

/// Runs `arena book generate --plies 4 --unique-by-symmetry --balanced`
/// with alphabeta-d6 at depth 2, `max_abs` and `extra` flags, into `name`
/// (checked with `book check --strict`); returns the run, the book's text
/// and its path.
fn balanced_4ply(
    max_abs: &str,
    extra: &[&str],
    name: &str,
) -> (std::process::Output, String, PathBuf) {
    let out = tmp(name);
    let engine = repo("engines/alphabeta-d6.ron")
        .to_str()
        .unwrap()
        .to_string();
    let out_text = out.to_str().unwrap().to_string();
    let mut args: Vec<&str> = vec![
        "book",
        "generate",
        "--plies",
        "4",
        "--unique-by-symmetry",
        "--balanced",
        "--engine",
        engine.as_str(),
        "--depth",
        "2",
        "--max-abs",
        max_abs,
    ];
    args.extend_from_slice(extra);
    args.extend(["--out", out_text.as_str()]);
    let r = arena(&args);
    assert!(r.status.success(), "{args:?}: {}", stderr(&r));
    let check = arena(&["book", "check", "--strict", out_text.as_str()]);
    assert!(check.status.success(), "{}", stderr(&check));
    let text = std::fs::read_to_string(&out).unwrap();
    (r, text, out)
}

#[test]
fn balanced_books_keep_what_a_search_scores_near_zero() {
    let all = enumerate_from_start(4, true);
    let boards: Vec<arena::Board> = all.iter().map(|o| o.board).collect();
    let scores = depth_scores("engines/alphabeta-d6.ron", 2, &boards);

    // Within 0.01 discs: |score| <= 1 centidisc. With the classic squares
    // every disc this early weighs -1, so scores are small but not all 0 or
    // 1 (an independent transcription finds 44 of the 60 kept).
    let (_, text, path) = balanced_4ply("0.01", &[], "balanced.txt");
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(
            "# arena book generate --plies 4 --unique-by-symmetry --balanced --engine "
        ),
        "{text}"
    );
    assert!(first.contains(" --depth 2 --max-abs 0.01 --out "), "{text}");
    let expected: Vec<String> = all
        .iter()
        .zip(&scores)
        .filter(|(_, s)| s.abs() <= 1)
        .map(|(o, _)| move_list_string(&o.moves))
        .collect();
    assert_eq!(book_body(&text), expected, "scores {scores:?}");
    let kept = expected.len();
    assert!(kept > 0 && kept < 60, "kept {kept}; scores {scores:?}");
    assert!(
        text.contains(&format!(
            "# Balanced: searched 60 of them with engine alphabeta-d6 at depth 2; kept {kept} "
        )),
        "{text}"
    );
    // Every opening of the book, read back and searched again, is balanced.
    let book = read_book(&path).unwrap();
    let book_boards: Vec<arena::Board> = book.openings.iter().map(|o| o.board).collect();
    assert_eq!(book_boards.len(), kept);
    assert!(depth_scores("engines/alphabeta-d6.ron", 2, &book_boards)
        .iter()
        .all(|s| s.abs() <= 1));

    // No depth-2 score this early is 64 discs: all 60 are kept.
    let (_, text, _) = balanced_4ply("64", &[], "balanced-all.txt");
    assert_eq!(book_body(&text), lines(4, true));
    assert!(text.contains("; kept 60 "), "{text}");

    // Candidates are sampled before searching, the limit after, both with
    // the seed; everything is recorded in the header and the report.
    let (r, text, _) = balanced_4ply(
        "64",
        &[
            "--candidates",
            "20",
            "--limit",
            "5",
            "--seed",
            "7",
            "--json",
        ],
        "balanced-sampled.txt",
    );
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains(" --depth 2 --max-abs 64 --candidates 20 --limit 5 --seed 7 --out "),
        "{text}"
    );
    let candidates = arena::book::sample(all.clone(), 20, 7);
    let written = arena::book::sample(candidates, 5, 7);
    assert_eq!(
        book_body(&text),
        written
            .iter()
            .map(|o| move_list_string(&o.moves))
            .collect::<Vec<_>>()
    );
    assert!(
        text.contains("# Balanced: searched 20 of them (a sample chosen with seed 7) with engine alphabeta-d6 at depth 2; kept 20 "),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&r).trim()).unwrap();
    assert_eq!(v["balanced"], true);
    assert_eq!(v["engine"], "alphabeta-d6");
    assert_eq!(v["depth"], 2);
    assert_eq!(v["max_abs"].as_f64(), Some(64.0));
    assert_eq!(
        (
            v["enumerated"].as_u64(),
            v["candidates"].as_u64(),
            v["searched"].as_u64(),
            v["kept"].as_u64(),
            v["written"].as_u64(),
            v["seed"].as_u64()
        ),
        (Some(60), Some(20), Some(20), Some(20), Some(5), Some(7))
    );
}

#[test]
fn balanced_usage_errors() {
    let out = tmp("balanced-usage.txt");
    let out = out.to_str().unwrap();
    let engine = repo("engines/alphabeta-d6.ron");
    let engine = engine.to_str().unwrap();
    let base = ["book", "generate", "--plies", "2", "--out", out];
    for extra in [
        // --balanced needs all three of --engine, --depth, --max-abs.
        vec!["--balanced", "--depth", "2", "--max-abs", "1"],
        vec!["--balanced", "--engine", engine, "--max-abs", "1"],
        vec!["--balanced", "--engine", engine, "--depth", "2"],
        // And they need --balanced.
        vec!["--engine", engine, "--depth", "2", "--max-abs", "1"],
        vec!["--depth", "2"],
        vec!["--max-abs", "1"],
        vec!["--candidates", "5"],
        // Out of range.
        vec![
            "--balanced",
            "--engine",
            engine,
            "--depth",
            "0",
            "--max-abs",
            "1",
        ],
        vec![
            "--balanced",
            "--engine",
            engine,
            "--depth",
            "2",
            "--max-abs",
            "-1",
        ],
        vec![
            "--balanced",
            "--engine",
            engine,
            "--depth",
            "2",
            "--max-abs",
            "nan",
        ],
        vec![
            "--balanced",
            "--engine",
            engine,
            "--depth",
            "2",
            "--max-abs",
            "x",
        ],
        vec![
            "--balanced",
            "--engine",
            engine,
            "--depth",
            "2",
            "--max-abs",
            "1",
            "--candidates",
            "0",
        ],
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        let r = arena(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
    }
}

#[test]
fn balanced_with_a_random_mover_is_refused() {
    let out = tmp("balanced-random.txt");
    let engine = repo("engines/random.ron");
    let r = arena(&[
        "book",
        "generate",
        "--plies",
        "2",
        "--balanced",
        "--engine",
        engine.to_str().unwrap(),
        "--depth",
        "2",
        "--max-abs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let err = stderr(&r);
    assert!(
        err.starts_with("error: --engine: ") && err.contains("engine random does not search"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
}
