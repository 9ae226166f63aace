//! One test's Elo over time as an SVG figure (plotters, SVG backend): a
//! point per run at its date with its 95% interval as an error bar, one
//! series for the head-to-head Elo of two-engine runs and one per engine
//! for the ratings of runs of more engines; an SPRT run's point is coloured
//! by its verdict.

use super::time::{date_days, day_label};
use super::{HistoryError, StoredRun};
use crate::report::plot::{label_style, svg_figure, DrawResult, BAD, COLOURS, GOOD, GRID};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::ops::Range;

/// Width and height of a figure, in pixels.
pub const SIZE: (u32, u32) = (760, 340);

/// An SPRT verdict as the plot marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// H1 accepted: green.
    H1,
    /// H0 accepted: red.
    H0,
    /// An SPRT without a verdict yet: hollow.
    Undecided,
    /// Not an SPRT: the series' colour.
    Plain,
}

impl Mark {
    /// The mark of a stored verdict (`H0`, `H1`, `continue` or none).
    pub fn of(verdict: Option<&str>) -> Mark {
        match verdict {
            Some("H1") => Mark::H1,
            Some("H0") => Mark::H0,
            Some(_) => Mark::Undecided,
            None => Mark::Plain,
        }
    }

    /// The marker's colour (`None`: the series').
    pub fn colour(self) -> Option<RGBColor> {
        match self {
            Mark::H1 => Some(GOOD),
            Mark::H0 => Some(BAD),
            Mark::Undecided | Mark::Plain => None,
        }
    }
}

/// One point: a run's date (days), Elo, half-width of its interval.
#[derive(Clone, Copy, Debug)]
struct Point {
    x: f64,
    y: f64,
    err: Option<f64>,
    mark: Mark,
}

/// The series of `runs` (one test's, oldest first): label to points.
/// Runs without a date that parses or without a finite Elo have no point.
fn series(runs: &[&StoredRun]) -> BTreeMap<String, Vec<Point>> {
    let mut out: BTreeMap<String, Vec<Point>> = BTreeMap::new();
    for r in runs {
        let Some(x) = date_days(&r.run.date) else {
            continue;
        };
        let engines = &r.run.engines;
        if let (Some(y), true) = (r.run.elo, engines.len() == 2) {
            let (me, them) = if r.run.verdict.is_some() {
                (1, 0)
            } else {
                (0, 1)
            };
            let label = format!("{} vs {}", engines[me].name, engines[them].name);
            let mark = Mark::of(r.run.verdict.as_deref());
            let err = r.run.elo_error;
            out.entry(label)
                .or_default()
                .push(Point { x, y, err, mark });
            continue;
        }
        for e in engines.iter().filter(|_| engines.len() > 2) {
            if let Some(y) = e.elo {
                let p = Point {
                    x,
                    y,
                    err: e.elo_error,
                    mark: Mark::Plain,
                };
                out.entry(e.name.clone()).or_default().push(p);
            }
        }
    }
    out
}

/// The points of `runs` that can be drawn.
pub fn plotted(runs: &[&StoredRun]) -> usize {
    series(runs).values().map(Vec::len).sum()
}

/// The axes' ranges: the dates (at least a day wide) and the intervals
/// with 0 (at least 20 Elo high), with a margin.
fn ranges(all: &BTreeMap<String, Vec<Point>>) -> (Range<f64>, Range<f64>) {
    let points = || all.values().flatten();
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut y0, mut y1) = (0.0f64, 0.0f64);
    for p in points() {
        x0 = x0.min(p.x);
        x1 = x1.max(p.x);
        let e = p.err.unwrap_or(0.0);
        y0 = y0.min(p.y - e);
        y1 = y1.max(p.y + e);
    }
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    let pad_x = ((x1 - x0) * 0.06).max(0.5);
    let pad_y = ((y1 - y0) * 0.1).max(10.0);
    (x0 - pad_x..x1 + pad_x, y0 - pad_y..y1 + pad_y)
}

/// The figure of one test's runs (oldest first) as an SVG element with
/// the id `id` that scales with the page.
///
/// # Errors
/// [`HistoryError::Plot`] when plotters fails.
pub fn elo_figure(id: &str, name: &str, runs: &[&StoredRun]) -> Result<String, HistoryError> {
    let all = series(runs);
    let (xr, yr) = ranges(&all);
    let with_time = xr.end - xr.start < 3.0;
    svg_figure(SIZE, id, "history-elo", |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(xr.clone(), yr)?;
        chart
            .configure_mesh()
            .x_desc("date (UTC)")
            .y_desc("Elo (logistic, 95% interval)")
            .x_labels(6)
            .label_style(label_style())
            .axis_desc_style(label_style())
            .x_label_formatter(&|d| day_label(*d, with_time))
            .y_label_formatter(&|e| format!("{e:+.0}"))
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .draw()?;
        let zero = [(xr.start, 0.0), (xr.end, 0.0)];
        chart.draw_series(LineSeries::new(zero, BLACK.mix(0.35)))?;
        // Series side by side, a few pixels apart, so that the runs of a
        // multi-engine test do not hide each other's bars.
        let step = (xr.end - xr.start) * 6.0 / f64::from(SIZE.0);
        let middle = (all.len() as f64 - 1.0) / 2.0;
        for (i, (label, points)) in all.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let shift = (i as f64 - middle) * step;
            let moved: Vec<Point> = points
                .iter()
                .map(|p| Point {
                    x: p.x + shift,
                    ..*p
                })
                .collect();
            draw_series(&mut chart, label, &moved, colour)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(label_style())
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(0xbb, 0xbb, 0xbb))
            .draw()
    })
    .map_err(|message| HistoryError::Plot {
        name: name.to_string(),
        message,
    })
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One series: a thin line through the points in time order, an error bar
/// per point, and a marker coloured by the run's verdict.
fn draw_series(
    chart: &mut Chart<'_, '_>,
    label: &str,
    points: &[Point],
    colour: RGBColor,
) -> DrawResult {
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (p.x, p.y)),
            colour.mix(0.6),
        ))?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2)));
    chart.draw_series(points.iter().filter_map(|p| {
        p.err
            .map(|e| ErrorBar::new_vertical(p.x, p.y - e, p.y, p.y + e, colour.stroke_width(1), 8))
    }))?;
    chart.draw_series(points.iter().map(|p| {
        let style = match (p.mark.colour(), p.mark) {
            (Some(c), _) => c.filled(),
            (None, Mark::Undecided) => WHITE.filled(),
            (None, Mark::H1 | Mark::H0 | Mark::Plain) => colour.filled(),
        };
        Circle::new((p.x, p.y), 5, style)
    }))?;
    chart.draw_series(
        points
            .iter()
            .filter(|p| p.mark == Mark::Undecided)
            .map(|p| Circle::new((p.x, p.y), 5, colour.stroke_width(2))),
    )?;
    Ok(())
}
