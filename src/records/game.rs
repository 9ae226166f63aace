//! Finished games: the record a game thread sends back and the journal stores
//! (one JSON line each), and their GGF form (`games.ggf`).

use super::ggf::{push_ggf_board, write_moves};
use crate::game::othello::{Board, Move};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The pair (0-based).
    pub pair_id: u64,
    /// The game: `2 * pair_id` or `2 * pair_id + 1`.
    pub game_id: u64,
    /// Round of the meeting.
    pub round: u64,
    /// Opening index in the book.
    pub opening_id: usize,
    /// Black's engine name.
    pub black: String,
    /// White's engine name.
    pub white: String,
    /// The start position as a position string when the opening is one
    /// (then `moves` holds only the game's moves); absent for move-list
    /// openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Plies of the opening at the head of `moves`.
    pub opening_plies: usize,
    /// The whole game as a move list (`f5d6...`, `pa` for a pass), opening
    /// included.
    pub moves: String,
    /// Black's points: 1, 0.5 or 0.
    pub result: f64,
    /// Black minus white discs, empties to the winner (±64 for a forfeit).
    pub disc_diff: i32,
    /// Why the game ended: `game over`, `adjudicated: ...`, `time forfeit:
    /// NAME (used ... of ...)` (older versions: `time forfeit: NAME`),
    /// `crash: NAME (...)`, `illegal move: NAME (...)`.
    pub reason: String,
    /// Nodes searched for each move after the opening (0 for forced passes
    /// and random movers; `null` when the engine did not say, as GTP
    /// engines never do; journals written before then hold 0 there).
    pub nodes: Vec<Option<u64>>,
    /// Milliseconds spent on each move after the opening.
    pub times_ms: Vec<f64>,
    /// Depth reached for each move after the opening (as `nodes`: 0 for
    /// forced passes and random movers, `null` when not reported).
    pub depths: Vec<Option<u32>>,
    /// Score of each move after the opening, in centidiscs from the mover's
    /// point of view, as its engine reported it (`null` when it reported
    /// none: random movers, forced passes). Absent from journals written
    /// before this field existed, and from games in which no engine gave a
    /// score (random movers).
    #[serde(default, skip_serializing_if = "no_scores")]
    pub scores: Vec<Option<i32>>,
    /// In a tune, the iteration and the values each side played (absent
    /// otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<TunePlayed>,
}

/// A journal line read for what is counted of it: the fields of a
/// [`GameRecord`] but the per-move ones, which must be there (as in a full
/// read) but are passed over unread.
#[derive(Deserialize)]
struct CountedLine {
    pair_id: u64,
    game_id: u64,
    round: u64,
    opening_id: usize,
    black: String,
    white: String,
    #[serde(default)]
    start: Option<String>,
    opening_plies: usize,
    #[serde(rename = "moves")]
    _moves: serde::de::IgnoredAny,
    result: f64,
    disc_diff: i32,
    reason: String,
    #[serde(rename = "nodes")]
    _nodes: serde::de::IgnoredAny,
    #[serde(rename = "times_ms")]
    _times_ms: serde::de::IgnoredAny,
    #[serde(rename = "depths")]
    _depths: serde::de::IgnoredAny,
    #[serde(default)]
    tune: Option<TunePlayed>,
}

impl GameRecord {
    /// The game of a journal line as it counts (who played whom, where in
    /// the schedule, the result, why it ended, a tune's values), its moves
    /// and per-move figures left empty: how a worker reads its peers'
    /// games, which it counts but never shows move by move (`arena report`
    /// reads them whole).
    ///
    /// # Errors
    /// Not a game's JSON.
    pub fn counted_from_json(line: &str) -> serde_json::Result<GameRecord> {
        let c: CountedLine = serde_json::from_str(line)?;
        Ok(GameRecord {
            pair_id: c.pair_id,
            game_id: c.game_id,
            round: c.round,
            opening_id: c.opening_id,
            black: c.black,
            white: c.white,
            start: c.start,
            opening_plies: c.opening_plies,
            moves: String::new(),
            result: c.result,
            disc_diff: c.disc_diff,
            reason: c.reason,
            nodes: Vec::new(),
            times_ms: Vec::new(),
            depths: Vec::new(),
            scores: Vec::new(),
            tune: c.tune,
        })
    }
}

/// What a game of a tune played: its iteration and the values of each
/// side, in the order of the tune's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TunePlayed {
    /// The iteration (0-based).
    pub iteration: u64,
    /// Black's values.
    pub black: Vec<f64>,
    /// White's values.
    pub white: Vec<f64>,
}

/// Black's points (1, 0.5 or 0) for black's final score.
pub fn points_for(black_score: i32) -> f64 {
    match black_score.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

/// True when no move has a score (nothing to write).
fn no_scores(scores: &[Option<i32>]) -> bool {
    scores.iter().all(Option::is_none)
}

impl GameRecord {
    /// The game's points for `engine` (`None` if it did not play).
    pub fn points_of(&self, engine: &str) -> Option<f64> {
        if self.black == engine {
            Some(self.result)
        } else if self.white == engine {
            Some(1.0 - self.result)
        } else {
            None
        }
    }
}

/// GGF's `/eval/time` after move `i` of a record (discs for the mover,
/// seconds), for the moves after the opening whose engine gave a score;
/// nothing for the others (the opening, forced passes, random movers).
fn move_data(rec: &GameRecord, i: usize) -> Option<(f64, f64)> {
    let k = i.checked_sub(rec.opening_plies)?;
    let ms = *rec.times_ms.get(k)?;
    let cd = rec.scores.get(k).copied().flatten()?;
    Some((f64::from(cd) / 100.0, ms / 1000.0))
}

/// What a run's games share in their GGF headers.
#[derive(Clone, Copy, Debug, Default)]
pub struct GgfRun<'a> {
    /// The run's name (`EV`).
    pub event: &'a str,
    /// When it was played (`DT`), e.g. `2026-11-27 22:41:07 GMT` as NBoard
    /// writes it; none when unknown.
    pub date: Option<&'a str>,
    /// The clock both sides played on (`TI`), as GGS writes it: `05:00`,
    /// `00:10/00:00.1` (main time, then the increment); none when the
    /// engines play without one clock (depth or per-move limits).
    pub time: Option<&'a str>,
}

/// A clock in GGS's form: `mm:ss` (with the seconds' fraction when there is
/// one), then `/` and the increment when there is one: `05:00`,
/// `00:10/00:00.1`.
pub fn ggs_clock(base_ms: u64, inc_ms: u64) -> String {
    let part = |ms: u64| {
        let (m, s, frac) = (ms / 60_000, ms / 1000 % 60, ms % 1000);
        if frac == 0 {
            format!("{m:02}:{s:02}")
        } else {
            let f = format!("{frac:03}");
            format!("{m:02}:{s:02}.{}", f.trim_end_matches('0'))
        }
    };
    if inc_ms == 0 {
        part(base_ms)
    } else {
        format!("{}/{}", part(base_ms), part(inc_ms))
    }
}

/// The game in GGF (Generic Game Format, as used by GGS and Edax):
/// `(;GM[Othello]PC[arena]DT[..]EV[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[..]B[F5]W[D6]...;)`.
/// `RE` is black's disc difference, with `:t` for a loss on time and `:r`
/// for a forfeit by crash or illegal move. Each move played after the
/// opening carries GGF's evaluation (discs, mover's view) and time
/// (seconds): `B[F5/-1.50/0.012]`, as NBoard shows them.
pub fn ggf(rec: &GameRecord, run: &GgfRun<'_>) -> String {
    let mut out = String::new();
    push_ggf(&mut out, rec, run);
    out
}

/// Appends [`ggf`]'s text to `out`: `games.ggf` is one game a line, written
/// without a string of its own per game or per move.
pub fn push_ggf(out: &mut String, rec: &GameRecord, run: &GgfRun<'_>) {
    let start = match &rec.start {
        Some(p) => crate::game::othello::parse_position(p).unwrap_or_default(),
        None => Board::start(),
    };
    let suffix = if rec.reason.starts_with("time") {
        ":t"
    } else if rec.reason == "game over" || rec.reason.starts_with("adjudicated") {
        ""
    } else {
        ":r"
    };
    out.push_str("(;GM[Othello]PC[arena]");
    if let Some(date) = run.date {
        out.push_str("DT[");
        push_escaped(out, date);
        out.push(']');
    }
    out.push_str("EV[");
    push_escaped(out, run.event);
    let _ = write!(out, "]GN[{}]PB[", rec.game_id);
    push_escaped(out, &rec.black);
    out.push_str("]PW[");
    push_escaped(out, &rec.white);
    let _ = write!(out, "]RE[{:+}{suffix}]", rec.disc_diff);
    if let Some(time) = run.time {
        out.push_str("TI[");
        push_escaped(out, time);
        out.push(']');
    }
    out.push_str("TY[8]BO[");
    push_ggf_board(out, &start);
    out.push(']');
    let moves = rec
        .moves
        .as_bytes()
        .chunks_exact(2)
        .map_while(|pair| std::str::from_utf8(pair).ok().and_then(Move::parse));
    write_moves(out, &start, moves, |i, out| {
        if let Some((eval, secs)) = move_data(rec, i) {
            let _ = write!(out, "/{eval:.2}/{secs:.3}");
        }
    });
    out.push_str(";)");
}

/// Appends a GGF value with `]` (which would end it) written as `)`.
fn push_escaped(out: &mut String, text: &str) {
    for part in text.split(']').enumerate() {
        if part.0 > 0 {
            out.push(')');
        }
        out.push_str(part.1);
    }
}

/// What is wrong with a game line: the field and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadGame {
    /// The JSON key.
    pub field: &'static str,
    /// What is wrong, with the value.
    pub message: String,
}

/// The [`BadGame`] of `field`, saying `message`.
pub(super) fn bad(field: &'static str, message: String) -> BadGame {
    BadGame { field, message }
}

/// Records made by hand for unit tests.
#[cfg(test)]
impl GameRecord {
    /// Game `id` of pair `id / 2` (its round too), from opening 0, of
    /// `black` against `white`, black scoring `result`, ended on the board
    /// with no moves or per-move figures kept.
    pub(crate) fn example(id: u64, black: &str, white: &str, result: f64) -> GameRecord {
        GameRecord {
            tune: None,
            pair_id: id / 2,
            game_id: id,
            round: id / 2,
            opening_id: 0,
            black: black.into(),
            white: white.into(),
            start: None,
            opening_plies: 0,
            moves: String::new(),
            result,
            disc_diff: 0,
            reason: "game over".into(),
            nodes: vec![],
            times_ms: vec![],
            depths: vec![],
            scores: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ggf_has_board_players_result_and_moves() {
        let rec = GameRecord {
            tune: None,
            pair_id: 0,
            game_id: 1,
            round: 0,
            opening_id: 0,
            black: "a".into(),
            white: "b".into(),
            start: None,
            opening_plies: 2,
            moves: "f5d6".into(),
            result: 1.0,
            disc_diff: 12,
            reason: "game over".into(),
            nodes: vec![],
            times_ms: vec![],
            depths: vec![],
            scores: vec![],
        };
        let run = GgfRun {
            event: "t",
            ..GgfRun::default()
        };
        let g = ggf(&rec, &run);
        assert!(g.starts_with("(;GM[Othello]PC[arena]EV[t]GN[1]"), "{g}");
        assert!(g.contains("PB[a]PW[b]RE[+12]"), "{g}");
        assert!(
            g.contains("BO[8 ---------------------------O*------*O--------------------------- *]"),
            "{g}"
        );
        assert!(g.ends_with("B[F5]W[D6];)"), "{g}");
        // Moves after the opening carry their evaluation and time.
        let played = GameRecord {
            opening_plies: 1,
            times_ms: vec![12.0],
            scores: vec![Some(-150)],
            ..rec
        };
        let g = ggf(&played, &run);
        assert!(g.ends_with("B[F5]W[D6/-1.50/0.012];)"), "{g}");
        // The run's date and clock, when known, in GGS's places.
        let dated = GgfRun {
            event: "t",
            date: Some("2026-11-27 22:41:07 GMT"),
            time: Some("00:10/00:00.1"),
        };
        let g = ggf(&played, &dated);
        assert!(
            g.starts_with("(;GM[Othello]PC[arena]DT[2026-11-27 22:41:07 GMT]EV[t]GN[1]PB[a]PW[b]RE[+12]TI[00:10/00:00.1]TY[8]"),
            "{g}"
        );
        // What GGF readers (ours, NBoard's) take back.
        assert!(crate::records::ggf::parse_ggf(&g).is_ok());
    }

    #[test]
    fn clocks_are_written_as_ggs_writes_them() {
        assert_eq!(ggs_clock(300_000, 0), "05:00");
        assert_eq!(ggs_clock(10_000, 100), "00:10/00:00.1");
        assert_eq!(ggs_clock(90_500, 2_000), "01:30.5/00:02");
        assert_eq!(ggs_clock(3_600_000, 0), "60:00");
    }
}
