//! A tournament's engines, loaded from its config: files relative to the
//! config, inline ones checked against the config's text, each with its
//! fingerprint (for the config hash) and the files it reads.

use crate::engine::{EngineArg, EngineConfig, EngineSpec, RawEngine};
use crate::error::Result;
use crate::search::Limit;
use crate::util::{Source, Sourced};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// An engine of a tournament: a file, or written inline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum EngineRef {
    /// An engine file, relative to the config file.
    Path(PathBuf),
    /// An engine written in the config (weights paths relative to the
    /// config file).
    Inline(Box<RawEngine>),
    /// An engine as `arena match` takes it (see [`EngineArg`]): a file
    /// with fields changed, `"strong.ron:eval.weights=new.bin"`, or a
    /// program, `"cmd=gtp-rhino arg=-l arg=1 proto=gtp"` (paths relative
    /// to the config file).
    Arg(String),
    /// One engine file over every combination of field values, each
    /// combination a player named by its values, the first axis varying
    /// slowest: `Matrix(base: "pvs.ron", axes: [("search", ["Pvs",
    /// "MtdF"]), ("ordering", ["[]", "[HashMove, Killers]"])])` is four
    /// engines. Values are RON text, as in `FILE.ron:FIELD=VALUE`.
    Matrix {
        /// The engine file, relative to the config file.
        base: PathBuf,
        /// Field paths and the values each takes.
        axes: Vec<(String, Vec<String>)>,
    },
}

impl EngineRef {
    /// How many engines the entry is: a matrix's combinations (at most
    /// `usize::MAX`), else one.
    pub fn count(&self) -> usize {
        match self {
            EngineRef::Matrix { axes, .. } => axes
                .iter()
                .fold(1usize, |n, (_, v)| n.saturating_mul(v.len())),
            EngineRef::Path(_) | EngineRef::Inline(_) | EngineRef::Arg(_) => 1,
        }
    }
}

/// The engines of a matrix entry (`i`, with base file `base` and `axes`),
/// as changed engine files, in order: every combination, the first axis
/// varying slowest.
fn matrix(
    src: &Source<'_>,
    i: usize,
    base: &Path,
    axes: &[(String, Vec<String>)],
) -> Result<Vec<EngineArg>> {
    if axes.is_empty() || axes.iter().any(|(_, values)| values.is_empty()) {
        return Err(src.entry("engines", i).field(
            "axes",
            "a matrix needs at least one axis, each with at least one value",
        ));
    }
    let twice = (1..axes.len()).find(|&j| axes[..j].iter().any(|(f, _)| *f == axes[j].0));
    if let Some((field, _)) = twice.map(|j| &axes[j]) {
        return Err(src
            .entry("engines", i)
            .field("axes", format!("the field {field:?} is an axis twice")));
    }
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (field, values) in axes {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((field.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    Ok(combos
        .into_iter()
        .map(|fields| EngineArg::changed(base, fields))
        .collect())
}

/// The engines of a config, loaded.
pub(super) struct Loaded {
    /// The engines, in config order, with unique names.
    pub engines: Vec<EngineSpec>,
    /// Each one's fingerprint, for the config hash.
    pub fingerprints: Vec<serde_json::Value>,
    /// The files they read: engine files, weights, ProbCut models,
    /// external programs.
    pub inputs: Vec<PathBuf>,
    /// Each one's folder, where its relative paths start.
    pub folders: Vec<PathBuf>,
}

/// An engine of the list as loaded: an entry as written, or one engine of
/// a matrix entry.
enum Entry<'a> {
    Written(&'a EngineRef),
    Changed(EngineArg),
}

/// Loads every engine (files relative to the config, inline ones checked
/// against the config's text, matrices expanded), with the fingerprint of
/// each for the config hash and the files each reads; names must be
/// unique; there must be at least `least`.
pub(super) fn load_engines(
    src: &Source<'_>,
    refs: &[EngineRef],
    (time_control, forced): (Option<Limit>, Option<Limit>),
    least: usize,
) -> Result<Loaded> {
    // A forced limit stands in for a missing one too.
    let time_control = forced.or(time_control);
    let mut entries: Vec<(usize, Entry<'_>)> = Vec::new();
    for (i, e) in refs.iter().enumerate() {
        match e {
            EngineRef::Matrix { base, axes } => entries.extend(
                matrix(src, i, base, axes)?
                    .into_iter()
                    .map(|arg| (i, Entry::Changed(arg))),
            ),
            written => entries.push((i, Entry::Written(written))),
        }
    }
    if entries.len() < least {
        return Err(src.field(
            "engines",
            format!(
                "a tournament needs at least {least} engines, got {}",
                entries.len()
            ),
        ));
    }
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut fingerprints = Vec::new();
    let (mut inputs, mut folders) = (Vec::new(), Vec::new());
    // The files loaded so far: one file listed twice is self-play.
    let mut files: Vec<Option<PathBuf>> = Vec::new();
    for (i, entry) in &entries {
        let (mut config, weights_base, file) = match entry {
            Entry::Written(e) => load_engine(src, *i, e, time_control)?,
            Entry::Changed(arg) => {
                let (spec, base) = arg
                    .load(src.base(), time_control)
                    .map_err(|e| placed(src, *i, e))?;
                (spec, base, None)
            }
        };
        if file.is_some() && files.contains(&file) {
            self_play_name(&mut config, &engines);
        }
        if engines.iter().any(|o| o.name() == config.name()) {
            return Err(src.entry("engines", *i).field(
                "engines",
                format!(
                    "two engines are named {:?}; names must be unique (they label results)",
                    config.name()
                ),
            ));
        }
        let arg_file = arg_file(src, *i, entry)?;
        inputs.extend(file.iter().chain(&arg_file).cloned());
        folders.push(weights_base.clone());
        inputs.extend(config.inputs(&weights_base));
        files.push(file);
        if let Some(l) = forced {
            config.force_limit(l);
        }
        fingerprints.push(config.fingerprint(&weights_base));
        engines.push(config);
    }
    Ok(Loaded {
        engines,
        fingerprints,
        inputs,
        folders,
    })
}

/// An error of an engine argument (`Arg`) or a matrix's engine, which on
/// the command line would be a usage error naming the argument, placed at
/// engine `i` of the config instead (exit code 1); other errors (a bad
/// engine file, naming its own file and line) as they are.
fn placed(src: &Source<'_>, i: usize, err: crate::error::Error) -> crate::error::Error {
    match err {
        crate::error::Error::Usage { argument, message } => src.entry("engines", i).field(
            "engines",
            format!("engine {}: {argument}: {message}", i + 1),
        ),
        other => other,
    }
}

/// The engine file of a changed file or an argument.
fn arg_file(src: &Source<'_>, i: usize, entry: &Entry<'_>) -> Result<Option<PathBuf>> {
    Ok(match entry {
        Entry::Written(EngineRef::Arg(text)) => EngineArg::parse(text, src.base())
            .map_err(|e| placed(src, i, e))?
            .path()
            .map(|p| src.base().join(p)),
        Entry::Changed(arg) => arg.path().map(|p| src.base().join(p)),
        Entry::Written(_) => None,
    })
}

/// Engine `i` of the list (`time_control` standing in for a missing
/// limit), the folder its relative paths start from, and its file (made
/// canonical) when it is a file as written.
fn load_engine(
    src: &Source<'_>,
    i: usize,
    e: &EngineRef,
    time_control: Option<Limit>,
) -> Result<(EngineSpec, PathBuf, Option<PathBuf>)> {
    match e {
        EngineRef::Path(p) => load_file(src, i, p, time_control),
        EngineRef::Inline(r) => {
            let mut raw = RawEngine::clone(r);
            if let Some(limit) = time_control {
                raw.set_default_limit(limit);
            }
            let c = EngineConfig::try_from(Sourced {
                raw,
                source: src.entry("engines", i),
            })?;
            Ok((
                EngineSpec::Engine(Box::new(c)),
                src.base().to_path_buf(),
                None,
            ))
        }
        EngineRef::Arg(text) => {
            let arg = EngineArg::parse(text, src.base()).map_err(|e| placed(src, i, e))?;
            if let Some(p) = arg.file() {
                return load_file(src, i, p, time_control);
            }
            let (spec, base) = arg
                .load(src.base(), time_control)
                .map_err(|e| placed(src, i, e))?;
            Ok((spec, base, None))
        }
        EngineRef::Matrix { .. } => Err(crate::error::Error::Internal(
            "a matrix entry is expanded before it loads".into(),
        )),
    }
}

/// Engine `i`, the file `p` (relative to the config), as [`load_engine`].
fn load_file(
    src: &Source<'_>,
    i: usize,
    p: &Path,
    time_control: Option<Limit>,
) -> Result<(EngineSpec, PathBuf, Option<PathBuf>)> {
    let full = src.base().join(p);
    let shown = crate::error::path_text(&full);
    let problem = match crate::util::text::file_problem(&full) {
        _ if !full.exists() => Some("not found".to_string()),
        Some(p) => Some(p.to_string()),
        None => None,
    };
    if let Some(problem) = problem {
        return Err(src.entry("engines", i).field(
            "engines",
            format!("engine {}: engine file {shown} {problem}", i + 1),
        ));
    }
    let c = EngineSpec::load(&full, time_control)?;
    let folder = full.parent().unwrap_or(Path::new(".")).to_path_buf();
    Ok((c, folder, Some(full.canonicalize().unwrap_or(full))))
}

/// An engine file listed again plays as `NAME-2` (`-3`, …): the first
/// name not taken.
fn self_play_name(config: &mut EngineSpec, taken: &[EngineSpec]) {
    let base = config.name().to_string();
    let name = (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|n| taken.iter().all(|o| o.name() != n))
        .expect("a free name");
    config.rename(name);
}
