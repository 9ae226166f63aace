//! `arena serve`: one of our engines behind a text protocol (NBoard or
//! GTP), reading commands from any input and answering on any output, so
//! an NBoard GUI, another tournament tool or `arena` itself can play it.
//! [`serve`] is generic over the streams, so tests drive it in-process.
//!
//! A new game (NBoard's `set game`, GTP's `clear_board`) resets the engine
//! fully (a fresh table and history), as the tournament runner does before
//! every game: a depth-limited engine served this way plays the same games
//! as in-process.
//!
//! The input is read on a thread of its own ([`input`]): over NBoard a
//! `ping` or `quit` (or the end of the input) that arrives while the engine
//! searches stops the search at once, the abandoned search's answer is not
//! sent, and the `ping` is answered; any other command that arrives during
//! a search waits, and commands are answered in the order they came. GTP
//! has no way to interrupt a command: its commands are answered in turn.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod gtp;
pub mod input;
pub mod nboard;

use super::config::EngineConfig;
use super::external::Protocol;
use super::player::{build_player, Clock, GameSetup, MoveInfo, Player, PlayerError};
use crate::game::othello::{Board, Move};
use crate::game::{Game, MoveList};
use crate::search::limits::ClockState;
use crate::search::Limit;
use input::{read_lines, Stops};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The served engine and the game it is in.
pub struct Served {
    config: EngineConfig,
    player: Box<dyn Player<Board>>,
    /// The current position.
    pub board: Board,
    games: u64,
    /// The engine's own game clock under a `Clock` limit: neither protocol
    /// gives it one it can trust (NBoard has none; GTP's `time_left` is
    /// optional and in whole seconds), so like a chess engine without clock
    /// messages it counts its own thinking time, from the base at each new
    /// game, plus the increment after each move.
    clock: Option<ClockState>,
    /// Stops the engine's search when set (by a `ping` read meanwhile);
    /// every player built is told to watch it.
    stop: Arc<AtomicBool>,
}

impl Served {
    /// `config`'s engine at the start position.
    pub fn new(config: &EngineConfig) -> Served {
        let mut served = Served {
            player: build_player(config),
            config: config.clone(),
            board: Board::start(),
            games: 0,
            clock: None,
            stop: Arc::new(AtomicBool::new(false)),
        };
        served.new_game(Board::start());
        served
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The flag that stops the engine's search.
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// A new game from `start`: the engine forgets everything (and a
    /// player built since the last game learns of the stop flag).
    pub fn new_game(&mut self, start: Board) {
        self.board = start;
        self.player.stop_when(&self.stop);
        let setup = GameSetup {
            game_id: self.games,
            start,
            opening: Vec::new(),
            first: start.side == crate::game::othello::Color::Black,
            clock: None,
            move_time: None,
            seed: 0,
        };
        self.games += 1;
        self.clock = match self.config.limit() {
            Some(Limit::Clock(base, inc)) => Some(ClockState {
                remaining: Duration::from_millis(base),
                increment: Duration::from_millis(inc),
            }),
            Some(Limit::Depth(_) | Limit::Nodes(_) | Limit::MoveTime(_)) | None => None,
        };
        // Our players' new_game cannot fail; a fresh one would be the same.
        if self.player.new_game(&setup).is_err() {
            self.player = build_player(&self.config);
            self.player.stop_when(&self.stop);
        }
    }

    /// Searches to depth `depth` from now on (NBoard's `set depth`); false
    /// for a depth out of 1..=60 or an engine that does not search.
    pub fn set_depth(&mut self, depth: u32) -> bool {
        (1..=60).contains(&depth) && self.set_limit(Limit::Depth(depth))
    }

    /// Plays by `limit` from now on, in a new game from the current
    /// position (`arena serve --movetime`, NBoard's `set depth`); false
    /// for an engine that does not search.
    pub fn set_limit(&mut self, limit: Limit) -> bool {
        if !self.config.set_limit(limit) {
            return false;
        }
        self.player = build_player(&self.config);
        self.new_game(self.board);
        true
    }

    /// Plays `mv` if it is legal; a square move when the side to move must
    /// pass is played after the pass.
    pub fn play(&mut self, mv: Move) -> bool {
        let board = if !mv.is_pass() && self.board.must_pass() {
            self.board.passed()
        } else {
            self.board
        };
        match board.try_play(mv) {
            Ok(b) => {
                self.board = b;
                true
            }
            Err(_) => false,
        }
    }

    /// The engine's move here: the pass when it must pass, `None` when the
    /// game is over.
    ///
    /// # Errors
    /// The engine's own failure.
    pub fn think(&mut self) -> Result<Option<MoveInfo<Move>>, PlayerError> {
        let mut moves = MoveList::new();
        self.board.generate_moves(&mut moves);
        if moves.is_empty() {
            return Ok(None);
        }
        if moves.len() == 1 && moves.get(0).is_pass() {
            return Ok(Some(MoveInfo::bare(Move::PASS, std::time::Duration::ZERO)));
        }
        let clock = Clock::starting_now(self.clock);
        let start = clock.start();
        let info = self.player.choose(&self.board, &clock)?;
        if let Some(c) = &mut self.clock {
            c.remaining = c.remaining.saturating_sub(start.elapsed()) + c.increment;
        }
        Ok(Some(info))
    }
}

/// Answers `protocol` commands read from `input` on `output`, flushing
/// after each answer, until `quit` or the end of the input. `input` is
/// read on a thread of its own (see the module docs), which ends with the
/// input.
///
/// # Errors
/// Reading or writing fails.
pub fn serve(
    config: &EngineConfig,
    protocol: Protocol,
    input: impl BufRead + Send + 'static,
    output: impl Write,
) -> std::io::Result<()> {
    serve_on(&mut Served::new(config), protocol, input, output)
}

/// [`serve`] with an engine already set up (a limit from the command line).
///
/// # Errors
/// Reading or writing fails.
pub fn serve_on(
    served: &mut Served,
    protocol: Protocol,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> std::io::Result<()> {
    let stops = Arc::new(Stops::new(served.stop_flag()));
    let lines = read_lines(input, stopping(protocol), Arc::clone(&stops));
    for line in lines {
        let line = line?;
        if stopping(protocol)(Some(&line)) {
            stops.handled();
        }
        let (answer, go_on) = match protocol {
            Protocol::Nboard => nboard::answer(served, &line),
            Protocol::Gtp => gtp::answer(served, &line),
        };
        let abandoned = match protocol {
            Protocol::Nboard => nboard::searches(&line) && stops.pending(),
            Protocol::Gtp => false,
        };
        if !answer.is_empty() && !abandoned {
            output.write_all(answer.as_bytes())?;
            output.flush()?;
        }
        if !go_on {
            break;
        }
    }
    Ok(())
}

/// Which lines of `protocol` stop a search when read (`None`: the end of
/// the input).
fn stopping(protocol: Protocol) -> fn(Option<&str>) -> bool {
    match protocol {
        Protocol::Nboard => nboard::stops,
        Protocol::Gtp => |_| false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn served(limit: &str) -> Served {
        let text = format!(
            "Engine(name: \"c\", search: Pvs, deepening: true, limit: {limit}, eval: Discs)"
        );
        Served::new(&EngineConfig::parse(&text, Path::new("c.ron")).unwrap())
    }

    #[test]
    fn a_clock_engine_counts_its_own_time_from_each_new_game() {
        let mut s = served("Clock(60000, 500)");
        let full = Duration::from_millis(60_000);
        assert_eq!(s.clock.map(|c| c.remaining), Some(full));
        s.think().unwrap().unwrap();
        let left = s.clock.unwrap().remaining;
        // The increment is added, the thinking time taken away.
        assert!(left < full + Duration::from_millis(500), "{left:?}");
        assert!(left > full / 2, "one move took half the game: {left:?}");
        s.new_game(Board::start());
        assert_eq!(s.clock.map(|c| c.remaining), Some(full));
    }

    #[test]
    fn a_limit_set_later_replaces_the_file_s() {
        let mut s = served("Clock(60000, 500)");
        assert!(s.set_limit(Limit::MoveTime(20)));
        assert_eq!(s.clock, None);
        assert!(s.set_depth(2));
        assert!(!s.set_depth(61));
        let mut random = Served::new(
            &EngineConfig::parse("Engine(name: \"r\", search: Random)", Path::new("r.ron"))
                .unwrap(),
        );
        assert!(!random.set_limit(Limit::MoveTime(20)));
    }
}
