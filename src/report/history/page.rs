//! `history.html`: one self-contained page (inline CSS and SVG, no
//! scripts, readable from `file://` and printable) with, per test name, the
//! Elo of its runs over time ([`super::plot`]) and a table of the runs with
//! their verdicts. Written with `std::fmt::Write` and one escaping
//! function: the page is small, and a template crate would add a
//! procedural macro to the build for it.

use super::plot::{elo_figure, plotted, Mark, SIZE};
use super::{HistoryError, StoredRun};
use std::collections::BTreeMap;
use std::fmt::Write;

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 62rem; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
figure { margin: 0.5rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: 0.9rem; }
table { border-collapse: collapse; font-size: 0.85rem; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.4rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.date { white-space: nowrap; }
.H1 { color: #1a7f37; font-weight: bold; } .H0 { color: #c62828; font-weight: bold; }
.undecided { color: #8a6d00; }
@media print { section { break-inside: avoid; } }
";

/// The page of `runs` (any order; shown oldest first, grouped by test
/// name), naming the database file `db`.
///
/// # Errors
/// [`HistoryError::Plot`] when a figure cannot be drawn.
pub fn history_html(runs: &[StoredRun], db: &str) -> Result<String, HistoryError> {
    let mut tests: BTreeMap<&str, Vec<&StoredRun>> = BTreeMap::new();
    for r in runs {
        tests.entry(r.run.name.as_str()).or_default().push(r);
    }
    for group in tests.values_mut() {
        group.sort_by(|a, b| (&a.run.date, a.id).cmp(&(&b.run.date, b.id)));
    }
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>arena history</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>arena history</h1>\n<p class=\"note\">{} of {} from <code>{}</code>. \
         Each figure shows a test's runs over time: Elo (logistic) with its 95% interval, \
         for two engines the candidate's (an SPRT's second engine, otherwise the first), \
         for more engines each engine's rating (average 0). SPRT points are \
         <span class=\"H1\">green</span> for H1 accepted, <span class=\"H0\">red</span> \
         for H0 accepted and hollow while undecided.</p>\n",
        count(runs.len() as u64, "run"),
        count(tests.len() as u64, "test"),
        esc(db)
    );
    if tests.is_empty() {
        out.push_str("<p>No runs yet: add some with <code>arena history add</code>.</p>\n");
    }
    for (i, (name, group)) in tests.iter().enumerate() {
        test_section(&mut out, i, name, group)?;
    }
    out.push_str("</body>\n</html>\n");
    Ok(out)
}

/// One test: its figure and its table of runs.
fn test_section(
    out: &mut String,
    i: usize,
    name: &str,
    runs: &[&StoredRun],
) -> Result<(), HistoryError> {
    let games: u64 = runs.iter().map(|r| r.run.games).sum();
    let points = plotted(runs);
    let _ = write!(
        out,
        "<section class=\"test\" id=\"test-{i}\">\n<h2>{}</h2>\n<figure class=\"elo\" data-test=\"{}\">\n",
        esc(name),
        esc(name)
    );
    out.push_str(&elo_figure(&format!("elo-{i}"), name, runs)?);
    let missing = runs.len().saturating_sub(points.min(runs.len()));
    let _ = write!(
        out,
        "\n<figcaption>Elo over time of {}: {}, {} counted ({}x{} px). {}</figcaption>\n</figure>\n",
        esc(name),
        count(runs.len() as u64, "run"),
        count(games, "game"),
        SIZE.0,
        SIZE.1,
        if points == 0 {
            "No run has a finite Elo to plot yet.".to_string()
        } else if missing > 0 && runs.iter().any(|r| r.run.engines.len() == 2) {
            format!(
                "{} without a finite Elo (a score of 0% or 100%) not plotted.",
                count(missing as u64, "run")
            )
        } else {
            String::new()
        }
    );
    run_table(out, runs);
    out.push_str("</section>\n");
    Ok(())
}

/// The table of one test's runs, newest first.
fn run_table(out: &mut String, runs: &[&StoredRun]) {
    out.push_str(
        "<table>\n<thead><tr><th>date (UTC)</th><th>run</th><th>engines</th><th>games</th>\
         <th>W-D-L</th><th>Ptnml(0-2)</th><th>Elo</th><th>LLR (bounds)</th><th>verdict</th>\
         <th>labels</th></tr></thead>\n<tbody>\n",
    );
    for r in runs.iter().rev() {
        let s = &r.run;
        let engines: Vec<&str> = s.engines.iter().map(|e| e.name.as_str()).collect();
        let wdl = match (s.wins, s.draws, s.losses) {
            (Some(w), Some(d), Some(l)) => format!("{w}-{d}-{l}"),
            _ => "—".into(),
        };
        let ptnml = s.ptnml.map_or("—".into(), |p| format!("{p:?}"));
        let elo = if s.engines.len() > 2 {
            let each: Vec<String> = s
                .engines
                .iter()
                .map(|e| format!("{} {}", esc(&e.name), elo_text(e.elo, e.elo_error, "±")))
                .collect();
            each.join("<br>")
        } else {
            elo_text(s.elo, s.elo_error, "±")
        };
        let llr = match (s.llr, s.llr_lower, s.llr_upper) {
            (Some(l), Some(a), Some(b)) => format!("{l:.2} ({a:.2}, {b:.2})"),
            (Some(l), _, _) => format!("{l:.2}"),
            (None, _, _) => "—".into(),
        };
        let (class, words) = verdict_words(s.verdict.as_deref(), &s.status);
        let labels: Vec<String> = s.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(
            out,
            "<tr><td class=\"date\">{}</td><td class=\"n\">{} ({})</td><td>{}</td><td class=\"n\">{}/{}</td>\
             <td class=\"n\">{wdl}</td><td class=\"n\">{ptnml}</td><td class=\"n\">{elo}</td>\
             <td class=\"n\">{llr}</td><td class=\"{class}\">{words}</td><td>{}</td></tr>",
            esc(&s.date.replace('T', " ").replace('Z', "")),
            r.id,
            esc(&s.shard),
            esc(&engines.join(", ")),
            s.games,
            s.games_scheduled,
            esc(&labels.join(" "))
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// An Elo and its interval's half-width as tables show them, joined by
/// `pm` (`±`, or `+/-` in a terminal); `—` when there is none.
pub fn elo_text(elo: Option<f64>, error: Option<f64>, pm: &str) -> String {
    // No "-0.0": a value that rounds to zero is shown as +0.0.
    let round = |e: f64| if e.abs() < 0.05 { 0.0 } else { e };
    match (elo.map(round), error) {
        (Some(e), Some(x)) => format!("{e:+.1} {pm} {x:.1}"),
        (Some(e), None) => format!("{e:+.1}"),
        (None, _) => "—".into(),
    }
}

/// A run's verdict in words and its CSS class: an SPRT's decision, or
/// where a run without one stands.
pub fn verdict_words(verdict: Option<&str>, status: &str) -> (&'static str, String) {
    let status_words = status.replace('_', " ");
    match (Mark::of(verdict), status) {
        (Mark::H1, _) => ("H1", "H1 accepted".into()),
        (Mark::H0, _) => ("H0", "H0 accepted".into()),
        (Mark::Undecided, "complete") => ("undecided", "undecided (max pairs)".into()),
        (Mark::Undecided, _) => ("undecided", format!("undecided, {status_words}")),
        (Mark::Plain, _) => ("", status_words),
    }
}

/// `n` and a noun, plural unless `n` is 1: `1 run`, `2 runs`.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `text` escaped for HTML text and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
