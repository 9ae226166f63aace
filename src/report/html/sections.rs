//! The sections of `report.html` below its header, each a figure or a
//! table with a caption that gives the units and the games behind it.

use super::data::{by_colour, by_side, pair_points, Drawn, OpeningRow};
use super::figures::{
    elo_figure, histogram_figure, llr_figure, ratings_figure, tune_figure, Rating,
};
use super::grids::{heatmap_figure, ptnml_figure, Cell, PtnmlRow};
use super::{figure, share, significance};
use crate::game::GameKind;
use crate::records::TournamentInfo;
use crate::report::plot::signed;
use crate::report::results::{MeetingResult, Results};
use crate::stats::format::{elo, elo_error, fixed, NO_VALUE};
use crate::stats::Verdict;
use maud::{html, Markup};

/// What a game's final difference is called, and its unit: discs in
/// Othello, the score (10 - plies of a win) in tic-tac-toe.
fn difference(game: GameKind) -> (&'static str, &'static str) {
    match game {
        GameKind::Othello => ("disc difference", "discs"),
        GameKind::TicTacToe => ("score", "points"),
    }
}

/// Most openings listed in a table.
const OPENING_ROWS: usize = 15;

/// A head-to-head over pairs: an SPRT's LLR with its bounds and the point
/// of decision, and the Elo with its 95% interval.
pub fn over_pairs(results: &Results) -> Markup {
    let Some(trace) = results.trace().filter(|t| !t.tallies.is_empty()) else {
        return html! {};
    };
    let points = pair_points(trace);
    let pairs = trace.counted();
    let sides = results
        .sides()
        .map_or(String::new(), |(a, b)| format!("{a} against {b}"));
    let llr = trace.sprt.filter(|_| !trace.llrs.is_empty()).map(|sprt| {
        let decided = results.verdict().filter(|v| *v != Verdict::Continue);
        let bounds = (sprt.lower_bound(), sprt.upper_bound());
        let points = &points;
        (move |f| llr_figure(f, points, bounds, decided), sprt)
    });
    html! {
        section #over-pairs {
            @if let Some((draw, sprt)) = llr {
                h2 { "SPRT" }
                (figure(draw, html! {
                    "Log-likelihood ratio of " (sides) " after each of " (pairs) " pairs ("
                    (2 * pairs) " games) in schedule order, the pairs the test counted; H0: Elo "
                    (sprt.elo0()) ", H1: Elo " (sprt.elo1()) " (" (sprt.model().name())
                    "), alpha " (sprt.alpha()) ", beta " (sprt.beta()) ". The test stops where \
                     the line leaves the band between the dashed bounds."
                }))
            }
            h2 { "Elo over pairs" }
            (figure(|f| elo_figure(f, &points), html! {
                "Elo (logistic, from pentanomial pair counts) of " (sides) " after each of "
                (pairs) " pairs (" (2 * pairs) " games), with its 95% interval shaded; \
                 the first pairs, whose intervals are widest, may run off the chart."
            }))
        }
    }
}

/// A tune: each parameter's value over the iterations applied, and a
/// table of where each started and stands.
pub fn tune(results: &Results) -> Markup {
    let Some(tune) = &results.tune else {
        return html! {};
    };
    html! {
        section #tune {
            h2 { "Tune" }
            p { (tune.iterations_done) " of " (tune.iterations) " iterations applied." }
            table {
                thead { tr { th { "field" } th { "start" } th { "now" } th { "min" } th { "max" } } }
                tbody {
                    @for p in &tune.params {
                        tr { td { code { (p.field) } } td { (p.start) } td { (fixed(p.value, 3)) } td { (p.min) } td { (p.max) } }
                    }
                }
            }
            @for (i, p) in tune.params.iter().enumerate() {
                @let points: Vec<(f64, f64)> = tune.trajectory.iter().map(|t| (t.iteration as f64, t.theta[i])).collect();
                @let id = format!("tune-{i}");
                (figure(|f| tune_figure(f, &id, &points, p.start, (p.min, p.max)), html! {
                    code { (p.field) } " after each iteration applied (solid), its start (dashed) \
                     and its bounds; an iteration steps it by its θ+'s wins minus losses against θ−."
                }))
            }
        }
    }
}

/// Runs of more than two engines: ratings with error bars and the
/// crosstable as a heatmap.
pub fn ratings(results: &Results, game: GameKind) -> Markup {
    if results.engines.len() <= 2 {
        return html! {};
    }
    let rated: Vec<Rating<'_>> = results.ratings.as_ref().map_or(Vec::new(), |r| {
        let mut v: Vec<Rating<'_>> = r
            .engines
            .iter()
            .map(|e| (e.name.as_str(), e.elo, e.error))
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        v
    });
    let games = results.ratings.as_ref().map_or(0, |r| r.games);
    html! {
        section #ratings {
            h2 { "Ratings" }
            @if rated.is_empty() {
                p.note { "No ratings yet." }
            } @else {
                (figure(|f| ratings_figure(f, &rated), html! {
                    "Elo of each engine (maximum likelihood over all " (games)
                    " games, average 0), with its 95% interval."
                }))
                (rating_table(results))
            }
            h2 { "Crosstable" }
            (crosstable(results, game))
        }
    }
}

/// Most engines whose crosstable is drawn as a heatmap: a cell is at least
/// 28 pixels wide, and the cells grow with the square of the engines.
const HEATMAP_MAX_ENGINES: usize = 64;

/// The crosstable heatmap: each cell the row engine's score and average
/// disc difference against the column engine (a note instead for more
/// than [`HEATMAP_MAX_ENGINES`] engines).
fn crosstable(results: &Results, game: GameKind) -> Markup {
    let (what, unit) = difference(game);
    if results.engines.len() > HEATMAP_MAX_ENGINES {
        return html! {
            p.note {
                "No heatmap for " (results.engines.len()) " engines (it is drawn for at most "
                (HEATMAP_MAX_ENGINES) "): summary.md and results.json give every meeting."
            }
        };
    }
    let names: Vec<&str> = results.engines.iter().map(|e| e.name.as_str()).collect();
    let at = |name: &str| names.iter().position(|n| *n == name);
    let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; names.len()]; names.len()];
    for m in results.meetings.iter().filter(|m| m.games > 0) {
        let (Some(a), Some(b)) = (at(&m.a), at(&m.b)) else {
            continue;
        };
        let score = (m.a_wins as f64 + 0.5 * m.draws as f64) / m.games as f64;
        let games = m.games;
        cells[a][b] = Some(Cell {
            score,
            disc: m.avg_disc_diff,
            games,
        });
        cells[b][a] = Some(Cell {
            score: 1.0 - score,
            disc: m.avg_disc_diff.map(|d| -d),
            games,
        });
    }
    html! {
        (figure(|f| heatmap_figure(f, &names, &cells), html! {
            "Each cell: the score of the row's engine against the column's (%, blue above 50%, \
             orange below) and its average " (what) " per game (" (unit) ", row minus column), \
             over the " (results.games) " games counted; — where two engines did not meet."
        }))
    }
}

/// One pairing as the page shows it: from a head-to-head's first side,
/// otherwise from the engine listed first in the config.
struct Pairing<'a> {
    a: &'a str,
    b: &'a str,
    games: u64,
    wdl: (u64, u64, u64),
    ptnml: [u64; 5],
    disc: Option<f64>,
}

impl<'a> Pairing<'a> {
    fn of(m: &'a MeetingResult, first: Option<&str>) -> Pairing<'a> {
        let p = m.pairs.ptnml().0;
        if first == Some(m.b.as_str()) {
            return Pairing {
                a: &m.b,
                b: &m.a,
                games: m.games,
                wdl: (m.b_wins, m.draws, m.a_wins),
                ptnml: [p[4], p[3], p[2], p[1], p[0]],
                disc: m.avg_disc_diff.map(|d| -d),
            };
        }
        Pairing {
            a: &m.a,
            b: &m.b,
            games: m.games,
            wdl: (m.a_wins, m.draws, m.b_wins),
            ptnml: p,
            disc: m.avg_disc_diff,
        }
    }

    fn pairs(&self) -> u64 {
        self.ptnml.iter().sum()
    }
}

/// Each pairing: pentanomial distribution, draws and score (figure and
/// table), and the histogram of final disc differences.
pub fn pairings(info: &TournamentInfo, results: &Results, drawn: &Drawn) -> Markup {
    let side = results.sides().map(|(a, _)| a);
    let all: Vec<Pairing<'_>> = results
        .meetings
        .iter()
        .map(|m| Pairing::of(m, side))
        .collect();
    let rows: Vec<PtnmlRow> = all
        .iter()
        .map(|p| (format!("{} vs {}: {} pairs", p.a, p.b, p.pairs()), p.ptnml))
        .collect();
    let pairs: u64 = all.iter().map(Pairing::pairs).sum();
    let hist = drawn.histogram();
    let (unit, whose) = match (info.game, results.sides()) {
        (GameKind::Othello, Some((a, b))) => {
            ("final disc difference (discs)", format!("{a} minus {b}"))
        }
        (GameKind::Othello, None) => ("final disc difference (discs)", "black minus white".into()),
        (GameKind::TicTacToe, Some((a, _))) => ("final score (points)", format!("{a}'s")),
        (GameKind::TicTacToe, None) => ("final score (points)", "black's".into()),
    };

    html! {
        section #pairings {
            h2 { "Pairings" }
            (figure(|f| ptnml_figure(f, &rows), html! {
                "Pairs (one opening, colours swapped) by the points the first-named engine scored in \
                 them, 0 to 2, over " (pairs) " complete pairs counted."
            }))
            (meetings_table(&all, info.game))
            h2 { "Disc differences" }
            (figure(|f| histogram_figure(f, hist, unit), html! {
                "Games by " (unit) ", " (whose) ", over the " (hist.games) " games counted"
                @if info.game == GameKind::Othello { " (forfeits count as ±64)" } "."
            }))
        }
    }
}

/// Each pairing's games, wins, draws, losses, score, average disc
/// difference and pentanomial counts.
fn meetings_table(all: &[Pairing<'_>], game: GameKind) -> Markup {
    html! {
        div.scroll { table #meetings {
            caption { "Each pairing from its first engine's view, over the games counted." }
            thead { tr {
                th { "engine" } th { "opponent" } th.n { "games" } th.n { "W-D-L" } th.n { "draws" }
                th.n { "score" } th.n { "avg " (difference(game).0) } th.n { "Ptnml(0-2)" }
            } }
            tbody { @for p in all {
                @let (w, d, l) = p.wdl;
                tr {
                    td { (p.a) } td { (p.b) } td.n { (p.games) }
                    td.n { (w) "-" (d) "-" (l) }
                    td.n { (share(d as f64, p.games)) }
                    td.n { (share(w as f64 + 0.5 * d as f64, p.games)) }
                    td.n { (p.disc.map_or(NO_VALUE.into(), |d| signed(d, 2))) }
                    td.n { (format!("{:?}", p.ptnml)) }
                }
            } }
        } }
    }
}

/// The openings: for a head-to-head, those one engine won both ways round
/// (they decided the match); for every run, those most one-sided by colour
/// (one colour winning both ways round points at a book problem).
pub fn openings(info: &TournamentInfo, results: &Results, drawn: &Drawn) -> Markup {
    if info.book.file.is_empty() {
        return html! {};
    }
    let side = results.sides().map(|(a, _)| a);
    let mut rows = drawn.openings();
    let total = rows.len();
    let colour_flagged = rows
        .iter()
        .filter(|r| r.one_colour_wins().is_some())
        .count();
    let won = rows
        .iter()
        .filter(|r| r.one_side_wins() == Some(true))
        .count();
    let lost = rows
        .iter()
        .filter(|r| r.one_side_wins() == Some(false))
        .count();
    by_side(&mut rows);
    let decisive = opening_table("decisive-openings", &rows, side);
    by_colour(&mut rows);
    let by_colour = opening_table("opening-table", &rows, side);
    html! {
        section #openings {
            h2 { "Openings" }
            p.note {
                (total) " openings of " code { (info.book.file) } " over " (drawn.games())
                " games counted. Each table lists the " (OPENING_ROWS.min(total)) " most one-sided."
            }
            @if let Some(a) = side {
                h3 { "Openings that decided the match" }
                p.note {
                    (a) " won " (won) " openings both ways round and lost " (lost)
                    "; sorted by how far " (a) "'s score is from 50%, then by its average disc difference."
                }
                (decisive)
            }
            h3 { "Openings by colour" }
            p.note {
                (colour_flagged) " openings were won by the same colour both ways round (highlighted: the \
                 opening, not the engines, decided; a book problem); sorted by how far black's score \
                 is from 50%, then by the average disc difference."
            }
            (by_colour)
        }
    }
}

/// The first rows of an openings table.
fn opening_table(id: &str, rows: &[OpeningRow], side: Option<&str>) -> Markup {
    html! {
        div.scroll { table id=(id) {
            thead { tr {
                th.n { "#" } th { "opening" } th.n { "games" } th.n { "black" } th.n { "white" }
                th.n { "disc diff (black)" }
                @if let Some(a) = side { th.n { (a) } th.n { "disc diff (" (a) ")" } }
                th { "note" }
            } }
            tbody { @for r in rows.iter().take(OPENING_ROWS) {
                tr class=[r.one_colour_wins().map(|_| "book-problem")] {
                    td.n { (r.id) } td.moves { (r.opening) } td.n { (r.games) }
                    td.n { (share(r.black_points, r.games)) }
                    td.n { (share(r.games as f64 - r.black_points, r.games)) }
                    td.n { (signed(r.avg_disc_diff(), 1)) }
                    @if let Some((score, disc)) = r.side_score() {
                        td.n { (format!("{:.0}%", 100.0 * score)) } td.n { (signed(disc, 1)) }
                    }
                    td { (opening_note(r, side)) }
                }
            } }
        } }
    }
}

/// What is one-sided about an opening, in words.
fn opening_note(r: &OpeningRow, side: Option<&str>) -> String {
    let mut notes = Vec::new();
    if let Some(colour) = r.one_colour_wins() {
        notes.push(format!("{colour} wins both ways round"));
    }
    match (r.one_side_wins(), side) {
        (Some(true), Some(a)) => notes.push(format!("{a} wins both ways round")),
        (Some(false), Some(a)) => notes.push(format!("{a} loses both ways round")),
        _ => {}
    }
    notes.join("; ")
}

/// What each engine's moves cost, its forfeits, and how the games ended.
pub fn engines(results: &Results) -> Markup {
    let ended: u64 = results.terminations.values().sum();
    html! {
        section #engines {
            h2 { "Engines" }
            div.scroll { table #engine-table {
                caption {
                    "Each engine's moves over all " (results.games_played) " games played (forced \
                     passes and book moves not counted); time as the runner measured it."
                }
                thead { tr {
                    th { "engine" } th.n { "games" } th.n { "moves" } th.n { "avg depth (plies)" }
                    th.n { "nodes/s" } th.n { "time/move (ms)" } th { "forfeits" }
                } }
                tbody { @for (m, e) in results.engine_moves.iter().zip(&results.engines) {
                    tr {
                        td { (m.name) } td.n { (e.games) } td.n { (m.moves) }
                        td.n { (m.avg_depth.map_or(NO_VALUE.into(), |d| format!("{d:.1}"))) }
                        td.n { (m.nps.map_or(NO_VALUE.into(), |n| format!("{n:.0}"))) }
                        td.n { (m.avg_time_ms.map_or(NO_VALUE.into(), |t| format!("{t:.2}"))) }
                        td { @if m.forfeits.is_empty() { "none" } @else {
                            @for (i, (kind, n)) in m.forfeits.iter().enumerate() {
                                @if i > 0 { ", " } (n) " " (kind)
                            }
                        } }
                    }
                } }
            } }
            div.scroll { table #terminations {
                caption { "How the " (ended) " games played ended." }
                thead { tr { th { "ending" } th.n { "games" } th.n { "share" } } }
                tbody { @for (kind, n) in &results.terminations {
                    tr { td { (kind) } td.n { (n) } td.n { (share(*n as f64, ended)) } }
                } }
            } }
        }
    }
}

/// The rating table in HTML (Elo coloured when its interval leaves 0).
fn rating_table(results: &Results) -> Markup {
    html! {
        @if let Some(r) = &results.ratings {
            div.scroll { table #rating-table {
                caption { "Ratings: maximum likelihood over all " (r.games) " games, average 0; ± the half-width of the 95% interval." }
                thead { tr { th { "engine" } th.n { "Elo" } th.n { "games" } th.n { "points" } th.n { "score" } } }
                tbody { @for e in &r.engines {
                    tr {
                        td { (e.name) }
                        td class={ "n " (significance(e.elo, e.error)) } { (elo(e.elo, 1)) " ± " (elo_error(e.elo, e.error, 1)) }
                        td.n { (e.games) } td.n { (e.points) } td.n { (share(e.points, e.games)) }
                    }
                } }
            } }
        }
    }
}

/// The notes of the results.
pub fn notes(results: &Results) -> Markup {
    html! {
        @if !results.notes.is_empty() {
            section #notes { h2 { "Notes" } ul { @for n in &results.notes { li { (n) } } } }
        }
    }
}
