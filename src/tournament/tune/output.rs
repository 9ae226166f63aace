//! `tuned.ron`: the base engine with a tune's values written in, ready to
//! check against the base (`arena match OUT/tuned.ron BASE --sprt ...`).
//! An engine file keeps its text (as it was when the tune started) and
//! comments, with the tuned fields set in place and its name made
//! `NAME-tuned`; any other engine (inline, or `FILE.ron:FIELD=VALUE`) is
//! written out whole. Weights and ProbCut paths are made relative to the
//! output folder.

use super::{Named, Tune, TuneBase};
use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::search::Limit;
use crate::util::ron_edit::set_field;
use std::path::{Component, Path, PathBuf};

impl Tune {
    /// The text of `tuned.ron` for `values` (θ as tuned; integer fields
    /// are written rounded, as they play), to be written in `out`; the
    /// first line says after how many of the tune's iterations.
    ///
    /// # Errors
    /// An edit the engine's checks refuse (the values were checked at the
    /// start).
    pub fn tuned_text(&self, values: &[f64], done: u64, out: &Path) -> Result<String> {
        let played: Vec<f64> = self
            .spsa
            .params
            .iter()
            .zip(values)
            .map(|(p, &v)| p.played(p.clamp(v)))
            .collect();
        let names: Vec<&str> = self.spsa.params.iter().map(|p| p.name.as_str()).collect();
        let header = format!(
            "// Tuned by arena: SPSA of {}, after {done} of {} iterations.\n",
            names.join(", "),
            self.spsa.schedule.iterations
        );
        let text = match (&self.base, &self.named, &self.text) {
            (TuneBase::External(x), Named::File(_), Some(text)) => {
                external_text(x, text, &played, "-tuned", (&self.folder, out))?
            }
            (TuneBase::Settings(_), Named::File(file), Some(text)) => {
                let tuned = self.written_text(&played, "-tuned")?;
                self.edited(text, file, &played, &tuned)?
            }
            _ => self.written_text(&played, "-tuned")?,
        };
        Ok(match self.base {
            TuneBase::External(_) => header + &text,
            TuneBase::Settings(_) => header + &moved_paths(&text, &self.folder, out),
        })
    }

    /// The engine at the start, as `base.ron` beside `tuned.ron` in
    /// `out`: written out whole (for an engine the config writes inline or
    /// with fields changed, which has no file to check the tune against),
    /// or for an external engine its file with the start values in place
    /// of the placeholders (its file, with them, starts no program).
    ///
    /// # Errors
    /// As [`Tune::tuned_text`].
    pub fn base_text(&self, out: &Path) -> Result<String> {
        let start: Vec<f64> = self.spsa.params.iter().map(|p| p.played(p.start)).collect();
        let text = match (&self.base, &self.text) {
            (TuneBase::External(x), Some(text)) => {
                external_text(x, text, &start, "", (&self.folder, out))?
            }
            (TuneBase::External(_), None) => {
                return Err(unwritten("an external engine without its file".into()))
            }
            (TuneBase::Settings(_), _) => {
                moved_paths(&self.written_text(&start, "")?, &self.folder, out)
            }
        };
        Ok(text + "\n")
    }

    /// The file's `text` with `played` set in place and the name
    /// `NAME-tuned`; `tuned` is the same engine written out whole.
    fn edited(&self, text: &str, file: &Path, played: &[f64], tuned: &str) -> Result<String> {
        let mut text = text.to_string();
        for (p, v) in self.spsa.params.iter().zip(played) {
            let path: Vec<&str> = p.name.split('.').collect();
            text = match set_number(&text, &path, *v, file, self.limit) {
                Ok(t) => t,
                // A nested field whose struct the file leaves out (`time`):
                // the struct as the tuned engine has it.
                Err(_) if path.len() > 1 => set_whole(&text, path[0], tuned)?,
                Err(e) => return Err(e),
            };
        }
        let name = format!("{:?}", format!("{}-tuned", self.base.name()));
        set_field(&text, &["name"], |_| name.clone()).map_err(unwritten)
    }

    /// The engine playing `played`, named with `suffix`, written out whole.
    fn written_text(&self, played: &[f64], suffix: &str) -> Result<String> {
        let EngineSpec::Engine(e) = self.engine(0, played).map_err(unwritten)? else {
            return Err(unwritten(
                "an external engine has no settings to write".into(),
            ));
        };
        let mut raw = e.written().clone();
        raw.name = format!("{}{suffix}", self.base.name());
        let pretty = ron::ser::PrettyConfig::default().struct_names(true);
        ron::ser::to_string_pretty(&raw, pretty).map_err(|e| unwritten(e.to_string()))
    }
}

/// What a tune's end wrote and the check it suggests: `tuned.ron`
/// against the engine it was tuned from, both under the limit the tune
/// played, in an SPRT. Data: cli/ words it as a command.
#[derive(Clone, Debug, PartialEq)]
pub struct TunedCheck {
    /// The tuned engine's file (`OUT/tuned.ron`).
    pub tuned: PathBuf,
    /// The engine it was tuned from: its own file, or `OUT/base.ron`.
    pub base: PathBuf,
    /// The limit both engines played under in the tune, if the config set one.
    pub limit: Option<Limit>,
    /// The SPRT's bounds, Elo: H0 and H1.
    pub elo: (f64, f64),
    /// The SPRT's longest run, in pairs.
    pub max_pairs: u64,
}

impl Tune {
    /// Writes `tuned.ron` in `out` for `values` after `done` iterations
    /// (and `base.ron`, the engine at the start, when the engine has no
    /// file of its own that plays: see [`Tune::base_text`]); returns where
    /// they are and the check of one against the other.
    ///
    /// # Errors
    /// As [`Tune::tuned_text`]; a file not written.
    pub fn write(&self, values: &[f64], done: u64, out: &Path) -> Result<TunedCheck> {
        let path = out.join("tuned.ron");
        crate::util::fs::write_atomic(&path, &self.tuned_text(values, done, out)?)?;
        let base = match (&self.named, &self.base) {
            (Named::File(f), TuneBase::Settings(_)) => tidy(f),
            // An argument's file is relative to the config's folder, not
            // to where the command runs, and an external engine's file
            // holds placeholders: the engine at the start written instead.
            (Named::File(_), TuneBase::External(_)) | (Named::Arg(_) | Named::Inline, _) => {
                let base = out.join("base.ron");
                crate::util::fs::write_atomic(&base, &self.base_text(out)?)?;
                base
            }
        };
        Ok(TunedCheck {
            tuned: path,
            base,
            limit: self.limit,
            elo: (0.0, 5.0),
            max_pairs: 20_000,
        })
    }
}

/// An external engine file's `text` with `values` in place of its
/// placeholders, its name given `suffix`, and its program and working
/// folder (relative to `folder`) made relative to `out`.
///
/// # Errors
/// A name that cannot be set in the text.
fn external_text(
    x: &super::external::Placeholders,
    text: &str,
    values: &[f64],
    suffix: &str,
    (folder, out): (&Path, &Path),
) -> Result<String> {
    let name = format!("{:?}", format!("{}{suffix}", x.name()));
    let filled = x.fill(text, values);
    let named = set_field(&filled, &["name"], |_| name.clone()).map_err(unwritten)?;
    Ok(moved_program(&named, folder, out))
}

/// An external engine file's `text` with its program (when a path, not a
/// name looked up in `PATH`) and working folder, relative to `folder`,
/// made relative to `out`.
fn moved_program(text: &str, folder: &Path, out: &Path) -> String {
    let path_only = |old: &str| {
        if old.contains('/') {
            moved_path(Some(old), folder, out)
        } else {
            old.to_string()
        }
    };
    let text = rewrite_present(text, &["command"], path_only);
    rewrite_present(&text, &["working_dir"], |old| {
        moved_path(Some(old), folder, out)
    })
}

/// `text` with the value of the field at `path` rewritten by `f`, when the
/// text writes it (a field left out stays out).
fn rewrite_present(text: &str, path: &[&str], f: impl Fn(&str) -> String) -> String {
    let mut present = false;
    let _ = set_field(text, path, |old| {
        present = old.is_some();
        String::new()
    });
    if !present {
        return text.to_string();
    }
    set_field(text, path, |old| f(old.unwrap_or_default())).unwrap_or_else(|_| text.to_string())
}

/// `text` with its weights, ProbCut and cut model paths (relative to `folder`) made
/// relative to `out`.
fn moved_paths(text: &str, folder: &Path, out: &Path) -> String {
    let text = rewrite_present(text, &["eval", "weights"], |old| {
        moved_path(Some(old), folder, out)
    });
    let text = rewrite_present(&text, &["probcut"], |old| {
        moved_path(Some(old), folder, out)
    });
    rewrite_present(&text, &["endcut"], |old| moved_path(Some(old), folder, out))
}

/// Why `tuned.ron` could not be written.
fn unwritten(why: String) -> Error {
    Error::Run(crate::error::Wording::text(format!(
        "tuned.ron cannot be written: {why}"
    )))
}

/// The text with the field `top` set to its value in `tuned` (an engine
/// written out whole); unchanged when `tuned` leaves it out (at its
/// default, as the file has it).
fn set_whole(text: &str, top: &str, tuned: &str) -> Result<String> {
    let mut value = None;
    let _ = set_field(tuned, &[top], |old| {
        value = old.map(str::to_string);
        String::new()
    });
    match value {
        Some(v) => set_field(text, &[top], |_| v.clone()).map_err(unwritten),
        None => Ok(text.to_string()),
    }
}

/// The text with the number at `path` set to `v`, written as the engine
/// reads it: bare, or in `Some(...)` where the field is an option.
fn set_number(
    text: &str,
    path: &[&str],
    v: f64,
    file: &Path,
    limit: Option<Limit>,
) -> Result<String> {
    let number = if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    };
    let mut last = String::new();
    for wrapped in [false, true] {
        let edited = set_field(text, path, |old| {
            let option = old.is_some_and(|o| o == "None" || o.starts_with("Some("));
            if option || wrapped {
                format!("Some({number})")
            } else {
                number.clone()
            }
        })
        .map_err(unwritten)?;
        match EngineSpec::parse(&edited, file, limit) {
            Ok(_) => return Ok(edited),
            Err(e) => last = e.to_string(),
        }
    }
    Err(unwritten(format!(
        "{} = {number} in {}: {last}",
        path.join("."),
        crate::error::path_text(file)
    )))
}

/// A quoted path of the file (`old`, relative to `folder`) as seen from
/// `out`; `old` as it is when it is not a quoted path (`None`).
fn moved_path(old: Option<&str>, folder: &Path, out: &Path) -> String {
    let Some(old) = old else {
        return "None".into();
    };
    let (inner, some) = match old.strip_prefix("Some(").and_then(|o| o.strip_suffix(')')) {
        Some(i) => (i.trim(), true),
        None => (old, false),
    };
    let Some(quoted) = inner.strip_prefix('"').and_then(|i| i.strip_suffix('"')) else {
        return old.to_string();
    };
    let moved = relative_to(&folder.join(quoted), out);
    let text = format!("{:?}", moved.display().to_string());
    if some {
        format!("Some({text})")
    } else {
        text
    }
}

/// `target` as a path relative to the folder `from` (both made absolute
/// and their `..` resolved where they exist).
pub fn relative_to(target: &Path, from: &Path) -> PathBuf {
    let full = crate::util::fs::resolved;
    let (target, from) = (full(target), full(from));
    let (t, f): (Vec<Component>, Vec<Component>) =
        (target.components().collect(), from.components().collect());
    let common = t.iter().zip(&f).take_while(|(a, b)| a == b).count();
    if common <= 1 {
        // Nothing shared but the root: the absolute path reads better.
        return target;
    }
    let mut rel: PathBuf = f[common..].iter().map(|_| Component::ParentDir).collect();
    rel.extend(&t[common..]);
    rel
}

/// `path` with each `NAME/..` taken away, as written (no link followed):
/// `configs/../engines/a.ron` is `engines/a.ron`.
pub fn tidy(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match (c, out.last()) {
            (Component::CurDir, _) if !out.is_empty() => {}
            (Component::ParentDir, Some(Component::Normal(_))) => {
                out.pop();
            }
            _ => out.push(c),
        }
    }
    out.iter().collect()
}
