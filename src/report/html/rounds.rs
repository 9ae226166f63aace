//! report.html's section of a knockout (its bracket, round by round, and
//! the places) or a Swiss (its standings with their tie-breaks); maud
//! escapes every name.

use crate::report::rounds::short;
use crate::report::Results;
use maud::{html, Markup};

/// The bracket or the standings; nothing for the other formats.
pub fn rounds(results: &Results) -> Markup {
    if let Some(b) = &results.bracket {
        let last = b.matches.iter().map(|m| m.round).max().unwrap_or(0);
        return html! {
            section #bracket {
                h2 { "Knockout" }
                div.scroll { table {
                    caption { "Every match, round by round: points over its game pairs, and what decided it." }
                    thead { tr { th.n { "round" } th { "higher seed" } th.n { "points" } th { "lower seed" } th.n { "pairs" } th { "through" } } }
                    tbody { @for m in &b.matches {
                        tr {
                            td.n { (m.round) @if m.round == last { " (final)" } }
                            td { (m.a.as_deref().unwrap_or("—")) }
                            td.n { @if m.b.is_some() { (short(m.points[0])) "–" (short(m.points[1])) } }
                            td { (m.b.as_deref().unwrap_or(if m.a.is_some() { "bye" } else { "—" })) }
                            td.n { (m.pairs) }
                            td { @if let (Some(w), Some(by)) = (&m.winner, &m.by) { (w) " (" (by) ")" } @else { "playing" } }
                        }
                    } }
                } }
                @if !b.places.is_empty() {
                    div.scroll { table {
                        caption { "Places." }
                        thead { tr { th.n { "place" } th { "engine" } } }
                        tbody { @for (e, p) in &b.places { tr { td.n { (p) } td { (e) } } } }
                    } }
                }
            }
        };
    }
    let Some(s) = &results.standings else {
        return html! {};
    };
    html! {
        section #standings {
            h2 { "Swiss standings" }
            p {
                "After " (s.rounds_played) " of " (s.rounds) " rounds; a pairing won or a bye scores 1, a tie 0.5; \
                 ties broken by the tie-breaks in their order, then the config's order."
            }
            @if let Some(note) = &s.note { p { strong { (note) } } }
            div.scroll { table {
                thead { tr {
                    th.n { "rank" } th { "engine" } th.n { "score" } th.n { "won" } th.n { "tied" } th.n { "lost" } th.n { "byes" }
                    @for t in &s.tiebreaks { th.n { (t.name()) } }
                } }
                tbody { @for (i, r) in s.rows.iter().enumerate() {
                    tr {
                        td.n { (i + 1) } td { (r.engine) } td.n { (short(r.score)) }
                        td.n { (r.wins) } td.n { (r.draws) } td.n { (r.losses) } td.n { (r.byes) }
                        @for v in &r.tiebreaks { td.n { (short(*v)) } }
                    }
                } }
            } }
        }
    }
}
