//! `tuned.ron`: the base engine with a tune's values written in, ready to
//! check against the base (`arena match OUT/tuned.ron BASE --sprt ...`).
//! An engine file keeps its text and comments, with the tuned fields set
//! in place, its name made `NAME-tuned` and its weights and ProbCut paths
//! made relative to the output folder; an engine written inline in the
//! config is written out whole.

use super::Tune;
use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::util::ron_edit::set_field;
use std::path::{Component, Path, PathBuf};

impl Tune {
    /// The text of `tuned.ron` for `values` (θ as tuned; integer fields
    /// are written rounded, as they play), to be written in `out`; the
    /// first line says after how many of the tune's iterations.
    ///
    /// # Errors
    /// The base file unreadable, or an edit the engine's checks refuse
    /// ([`Error::Internal`]: the values were checked at the start).
    pub fn tuned_text(&self, values: &[f64], done: u64, out: &Path) -> Result<String> {
        let played: Vec<f64> = self
            .spsa
            .params
            .iter()
            .zip(values)
            .map(|(p, &v)| p.played(p.clamp(v)))
            .collect();
        let header = format!(
            "// Tuned by arena: SPSA of {}, after {done} of {} iterations.\n",
            self.spsa
                .params
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            self.spsa.schedule.iterations
        );
        let Some(file) = &self.file else {
            let EngineSpec::Engine(e) = self.engine(0, &played).map_err(Error::Internal)? else {
                return Err(Error::Internal("an external tune".into()));
            };
            let mut raw = e.written().clone();
            raw.name = format!("{}-tuned", self.base.name());
            let text = ron::ser::to_string_pretty(
                &raw,
                ron::ser::PrettyConfig::default().struct_names(true),
            )
            .map_err(|e| Error::Internal(e.to_string()))?;
            return Ok(header + &text + "\n");
        };
        let mut text = crate::util::text::read_text(file)?;
        let folder = file.parent().unwrap_or(Path::new("."));
        for (p, v) in self.spsa.params.iter().zip(&played) {
            let path: Vec<&str> = p.name.split('.').collect();
            text = set_number(&text, &path, *v, file)?;
        }
        let name = format!("{:?}", format!("{}-tuned", self.base.name()));
        text = set_field(&text, &["name"], |_| name.clone()).map_err(Error::Internal)?;
        for path in [&["eval", "weights"][..], &["probcut"][..]] {
            if let Ok(t) = set_field(&text, path, |old| moved_path(old, folder, out)) {
                text = t;
            }
        }
        Ok(header + &text)
    }
}

/// The text with the number at `path` set to `v`, written as the engine
/// reads it: bare, or in `Some(...)` where the field is an option.
fn set_number(text: &str, path: &[&str], v: f64, file: &Path) -> Result<String> {
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
        .map_err(Error::Internal)?;
        match EngineSpec::parse(&edited, file, None) {
            Ok(_) => return Ok(edited),
            Err(e) => last = e.to_string(),
        }
    }
    Err(Error::Internal(format!(
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
    let full = |p: &Path| {
        p.canonicalize()
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
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
