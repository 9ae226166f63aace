//! Tic-tac-toe tournaments run through the same runner as Othello: the
//! facts of the game (perfect play draws) hold in the results.

use crate::tournament::{games, tmp};
use crate::util::{arena, repo, stderr};

#[test]
fn perfect_players_draw_each_other_and_never_lose_to_a_random_mover() {
    let dir = tmp("tictactoe");
    let out = dir.join("o");
    let cfg = repo("configs/tictactoe.ron");
    let r = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let g = games(&out);
    assert_eq!(g.len(), 60);
    for rec in &g {
        assert_eq!(rec.reason, "game over");
        let perfect = |n: &str| n != "random";
        match (perfect(&rec.black), perfect(&rec.white)) {
            (true, true) => assert_eq!(rec.result, 0.5, "{rec:?}"),
            (true, false) => assert!(rec.result >= 0.5, "{rec:?}"),
            (false, true) => assert!(rec.result <= 0.5, "{rec:?}"),
            (false, false) => unreachable!("random meets only the perfect players"),
        }
    }
    assert!(!out.join("games.ggf").exists(), "GGF is Othello's");
    // report re-reads the journal, replaying tic-tac-toe moves.
    let r = arena(&["report", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    // A hand-edited move is caught as one.
    let journal = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let line = text.lines().nth(1).unwrap();
    let bad = line.replacen("\"moves\":\"", "\"moves\":\"d4", 1);
    std::fs::write(&journal, text.replacen(line, &bad, 1)).unwrap();
    let r = arena(&["report", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("journal.jsonl:2:")
            && stderr(&r).contains("moves: move 1: \"d4\" is not a cell"),
        "{}",
        stderr(&r)
    );
}

#[test]
fn engines_of_two_games_cannot_meet_and_books_are_othello_s() {
    let dir = tmp("tictactoe-errors");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let mixed = write(
        "mixed.ron",
        "Tournament(name: \"m\", engines: [Inline(Engine(name: \"t\", game: TicTacToe, search: Random)), Inline(Engine(name: \"o\", search: Random))], format: RoundRobin(rounds: 1), out: \"x\")",
    );
    let r = arena(&["run", mixed.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("engines of one tournament play one game"),
        "{}",
        stderr(&r)
    );
    let book = repo("openings/all-4ply.txt");
    let booked = write(
        "booked.ron",
        &format!("Tournament(name: \"b\", engines: [Inline(Engine(name: \"t\", game: TicTacToe, search: Random)), Inline(Engine(name: \"u\", game: TicTacToe, search: Random))], format: RoundRobin(rounds: 1), book: (file: {book:?}, order: Sequential), out: \"x\")"),
    );
    let r = arena(&["run", booked.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("book: opening books are Othello's"),
        "{}",
        stderr(&r)
    );
}
