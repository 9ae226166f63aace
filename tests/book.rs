//! Opening books as data: distinct-position counts against an independent
//! slow enumeration, the shipped books, and the tournament's opening order.
//! The helpers here serve the other book topics too: `book_files` (reading,
//! checking and importing book files) and `book_generate` (`arena book
//! generate`, balanced books included).

use crate::util::{arena, repo, stderr};
use arena::book::{opening_index, read_book, wrap_notice, OpeningOrder, Order};
use arena::game::othello::notation::move_list_string;
use arena::rng::SplitMix64;
use std::path::PathBuf;

/// A fresh path under cargo's temporary directory for integration tests
/// (shared by the book topics).
pub(crate) fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The move lines of a book file (its comments left out).
pub(crate) fn book_body(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
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

/// The openings of `plies` plies from the start position, as the library
/// enumerates them.
pub(crate) fn enumerate_from_start(
    plies: u32,
    by_symmetry: bool,
) -> Vec<arena::book::GeneratedOpening> {
    arena::book::generate::enumerate(arena::Board::start(), plies, by_symmetry)
}

/// Their move lists, as text.
pub(crate) fn lines(plies: u32, by_symmetry: bool) -> Vec<String> {
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
    assert_eq!(book_body(&regenerated), book_body(&shipped));
    assert_eq!(book_body(&shipped).len(), 60);
    assert_eq!(book_body(&shipped), lines(4, true));
    // Only the recorded --out differs.
    assert_eq!(
        regenerated.lines().skip(1).collect::<Vec<_>>(),
        shipped.lines().skip(1).collect::<Vec<_>>()
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
