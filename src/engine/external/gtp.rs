//! The Go Text Protocol as Othello engines speak it, our side of it.
//!
//! - Start: `boardsize 8` (an engine that refuses it, as some Othello
//!   engines do, is fine), then the engine file's `init` lines (a refusal
//!   is in the transcript, nothing more).
//! - New game: `clear_board`, then `play black f5`, `play white d6`, … for
//!   the opening; GTP has no way to set up a position, so an opening given
//!   as a position cannot be played. Under a clock, `time_settings B 0 0`;
//!   under `MoveTime`, `time_settings 0 S 1`: whole seconds, rounded up
//!   (a run warns when that adds more than a tenth, see [`limit_note`]).
//!   Refusals are fine. GTP has no depth: under `Depth` the engine plays
//!   at its own settings.
//! - A move: `play COLOR MOVE` for each move of the other side (and forced
//!   passes: `play black pass`; an engine that refuses it passes on its
//!   own, and is sent no more passes), `time_left COLOR S 0` under a
//!   clock (whole seconds rounded up, never 0 while time is left), then
//!   `genmove COLOR`, answered by `= e6` (or `= pass`, any
//!   case). The engine plays the move it answers.
//!
//! Answers are `= text` or `? error`, each ended by a blank line; blank
//! lines before an answer are skipped, and any other line is an error.

use super::process::{Deadline, Process};
use super::record::Record;
use super::spec::ExternalConfig;
use crate::engine::player::{Clock, MoveInfo, PlayerError};
use crate::game::othello::{Color, Move};
use crate::search::Limit;
use std::time::{Duration, Instant};

/// What a GTP session remembers.
#[derive(Debug, Default)]
pub struct Gtp {
    /// The engine refused `play COLOR pass`: it passes on its own.
    no_passes: bool,
}

/// GTP's colour names.
fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Time in GTP's whole seconds, rounded up: time left is never sent as 0.
fn whole_seconds(t: Duration) -> u64 {
    t.as_secs() + u64::from(t.subsec_nanos() > 0)
}

/// Milliseconds as seconds, as few digits as they need (`0.5`, `12`).
fn seconds(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

/// The warning for a time of `ms` that GTP's whole seconds round up by
/// more than a tenth, if it is.
fn rounding(what: &str, ms: u64) -> Option<String> {
    let sent = ms.div_ceil(1000);
    ((sent * 1000 - ms) * 10 > ms).then(|| {
        format!(
            "GTP clocks are whole seconds: the {what} of {} s is sent as {sent} s (rounded up; \
             the runner still holds it to {} s)",
            seconds(ms),
            seconds(ms)
        )
    })
}

/// What of `limit` GTP cannot carry, in words (`None`: all of it is sent):
/// a depth, a time that whole seconds round up by more than a tenth, a
/// clock's increment.
pub fn limit_note(limit: Limit) -> Option<String> {
    let mut said = Vec::new();
    match limit {
        Limit::Depth(_) => {
            said.push("GTP has no depth command; it plays at its own settings".into())
        }
        Limit::Nodes(_) => said.push("GTP has no node limit; it plays at its own settings".into()),
        Limit::MoveTime(ms) => said.extend(rounding("move time", ms)),
        Limit::Clock(base, inc) => {
            said.extend(rounding("clock", base));
            if inc > 0 {
                said.push(format!(
                    "GTP has no increment: the {} s a move is not sent, only the time left \
                     before each move",
                    seconds(inc)
                ));
            }
        }
    }
    (!said.is_empty()).then(|| said.join("; "))
}

/// Reads a GTP answer's first line: `Ok(text)` after `=`, `Err(text)`
/// after `?` (a command id, if any, stays in the text).
fn answer_of(line: &str) -> Option<Result<String, String>> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix('=') {
        Some(Ok(rest.trim().to_string()))
    } else {
        line.strip_prefix('?')
            .map(|rest| Err(rest.trim().to_string()))
    }
}

impl Gtp {
    /// Sends `command` and reads its answer.
    ///
    /// # Errors
    /// The engine's failure, or a line that is not an answer.
    fn ask(
        &self,
        p: &mut Process,
        command: &str,
        deadline: &Deadline,
    ) -> Result<Result<String, String>, PlayerError> {
        p.send(command)?;
        let awaited = format!("the answer to `{command}`");
        loop {
            let line = p.line(deadline, &awaited)?;
            if line.trim().is_empty() {
                continue;
            }
            return answer_of(&line).ok_or_else(|| {
                PlayerError::Protocol(format!("not a GTP answer to `{command}`: '{line}'"))
            });
        }
    }

    /// Sends `command`, which the engine may refuse; returns whether it
    /// accepted it (a refusal is in the transcript).
    fn may(
        &self,
        p: &mut Process,
        command: &str,
        deadline: &Deadline,
    ) -> Result<bool, PlayerError> {
        Ok(self.ask(p, command, deadline)?.is_ok())
    }

    /// Sends `command`, which must be accepted.
    fn must(&self, p: &mut Process, command: &str, deadline: &Deadline) -> Result<(), PlayerError> {
        match self.ask(p, command, deadline)? {
            Ok(_) => Ok(()),
            Err(why) => Err(PlayerError::Protocol(format!(
                "the engine refused `{command}`: ? {why}"
            ))),
        }
    }

    /// The start of a session: board size and `init` lines.
    ///
    /// # Errors
    /// The engine's failure (crash, silence past the deadline).
    pub fn handshake(
        &mut self,
        p: &mut Process,
        config: &ExternalConfig,
        deadline: &Deadline,
    ) -> Result<(), PlayerError> {
        self.may(p, "boardsize 8", deadline)?;
        for line in &config.init {
            self.may(p, line, deadline)?;
        }
        Ok(())
    }

    /// A new game: a clear board, the clock, the opening.
    ///
    /// # Errors
    /// As [`Gtp::handshake`]; an opening given as a position; a refused
    /// `clear_board` or opening move.
    pub fn new_game(
        &mut self,
        p: &mut Process,
        record: &mut Record,
        limit: Option<Limit>,
        deadline: &Deadline,
    ) -> Result<(), PlayerError> {
        if !record.from_standard_start() {
            return Err(PlayerError::Protocol(
                "GTP cannot set up a position: this opening is not a move list from the start"
                    .into(),
            ));
        }
        self.must(p, "clear_board", deadline)?;
        let settings = match limit {
            Some(Limit::Clock(base, _)) => {
                Some(format!("time_settings {} 0 0", base.div_ceil(1000)))
            }
            Some(Limit::MoveTime(ms)) => Some(format!("time_settings 0 {} 1", ms.div_ceil(1000))),
            Some(Limit::Depth(_) | Limit::Nodes(_)) | None => None,
        };
        if let Some(command) = settings {
            self.may(p, &command, deadline)?;
        }
        self.tell(p, record, deadline)
    }

    /// `play` for every move the engine has not been told.
    fn tell(
        &mut self,
        p: &mut Process,
        record: &mut Record,
        deadline: &Deadline,
    ) -> Result<(), PlayerError> {
        for (side, mv) in record.untold() {
            if mv.is_pass() {
                if !self.no_passes {
                    let command = format!("play {} pass", colour(side));
                    self.no_passes = !self.may(p, &command, deadline)?;
                }
                continue;
            }
            self.must(p, &format!("play {} {mv}", colour(side)), deadline)?;
        }
        record.told = record.moves.len();
        Ok(())
    }

    /// The engine's move in the record's position (which it then plays).
    ///
    /// # Errors
    /// As [`Gtp::new_game`], and [`PlayerError::Protocol`] for an answer
    /// that is not a move.
    pub fn choose(
        &mut self,
        p: &mut Process,
        record: &mut Record,
        clock: &Clock,
        deadline: &Deadline,
    ) -> Result<MoveInfo<Move>, PlayerError> {
        self.tell(p, record, deadline)?;
        let side = colour(record.board.side);
        if let Some(c) = clock.game {
            let command = format!("time_left {side} {} 0", whole_seconds(c.remaining));
            self.may(p, &command, deadline)?;
        }
        let start = Instant::now();
        let command = format!("genmove {side}");
        let text = match self.ask(p, &command, deadline)? {
            Ok(text) => text,
            Err(why) => {
                return Err(PlayerError::Protocol(format!(
                    "the engine refused `{command}`: ? {why}"
                )))
            }
        };
        let mv = if text.eq_ignore_ascii_case("pass") {
            Some(Move::PASS)
        } else {
            Move::parse(&text)
        };
        let mv = mv.ok_or_else(|| PlayerError::Protocol(format!("not a move: '{text}'")))?;
        if record.play(mv) {
            record.told = record.moves.len();
        }
        // GTP carries no score, depth or nodes: unknown, not 0.
        Ok(MoveInfo::unreported(mv, start.elapsed()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_errors_are_told_apart() {
        assert_eq!(answer_of("= e6"), Some(Ok("e6".into())));
        assert_eq!(answer_of("="), Some(Ok(String::new())));
        assert_eq!(
            answer_of("? illegal move"),
            Some(Err("illegal move".into()))
        );
        assert_eq!(answer_of("hello"), None);
    }

    #[test]
    fn clocks_are_whole_seconds_rounded_up() {
        assert_eq!(whole_seconds(Duration::from_millis(300)), 1);
        assert_eq!(whole_seconds(Duration::from_millis(2000)), 2);
        assert_eq!(whole_seconds(Duration::from_millis(2001)), 3);
        assert_eq!(whole_seconds(Duration::ZERO), 0);
    }

    #[test]
    fn what_gtp_cannot_carry_is_said() {
        assert_eq!(
            limit_note(Limit::Depth(2)).as_deref(),
            Some("GTP has no depth command; it plays at its own settings")
        );
        // 10.5 s rounds to 11 s, under a tenth; 0.5 s to 1 s, double.
        assert_eq!(limit_note(Limit::Clock(10_500, 0)), None);
        assert_eq!(limit_note(Limit::MoveTime(3000)), None);
        assert_eq!(
            limit_note(Limit::MoveTime(500)).as_deref(),
            Some(
                "GTP clocks are whole seconds: the move time of 0.5 s is sent as 1 s \
                 (rounded up; the runner still holds it to 0.5 s)"
            )
        );
        let both = limit_note(Limit::Clock(1500, 20)).unwrap();
        assert!(both.contains("clock of 1.5 s is sent as 2 s"), "{both}");
        assert!(both.contains("the 0.02 s a move is not sent"), "{both}");
    }
}
