//! Adjudication: a game that reaches N empties ends with the solver's exact
//! result, which must be what perfect players reach by playing it out.

use crate::tournament::{config, engine, games, opts, tmp};
use crate::util::{arena, stderr};
use arena::tournament::{self, Shard};

#[test]
fn adjudication_equals_playing_the_endgame_out_with_perfect_players() {
    let dir = tmp("adjudicate");
    // Both engines solve exactly from 14 empties: from there they play
    // perfectly, so the game's end is the exact value at 14 empties.
    let engines = vec![
        engine(
            "pvs2",
            "search: Pvs, limit: Depth(2), eval: Discs, tt_mib: 1, ordering: [HashMove], endgame_exact_at: 14",
        ),
        engine(
            "ab1",
            "search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs, endgame_exact_at: 14",
        ),
    ];
    let (_, played) = config(&dir, "RoundRobin(rounds: 4)", &engines, "");
    tournament::run(
        &played,
        &opts(&dir.join("played"), 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let (_, judged) = config(
        &dir,
        "RoundRobin(rounds: 4)",
        &engines,
        "adjudicate: (solve_at_empties: Some(14)),",
    );
    assert_ne!(played.hash, judged.hash, "adjudication decides games");
    tournament::run(
        &judged,
        &opts(&dir.join("judged"), 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let (p, j) = (games(&dir.join("played")), games(&dir.join("judged")));
    assert_eq!(p.len(), 8);
    for (a, b) in p.iter().zip(&j) {
        assert_eq!(a.game_id, b.game_id);
        assert_eq!(b.reason, "adjudicated: solved at 14 empties");
        assert!(a.moves.starts_with(&b.moves), "{} / {}", a.moves, b.moves);
        assert!(b.moves.len() < a.moves.len());
        assert_eq!(
            (a.disc_diff, a.result),
            (b.disc_diff, b.result),
            "game {}",
            a.game_id
        );
    }
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("judged/results.json")).unwrap())
            .unwrap();
    assert_eq!(r["terminations"]["adjudicated"], 8);
    assert_eq!(r["forfeits"], 0);
    // The games are checked against the rule the run records: with a
    // tournament.json that says 12 empties, the report refuses them,
    // naming the journal's line and field.
    let info = dir.join("judged/tournament.json");
    let text = std::fs::read_to_string(&info).unwrap();
    let rule = "\"solve_at_empties\": 14";
    assert!(text.contains(rule), "{text}");
    std::fs::write(&info, text.replace(rule, "\"solve_at_empties\": 12")).unwrap();
    let r = arena(&["report", dir.join("judged").to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let e = stderr(&r);
    assert!(
        e.contains("journal.jsonl:2:") && e.contains("reason") && e.contains("12 empties or fewer"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn adjudication_settings_are_checked() {
    let dir = tmp("adjudicate-errors");
    let engines = vec![
        engine("r1", "search: Random"),
        engine("r2", "search: Random"),
    ];
    for (bad, want) in [
        (
            "adjudicate: (solve_at_empties: Some(0)),",
            "solve_at_empties: 0 empties: must be 1 to 30",
        ),
        (
            "adjudicate: (solve_at_empties: Some(31)),",
            "solve_at_empties: 31 empties: must be 1 to 30",
        ),
    ] {
        let text = std::fs::read_to_string(config(&dir, "RoundRobin(rounds: 1)", &engines, "").0)
            .unwrap()
            .replace("\n)\n", &format!("\n  {bad}\n)\n"));
        let path = dir.join("bad.ron");
        std::fs::write(&path, text).unwrap();
        let e = arena::tournament::Tournament::load(&path)
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{e}");
    }
}
