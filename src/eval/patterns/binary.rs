//! The binary form of a pattern weights file (`.bin`): the same stages and
//! tables as the RON form, dense, little-endian, read in a few
//! milliseconds where the RON form of millions of weights takes a few
//! hundred. The RON form stays the one people read and diff; the binary
//! one is what large trained sets ship as. `arena eval convert` turns one
//! into the other, both ways, without loss.
//!
//! Layout:
//! ```text
//! "ARENAPW1" or "ARENAPW2"         magic and format version
//! u32 patterns, then per pattern:  u8 name length, name, u8 squares
//! u32 stages, then per stage:      u32 min_empties, f64 bias, f64 mobility,
//!                                  (version 2 only) f64 parity,
//!                                  the patterns' table weights as i16
//! u64 FNV-1a of every byte before it
//! ```
//! Weights without a parity term are written in version 1, so files made
//! before it existed stay byte for byte what they were; version 1 reads
//! with a parity weight of 0.
//!
//! The pattern list must be the first ten patterns of this build's set, or
//! more of them, in its order (a file of weights without `row_4` lists the
//! ten, as files did before it existed): a file made for another set is
//! refused, not misread.

use super::file::{MAX_SCALAR, MAX_TABLE_WEIGHT};
use super::set::{stage_size, FIRST_PATTERNS, SET};
use super::{Patterns, StageWeights};
use crate::error::{Error, Result};
use crate::util::fnv1a;
use std::path::Path;

/// The first bytes of a binary weights file of format version 1 (no
/// parity weight).
pub const MAGIC: &[u8; 8] = b"ARENAPW1";

/// The first bytes of a binary weights file of format version 2 (a parity
/// weight per stage).
pub const MAGIC_2: &[u8; 8] = b"ARENAPW2";

/// Whether `bytes` start like a binary weights file (either version).
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC) || bytes.starts_with(MAGIC_2)
}

impl Patterns {
    /// The binary form of these weights.
    pub fn to_binary(&self) -> Vec<u8> {
        let parity = self.has_parity();
        let size = stage_size(self.patterns);
        let mut out = Vec::with_capacity(64 + self.stages().count() * (28 + 2 * size));
        out.extend_from_slice(if parity { MAGIC_2 } else { MAGIC });
        out.extend_from_slice(&(self.patterns as u32).to_le_bytes());
        for p in self.patterns() {
            out.push(p.name.len() as u8);
            out.extend_from_slice(p.name.as_bytes());
            out.push(p.squares.len() as u8);
        }
        out.extend_from_slice(&(self.stages().count() as u32).to_le_bytes());
        for (min_empties, w) in self.stages() {
            out.extend_from_slice(&min_empties.to_le_bytes());
            out.extend_from_slice(&w.bias.to_le_bytes());
            out.extend_from_slice(&w.mobility.to_le_bytes());
            if parity {
                out.extend_from_slice(&w.parity.to_le_bytes());
            }
            for &t in &w.tables {
                out.extend_from_slice(&t.to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the binary form (`path` only names it in errors).
    ///
    /// # Errors
    /// [`Error::Binary`] naming the file and the byte offset: a wrong
    /// magic, a file made for another pattern set, a truncated or damaged
    /// file (checksum), bad stage bounds, or a weight out of range.
    pub fn from_binary(bytes: &[u8], path: &Path) -> Result<Patterns> {
        let mut r = Reader { bytes, at: 0, path };
        if !is_binary(bytes) {
            return Err(r.error(
                0,
                "not a binary weights file (it does not start with ARENAPW1 or ARENAPW2)",
            ));
        }
        let parity = bytes.starts_with(MAGIC_2);
        if bytes.len() < MAGIC.len() + 8 {
            return Err(r.error(bytes.len(), "the file ends early (truncated?)"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body).to_le_bytes() != sum {
            return Err(r.error(
                body.len(),
                "the checksum does not match: the file is damaged or truncated",
            ));
        }
        r.bytes = body;
        r.at = MAGIC.len();
        let patterns = read_pattern_set(&mut r)?;
        let (min_empties, stages) = read_stages(&mut r, parity, stage_size(patterns))?;
        if r.at != body.len() {
            return Err(r.error(r.at, "unexpected bytes after the last stage"));
        }
        Ok(Patterns::new(min_empties, stages))
    }
}

/// A cursor over the file's bytes, whose errors name the file and offset.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl Reader<'_> {
    fn error(&self, offset: usize, message: impl Into<String>) -> Error {
        Error::Binary {
            path: self.path.to_path_buf(),
            offset,
            message: message.into(),
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&[u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(self.error(self.at, format!("{what}: the file ends early (truncated?)")));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f64(&mut self, what: &str) -> Result<f64> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(f64::from_le_bytes(a))
    }
}

/// The file's pattern list, which must be the first ten or more of this
/// build's set, in order: how many.
fn read_pattern_set(r: &mut Reader<'_>) -> Result<usize> {
    let start = r.at;
    let count = r.u32("patterns")? as usize;
    let mut names = Vec::new();
    let mut same = (FIRST_PATTERNS..=SET.len()).contains(&count);
    for k in 0..count.min(64) {
        let len = r.u8("pattern name")? as usize;
        let name = String::from_utf8_lossy(r.take(len, "pattern name")?).into_owned();
        let squares = r.u8("pattern squares")? as usize;
        same &= SET
            .get(k)
            .is_some_and(|p| p.name == name && p.squares.len() == squares);
        names.push(name);
    }
    if !same {
        let ours: Vec<&str> = SET.iter().map(|p| p.name).collect();
        return Err(r.error(
            start,
            format!(
                "made for the patterns [{}], this arena evaluates [{}] (the first {FIRST_PATTERNS} and any after them, in order)",
                names.join(", "),
                ours.join(", ")
            ),
        ));
    }
    Ok(count)
}

/// The stages (with a parity weight each when `with_parity`, `size` table
/// weights each): bounds strictly decreasing to 0, scalars finite and in
/// range, table weights within the table's range.
fn read_stages(
    r: &mut Reader<'_>,
    with_parity: bool,
    size: usize,
) -> Result<(Vec<u32>, Vec<StageWeights>)> {
    let at = r.at;
    let count = r.u32("stages")? as usize;
    if count == 0 || count > 61 {
        return Err(r.error(at, format!("{count} stages: give 1 to 61")));
    }
    let (mut bounds, mut stages) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for n in 1..=count {
        let at = r.at;
        let min_empties = r.u32("min_empties")?;
        let last = bounds.last().copied();
        if last.is_some_and(|l| min_empties >= l) || (n == count && min_empties != 0) {
            return Err(r.error(
                at,
                format!("stage {n}: min_empties {min_empties}: stages must be strictly decreasing, the last at 0"),
            ));
        }
        let mut scalar = |field: &str| -> Result<f64> {
            let at = r.at;
            let v = r.f64(field)?;
            if !v.is_finite() || v.abs() > MAX_SCALAR {
                return Err(r.error(at, format!("stage {n}: {field}: {v} is not a finite number of at most {MAX_SCALAR} in size")));
            }
            Ok(v)
        };
        let (bias, mobility) = (scalar("bias")?, scalar("mobility")?);
        let parity = if with_parity { scalar("parity")? } else { 0.0 };
        let at = r.at;
        let raw = r.take(2 * size, "tables")?;
        let tables: Vec<i16> = raw
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        if let Some(i) = tables
            .iter()
            .position(|&t| f64::from(t).abs() > MAX_TABLE_WEIGHT)
        {
            return Err(r.error(
                at + 2 * i,
                format!("stage {n}: table weight {} is out of range", tables[i]),
            ));
        }
        bounds.push(min_empties);
        stages.push(StageWeights {
            bias,
            mobility,
            parity,
            tables,
        });
    }
    Ok((bounds, stages))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Board;
    use crate::game::{Game, MoveList};

    fn shipped() -> Patterns {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/weights/patterns-fit.ron");
        Patterns::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
    }

    #[test]
    fn the_shipped_binary_file_holds_the_shipped_ron_weights() {
        let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/weights/patterns-fit.bin");
        assert_eq!(Patterns::load(&bin).unwrap(), shipped());
    }

    #[test]
    fn the_binary_form_reads_back_the_same_weights_and_evaluations() {
        let ron = shipped();
        let bin = ron.to_binary();
        let back = Patterns::from_binary(&bin, Path::new("x.bin")).unwrap();
        assert_eq!(back.to_binary(), bin);
        assert!(ron.stages().eq(back.stages()));
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut moves = MoveList::new();
        let mut b = Board::start();
        while !b.is_over() {
            assert_eq!(ron.evaluate(&b), back.evaluate(&b));
            moves.clear();
            b.generate_moves(&mut moves);
            b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
        }
    }

    #[test]
    fn weights_without_parity_keep_the_first_form_byte_for_byte() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/weights/patterns-train.bin");
        let bytes = std::fs::read(&path).unwrap();
        let w = Patterns::load(&path).unwrap();
        assert!(!w.has_parity());
        assert!(w.stages().all(|(_, s)| s.parity == 0.0));
        assert_eq!(w.to_binary(), bytes);
    }

    #[test]
    fn parity_weights_take_the_second_form_and_read_back() {
        let base = shipped();
        let bounds: Vec<u32> = base.stages().map(|s| s.0).collect();
        let stages: Vec<StageWeights> = base
            .stages()
            .enumerate()
            .map(|(n, (_, w))| StageWeights {
                parity: 25.5 * n as f64 - 40.0,
                ..w.clone()
            })
            .collect();
        let with = Patterns::new(bounds, stages);
        let bin = with.to_binary();
        assert!(bin.starts_with(MAGIC_2));
        let back = Patterns::from_binary(&bin, Path::new("p.bin")).unwrap();
        assert_eq!(back, with);
        // The RON form carries it too.
        let ron = super::super::weights_file(
            &back.stages().map(|s| s.0).collect::<Vec<_>>(),
            &back.stages().map(|s| s.1.clone()).collect::<Vec<_>>(),
            &[],
            &[],
        );
        assert!(ron.contains("parity: -40.0, "), "{}", &ron[..200]);
        assert_eq!(Patterns::parse(&ron, Path::new("p.ron")).unwrap(), with);
        // And it moves the score by its weight, with the sign of the
        // empties' parity: the start has 60 empties (even), so -(-40),
        // give or take the rounding of the scalar terms to centidiscs.
        let b = Board::start();
        let moved = with.evaluate(&b) - base.evaluate(&b);
        assert!((39..=41).contains(&moved), "{moved}");
        // `arena eval` shows the term only for weights that have it.
        let term = |p: &Patterns| {
            p.explain(&b)
                .into_iter()
                .find(|t| t.name == "parity")
                .map(|t| (t.value, t.weight))
        };
        assert_eq!(term(&with), Some((-1.0, -40.0)));
        assert_eq!(term(&base), None);
        // A parity weight out of range is refused, naming its byte.
        let mut bad = bin[..bin.len() - 8].to_vec();
        let at = bad.len() - with.stages().count() * (2 * stage_size(FIRST_PATTERNS) + 28) + 20;
        bad[at..at + 8].copy_from_slice(&f64::NAN.to_le_bytes());
        let sum = fnv1a(&bad);
        bad.extend_from_slice(&sum.to_le_bytes());
        let e = Patterns::from_binary(&bad, Path::new("p.bin"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "p.bin: byte {at}: stage 1: parity: {}",
                "NaN is not a finite number of at most 100000 in size"
            )
        );
    }

    #[test]
    fn a_damaged_or_foreign_file_is_an_error_naming_the_byte() {
        let bin = shipped().to_binary();
        let p = Path::new("w.bin");
        let e = |b: &[u8]| Patterns::from_binary(b, p).unwrap_err().to_string();
        assert_eq!(
            e(b"Patterns("),
            "w.bin: byte 0: not a binary weights file (it does not start with ARENAPW1 or ARENAPW2)"
        );
        let cut = e(&bin[..bin.len() / 2]);
        assert!(cut.contains("checksum does not match"), "{cut}");
        let mut flipped = bin.clone();
        flipped[1000] ^= 1;
        assert!(e(&flipped).contains("damaged"));
        // Another pattern set (a renamed pattern), checksum recomputed.
        let mut other = bin[..bin.len() - 8].to_vec();
        other[13] = b'X';
        let sum = fnv1a(&other);
        other.extend_from_slice(&sum.to_le_bytes());
        let foreign = e(&other);
        assert!(
            foreign.starts_with("w.bin: byte 8: made for the patterns [Xdge_x,"),
            "{foreign}"
        );
    }
}
