//! Tests of the score rules and their journal check.

use super::*;

const RESIGN: Resign = Resign {
    move_count: 2,
    score: 1,
};

fn rules(resign: Option<Resign>, draw: Option<Draw>) -> ScoreRules {
    ScoreRules { resign, draw }
}

/// A judge fed alternating moves (black first) with these scores.
fn judged(rules: ScoreRules, scores: &[Option<i32>]) -> ScoreJudge {
    let mut j = ScoreJudge::new(rules);
    for (k, &s) in scores.iter().enumerate() {
        j.see(k % 2 == 0, s);
    }
    j
}

#[test]
fn both_engines_must_agree_for_n_moves_each() {
    let r = rules(Some(RESIGN), None);
    // Black says it is down 1.5 discs twice, white up 1.5 and 3.
    let j = judged(r, &[Some(-150), Some(150), Some(-150), Some(300)]);
    let call = j.call(40);
    // The record keeps the smaller last margin, rounded: 1.5 -> 2.
    assert_eq!(
        call,
        Some(Call::Resign {
            black_lost: true,
            disc_diff: -2,
            rule: RESIGN,
        })
    );
    assert_eq!(
        call.unwrap().reason(["a", "b"]),
        "resign: a (score <= -1 for 2 moves)"
    );
    // One move each is not enough; the winner not agreeing is not either.
    assert_eq!(judged(r, &[Some(-150), Some(150)]).call(40), None);
    let j = judged(r, &[Some(-150), Some(150), Some(-150), Some(50)]);
    assert_eq!(j.call(40), None);
    // White resigning: the sign is black's.
    let j = judged(r, &[Some(900), Some(-100), Some(7000), Some(-120)]);
    assert_eq!(
        j.call(40),
        Some(Call::Resign {
            black_lost: false,
            disc_diff: 1,
            rule: RESIGN,
        })
    );
}

#[test]
fn a_missing_score_breaks_the_run() {
    let r = rules(Some(RESIGN), None);
    let j = judged(r, &[Some(-150), Some(150), None, Some(150)]);
    assert_eq!(j.call(40), None);
    // The run starts again after it.
    let j = judged(
        r,
        &[
            Some(-150),
            Some(150),
            None,
            Some(150),
            Some(-200),
            Some(150),
        ],
    );
    assert_eq!(j.call(40), None, "black has one move down after the null");
    let mut j = j;
    j.see(true, Some(-200));
    assert!(matches!(
        j.call(40),
        Some(Call::Resign {
            black_lost: true,
            ..
        })
    ));
}

#[test]
fn a_draw_is_called_from_its_move_number_within_its_window() {
    let d = Draw {
        move_number: 10,
        move_count: 2,
        score: 1,
    };
    let r = rules(None, Some(d));
    let j = judged(r, &[Some(100), Some(-100), Some(0), Some(-50)]);
    // Full move 10 is reached with 20 discs placed: 40 empties.
    assert_eq!(j.call(41), None);
    assert_eq!(j.call(40), Some(Call::Draw(d)));
    assert_eq!(
        Call::Draw(d).reason(["a", "b"]),
        "draw (|score| <= 1 for 2 moves from move 10)"
    );
    let j = judged(r, &[Some(100), Some(-101), Some(0), Some(-50)]);
    assert_eq!(j.call(30), None, "white left the window: one move in it");
    let j = judged(r, &[Some(100), None, Some(0), Some(-50)]);
    assert_eq!(j.call(30), None);
}

#[test]
fn reasons_read_back_only_as_the_runner_writes_them() {
    for text in [
        "adjudicated: solved at 14 empties",
        "adjudicated: resign: a (b) (score <= -20 for 3 moves)",
        "adjudicated: draw (|score| <= 0 for 4 moves from move 20)",
    ] {
        let c = claim(text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(format!("adjudicated: {}", c.text()), text);
    }
    assert_eq!(
        claim("adjudicated: resign: a (b) (score <= -20 for 3 moves)"),
        Some(Claim::Resign {
            loser: "a (b)",
            rule: Resign {
                move_count: 3,
                score: 20
            }
        })
    );
    for text in [
        "adjudicated: by hand",
        "adjudicated: resign: a (score <= -020 for 3 moves)",
        "adjudicated: resign: a (score <= 20 for 3 moves)",
        "adjudicated: draw (|score| <= 1 for 4 moves)",
        "resign: a (score <= -20 for 3 moves)",
    ] {
        assert_eq!(claim(text), None, "{text}");
    }
}

fn record(moves: &str, scores: &[Option<i32>], reason: &str, disc_diff: i32) -> GameRecord {
    GameRecord {
        tune: None,
        pair_id: 0,
        game_id: 0,
        round: 0,
        opening_id: 0,
        black: "a".into(),
        white: "b".into(),
        start: None,
        opening_plies: 0,
        moves: moves.into(),
        result: super::super::game::points_for(disc_diff),
        disc_diff,
        reason: reason.into(),
        nodes: vec![],
        times_ms: vec![],
        depths: vec![],
        scores: scores.to_vec(),
    }
}

#[test]
fn a_journal_game_is_held_to_its_run_rule() {
    let run = AdjudicateInfo {
        solve_at_empties: None,
        resign: Some(RESIGN),
        draw: None,
    };
    let down = [Some(-150), Some(150), Some(-150), Some(150)];
    let reason = "adjudicated: resign: a (score <= -1 for 2 moves)";
    let rec = record("f5d6c3d3", &down, reason, -2);
    assert_eq!(check_score_rules(&rec, &run), Ok(()));
    // Another disc difference than the scores give.
    let e = check_score_rules(&record("f5d6c3d3", &down, reason, -5), &run).unwrap_err();
    assert_eq!(e.field, "reason", "{e:?}");
    // A null among the scores: the rule does not call it.
    let broken = [Some(-150), Some(150), None, Some(150)];
    let e = check_score_rules(&record("f5d6c3d3", &broken, reason, -2), &run).unwrap_err();
    assert!(e.message.contains("do not call it"), "{e:?}");
    // A run without the rule, or with another one, refuses the claim.
    let none = AdjudicateInfo::default();
    let e = check_score_rules(&rec, &none).unwrap_err();
    assert!(
        e.message.contains("does not adjudicate by resignation"),
        "{e:?}"
    );
    let other = AdjudicateInfo {
        resign: Some(Resign {
            move_count: 3,
            score: 1,
        }),
        ..run
    };
    let e = check_score_rules(&rec, &other).unwrap_err();
    assert!(e.message.contains("for 3 moves"), "{e:?}");
    // A game that went on where the rule ends it.
    let on = [Some(-150), Some(150), Some(-150), Some(150), Some(-150)];
    let e = check_score_rules(&record("f5d6c3d3c4", &on, "game over", -2), &run).unwrap_err();
    assert_eq!(e.field, "moves", "{e:?}");
    // Forced passes are no moves of the rule's (checked by the runner's
    // own games in tests/adjudicate.rs); a game alone is checked for
    // its result: a resignation of a named engine, which lost.
    let end = Board::start();
    let c = claim(reason).unwrap();
    assert_eq!(check_claim(&rec, c, &end), Ok(()));
    let won = record("f5d6c3d3", &down, reason, 2);
    assert_eq!(check_claim(&won, c, &end).unwrap_err().field, "disc_diff");
    let stranger = "adjudicated: resign: z (score <= -1 for 2 moves)";
    let z = record("f5d6c3d3", &down, stranger, -2);
    let e = check_claim(&z, claim(stranger).unwrap(), &end).unwrap_err();
    assert!(e.message.contains("names neither engine"), "{e:?}");
}
