//! The collector: what counts of two records of one game.

use super::*;

fn game() -> GameRecord {
    GameRecord {
        tune: None,
        pair_id: 3,
        game_id: 7,
        round: 3,
        opening_id: 5,
        black: "a".into(),
        white: "b".into(),
        start: None,
        opening_plies: 8,
        moves: "f5d6".into(),
        result: 1.0,
        disc_diff: 12,
        reason: "game over".into(),
        nodes: vec![Some(10), Some(20)],
        times_ms: vec![1.0, 2.0],
        depths: vec![Some(4), Some(5)],
        scores: Vec::new(),
    }
}

/// A pair played twice counts again only when its records differ in
/// what is counted, not in how long the moves took.
#[test]
fn records_of_one_game_count_alike_unless_their_outcome_differs() {
    let mut timed = game();
    timed.times_ms = vec![3.0, 4.0];
    timed.nodes = vec![None, Some(1)];
    timed.moves.clear();
    assert!(same_count(&game(), &timed));
    let changes: [fn(&mut GameRecord); 5] = [
        |g| g.result = 0.5,
        |g| g.disc_diff = 0,
        |g| g.reason = "time forfeit".into(),
        |g| std::mem::swap(&mut g.black, &mut g.white),
        |g| {
            g.tune = Some(crate::records::game::TunePlayed {
                iteration: 0,
                black: vec![1.0],
                white: vec![2.0],
            });
        },
    ];
    for change in changes {
        let mut other = game();
        change(&mut other);
        assert!(!same_count(&game(), &other), "{other:?}");
    }
}
