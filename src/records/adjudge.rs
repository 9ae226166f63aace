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

use super::game::{bad, BadGame, GameRecord};
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

/// What the score rules call a game, with the rule that called it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// The side both engines say is down loses.
    Resign {
        /// True when black lost.
        black_lost: bool,
        /// Black's disc difference the record keeps: the smaller of the two
        /// engines' last margins, in whole discs (rounded, at most 64).
        disc_diff: i32,
        /// The rule.
        rule: Resign,
    },
    /// A draw (disc difference 0) by this rule.
    Draw(Draw),
}

impl Call {
    /// Black's final score.
    pub fn black_score(self) -> i32 {
        match self {
            Call::Resign { disc_diff, .. } => disc_diff,
            Call::Draw(_) => 0,
        }
    }

    /// The reason after `adjudicated: ` for black `names[0]` and white
    /// `names[1]`.
    pub fn reason(self, names: [&str; 2]) -> String {
        match self {
            Call::Resign {
                black_lost, rule, ..
            } => resign_reason(names[usize::from(!black_lost)], rule),
            Call::Draw(d) => draw_reason(d),
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
                return Some(Call::Draw(d));
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
            rule: r,
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
        return check_call(rec, call, t + 1, plies);
    }
    uncalled(rec, claim, pos.empties(), solve_at)
}

/// A game the score rules `call` after its ply `ply` of `plies`: it must end
/// there, with the reason and disc difference the call gives.
///
/// # Errors
/// A game that goes on, or ends otherwise.
fn check_call(rec: &GameRecord, call: Call, ply: usize, plies: usize) -> Result<(), BadGame> {
    let said = format!(
        "adjudicated: {}",
        call.reason([rec.black.as_str(), rec.white.as_str()])
    );
    if ply < plies {
        return Err(bad(
            "moves",
            format!(
                "this run's rule ends the game after ply {ply} ({said:?}; tournament.json: adjudicate), but it goes on"
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
    Ok(())
}

/// A game the score rules never called: fine, unless it claims they did.
fn uncalled(
    rec: &GameRecord,
    claim: Option<Claim<'_>>,
    empties: u32,
    solve_at: u32,
) -> Result<(), BadGame> {
    match claim {
        Some(Claim::Resign { .. } | Claim::Draw(_)) => Err(bad(
            "reason",
            if empties <= solve_at {
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

/// A run's adjudication, as recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjudicateInfo {
    /// Games end at this many empties or fewer with the solver's score
    /// (`None`: no adjudication).
    pub solve_at_empties: Option<u32>,
    /// Resign adjudication by the engines' scores (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<Resign>,
    /// Draw adjudication by the engines' scores (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Draw>,
}

#[cfg(test)]
#[path = "adjudge_tests.rs"]
mod tests;
