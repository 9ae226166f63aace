//! The figures of `report.html` drawn cell by cell (plotters elements at
//! pixel positions): the crosstable as a heatmap and the pentanomial
//! distribution of each pairing as a stacked bar. Each returns an SVG
//! element (see [`svg_figure`]) or what plotters said.

use crate::report::plot::{
    centred, clip_text, diverging, signed, svg_figure, tint, Area, DrawResult, Frame, BAD, COLOURS,
    GOOD, INK,
};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One cell of the crosstable: the row engine's score (0 to 1) against the
/// column engine, its average disc difference and the games behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Score, 0 to 1.
    pub score: f64,
    /// Average disc difference, row minus column.
    pub disc: Option<f64>,
    /// Games.
    pub games: u64,
}

/// Colour of a low score (Okabe-Ito vermillion) and of a high one (blue).
const LOW: RGBColor = COLOURS[5];
const HIGH: RGBColor = COLOURS[0];

fn text_at(area: &Area<'_>, text: &str, at: (i32, i32), style: &TextStyle<'_>) -> DrawResult {
    area.draw(&Text::new(text.to_string(), at, style.clone()))
}

fn left(px: u32) -> TextStyle<'static> {
    ("sans-serif", px)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

/// The crosstable of `names` as a heatmap: `cells[r][c]` is row `r`
/// against column `c` (`None`: they did not meet).
///
/// # Errors
/// What plotters said.
pub fn heatmap_figure(
    frame: Frame,
    names: &[&str],
    cells: &[Vec<Option<Cell>>],
) -> Result<String, String> {
    let width = frame.width as i32;
    let n = names.len().max(1) as i32;
    let longest = names.iter().map(|s| s.chars().count()).max().unwrap_or(4) as i32;
    let label_w = (longest * 9 + 36).clamp(60, width * 2 / 5);
    let chars = usize::try_from((label_w - 36) / 9).unwrap_or(1);
    let cell = ((width - label_w - 12) / n).clamp(28, 96);
    let top = 30;
    let grid_h = cell * n;
    let height = top + grid_h + 64;
    let size = (frame.width, height as u32);
    svg_figure(size, &frame.id("crosstable-heatmap"), "heatmap", |root| {
        let px = |v: i32| u32::try_from(v).unwrap_or(8);
        let big = px((cell / 4).clamp(9, 17));
        for (c, _) in names.iter().enumerate() {
            let x = label_w + cell * c as i32 + cell / 2;
            text_at(root, &(c + 1).to_string(), (x, top / 2), &centred(15))?;
        }
        for (r, name) in names.iter().enumerate() {
            let y = top + cell * r as i32;
            let label = format!("{} {}", r + 1, clip_text(name, chars));
            text_at(root, &label, (8, y + cell / 2), &left(15))?;
            for c in 0..names.len() {
                let x = label_w + cell * c as i32;
                let corners = [(x + 1, y + 1), (x + cell - 1, y + cell - 1)];
                let centre = (x + cell / 2, y + cell / 2);
                match cells.get(r).and_then(|row| row.get(c)).copied().flatten() {
                    Some(v) => {
                        let fill = diverging(v.score, LOW, HIGH);
                        root.draw(&Rectangle::new(corners, fill.filled()))?;
                        let ink = if (v.score - 0.5).abs() > 0.3 {
                            WHITE
                        } else {
                            INK
                        };
                        let style = centred(big).color(&ink);
                        let score = format!("{:.0}%", 100.0 * v.score);
                        let disc = v.disc.map_or("—".to_string(), |d| signed(d, 1));
                        text_at(root, &score, (centre.0, centre.1 - cell / 7), &style)?;
                        let small = centred(px((cell / 5).clamp(8, 14))).color(&ink);
                        text_at(root, &disc, (centre.0, centre.1 + cell / 5), &small)?;
                    }
                    None => {
                        root.draw(&Rectangle::new(
                            corners,
                            RGBColor(0xee, 0xee, 0xee).filled(),
                        ))?;
                        text_at(root, "—", centre, &centred(big))?;
                    }
                }
            }
        }
        heat_legend(root, top + grid_h + 16, frame)
    })
}

/// The colour scale of the heatmap, at height `y`.
fn heat_legend(root: &Area<'_>, y: i32, frame: Frame) -> DrawResult {
    let (x0, box_w) = if frame.narrow { (120, 20) } else { (150, 30) };
    text_at(root, "row's score:", (8, y + 10), &left(14))?;
    for k in 0..=10 {
        let x = x0 + box_w * k;
        let fill = diverging(f64::from(k) / 10.0, LOW, HIGH);
        root.draw(&Rectangle::new(
            [(x, y), (x + box_w, y + 20)],
            fill.filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x0, y), (x0 + box_w * 11, y + 20)],
        INK.mix(0.4).stroke_width(1),
    ))?;
    text_at(root, "0%", (x0, y + 34), &centred(13))?;
    text_at(root, "50%", (x0 + box_w * 11 / 2, y + 34), &centred(13))?;
    text_at(root, "100%", (x0 + box_w * 11, y + 34), &centred(13))
}

/// Colours of a pair's points for the first engine: 0, 1/2, 1, 3/2, 2.
fn ptnml_colours() -> [RGBColor; 5] {
    let grey = RGBColor(0xbb, 0xbb, 0xbb);
    [BAD, tint(BAD, 0.5), grey, tint(GOOD, 0.5), GOOD]
}

/// One pairing's pentanomial counts: its label and the pairs scoring 0,
/// 1/2, 1, 3/2 and 2 points for its first engine.
pub type PtnmlRow = (String, [u64; 5]);

/// Each pairing's pairs by the points its first engine scored, as a
/// stacked bar (0 points on the left, 2 on the right).
///
/// # Errors
/// What plotters said.
pub fn ptnml_figure(frame: Frame, rows: &[PtnmlRow]) -> Result<String, String> {
    let width = frame.width as i32;
    let row_h = 58;
    let height = 44 + row_h * rows.len().max(1) as i32;
    let colours = ptnml_colours();
    let size = (frame.width, height as u32);
    let chars = usize::try_from((width - 20) / 8).unwrap_or(10);
    svg_figure(size, &frame.id("pentanomial"), "ptnml", |root| {
        let labels = ["0", "½", "1", "1½", "2"];
        text_at(root, "points:", (8, 16), &left(14))?;
        let step = (width - 80) / 5;
        for (k, label) in labels.iter().enumerate() {
            let x = 70 + step * k as i32;
            root.draw(&Rectangle::new([(x, 6), (x + 22, 26)], colours[k].filled()))?;
            text_at(root, label, (x + 28, 16), &left(15))?;
        }
        for (i, (label, counts)) in rows.iter().enumerate() {
            let y = 44 + row_h * i as i32;
            text_at(root, &clip_text(label, chars), (10, y + 8), &left(15))?;
            stacked_bar(root, counts, (y + 20, width), &colours)?;
        }
        Ok(())
    })
}

/// One stacked bar of `counts` at height `y`, with each count written in
/// its segment when it fits.
fn stacked_bar(
    root: &Area<'_>,
    counts: &[u64; 5],
    (y, frame_width): (i32, i32),
    colours: &[RGBColor; 5],
) -> DrawResult {
    let total: u64 = counts.iter().sum();
    let (x0, width) = (10, frame_width - 20);
    if total == 0 {
        root.draw(&Rectangle::new(
            [(x0, y), (x0 + width, y + 26)],
            RGBColor(0xee, 0xee, 0xee).filled(),
        ))?;
        return text_at(root, "no pairs yet", (x0 + width / 2, y + 13), &centred(14));
    }
    let mut done = 0u64;
    for (k, &c) in counts.iter().enumerate() {
        let a = x0 + (i64::from(width) * done as i64 / total as i64) as i32;
        done += c;
        let b = x0 + (i64::from(width) * done as i64 / total as i64) as i32;
        if c == 0 {
            continue;
        }
        root.draw(&Rectangle::new([(a, y), (b, y + 26)], colours[k].filled()))?;
        let text = c.to_string();
        if (b - a) as usize >= 10 * text.len() + 6 {
            let ink = if k == 2 { INK } else { WHITE };
            let ink = if k == 1 || k == 3 { INK } else { ink };
            text_at(root, &text, ((a + b) / 2, y + 13), &centred(14).color(&ink))?;
        }
    }
    Ok(())
}
