//! Perft suite (`tests/data/perft.txt`), checked against the library and,
//! for the Othello positions, against an independent square-by-square move
//! generator written here; plus symmetry, round-trip and CLI checks.

use crate::util::{arena, data, stderr, stdout};
use arena::game::othello::{board_string, parse_board_string, parse_position, Symmetry};
use arena::game::perft::{perft, perft_bulk};
use arena::game::tictactoe::TicTacToe;
use arena::{Board, Game};

/// Most leaves a single check may count: all of them in release builds, a
/// cap in debug builds so that `cargo test` stays quick.
fn node_cap() -> u64 {
    if cfg!(debug_assertions) {
        2_000_000
    } else {
        u64::MAX
    }
}

/// An independent Othello implementation: an 8x8 array and a walk in each
/// direction, nothing shared with the library.
mod slow {
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct Pos {
        /// 0 empty, 1 side to move, 2 opponent; [row][column].
        pub cells: [[u8; 8]; 8],
    }

    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];

    impl Pos {
        pub fn from_string(s: &str) -> Pos {
            let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
            let black_to_move = chars[64] == 'X';
            let mut cells = [[0u8; 8]; 8];
            for (i, c) in chars[..64].iter().enumerate() {
                let black = match c {
                    'X' => Some(true),
                    'O' => Some(false),
                    _ => None,
                };
                cells[i / 8][i % 8] = match black {
                    None => 0,
                    Some(b) if b == black_to_move => 1,
                    Some(_) => 2,
                };
            }
            Pos { cells }
        }

        fn flips_from(&self, r: i32, c: i32) -> Vec<(usize, usize)> {
            let mut all = Vec::new();
            if self.cells[r as usize][c as usize] != 0 {
                return all;
            }
            for (dr, dc) in DIRS {
                let mut run = Vec::new();
                let (mut rr, mut cc) = (r + dr, c + dc);
                while (0..8).contains(&rr)
                    && (0..8).contains(&cc)
                    && self.cells[rr as usize][cc as usize] == 2
                {
                    run.push((rr as usize, cc as usize));
                    rr += dr;
                    cc += dc;
                }
                if !run.is_empty()
                    && (0..8).contains(&rr)
                    && (0..8).contains(&cc)
                    && self.cells[rr as usize][cc as usize] == 1
                {
                    all.extend(run);
                }
            }
            all
        }

        pub fn moves(&self) -> Vec<(usize, usize)> {
            let mut m = Vec::new();
            for r in 0..8 {
                for c in 0..8 {
                    if !self.flips_from(r, c).is_empty() {
                        m.push((r as usize, c as usize));
                    }
                }
            }
            m
        }

        pub fn swapped(&self) -> Pos {
            let mut p = *self;
            for row in p.cells.iter_mut() {
                for v in row.iter_mut() {
                    *v = [0, 2, 1][*v as usize];
                }
            }
            p
        }

        pub fn play(&self, r: usize, c: usize) -> Pos {
            let mut p = *self;
            for (fr, fc) in self.flips_from(r as i32, c as i32) {
                p.cells[fr][fc] = 1;
            }
            p.cells[r][c] = 1;
            p.swapped()
        }
    }

    /// Same counting rule as the library: a pass is a ply, a finished game a leaf.
    pub fn perft(p: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = p.moves();
        if moves.is_empty() {
            let passed = p.swapped();
            if passed.moves().is_empty() {
                return 1;
            }
            return perft(&passed, depth - 1);
        }
        moves
            .iter()
            .map(|&(r, c)| perft(&p.play(r, c), depth - 1))
            .sum()
    }
}

struct Case {
    id: String,
    game: String,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn read_suite() -> Vec<Case> {
    let text = std::fs::read_to_string(data("perft.txt")).expect("tests/data/perft.txt");
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "id" => cases.push(Case {
                id: value.into(),
                game: "othello".into(),
                position: "start".into(),
                counts: vec![],
            }),
            "game" => cases.last_mut().unwrap().game = value.into(),
            "position" => cases.last_mut().unwrap().position = value.into(),
            "perft" => {
                let (d, nodes) = value.split_once(' ').unwrap();
                cases
                    .last_mut()
                    .unwrap()
                    .counts
                    .push((d.parse().unwrap(), nodes.trim().parse().unwrap()));
            }
            _ => panic!("perft.txt line {}: unknown key {key:?}", n + 1),
        }
    }
    cases
}

#[test]
fn perft_suite_matches_the_library_with_and_without_bulk_counting() {
    let cases = read_suite();
    assert!(cases.len() >= 8);
    for case in &cases {
        for &(depth, nodes) in case.counts.iter().filter(|c| c.1 <= node_cap()) {
            let (bulk, full) = match case.game.as_str() {
                "othello" => {
                    let b = parse_position(&case.position).unwrap();
                    (
                        perft_bulk(&b, depth),
                        if nodes <= 50_000_000 {
                            perft(&b, depth)
                        } else {
                            nodes
                        },
                    )
                }
                "tictactoe" => {
                    let t = if case.position == "start" {
                        TicTacToe::new()
                    } else {
                        TicTacToe::parse(&case.position).unwrap()
                    };
                    (perft_bulk(&t, depth), perft(&t, depth))
                }
                other => panic!("unknown game {other}"),
            };
            assert_eq!(bulk, nodes, "{} depth {depth} (bulk)", case.id);
            assert_eq!(full, nodes, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn independent_generator_agrees_with_the_suite() {
    for case in read_suite().iter().filter(|c| c.game == "othello") {
        let b = parse_position(&case.position).unwrap();
        let p = slow::Pos::from_string(&board_string(&b));
        for &(depth, nodes) in case
            .counts
            .iter()
            .filter(|c| c.1 <= 3_000_000.min(node_cap()))
        {
            assert_eq!(slow::perft(&p, depth), nodes, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn perft_is_invariant_under_the_8_symmetries() {
    for case in read_suite().iter().filter(|c| c.game == "othello") {
        let b = parse_position(&case.position).unwrap();
        let &(depth, nodes) = case
            .counts
            .iter()
            .rev()
            .find(|c| c.1 <= 3_000_000.min(node_cap()))
            .unwrap();
        for sym in Symmetry::ALL {
            assert_eq!(
                perft_bulk(&sym.board(&b), depth),
                nodes,
                "{} under {sym:?}",
                case.id
            );
        }
    }
}

/// xorshift64*, for reproducible random playouts.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Random positions from random playouts of random length (passes included).
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut s = seed;
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::start();
        let plies = next(&mut s) % 64;
        for _ in 0..plies {
            let mut moves = arena::MoveList::new();
            b.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            b = b.play(moves.get((next(&mut s) % moves.len() as u64) as usize));
        }
        out.push(b);
    }
    out
}

#[test]
fn random_positions_round_trip_through_position_strings() {
    for b in random_positions(2000, 7) {
        let s = board_string(&b);
        assert_eq!(parse_board_string(&s).unwrap(), b, "{s}");
        assert_eq!(board_string(&parse_board_string(&s).unwrap()), s);
        // The fast and slow generators agree on every one of them.
        let slow_moves = slow::Pos::from_string(&s).moves().len();
        assert_eq!(b.moves().count_ones() as usize, slow_moves, "{s}");
    }
}

#[test]
fn random_positions_agree_with_the_slow_generator_to_depth_3() {
    for b in random_positions(300, 11) {
        let p = slow::Pos::from_string(&board_string(&b));
        assert_eq!(
            perft_bulk(&b, 3),
            slow::perft(&p, 3),
            "{}",
            board_string(&b)
        );
    }
}

#[test]
fn cli_perft_json_contract() {
    let out = arena(&["perft", "--depth", "6", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["game"], "othello");
    assert_eq!(v["depth"], 6);
    assert_eq!(v["nodes"], 8200);
    assert!(v["seconds"].is_number() && v["nps"].is_number());
    let out = arena(&["perft", "--game", "tictactoe", "--depth", "9", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["nodes"], 255168);
}

#[test]
fn cli_bad_positions_give_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 4] = [
        (&["perft", "--depth", "2", "--position", "f5d6a1"], "error: --position: illegal move a1 at index 4 of the move list (move 3)\n"),
        (
            &["perft", "--depth", "2", "--position", "---------------------------OX------XO-------------------------- X"],
            "error: --position: position string has 63 squares, expected 64\n",
        ),
        (
            &["perft", "--depth", "2", "--position", "---------------------------OX------XO---------------------------"],
            "error: --position: position string has no side to move after its 64 squares (expected X or O)\n",
        ),
        (
            &["perft", "--depth", "2", "--position", "---------------------------OX------XO--------------------------- Z"],
            "error: --position: unknown side to move 'Z' at index 65 (expected X or O)\n",
        ),
    ];
    for (args, expected) in cases {
        let out = arena(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), expected, "{args:?}");
        assert!(stdout(&out).is_empty());
    }
    let out = arena(&[
        "perft",
        "--game",
        "tictactoe",
        "--depth",
        "2",
        "--position",
        "XXQ------",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: --position: unexpected character 'Q' at index 2 (expected X, O, - or a move like b2)\n");
}

/// Prints positions and counts for the suite file (run by hand with
/// `cargo test --release -- --ignored --nocapture print_suite_candidates`).
#[test]
#[ignore]
fn print_suite_candidates() {
    let mut found_pass = false;
    for (i, b) in random_positions(400, 2026).into_iter().enumerate() {
        let pass = b.must_pass();
        if (i % 80 == 3) || (pass && !found_pass) {
            found_pass |= pass;
            let p = slow::Pos::from_string(&board_string(&b));
            let counts: Vec<u64> = (1..=6).map(|d| slow::perft(&p, d)).collect();
            println!(
                "{} empties {} pass {pass} {counts:?}",
                board_string(&b),
                b.empties()
            );
        }
    }
}
