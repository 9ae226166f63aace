//! The weights file: parsing and checking it (sparse tables, every pattern
//! in every stage), and writing one (zero weights left out).

use super::set::{OFFSETS, SET, STAGE_SIZE};
use super::{Patterns, StageWeights};
use crate::error::{Error, Result};
use crate::util::{check_stages, parse_ron};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

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
    tables: BTreeMap<String, Vec<(u64, f64)>>,
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
        let min_empties: Vec<u32> = raw.stages.iter().map(|s| s.min_empties).collect();
        check_stages(&min_empties, text, path)?;
        let mut stages = Vec::new();
        for (n, s) in raw.stages.iter().enumerate() {
            let stage = n + 1;
            for (field, v) in [("bias", s.bias), ("mobility", s.mobility)] {
                if !v.is_finite() || v.abs() > MAX_SCALAR {
                    return Err(Error::config_field_nth(
                        path,
                        text,
                        field,
                        n,
                        format!("stage {stage}: {v} is not a finite number of at most {MAX_SCALAR} in size"),
                    ));
                }
            }
            let bad = |msg: String| Err(Error::config_field_nth(path, text, "tables", n, msg));
            if let Some(name) = s.tables.keys().find(|k| !SET.iter().any(|p| p.name == *k)) {
                let names: Vec<&str> = SET.iter().map(|p| p.name).collect();
                return bad(format!(
                    "stage {stage}: unknown pattern {name:?} (the patterns are {})",
                    names.join(", ")
                ));
            }
            let mut tables = vec![0i16; STAGE_SIZE];
            for (k, p) in SET.iter().enumerate() {
                let Some(entries) = s.tables.get(p.name) else {
                    return bad(format!(
                        "stage {stage}: pattern {:?} is missing (list it, empty if all its weights are 0)",
                        p.name
                    ));
                };
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
                            "stage {stage}, pattern {:?}, index {index}: weight {w} is not a whole number of at most {MAX_TABLE_WEIGHT} in size",
                            p.name
                        ));
                    }
                    set[index as usize] = true;
                    tables[OFFSETS[k] + index as usize] = w as i16;
                }
            }
            stages.push(StageWeights {
                bias: s.bias,
                mobility: s.mobility,
                tables,
            });
        }
        Ok(Patterns::new(min_empties, stages))
    }
}

/// The weights file for `stages`, with `header` lines as comments and a
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
        let _ = writeln!(
            out,
            "        (min_empties: {m}, bias: {:?}, mobility: {:?}, tables: {{",
            s.bias, s.mobility
        );
        for (k, p) in SET.iter().enumerate() {
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
