//! The engine a tune changes, and the engine each set of values makes.
//! For one of arena's own engines ([`Settings`]) a value is set on the
//! engine's typed form, by the field's path as `FILE.ron:FIELD=VALUE`
//! names it ([`crate::engine::field`]: whether a field takes integers is
//! its type's), and the result checked as its file is, taking the weights
//! and ProbCut model the base loaded: building a side's engine reads no
//! file. An external engine's values fill the `{name}` placeholders of
//! its arguments and init lines ([`Placeholders`]).

use super::external::{Misfit, Placeholders};
use crate::engine::{EngineConfig, EngineSpec, FieldValue, Fields};
use crate::records::tune::TuneParam;
use crate::util::Source;
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
    /// The engine as loaded (limits from the tournament applied); its
    /// written form is where values are set.
    config: EngineConfig,
    /// A path in the folder its relative paths start from (weights,
    /// ProbCut), for the checks.
    at: PathBuf,
    /// Each parameter's field path.
    fields: Vec<String>,
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
        let written = config.written();
        let integer = fields
            .iter()
            .enumerate()
            .map(|(i, field)| match written.field_type(field) {
                Ok(t) if t.is_number() => Ok(t.is_whole()),
                Ok(_) => Err((i, format!("the engine's field {field:?} is not a number"))),
                Err(_) => Err((i, format!("the engine has no field {field:?}"))),
            })
            .collect::<Result<Vec<bool>, _>>()?;
        Ok(Settings {
            config: config.clone(),
            at: folder.join("engine.ron"),
            fields: fields.iter().map(|f| f.to_string()).collect(),
            integer,
        })
    }

    /// The engine with `values` set (integer fields rounded), named
    /// `name`.
    ///
    /// # Errors
    /// What the engine's checks say of the values.
    fn engine(&self, name: &str, values: &[f64]) -> Result<EngineSpec, String> {
        let mut raw = self.config.written().clone();
        for (field, &v) in self.fields.iter().zip(values) {
            raw.set_field(field, FieldValue::Number(v))
                .map_err(|e| e.to_string())?;
        }
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
