//! Checks of journal records: replays, results, forfeits, adjudications.

use super::*;

fn record(moves: &str, result: f64, disc_diff: i32, reason: &str) -> GameRecord {
    GameRecord {
        tune: None,
        pair_id: 0,
        game_id: 1,
        round: 0,
        opening_id: 0,
        black: "a".into(),
        white: "b".into(),
        start: None,
        opening_plies: 0,
        moves: moves.into(),
        result,
        disc_diff,
        reason: reason.into(),
        nodes: vec![],
        times_ms: vec![],
        depths: vec![],
        scores: vec![],
    }
}

// The shortest Othello game: black wins 13-0 after 9 moves (a
// well-known fact of the game).
const SHORTEST: &str = "e6f4e3f6g5d6e7f5c5";

#[test]
fn a_true_game_passes_and_each_lie_is_named() {
    let check = |r: &GameRecord| check_game(r, GameKind::Othello);
    assert_eq!(check(&record(SHORTEST, 1.0, 64, "game over")), Ok(()));
    let field = |r: GameRecord| check(&r).unwrap_err().field;
    assert_eq!(field(record(SHORTEST, 7.0, 64, "game over")), "result");
    assert_eq!(field(record(SHORTEST, 0.0, 64, "game over")), "result");
    assert_eq!(field(record(SHORTEST, 1.0, 13, "game over")), "disc_diff");
    assert_eq!(field(record("e6f4e3f6", 1.0, 64, "game over")), "moves");
    assert_eq!(field(record("e6e6", 1.0, 64, "crash: a (x)")), "moves");
    assert_eq!(field(record("e6", 0.5, 0, "crash: a (x)")), "result");
    assert_eq!(check(&record("e6", 0.0, -64, "crash: a (x)")), Ok(()));
    // A forfeit names its loser: the result must be that engine's loss,
    // even when one name begins the other, and in the older form
    // without details.
    assert_eq!(field(record("e6", 1.0, 64, "crash: a (x)")), "result");
    assert_eq!(field(record("e6", 0.0, -60, "crash: a (x)")), "disc_diff");
    assert_eq!(field(record("e6", 0.0, -64, "crash: c (x)")), "reason");
    assert_eq!(field(record("e6", 0.0, -64, "resigned")), "reason");
    assert_eq!(check(&record("e6", 0.0, -64, "time forfeit: a")), Ok(()));
    let mut prefix = record("e6", 1.0, 64, "crash: a (ext) (exit status 1)");
    prefix.white = "a (ext)".into();
    assert_eq!(check(&prefix), Ok(()));
    // Per-move lists fit the moves after the opening.
    let mut lists = record(SHORTEST, 1.0, 64, "game over");
    lists.nodes = vec![Some(1); 8];
    assert_eq!(field(lists.clone()), "nodes");
    lists.nodes = vec![None; 9]; // not reported: as good as 0 was
    assert_eq!(check(&lists), Ok(()));
    lists.opening_plies = 10;
    assert_eq!(field(lists), "opening_plies");
    // Tic-tac-toe: X takes the top row in five moves and scores 10 - 5.
    let ttt =
        |m: &str, r: f64, d: i32| check_game(&record(m, r, d, "game over"), GameKind::TicTacToe);
    assert_eq!(ttt("a1a2b1b2c1", 1.0, 5), Ok(()));
    assert_eq!(ttt("a1a2b1b2c1", 1.0, 4).unwrap_err().field, "disc_diff");
    assert_eq!(ttt("a1a1", 1.0, 5).unwrap_err().field, "moves");
    assert_eq!(ttt("a1d9", 1.0, 5).unwrap_err().field, "moves");
    let adjudicated = record("a1a2", 0.5, 0, "adjudicated: solved at 7 empties");
    assert_eq!(
        check_game(&adjudicated, GameKind::TicTacToe)
            .unwrap_err()
            .field,
        "reason"
    );
}

#[test]
fn an_adjudication_stops_where_its_reason_and_the_run_say() {
    let check = |r: &GameRecord| check_game(r, GameKind::Othello);
    let field = |r: GameRecord| check(&r).unwrap_err().field;
    // Two moves leave 58 empties.
    let at = |n: u32| {
        record(
            "e6f4",
            0.0,
            -2,
            &format!("adjudicated: solved at {n} empties"),
        )
    };
    assert_eq!(check(&at(58)), Ok(()));
    assert_eq!(field(at(57)), "reason");
    assert_eq!(
        field(record("e6f4", 0.0, -2, "adjudicated: by hand")),
        "reason"
    );
    let over = record(SHORTEST, 1.0, 64, "adjudicated: solved at 55 empties");
    assert_eq!(field(over), "reason");
    // Against the run's rule.
    assert_eq!(check_adjudication_rule(&at(58), Some(58)), Ok(()));
    assert_eq!(
        check_adjudication_rule(&at(58), Some(57))
            .unwrap_err()
            .field,
        "reason"
    );
    assert_eq!(
        check_adjudication_rule(&at(58), None).unwrap_err().field,
        "reason"
    );
    // A move played where the run would have adjudicated: the third
    // move was played at 58 empties.
    let played_on = record("e6f4e3", 0.0, -64, "crash: b (x)");
    assert_eq!(check_adjudication_rule(&played_on, Some(57)), Ok(()));
    assert_eq!(check_adjudication_rule(&played_on, None), Ok(()));
    let e = check_adjudication_rule(&played_on, Some(58)).unwrap_err();
    assert_eq!(e.field, "moves");
    assert!(e.message.contains("at 58 empties"), "{}", e.message);
    // Adjudicated within the limit but later than it allowed: the
    // second move was played at 59 empties, where a run that
    // adjudicates at 59 would have stopped it.
    assert_eq!(
        check_adjudication_rule(&at(58), Some(59))
            .unwrap_err()
            .field,
        "moves"
    );
    // Moves of the opening are not the run's: an opening that ends
    // within the limit is adjudicated before any move of the game.
    let mut opening = played_on.clone();
    opening.opening_plies = 3;
    assert_eq!(check_adjudication_rule(&opening, Some(58)), Ok(()));
}
