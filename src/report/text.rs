//! The text forms of results: the rating table printed at the end of a
//! multi-engine run, and `summary.md` (for CI step summaries).

use super::results::Results;
use crate::stats::format::{fixed, name_width};
use std::fmt::Write;

impl Results {
    /// The rating table: `Rank Name Elo +/- nElo +/- Games Score Draw Ptnml(0-2)`.
    pub fn rating_table(&self) -> String {
        let width = name_width(self.engines.iter().map(|e| e.name.as_str()));
        let mut out = format!(
            "{:>4}  {:<width$}  {:>8} {:>7}  {:>8} {:>7}  {:>6}  {:>7}  {:>6}  Ptnml(0-2)",
            "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
        );
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        let rating = |name: &str| {
            self.ratings
                .as_ref()
                .and_then(|r| r.engines.iter().find(|e| e.name == name))
                .map(|e| (e.elo, e.error))
        };
        order.sort_by(|&a, &b| {
            let ra = rating(&self.engines[a].name).map_or(f64::NEG_INFINITY, |r| r.0);
            let rb = rating(&self.engines[b].name).map_or(f64::NEG_INFINITY, |r| r.0);
            rb.total_cmp(&ra).then(a.cmp(&b))
        });
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.engines[i];
            let (elo, err) = rating(&e.name).map_or(("-".into(), "-".into()), |(x, y)| {
                (fixed(x, 1), fixed(y, 1))
            });
            let est = e.pairs.ptnml().estimate();
            let (nelo, nerr) =
                if e.pairs.pairs() > 0 && est.nelo.is_finite() && est.nelo_error.is_finite() {
                    (fixed(est.nelo, 1), fixed(est.nelo_error, 1))
                } else {
                    ("-".into(), "-".into())
                };
            let score = percent(e.points, e.games);
            let draw = percent(e.draws as f64, e.games);
            let p = e.pairs.ptnml().0;
            let _ = write!(
                out,
                "\n{:>4}  {:<width$}  {:>8} {:>7}  {:>8} {:>7}  {:>6}  {:>6.1}%  {:>5.1}%  [{}, {}, {}, {}, {}]",
                rank + 1,
                e.name,
                elo,
                err,
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
            let _ = writeln!(md, "```\n{block}\n```\n");
        }
        let _ = writeln!(md, "## Ratings\n\n```\n{}\n```\n", self.rating_table());
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
                "| {} | {} | {} | {} | {} | {} | {:.1}% | {} |",
                m.a,
                m.b,
                m.games,
                m.a_wins,
                m.draws,
                m.b_wins,
                score,
                m.avg_disc_diff.map_or("-".into(), |d| format!("{d:+.2}"))
            );
        }
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
        md
    }
}

/// `part` as a percentage of `games` (0 when there are no games).
fn percent(part: f64, games: u64) -> f64 {
    if games > 0 {
        100.0 * part / games as f64
    } else {
        0.0
    }
}
