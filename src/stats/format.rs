//! Text output: the head-to-head result block in fastchess's layout (so
//! scripts written for fastchess and fishtest can read it), and the rating
//! table. Every `+/-` is the half-width of the 95% interval.
//!
//! Unlike fastchess, the screen never shows `nan`, `inf` or `-inf`: a value
//! that does not exist (no games yet, a ratio with nothing to divide by)
//! prints as [`NO_VALUE`], and an Elo difference beyond ±[`ELO_SHOWN`]
//! (a score above 99% or below 1%, where Elo runs off to infinity) prints
//! as `> +800` or `< -800`, its error as [`NO_VALUE`]. The JSON outputs
//! keep such values as `null` with a note (see `summary`).
//!
//! The block, for pentanomial statistics:
//! ```text
//! Elo: 12.34 +/- 5.67, nElo: 15.00 +/- 6.80
//! LOS: 99.90 %, DrawRatio: 40.00 %, PairsRatio: 1.50
//! Games: 1000, Wins: 400, Losses: 300, Draws: 300, Points: 550.0 (55.00 %)
//! Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 1.20
//! LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 5.00]
//! ```

use super::elo::{Basis, EloEstimate, Wdl};
use super::pentanomial::{PairTally, Ptnml};
use super::ratings::{Anchor, Method, Ratings};
use super::sprt::SprtState;

/// What the text outputs print for a value that does not exist.
pub const NO_VALUE: &str = "—";

/// Largest Elo difference (and normalized Elo) printed as a number.
pub const ELO_SHOWN: f64 = 800.0;

/// `x` with `decimals` digits after the point ([`NO_VALUE`] for a
/// non-finite value; never `-0.00`).
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return NO_VALUE.to_string();
    }
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

/// An Elo difference: [`fixed`] within ±[`ELO_SHOWN`], `> +800` or
/// `< -800` beyond (infinities included), [`NO_VALUE`] when undefined.
pub fn elo(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        NO_VALUE.to_string()
    } else if x > ELO_SHOWN {
        format!("> +{ELO_SHOWN:.0}")
    } else if x < -ELO_SHOWN {
        format!("< -{ELO_SHOWN:.0}")
    } else {
        fixed(x, decimals)
    }
}

/// The `+/-` of Elo `x`: [`NO_VALUE`] when `x` itself is not printed as a
/// number or the error does not exist.
pub fn elo_error(x: f64, error: f64, decimals: usize) -> String {
    if x.is_nan() || x.abs() > ELO_SHOWN {
        NO_VALUE.to_string()
    } else {
        fixed(error, decimals)
    }
}

/// A fraction as a percentage, `57.50 %`, or [`NO_VALUE`].
pub fn percent(fraction: f64, decimals: usize) -> String {
    if fraction.is_finite() {
        format!("{} %", fixed(fraction * 100.0, decimals))
    } else {
        NO_VALUE.to_string()
    }
}

/// `Elo: 12.34 +/- 5.67, nElo: 15.00 +/- 6.80`
pub fn elo_line(e: &EloEstimate) -> String {
    format!(
        "Elo: {} +/- {}, nElo: {} +/- {}",
        elo(e.elo, 2),
        elo_error(e.elo, e.elo_error, 2),
        elo(e.nelo, 2),
        elo_error(e.nelo, e.nelo_error, 2)
    )
}

/// `LOS: 99.90 %, DrawRatio: 40.00 %` and, when given, `, PairsRatio: 1.50`.
/// `los` and `draw_ratio` are fractions.
pub fn los_line(los: f64, draw_ratio: f64, pairs_ratio: Option<f64>) -> String {
    let mut line = format!(
        "LOS: {}, DrawRatio: {}",
        percent(los, 2),
        percent(draw_ratio, 2)
    );
    if let Some(ratio) = pairs_ratio {
        line += &format!(", PairsRatio: {}", fixed(ratio, 2));
    }
    line
}

/// `Games: 1000, Wins: 400, Losses: 300, Draws: 300, Points: 550.0 (55.00 %)`
pub fn games_line(wdl: &Wdl) -> String {
    format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {} ({})",
        wdl.games(),
        wdl.wins,
        wdl.losses,
        wdl.draws,
        fixed(wdl.points(), 1),
        percent(wdl.score(), 2)
    )
}

/// `Pairs: 500, Games: 1000, Points: 550.0 (55.00 %)`, for pentanomial
/// counts without the game-by-game results.
pub fn pairs_line(ptnml: &Ptnml) -> String {
    format!(
        "Pairs: {}, Games: {}, Points: {} ({})",
        ptnml.pairs(),
        ptnml.games(),
        fixed(ptnml.points(), 1),
        percent(ptnml.score(), 2)
    )
}

/// `Ptnml(0-2): [10, 100, 200, 150, 40]` and, when given,
/// `, WL/DD Ratio: 1.20`.
pub fn ptnml_line(ptnml: &Ptnml, wl_dd_ratio: Option<f64>) -> String {
    let [a, b, c, d, e] = ptnml.0;
    let mut line = format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]");
    if let Some(ratio) = wl_dd_ratio {
        line += &format!(", WL/DD Ratio: {}", fixed(ratio, 2));
    }
    line
}

/// `LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 5.00]`: the LLR, its fraction of
/// the way to the bound on its side, the bounds and `[elo0, elo1]`.
pub fn llr_line(state: &SprtState) -> String {
    format!(
        "LLR: {} ({}%) ({}, {}) [{}, {}]",
        fixed(state.llr, 2),
        fixed(state.fraction() * 100.0, 1),
        fixed(state.lower_bound, 2),
        fixed(state.upper_bound, 2),
        fixed(state.sprt.elo0(), 2),
        fixed(state.sprt.elo1(), 2)
    )
}

/// The head-to-head block the tournament prints, lines joined by `\n`
/// without a final newline.
///
/// `wdl` counts every finished game, `pairs` every finished pair. With
/// [`Basis::Pentanomial`] (the default for paired games) Elo, LOS and the
/// draw ratio come from the pairs and the `Ptnml(0-2)` line is printed;
/// with [`Basis::Trinomial`] they come from `wdl`, and neither `PairsRatio`
/// nor the `Ptnml(0-2)` line is printed. The `LLR` line is printed when an
/// SPRT state is given.
pub fn match_block(wdl: &Wdl, pairs: &PairTally, basis: Basis, sprt: Option<&SprtState>) -> String {
    let ptnml = pairs.ptnml();
    let mut lines = Vec::with_capacity(5);
    match basis {
        Basis::Pentanomial => {
            let estimate = ptnml.estimate();
            lines.push(elo_line(&estimate));
            lines.push(los_line(
                estimate.los,
                ptnml.draw_ratio(),
                Some(ptnml.pairs_ratio()),
            ));
            lines.push(games_line(wdl));
            lines.push(ptnml_line(&ptnml, Some(pairs.wl_dd_ratio())));
        }
        Basis::Trinomial => {
            let estimate = wdl.estimate();
            lines.push(elo_line(&estimate));
            lines.push(los_line(estimate.los, wdl.draw_ratio(), None));
            lines.push(games_line(wdl));
        }
    }
    if let Some(state) = sprt {
        lines.push(llr_line(state));
    }
    lines.join("\n")
}

/// The width of a table's name column: the longest of `names`, and at
/// least 4 (for the heading `Name`).
pub fn name_width<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    names.into_iter().map(str::len).max().unwrap_or(4).max(4)
}

/// The rating table: a header naming the method and anchor, one row per
/// engine (`Rank Name Elo +/- Games Points Score`), a note when the fallback
/// prior was used, and the LOS matrix (percent that the row engine is
/// stronger than the column engine). Lines joined by `\n`.
pub fn ratings_table(r: &Ratings) -> String {
    let width = name_width(r.engines.iter().map(|e| e.name.as_str()));
    let mut lines = ratings_heading(r);
    lines.push(format!(
        "{:>4} {:<width$} {:>8} {:>7} {:>7} {:>8} {:>7}",
        "Rank", "Name", "Elo", "+/-", "Games", "Points", "Score"
    ));
    for (rank, e) in r.engines.iter().enumerate() {
        lines.push(format!(
            "{:>4} {:<width$} {:>8} {:>7} {:>7} {:>8} {:>6}%",
            rank + 1,
            e.name,
            elo(e.elo, 1),
            elo_error(e.elo, e.error, 1),
            e.games,
            fixed(e.points, 1),
            fixed(e.score() * 100.0, 1)
        ));
    }
    if r.engines.len() > 1 {
        lines.push(String::new());
        lines.extend(los_lines(r, width));
    }
    lines.join("\n")
}

/// The rating table's first lines: the method, anchor and games, and the
/// note when the fallback prior was used.
fn ratings_heading(r: &Ratings) -> Vec<String> {
    let anchor = match &r.anchor {
        Anchor::Average => "average = 0".to_string(),
        Anchor::Engine(name) => format!("{name} = 0"),
    };
    let method = match &r.method {
        Method::MaximumLikelihood => "maximum likelihood".to_string(),
        Method::Prior { virtual_draws, .. } => {
            format!("prior of {virtual_draws} virtual draws per pair")
        }
    };
    let mut lines = vec![format!(
        "Ratings ({method}, {anchor}), {} games; +/- is the half-width of the 95% interval",
        r.games
    )];
    if let Method::Prior {
        virtual_draws,
        reason,
    } = &r.method
    {
        lines.push(format!(
            "Note: the maximum-likelihood ratings do not exist ({reason}); \
             {virtual_draws} virtual draws were added between every two engines that met."
        ));
    }
    lines
}

/// The rating table's LOS part (of more than one engine): its title and
/// matrix, names in a column `width` wide, or why there is none.
fn los_lines(r: &Ratings, width: usize) -> Vec<String> {
    if r.los.is_empty() {
        return vec![format!(
            "No LOS matrix: {} engines (it is given for at most {}).",
            r.engines.len(),
            super::ratings::LOS_MAX_ENGINES
        )];
    }
    let mut lines = vec!["LOS (%, row stronger than column):".to_string()];
    let cell = width.max(6);
    let mut header = format!("{:<width$}", "");
    for e in &r.engines {
        header += &format!(" {:>cell$}", e.name);
    }
    lines.push(header);
    for (e, row) in r.engines.iter().zip(&r.los) {
        let mut line = format!("{:<width$}", e.name);
        for v in row {
            let text = if v.is_nan() {
                "-".to_string()
            } else {
                fixed(v * 100.0, 1)
            };
            line += &format!(" {text:>cell$}");
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::{Model, Sprt};

    #[test]
    fn values_that_do_not_exist_print_as_a_dash() {
        assert_eq!(fixed(1.005, 1), "1.0");
        assert_eq!(fixed(f64::INFINITY, 2), "—");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "—");
        assert_eq!(fixed(f64::NAN, 2), "—");
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-0.01, 2), "-0.01");
        assert_eq!(percent(f64::NAN, 2), "—");
        assert_eq!(percent(0.575, 2), "57.50 %");
    }

    #[test]
    fn extreme_elo_is_capped() {
        assert_eq!(elo(1320.5, 2), "> +800");
        assert_eq!(elo(f64::INFINITY, 2), "> +800");
        assert_eq!(elo(f64::NEG_INFINITY, 2), "< -800");
        assert_eq!(elo(-800.0, 1), "-800.0");
        assert_eq!(elo(f64::NAN, 2), "—");
        assert_eq!(elo_error(1320.5, 30.0, 2), "—");
        assert_eq!(elo_error(12.0, f64::INFINITY, 2), "—");
        assert_eq!(elo_error(12.0, 3.456, 2), "3.46");
        let e = Wdl::new(1000, 1, 0).estimate();
        assert_eq!(elo_line(&e), "Elo: > +800 +/- —, nElo: > +800 +/- —");
        let none = Wdl::new(0, 0, 0);
        assert_eq!(elo_line(&none.estimate()), "Elo: — +/- —, nElo: — +/- —");
        assert_eq!(
            games_line(&none),
            "Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (—)"
        );
        assert_eq!(
            los_line(f64::NAN, f64::NAN, Some(f64::INFINITY)),
            "LOS: —, DrawRatio: —, PairsRatio: —"
        );
    }

    #[test]
    fn llr_line_layout() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        assert_eq!(
            llr_line(&sprt.state(1.23)),
            "LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 5.00]"
        );
        assert_eq!(
            llr_line(&sprt.state(-1.472)),
            "LLR: -1.47 (-50.0%) (-2.94, 2.94) [0.00, 5.00]"
        );
    }

    #[test]
    fn block_layout() {
        let pairs = PairTally {
            ll: 10,
            ld: 100,
            wl: 120,
            dd: 80,
            wd: 150,
            ww: 40,
        };
        let wdl = pairs.wdl();
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let state = sprt.evaluate_ptnml(&pairs.ptnml());
        let block = match_block(&wdl, &pairs, Basis::Pentanomial, Some(&state));
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("Elo: "), "{block}");
        assert!(
            lines[1].starts_with("LOS: ")
                && lines[1].contains(", DrawRatio: 40.00 %, PairsRatio: 1.73")
        );
        assert_eq!(
            lines[2],
            "Games: 1000, Wins: 350, Losses: 240, Draws: 410, Points: 555.0 (55.50 %)"
        );
        assert_eq!(
            lines[3],
            "Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 1.50"
        );
        assert!(lines[4].starts_with("LLR: ") && lines[4].ends_with(" (-2.94, 2.94) [0.00, 5.00]"));
        let trinomial = match_block(&wdl, &pairs, Basis::Trinomial, None);
        assert_eq!(trinomial.lines().count(), 3);
        assert!(!trinomial.contains("PairsRatio"));
    }
}
