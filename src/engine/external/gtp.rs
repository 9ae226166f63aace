//! The Go Text Protocol as Othello engines speak it, our side of it.
//!
//! - Start: `boardsize 8` (an engine that refuses it, as some Othello
//!   engines do, is fine), then the engine file's `init` lines (a refusal
//!   is in the transcript, nothing more).
//! - New game: `clear_board`, then `play black f5`, `play white d6`, … for
//!   the opening; GTP has no way to set up a position, so an opening given
//!   as a position cannot be played. Under a clock, `time_settings B 0 0`
//!   (whole seconds); under `MoveTime` of a second or more,
//!   `time_settings 0 S 1`. Refusals are fine.
//! - A move: `play COLOR MOVE` for each move of the other side (and forced
//!   passes: `play black pass`; an engine that refuses it passes on its
//!   own, and is sent no more passes), `time_left COLOR S 0` under a
//!   clock, then `genmove COLOR`, answered by `= e6` (or `= pass`, any
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
use std::time::Instant;

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
            Some(Limit::Clock(base, _)) => Some(format!("time_settings {} 0 0", base / 1000)),
            Some(Limit::MoveTime(ms)) if ms >= 1000 => {
                Some(format!("time_settings 0 {} 1", ms / 1000))
            }
            Some(Limit::MoveTime(_) | Limit::Depth(_) | Limit::Nodes(_)) | None => None,
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
            let command = format!("time_left {side} {} 0", c.remaining.as_secs());
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
        Ok(MoveInfo::bare(mv, start.elapsed()))
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
}
