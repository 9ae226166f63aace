//! A knockout's bracket and a Swiss's standings in words: the text
//! `arena run`, `arena report` and `arena status` print and summary.md
//! holds (report.html draws the same tables).

use super::Results;
use crate::records::knockout::Bracket;
use crate::records::swiss::Standings;
use std::fmt::Write;

impl Results {
    /// The bracket or the standings, when the run is a knockout or a
    /// Swiss.
    pub fn rounds_text(&self) -> Option<String> {
        match (&self.bracket, &self.standings) {
            (Some(b), _) => Some(bracket_text(b)),
            (None, Some(s)) => Some(standings_text(s)),
            (None, None) => None,
        }
    }
}

/// A points figure as tables show it: `1.5`, `2`.
pub(crate) fn short(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// `Round 1: e0 1.5-0.5 e3 (e0 on points)`, a line a match, then the places.
fn bracket_text(b: &Bracket) -> String {
    let mut out = String::from("Knockout bracket:");
    for m in &b.matches {
        let line = match (&m.a, &m.b) {
            (Some(a), None) => format!("{a} (bye)"),
            (Some(a), Some(b)) => {
                let score = format!("{}-{}", short(m.points[0]), short(m.points[1]));
                let state = match (&m.winner, &m.by) {
                    (Some(w), Some(by)) => format!("{w} through on {by}"),
                    _ => "playing".into(),
                };
                format!("{a} {score} {b} ({state}, {} pairs)", m.pairs)
            }
            (None, _) => "waiting for earlier matches".into(),
        };
        let _ = write!(out, "\nRound {}: {line}", m.round);
    }
    if !b.places.is_empty() {
        let places: Vec<String> = b.places.iter().map(|(e, p)| format!("{p} {e}")).collect();
        let _ = write!(out, "\nPlaces: {}", places.join(", "));
    }
    out
}

/// The standings table: rank, name, score, pairings won, tied and lost,
/// byes, then each tie-break.
fn standings_text(s: &Standings) -> String {
    let width = s
        .rows
        .iter()
        .map(|r| r.engine.chars().count())
        .chain([4])
        .max()
        .unwrap_or(4);
    let mut out = format!(
        "Swiss standings after {} of {} rounds (a pairing won or a bye scores 1, a tie 0.5):\n{:>4}  {:<width$}  {:>5}  {:>3} {:>3} {:>3} {:>3}",
        s.rounds_played, s.rounds, "Rank", "Name", "Score", "W", "D", "L", "Bye"
    );
    for t in &s.tiebreaks {
        let _ = write!(out, "  {}", t.name());
    }
    for (i, r) in s.rows.iter().enumerate() {
        let _ = write!(
            out,
            "\n{:>4}  {:<width$}  {:>5}  {:>3} {:>3} {:>3} {:>3}",
            i + 1,
            r.engine,
            short(r.score),
            r.wins,
            r.draws,
            r.losses,
            r.byes
        );
        for (t, v) in s.tiebreaks.iter().zip(&r.tiebreaks) {
            let w = t.name().len();
            let _ = write!(out, "  {:>w$}", short(*v));
        }
    }
    if let Some(note) = &s.note {
        let _ = write!(out, "\n{note}");
    }
    out
}

#[cfg(test)]
#[path = "rounds_tests.rs"]
mod tests;
