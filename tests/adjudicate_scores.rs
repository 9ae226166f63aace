//! Resign and draw adjudication by the engines' reported scores
//! (cutechess-cli's -resign and -draw): the journal and report.html name
//! the reason, a journal line claiming an adjudication the run's rule does
//! not allow is refused, and bad values are one line.

use crate::tournament::{config, engine, games, tmp};
use crate::util::{arena, repo, stderr};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const RESIGN: &str = "adjudicated: resign: ";

#[test]
fn a_match_resigns_by_both_engines_scores_and_says_so() {
    let dir = tmp("adjudicate-resign");
    let out = dir.join("m");
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/alphabeta-d6.ron"),
    );
    let book = repo("openings/all-4ply.txt");
    let args = [
        "match",
        s(&a),
        s(&b),
        "--pairs",
        "2",
        "--depth",
        "2",
        "--book",
        s(&book),
        "--concurrency",
        "1",
        "--out",
        s(&out),
        "--quiet",
        "--resign",
        "movecount=2",
        "score=4",
    ];
    let r = arena(&args);
    assert!(r.status.success(), "{}", stderr(&r));
    let g = games(&out);
    assert_eq!(g.len(), 4);
    let resigned: Vec<_> = g.iter().filter(|r| r.reason.starts_with(RESIGN)).collect();
    assert!(!resigned.is_empty(), "{g:#?}");
    for r in &resigned {
        let loser = if r.result == 0.0 { &r.black } else { &r.white };
        assert_eq!(
            r.reason,
            format!("{RESIGN}{loser} (score <= -4 for 2 moves)")
        );
        assert!((4..=64).contains(&r.disc_diff.abs()), "{r:?}");
        // The engines' last scores agree: the loser's is -4 discs or less.
        let plies = r.moves.len() / 2 - r.opening_plies;
        assert!(plies >= 4 && r.scores.len() == plies, "{r:?}");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let shown = resigned[0].reason.replace('<', "&lt;");
    assert!(html.contains(&shown), "{shown} not in report.html");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains(&resigned[0].reason), "{summary}");
    assert!(arena(&["report", s(&out)]).status.success());

    // A journal line claiming a resignation the run's rule does not allow
    // (3 discs where the run said 4) is refused by report and --resume,
    // naming the file, line and field.
    let journal = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains(RESIGN))
        .map(|i| i + 1)
        .unwrap();
    std::fs::write(&journal, text.replace("score <= -4 for", "score <= -3 for")).unwrap();
    let r = arena(&["report", s(&out)]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let e = stderr(&r);
    assert!(
        e.contains(&format!("journal.jsonl:{line}:"))
            && e.contains(": reason: ")
            && e.contains(
                "this run adjudicates resignations as \"resign: NAME (score <= -4 for 2 moves)\""
            ),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    let mut resume = args.to_vec();
    resume.push("--resume");
    let r = arena(&resume);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains(&format!("journal.jsonl:{line}:")) && stderr(&r).contains(": reason: "),
        "{}",
        stderr(&r)
    );
}

#[test]
fn a_config_draws_by_both_engines_scores() {
    let dir = tmp("adjudicate-draw");
    let engines = vec![
        engine("ab1", &format!("search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?})", crate::tournament::squares())),
        engine("pvs2", "search: Pvs, limit: Depth(2), tt_mib: 1, ordering: [HashMove], eval: Discs"),
    ];
    let rule = "adjudicate: (draw: Some((move_number: 12, move_count: 2, score: 64))),";
    let (plain_path, plain) = config(&dir, "RoundRobin(rounds: 2)", &engines, "");
    let plain_path = {
        let kept = dir.join("plain.ron");
        std::fs::copy(&plain_path, &kept).unwrap();
        kept
    };
    let (path, t) = config(&dir, "RoundRobin(rounds: 2)", &engines, rule);
    assert_ne!(t.hash, plain.hash, "draw adjudication decides games");
    let out = dir.join("out");
    let r = arena(&["run", s(&path), "--quiet"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let reason = "adjudicated: draw (|score| <= 64 for 2 moves from move 12)";
    let g = games(&out);
    let drawn: Vec<_> = g.iter().filter(|r| r.reason == reason).collect();
    assert!(!drawn.is_empty(), "{g:#?}");
    for r in &drawn {
        assert_eq!((r.result, r.disc_diff), (0.5, 0));
        // Move 12 is reached with 24 discs placed: 36 empties or fewer.
        let plies = r.moves.len() / 2;
        assert!(plies >= 24, "{r:?}");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains(&reason.replace('<', "&lt;")),
        "no reason in report.html"
    );

    // The same rule given on run's command line: the same games.
    let flag_out = dir.join("flags");
    let r = arena(&[
        "run",
        s(&plain_path),
        "--out",
        s(&flag_out),
        "--quiet",
        "--draw",
        "movenumber=12",
        "movecount=2",
        "score=64",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(games(&flag_out), g);

    // A journal claiming a draw the run does not adjudicate is refused.
    let info = out.join("tournament.json");
    let text = std::fs::read_to_string(&info).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["adjudicate"]["draw"]["move_number"], 12, "{text}");
    let mut v = v;
    v["adjudicate"].as_object_mut().unwrap().remove("draw");
    std::fs::write(&info, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let r = arena(&["report", s(&out)]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let e = stderr(&r);
    assert!(
        e.contains("journal.jsonl:") && e.contains("does not adjudicate draws"),
        "{e}"
    );
}

#[test]
fn bad_adjudication_values_are_one_line() {
    let dir = tmp("adjudicate-flags");
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/random.ron"),
    );
    let out = dir.join("never");
    for (flag, want) in [
        (
            vec!["--resign", "movecount=2"],
            "--resign: score= is missing",
        ),
        (
            vec!["--resign", "movecount=2", "score=x"],
            "--resign: score=\"x\": not a whole number",
        ),
        (
            vec!["--resign", "movecount=2", "score=1", "depth=3"],
            "--resign: \"depth\" is not one of movecount, score",
        ),
        (
            vec!["--resign", "movecount=0", "score=1"],
            "--resign: move_count 0: must be 1 to 60",
        ),
        (
            vec!["--draw", "movecount=2", "score=1"],
            "--draw: movenumber= is missing",
        ),
        (
            vec!["--draw", "movenumber=40", "movecount=2", "score=1"],
            "--draw: move_number 40: must be 0 to 29",
        ),
        (vec!["--adjudicate-solve", "0"], "--adjudicate-solve"),
        (vec!["--adjudicate-solve", "x"], "--adjudicate-solve"),
    ] {
        let mut args = vec!["match", s(&a), s(&b), "--pairs", "1", "--out", s(&out)];
        args.extend(flag.iter().copied());
        let r = arena(&args);
        assert_eq!(r.status.code(), Some(2), "{flag:?}: {}", stderr(&r));
        let e = stderr(&r);
        assert!(e.contains(want), "{flag:?}: {e}");
        assert!(!out.exists(), "{flag:?} wrote {}", out.display());
    }
    // In a config: the file, line and field, exit 1.
    let engines = vec![
        engine("r1", "search: Random"),
        engine("r2", "search: Random"),
    ];
    let bad = "adjudicate: (resign: Some((move_count: 3, score: 0))),";
    let text = std::fs::read_to_string(config(&dir, "RoundRobin(rounds: 1)", &engines, "").0)
        .unwrap()
        .replace("\n)\n", &format!("\n  {bad}\n)\n"));
    let path = dir.join("bad.ron");
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().position(|l| l.contains("resign")).unwrap() + 1;
    let r = arena(&["run", s(&path), "--quiet"]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    let e = stderr(&r);
    assert!(
        e.contains(&format!("bad.ron:{line}:")) && e.contains("resign: score 0: must be 1 to 64"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

/// Position strings of games played from the start to 14 empties, the
/// `k`th legal move (counted round the list, `stride` apart) at ply `k`.
fn late_positions(strides: &[usize]) -> String {
    use arena::game::othello::{board_string, Board};
    use arena::{Game, MoveList};
    let mut text = String::new();
    for &stride in strides {
        let (mut pos, mut ply) = (Board::start(), 0);
        let mut moves = MoveList::new();
        while pos.empties() > 14 && !pos.is_over() {
            moves.clear();
            pos.generate_moves(&mut moves);
            pos = pos.play(moves.get(ply * stride % moves.len()));
            ply += 1;
        }
        assert!(pos.empties() == 14 && !pos.must_pass(), "stride {stride}");
        text.push_str(&board_string(&pos));
        text.push('\n');
    }
    text
}

#[test]
fn the_solver_goes_before_the_score_rules_where_both_end_a_game() {
    // As cutechess-cli's tablebase adjudication goes before its -draw and
    // -resign: games from 14 empties, a draw rule that holds once each
    // engine has moved (at 12 empties) and a solve at 12 empties.
    let dir = tmp("adjudicate-solve-and-scores");
    let book = dir.join("late.txt");
    std::fs::write(&book, late_positions(&[1, 3])).unwrap();
    let (a, b) = (
        repo("engines/squares-classic.ron"),
        repo("engines/alphabeta-d6.ron"),
    );
    let play = |solve_at: &str, out: &Path| {
        let args = [
            "match",
            s(&a),
            s(&b),
            "--pairs",
            "2",
            "--depth",
            "2",
            "--book",
            s(&book),
            "--concurrency",
            "1",
            "--out",
            s(out),
            "--quiet",
            "--draw",
            "movenumber=0",
            "movecount=1",
            "score=64",
            "--resign",
            "movecount=1",
            "score=1",
            "--adjudicate-solve",
            solve_at,
        ];
        let r = arena(&args);
        assert!(r.status.success(), "{}", stderr(&r));
        // The journal's reasons pass the check of the run's rules.
        let r = arena(&["report", s(out)]);
        assert!(r.status.success(), "{}", stderr(&r));
        games(out)
    };
    let both = play("12", &dir.join("both"));
    assert_eq!(both.len(), 4);
    for g in &both {
        assert_eq!(g.reason, "adjudicated: solved at 12 empties", "{g:?}");
        assert_eq!(g.moves.len() / 2, 2, "{g:?}");
    }
    // Solving only at 11 empties, the draw (which goes before the
    // resignation) ends the same games at 12.
    let scores = play("11", &dir.join("scores"));
    assert_eq!(scores.len(), 4);
    for g in &scores {
        assert_eq!(
            g.reason, "adjudicated: draw (|score| <= 64 for 1 moves from move 0)",
            "{g:?}"
        );
        assert_eq!(
            (g.moves.len() / 2, g.disc_diff, g.result),
            (2, 0, 0.5),
            "{g:?}"
        );
    }
}
