//! `report.html`: one self-contained page of a run's results (inline CSS
//! and SVG, no scripts, readable from `file://`, printable, one column that
//! narrows to a phone's width), written beside `summary.md` whenever the
//! results are. The page is a `maud` template; its figures are plotters
//! charts ([`figures`], [`grids`]) of data computed in [`data`]. Every
//! text from the run (engine names, the tournament's name, openings) goes
//! through the template's escaping.
//!
//! Sections: the header (name, config hash, date, shard, the verdict in
//! words and colour, the head-to-head's Elo); an SPRT's LLR over pairs and
//! a head-to-head's Elo over pairs; ratings and the crosstable heatmap of
//! runs of more engines; pairings (pentanomial distribution, draws) and the
//! disc-difference histogram; openings by how one-sided they were; what
//! each engine's moves cost and how games ended.

mod data;
mod figures;
mod grids;
mod rounds;
mod sections;
mod style;

pub use data::{
    by_colour, by_side, pair_points, Drawn, DrawnGame, Histogram, OpeningRow, PairPoint, Seat,
};

use super::colour::Tone;
use super::plot::Frame;
use super::results::{Results, Status};
use crate::records::{GameRecord, TournamentInfo};
use crate::stats::format::{elo, elo_error, fixed, percent};
use crate::stats::Verdict;
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// The page of `results` (of the run `info` describes, from its `games`),
/// dated `date` (when its last game was written).
pub fn report_html(
    info: &TournamentInfo,
    results: &Results,
    games: &[GameRecord],
    date: &str,
) -> String {
    let drawn = drawn_of(info, results, games);
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (results.name) " — arena report" }
                style { (PreEscaped(style::CSS)) }
            }
            body {
                (header(info, results, date))
                main { (main_sections(info, results, &drawn)) }
                footer {
                    "Written by arena from " code { "journal.jsonl" }
                    " (" (results.games_played) " games played). This page is self-contained: \
                     inline CSS and SVG, no scripts, nothing fetched."
                }
            }
        }
    };
    page.into_string()
}

/// The page's CSS (`arena watch` serves it as a file of its own: its
/// pages allow no inline style).
pub const CSS: &str = style::CSS;

/// What the report draws of the games `results` counts (of `games`),
/// from the view of its head-to-head's first side.
pub fn drawn_of(info: &TournamentInfo, results: &Results, games: &[GameRecord]) -> Drawn {
    let counted = results.counted_games(games);
    let side = results.sides().map(|(a, _)| a);
    Drawn::of(info.game, &counted, side)
}

/// The sections of [`report_html`]'s `main` alone (figures and tables,
/// every text escaped), for a page that frames them itself: `arena watch`
/// shows them on a run's live page, from the games it has `drawn` as
/// they counted (it keeps no game).
pub fn report_sections(info: &TournamentInfo, results: &Results, drawn: &Drawn) -> String {
    main_sections(info, results, drawn).into_string()
}

/// The report's sections, in order: a tune's trajectories, the figures
/// over pairs, ratings, pairings, openings, engines and notes.
fn main_sections(info: &TournamentInfo, results: &Results, drawn: &Drawn) -> Markup {
    html! {
        (sections::tune(results))
        (rounds::rounds(results))
        (sections::over_pairs(results))
        (sections::ratings(results, info.game))
        (sections::pairings(info, results, drawn))
        (sections::openings(info, results, drawn))
        (sections::engines(results))
        (sections::notes(results))
    }
}

/// The verdict of a run in words, and its CSS class: an SPRT's decision,
/// or where a run stands.
pub fn verdict(info: &TournamentInfo, results: &Results) -> (&'static str, String) {
    let no_verdict = info.sprt().is_some() && !info.decides();
    match (results.status, results.verdict()) {
        (Status::Partial, _) => ("partial", "partial (some shards only)".into()),
        (Status::Stopped, _) => ("stopped", "stopped (resumable)".into()),
        (_, Some(Verdict::H1)) => ("h1", "H1 accepted".into()),
        (_, Some(Verdict::H0)) => ("h0", "H0 accepted".into()),
        (Status::Complete, Some(Verdict::Continue)) => {
            ("undecided", "undecided (max pairs played)".into())
        }
        (Status::InProgress, Some(Verdict::Continue)) => {
            ("undecided", "undecided (in progress)".into())
        }
        (Status::Complete | Status::InProgress, None) if no_verdict => {
            ("undecided", format!("no verdict (shard {})", info.shard))
        }
        (Status::Complete, None) => ("complete", "complete".into()),
        (Status::InProgress, None) => ("progress", "in progress".into()),
    }
}

/// Green for an interval above 0, red below, nothing when it holds 0 (or
/// does not exist).
pub fn significance(value: f64, half_width: f64) -> &'static str {
    match Tone::of_interval(value, half_width) {
        Tone::Good => "good",
        Tone::Bad => "bad",
        Tone::Plain => "",
    }
}

/// The header: name, config, date, shard, verdict and the headline.
fn header(info: &TournamentInfo, results: &Results, date: &str) -> Markup {
    let (class, words) = verdict(info, results);
    let shard = match results.shard.as_str() {
        "merged" => "merged from shards".to_string(),
        "1/1" => "whole run".to_string(),
        s => format!("shard {s}"),
    };
    html! {
        header {
            h1 { (results.name) }
            p.meta {
                "config " code { (results.config_hash) } " · " (shard) " · " (date) " · "
                (results.games) " games counted, " (results.games_played) " played, "
                @if info.sprt().is_some() { "at most " } (results.games_scheduled) " scheduled"
            }
            p { span #verdict class={ "verdict " (class) } data-status=(results.status.words()) { (words) } }
            @if let Some(note) = &results.status_note { p.note { (note) } }
            (headline(results))
        }
    }
}

/// A head-to-head's Elo with its interval, or the leader of the ratings.
fn headline(results: &Results) -> Markup {
    if let (Some(h), Some((a, b))) = (&results.head_to_head, results.sides()) {
        let class = significance(h.elo, h.elo_error);
        return html! {
            p.headline {
                strong { (a) } " vs " strong { (b) } ": Elo "
                span #header-elo class={ "elo " (class) } data-elo=(h.elo) data-error=(h.elo_error) {
                    (elo(h.elo, 2)) " ± " (elo_error(h.elo, h.elo_error, 2))
                }
                " (logistic, 95% interval), nElo " (elo(h.nelo, 2)) " ± "
                (elo_error(h.nelo, h.nelo_error, 2)) ", LOS " (percent(h.los, 1))
                " over " (h.pairs.unwrap_or(0)) " pairs"
            }
            @if let Some(block) = results.block() {
                details { summary { "the result block (as printed)" } pre { (results.header()) "\n" (block) } }
            }
        };
    }
    let leader = results.ratings.as_ref().and_then(|r| {
        r.engines
            .iter()
            .max_by(|x, y| x.elo.total_cmp(&y.elo))
            .map(|e| (e.name.as_str(), e.elo, e.error))
    });
    html! {
        @if let Some((name, e, err)) = leader {
            p.headline {
                "Leader: " strong { (name) } ", Elo "
                span #header-elo class={ "elo " (significance(e, err)) } data-elo=(e) {
                    (elo(e, 1)) " ± " (elo_error(e, err, 1))
                }
                " (maximum likelihood, average 0; 95% interval)"
            }
        } @else {
            p.headline { "No games counted yet." }
        }
    }
}

/// A figure: the SVG `draw` draws in each frame (wide, and narrow for
/// phones; or why it could not be drawn) and its caption.
fn figure(draw: impl Fn(Frame) -> Result<String, String>, caption: Markup) -> Markup {
    html! {
        figure {
            @for (frame, class) in [(Frame::WIDE, "wide"), (Frame::NARROW, "narrow")] {
                div class=(class) {
                    @match draw(frame) {
                        Ok(svg) => (PreEscaped(svg)),
                        Err(e) => p.error { "This figure could not be drawn: " (e) },
                    }
                }
            }
            figcaption { (caption) }
        }
    }
}

/// `part` of `whole` as a percentage with one decimal, `—` without a whole.
fn share(part: f64, whole: u64) -> String {
    if whole == 0 {
        "—".into()
    } else {
        format!("{}%", fixed(100.0 * part / whole as f64, 1))
    }
}

#[cfg(test)]
mod tests;
