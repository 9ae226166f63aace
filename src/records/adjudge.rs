//! Adjudication by the scores engines report, as cutechess-cli's `-resign`
//! and `-draw` (both engines must agree): the rules ([`Resign`], [`Draw`]),
//! the judge that follows a game's scores ([`ScoreJudge`]), the reasons a
//! journal records and how they read back ([`Claim`]), and the check of a
//! journal's game against the rules its run records. The runner and the
//! check use the same judge, so a game is refused exactly when the run
//! would not have ended it where (and how) the journal says.
//!
//! Scores are the movers' own (centidiscs, the mover's view); thresholds
//! are whole discs. A forced pass, which no engine searched, neither counts
//! nor breaks a run of moves; a move without a score (`null`) breaks it.

use super::check::BadGame;
use super::game::GameRecord;
use super::info::AdjudicateInfo;
use crate::game::othello::{parse_position, Board, Move};
use crate::game::Game;
use serde::{Deserialize, Serialize};

/// Resign adjudication (cutechess-cli `-resign movecount=N score=S
/// twosided=true`): when, for `move_count` moves of each engine in a row,
/// one engine reports `-score` discs or less and the other `score` or more,
/// the side both say is down loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resign {
    /// Moves of each engine in a row (1 to 60).
    pub move_count: u32,
    /// Discs down (1 to 64).
    pub score: u32,
}

/// Draw adjudication (cutechess-cli `-draw movenumber=M movecount=N
/// score=S`): from full move `move_number` on, when both engines report
/// at most `score` discs either way for `move_count` moves each in a row,
/// the game is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    /// The full move (two plies, counted by discs placed from the start
    /// position) from which a draw may be called (0 to 29).
    pub move_number: u32,
    /// Moves of each engine in a row (1 to 60).
    pub move_count: u32,
    /// Discs either side of 0 (0 to 64).
    pub score: u32,
}

/// The most moves in a row a rule may ask for.
pub const MAX_MOVE_COUNT: u32 = 60;

/// `move_count` out of range, as a message.
fn count_problem(n: u32) -> Option<String> {
    (n == 0 || n > MAX_MOVE_COUNT)
        .then(|| format!("move_count {n}: must be 1 to {MAX_MOVE_COUNT} (moves of each engine)"))
}

impl Resign {
    /// What is wrong with the rule's values, if anything.
    pub fn problem(&self) -> Option<String> {
        count_problem(self.move_count).or_else(|| {
            (self.score == 0 || self.score > 64)
                .then(|| format!("score {}: must be 1 to 64 (discs)", self.score))
        })
    }
}

impl Draw {
    /// What is wrong with the rule's values, if anything.
    pub fn problem(&self) -> Option<String> {
        count_problem(self.move_count)
            .or_else(|| {
                (self.score > 64).then(|| format!("score {}: must be 0 to 64 (discs)", self.score))
            })
            .or_else(|| {
                (self.move_number > 29).then(|| {
                    format!(
                        "move_number {}: must be 0 to 29 (an Othello game has 30 full moves)",
                        self.move_number
                    )
                })
            })
    }
}

/// The score rules of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreRules {
    /// Resign adjudication.
    pub resign: Option<Resign>,
    /// Draw adjudication.
    pub draw: Option<Draw>,
}

/// What the score rules call a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// The side both engines say is down loses.
    Resign {
        /// True when black lost.
        black_lost: bool,
        /// Black's disc difference the record keeps: the smaller of the two
        /// engines' last margins, in whole discs (rounded, at most 64).
        disc_diff: i32,
    },
    /// A draw (disc difference 0).
    Draw,
}

impl Call {
    /// Black's final score.
    pub fn black_score(self) -> i32 {
        match self {
            Call::Resign { disc_diff, .. } => disc_diff,
            Call::Draw => 0,
        }
    }

    /// The reason after `adjudicated: ` for black `names[0]` and white
    /// `names[1]` under `rules` (the rule that made the call is set).
    pub fn reason(self, rules: &ScoreRules, names: [&str; 2]) -> String {
        match (self, rules.resign, rules.draw) {
            (Call::Resign { black_lost, .. }, Some(r), _) => {
                resign_reason(names[usize::from(!black_lost)], r)
            }
            (Call::Draw, _, Some(d)) => draw_reason(d),
            (Call::Resign { .. } | Call::Draw, ..) => unreachable!("a call comes from its rule"),
        }
    }
}

fn resign_reason(loser: &str, r: Resign) -> String {
    format!(
        "resign: {loser} (score <= -{} for {} moves)",
        r.score, r.move_count
    )
}

fn draw_reason(d: Draw) -> String {
    format!(
        "draw (|score| <= {} for {} moves from move {})",
        d.score, d.move_count, d.move_number
    )
}

/// Follows a game's scores: each engine's runs of moves in a row below,
/// above and within the thresholds, and its last score.
#[derive(Clone, Debug)]
pub struct ScoreJudge {
    rules: ScoreRules,
    /// Per side (0 black, 1 white): moves in a row at `-resign` or less.
    down: [u32; 2],
    /// At `resign` or more.
    up: [u32; 2],
    /// Within the draw window.
    level: [u32; 2],
    /// The last score.
    last: [i32; 2],
}

impl ScoreJudge {
    /// A judge at the start of a game (the opening's moves count for
    /// nothing: no engine chose them).
    pub fn new(rules: ScoreRules) -> ScoreJudge {
        ScoreJudge {
            rules,
            down: [0; 2],
            up: [0; 2],
            level: [0; 2],
            last: [0; 2],
        }
    }

    /// A move of black (`black`) or white with the score its engine
    /// reported (`None`: none, which breaks every run of that side).
    /// Forced passes are not moves here.
    pub fn see(&mut self, black: bool, score: Option<i32>) {
        let side = usize::from(!black);
        let Some(s) = score else {
            (self.down[side], self.up[side], self.level[side]) = (0, 0, 0);
            return;
        };
        let bump = |run: &mut u32, holds: bool| *run = if holds { *run + 1 } else { 0 };
        if let Some(r) = self.rules.resign {
            let t = i64::from(r.score) * 100;
            bump(&mut self.down[side], i64::from(s) <= -t);
            bump(&mut self.up[side], i64::from(s) >= t);
        }
        if let Some(d) = self.rules.draw {
            bump(
                &mut self.level[side],
                i64::from(s).abs() <= i64::from(d.score) * 100,
            );
        }
        self.last[side] = s;
    }

    /// The call at a position of `empties` empty squares reached by the
    /// moves seen, if the rules make one (a draw before a resignation).
    pub fn call(&self, empties: u32) -> Option<Call> {
        if let Some(d) = self.rules.draw {
            let full_moves = 60u32.saturating_sub(empties) / 2;
            if full_moves >= d.move_number && self.level.iter().all(|&n| n >= d.move_count) {
                return Some(Call::Draw);
            }
        }
        let r = self.rules.resign?;
        let lost =
            |side: usize| self.down[side] >= r.move_count && self.up[1 - side] >= r.move_count;
        let loser = (0..2).find(|&side| lost(side))?;
        let margin = self.last[loser]
            .unsigned_abs()
            .min(self.last[1 - loser].unsigned_abs());
        let discs = ((margin + 50) / 100).min(64) as i32;
        Some(Call::Resign {
            black_lost: loser == 0,
            disc_diff: if loser == 0 { -discs } else { discs },
        })
    }
}

/// An adjudication as a journal's reason states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim<'a> {
    /// `adjudicated: solved at N empties`.
    Solved(u32),
    /// `adjudicated: resign: NAME (score <= -S for N moves)`.
    Resign {
        /// The engine that lost.
        loser: &'a str,
        /// The rule.
        rule: Resign,
    },
    /// `adjudicated: draw (|score| <= S for N moves from move M)`.
    Draw(Draw),
}

/// The adjudication a reason states, written exactly as the runner writes
/// it (`None` for any other text).
pub fn claim(reason: &str) -> Option<Claim<'_>> {
    let rest = reason.strip_prefix("adjudicated: ")?;
    let number = |s: &str| s.parse::<u32>().ok();
    let parsed = if let Some(n) = rest.strip_prefix("solved at ") {
        Claim::Solved(number(n.strip_suffix(" empties")?)?)
    } else if let Some(r) = rest.strip_prefix("resign: ") {
        let (loser, tail) = r.rsplit_once(" (score <= -")?;
        let (score, count) = tail.strip_suffix(" moves)")?.split_once(" for ")?;
        let rule = Resign {
            move_count: number(count)?,
            score: number(score)?,
        };
        Claim::Resign { loser, rule }
    } else {
        let tail = rest.strip_prefix("draw (|score| <= ")?.strip_suffix(')')?;
        let (score, tail) = tail.split_once(" for ")?;
        let (count, from) = tail.split_once(" moves from move ")?;
        Claim::Draw(Draw {
            move_number: number(from)?,
            move_count: number(count)?,
            score: number(score)?,
        })
    };
    // Only the runner's own spelling (no `+3`, no `03`).
    (parsed.text() == rest).then_some(parsed)
}

impl Claim<'_> {
    /// The reason after `adjudicated: `.
    fn text(&self) -> String {
        match *self {
            Claim::Solved(n) => format!("solved at {n} empties"),
            Claim::Resign { loser, rule } => resign_reason(loser, rule),
            Claim::Draw(d) => draw_reason(d),
        }
    }
}

fn bad(field: &'static str, message: String) -> BadGame {
    BadGame { field, message }
}

/// A score adjudication (resign or draw) of a game on its own: the game is
/// not over, a resignation names one of its engines, which lost, by at
/// least the rule's score; a draw scores 0.
///
/// # Errors
/// The first problem found.
pub fn check_claim(rec: &GameRecord, claim: Claim<'_>, end: &Board) -> Result<(), BadGame> {
    if end.is_over() {
        return Err(bad(
            "reason",
            format!("{:?}, but the game is over after these moves", rec.reason),
        ));
    }
    let (sign, low) = match claim {
        Claim::Solved(_) => return Ok(()),
        Claim::Draw(_) => (0, 0),
        Claim::Resign { loser, .. } if loser != rec.black && loser != rec.white => {
            return Err(bad(
                "reason",
                format!("{:?} names neither engine of the game", rec.reason),
            ))
        }
        Claim::Resign { loser, rule } => {
            let sign = if loser == rec.black { -1 } else { 1 };
            (sign, i32::try_from(rule.score).unwrap_or(i32::MAX))
        }
    };
    if rec.disc_diff.signum() != sign || !(low..=64).contains(&rec.disc_diff.abs()) {
        return Err(bad(
            "disc_diff",
            match claim {
                Claim::Resign { loser, .. } => format!(
                    "{:+} is not a resignation of {loser}'s (a loss by {low} to 64 discs)",
                    rec.disc_diff
                ),
                Claim::Solved(_) | Claim::Draw(_) => {
                    format!("{} is not a drawn game's score (0)", rec.disc_diff)
                }
            },
        ));
    }
    Ok(())
}

/// What a run's rules say of a claimed resignation or draw they do not
/// allow (`None`: they allow it, or the game claims neither).
fn unruled(claim: Option<Claim<'_>>, a: &AdjudicateInfo) -> Option<String> {
    match claim? {
        Claim::Resign { rule, .. } if a.resign != Some(rule) => Some(a.resign.map_or_else(
            || "does not adjudicate by resignation".into(),
            |r| format!("adjudicates resignations as {:?}", resign_reason("NAME", r)),
        )),
        Claim::Draw(rule) if a.draw != Some(rule) => Some(a.draw.map_or_else(
            || "does not adjudicate draws".into(),
            |d| format!("adjudicates draws as {:?}", draw_reason(d)),
        )),
        Claim::Resign { .. } | Claim::Draw(_) | Claim::Solved(_) => None,
    }
}

/// A game against the score rules its run records (`a`): a resignation or
/// draw it claims is the rule's, where the solver (which goes first) did
/// not adjudicate, and the game's reported scores make that call after its
/// last move; any other game was never called by them while it went on.
///
/// # Errors
/// The first problem found.
pub fn check_score_rules(rec: &GameRecord, a: &AdjudicateInfo) -> Result<(), BadGame> {
    let claim = claim(&rec.reason);
    if let Some(run) = unruled(claim, a) {
        return Err(bad(
            "reason",
            format!(
                "{:?}, but this run {run} (tournament.json: adjudicate)",
                rec.reason
            ),
        ));
    }
    let rules = ScoreRules {
        resign: a.resign,
        draw: a.draw,
    };
    if rules == ScoreRules::default() {
        return Ok(());
    }
    let solve_at = a.solve_at_empties.unwrap_or(0);
    let (plies, mut pos) = (rec.moves.len() / 2, start_of(rec)?);
    let mut judge = ScoreJudge::new(rules);
    for t in 0..plies {
        let mv = rec
            .moves
            .get(2 * t..2 * t + 2)
            .and_then(Move::parse)
            .ok_or_else(|| bad("moves", format!("ply {}: not a move", t + 1)))?;
        if !mv.is_pass() && pos.must_pass() {
            pos = pos.passed();
        }
        let k = t.checked_sub(rec.opening_plies);
        if let (Some(k), false) = (k, mv.is_pass()) {
            judge.see(
                pos.first_player_to_move(),
                rec.scores.get(k).copied().flatten(),
            );
        }
        pos = pos.play(mv);
        if k.is_none() || pos.is_over() || pos.empties() <= solve_at {
            continue;
        }
        let Some(call) = judge.call(pos.empties()) else {
            continue;
        };
        let said = format!(
            "adjudicated: {}",
            call.reason(&rules, [rec.black.as_str(), rec.white.as_str()])
        );
        if t + 1 < plies {
            return Err(bad(
                "moves",
                format!(
                    "this run's rule ends the game after ply {} ({said:?}; tournament.json: adjudicate), but it goes on",
                    t + 1
                ),
            ));
        }
        if said != rec.reason || call.black_score() != rec.disc_diff {
            return Err(bad(
                "reason",
                format!(
                    "{:?} ({:+}), but the reported scores end the game as {said:?} ({:+}) under this run's rule (tournament.json: adjudicate)",
                    rec.reason,
                    rec.disc_diff,
                    call.black_score()
                ),
            ));
        }
        return Ok(());
    }
    match claim {
        Some(Claim::Resign { .. } | Claim::Draw(_)) => Err(bad(
            "reason",
            if pos.empties() <= solve_at {
                format!(
                    "{:?}, but this run solves at {solve_at} empties or fewer, where the game stops (tournament.json: adjudicate)",
                    rec.reason
                )
            } else {
                format!(
                    "{:?}, but the reported scores (scores) do not call it under this run's rule (tournament.json: adjudicate)",
                    rec.reason
                )
            },
        )),
        Some(Claim::Solved(_)) | None => Ok(()),
    }
}

/// A game's start position.
fn start_of(rec: &GameRecord) -> Result<Board, BadGame> {
    match &rec.start {
        Some(p) => parse_position(p).map_err(|e| bad("start", e.to_string())),
        None => Ok(Board::start()),
    }
}

#[cfg(test)]
mod tests {
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
                disc_diff: -2
            })
        );
        assert_eq!(
            call.unwrap().reason(&r, ["a", "b"]),
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
                disc_diff: 1
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
        assert_eq!(j.call(40), Some(Call::Draw));
        assert_eq!(
            Call::Draw.reason(&r, ["a", "b"]),
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
}
