//! The figures of `report.html` that have axes (plotters charts): an SPRT's
//! LLR over pairs with its bounds and the point of decision, a
//! head-to-head's Elo with its 95% interval over pairs, the histogram of
//! final disc differences and the multi-engine ratings with error bars.
//! Each returns an SVG element (see [`svg_figure`]) or what plotters said.

use super::data::{Histogram, PairPoint};
use crate::report::plot::{
    clip_text, label_style, svg_figure, tint, Area, DrawResult, Frame, BAD, COLOURS, GOOD, GRID,
    INK, LABEL_PX,
};
use crate::stats::Verdict;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// Height of a chart, in figure pixels.
const HEIGHT: u32 = 300;

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart on `root` over `x` and `y`, its grid and axes drawn and
/// described (units in the descriptions).
fn chart<'a, 'b>(
    root: &'a Area<'b>,
    frame: Frame,
    (x, y): (Range<f64>, Range<f64>),
    (x_desc, y_desc): (&str, &str),
    y_format: &dyn Fn(&f64) -> String,
) -> Result<Chart<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(20)
        .x_label_area_size(50)
        .y_label_area_size(64)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(frame.ticks())
        .y_labels(frame.ticks())
        .label_style(label_style())
        .axis_desc_style(label_style())
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(y_format)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .draw()?;
    Ok(chart)
}

/// `text` at chart point `at`, anchored by `pos`, in `colour`.
fn note(
    chart: &mut Chart<'_, '_>,
    text: String,
    at: (f64, f64),
    pos: Pos,
    colour: RGBColor,
) -> DrawResult {
    let style = ("sans-serif", LABEL_PX).into_font().color(&colour).pos(pos);
    chart.draw_series(std::iter::once(Text::new(text, at, style)))?;
    Ok(())
}

/// The LLR over pairs, between the bounds `(lower, upper)`; `decided`: the
/// verdict reached at the last pair.
///
/// # Errors
/// What plotters said.
pub fn llr_figure(
    frame: Frame,
    points: &[PairPoint],
    (lower, upper): (f64, f64),
    decided: Option<Verdict>,
) -> Result<String, String> {
    let line: Vec<(f64, f64)> = points
        .iter()
        .filter_map(|p| p.llr.map(|l| (p.pairs as f64, l)))
        .collect();
    let n = line.last().map_or(1.0, |p| p.0.max(1.0));
    let lo = line.iter().map(|p| p.1).fold(lower, f64::min);
    let hi = line.iter().map(|p| p.1).fold(upper, f64::max);
    let pad = (hi - lo) * 0.08;
    // Room beyond the bound that was crossed, for the words of the decision.
    let (below, above) = match decided {
        Some(Verdict::H0) => (3.0 * pad, pad),
        Some(Verdict::H1) => (pad, 3.0 * pad),
        Some(Verdict::Continue) | None => (pad, pad),
    };
    let x_end = n * 1.03;
    let size = (frame.width, HEIGHT);
    svg_figure(size, &frame.id("llr"), "sprt llr", |root| {
        let mut c = chart(
            root,
            frame,
            (0.0..x_end, lo - below..hi + above),
            ("pairs counted (2 games each)", "LLR"),
            &|v| format!("{v:.1}"),
        )?;
        c.draw_series(LineSeries::new([(0.0, 0.0), (x_end, 0.0)], INK.mix(0.3)))?;
        for (bound, colour, name) in [(upper, GOOD, "H1"), (lower, BAD, "H0")] {
            let dash =
                DashedLineSeries::new([(0.0, bound), (x_end, bound)], 8, 5, colour.stroke_width(2));
            c.draw_series(dash)?;
            let above = if bound > 0.0 { VPos::Bottom } else { VPos::Top };
            let at = (x_end * 0.01, bound);
            let text = if frame.narrow {
                format!("{name}: {bound:.2}")
            } else {
                format!("{name} accepted beyond {bound:.2}")
            };
            note(&mut c, text, at, Pos::new(HPos::Left, above), colour)?;
        }
        c.draw_series(LineSeries::new(
            line.iter().copied(),
            COLOURS[0].stroke_width(2),
        ))?;
        let (Some(verdict), Some(&(x, y))) = (decided, line.last()) else {
            return Ok(());
        };
        let (colour, words) = match verdict {
            Verdict::H1 => (GOOD, "H1"),
            Verdict::H0 => (BAD, "H0"),
            Verdict::Continue => return Ok(()),
        };
        c.draw_series(std::iter::once(Circle::new((x, y), 6, colour.filled())))?;
        // Beyond the bound, where the line never goes.
        let pos = Pos::new(HPos::Right, if y > 0.0 { VPos::Bottom } else { VPos::Top });
        let text = format!("{words} accepted at pair {x:.0}");
        note(&mut c, text, (x, y + y.signum() * pad * 0.5), pos, colour)
    })
}

/// The y range of an Elo over pairs: every interval after the first
/// pairs (where they are widest), and 0, clamped to ±800.
fn elo_range(points: &[PairPoint]) -> Range<f64> {
    let n = points.last().map_or(0, |p| p.pairs);
    let warm = (n / 20).clamp(1, 10);
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for (_, l, h) in points
        .iter()
        .filter(|p| p.pairs > warm)
        .filter_map(|p| p.elo)
    {
        lo = lo.min(l);
        hi = hi.max(h);
    }
    let (lo, hi) = (lo.max(-800.0), hi.min(800.0));
    let pad = ((hi - lo) * 0.08).max(5.0);
    lo - pad..hi + pad
}

/// The Elo over pairs of a head-to-head, with its 95% interval as a band.
///
/// # Errors
/// What plotters said.
pub fn elo_figure(frame: Frame, points: &[PairPoint]) -> Result<String, String> {
    let yr = elo_range(points);
    let clamp = |v: f64| v.clamp(yr.start, yr.end);
    let drawn: Vec<(f64, f64, f64, f64)> = points
        .iter()
        .filter_map(|p| {
            p.elo
                .map(|(e, l, h)| (p.pairs as f64, clamp(e), clamp(l), clamp(h)))
        })
        .collect();
    let x_end = points.last().map_or(1.0, |p| (p.pairs as f64).max(1.0)) * 1.03;
    let size = (frame.width, HEIGHT);
    svg_figure(size, &frame.id("elo-over-pairs"), "elo-trace", |root| {
        let mut c = chart(
            root,
            frame,
            (0.0..x_end, yr.clone()),
            ("pairs counted (2 games each)", "Elo (95% interval)"),
            &|v| format!("{v:+.0}"),
        )?;
        c.draw_series(LineSeries::new([(0.0, 0.0), (x_end, 0.0)], INK.mix(0.4)))?;
        let band: Vec<(f64, f64)> = drawn
            .iter()
            .map(|p| (p.0, p.3))
            .chain(drawn.iter().rev().map(|p| (p.0, p.2)))
            .collect();
        if band.len() > 2 {
            c.draw_series(std::iter::once(Polygon::new(
                band,
                tint(COLOURS[2], 0.3).filled(),
            )))?;
        }
        let line = drawn.iter().map(|p| (p.0, p.1));
        c.draw_series(LineSeries::new(line, COLOURS[0].stroke_width(2)))?;
        Ok(())
    })
}

/// The histogram `h`, its x axis described by `x_desc`.
///
/// # Errors
/// What plotters said.
pub fn histogram_figure(frame: Frame, h: &Histogram, x_desc: &str) -> Result<String, String> {
    let w = f64::from(h.width);
    let first = f64::from(h.first);
    let x_end = first + w * h.counts.len() as f64;
    let top = h.counts.iter().copied().max().unwrap_or(0).max(1) as f64 * 1.08;
    let size = (frame.width, HEIGHT);
    svg_figure(size, &frame.id("disc-histogram"), "histogram", |root| {
        let mut c = chart(
            root,
            frame,
            (first - w / 2.0..x_end - w / 2.0, 0.0..top),
            (x_desc, "games"),
            &|v| format!("{v:.0}"),
        )?;
        let bars = h
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(k, &n)| {
                let x = first + w * k as f64;
                let gap = w * 0.08;
                Rectangle::new(
                    [(x - w / 2.0 + gap, 0.0), (x + w / 2.0 - gap, n as f64)],
                    COLOURS[0].filled(),
                )
            });
        c.draw_series(bars)?;
        Ok(())
    })
}

/// One engine's rating: name, Elo and the half-width of its 95% interval.
pub type Rating<'a> = (&'a str, f64, f64);

/// The ratings, best first from the top, each with its 95% interval.
///
/// # Errors
/// What plotters said.
pub fn ratings_figure(frame: Frame, ratings: &[Rating<'_>]) -> Result<String, String> {
    let n = ratings.len();
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let lo = ratings
        .iter()
        .map(|r| finite(r.1 - r.2))
        .fold(0.0, f64::min);
    let hi = ratings
        .iter()
        .map(|r| finite(r.1 + r.2))
        .fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.08).max(10.0);
    let longest = ratings
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(4);
    let names_px = (longest as u32 * 9 + 20).clamp(60, frame.width * 2 / 5);
    let height = 90 + 44 * n as u32;
    svg_figure(
        (frame.width, height),
        &frame.id("ratings"),
        "ratings",
        |root| {
            let mut c = ChartBuilder::on(root)
                .margin(12)
                .margin_right(20)
                .x_label_area_size(50)
                .y_label_area_size(names_px)
                .build_cartesian_2d(lo - pad..hi + pad, (0..n.max(1) - 1).into_segmented())?;
            let chars = (names_px as usize).saturating_sub(16) / 9;
            let name = |v: &SegmentValue<usize>| match v {
                SegmentValue::CenterOf(i) => clip_text(
                    ratings.get(n.wrapping_sub(i + 1)).map_or("", |r| r.0),
                    chars,
                ),
                SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
            };
            c.configure_mesh()
                .x_desc("Elo (average 0; 95% interval)")
                .x_labels(frame.ticks())
                .y_labels(n.max(1))
                .label_style(label_style())
                .axis_desc_style(label_style())
                .x_label_formatter(&|v| format!("{v:+.0}"))
                .y_label_formatter(&name)
                .bold_line_style(GRID)
                .light_line_style(TRANSPARENT)
                .disable_y_mesh()
                .draw()?;
            let y = |i: usize| SegmentValue::CenterOf(n - 1 - i);
            let zero = [(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)];
            c.draw_series(LineSeries::new(zero, INK.mix(0.4)))?;
            for (i, &(_, elo, err)) in ratings.iter().enumerate().filter(|r| r.1 .1.is_finite()) {
                let colour = COLOURS[i % COLOURS.len()];
                if err.is_finite() {
                    let bar = [(elo - err, y(i)), (elo + err, y(i))];
                    c.draw_series(LineSeries::new(bar, colour.stroke_width(3)))?;
                }
                c.draw_series(std::iter::once(Circle::new(
                    (elo, y(i)),
                    6,
                    colour.filled(),
                )))?;
            }
            Ok(())
        },
    )
}

/// One parameter of a tune over its iterations: θ after each (`points`,
/// iterations applied and value), its start dashed and its bounds `(min,
/// max)` as the chart's edges, drawn in `id`'s figure.
///
/// # Errors
/// What plotters said.
pub fn tune_figure(
    frame: Frame,
    id: &str,
    points: &[(f64, f64)],
    start: f64,
    (min, max): (f64, f64),
) -> Result<String, String> {
    let x_end = points.last().map_or(1.0, |p| p.0.max(1.0)) * 1.03;
    let pad = (max - min) * 0.04;
    let size = (frame.width, HEIGHT);
    svg_figure(size, &frame.id(id), "tune", |root| {
        let mut c = chart(
            root,
            frame,
            (0.0..x_end, min - pad..max + pad),
            ("iterations applied", "value"),
            &|v| {
                format!("{v:.4}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            },
        )?;
        for (bound, name) in [(min, "min"), (max, "max")] {
            c.draw_series(LineSeries::new(
                [(0.0, bound), (x_end, bound)],
                INK.mix(0.4),
            ))?;
            let pos = if bound == max {
                VPos::Top
            } else {
                VPos::Bottom
            };
            note(
                &mut c,
                format!("{name} {bound}"),
                (x_end * 0.01, bound),
                Pos::new(HPos::Left, pos),
                INK,
            )?;
        }
        let dash = DashedLineSeries::new(
            [(0.0, start), (x_end, start)],
            8,
            5,
            COLOURS[2].stroke_width(2),
        );
        c.draw_series(dash)?;
        c.draw_series(LineSeries::new(
            points.iter().copied(),
            COLOURS[0].stroke_width(2),
        ))?;
        Ok(())
    })
}
