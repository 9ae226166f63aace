//! An external engine as a [`Player`]: a process speaking NBoard or GTP,
//! started with the first game and kept for the next ones. Every answer has
//! a deadline: the start and a new game `ready_timeout_ms`, a move the
//! clock's deadline when there is one, else `reply_timeout_ms`. A crash, a
//! missed deadline or an answer that is not a move is the player's error
//! (the runner's forfeit); the process is killed then, and the next game
//! starts a new one. Each process's transcript goes to
//! `OUT/logs/ENGINE-THREAD.log` when the runner gives a log folder.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::gtp::Gtp;
use super::nboard::Nboard;
use super::process::{Deadline, Process, Wait};
use super::reaper::Engines;
use super::record::Record;
use super::spec::{ExternalConfig, Protocol};
use super::transcript::{log_path, Transcript};
use crate::engine::player::{Clock, GameSetup, MoveInfo, Player, PlayerError};
use crate::error::{Error, Result};
use crate::game::othello::{Board, Move};
use std::path::{Path, PathBuf};

/// Where a run's external player lives: its transcript goes to
/// `logs/ENGINE-THREAD.log` of game thread `thread`, its processes join the
/// run's `engines`, which the run ends when it ends.
#[derive(Clone, Copy)]
pub struct InRun<'a> {
    /// The run's transcripts' folder.
    pub logs: &'a Path,
    /// The game thread that plays with it.
    pub thread: usize,
    /// The run's engine processes.
    pub engines: &'a Engines,
}

/// The protocol state of a running engine.
enum Dialect {
    Nboard(Nboard),
    Gtp(Gtp),
}

/// A running engine and its protocol.
struct Session {
    process: Process,
    dialect: Dialect,
}

/// A player that is an external process.
pub struct ExternalPlayer {
    config: ExternalConfig,
    /// Where the transcript goes (`None`: nowhere).
    log_path: Option<PathBuf>,
    /// The transcript, opened with the first process.
    transcript: Option<Transcript>,
    session: Option<Session>,
    record: Option<Record>,
    /// The run's processes, which the run ends when it ends.
    engines: Option<Engines>,
}

impl ExternalPlayer {
    /// The player of `config`, writing its transcript where `run` says
    /// (none without a run); its process starts with the first game.
    pub fn new(config: &ExternalConfig, run: Option<InRun<'_>>) -> ExternalPlayer {
        ExternalPlayer {
            config: config.clone(),
            log_path: run.map(|r| log_path(r.logs, &config.name, r.thread)),
            transcript: None,
            session: None,
            record: None,
            engines: run.map(|r| r.engines.clone()),
        }
    }

    /// The transcript, opened on first use.
    fn transcript(&mut self) -> Result<Transcript, PlayerError> {
        if let Some(t) = &self.transcript {
            return Ok(t.clone());
        }
        let t = match &self.log_path {
            None => Transcript::none(),
            Some(path) => Transcript::open(path).map_err(|e| {
                PlayerError::Crashed(format!(
                    "cannot write the transcript {}: {e}",
                    path.display()
                ))
            })?,
        };
        Ok(self.transcript.insert(t).clone())
    }

    /// Starts the process and shakes hands with it.
    fn start(&mut self) -> Result<Session, PlayerError> {
        let log = self.transcript()?;
        let deadline = Deadline::after_ms(
            self.config.ready_timeout_ms,
            Wait::Ready(self.config.ready_timeout_ms),
        );
        let mut process =
            Process::spawn(&self.config, log, self.engines.as_ref()).map_err(|e| {
                PlayerError::Crashed(format!(
                    "cannot start {}: {e}",
                    self.config.program.display()
                ))
            })?;
        let dialect = match self.config.protocol {
            Protocol::Nboard => {
                let mut n = Nboard::default();
                n.handshake(&mut process, &self.config, &deadline)?;
                Dialect::Nboard(n)
            }
            Protocol::Gtp => {
                let mut g = Gtp::default();
                g.handshake(&mut process, &self.config, &deadline)?;
                Dialect::Gtp(g)
            }
        };
        Ok(Session { process, dialect })
    }

    /// A new game on the running process, or on a new one.
    fn begin(&mut self, setup: &GameSetup<Board>) -> Result<(), PlayerError> {
        let mut session = match self.session.take() {
            Some(s) => s,
            None => self.start()?,
        };
        let mut record = Record::new(setup);
        let ms = self.config.ready_timeout_ms;
        let deadline = Deadline::after_ms(ms, Wait::Ready(ms));
        let names = if setup.first {
            [self.config.name.as_str(), "?"]
        } else {
            ["?", self.config.name.as_str()]
        };
        let p = &mut session.process;
        let result = match &mut session.dialect {
            Dialect::Nboard(n) => n.new_game(p, &mut record, names, &deadline),
            Dialect::Gtp(g) => g.new_game(p, &mut record, self.config.limit, &deadline),
        };
        self.record = Some(record);
        self.keep(session, result)
    }

    /// Keeps the session after a success; drops (kills) it after an error.
    fn keep<T>(
        &mut self,
        session: Session,
        result: Result<T, PlayerError>,
    ) -> Result<T, PlayerError> {
        if result.is_ok() {
            self.session = Some(session);
        }
        result
    }
}

impl Player<Board> for ExternalPlayer {
    fn name(&self) -> &str {
        &self.config.name
    }

    /// Starts the process when none runs, then tells it the new game. A
    /// process that died since its last game is started again once.
    fn new_game(&mut self, setup: &GameSetup<Board>) -> Result<(), PlayerError> {
        let had = self.session.is_some();
        match self.begin(setup) {
            Err(PlayerError::Crashed(_)) if had => self.begin(setup),
            other => other,
        }
    }

    fn choose(&mut self, pos: &Board, clock: &Clock) -> Result<MoveInfo<Move>, PlayerError> {
        let (Some(mut session), Some(record)) = (self.session.take(), self.record.as_mut()) else {
            return Err(PlayerError::Crashed(
                "asked for a move before a new game".into(),
            ));
        };
        let deadline = match clock.deadline {
            Some(at) => Deadline::clock(at),
            None => {
                let ms = self.config.reply_timeout_ms;
                Deadline::after_ms(ms, Wait::Reply(ms))
            }
        };
        let p = &mut session.process;
        let result = record
            .catch_up(pos)
            .and_then(|()| match &mut session.dialect {
                Dialect::Nboard(n) => n.choose(p, record, &deadline),
                Dialect::Gtp(g) => g.choose(p, record, clock, &deadline),
            });
        self.keep(session, result)
    }
}

impl ExternalConfig {
    /// Checks that the program starts (then stops it at once): a missing
    /// or unrunnable program is an error before any game. How it answers
    /// is each game's business.
    ///
    /// # Errors
    /// [`Error::Start`] naming the engine and the program.
    pub fn check_starts(&self) -> Result<()> {
        let start_error = |source| Error::Start {
            engine: self.name.clone(),
            program: self.program.clone(),
            source,
        };
        if let Some(dir) = self.working_dir.as_ref().filter(|d| !d.is_dir()) {
            // A FIFO, a socket or a device says which.
            let what = match crate::util::text::file_problem(dir) {
                Some(crate::util::text::TextProblem::Special(kind)) => format!("{kind}, not"),
                _ => "not".to_string(),
            };
            return Err(start_error(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("its working_dir {} is {what} a folder", dir.display()),
            )));
        }
        match Process::spawn(self, Transcript::none(), None) {
            Ok(mut p) => {
                p.kill();
                Ok(())
            }
            Err(source) => Err(start_error(source)),
        }
    }
}
