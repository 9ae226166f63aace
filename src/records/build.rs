//! Which build played a run (`tournament.json`'s `build`): arena's version
//! and commit, the CPU features it found, and the SHA-256 of each external
//! engine's program. Shards (and workers) of one run must agree on all but
//! the CPU features, which differ between nodes and are for information.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The build of arena, and of its external engines, that played a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildInfo {
    /// arena's version (`CARGO_PKG_VERSION`).
    pub version: String,
    /// The git commit arena was built from, `-dirty` when tracked files
    /// differed from it; `None` when not built from a git checkout.
    #[serde(default)]
    pub commit: Option<String>,
    /// The CPU features this binary found at run time, of those its move
    /// generation and search can use (information only: nodes differ).
    #[serde(default)]
    pub cpu: Vec<String>,
    /// For each external engine, by name, the SHA-256 (hex) of its program
    /// file.
    #[serde(default)]
    pub engines: BTreeMap<String, String>,
}

/// arena's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit arena was built from, when known (`build.rs`).
pub const COMMIT: Option<&str> = option_env!("ARENA_COMMIT");

/// `0.1.0 (abc1234)`, `0.1.0 (abc1234-dirty)` or `0.1.0`: what
/// `arena --version` prints after the name (`build.rs` writes it).
pub const VERSION_LINE: &str = env!("ARENA_VERSION_LINE");

/// The CPU features of interest this machine has.
pub fn cpu_features() -> Vec<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let found = [
            ("popcnt", std::arch::is_x86_feature_detected!("popcnt")),
            ("bmi1", std::arch::is_x86_feature_detected!("bmi1")),
            ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
            ("lzcnt", std::arch::is_x86_feature_detected!("lzcnt")),
            ("avx2", std::arch::is_x86_feature_detected!("avx2")),
        ];
        found
            .iter()
            .filter(|(_, has)| *has)
            .map(|(name, _)| (*name).to_string())
            .collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// The SHA-256 (lower-case hex) of the file at `path`.
///
/// # Errors
/// The file cannot be read.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

impl BuildInfo {
    /// This binary's build, with the SHA-256 of each external engine's
    /// program: `(engine name, program file)` pairs, the file as found
    /// (resolved through `PATH` by the caller).
    ///
    /// # Errors
    /// A program that cannot be read, naming the engine and the file.
    pub fn current<'a>(
        programs: impl IntoIterator<Item = (&'a str, &'a Path)>,
    ) -> Result<BuildInfo> {
        let mut engines = BTreeMap::new();
        for (name, program) in programs {
            let sha = sha256_file(program).map_err(|e| {
                Error::Run(
                    format!(
                        "engine {name:?}: cannot read its program {} to record its SHA-256: {e}",
                        crate::error::path_text(program)
                    )
                    .into(),
                )
            })?;
            engines.insert(name.to_string(), sha);
        }
        Ok(BuildInfo {
            version: VERSION.to_string(),
            commit: COMMIT.map(str::to_string),
            cpu: cpu_features(),
            engines,
        })
    }

    /// arena's build as a user reads it: `arena 0.1.0 (commit abc…)`, or
    /// `arena 0.1.0 (commit unknown)`.
    pub fn arena(&self) -> String {
        format!(
            "arena {} (commit {})",
            self.version,
            self.commit.as_deref().unwrap_or("unknown")
        )
    }

    /// What differs between this build and `other`, this one's value first
    /// (`arena 0.1.0 (commit a) vs arena 0.1.0 (commit b)`, `engine "x"
    /// program SHA-256 … vs …`, joined by `; `); `None` when they are the
    /// same build. The CPU features are not compared.
    pub fn mismatch(&self, other: &BuildInfo) -> Option<String> {
        let mut differs = Vec::new();
        if self.version != other.version || self.commit != other.commit {
            differs.push(format!("{} vs {}", self.arena(), other.arena()));
        }
        let names: std::collections::BTreeSet<&String> =
            self.engines.keys().chain(other.engines.keys()).collect();
        for name in names {
            let (a, b) = (self.engines.get(name), other.engines.get(name));
            if a != b {
                let show =
                    |s: Option<&String>| s.map_or("none recorded", String::as_str).to_string();
                differs.push(format!(
                    "engine {name:?} program SHA-256 {} vs {}",
                    show(a),
                    show(b)
                ));
            }
        }
        (!differs.is_empty()).then(|| differs.join("; "))
    }
}

/// [`BuildInfo::mismatch`] of two records that may lack a build (folders
/// written before arena recorded it): two without one are alike, one
/// without against one with are not.
pub fn mismatch_of(a: Option<&BuildInfo>, b: Option<&BuildInfo>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => a.mismatch(b),
        (None, None) => None,
        (Some(a), None) => Some(format!("{} vs {NO_BUILD}", a.arena())),
        (None, Some(b)) => Some(format!("{NO_BUILD} vs {}", b.arena())),
    }
}

/// What a record without a build was written by.
const NO_BUILD: &str = "an arena that recorded no build";

#[cfg(test)]
mod tests {
    use super::*;

    fn build(commit: Option<&str>, engines: &[(&str, &str)]) -> BuildInfo {
        BuildInfo {
            version: "0.1.0".into(),
            commit: commit.map(str::to_string),
            cpu: vec!["popcnt".into()],
            engines: engines
                .iter()
                .map(|(n, s)| (n.to_string(), s.to_string()))
                .collect(),
        }
    }

    #[test]
    fn the_same_build_on_other_cpus_matches() {
        let a = build(Some("abc"), &[("edax", "11")]);
        let mut b = a.clone();
        b.cpu = vec!["popcnt".into(), "bmi2".into(), "avx2".into()];
        assert_eq!(a.mismatch(&b), None);
        assert_eq!(mismatch_of(Some(&a), Some(&b)), None);
        assert_eq!(mismatch_of(None, None), None);
    }

    #[test]
    fn another_commit_version_or_engine_is_named_with_both_values() {
        let a = build(Some("abc"), &[("edax", "11"), ("wzebra", "22")]);
        let b = build(Some("abc-dirty"), &[("edax", "33"), ("wzebra", "22")]);
        assert_eq!(
            a.mismatch(&b).as_deref(),
            Some("arena 0.1.0 (commit abc) vs arena 0.1.0 (commit abc-dirty); engine \"edax\" program SHA-256 11 vs 33")
        );
        let mut newer = a.clone();
        newer.version = "0.2.0".into();
        assert_eq!(
            a.mismatch(&newer).as_deref(),
            Some("arena 0.1.0 (commit abc) vs arena 0.2.0 (commit abc)")
        );
        let unknown = build(None, &[("edax", "11"), ("wzebra", "22")]);
        assert_eq!(
            unknown.mismatch(&a).as_deref(),
            Some("arena 0.1.0 (commit unknown) vs arena 0.1.0 (commit abc)")
        );
        let fewer = build(Some("abc"), &[("edax", "11")]);
        assert_eq!(
            a.mismatch(&fewer).as_deref(),
            Some("engine \"wzebra\" program SHA-256 22 vs none recorded")
        );
        assert_eq!(
            mismatch_of(None, Some(&a)).as_deref(),
            Some("an arena that recorded no build vs arena 0.1.0 (commit abc)")
        );
    }

    #[test]
    fn programs_are_hashed_and_an_unreadable_one_is_named() {
        let dir = std::env::temp_dir().join(format!("arena-build-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("engine.sh");
        std::fs::write(&program, "abc").unwrap();
        let b = BuildInfo::current([("e", program.as_path())]).unwrap();
        // SHA-256("abc"), FIPS 180-2's example.
        assert_eq!(
            b.engines["e"],
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(b.version, VERSION);
        assert_eq!(b.commit.as_deref(), COMMIT);
        assert!(b
            .cpu
            .iter()
            .all(|f| ["popcnt", "bmi1", "bmi2", "lzcnt", "avx2"].contains(&f.as_str())));
        let missing = dir.join("gone");
        let e = BuildInfo::current([("e", missing.as_path())])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("engine \"e\": cannot read its program "),
            "{e}"
        );
        assert!(e.contains("gone"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_version_line_names_the_version_and_the_commit() {
        match COMMIT {
            Some(c) => {
                let dirty = if c.ends_with("-dirty") { "-dirty" } else { "" };
                assert_eq!(VERSION_LINE, format!("{VERSION} ({}{dirty})", &c[..7]));
            }
            None => assert_eq!(VERSION_LINE, VERSION),
        }
    }

    #[test]
    fn a_record_reads_without_optional_fields() {
        let b: BuildInfo = serde_json::from_str(r#"{"version": "0.1.0"}"#).unwrap();
        assert_eq!(
            b,
            BuildInfo {
                version: "0.1.0".into(),
                commit: None,
                cpu: vec![],
                engines: BTreeMap::new()
            }
        );
    }
}
