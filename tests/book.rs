//! Opening books: distinct-position counts against an independent slow
//! enumeration, the shipped books, bad-book messages, duplicates, the
//! tournament's opening order, `arena book generate|check|import`, and the
//! public XOT list when `../shared/data/openings/` is there.

use crate::util::{arena, data, repo, stderr, stdout};
use arena::book::{
    import_move_lists, opening_index, read_book, wrap_notice, BookError, OpeningOrder, Order,
};
use arena::game::othello::notation::move_list_string;
use arena::util::SplitMix64;
use std::path::PathBuf;

/// A fresh path under cargo's temporary directory for integration tests.
fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// An independent, slow Othello: a square-by-square move generator over an
/// 8x8 array (0 empty, 1 black, 2 white), sharing no code with the library.
mod slow {
    use std::collections::HashMap;

    pub type Grid = [[u8; 8]; 8];

    const DIRS: [(i32, i32); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];

    pub fn start() -> Grid {
        let mut g = [[0u8; 8]; 8];
        // Rows are indexed first: g[row][column]; d4 = column 3, row 3.
        g[3][3] = 2;
        g[4][4] = 2;
        g[3][4] = 1;
        g[4][3] = 1;
        g
    }

    /// Discs flipped by `me` playing at (row, col), listed.
    fn flips(g: &Grid, me: u8, row: usize, col: usize) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if g[row][col] != 0 {
            return all;
        }
        for (dr, dc) in DIRS {
            let mut run = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let v = g[r as usize][c as usize];
                if v == 3 - me {
                    run.push((r as usize, c as usize));
                } else {
                    if v == me {
                        all.extend(run);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    /// Legal moves of `me` as (name, resulting grid).
    pub fn moves(g: &Grid, me: u8) -> Vec<(String, Grid)> {
        let mut out = Vec::new();
        for row in 0..8 {
            for col in 0..8 {
                let f = flips(g, me, row, col);
                if !f.is_empty() {
                    let mut n = *g;
                    n[row][col] = me;
                    for (r, c) in f {
                        n[r][c] = me;
                    }
                    out.push((format!("{}{}", (b'a' + col as u8) as char, row + 1), n));
                }
            }
        }
        out
    }

    /// The 8 images of a grid under the symmetries of the square.
    pub fn images(g: &Grid) -> Vec<Grid> {
        let mut out = Vec::new();
        for t in 0..8 {
            let mut n = [[0u8; 8]; 8];
            for (r, row) in g.iter().enumerate() {
                for (c, &v) in row.iter().enumerate() {
                    let (mut r2, mut c2) = if t & 4 != 0 { (c, r) } else { (r, c) };
                    if t & 1 != 0 {
                        c2 = 7 - c2;
                    }
                    if t & 2 != 0 {
                        r2 = 7 - r2;
                    }
                    n[r2][c2] = v;
                }
            }
            out.push(n);
        }
        out
    }

    /// Every move list of exactly `plies` plies from the start (a side
    /// without moves passes with `pa`; a finished game ends its line), with
    /// the grid and side to move it reaches.
    pub fn all_lines(plies: usize) -> Vec<(String, Grid, u8)> {
        let mut out = Vec::new();
        let mut stack = vec![(String::new(), start(), 1u8, 0usize)];
        while let Some((line, g, me, depth)) = stack.pop() {
            if depth == plies {
                out.push((line, g, me));
                continue;
            }
            let ms = moves(&g, me);
            if ms.is_empty() {
                if !moves(&g, 3 - me).is_empty() {
                    stack.push((line + "pa", g, 3 - me, depth + 1));
                }
                continue;
            }
            for (name, n) in ms {
                stack.push((line.clone() + &name, n, 3 - me, depth + 1));
            }
        }
        out
    }

    /// For each distinct position (or symmetry class), the smallest move
    /// list reaching it; sorted.
    pub fn first_lines(plies: usize, by_symmetry: bool) -> Vec<String> {
        let mut best: HashMap<(Grid, u8), String> = HashMap::new();
        for (line, g, me) in all_lines(plies) {
            let key = if by_symmetry {
                images(&g).into_iter().min().unwrap()
            } else {
                g
            };
            let e = best.entry((key, me)).or_insert_with(|| line.clone());
            if line < *e {
                *e = line;
            }
        }
        let mut v: Vec<String> = best.into_values().collect();
        v.sort();
        v
    }
}

fn enumerate_from_start(plies: u32, by_symmetry: bool) -> Vec<arena::book::GeneratedOpening> {
    arena::book::generate::enumerate(arena::Board::start(), plies, by_symmetry)
}

fn lines(plies: u32, by_symmetry: bool) -> Vec<String> {
    enumerate_from_start(plies, by_symmetry)
        .iter()
        .map(|o| move_list_string(&o.moves))
        .collect()
}

#[test]
fn distinct_position_counts_at_plies_1_to_4() {
    let counts = |s| {
        (1..=4)
            .map(|p| enumerate_from_start(p, s).len())
            .collect::<Vec<_>>()
    };
    assert_eq!(counts(false), [4, 12, 54, 236]);
    assert_eq!(counts(true), [1, 3, 14, 60]);
}

#[test]
fn enumeration_matches_a_slow_independent_one() {
    // Same positions and classes, and for each the same first move list in
    // lexicographic order, at every ply to 7 (55,092 move lists).
    for plies in 1..=7u32 {
        for by_symmetry in [false, true] {
            let fast = lines(plies, by_symmetry);
            let slow = slow::first_lines(plies as usize, by_symmetry);
            assert_eq!(
                fast.len(),
                slow.len(),
                "plies {plies} symmetry {by_symmetry}"
            );
            assert_eq!(fast, slow, "plies {plies} symmetry {by_symmetry}");
        }
    }
    // The counts the slow enumeration gives, for the record.
    assert_eq!(lines(5, false).len(), 1288);
    assert_eq!(lines(6, false).len(), 7092);
    assert_eq!(lines(7, false).len(), 42614);
    assert_eq!(lines(5, true).len(), 322);
    assert_eq!(lines(6, true).len(), 1773);
    assert_eq!(lines(7, true).len(), 10649);
}

#[test]
fn eight_plies_is_fast_and_known() {
    let t = std::time::Instant::now();
    assert_eq!(enumerate_from_start(8, false).len(), 269_352);
    assert_eq!(enumerate_from_start(8, true).len(), 67_245);
    // Generous for debug builds; a release build takes about 0.2 s.
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
}

#[test]
fn shipped_books_read_without_duplicates() {
    let mut seen = 0;
    for entry in std::fs::read_dir(repo("openings")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            read_book(&path).unwrap_or_else(|e| panic!("{e}"));
            let out = arena(&["book", "check", "--strict", path.to_str().unwrap()]);
            assert!(out.status.success(), "{}", stderr(&out));
            seen += 1;
        }
    }
    assert!(seen >= 2, "all-4ply and balanced-8ply");
}

#[test]
fn all_4ply_is_what_its_header_command_generates() {
    let shipped = std::fs::read_to_string(repo("openings/all-4ply.txt")).unwrap();
    let first = shipped.lines().next().unwrap();
    assert_eq!(
        first,
        "# arena book generate --plies 4 --unique-by-symmetry --out openings/all-4ply.txt"
    );
    let out = tmp("all-4ply.txt");
    let run = arena(&[
        "book",
        "generate",
        "--plies",
        "4",
        "--unique-by-symmetry",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let regenerated = std::fs::read_to_string(&out).unwrap();
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&regenerated), body(&shipped));
    assert_eq!(body(&shipped).len(), 60);
    assert_eq!(body(&shipped), lines(4, true));
    // Only the recorded --out differs.
    assert_eq!(
        regenerated.lines().skip(1).collect::<Vec<_>>(),
        shipped.lines().skip(1).collect::<Vec<_>>()
    );
}

#[test]
fn every_bad_line_is_reported_with_the_move_and_why() {
    let out = arena(&[
        "book",
        "check",
        data("book/bad-lines.txt").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    let expected = [
        "bad-lines.txt: 7 bad lines",
        "  line 3: \"f5d6a1\": illegal move a1 at index 4 of the move list (move 3): a1 flips no disc for black (legal for black: c3 c4 c5 c6 c7)",
        "  line 4: \"f5f5\": illegal move f5 at index 2 of the move list (move 2): f5 is already occupied (legal for white: d6 f4 f6)",
        "  line 5: \"F5 D6 C3 z9\": \"z9\" at index 9 of the move list is not a move (expected a1..h8 or pa)",
        "  line 6: \"f5 pa\": illegal move pa at index 3 of the move list (move 2): white has legal moves (d6 f4 f6)",
        "  line 11: \"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O\": the game is over in this position (neither side can move)",
    ];
    let got: Vec<&str> = err.lines().collect();
    assert!(
        got[0].starts_with("error: ") && got[0].ends_with(expected[0]),
        "{err}"
    );
    // Position-string errors are the notation reader's own words: only
    // their place and gist are pinned here.
    let start = "---------------------------OX------XO-----------";
    assert!(
        got[5].starts_with(&format!("  line 9: \"{start}")) && got[5].contains("'Q'"),
        "{err}"
    );
    assert!(
        got[6].starts_with(&format!("  line 10: \"{start}")) && got[6].contains("53"),
        "{err}"
    );
    let mine: Vec<&str> = got[1..5].iter().chain(&got[7..]).copied().collect();
    assert_eq!(mine, &expected[1..], "{err}");
    // The library gives the same list, as data.
    let Err(BookError::BadLines { errors, .. }) = read_book(&data("book/bad-lines.txt")) else {
        panic!()
    };
    assert_eq!(
        errors.iter().map(|e| e.line).collect::<Vec<_>>(),
        [3, 4, 5, 6, 9, 10, 11]
    );
}

#[test]
fn a_long_list_of_bad_lines_is_capped() {
    let out = arena(&["book", "check", data("book/many-bad.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.lines()
            .next()
            .unwrap()
            .ends_with("many-bad.txt: 25 bad lines"),
        "{err}"
    );
    assert_eq!(
        err.lines().filter(|l| l.starts_with("  line ")).count(),
        20,
        "{err}"
    );
    assert_eq!(err.lines().last(), Some("  and 5 more"));
    let Err(BookError::BadLines { errors, .. }) = read_book(&data("book/many-bad.txt")) else {
        panic!()
    };
    assert_eq!(errors.len(), 25);
}

#[test]
fn empty_and_missing_books_are_errors() {
    let out = arena(&["book", "check", data("book/empty.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("empty.txt: no openings (every line is blank or a comment)"),
        "{}",
        stderr(&out)
    );
    let out = arena(&["book", "check", "no/such/book.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: no/such/book.txt: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_reports_duplicates_and_strict_fails() {
    let file = data("book/duplicates.txt");
    let out = arena(&["book", "check", file.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    let body: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        body,
        [
            "distinct positions: 6; up to symmetry: 3",
            "exact duplicates: 2",
            "  line 4 \"f5 D6\" repeats line 2 \"f5d6\"",
            "  line 9 \"start\" repeats line 8 \"---------------------------OX------XO--------------------------- X\"",
            "duplicates by symmetry: 3",
            "  line 5 \"d3c3\" repeats line 3 \"c4c3\" (reflection in the a1-h8 diagonal)",
            "  line 6 \"e6f4\" repeats line 2 \"f5d6\" (reflection in the a1-h8 diagonal)",
            "  line 7 \"f5f6\" repeats line 3 \"c4c3\" (rotation by 180 degrees)",
        ]
    );
    assert!(text.starts_with(&format!(
        "{}: 8 openings (7 move lists, 1 position string)",
        file.display()
    )));
    assert!(stderr(&out).starts_with("warning: "), "{}", stderr(&out));

    let out = arena(&["book", "check", "--strict", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("5 duplicate openings (--strict)"),
        "{}",
        stderr(&out)
    );

    let out = arena(&["book", "check", "--json", file.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(stdout(&out).lines().count(), 1);
    assert_eq!(v["openings"], 8);
    assert_eq!(v["distinct_positions"], 6);
    assert_eq!(v["distinct_by_symmetry"], 3);
    assert_eq!(v["exact_duplicates"][0]["line"], 4);
    assert_eq!(v["exact_duplicates"][0]["duplicate_of_line"], 2);
    assert_eq!(
        v["symmetry_duplicates"][2]["symmetry"],
        "rotation by 180 degrees"
    );
}

#[test]
fn random_order_is_pinned_forever() {
    // Changing the generator or the shuffle would change every config's
    // openings: these values must never change.
    let order = OpeningOrder::new(10, Order::Random, 1, 0).unwrap();
    let picks: Vec<usize> = (0..10).map(|p| order.pick(p).index).collect();
    assert_eq!(picks, PINNED_SEED1_LEN10);
    let mut r = SplitMix64::new(42);
    assert_eq!(r.next_u64(), 0xBDD7_3226_2FEB_6E95);
}

/// `Order::Random`, seed 1, 10 openings, start 0 (also computed by an
/// independent Python transcription of SplitMix64 and the shuffle).
const PINNED_SEED1_LEN10: [usize; 10] = [9, 0, 1, 4, 8, 2, 3, 7, 6, 5];

#[test]
fn order_rotation_permutation_and_wrap() {
    for order in [Order::Sequential, Order::Random] {
        let len = 37;
        let base = OpeningOrder::new(len, order, 7, 0).unwrap();
        let rotated = OpeningOrder::new(len, order, 7, 5).unwrap();
        let mut seen = vec![false; len];
        for p in 0..len as u64 {
            let pick = rotated.pick(p);
            assert!(!pick.wrapped && pick.cycle == 0);
            assert!(!seen[pick.index], "{order:?}: opening {} twice", pick.index);
            seen[pick.index] = true;
            // A rotation of the same order by the start index.
            assert_eq!(pick.index, base.pick((p + 5) % len as u64).index);
            // The pure function agrees.
            assert_eq!(opening_index(len, order, 7, 5, p).unwrap(), pick);
        }
        // Pair `len` starts again from the top of the order, and says so.
        let again = rotated.pick(len as u64);
        assert!(again.wrapped && again.cycle == 1);
        assert_eq!(again.index, rotated.pick(0).index);
        assert!(rotated.wraps(len as u64 + 1) && !rotated.wraps(len as u64));
    }
    assert_eq!(
        opening_index(4, Order::Sequential, 0, 2, 0).unwrap().index,
        2
    );
    assert_ne!(
        (0..20)
            .map(|p| opening_index(20, Order::Random, 1, 0, p).unwrap().index)
            .collect::<Vec<_>>(),
        (0..20)
            .map(|p| opening_index(20, Order::Random, 2, 0, p).unwrap().index)
            .collect::<Vec<_>>(),
        "different seeds, different orders"
    );
    assert!(opening_index(4, Order::Random, 0, 4, 0).is_err());
    assert!(opening_index(0, Order::Sequential, 0, 0, 0).is_err());
    assert_eq!(wrap_notice(60, 60), None);
    assert_eq!(
        wrap_notice(60, 100).unwrap(),
        "the book has 60 openings but the tournament needs 100 pairs: after pair 60 the openings \
         start again from the top of the order (each opening is played up to 2 times with each colour)"
    );
}

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
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&a), body(&b));
    assert_ne!(body(&a), body(&c));
    assert_eq!(body(&a).len(), 30);
    assert!(body(&a).windows(2).all(|w| w[0] < w[1]));
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
    assert!(body(&a).iter().all(|l| all.contains(l)));

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

#[test]
fn import_writes_move_lists_and_refuses_positions() {
    let out = tmp("imported.txt");
    let r = arena(&[
        "book",
        "import",
        data("book/duplicates.txt").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(1),
        "position strings are not move lists"
    );
    assert!(stderr(&r).contains("line 8: "), "{}", stderr(&r));
    assert!(stderr(&r).contains("not a move list"), "{}", stderr(&r));

    let src = tmp("to-import.txt");
    std::fs::write(&src, "F5D6C3\nf5 f6 e6\n").unwrap();
    let r = arena(&[
        "book",
        "import",
        src.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# arena book import "), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        ["f5d6c3", "f5f6e6"]
    );
}

/// The public XOT list, which we may not redistribute: tested only where the
/// shared data folder sits next to the repository.
#[test]
fn xot_large_list_imports_legal_and_distinct() {
    let path = repo("../shared/data/openings/xot_openingslarge.txt");
    if !path.exists() {
        eprintln!(
            "note: {} is absent; skipping the XOT import test",
            path.display()
        );
        return;
    }
    let book = import_move_lists(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.len(), 10_784);
    assert!(book
        .openings
        .iter()
        .all(|o| o.moves.as_ref().is_some_and(|m| m.len() == 8)));
    let report = arena::book::check(&book);
    assert_eq!(report.distinct_positions, 10_784);
    assert_eq!(report.duplicates(), 0);
    // After 8 moves it is always black to move with 52 empties.
    assert!(book
        .openings
        .iter()
        .all(|o| o.board.empties() == 52 && o.board.side == arena::game::othello::Color::Black));

    let out = tmp("xot.txt");
    let r = arena(&[
        "book",
        "import",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let v: serde_json::Value = serde_json::from_str(stdout(&r).trim()).unwrap();
    assert_eq!(v["openings"], 10_784);
    let written = read_book(&out).unwrap();
    let original = std::fs::read_to_string(&path).unwrap();
    let texts: Vec<&str> = written.openings.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(texts, original.lines().map(str::trim).collect::<Vec<_>>());
}

#[test]
fn a_non_ascii_line_is_a_bad_line_not_a_panic() {
    let f = tmp("utf8.txt");
    std::fs::write(&f, "a\u{20ac}\n\u{20ac}\u{20ac}\nf\u{e9}5\nf5\n").unwrap();
    let out = arena(&["book", "check", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("3 bad lines"), "{err}");
}

/// The scores, for the side to move in centidiscs, of `boards` searched
/// through the library by `engine` (a file under the repository) to `depth`
/// plies, each by a fresh searcher.
fn depth_scores(engine: &str, depth: u32, boards: &[arena::Board]) -> Vec<i32> {
    let config = arena::engine::EngineConfig::load(&repo(engine)).unwrap();
    let mut settings = config.search.expect("a searching engine");
    settings.limit = arena::search::Limit::Depth(depth);
    boards
        .iter()
        .map(|b| {
            let mut s: arena::search::Searcher<arena::Board, arena::eval::OthelloEval> =
                arena::search::Searcher::new(
                    config.eval.clone(),
                    config.raw.tt_mib,
                    config.raw.ordering.clone(),
                );
            arena::search::search(&mut s, b, &settings, None, b.empties() / 2).score
        })
        .collect()
}

/// The move lines of a book file (its comments left out).
fn book_body(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
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
