//! How big a run may be, checked from the config alone: the pairs it
//! schedules (at most [`MAX_PAIRS`](crate::tournament::schedule::MAX_PAIRS),
//! blamed on the setting that makes them) and the memory its results need,
//! before any engine is loaded.

use super::RawTournament;
use crate::error::{Error, Result};
use crate::records::Format;
use crate::util::Source;

/// The command line's `rounds` (already in `format`, of `n` engines): 1 or
/// more, and no more pairs than a tournament may have. A bad value is the
/// command line's, not the config's: a usage error naming the option.
pub(super) fn check_rounds_flag(rounds: u64, format: &Format, n: usize) -> Result<()> {
    if rounds == 0 {
        return Err(Error::usage("rounds", "0 rounds: must be at least 1"));
    }
    let counted = match *format {
        Format::RoundRobin { .. } => n >= 2,
        Format::Gauntlet { challengers, .. } => challengers > 0 && challengers < n,
        Format::Sprt { .. }
        | Format::Spsa { .. }
        | Format::Knockout { .. }
        | Format::Swiss { .. } => false,
    };
    let pairs = crate::tournament::schedule::total_pairs(format, n);
    // One round too many is the engines' fault: the config's check says so.
    let one_round = crate::tournament::schedule::meetings_per_round(format, n);
    let max = crate::tournament::schedule::MAX_PAIRS;
    if counted && pairs > max && one_round <= max {
        return Err(Error::usage(
            "rounds",
            format!(
                "{rounds} rounds of {n} engines make {pairs} pairs: a tournament may have at most {}",
                crate::tournament::schedule::MAX_PAIRS
            ),
        ));
    }
    Ok(())
}

/// What the engine count alone decides, checked before any engine is
/// loaded (a matrix of thousands takes seconds to load): the pairs of a
/// round robin or a gauntlet, and the memory its results need.
///
/// # Errors
/// As [`check_size`] and [`check_results_memory`].
pub(super) fn check_before_loading(src: &Source<'_>, raw: &RawTournament) -> Result<()> {
    if !matches!(
        raw.format,
        Format::RoundRobin { .. } | Format::Gauntlet { .. }
    ) {
        return Ok(());
    }
    let n = raw
        .engines
        .iter()
        .fold(0usize, |n, e| n.saturating_add(e.count()));
    check_size(src, &raw.format, n)?;
    check_results_memory(src, &raw.format, n)
}

/// The results and ratings of `n` engines playing `format` within the
/// memory the machine has available (nothing is checked where it does not
/// say); the players' tables are the runner's to check, with its game
/// threads.
///
/// # Errors
/// [`Error::Config`] at `engines`, with what they would take and what
/// there is.
fn check_results_memory(src: &Source<'_>, format: &Format, n: usize) -> Result<()> {
    use crate::tournament::memory::{results_bytes, results_words, size};
    let needed = results_bytes(format, n);
    match crate::util::sys::available_memory() {
        Some(available) if needed > available => Err(src.field(
            "engines",
            format!(
                "{}; this machine has {} available",
                results_words(format, n, needed),
                size(available)
            ),
        )),
        _ => Ok(()),
    }
}

/// At most [`MAX_PAIRS`](crate::tournament::schedule::MAX_PAIRS) pairs (the schedule
/// is built in memory); of a round robin or gauntlet whose one round has
/// more, the engines are at fault, not the rounds.
pub(super) fn check_size(src: &Source<'_>, format: &Format, n: usize) -> Result<()> {
    use crate::tournament::schedule::{meetings_per_round, total_pairs, MAX_PAIRS};
    let pairs = total_pairs(format, n);
    if pairs <= MAX_PAIRS {
        return Ok(());
    }
    let per_round = meetings_per_round(format, n);
    let (field, what) = match format {
        Format::Sprt { .. } => ("max_pairs", format!("{pairs} pairs")),
        Format::Knockout { .. } => ("pairs", format!("{n} engines' matches make {pairs} pairs")),
        Format::Swiss { rounds, .. } => (
            "pairs",
            format!("{rounds} rounds of {n} engines make {pairs} pairs"),
        ),
        Format::Spsa {
            pairs_per_iteration,
            ..
        } if *pairs_per_iteration > MAX_PAIRS => (
            "pairs_per_iteration",
            format!("{pairs_per_iteration} pairs an iteration"),
        ),
        Format::Spsa {
            iterations,
            pairs_per_iteration,
            ..
        } => (
            "iterations",
            format!("{iterations} iterations of {pairs_per_iteration} pairs make {pairs} pairs"),
        ),
        Format::RoundRobin { .. } | Format::Gauntlet { .. } if per_round > MAX_PAIRS => (
            "engines",
            format!("{n} engines meet in {per_round} pairs a round"),
        ),
        Format::RoundRobin { .. } | Format::Gauntlet { .. } => ("rounds", format!("{pairs} pairs")),
    };
    Err(src.field(
        field,
        format!("{what}: a tournament may have at most {MAX_PAIRS}"),
    ))
}
