//! What the plots of `report.html` and `history.html` share: drawing a
//! figure with plotters' SVG backend into a string whose root element
//! scales with the page (a `viewBox`, width 100%, no fixed height), the
//! colours (the Okabe-Ito palette, readable by colour-blind eyes; green and
//! red for verdicts) and the text styles.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Series colours (the Okabe-Ito palette).
pub const COLOURS: [RGBColor; 6] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xd5, 0x5e, 0x00),
];

/// H1 accepted, a significant gain, a win.
pub const GOOD: RGBColor = RGBColor(0x1a, 0x7f, 0x37);
/// H0 accepted, a significant loss, a loss.
pub const BAD: RGBColor = RGBColor(0xc6, 0x28, 0x28);
/// Grid lines.
pub const GRID: RGBColor = RGBColor(0xe4, 0xe4, 0xe4);
/// Text of labels and captions drawn inside figures.
pub const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);

/// Font size of tick labels and axis descriptions, in figure pixels (a
/// figure is about 640 px wide, so these stay legible when it shrinks to a
/// phone's width).
pub const LABEL_PX: u32 = 16;

/// The tick-label style.
pub fn label_style() -> TextStyle<'static> {
    ("sans-serif", LABEL_PX).into_font().color(&INK)
}

/// A text style of `px` pixels, anchored at its centre.
pub fn centred(px: u32) -> TextStyle<'static> {
    ("sans-serif", px)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

/// The frame a figure is drawn for: the page shows a wide drawing on
/// screens and paper, and a narrow one (with fewer ticks) at a phone's
/// width, so that its text stays legible there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Width in figure pixels.
    pub width: u32,
    /// True for the phone's drawing.
    pub narrow: bool,
}

impl Frame {
    /// For screens and paper.
    pub const WIDE: Frame = Frame {
        width: 640,
        narrow: false,
    };
    /// For a phone's width.
    pub const NARROW: Frame = Frame {
        width: 380,
        narrow: true,
    };

    /// The id of figure `id` drawn in this frame (`id`, or `id-narrow`).
    pub fn id(self, id: &str) -> String {
        if self.narrow {
            format!("{id}-narrow")
        } else {
            id.to_string()
        }
    }

    /// How many ticks an axis as wide as the frame gets.
    pub fn ticks(self) -> usize {
        if self.narrow {
            4
        } else {
            6
        }
    }
}

/// `x` with its sign and `decimals` digits (`+1.5`, `-0.3`), never `-0.0`.
pub fn signed(x: f64, decimals: usize) -> String {
    let text = format!("{x:+.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => format!("+{rest}"),
        _ => text,
    }
}

/// `text` cut to at most `chars` characters, the cut marked by `…`.
pub fn clip_text(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        let kept: String = text.chars().take(chars.saturating_sub(1)).collect();
        kept + "…"
    }
}

/// `c` mixed with white: `t` of `c` (an opaque colour, where
/// `c.mix(t)` would make the SVG translucent).
pub fn tint(c: RGBColor, t: f64) -> RGBColor {
    let m = |v: u8| (255.0 + (f64::from(v) - 255.0) * t.clamp(0.0, 1.0)).round() as u8;
    RGBColor(m(c.0), m(c.1), m(c.2))
}

/// The result of drawing on the SVG backend.
pub type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// The drawing area a figure is drawn on.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws a figure of `size` pixels (white background) with `draw` and
/// returns it as an SVG element whose root carries `id` and `class`
/// (besides `plot`) and scales with its container.
///
/// # Errors
/// What plotters said when it failed.
pub fn svg_figure(
    size: (u32, u32),
    id: &str,
    class: &str,
    draw: impl FnOnce(&Area<'_>) -> DrawResult,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(responsive(&svg, size, id, class))
}

/// `svg` (as plotters writes it, `<svg width="W" height="H" viewBox=...`)
/// with `id` and `class` on its root, which is 100% wide and as high as its
/// `viewBox` makes it.
fn responsive(svg: &str, size: (u32, u32), id: &str, class: &str) -> String {
    let fixed = format!("<svg width=\"{}\" height=\"{}\" ", size.0, size.1);
    let attr = |text: &str| text.replace('&', "&amp;").replace('"', "&quot;");
    let scaled = format!(
        "<svg id=\"{}\" class=\"plot {}\" width=\"100%\" preserveAspectRatio=\"xMidYMid meet\" role=\"img\" ",
        attr(id),
        attr(class)
    );
    match svg.strip_prefix(&fixed) {
        Some(rest) => scaled + rest,
        None => svg.to_string(),
    }
}

/// A colour between `low` (at 0), white (at 0.5) and `high` (at 1):
/// the heat of a score.
pub fn diverging(x: f64, low: RGBColor, high: RGBColor) -> RGBColor {
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.5
    };
    let (end, t) = if x < 0.5 {
        (low, (0.5 - x) * 2.0)
    } else {
        (high, (x - 0.5) * 2.0)
    };
    tint(end, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_scales_with_the_page_and_carries_its_id() {
        let svg = svg_figure((200, 100), "llr", "sprt \"x\"", |root| {
            root.draw(&Circle::new((50, 50), 5, BLUE.filled()))
        })
        .unwrap();
        assert!(
            svg.starts_with("<svg id=\"llr\" class=\"plot sprt &quot;x&quot;\" width=\"100%\""),
            "{svg}"
        );
        assert!(svg.contains("viewBox=\"0 0 200 100\""));
        assert!(!svg.contains("height=\"100\" viewBox"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn the_heat_runs_from_low_through_white_to_high() {
        assert_eq!(diverging(0.0, BAD, GOOD), BAD);
        assert_eq!(diverging(1.0, BAD, GOOD), GOOD);
        assert_eq!(diverging(0.5, BAD, GOOD), WHITE);
        assert_eq!(diverging(f64::NAN, BAD, GOOD), WHITE);
        assert_eq!(tint(BAD, 0.0), WHITE);
        assert_eq!(clip_text("abcdef", 4), "abc…");
        assert_eq!(clip_text("abc", 4), "abc");
        assert_eq!(signed(-0.01, 1), "+0.0");
        assert_eq!(signed(-0.06, 1), "-0.1");
        assert_eq!(signed(2.0, 2), "+2.00");
    }
}
