//! What a running tournament shows: an indicatif bar on a terminal (games
//! done of total, ETA, Elo ± error and LLR), plain lines otherwise (the
//! fastchess-shaped block or the rating table every 10 pairs and at the
//! end), nothing with `--quiet`.

use crate::report::Results;
use crate::stats::format::{elo, elo_error, fixed, ELO_SHOWN};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The progress display of one run.
pub struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    last_report: u64,
}

/// Pairs between two plain reports.
const EVERY_PAIRS: u64 = 10;

impl Progress {
    /// A display for `total` games of which `done` are already played;
    /// a bar when stdout is a terminal, plain lines when it is not.
    pub fn new(total: u64, done: u64, quiet: bool) -> Progress {
        if quiet {
            return Progress {
                bar: None,
                plain: false,
                last_report: 0,
            };
        }
        if std::io::stdout().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stdout());
            bar.set_style(
                ProgressStyle::with_template("{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise} ETA {eta_precise}  {msg}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            bar.set_position(done);
            Progress {
                bar: Some(bar),
                plain: false,
                last_report: 0,
            }
        } else {
            Progress {
                bar: None,
                plain: true,
                last_report: done / 2,
            }
        }
    }

    /// True when plain lines are printed (stdout is not a terminal).
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    /// True when a bar is drawn.
    pub fn is_bar(&self) -> bool {
        self.bar.is_some()
    }

    /// Shows the state after a game.
    pub fn update(&mut self, games_done: u64, results: &Results) {
        if let Some(bar) = &self.bar {
            bar.set_position(games_done);
            bar.set_message(short_line(results));
        } else if self.plain {
            let pairs = results.games / 2;
            if pairs >= self.last_report + EVERY_PAIRS && !results.complete {
                self.last_report = pairs;
                say(&format!("{}\n", report_text(results)));
            }
        }
    }

    /// Prints a line above the bar (or plainly).
    pub fn note(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => {
                if self.plain {
                    say(text);
                }
            }
        }
    }

    /// Ends the display (the caller prints the final report).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Prints `text` and a newline on stdout; a closed pipe (`arena run … |
/// head`) or another write error only loses the display, never the run.
pub fn say(text: &str) {
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

/// The report printed every 10 pairs and at the end: see
/// [`Results::report_text`].
pub fn report_text(r: &Results) -> String {
    r.report_text()
}
