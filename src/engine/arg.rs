//! An engine given as one argument, as cutechess-cli and fastchess take
//! engines on their command lines: an engine file (`engines/strong.ron`),
//! an engine file with fields changed (`engines/strong.ron:eval.weights=new.bin`,
//! the everyday evaluation comparison without a second file), or an
//! external program written out (`cmd=gtp-rhino arg=-l arg=1 proto=gtp`).
//! `arena match` takes its two engines this way, and a config's
//! `Arg("...")` entry the same text.
//!
//! A changed file is the file read into its typed form, the fields set
//! there ([`super::field`], as a matrix's and a tune's are) and checked as
//! the file is, so every check applies; what the change makes wrong is
//! said of the argument.

use super::config::{EngineConfig, RawEngine};
use super::external::{Protocol, RawExternal};
use super::field::{is_path_field, FieldValue, Fields};
use super::spec::{first_word, EngineSpec};
use crate::error::{Error, Result};
use crate::search::Limit;
use crate::util::text::read_text;
use crate::util::{parse_ron, Source};
use std::path::{Path, PathBuf};

/// An engine argument, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineArg {
    /// The argument as given (named in errors).
    text: String,
    /// What it names.
    what: What,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum What {
    /// An engine file.
    File(PathBuf),
    /// `FILE.ron:FIELD=VALUE[,FIELD=VALUE]...`.
    Changed {
        file: PathBuf,
        /// Field paths (`eval.weights`) and values, in order.
        fields: Vec<(String, String)>,
    },
    /// `cmd=PROGRAM [arg=ARG]... proto=gtp|nboard [name=NAME] [dir=DIR]`.
    Program(Program),
}

/// An external program written out in one argument.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Program {
    cmd: String,
    args: Vec<String>,
    proto: Protocol,
    name: Option<String>,
    dir: Option<String>,
}

/// The keys of a program written out.
const KEYS: [&str; 5] = ["cmd", "arg", "proto", "name", "dir"];

impl EngineArg {
    /// Reads an argument: text whose first word is `cmd=`, `arg=`,
    /// `proto=`, `name=` or `dir=` is a program; else `FILE.ron:...`
    /// (split at the first `.ron:`) is a changed file; else text with a `=`
    /// is a program too (so a wrong key is named); anything else, and any
    /// file that exists in `base`, is an engine file, relative to `base`.
    ///
    /// # Errors
    /// [`Error::Usage`] naming the argument: an empty one, a word that is not `KEY=VALUE`,
    /// an unknown key, a missing `cmd=` or `proto=`, an unknown protocol.
    pub fn parse(text: &str, base: &Path) -> Result<EngineArg> {
        let bad = |message: String| Error::Usage {
            argument: text.into(),
            message,
        };
        if text.trim().is_empty() {
            return Err(Error::Usage {
                argument: format!("{text:?}").into(),
                message: "an engine argument is empty: give an engine file, FILE.ron:FIELD=VALUE, or cmd=PROGRAM proto=gtp|nboard".into(),
            });
        }
        let first_key = text
            .split_whitespace()
            .next()
            .and_then(|w| w.split_once('='));
        let program = first_key.is_some_and(|(key, _)| KEYS.contains(&key));
        let what = if program && !base.join(text).exists() {
            What::Program(Program::parse(text).map_err(bad)?)
        } else if let Some(i) = text.find(".ron:") {
            What::Changed {
                file: PathBuf::from(&text[..i + 4]),
                fields: split_fields(&text[i + 5..]).map_err(bad)?,
            }
        } else if text.contains('=') && !base.join(text).exists() {
            What::Program(Program::parse(text).map_err(bad)?)
        } else {
            What::File(PathBuf::from(text))
        };
        Ok(EngineArg {
            text: text.to_string(),
            what,
        })
    }

    /// The engine file `file` (relative to where it is loaded) with
    /// `fields` (field paths and RON values) set, as
    /// `FILE.ron:FIELD=VALUE,...` names it but with values that may hold
    /// commas; named so in errors.
    pub fn changed(file: &Path, fields: Vec<(String, String)>) -> EngineArg {
        let changes: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
        EngineArg {
            text: format!("{}:{}", file.display(), changes.join(",")),
            what: What::Changed {
                file: file.to_path_buf(),
                fields,
            },
        }
    }

    /// The engine file, when the argument is only that.
    pub fn file(&self) -> Option<&Path> {
        match &self.what {
            What::File(f) => Some(f),
            What::Changed { .. } | What::Program(_) => None,
        }
    }

    /// The engine file it reads, plain or changed (`None` for a program).
    pub fn path(&self) -> Option<&Path> {
        match &self.what {
            What::File(file) | What::Changed { file, .. } => Some(file),
            What::Program(_) => None,
        }
    }

    /// A short name of the engine for folder names: the file's stem, with
    /// what is changed (`strong+weights=new`), or the program's name;
    /// characters other than letters, digits and `-_.+=` made `_`.
    pub fn stem(&self) -> String {
        let file_stem = |f: &Path| {
            f.file_stem()
                .map_or_else(|| f.display().to_string(), |s| s.to_string_lossy().into())
        };
        let stem = match &self.what {
            What::File(f) => file_stem(f),
            What::Changed { file, fields } => match fields.iter().find(|(k, _)| k == "name") {
                Some((_, name)) => name.clone(),
                None => changed_name(&file_stem(file), fields),
            },
            What::Program(p) => p.name(),
        };
        stem.chars()
            .map(|c| {
                if c.is_alphanumeric() || "-_.+=".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// The engine, with paths relative to `base`; `time_control` stands in
    /// for a missing limit. Also the folder the engine's own relative paths
    /// start from (for its fingerprint).
    ///
    /// # Errors
    /// The file's own errors (naming it, its line and field); what the
    /// change makes wrong, a program not found: [`Error::Usage`] naming
    /// the argument.
    pub fn load(&self, base: &Path, time_control: Option<Limit>) -> Result<(EngineSpec, PathBuf)> {
        match &self.what {
            What::File(f) => {
                let full = base.join(f);
                let spec = EngineSpec::load(&full, time_control)?;
                Ok((spec, full.parent().unwrap_or(Path::new(".")).to_path_buf()))
            }
            What::Changed { file, fields } => self.load_changed(file, fields, base, time_control),
            What::Program(p) => Ok((self.load_program(p, base, time_control)?, base.into())),
        }
    }

    /// A usage error naming this argument.
    fn bad(&self, message: impl Into<String>) -> Error {
        Error::Usage {
            argument: self.text.as_str().into(),
            message: message.into(),
        }
    }

    fn load_changed(
        &self,
        file: &Path,
        fields: &[(String, String)],
        base: &Path,
        time_control: Option<Limit>,
    ) -> Result<(EngineSpec, PathBuf)> {
        let full = base.join(file);
        let problem = match crate::util::text::file_problem(&full) {
            _ if !full.exists() => Some("not found".to_string()),
            Some(p) => Some(p.to_string()),
            None => None,
        };
        if let Some(problem) = problem {
            let shown = crate::error::path_text(&full);
            return Err(self.bad(format!("engine file {shown} {problem}")));
        }
        let original = read_text(&full)?;
        let mut spec = match changed_spec(&original, &full, fields, base, time_control) {
            Ok(spec) => spec,
            Err(message) => {
                // The file's own error is the file's; any other, the change's.
                EngineSpec::parse(&original, &full, time_control)?;
                return Err(self.bad(message));
            }
        };
        if !fields.iter().any(|(k, _)| k == "name") {
            let name = changed_name(spec.name(), fields);
            spec.rename(name);
        }
        let folder = full.parent().unwrap_or(Path::new(".")).to_path_buf();
        Ok((spec, folder))
    }

    fn load_program(
        &self,
        p: &Program,
        base: &Path,
        time_control: Option<Limit>,
    ) -> Result<EngineSpec> {
        let mut raw = RawExternal::new(&p.name(), &p.cmd, p.proto);
        raw.args.clone_from(&p.args);
        raw.working_dir = p.dir.as_ref().map(PathBuf::from);
        // Relative paths start from `base`, as a file's from its folder.
        let at = base.join("engine");
        let spec = EngineSpec::external(raw, Source::new(&at, ""), time_control)
            .map_err(|e| self.bad(wording(&e)))?;
        if let EngineSpec::External(x) = &spec {
            if !x.program_file().is_some_and(|f| f.is_file()) {
                return Err(self.bad(format!(
                    "cmd={}: no such program{}",
                    p.cmd,
                    if p.cmd.contains('/') { "" } else { " in PATH" }
                )));
            }
            if let Some(dir) = x.working_dir.as_ref().filter(|d| !d.is_dir()) {
                let shown = crate::error::path_text(dir);
                return Err(self.bad(format!("dir={shown}: no such folder")));
            }
        }
        Ok(spec)
    }
}

impl Program {
    /// `cmd=PROGRAM [arg=ARG]... proto=gtp|nboard [name=NAME] [dir=DIR]`,
    /// words split at blank space.
    fn parse(text: &str) -> std::result::Result<Program, String> {
        let (mut cmd, mut proto, mut name, mut dir) = (None, None, None, None);
        let mut args = Vec::new();
        for word in text.split_whitespace() {
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("{word:?} is not KEY=VALUE; an engine is written cmd=PROGRAM [arg=ARG]... proto=gtp|nboard [name=NAME] [dir=DIR]")
            })?;
            if value.is_empty() {
                return Err(format!("{key}= needs a value"));
            }
            let once = |slot: &mut Option<String>| match slot.replace(value.to_string()) {
                Some(_) => Err(format!("{key}= is given twice")),
                None => Ok(()),
            };
            match key {
                "cmd" => once(&mut cmd)?,
                "proto" => once(&mut proto)?,
                "name" => once(&mut name)?,
                "dir" => once(&mut dir)?,
                "arg" => args.push(value.to_string()),
                _ => return Err(format!("{key}= is not one of cmd, arg, proto, name, dir")),
            }
        }
        let cmd = cmd.ok_or("no cmd=PROGRAM: name the program to start")?;
        let proto = proto.ok_or("no proto=: give proto=gtp or proto=nboard")?;
        let proto = Protocol::ALL
            .into_iter()
            .find(|p| p.name() == proto)
            .ok_or_else(|| format!("proto={proto}: arena speaks gtp or nboard"))?;
        Ok(Program {
            cmd,
            args,
            proto,
            name,
            dir,
        })
    }

    /// Its name: as given, or the program's file stem.
    fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            Path::new(&self.cmd)
                .file_stem()
                .map_or_else(|| self.cmd.clone(), |s| s.to_string_lossy().into())
        })
    }
}

/// `FIELD=VALUE,FIELD=VALUE`: split at the commas outside brackets and
/// quotes (`limit=Clock(1000,10)` is one field).
fn split_fields(text: &str) -> std::result::Result<Vec<(String, String)>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut quoted, mut start) = (0usize, false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => depth = depth.saturating_sub(1),
            ',' if !quoted && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    let mut fields: Vec<(String, String)> = Vec::new();
    for part in parts {
        let (key, value) = part.split_once('=').ok_or_else(|| {
            format!("{part:?} is not FIELD=VALUE; e.g. engines/strong.ron:eval.weights=new.bin")
        })?;
        let key = key.trim();
        let path_ok = key
            .split('.')
            .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
        if !path_ok {
            return Err(format!(
                "{key:?} is not a field: name one as the file nests it, e.g. eval.weights"
            ));
        }
        if value.trim().is_empty() {
            return Err(format!("{key}= needs a value"));
        }
        if fields.iter().any(|(k, _)| k == key) {
            return Err(format!("{key}= is given twice"));
        }
        fields.push((key.to_string(), value.trim().to_string()));
    }
    Ok(fields)
}

/// The engine file `full`, whose text is `original`, with `fields` set
/// (values written relative to `base`; `time_control` standing in for a
/// missing limit), checked.
///
/// # Errors
/// What the file or the change makes wrong, in words, without a place.
fn changed_spec(
    original: &str,
    full: &Path,
    fields: &[(String, String)],
    base: &Path,
    time_control: Option<Limit>,
) -> std::result::Result<EngineSpec, String> {
    if first_word(original) == "External" {
        let raw: RawExternal = parse_ron(original, full).map_err(|e| wording(&e))?;
        let raw = set_all(raw, fields, base)?;
        return EngineSpec::external(raw, Source::new(full, original), time_control)
            .map_err(|e| wording(&e));
    }
    let raw: RawEngine = parse_ron(original, full).map_err(|e| wording(&e))?;
    let mut raw = set_all(raw, fields, base)?;
    if let Some(limit) = time_control {
        raw.set_default_limit(limit);
    }
    EngineConfig::check(raw, original, full)
        .map(|c| EngineSpec::Engine(Box::new(c)))
        .map_err(|e| wording(&e))
}

/// `raw` with `fields` (paths and written values, files relative to
/// `base`) set, in order.
///
/// # Errors
/// The first field that cannot be set so, in words.
fn set_all<R: Fields>(
    mut raw: R,
    fields: &[(String, String)],
    base: &Path,
) -> std::result::Result<R, String> {
    for (key, value) in fields {
        let value = FieldValue::Written { text: value, base };
        raw.set_field(key, value).map_err(|e| e.to_string())?;
    }
    Ok(raw)
}

/// `NAME+FIELD=VALUE...`: the name of an engine with `fields` changed,
/// each by its last part and a path value by its file stem
/// (`strong+weights=new`).
fn changed_name(name: &str, fields: &[(String, String)]) -> String {
    let mut out = name.to_string();
    for (key, value) in fields {
        let last = key.rsplit('.').next().unwrap_or(key);
        let shown: String = if is_path_field(last) {
            Path::new(value)
                .file_stem()
                .map_or_else(|| value.clone(), |s| s.to_string_lossy().into())
        } else {
            value
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(24)
                .collect()
        };
        out.push_str(&format!("+{last}={shown}"));
    }
    out
}

/// An error's words without its place: a config error's message, or the
/// error and its causes.
fn wording(e: &Error) -> String {
    if let Error::Config { message, .. } = e {
        return message.clone();
    }
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(text: &str) -> EngineArg {
        EngineArg::parse(text, Path::new("/nonexistent-base")).unwrap()
    }

    fn refused(text: &str) -> String {
        match EngineArg::parse(text, Path::new("/nonexistent-base")) {
            Err(Error::Usage { argument, message }) => {
                assert_eq!(argument.to_string(), text);
                message
            }
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_three_forms_are_told_apart() {
        assert_eq!(
            arg("engines/a.ron").file(),
            Some(Path::new("engines/a.ron"))
        );
        let changed = arg("e/strong.ron:eval.weights=w/new.bin,limit=Clock(1000, 10)");
        assert_eq!(
            changed.what,
            What::Changed {
                file: "e/strong.ron".into(),
                fields: vec![
                    ("eval.weights".into(), "w/new.bin".into()),
                    ("limit".into(), "Clock(1000, 10)".into())
                ]
            }
        );
        assert_eq!(changed.stem(), "strong+weights=new+limit=Clock_1000_10_");
        let p = arg("cmd=./bin/x arg=-l arg=1 proto=nboard");
        assert_eq!(p.stem(), "x");
        let What::Program(p) = p.what else { panic!() };
        assert_eq!(
            (p.args, p.proto),
            (vec!["-l".into(), "1".into()], Protocol::Nboard)
        );
        assert_eq!(arg("cmd=x proto=gtp name=my:engine").stem(), "my_engine");
        assert_eq!(arg("cmd=x proto=gtp name=a/b").stem(), "a_b");
        assert_eq!(arg("e.ron:name=n x").stem(), "n_x");
        // A program's argument may name a changed file.
        assert_eq!(
            arg("cmd=arena arg=serve arg=--engine arg=e.ron:tt_mib=1 proto=nboard").stem(),
            "arena"
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        for (text, says) in [
            ("cmd=x proto=uci", "proto=uci: arena speaks gtp or nboard"),
            ("proto=gtp arg=1", "no cmd=PROGRAM"),
            ("cmd=x", "no proto="),
            (
                "cmd=x proto=gtp tc=1",
                "tc= is not one of cmd, arg, proto, name, dir",
            ),
            ("cmd=x cmd=y proto=gtp", "cmd= is given twice"),
            ("cmd=x proto=gtp name=", "name= needs a value"),
            ("cmd=x proto=gtp nboard", "\"nboard\" is not KEY=VALUE"),
            ("e.ron:tt_mib", "\"tt_mib\" is not FIELD=VALUE"),
            ("e.ron:eval..w=1", "\"eval..w\" is not a field"),
            ("e.ron:a=1,a=2", "a= is given twice"),
            ("e.ron:a=", "a= needs a value"),
        ] {
            let message = refused(text);
            assert!(message.contains(says), "{text}: {message}");
        }
    }

    #[test]
    fn values_are_written_as_the_file_needs_them() {
        let base = Path::new("/b");
        let engine = |text: &str| -> RawEngine { parse_ron(text, Path::new("e.ron")).unwrap() };
        let set = |raw: &mut RawEngine, path: &str, text: &str| {
            raw.set_field(path, FieldValue::Written { text, base })
                .unwrap_or_else(|e| panic!("{path}={text}: {e}"));
        };
        let mut raw = engine(
            "Engine(name: \"old\", search: Pvs, eval: Features(weights: \"x\"), probcut: Some(\"q\"))",
        );
        set(&mut raw, "eval.weights", "w.bin");
        assert_eq!(raw.eval.weights(), Some(Path::new("/b/w.bin")));
        set(&mut raw, "probcut", "p.ron");
        assert_eq!(raw.probcut, Some(PathBuf::from("/b/p.ron")));
        set(&mut raw, "probcut", "None");
        assert_eq!(raw.probcut, None);
        set(&mut raw, "name", "new one");
        assert_eq!(raw.name, "new one");
        set(&mut raw, "tt_mib", "8");
        assert_eq!(raw.tt_mib, 8);
        set(&mut raw, "aspiration", "25");
        assert_eq!(raw.aspiration, Some(25));
        set(&mut raw, "limit", "Depth(3)");
        assert_eq!((raw.limit, raw.stated.limit), (Limit::Depth(3), true));
        // A file that leaves probcut out.
        let mut raw = engine("Engine(name: \"n\", search: Pvs)");
        set(&mut raw, "probcut", "p.ron");
        assert_eq!(raw.probcut, Some(PathBuf::from("/b/p.ron")));
        let mut x = RawExternal::new("x", "x", Protocol::Gtp);
        x.set_field(
            "limit",
            FieldValue::Written {
                text: "Depth(3)",
                base,
            },
        )
        .unwrap();
        assert_eq!(x.limit, Some(Limit::Depth(3)));
        assert_eq!(
            changed_name("s", &[("eval.weights".into(), "a/new.bin".into())]),
            "s+weights=new"
        );
    }
}
