//! The text forms of results: the header line of a report, the rating
//! table printed at the end of a multi-engine run, and `summary.md` (for CI
//! step summaries). Numbers print as [`crate::stats::format`] prints them:
//! `—` for a value that does not exist yet, `> +800` beyond the shown range,
//! every `+/-` the half-width of the 95% interval.

use super::colour::{Paint, Tone};
use super::results::{EngineResult, Results};
use crate::stats::format::{elo, elo_error, name_width, NO_VALUE};
use std::fmt::Write;

/// What the rating table's columns mean, printed under it.
const TABLE_LEGEND: &str = "Elo: maximum likelihood over all games, average = 0; nElo: from each engine's own game pairs; +/-: half-width of the 95% interval";

impl Results {
    /// The two engines of a head-to-head, the one whose point of view the
    /// block takes first: an SPRT's candidate (its second engine, as the
    /// config documents), the first engine of any other two-engine run.
    /// Read from the counts, so it always agrees with the block; when the
    /// counts cannot tell (no games yet, or perfectly symmetric results)
    /// the rule above decides.
    pub fn sides(&self) -> Option<(&str, &str)> {
        let (wdl, pairs, _) = self.head_to_head_wdl.as_ref()?;
        let [a, b] = self.engines.as_slice() else {
            return None;
        };
        let seen_by = |e: &EngineResult| {
            e.wins == wdl.wins
                && e.draws == wdl.draws
                && e.losses == wdl.losses
                && e.pairs == *pairs
        };
        let sprt =
            self.verdict.is_some() || self.head_to_head.as_ref().is_some_and(|h| h.sprt.is_some());
        let (first, second) = match (seen_by(a), seen_by(b)) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            (true, true) | (false, false) if sprt => (b, a),
            (true, true) | (false, false) => (a, b),
        };
        Some((&first.name, &second.name))
    }

    /// The first line of a report, in fastchess's shape: `Results of A vs
    /// B (name, N games):` for a head-to-head, from A's point of view;
    /// `Results of name (N games):` for more engines; `Final results` once
    /// every game is in.
    pub fn header(&self) -> String {
        let state = if self.complete {
            "Final results"
        } else {
            "Results"
        };
        match self.sides() {
            Some((a, b)) => format!(
                "{state} of {a} vs {b} ({}, {} games):",
                self.name, self.games
            ),
            None => format!("{state} of {} ({} games):", self.name, self.games),
        }
    }

    /// The rating table: `Rank Name Elo +/- nElo +/- Games Score Draw
    /// Ptnml(0-2)`, then a line saying what the columns mean.
    pub fn rating_table(&self) -> String {
        self.rating_table_painted(Paint::PLAIN)
    }

    /// [`Self::rating_table`] with each rating `paint`ed by its
    /// significance (green when its interval is above 0, red below).
    pub fn rating_table_painted(&self, paint: Paint) -> String {
        let width = name_width(self.engines.iter().map(|e| e.name.as_str()));
        let mut out = format!(
            "{:>4}  {:<width$}  {:>8} {:>7}  {:>8} {:>7}  {:>6}  {:>7}  {:>6}  Ptnml(0-2)",
            "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
        );
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        // By name (the first of a name wins): thousands of engines are
        // sorted by their ratings.
        let rated: std::collections::HashMap<&str, (f64, f64)> = self
            .ratings
            .iter()
            .flat_map(|r| r.engines.iter().rev())
            .map(|e| (e.name.as_str(), (e.elo, e.error)))
            .collect();
        let rating = |name: &str| rated.get(name).copied();
        order.sort_by(|&a, &b| {
            let ra = rating(&self.engines[a].name).map_or(f64::NEG_INFINITY, |r| r.0);
            let rb = rating(&self.engines[b].name).map_or(f64::NEG_INFINITY, |r| r.0);
            rb.total_cmp(&ra).then(a.cmp(&b))
        });
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.engines[i];
            let (rated, tone) = rating(&e.name).map_or(
                (format!("{NO_VALUE:>8} {NO_VALUE:>7}"), Tone::Plain),
                |(x, y)| {
                    let text = format!("{:>8} {:>7}", elo(x, 1), elo_error(x, y, 1));
                    (text, Tone::of_interval(x, y))
                },
            );
            let est = e.pairs.ptnml().estimate();
            let (nelo, nerr) = if e.pairs.pairs() > 0 {
                (elo(est.nelo, 1), elo_error(est.nelo, est.nelo_error, 1))
            } else {
                (NO_VALUE.into(), NO_VALUE.into())
            };
            let score = percent(e.points, e.games);
            let draw = percent(e.draws as f64, e.games);
            let p = e.pairs.ptnml().0;
            let _ = write!(
                out,
                "\n{:>4}  {:<width$}  {}  {:>8} {:>7}  {:>6}  {:>7}  {:>6}  [{}, {}, {}, {}, {}]",
                rank + 1,
                e.name,
                paint.tone(tone, &rated),
                nelo,
                nerr,
                e.games,
                score,
                draw,
                p[0],
                p[1],
                p[2],
                p[3],
                p[4]
            );
        }
        out.push('\n');
        out.push_str(TABLE_LEGEND);
        out
    }

    /// `summary.md`: the state of the run, the rating table, the crosstable
    /// with average disc differences, the head-to-head block and the SPRT.
    pub fn markdown(&self) -> String {
        let mut md = format!("# {}\n\n", self.name);
        let _ = writeln!(
            md,
            "Games counted: {} of {} scheduled ({} played), {}; shard {}; config {}.\n",
            self.games,
            self.games_scheduled,
            self.games_played,
            self.status.words(),
            self.shard,
            self.config_hash
        );
        if let Some(note) = &self.status_note {
            let _ = writeln!(md, "**{note}**\n");
        }
        if let Some(v) = self.verdict {
            let _ = writeln!(md, "**SPRT verdict: {v}**\n");
        }
        if let Some(block) = self.block() {
            let _ = writeln!(md, "```\n{}\n{block}\n```\n", self.header());
        }
        if let Some(rounds) = self.rounds_text() {
            let _ = writeln!(md, "## Standings\n\n```\n{rounds}\n```\n");
        }
        let _ = writeln!(md, "## Ratings\n\n```\n{}\n```\n", self.rating_table());
        md.push_str(&self.crosstable_markdown());
        md.push_str(&self.engines_markdown());
        if self.forfeits > 0 {
            let _ = writeln!(
                md,
                "\n{} games ended by forfeit (time, crash or illegal move); see journal.jsonl.",
                self.forfeits
            );
        }
        for n in &self.notes {
            let _ = writeln!(md, "\nNote: {n}");
        }
        md.push_str("\nEvery game, with plots of the run: report.html in this folder.\n");
        md
    }
}

impl Results {
    /// `summary.md`'s crosstable: each meeting's games, wins, draws,
    /// losses, score and average disc difference.
    fn crosstable_markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "## Crosstable\n");
        let _ = writeln!(
            md,
            "| engine | opponent | games | wins | draws | losses | score | avg disc diff |"
        );
        let _ = writeln!(
            md,
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
        );
        for m in &self.meetings {
            let score = percent(m.a_wins as f64 + 0.5 * m.draws as f64, m.games);
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                m.a,
                m.b,
                m.games,
                m.a_wins,
                m.draws,
                m.b_wins,
                score,
                m.avg_disc_diff
                    .map_or(NO_VALUE.into(), |d| format!("{d:+.2}"))
            );
        }
        md
    }

    /// `summary.md`'s per-engine move costs and the ways games ended.
    fn engines_markdown(&self) -> String {
        let mut md = String::from(
            "\n## Engines (all games played)\n\n| engine | moves | avg depth | nodes/s | ms/move | forfeits |\n| --- | ---: | ---: | ---: | ---: | --- |\n",
        );
        for e in &self.engine_moves {
            let forfeits: Vec<String> =
                e.forfeits.iter().map(|(k, n)| format!("{n} {k}")).collect();
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} |",
                e.name,
                e.moves,
                e.avg_depth.map_or(NO_VALUE.into(), |d| format!("{d:.1}")),
                e.nps.map_or(NO_VALUE.into(), |n| format!("{:.0}", n)),
                e.avg_time_ms.map_or(NO_VALUE.into(), |t| format!("{t:.2}")),
                if forfeits.is_empty() {
                    "none".into()
                } else {
                    forfeits.join(", ")
                }
            );
        }
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        let _ = writeln!(md, "\nHow games ended: {}.", ends.join(", "));
        md
    }
}

/// `part` as a percentage of `games`, `57.5%` ([`NO_VALUE`] when there are
/// no games).
fn percent(part: f64, games: u64) -> String {
    if games > 0 {
        format!("{:.1}%", 100.0 * part / games as f64)
    } else {
        NO_VALUE.into()
    }
}
