//! Results of a run, from its records and the statistics alone (this layer
//! imports nothing of the runner): [`analyse`] turns games into
//! [`Results`], the one [`PairCounter`] decides SPRTs, and [`write_outputs`]
//! writes `results.json`, `summary.md`, `games.ggf` and `report.html`
//! ([`html`], with plots from [`plot`]); [`colour`] paints the result block
//! on a terminal; [`history`] keeps runs' results across nights in a
//! database and plots them over time.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod colour;
mod drawing;
pub mod history;
pub mod html;
pub mod live;
pub mod moves;
pub mod pairs;
pub mod plot;
pub(crate) mod prefix;
pub mod results;
mod rounds;
mod tallies;
mod text;
pub mod tune;

pub use html::report_html;
pub use live::Live;
pub use pairs::{PairCounter, PairTrace};
pub use results::{analyse, analyse_counted, EngineResult, MeetingResult, Results, Status};

use crate::error::Result;
use crate::game::GameKind;
use crate::records::{game::push_ggf, GameRecord, GgfRun, TournamentInfo};
use crate::util::write_atomic;
use std::path::Path;

/// Writes `results.json`, `summary.md`, `report.html` and, for Othello,
/// `games.ggf` (games in game_id order) into `dir`, each atomically.
/// `report.html` is dated by the journal's last write (when the last game
/// was written).
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_outputs(
    dir: &Path,
    info: &TournamentInfo,
    results: &Results,
    games: &[GameRecord],
) -> Result<()> {
    write_reports(dir, info, results, games)?;
    write_games_ggf(dir, info, games)
}

/// Writes `games.ggf` into `dir` for Othello (nothing for another game,
/// which GGF cannot hold): `games` in game_id order, one a line, dated by
/// the journal in `dir`. Apart from the other outputs so that a caller can
/// make and write it on a thread of its own while it computes the
/// statistics (at 10,000 games it costs more than they do).
///
/// # Errors
/// An I/O error, naming the file.
pub fn write_games_ggf(dir: &Path, info: &TournamentInfo, games: &[GameRecord]) -> Result<()> {
    match games_ggf(dir, info, games) {
        Some(text) => write_atomic(&dir.join("games.ggf"), &text),
        None => Ok(()),
    }
}

/// `games.ggf`'s text (`None` for a game other than Othello).
fn games_ggf(dir: &Path, info: &TournamentInfo, games: &[GameRecord]) -> Option<String> {
    if info.game != GameKind::Othello {
        return None;
    }
    let date = journal_date(dir).map(|d| d.replace('T', " ").replace('Z', " GMT"));
    let run = GgfRun {
        event: &info.name,
        date: date.as_deref(),
        time: info.time_control.as_deref(),
    };
    let mut sorted: Vec<&GameRecord> = games.iter().collect();
    sorted.sort_by_key(|g| g.game_id);
    sorted.dedup_by_key(|g| g.game_id);
    // About 450 bytes a game of 60 moves.
    let mut text = String::with_capacity(512 * sorted.len());
    for g in sorted {
        push_ggf(&mut text, g, &run);
        text.push('\n');
    }
    Some(text)
}

/// The outputs but `games.ggf` ([`write_outputs`]'s `results.json`,
/// `summary.md` and `report.html`).
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_reports(
    dir: &Path,
    info: &TournamentInfo,
    results: &Results,
    games: &[GameRecord],
) -> Result<()> {
    let json = serde_json::to_string_pretty(results).expect("results serialize");
    write_atomic(&dir.join("results.json"), &(json + "\n"))?;
    write_atomic(&dir.join("summary.md"), &results.markdown())?;
    let written = journal_date(dir);
    let date = written.as_deref().map_or_else(
        || "date unknown".to_string(),
        |d| d.replace('T', " ").replace('Z', " UTC"),
    );
    write_atomic(
        &dir.join("report.html"),
        &report_html(info, results, games, &date),
    )
}

/// When the run's games were last written: its journal's last change, or
/// for a run of workers the latest of their journals'. `arena report`
/// rewrites the outputs with the same date, and two runs' games.ggf differ
/// in it alone.
fn journal_date(dir: &Path) -> Option<String> {
    if let Ok(d) = history::file_date(&dir.join("journal.jsonl")) {
        return Some(d);
    }
    let workers = std::fs::read_dir(dir.join("workers")).ok()?;
    workers
        .filter_map(|e| history::file_date(&e.ok()?.path().join("journal.jsonl")).ok())
        .max()
}
