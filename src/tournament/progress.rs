//! What a running tournament shows: an indicatif bar on a terminal (games
//! done of total, ETA, Elo ± error and LLR), plain lines otherwise (the
//! fastchess-shaped block or the rating table every 10 pairs and at the
//! end), nothing with `--quiet`.

use crate::report::Results;
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
                println!("{}\n", report_text(results));
            }
        }
    }

    /// Prints a line above the bar (or plainly).
    pub fn note(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => {
                if self.plain {
                    println!("{text}");
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

/// One line for the bar: Elo ± error, and the LLR of an SPRT.
fn short_line(r: &Results) -> String {
    match &r.head_to_head {
        Some(h) => {
            let mut s = format!("Elo {:+.1} ± {:.1}", h.elo, h.elo_error);
            if let Some(sprt) = &h.sprt {
                s.push_str(&format!(
                    "  LLR {:.2} ({:.2}, {:.2})",
                    sprt.llr, sprt.lower_bound, sprt.upper_bound
                ));
            }
            s
        }
        None => match &r.ratings {
            Some(rt) => rt.engines.first().map_or(String::new(), |e| {
                format!("leader {} {:+.1}", e.name, e.elo)
            }),
            None => String::new(),
        },
    }
}

/// The report printed every 10 pairs and at the end: the head-to-head
/// block for two engines, the rating table for more.
pub fn report_text(r: &Results) -> String {
    let state = if r.complete {
        "Final results"
    } else {
        "Results"
    };
    let mut s = format!("{state} of {} ({} games):", r.name, r.games);
    match r.block() {
        Some(b) => {
            s.push('\n');
            s.push_str(&b);
        }
        None => {
            s.push('\n');
            s.push_str(&r.rating_table());
        }
    }
    if let Some(note) = &r.status_note {
        s.push('\n');
        s.push_str(note);
    }
    s
}
