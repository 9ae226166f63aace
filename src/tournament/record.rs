//! A results folder's record, `tournament.json`: read and checked as a run
//! of arena (its engines, shard, book, length and, for a tune, its
//! settings), naming the file and the field of what is wrong.

use super::schedule;
use crate::error::{Error, Result};
use crate::records::{Format, Shard, TournamentInfo};
use std::path::Path;

/// Most openings a `tournament.json` may say its book has (its schedule's
/// opening order is built in memory when its journal is checked).
const MAX_BOOK: usize = 100_000_000;

/// Reads `tournament.json` from a results folder.
///
/// # Errors
/// I/O or a malformed file.
pub fn read_info(dir: &Path) -> Result<TournamentInfo> {
    let path = dir.join("tournament.json");
    let text = crate::util::text::read_text(&path)?;
    let info: TournamentInfo = serde_json::from_str(&text)
        .map_err(|e| Error::config_at(&path, e.line(), e.column(), e.to_string()))?;
    for (i, name) in info.engines.iter().enumerate() {
        if info.engines[..i].contains(name) {
            return Err(Error::config_at(
                &path,
                0,
                0,
                format!("engines: {name:?} is listed twice"),
            ));
        }
    }
    if info.shard != "merged" && Shard::parse(&info.shard).is_err() {
        return Err(Error::config_at(
            &path,
            0,
            0,
            format!("shard: {:?} is not K/N or \"merged\"", info.shard),
        ));
    }
    if info.book.openings == 0 || info.book.openings > MAX_BOOK {
        return Err(Error::config_at(
            &path,
            0,
            0,
            format!(
                "book: {} openings is not a book a run plays (1 to {MAX_BOOK})",
                info.book.openings
            ),
        ));
    }
    if info.engines.len() < 2 || info.total_pairs > schedule::MAX_PAIRS {
        return Err(Error::config_at(
            &path,
            0,
            0,
            format!(
                "not a tournament of arena: {} engines, {} pairs (2 or more engines, at most {} pairs)",
                info.engines.len(),
                info.total_pairs,
                schedule::MAX_PAIRS
            ),
        ));
    }
    if let Some(why) = tune_problem(&info) {
        return Err(Error::config_at(&path, 0, 0, why));
    }
    Ok(info)
}

/// What makes a tune's record one no tune has (`None`: it is one, or no
/// tune): its settings, or its pairs not its iterations'.
fn tune_problem(info: &TournamentInfo) -> Option<String> {
    let Format::Spsa {
        iterations,
        pairs_per_iteration,
        ..
    } = info.format
    else {
        return None;
    };
    if pairs_per_iteration == 0
        || iterations.checked_mul(pairs_per_iteration) != Some(info.total_pairs)
    {
        return Some(format!(
            "format: {iterations} iterations of {pairs_per_iteration} pairs are not the run's {} pairs",
            info.total_pairs
        ));
    }
    if info.engines.len() != 2 {
        return Some("engines: a tune has two sides, θ+ and θ−".into());
    }
    let e = info.format.spsa(info.seed, &[])?.check().err()?;
    Some(format!("format: {}: {}", e.field, e.message))
}
