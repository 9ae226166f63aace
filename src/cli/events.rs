//! `--events FILE`: a run as JSON lines for other tools, one object a line,
//! each line flushed as it is written. The file is opened only once the
//! run's folder is locked and checked (a refused run touches nothing), and
//! never waits to open: a pipe nobody reads is refused. A regular file is
//! replaced when the first line is written (unless it is where stdout or
//! stderr already go: then lines are added). `{"event":"game",...}` for every
//! game that comes in (the journal's keys, without per-move data),
//! `{"event":"interval",...}` each time the statistics are recomputed with
//! new games in them, and one last `{"event":"finished",...}` (or
//! `"stopped"`, after Ctrl-C or SIGTERM) once the outputs are written.
//! Statistics lines carry the games played and scheduled and, when there
//! is one, the head-to-head Elo ± error (and an SPRT's LLR and bounds) or
//! the leader of a multi-engine run.

use crate::records::GameRecord;
use crate::report::{Results, Status};
use crate::tournament::runner::observer::{End, RunObserver, Start};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The JSON-lines observer of `--events FILE`.
pub struct Events {
    path: PathBuf,
    /// `None` before [`RunObserver::open`] and once a write failed (the
    /// run goes on, without events).
    file: Option<BufWriter<File>>,
    /// True while a regular file opened has yet to be emptied (at the
    /// first line).
    replace: bool,
    /// Games in the last statistics written.
    last_games: u64,
}

impl Events {
    /// The events of `path`, opened when the run opens its observers.
    pub fn new(path: &Path) -> Events {
        Events {
            path: path.to_path_buf(),
            file: None,
            replace: false,
            last_games: 0,
        }
    }

    /// Writes `value` as one line and flushes it; on a write error says so
    /// once on stderr and writes no more.
    fn write(&mut self, value: &impl Serialize) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let emptied = if std::mem::take(&mut self.replace) {
            file.get_ref().set_len(0)
        } else {
            Ok(())
        };
        let written = emptied
            .and_then(|()| serde_json::to_writer(&mut *file, value).map_err(std::io::Error::from))
            .and_then(|()| file.write_all(b"\n"))
            .and_then(|()| file.flush());
        if let Err(e) = written {
            self.file = None;
            crate::util::eprint_line(&format!(
                "warning: cannot write the events file {}: {e}; no more events are written",
                self.path.display()
            ));
        }
    }
}

impl RunObserver for Events {
    fn open(&mut self) -> crate::error::Result<()> {
        let file = crate::util::sys::open_writer(&self.path).map_err(|e| {
            let why = if crate::util::sys::no_reader(&e) {
                "it is a pipe that no process reads".to_string()
            } else {
                e.to_string()
            };
            let path = crate::error::path_text(&self.path);
            crate::error::Error::Run(format!("cannot open the events file {path}: {why}").into())
        })?;
        self.replace = file.metadata().is_ok_and(|m| m.is_file())
            && !crate::util::sys::is_standard_output(&file);
        self.file = Some(BufWriter::new(file));
        Ok(())
    }

    fn started(&mut self, start: &Start<'_>) {
        self.last_games = start.done;
    }

    fn game_finished(&mut self, game: &GameRecord, _games_done: u64) {
        self.write(&GameLine::of(game));
    }

    fn interval(&mut self, results: &Results) {
        if results.games_played != self.last_games {
            self.last_games = results.games_played;
            self.write(&Standing::of("interval", results));
        }
    }

    fn finished(&mut self, end: &End<'_>) {
        let stopped = end.results.status == Status::Stopped;
        let line = EndLine {
            standing: Standing::of(if stopped { "stopped" } else { "finished" }, end.results),
            status: end.results.status,
            verdict: end.results.verdict,
            out: end.out.display().to_string(),
            already_held: end.already_held,
        };
        self.write(&line);
    }
}

/// The line of a game that came in.
#[derive(Serialize)]
struct GameLine<'a> {
    event: &'static str,
    game_id: u64,
    pair_id: u64,
    round: u64,
    opening_id: usize,
    black: &'a str,
    white: &'a str,
    result: f64,
    disc_diff: i32,
    reason: &'a str,
    moves: &'a str,
}

impl GameLine<'_> {
    fn of(g: &GameRecord) -> GameLine<'_> {
        GameLine {
            event: "game",
            game_id: g.game_id,
            pair_id: g.pair_id,
            round: g.round,
            opening_id: g.opening_id,
            black: &g.black,
            white: &g.white,
            result: g.result,
            disc_diff: g.disc_diff,
            reason: &g.reason,
            moves: &g.moves,
        }
    }
}

/// A statistics line: the event, the games, and the head-to-head figures
/// (from the first side's point of view, with an SPRT's LLR and bounds) or
/// the leader, when there are any. (serde_json writes `null` for a value
/// that is not finite.)
#[derive(Serialize)]
struct Standing<'a> {
    event: &'a str,
    games: u64,
    scheduled: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    second: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    elo: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    elo_error: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    llr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    leader: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    leader_elo: Option<f64>,
}

impl<'a> Standing<'a> {
    fn of(event: &'a str, r: &'a Results) -> Standing<'a> {
        let mut line = Standing {
            event,
            games: r.games_played,
            scheduled: r.games_scheduled,
            first: None,
            second: None,
            elo: None,
            elo_error: None,
            llr: None,
            lower_bound: None,
            upper_bound: None,
            leader: None,
            leader_elo: None,
        };
        match (&r.head_to_head, r.sides()) {
            (Some(h), Some((a, b))) => {
                (line.first, line.second) = (Some(a), Some(b));
                (line.elo, line.elo_error) = (Some(h.elo), Some(h.elo_error));
                if let Some(sprt) = &h.sprt {
                    line.llr = Some(sprt.llr);
                    line.lower_bound = Some(sprt.lower_bound);
                    line.upper_bound = Some(sprt.upper_bound);
                }
            }
            _ => {
                if let Some(e) = r.ratings.as_ref().and_then(|rt| rt.engines.first()) {
                    (line.leader, line.leader_elo) = (Some(e.name.as_str()), Some(e.elo));
                }
            }
        }
        line
    }
}

/// The last line: the final standing, how the run ended, and where its
/// outputs are.
#[derive(Serialize)]
struct EndLine<'a> {
    #[serde(flatten)]
    standing: Standing<'a>,
    status: Status,
    verdict: Option<&'static str>,
    out: String,
    already_held: bool,
}
