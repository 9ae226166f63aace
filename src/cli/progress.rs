//! Progress of one long command (perft, solve, search, bench, train) on a
//! terminal: an indicatif bar or spinner on stderr when stderr is a
//! terminal, and nothing at all otherwise, so pipes, CI logs and `--json`
//! output never see it. The bar is cleared when the command ends.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How often a drawn bar refreshes on its own (its clock and spinner move
/// even while one long step runs).
const TICK: Duration = Duration::from_millis(200);

/// Where progress goes: stderr when it is a terminal, nowhere otherwise.
fn target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

fn start(bar: ProgressBar, template: &str) -> ProgressBar {
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    if !bar.is_hidden() {
        bar.enable_steady_tick(TICK);
    }
    bar
}

/// A bar of `total` steps called `unit` (`subtrees`, `positions`), with
/// elapsed time, ETA and a message; hidden when stderr is not a terminal.
pub fn bar(total: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target());
    start(
        bar,
        &format!(
            "{{spinner}} {{bar:20.cyan/blue}} {{pos}}/{{len}} {unit}  {{elapsed_precise}} ETA {{eta_precise}}  {{msg}}"
        ),
    )
}

/// A spinner with `message` and the elapsed time, for work of unknown
/// length; hidden when stderr is not a terminal.
pub fn spinner(message: impl Into<String>) -> ProgressBar {
    let bar = start(
        ProgressBar::with_draw_target(None, target()),
        "{spinner} {msg}  {elapsed_precise}",
    );
    bar.set_message(message.into());
    bar
}

/// The library's [`Progress`](crate::util::progress::Progress) drawn as
/// these bars: a bar per phase (a spinner for one of unknown length).
#[derive(Default)]
pub struct Bars(std::sync::Mutex<Option<ProgressBar>>);

impl Bars {
    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl crate::util::progress::Progress for Bars {
    fn begin(&self, total: Option<u64>, unit: &str, message: &str) {
        let shown = match total {
            Some(n) => {
                let b = bar(n, unit);
                b.set_message(message.to_string());
                b
            }
            None => spinner(message.to_string()),
        };
        if let Some(old) = self.bar().replace(shown) {
            old.finish_and_clear();
        }
    }

    fn step(&self) {
        if let Some(b) = self.bar().as_ref() {
            b.inc(1);
        }
    }

    fn end(&self) {
        if let Some(b) = self.bar().take() {
            b.finish_and_clear();
        }
    }
}
