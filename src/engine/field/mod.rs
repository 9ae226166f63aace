//! One field of an engine's typed form set to a value: the one way
//! `FILE.ron:FIELD=VALUE` ([`super::arg`]), a tournament's `Matrix` axes
//! (which are such arguments) and a tune's two sides set a field of an
//! engine. A field is named by its path as the file nests it (`tt_mib`,
//! `eval.weights`, `time.most`, `limit.Depth`); what it holds
//! ([`FieldType`]) is known once, from the Rust type of the field the path
//! reaches. A written value (the text after `=`) is read as that type in
//! the field's place, so what does not fit is said in the words of a
//! file's error; a number (a tune's) is put in a number field, rounded
//! for a whole one. No engine text is edited: the file is read once and
//! the values set on what it read, then checked as the file is.
//! An external engine's file has fields too ([`RawExternal`], for
//! `FILE.ron:FIELD=VALUE`); a tune sets its numbers through `{name}`
//! placeholders instead (tournament/tune/external.rs).

mod slot;

use super::config::RawEngine;
use super::external::RawExternal;
use crate::eval::EvalSpec;
use crate::search::limits::TimeUse;
use crate::search::Limit;
use crate::util::ron::unknown_field;
use slot::{Place, Slot};
use std::path::{Path, PathBuf};

/// What a field holds, and so how a value is given to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// A whole number from `min` to `max` (its type's range; the engine's
    /// checks may take fewer).
    Whole {
        /// The least.
        min: i128,
        /// The greatest.
        max: i128,
    },
    /// A real number.
    Real,
    /// `true` or `false`.
    Bool,
    /// Text, written bare (`name=my engine`).
    Text,
    /// A file, written relative to where the value is read.
    Path,
    /// Any other value, written in RON (`Depth(6)`, `[HashMove]`, `Pvs`).
    Ron,
}

impl FieldType {
    /// Whether a number can be put in it.
    pub fn is_number(self) -> bool {
        matches!(self, FieldType::Whole { .. } | FieldType::Real)
    }

    /// Whether it holds whole numbers (a tune plays them rounded).
    pub fn is_whole(self) -> bool {
        matches!(self, FieldType::Whole { .. })
    }
}

/// A value to set a field to.
#[derive(Clone, Copy, Debug)]
pub enum FieldValue<'a> {
    /// As after `=` in `FILE.ron:FIELD=VALUE` and in a matrix's axes:
    /// text bare, a file relative to `base` (made absolute), `None` for an
    /// option (whose value may be written with or without `Some(...)`),
    /// anything else in RON.
    Written {
        /// The text.
        text: &'a str,
        /// Where a file written relative starts.
        base: &'a Path,
    },
    /// A number (a tune's), for a number field: a whole one takes it
    /// rounded, halves away from zero.
    Number(f64),
}

/// Why a field cannot be set to a value: one line, naming the field.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FieldError {
    /// The path reaches no field: the message names the part that is not
    /// one (and, for its last part, the fields there are).
    #[error("{0}")]
    NoSuchField(String),
    /// A number for a field that holds none (the field's path).
    #[error("the engine's field {0:?} is not a number")]
    NotANumber(String),
    /// A whole number outside the range of its field's type.
    #[error("the field takes whole numbers from {lo} to {hi}")]
    OutOfRange {
        /// The least the field takes.
        lo: i128,
        /// The greatest.
        hi: i128,
    },
    /// A written value that does not read as its field's type, in the
    /// words of a file's error (the field and the value named).
    #[error("{0}")]
    Unreadable(String),
}

/// An engine's typed form, whose fields are set by path.
pub trait Fields {
    /// Sets the field at `path` (names of nested fields joined by dots,
    /// outermost first) to `value`.
    ///
    /// # Errors
    /// [`FieldError`]: no such field, a number for a field that holds
    /// none or outside its type, a written value that does not read.
    fn set_field(&mut self, path: &str, value: FieldValue<'_>) -> Result<(), FieldError>;

    /// What the field at `path` holds.
    ///
    /// # Errors
    /// [`FieldError::NoSuchField`].
    fn field_type(&self, path: &str) -> Result<FieldType, FieldError>;
}

impl Fields for RawEngine {
    fn set_field(&mut self, path: &str, value: FieldValue<'_>) -> Result<(), FieldError> {
        find(Level::Engine(self), path)?.set("Engine", path, value)?;
        // Set from elsewhere, as if the file had stated it.
        match path.split('.').next() {
            Some("limit") => self.stated.limit = true,
            Some("eval") => self.stated.eval = true,
            _ => {}
        }
        Ok(())
    }

    fn field_type(&self, path: &str) -> Result<FieldType, FieldError> {
        find(Level::Engine(&mut self.clone()), path).map(|slot| slot.ty)
    }
}

impl Fields for RawExternal {
    fn set_field(&mut self, path: &str, value: FieldValue<'_>) -> Result<(), FieldError> {
        find(Level::External(self), path)?.set("External", path, value)
    }

    fn field_type(&self, path: &str) -> Result<FieldType, FieldError> {
        find(Level::External(&mut self.clone()), path).map(|slot| slot.ty)
    }
}

/// Whether a field of this (last) name holds a file, written relative to
/// where the value is read: `eval.weights`, `probcut`, `working_dir`
/// (what names a changed engine by the file's stem, before its file is
/// read; the same fields as those of [`FieldType::Path`]).
pub fn is_path_field(name: &str) -> bool {
    matches!(name, "weights" | "probcut" | "working_dir")
}

/// The fields of an in-process engine, in its file's order.
const ENGINE_FIELDS: [&str; 18] = [
    "name",
    "game",
    "search",
    "deepening",
    "aspiration",
    "limit",
    "ordering",
    "tt_mib",
    "eval",
    "endgame_exact_at",
    "probcut",
    "seed",
    "threads",
    "time",
    "probcut_confidence",
    "endgame_selective_at",
    "endcut",
    "endgame_share",
];

/// The fields of an external engine, in its file's order.
const EXTERNAL_FIELDS: [&str; 9] = [
    "name",
    "command",
    "args",
    "protocol",
    "working_dir",
    "init",
    "ready_timeout_ms",
    "reply_timeout_ms",
    "limit",
];

/// The fields of `time: TimeUse(...)`.
const TIME_FIELDS: [&str; 5] = [
    "moves_extra",
    "increment_share",
    "most",
    "start_until",
    "abort_at",
];

/// The field at `path`, going down from `level`.
fn find<'a>(mut level: Level<'a>, path: &str) -> Result<Slot<'a>, FieldError> {
    let names: Vec<&str> = path.split('.').collect();
    let (last, on_the_way) = names.split_last().unwrap_or((&"", &[]));
    for k in 0..on_the_way.len() {
        level = level
            .inner(names[k], &names[..=k].join("."))
            .map_err(|m| FieldError::NoSuchField(format!("{path}: {m}")))?;
    }
    let (label, fields) = (level.label(), level.names());
    level
        .field(last)
        .ok_or_else(|| FieldError::NoSuchField(unknown_field(last, &label, &fields)))
}

/// A struct of the typed form a path goes through.
enum Level<'a> {
    /// An in-process engine.
    Engine(&'a mut RawEngine),
    /// An external one.
    External(&'a mut RawExternal),
    /// `eval: Features(weights: ...)`: the variant and its weights.
    Eval(&'static str, &'a mut PathBuf),
    /// `time: (...)`.
    Time(&'a mut TimeUse),
    /// `limit: Depth(6)`: the variant and its one number.
    Limit(&'static str, Slot<'a>),
}

impl<'a> Level<'a> {
    /// How errors name it.
    fn label(&self) -> String {
        match self {
            Level::Engine(_) => "an engine".into(),
            Level::External(_) => "External".into(),
            Level::Eval(variant, _) => format!("eval: {variant}"),
            Level::Time(_) => "time".into(),
            Level::Limit(variant, _) => format!("limit: {variant}"),
        }
    }

    /// Its fields' names, in order.
    fn names(&self) -> Vec<&'static str> {
        match self {
            Level::Engine(_) => ENGINE_FIELDS.to_vec(),
            Level::External(_) => EXTERNAL_FIELDS.to_vec(),
            Level::Eval(..) => vec!["weights"],
            Level::Time(_) => TIME_FIELDS.to_vec(),
            Level::Limit(variant, _) => vec![variant],
        }
    }

    /// Its field `name`.
    fn field(self, name: &str) -> Option<Slot<'a>> {
        match self {
            Level::Engine(raw) => engine_field(raw, name),
            Level::External(raw) => external_field(raw, name),
            Level::Eval(_, weights) => (name == "weights").then(|| Slot::of(weights)),
            Level::Time(time) => time_field(time, name),
            Level::Limit(variant, slot) => (name == variant).then_some(slot),
        }
    }

    /// The struct its field `name` (at `shown`, the path so far) holds.
    ///
    /// # Errors
    /// Why there is none: the field is not written, or its value has no
    /// fields (`eval: Discs`).
    fn inner(self, name: &str, shown: &str) -> Result<Level<'a>, String> {
        let not_written = || format!("{shown} is not written in the file");
        let no_fields = |value: String| format!("{shown} is written {value}, which has no fields");
        let raw = match self {
            Level::Engine(raw) => raw,
            other => {
                return Err(other
                    .field(name)
                    .map_or_else(not_written, |s| no_fields(s.at.shown())))
            }
        };
        match name {
            "eval" if !raw.stated.eval => Err(not_written()),
            "eval" => match &mut raw.eval {
                EvalSpec::Discs => Err(no_fields("Discs".into())),
                EvalSpec::WeightedSquares { weights } => {
                    Ok(Level::Eval("WeightedSquares", weights))
                }
                EvalSpec::Features { weights } => Ok(Level::Eval("Features", weights)),
                EvalSpec::Patterns { weights } => Ok(Level::Eval("Patterns", weights)),
            },
            "time" => Ok(Level::Time(&mut raw.time)),
            "limit" => match &mut raw.limit {
                Limit::Depth(n) => Ok(Level::Limit("Depth", Slot::of(n))),
                Limit::Nodes(n) => Ok(Level::Limit("Nodes", Slot::of(n))),
                Limit::MoveTime(n) => Ok(Level::Limit("MoveTime", Slot::of(n))),
                clock @ Limit::Clock(..) => Err(no_fields(clock.shown())),
            },
            _ => Err(engine_field(raw, name).map_or_else(not_written, |s| no_fields(s.at.shown()))),
        }
    }
}

/// The field `name` of an in-process engine.
fn engine_field<'a>(raw: &'a mut RawEngine, name: &str) -> Option<Slot<'a>> {
    Some(match name {
        "name" => Slot::of(&mut raw.name),
        "game" => Slot::of(&mut raw.game),
        "search" => Slot::of(&mut raw.search),
        "deepening" => Slot::of(&mut raw.deepening),
        "aspiration" => Slot::of(&mut raw.aspiration),
        "limit" => Slot::of(&mut raw.limit),
        "ordering" => Slot::of(&mut raw.ordering),
        "tt_mib" => Slot::of(&mut raw.tt_mib),
        "eval" => Slot::of(&mut raw.eval),
        "endgame_exact_at" => Slot::of(&mut raw.endgame_exact_at),
        "probcut" => Slot::of(&mut raw.probcut),
        "seed" => Slot::of(&mut raw.seed),
        "threads" => Slot::of(&mut raw.threads),
        "time" => Slot::of(&mut raw.time),
        "probcut_confidence" => Slot::of(&mut raw.probcut_confidence),
        "endgame_selective_at" => Slot::of(&mut raw.endgame_selective_at),
        // A file written as in the engine file: in RON, relative to it.
        "endcut" => Slot::ron(&mut raw.endcut),
        "endgame_share" => Slot::of(&mut raw.endgame_share),
        _ => return None,
    })
}

/// The field `name` of an external engine.
fn external_field<'a>(raw: &'a mut RawExternal, name: &str) -> Option<Slot<'a>> {
    Some(match name {
        "name" => Slot::of(&mut raw.name),
        "command" => Slot::of(&mut raw.command),
        "args" => Slot::of(&mut raw.args),
        "protocol" => Slot::of(&mut raw.protocol),
        "working_dir" => Slot::of(&mut raw.working_dir),
        "init" => Slot::of(&mut raw.init),
        "ready_timeout_ms" => Slot::of(&mut raw.ready_timeout_ms),
        "reply_timeout_ms" => Slot::of(&mut raw.reply_timeout_ms),
        "limit" => Slot::of(&mut raw.limit),
        _ => return None,
    })
}

/// The field `name` of how a clock is spent.
fn time_field<'a>(time: &'a mut TimeUse, name: &str) -> Option<Slot<'a>> {
    Some(match name {
        "moves_extra" => Slot::of(&mut time.moves_extra),
        "increment_share" => Slot::of(&mut time.increment_share),
        "most" => Slot::of(&mut time.most),
        "start_until" => Slot::of(&mut time.start_until),
        "abort_at" => Slot::of(&mut time.abort_at),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
