//! An external engine's tuned numbers: `{name}` placeholders in its
//! arguments and init lines (a command-line flag, an NBoard `set` line, a
//! GTP command), each a parameter's `field`; each game starts the program
//! with its side's values written in. A placeholder is an integer when
//! the parameter's start and bounds are all whole numbers (played
//! rounded, written without a fraction); otherwise a real, written as
//! Rust writes an f64 (the shortest text that reads back as it).

use crate::engine::external::ExternalConfig;
use crate::engine::EngineSpec;
use crate::records::tune::TuneParam;

/// Why a tune's parameters do not fit its engine: the parameter (none for
/// the list as a whole) and what is wrong.
pub type Misfit = (Option<usize>, String);

/// An external engine and the placeholders a tune fills.
#[derive(Clone, Debug)]
pub struct Placeholders {
    config: ExternalConfig,
    /// Each parameter's placeholder, `{field}`.
    marks: Vec<String>,
    integer: Vec<bool>,
}

/// The names of the `{name}` placeholders in `text` (letters, digits and
/// `_` between braces), in order.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if close > 0
                    && after[..close]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                found.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    found
}

impl Placeholders {
    /// The tune of `params` of the external engine `config`.
    ///
    /// # Errors
    /// A placeholder no parameter fills, or a parameter whose placeholder
    /// its arguments and init lines do not hold.
    pub fn new(config: &ExternalConfig, params: &[TuneParam]) -> Result<Placeholders, Misfit> {
        let lines: Vec<&String> = config.args.iter().chain(&config.init).collect();
        let written: Vec<&str> = lines.iter().flat_map(|l| placeholders(l)).collect();
        if let Some(name) = written
            .iter()
            .find(|n| params.iter().all(|p| p.field != **n))
        {
            return Err((
                None,
                format!(
                    "engine {:?} has the placeholder {{{name}}} in its args or init lines, and no parameter fills it",
                    config.name
                ),
            ));
        }
        if let Some(i) = params
            .iter()
            .position(|p| !written.contains(&p.field.as_str()))
        {
            return Err((
                Some(i),
                format!(
                    "engine {:?} is external: its numbers are tuned through {{NAME}} placeholders in its args and init lines, and none is {{{}}}",
                    config.name, params[i].field
                ),
            ));
        }
        let whole = |x: f64| x.fract() == 0.0;
        Ok(Placeholders {
            config: config.clone(),
            marks: params.iter().map(|p| format!("{{{}}}", p.field)).collect(),
            integer: params
                .iter()
                .map(|p| whole(p.start) && whole(p.min) && whole(p.max))
                .collect(),
        })
    }

    /// Which placeholders are integers.
    pub fn integer(&self) -> &[bool] {
        &self.integer
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// `text` with each placeholder replaced by its value.
    pub fn fill(&self, text: &str, values: &[f64]) -> String {
        let mut out = text.to_string();
        for ((mark, &v), &integer) in self.marks.iter().zip(values).zip(&self.integer) {
            let shown = if integer {
                format!("{}", v.round() as i64)
            } else {
                format!("{v}")
            };
            out = out.replace(mark, &shown);
        }
        out
    }

    /// The engine with `values` written into its placeholders, named
    /// `name`.
    pub fn engine(&self, name: &str, values: &[f64]) -> EngineSpec {
        let mut x = self.config.clone();
        x.name = name.to_string();
        for line in x.args.iter_mut().chain(x.init.iter_mut()) {
            *line = self.fill(line, values);
        }
        EngineSpec::External(Box::new(x))
    }
}
