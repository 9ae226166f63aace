//! The result block as `run`, `report` and `merge` print it at the end,
//! coloured on a terminal: the SPRT verdict green for H1 and red for H0, an
//! Elo green when its 95% interval is above 0 and red when below. Colour is
//! on only when standard output is a terminal and `NO_COLOR` is unset or
//! empty (<https://no-color.org>); otherwise the text is byte for byte the
//! plain text that scripts read.

use super::results::Results;
use std::ffi::OsString;

/// Whether to colour text, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    on: bool,
}

/// What a piece of text says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// H1 accepted, an interval above 0: green.
    Good,
    /// H0 accepted, an interval below 0: red.
    Bad,
    /// Nothing to say: as it is.
    Plain,
}

impl Tone {
    /// The tone of a value with a 95% interval of half-width `error`:
    /// good above 0, bad below, plain when it holds 0 or does not exist.
    pub fn of_interval(value: f64, error: f64) -> Tone {
        if !(value.is_finite() && error.is_finite()) {
            Tone::Plain
        } else if value - error > 0.0 {
            Tone::Good
        } else if value + error < 0.0 {
            Tone::Bad
        } else {
            Tone::Plain
        }
    }
}

impl Paint {
    /// No colour.
    pub const PLAIN: Paint = Paint { on: false };
    /// ANSI colours.
    pub const ANSI: Paint = Paint { on: true };

    /// Colour on a terminal (`tty`) unless `no_color` (the value of
    /// `NO_COLOR`) is set to something.
    pub fn when(tty: bool, no_color: Option<OsString>) -> Paint {
        Paint {
            on: tty && no_color.is_none_or(|v| v.is_empty()),
        }
    }

    /// `text` in the colour of `tone` (unchanged when colour is off or the
    /// tone is plain).
    pub fn tone(self, tone: Tone, text: &str) -> String {
        let code = match (self.on, tone) {
            (false, _) | (true, Tone::Plain) => return text.to_string(),
            (true, Tone::Good) => "32",
            (true, Tone::Bad) => "31",
        };
        format!("\x1b[1;{code}m{text}\x1b[0m")
    }
}

impl Results {
    /// The report printed every 10 pairs and at the end: the header naming
    /// both sides (see [`Results::header`]), then the head-to-head block for
    /// two engines, the rating table for more, and the status note.
    pub fn report_text(&self) -> String {
        self.final_text_painted(Paint::PLAIN, false)
    }

    /// The text printed at the end of `run`, `report` and `merge`:
    /// [`Self::report_text`] and, for an SPRT, the line `SPRT verdict: V`,
    /// coloured by `paint`.
    pub fn final_text(&self, paint: Paint) -> String {
        self.final_text_painted(paint, true)
    }

    fn final_text_painted(&self, paint: Paint, verdict: bool) -> String {
        let body = match self.block() {
            Some(b) => self.paint_block(&b, paint),
            None => self.rating_table_painted(paint),
        };
        let mut s = format!("{}\n{body}", self.header());
        if let Some(tune) = &self.tune {
            s.push('\n');
            s.push_str(&tune.block());
        }
        if let Some(rounds) = self.rounds_text() {
            s.push('\n');
            s.push_str(&rounds);
        }
        if let Some(note) = &self.status_note {
            s.push('\n');
            s.push_str(note);
        }
        if let Some(v) = self.verdict.filter(|_| verdict) {
            let tone = match v {
                "H1" => Tone::Good,
                "H0" => Tone::Bad,
                _ => Tone::Plain,
            };
            s.push_str("\nSPRT verdict: ");
            s.push_str(&paint.tone(tone, v));
        }
        s
    }

    /// The head-to-head `block` with the Elo and its interval of its first
    /// line (`Elo: 12.34 +/- 5.67, nElo: ...`) painted by significance.
    fn paint_block(&self, block: &str, paint: Paint) -> String {
        let tone = self
            .head_to_head
            .as_ref()
            .map_or(Tone::Plain, |h| Tone::of_interval(h.elo, h.elo_error));
        let Some(rest) = block.strip_prefix("Elo: ") else {
            return block.to_string();
        };
        let end = rest.find(", nElo").unwrap_or(rest.len());
        format!("Elo: {}{}", paint.tone(tone, &rest[..end]), &rest[end..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert_eq!(Paint::when(true, None), Paint::ANSI);
        assert_eq!(Paint::when(true, Some("".into())), Paint::ANSI);
        assert_eq!(Paint::when(true, Some("1".into())), Paint::PLAIN);
        assert_eq!(Paint::when(false, None), Paint::PLAIN);
        assert_eq!(Paint::PLAIN.tone(Tone::Good, "H1"), "H1");
        assert_eq!(Paint::ANSI.tone(Tone::Good, "H1"), "\x1b[1;32mH1\x1b[0m");
        assert_eq!(Paint::ANSI.tone(Tone::Bad, "H0"), "\x1b[1;31mH0\x1b[0m");
        assert_eq!(Paint::ANSI.tone(Tone::Plain, "x"), "x");
    }

    #[test]
    fn an_interval_is_significant_when_it_leaves_zero() {
        assert_eq!(Tone::of_interval(10.0, 5.0), Tone::Good);
        assert_eq!(Tone::of_interval(-10.0, 5.0), Tone::Bad);
        assert_eq!(Tone::of_interval(3.0, 5.0), Tone::Plain);
        assert_eq!(Tone::of_interval(f64::INFINITY, 5.0), Tone::Plain);
        assert_eq!(Tone::of_interval(3.0, f64::NAN), Tone::Plain);
    }
}
