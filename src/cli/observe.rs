//! What a running tournament shows (`arena run`, `arena match`): an
//! indicatif bar on a terminal (games done of total, ETA, Elo ± error and
//! LLR), plain lines otherwise (the fastchess-shaped block or the rating
//! table every `--ratinginterval` pairs, 10 by default), nothing with
//! `--quiet`; then the final block. Both show a line per finished game, as
//! cutechess and fastchess do (`Finished game 12 (A vs B): 1-0 {...}`).
//! Warnings about the engines go to stderr at the start, `--quiet` or not.
//! Each is a [`RunObserver`] the runner reports to; `--events FILE` adds
//! the JSON lines of [`super::events`] beside whichever is shown.

use super::events::Events;
use crate::records::GameRecord;
use crate::report::Results;
use crate::stats::format::{elo, elo_error, fixed, ELO_SHOWN};
use crate::tournament::runner::observer::{Cadence, End, RunObserver, Start, Tee};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

/// Plain lines: the result block every this many pairs unless
/// `--ratinginterval` says otherwise.
pub const EVERY_PAIRS: u64 = 10;

/// The bar: fresh statistics twice a second.
const BAR_EVERY: Duration = Duration::from_millis(500);

/// What the terminal shows of a run: nothing when `quiet`, a bar when
/// stdout is a terminal, plain lines otherwise (the result block every
/// `every_pairs` pairs, 0 never); with the JSON lines of `events` beside
/// it when given.
///
/// The events file is opened as the run opens its observers.
pub fn observer(quiet: bool, every_pairs: u64, events: Option<&Path>) -> Box<dyn RunObserver> {
    let display: Box<dyn RunObserver> = if quiet {
        Box::new(Quiet)
    } else if std::io::stdout().is_terminal() {
        Box::new(Bar::default())
    } else {
        Box::new(Lines::new(every_pairs))
    };
    match events {
        Some(path) => Box::new(Tee(display, Events::new(path))),
        None => display,
    }
}

/// The bar of a run on a terminal.
#[derive(Default)]
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    /// Prints a line above the bar.
    fn note(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.println(text);
        }
    }
}

impl RunObserver for Bar {
    fn cadence(&self) -> Cadence {
        Cadence {
            pairs: None,
            every: Some(BAR_EVERY),
        }
    }

    fn started(&mut self, start: &Start<'_>) {
        warn(start);
        let bar = ProgressBar::with_draw_target(Some(start.total), ProgressDrawTarget::stdout());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise} ETA {eta_precise}  {msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_position(start.done);
        self.bar = Some(bar);
        notes(start, |text| self.note(text));
    }

    fn game_finished(&mut self, game: &GameRecord, games_done: u64) {
        self.note(&finished_line(game));
        if let Some(bar) = &self.bar {
            bar.set_position(games_done);
        }
    }

    fn interval(&mut self, results: &Results) {
        if let Some(bar) = &self.bar {
            match &results.tune {
                Some(tune) => bar.set_message(tune.line()),
                None => bar.set_message(short_line(results)),
            }
        }
    }

    fn stop_requested(&mut self, in_flight: usize, grace: Option<Duration>) {
        self.note(&stopping(in_flight, grace));
    }

    fn play_ended(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn finished(&mut self, end: &End<'_>) {
        final_block(end);
    }
}

/// Plain lines, when stdout is not a terminal (pipes, CI logs).
pub struct Lines {
    /// The result block every this many pairs; 0 never.
    every_pairs: u64,
    /// Pairs in the last report printed.
    last_report: u64,
}

impl Lines {
    /// Plain lines with the result block every `every_pairs` pairs (0:
    /// only the final block).
    pub fn new(every_pairs: u64) -> Lines {
        Lines {
            every_pairs,
            last_report: 0,
        }
    }
}

impl RunObserver for Lines {
    fn shows_run(&self) -> bool {
        // Its final block shows the run only for a worker that read it.
        self.every_pairs > 0
    }

    fn cadence(&self) -> Cadence {
        Cadence {
            pairs: (self.every_pairs > 0).then_some(self.every_pairs),
            every: None,
        }
    }

    fn started(&mut self, start: &Start<'_>) {
        warn(start);
        self.last_report = start.done / 2;
        notes(start, say);
    }

    fn game_finished(&mut self, game: &GameRecord, _games_done: u64) {
        say(&finished_line(game));
    }

    fn interval(&mut self, results: &Results) {
        let pairs = results.games / 2;
        let due = self.every_pairs > 0 && pairs >= self.last_report + self.every_pairs;
        if due && !results.complete {
            self.last_report = pairs;
            match &results.tune {
                Some(tune) => say(&tune.line()),
                None => say(&format!("{}\n", results.report_text())),
            }
        }
    }

    fn stop_requested(&mut self, in_flight: usize, grace: Option<Duration>) {
        say(&stopping(in_flight, grace));
    }

    fn finished(&mut self, end: &End<'_>) {
        final_block(end);
    }
}

/// `--quiet`: nothing but the warnings.
struct Quiet;

impl RunObserver for Quiet {
    fn started(&mut self, start: &Start<'_>) {
        warn(start);
    }

    fn shows_run(&self) -> bool {
        false
    }
}

/// The run's warnings about its engines, on stderr (`warning: NAME: ...`).
fn warn(start: &Start<'_>) {
    for w in start.warnings {
        crate::util::eprint_line(&format!("warning: {w}"));
    }
}

/// The notes before the first game, in order: the book's, then resuming.
fn notes(start: &Start<'_>, mut note: impl FnMut(&str)) {
    if let Some(msg) = start.book_note {
        note(&format!("note: {msg}"));
    }
    if start.resuming {
        note(&format!(
            "resuming: {} of {} games already played",
            start.done, start.total
        ));
    }
}

/// A finished game as cutechess and fastchess print it: `Finished game
/// 12 (A vs B): 1-0 {black wins by 14 discs}`, numbered from 1, black
/// first; a game that did not end on the board says why (`{white wins:
/// time forfeit: A (...)}`).
fn finished_line(game: &GameRecord) -> String {
    let (score, winner) = if game.result > 0.5 {
        ("1-0", Some("black"))
    } else if game.result < 0.5 {
        ("0-1", Some("white"))
    } else {
        ("1/2-1/2", None)
    };
    let why = match (winner, game.reason == "game over") {
        (Some(w), true) => format!("{w} wins by {} discs", game.disc_diff.unsigned_abs()),
        (None, true) => "draw".to_string(),
        (Some(w), false) => format!("{w} wins: {}", game.reason),
        (None, false) => format!("draw: {}", game.reason),
    };
    format!(
        "Finished game {} ({} vs {}): {score} {{{why}}}",
        game.game_id + 1,
        game.black,
        game.white
    )
}

/// The note of a first stop request: Ctrl-C's (`grace` `None`: the games
/// in flight finish), or a SIGTERM's (they get `grace`, then are abandoned).
fn stopping(in_flight: usize, grace: Option<Duration>) -> String {
    match grace {
        None => format!(
            "stopping: finishing the {in_flight} games in flight (Ctrl-C again abandons them)"
        ),
        Some(g) => format!(
            "stopping: the {in_flight} games in flight get {}, then are abandoned (a second signal abandons them now)",
            span(g)
        ),
    }
}

/// A grace in words: `10 s`, `1.5 s`, `500 ms`.
fn span(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", fixed(d.as_secs_f64(), 1))
    }
}

/// The block printed at the end of a run that was shown.
fn final_block(end: &End<'_>) {
    if end.already_held {
        say(&format!(
            "{} already holds this run, finished:",
            end.out.display()
        ));
    }
    // A worker that followed the run's lead counted only its own games.
    if !end.worker.is_some_and(|w| w.followed) {
        say(&end.results.final_text(super::paint()));
    }
    match end.worker {
        Some(line) => {
            say(&super::ending::worker_line(line));
            say(&format!(
                "The run's results: arena report {}",
                end.out.display()
            ));
        }
        None => {
            say(&format!("Results written to {}", end.out.display()));
            say(&report_line(end.out));
        }
    }
    if let Some(lines) = end.tuned {
        say(&super::ending::tuned_lines(lines));
    }
}

/// Where a run's HTML report is: `Report: DIR/report.html`.
pub fn report_line(dir: &std::path::Path) -> String {
    format!("Report: {}", dir.join("report.html").display())
}

/// Prints `text` and a newline on stdout; a closed pipe (`arena run … |
/// head`) or another write error only loses the display, never the run.
fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// One line for the bar: both sides, the first one's Elo ± the half-width
/// of its 95% interval, and the LLR of an SPRT; the leader of a
/// multi-engine run. `—` until the first pair is in.
fn short_line(r: &Results) -> String {
    match (&r.head_to_head, r.sides()) {
        (Some(h), Some((a, b))) => {
            let mut s = format!(
                "{a} vs {b}: Elo {} ± {}",
                signed(h.elo),
                elo_error(h.elo, h.elo_error, 1)
            );
            if let Some(sprt) = &h.sprt {
                s.push_str(&format!(
                    "  LLR {} ({}, {})",
                    fixed(sprt.llr, 2),
                    fixed(sprt.lower_bound, 2),
                    fixed(sprt.upper_bound, 2)
                ));
            }
            s
        }
        _ => match &r.ratings {
            Some(rt) => rt.engines.first().map_or(String::new(), |e| {
                format!("leader {} {}", e.name, signed(e.elo))
            }),
            None => String::new(),
        },
    }
}

/// An Elo difference with its sign, as the bar shows it (`+12.3`).
fn signed(x: f64) -> String {
    let text = elo(x, 1);
    if x > 0.0 && x <= ELO_SHOWN {
        format!("+{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_says_why_a_game_ended_off_the_board() {
        let mut g = GameRecord {
            tune: None,
            pair_id: 5,
            game_id: 11,
            round: 0,
            opening_id: 0,
            black: "A".into(),
            white: "B".into(),
            start: None,
            opening_plies: 0,
            moves: String::new(),
            result: 1.0,
            disc_diff: 14,
            reason: "game over".into(),
            nodes: vec![],
            times_ms: vec![],
            depths: vec![],
            scores: vec![],
        };
        let line = |g: &GameRecord| finished_line(g);
        assert_eq!(
            line(&g),
            "Finished game 12 (A vs B): 1-0 {black wins by 14 discs}"
        );
        (g.result, g.disc_diff) = (0.5, 0);
        assert_eq!(line(&g), "Finished game 12 (A vs B): 1/2-1/2 {draw}");
        (g.result, g.disc_diff) = (0.0, -64);
        g.reason = "time forfeit: A (used 1.2 s of 1 s)".into();
        assert_eq!(
            line(&g),
            "Finished game 12 (A vs B): 0-1 {white wins: time forfeit: A (used 1.2 s of 1 s)}"
        );
    }

    #[test]
    fn ctrl_c_lets_the_games_finish_and_sigterm_names_its_grace() {
        assert_eq!(
            stopping(3, None),
            "stopping: finishing the 3 games in flight (Ctrl-C again abandons them)"
        );
        assert_eq!(
            stopping(2, Some(Duration::from_secs(10))),
            "stopping: the 2 games in flight get 10 s, then are abandoned (a second signal abandons them now)"
        );
        assert_eq!(span(Duration::from_millis(500)), "500 ms");
        assert_eq!(span(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(span(Duration::from_secs(60)), "60 s");
    }
}
