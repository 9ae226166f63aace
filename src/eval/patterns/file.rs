//! The weights file: parsing and checking it (sparse tables, the same
//! patterns in every stage: the first ten, and the later ones a file
//! lists), and writing one (zero weights left out).

use super::set::{patterns_of, stage_size, Pattern, FIRST_PATTERNS, OFFSETS, SET};
use super::{Patterns, StageWeights};
use crate::error::Result;
use crate::eval::stages::{StageAt, StageBound, Staged};
use crate::util::parse_ron;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Largest table weight in size.
pub const MAX_TABLE_WEIGHT: f64 = 32767.0;

/// Largest scalar weight in size.
pub const MAX_SCALAR: f64 = 1e5;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Patterns")]
struct RawFile {
    stages: Vec<RawStage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStage {
    min_empties: u32,
    bias: f64,
    mobility: f64,
    #[serde(default)]
    parity: f64,
    tables: Tables,
}

/// A stage's `tables`: pattern name to its sparse `(index, weight)` list.
/// A name given twice is an error (a map would keep the last silently).
struct Tables(BTreeMap<String, Vec<(u64, f64)>>);

impl std::ops::Deref for Tables {
    type Target = BTreeMap<String, Vec<(u64, f64)>>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Tables {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Tables, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Tables;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map from pattern names to (index, weight) lists")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Tables, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((name, entries)) = map.next_entry::<String, Vec<(u64, f64)>>()? {
                    if out.contains_key(&name) {
                        return Err(serde::de::Error::custom(format!(
                            "pattern `{name}` is given twice in one stage's tables"
                        )));
                    }
                    out.insert(name, entries);
                }
                Ok(Tables(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl StageBound for RawStage {
    fn min_empties(&self) -> u32 {
        self.min_empties
    }
}

impl Patterns {
    /// Parses a weights file (`path` only names it in errors).
    ///
    /// # Errors
    /// Malformed RON, bad stage bounds, a missing or unknown pattern, an
    /// index out of range or listed twice, a weight that is not finite or
    /// too large, each naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<Patterns> {
        let raw: RawFile = parse_ron(text, path)?;
        // The file's patterns: the first ten, and every one up to the last
        // that any stage lists (each stage must then list them all).
        let patterns = (FIRST_PATTERNS..SET.len())
            .rev()
            .find(|&k| {
                raw.stages
                    .iter()
                    .any(|s| s.tables.contains_key(SET[k].name))
            })
            .map_or(FIRST_PATTERNS, |k| k + 1);
        let stages = Staged::parse(&raw.stages, text, path, |s, at| {
            stage_weights(s, at, patterns)
        })?;
        Ok(Patterns {
            stages: Arc::new(stages),
            patterns,
        })
    }
}

/// One stage's weights, checked: finite scalars, and each of the first
/// `patterns` patterns listed (no unknown one), its table read by
/// [`read_table`].
fn stage_weights(s: &RawStage, at: &StageAt, patterns: usize) -> Result<StageWeights> {
    let stage = at.number();
    for (field, v) in [
        ("bias", s.bias),
        ("mobility", s.mobility),
        ("parity", s.parity),
    ] {
        if !v.is_finite() || v.abs() > MAX_SCALAR {
            return Err(at.error(
                field,
                format!(
                    "stage {stage}: {} is not a finite number of at most {MAX_SCALAR} in size",
                    crate::util::text::short_number(v)
                ),
            ));
        }
    }
    if let Some(name) = s.tables.keys().find(|k| !SET.iter().any(|p| p.name == *k)) {
        let names: Vec<&str> = SET.iter().map(|p| p.name).collect();
        return Err(at.error(
            "tables",
            format!(
                "stage {stage}: unknown pattern {name:?} (the patterns are {})",
                names.join(", ")
            ),
        ));
    }
    let mut tables = vec![0i16; stage_size(patterns)];
    for (k, p) in SET.iter().enumerate().take(patterns) {
        let Some(entries) = s.tables.get(p.name) else {
            let why = if k < FIRST_PATTERNS {
                "list it, empty if all its weights are 0"
            } else {
                "another stage lists it: list it in every stage, empty if all its weights are 0"
            };
            return Err(at.error(
                "tables",
                format!("stage {stage}: pattern {:?} is missing ({why})", p.name),
            ));
        };
        read_table(p, entries, at, &mut tables[OFFSETS[k]..OFFSETS[k + 1]])?;
    }
    Ok(StageWeights {
        bias: s.bias,
        mobility: s.mobility,
        parity: s.parity,
        tables,
    })
}

/// Writes pattern `p`'s sparse `(index, weight)` entries into its `table`:
/// each index in range and listed once, each weight a whole number that
/// fits the table.
fn read_table(p: &Pattern, entries: &[(u64, f64)], at: &StageAt, table: &mut [i16]) -> Result<()> {
    let stage = at.number();
    let bad = |msg: String| Err(at.error("tables", msg));
    let mut set = vec![false; p.size()];
    for &(index, w) in entries {
        if index >= p.size() as u64 {
            return bad(format!(
                "stage {stage}, pattern {:?}: index {index} is out of range (3^{} = {} configurations)",
                p.name,
                p.squares.len(),
                p.size()
            ));
        }
        if set[index as usize] {
            return bad(format!(
                "stage {stage}, pattern {:?}: index {index} is listed twice",
                p.name
            ));
        }
        if !w.is_finite() || w.abs() > MAX_TABLE_WEIGHT || w.fract() != 0.0 {
            return bad(format!(
                "stage {stage}, pattern {:?}, index {index}: weight {} is not a whole number of at most {MAX_TABLE_WEIGHT} in size",
                p.name,
                crate::util::text::short_number(w)
            ));
        }
        set[index as usize] = true;
        table[index as usize] = w as i16;
    }
    Ok(())
}

/// The weights file for `stages` (of the patterns their tables hold, as
/// [`Patterns::new`] reads them), with `header` lines as comments and a
/// comment per stage from `notes`; zero weights are left out.
pub fn weights_file(
    min_empties: &[u32],
    stages: &[StageWeights],
    notes: &[String],
    header: &[String],
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for h in header {
        let _ = writeln!(out, "// {h}");
    }
    out.push_str("Patterns(\n    stages: [\n");
    for (n, (m, s)) in min_empties.iter().zip(stages).enumerate() {
        if let Some(note) = notes.get(n) {
            let _ = writeln!(out, "        // {note}");
        }
        // `parity` only when weighed, so that files of weights without it
        // read and write as before it existed.
        let parity = if s.parity == 0.0 {
            String::new()
        } else {
            format!("parity: {:?}, ", s.parity)
        };
        let _ = writeln!(
            out,
            "        (min_empties: {m}, bias: {:?}, mobility: {:?}, {parity}tables: {{",
            s.bias, s.mobility
        );
        let patterns = patterns_of(s.tables.len()).expect("tables of a pattern set");
        for (k, p) in SET.iter().enumerate().take(patterns) {
            let _ = write!(out, "            \"{}\": [", p.name);
            let mut first = true;
            for (i, &w) in s.tables[OFFSETS[k]..OFFSETS[k + 1]].iter().enumerate() {
                if w != 0 {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    let _ = write!(out, "({i},{w})");
                }
            }
            out.push_str("],\n");
        }
        out.push_str("        }),\n");
    }
    out.push_str("    ],\n)\n");
    out
}
