//! What a running tournament shows (`arena run`, `arena match`): an
//! indicatif bar on a terminal (games done of total, ETA, Elo ± error and
//! LLR), plain lines otherwise (the fastchess-shaped block or the rating
//! table every 10 pairs), nothing with `--quiet`; then the final block.
//! Warnings about the engines go to stderr at the start, `--quiet` or not.
//! Each is a [`RunObserver`] the runner reports to; `--events FILE` adds
//! the JSON lines of [`super::events`] beside whichever is shown.

use super::events::Events;
use crate::report::colour::Paint;
use crate::report::Results;
use crate::stats::format::{elo, elo_error, fixed, ELO_SHOWN};
use crate::tournament::observer::{Cadence, End, RunObserver, Start, Tee};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

/// Plain lines: a report every this many pairs.
const EVERY_PAIRS: u64 = 10;

/// The bar: fresh statistics twice a second.
const BAR_EVERY: Duration = Duration::from_millis(500);

/// What the terminal shows of a run: nothing when `quiet`, a bar when
/// stdout is a terminal, plain lines otherwise; with the JSON lines of
/// `events` beside it when given.
///
/// # Errors
/// An events file that cannot be created.
pub fn observer(quiet: bool, events: Option<&Path>) -> anyhow::Result<Box<dyn RunObserver>> {
    let display: Box<dyn RunObserver> = if quiet {
        Box::new(Quiet)
    } else if std::io::stdout().is_terminal() {
        Box::new(Bar::default())
    } else {
        Box::new(Lines::default())
    };
    Ok(match events {
        Some(path) => Box::new(Tee(display, Events::create(path)?)),
        None => display,
    })
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

    fn game_finished(&mut self, _game: &crate::records::GameRecord, games_done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(games_done);
        }
    }

    fn interval(&mut self, results: &Results) {
        if let Some(bar) = &self.bar {
            bar.set_message(short_line(results));
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
#[derive(Default)]
pub struct Lines {
    /// Pairs in the last report printed.
    last_report: u64,
}

impl RunObserver for Lines {
    fn cadence(&self) -> Cadence {
        Cadence {
            pairs: Some(EVERY_PAIRS),
            every: None,
        }
    }

    fn started(&mut self, start: &Start<'_>) {
        warn(start);
        self.last_report = start.done / 2;
        notes(start, say);
    }

    fn interval(&mut self, results: &Results) {
        let pairs = results.games / 2;
        if pairs >= self.last_report + EVERY_PAIRS && !results.complete {
            self.last_report = pairs;
            say(&format!("{}\n", results.report_text()));
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
    say(&end.results.final_text(Paint::for_stdout()));
    say(&format!("Results written to {}", end.out.display()));
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
