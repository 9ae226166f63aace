//! How a run reports what happens: the runner calls a [`RunObserver`] at
//! each event (started, a game finished, fresh statistics, a stop request,
//! play over, finished) and prints nothing itself. `cli/` chooses the
//! observers (a terminal bar, plain lines, nothing, JSON lines); tests and
//! library users pass their own, or [`Silent`].
//!
//! Statistics cost the runner time (every analysis reads every game), so
//! an observer says how often it needs them ([`Cadence`]) and the collector
//! analyses no more often than that (and than its output files need).

use crate::records::GameRecord;
use crate::report::Results;
use crate::tournament::tune::output::TunedCheck;
use std::path::Path;
use std::time::Duration;

/// How often an observer needs fresh statistics. Beside these, statistics
/// are fresh every time the output files are rewritten (every 2 s) and at
/// the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cadence {
    /// Fresh statistics once this many more pairs are in.
    pub pairs: Option<u64>,
    /// Fresh statistics once this long has passed since the last ones.
    pub every: Option<Duration>,
}

impl Cadence {
    /// Pairs per result block, when the observer takes blocks (`pairs` of
    /// 0 takes none).
    pub fn block_pairs(&self) -> Option<u64> {
        self.pairs.filter(|&n| n > 0)
    }

    /// No statistics but the output files' (a quiet run).
    pub const FILES_ONLY: Cadence = Cadence {
        pairs: None,
        every: None,
    };

    /// The cadence that serves both `self` and `other`: the more frequent
    /// of each.
    pub fn and(self, other: Cadence) -> Cadence {
        let fewer = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        let sooner = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        Cadence {
            pairs: fewer(self.pairs, other.pairs),
            every: sooner(self.every, other.every),
        }
    }
}

/// A run about to play its first game.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Games the run schedules.
    pub total: u64,
    /// Games already in the journal (a resumed or finished run).
    pub done: u64,
    /// What the user should know about the opening book, in words (no
    /// book, or fewer openings than pairs).
    pub book_note: Option<&'a str>,
    /// True when a journal with games is being continued (`--resume`).
    pub resuming: bool,
    /// Warnings about the engines, one line each naming its engine: a
    /// limit its protocol cannot carry (`gtp-rhino: GTP has no depth
    /// command; it plays at its own settings`); and for a tune, more game
    /// threads than it keeps busy (`tune: concurrency 8 ...`).
    pub warnings: &'a [String],
}

/// A run that ended and wrote its outputs.
#[derive(Clone, Copy, Debug)]
pub struct End<'a> {
    /// The final statistics, as written to results.json (stopped runs are
    /// marked [`Status::Stopped`](crate::report::Status::Stopped)).
    pub results: &'a Results,
    /// The results folder.
    pub out: &'a Path,
    /// True when the folder already held this run, finished, and nothing
    /// was played (the run was shown, not resumed).
    pub already_held: bool,
    /// For one worker of a shared run, what it did (cli/ words it: `run
    /// decided H1 after 57 pairs; this worker (2) played 30 pairs ...`): it
    /// writes no results, `arena report` does.
    pub worker: Option<&'a WorkerSummary>,
    /// For a tune, where its `tuned.ron` is and the check of it against
    /// the engine it was tuned from.
    pub tuned: Option<&'a TunedCheck>,
}

/// What one worker did, for its last line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerSummary {
    /// Its ID.
    pub id: String,
    /// Pairs it claimed in this session (taken over ones included).
    pub pairs: u64,
    /// Games it has journalled, over all its sessions.
    pub games: u64,
    /// The SPRT's verdict and the pairs counted when it came, once decided.
    pub decided: Option<(&'static str, u64)>,
    /// Its time reading the other workers' journals, and its whole time.
    pub reading: (std::time::Duration, std::time::Duration),
    /// The claims naming no worker that it took over (each file and why).
    pub unreadable: Vec<String>,
    /// It ended following the run's lead's tally: its statistics are of
    /// its own games, not the run's.
    pub followed: bool,
}

/// What a run tells whoever watches it. Every method does nothing by
/// default. Events come in this order: `open` (which may refuse the run);
/// `started`; `game_finished` and
/// `interval` as games come in (with `stop_requested` when a first stop
/// request arrives); `play_ended` once no game will be taken any more
/// (also when the run fails); `finished` when the outputs are written.
pub trait RunObserver {
    /// How often [`interval`](Self::interval) needs fresh statistics; asked
    /// once, before the first game.
    fn cadence(&self) -> Cadence {
        Cadence::FILES_ONLY
    }

    /// Once the run's folder is locked and its journal checked (a second
    /// writer, a folder of another run and a bad journal are refused before
    /// this): opens what the observer writes to, so that a refused run
    /// touches none of it.
    ///
    /// # Errors
    /// What cannot be opened: the run ends before its first game.
    fn open(&mut self) -> crate::error::Result<()> {
        Ok(())
    }

    /// Whether it shows anything of the whole run (statistics, the final
    /// block; a worker's own games aside): a worker whose observer shows
    /// nothing of it may follow the run's lead rather than read every
    /// other worker's journal.
    fn shows_run(&self) -> bool {
        true
    }

    /// Before the first game.
    fn started(&mut self, _start: &Start<'_>) {}

    /// A game came in (it is in the journal); `games_done` counts every
    /// game finished, a resumed journal's included.
    fn game_finished(&mut self, _game: &GameRecord, _games_done: u64) {}

    /// Fresh statistics: after the first game that comes in, and then each
    /// time they are recomputed (at least as often as the
    /// [`cadence`](Self::cadence) asks).
    fn interval(&mut self, _results: &Results) {}

    /// A first stop request: no new games. After Ctrl-C (`grace` `None`)
    /// the `in_flight` games are being finished; after a SIGTERM they get
    /// `grace`, then are abandoned.
    fn stop_requested(&mut self, _in_flight: usize, _grace: Option<Duration>) {}

    /// Play is over (every game in, stopped, or failed): the outputs are
    /// written next, or the run's failure returned.
    fn play_ended(&mut self) {}

    /// The run ended and its outputs are written.
    fn finished(&mut self, _end: &End<'_>) {}
}

/// An observer that shows nothing and asks for no statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl RunObserver for Silent {}

/// Two observers in one: each event goes to `.0`, then to `.1`.
pub struct Tee<A, B>(pub A, pub B);

impl<A: RunObserver, B: RunObserver> RunObserver for Tee<A, B> {
    fn cadence(&self) -> Cadence {
        self.0.cadence().and(self.1.cadence())
    }

    fn open(&mut self) -> crate::error::Result<()> {
        self.0.open()?;
        self.1.open()
    }

    fn shows_run(&self) -> bool {
        self.0.shows_run() || self.1.shows_run()
    }

    fn started(&mut self, start: &Start<'_>) {
        self.0.started(start);
        self.1.started(start);
    }

    fn game_finished(&mut self, game: &GameRecord, games_done: u64) {
        self.0.game_finished(game, games_done);
        self.1.game_finished(game, games_done);
    }

    fn interval(&mut self, results: &Results) {
        self.0.interval(results);
        self.1.interval(results);
    }

    fn stop_requested(&mut self, in_flight: usize, grace: Option<Duration>) {
        self.0.stop_requested(in_flight, grace);
        self.1.stop_requested(in_flight, grace);
    }

    fn play_ended(&mut self) {
        self.0.play_ended();
        self.1.play_ended();
    }

    fn finished(&mut self, end: &End<'_>) {
        self.0.finished(end);
        self.1.finished(end);
    }
}

impl<T: RunObserver + ?Sized> RunObserver for Box<T> {
    fn cadence(&self) -> Cadence {
        (**self).cadence()
    }

    fn open(&mut self) -> crate::error::Result<()> {
        (**self).open()
    }

    fn shows_run(&self) -> bool {
        (**self).shows_run()
    }

    fn started(&mut self, start: &Start<'_>) {
        (**self).started(start);
    }

    fn game_finished(&mut self, game: &GameRecord, games_done: u64) {
        (**self).game_finished(game, games_done);
    }

    fn interval(&mut self, results: &Results) {
        (**self).interval(results);
    }

    fn stop_requested(&mut self, in_flight: usize, grace: Option<Duration>) {
        (**self).stop_requested(in_flight, grace);
    }

    fn play_ended(&mut self) {
        (**self).play_ended();
    }

    fn finished(&mut self, end: &End<'_>) {
        (**self).finished(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tee_asks_for_the_more_frequent_of_each() {
        let lines = Cadence {
            pairs: Some(10),
            every: None,
        };
        let bar = Cadence {
            pairs: None,
            every: Some(Duration::from_millis(500)),
        };
        assert_eq!(
            lines.and(bar),
            Cadence {
                pairs: Some(10),
                every: Some(Duration::from_millis(500))
            }
        );
        assert_eq!(lines.and(Cadence::FILES_ONLY), lines);
        let often = Cadence {
            pairs: Some(2),
            every: None,
        };
        assert_eq!(lines.and(often), often);
    }
}
