//! The engine a tune changes, and the engine each set of values makes.
//! For one of arena's own engines ([`Settings`]) a value is set on the
//! settings themselves (a field path, as `FILE.ron:FIELD=VALUE` names it,
//! through the engine's serialized form) and the result checked as its
//! file is, taking the weights and ProbCut model the base loaded: building
//! a side's engine reads no file. An external engine's values fill the
//! `{name}` placeholders of its arguments and init lines
//! ([`Placeholders`]).

use super::external::{Misfit, Placeholders};
use crate::engine::{EngineConfig, EngineSpec};
use crate::records::tune::TuneParam;
use crate::util::Source;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The engine a tune changes.
#[derive(Clone, Debug)]
pub enum TuneBase {
    /// One of arena's own engines: its fields.
    Settings(Box<Settings>),
    /// An external program: its placeholders.
    External(Box<Placeholders>),
}

impl TuneBase {
    /// The tune of `params` of `spec`, whose relative paths start from
    /// `folder`.
    ///
    /// # Errors
    /// A field the engine does not have or that is not a number; for an
    /// external engine, a placeholder with no parameter or a parameter
    /// with no placeholder.
    pub fn new(spec: &EngineSpec, folder: &Path, params: &[TuneParam]) -> Result<TuneBase, Misfit> {
        match spec {
            EngineSpec::Engine(config) => {
                let fields: Vec<&str> = params.iter().map(|p| p.field.as_str()).collect();
                Settings::new(config, folder, &fields)
                    .map(|s| TuneBase::Settings(Box::new(s)))
                    .map_err(|(i, m)| (Some(i), m))
            }
            EngineSpec::External(x) => {
                Placeholders::new(x, params).map(|p| TuneBase::External(Box::new(p)))
            }
        }
    }

    /// Which parameters are integers (played rounded).
    pub fn integer(&self) -> &[bool] {
        match self {
            TuneBase::Settings(s) => &s.integer,
            TuneBase::External(x) => x.integer(),
        }
    }

    /// The base engine's name.
    pub fn name(&self) -> &str {
        match self {
            TuneBase::Settings(s) => &s.config.name,
            TuneBase::External(x) => x.name(),
        }
    }

    /// The engine with `values` (integer ones rounded), named `name`.
    ///
    /// # Errors
    /// What the engine's checks say of the values.
    pub fn engine(&self, name: &str, values: &[f64]) -> Result<EngineSpec, String> {
        match self {
            TuneBase::Settings(s) => s.engine(name, values),
            TuneBase::External(x) => Ok(x.engine(name, values)),
        }
    }
}

/// One of arena's own engines, tuned by its fields.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine as loaded (limits from the tournament applied).
    config: EngineConfig,
    /// Its settings, serialized: where values are set.
    settings: Value,
    /// A path in the folder its relative paths start from (weights,
    /// ProbCut), for the checks.
    at: PathBuf,
    /// Each parameter's field path, split at the dots.
    fields: Vec<Vec<String>>,
    /// Which fields are integers (played rounded).
    integer: Vec<bool>,
}

impl Settings {
    /// The tune of `fields` of `config`, whose relative paths start from
    /// `folder`.
    ///
    /// # Errors
    /// Which field is not a number of the engine, as `(index, message)`.
    fn new(
        config: &EngineConfig,
        folder: &Path,
        fields: &[&str],
    ) -> Result<Settings, (usize, String)> {
        let settings = config.written().every_field();
        let mut base = Settings {
            config: config.clone(),
            settings,
            at: folder.join("engine.ron"),
            fields: fields
                .iter()
                .map(|f| f.split('.').map(str::to_string).collect())
                .collect(),
            integer: Vec::new(),
        };
        for i in 0..fields.len() {
            let integer = base.kind_of(i).map_err(|m| (i, m))?;
            base.integer.push(integer);
        }
        Ok(base)
    }

    /// Whether field `i` is an integer: a fraction does not read where an
    /// integer does.
    fn kind_of(&self, i: usize) -> Result<bool, String> {
        let field = self.fields[i].join(".");
        let read = |v: Value| -> Result<(), String> {
            let mut s = self.settings.clone();
            let slot = slot(&mut s, &self.fields[i])
                .ok_or_else(|| format!("the engine has no field {field:?}"))?;
            *slot = v;
            serde_json::from_value::<crate::engine::RawEngine>(s)
                .map(drop)
                .map_err(|e| e.to_string())
        };
        match read(Value::from(0.5)) {
            Ok(()) => Ok(false),
            Err(fraction) => match read(Value::from(1)) {
                Ok(()) => Ok(true),
                Err(_) if fraction.starts_with("the engine has no field") => Err(fraction),
                Err(_) => Err(format!("the engine's field {field:?} is not a number")),
            },
        }
    }

    /// The engine with `values` set (integer fields as integers), named
    /// `name`.
    ///
    /// # Errors
    /// What the engine's checks say of the values.
    fn engine(&self, name: &str, values: &[f64]) -> Result<EngineSpec, String> {
        let mut s = self.settings.clone();
        for (i, &v) in values.iter().enumerate() {
            let slot = slot(&mut s, &self.fields[i]).ok_or("a field went missing")?;
            *slot = if self.integer[i] {
                // Within the field's bounds, which are integers.
                Value::from(v.round() as i64)
            } else {
                Value::from(v)
            };
        }
        let raw: crate::engine::RawEngine = serde_json::from_value(s).map_err(value_words)?;
        // The engine's checks place their errors in a file of the engine's
        // folder that does not exist: their words alone are said.
        let mut config = EngineConfig::check_like(raw, Source::new(&self.at, ""), &self.config)
            .map_err(|e| match e {
                crate::error::Error::Config { message, .. } => message,
                other => other.to_string(),
            })?;
        config.name = name.to_string();
        Ok(EngineSpec::Engine(Box::new(config)))
    }
}

/// Why an engine's settings with a tune's values set do not read, in the
/// tune's words: a whole number outside its field's type is said with the
/// type's range, not the parser's type name.
fn value_words(e: serde_json::Error) -> String {
    let text = e.to_string();
    let ranges: [(&str, i128, i128); 6] = [
        ("i32", i32::MIN.into(), i32::MAX.into()),
        ("u32", 0, u32::MAX.into()),
        ("u64", 0, u64::MAX.into()),
        ("usize", 0, u64::MAX.into()),
        ("u16", 0, u16::MAX.into()),
        ("u8", 0, u8::MAX.into()),
    ];
    let expected = text.split("expected ").nth(1).unwrap_or("");
    match ranges.iter().find(|(name, ..)| expected.starts_with(name)) {
        Some((_, lo, hi)) if text.starts_with("invalid value: integer") => {
            format!("the field takes whole numbers from {lo} to {hi}")
        }
        _ => text,
    }
}

/// The value at `path` in `v`: each name a field of a struct, or of the
/// struct inside an enum's variant (`eval.weights` is the `weights` of
/// `eval: Patterns(weights: ...)`).
fn slot<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut at = v;
    for name in path {
        let Value::Object(map) = at else {
            return None;
        };
        if map.contains_key(name) {
            at = map.get_mut(name)?;
            continue;
        }
        // A variant: its one key, then the field inside.
        let mut inner = map.values_mut();
        match (inner.next(), inner.next()) {
            (Some(Value::Object(fields)), None) if fields.contains_key(name) => {
                at = fields.get_mut(name)?;
            }
            _ => return None,
        }
    }
    Some(at)
}
