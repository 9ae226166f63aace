//! What a run holds in memory, known before its first game, and the words
//! of its refusal when the machine has less available. Two parts: what its
//! game threads keep (each at most [`KEPT_PLAYERS`] players built, with
//! their tables), and its results (tallies, ratings, the rows of its
//! files: [`crate::report::results::bytes_needed`]) with the engines'
//! loaded configs. The games' records are not counted: they grow with the
//! games played, about 2 KiB each.
//!
//! The numbers are bounds from the sizes of what is allocated, not
//! measurements: a table counts whole though a shallow search touches few
//! of its pages.

use crate::engine::EngineSpec;
use crate::error::{size_text, Error};
use crate::records::Format;
use crate::tournament::schedule::meetings_per_round;

/// Most players a game thread keeps built between games: past that many
/// engines it drops the player it used least recently (and its tables,
/// its hosting thread or its process) before building another. A player
/// starts every game afresh ([`crate::engine::Player::new_game`]), so
/// which are kept changes no game, only the time spent building them.
pub const KEPT_PLAYERS: usize = 16;

/// A kept player besides its tables: the thread that hosts a player of
/// timed games (its stack, 2 MiB of address space) and its search's own
/// arrays (killers, history, principal variations).
const PER_PLAYER: u64 = 3 << 20;

/// An engine's config as loaded, counted twice (the run's, and the copy
/// its game threads share): settings, name, fingerprint, a small
/// evaluation. Weights of pattern evaluations are not counted.
const PER_ENGINE_CONFIG: u64 = 16 * 1024;

/// What a run holds at most, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Held {
    /// The players its game threads keep, with their tables.
    pub tables: u64,
    /// Its results and its engines' configs.
    pub results: u64,
}

impl Held {
    /// What `threads` game threads playing `engines` in `format` hold.
    pub(crate) fn of(engines: &[EngineSpec], format: &Format, threads: usize) -> Held {
        Held {
            tables: per_thread(engines).saturating_mul(threads as u64),
            results: results_bytes(format, engines.len()),
        }
    }

    /// Both parts.
    pub(crate) fn total(&self) -> u64 {
        self.tables.saturating_add(self.results)
    }

    /// The refusal of this run on a machine with `available` bytes, naming
    /// the setting behind the larger part: the game threads (or, with one,
    /// the engine of the largest table) or the engines.
    pub(crate) fn refusal(
        &self,
        engines: &[EngineSpec],
        format: &Format,
        threads: usize,
        available: u64,
    ) -> Error {
        let total = size(self.total());
        let have = size(available);
        if self.results >= self.tables {
            return Error::Memory {
                setting: "engines".into(),
                message: format!(
                    "{}, and the game threads' tables {}: about {total} in all; this machine has {have} available",
                    results_words(format, engines.len(), self.results),
                    size(self.tables)
                ),
            };
        }
        let kept = KEPT_PLAYERS.min(engines.len());
        let per = size(per_thread(engines));
        let rest = format!(
            "with the results ({}) the run would hold about {total}; this machine has {have} available",
            size(self.results)
        );
        if threads > 1 {
            return Error::Memory {
                setting: "concurrency".into(),
                message: format!(
                    "{threads} game threads each keep the players of up to {kept} engines, whose tables take {per} a thread: {rest}"
                ),
            };
        }
        let largest = engines
            .iter()
            .filter_map(EngineSpec::in_process)
            .max_by_key(|e| e.table_bytes());
        let setting = largest.map_or("tt_mib".to_string(), |e| {
            let mib = e.searching().map_or(0, |s| s.tt_mib);
            format!("engine {:?}: tt_mib {mib}", e.name)
        });
        Error::Memory {
            setting,
            message: format!(
                "the game thread keeps the players of up to {kept} engines, whose tables take {per}: {rest}"
            ),
        }
    }
}

/// What the players one game thread keeps hold at most: those of the
/// [`KEPT_PLAYERS`] in-process engines with the largest tables.
fn per_thread(engines: &[EngineSpec]) -> u64 {
    let mut each: Vec<u64> = engines
        .iter()
        .filter_map(EngineSpec::in_process)
        .map(|e| e.table_bytes().saturating_add(PER_PLAYER))
        .collect();
    each.sort_unstable_by(|a, b| b.cmp(a));
    each.iter().take(KEPT_PLAYERS).sum()
}

/// How many engines hold one of every pair that meets (what the ratings
/// solve for: [`crate::stats::ratings::bytes_needed`]): a gauntlet's
/// challengers, all a round robin's engines but one, one engine of a
/// head-to-head.
fn hubs(format: &Format, engines: usize) -> usize {
    match *format {
        // A Swiss or a knockout may pair any two.
        Format::RoundRobin { .. } | Format::Swiss { .. } | Format::Knockout { .. } => {
            engines.saturating_sub(1)
        }
        Format::Gauntlet { challengers, .. } => challengers.min(engines),
        Format::Sprt { .. } | Format::Spsa { .. } => 1,
    }
}

/// The bytes of the results of `engines` engines playing `format` (every
/// round meets the same pairs), with the engines' loaded configs.
pub(crate) fn results_bytes(format: &Format, engines: usize) -> u64 {
    let meetings = meetings_per_round(format, engines);
    crate::report::results::bytes_needed(engines, hubs(format, engines), meetings)
        .saturating_add((engines as u64).saturating_mul(PER_ENGINE_CONFIG))
}

/// `8000 engines in a round robin meet in 31996000 pairs, whose results
/// and ratings take about 45.8 GiB while it plays`.
pub(crate) fn results_words(format: &Format, engines: usize, bytes: u64) -> String {
    let kind = match format {
        Format::RoundRobin { .. } => "a round robin",
        Format::Gauntlet { .. } => "a gauntlet",
        Format::Sprt { .. } => "an SPRT",
        Format::Spsa { .. } => "a tune",
        Format::Knockout { .. } => "a knockout",
        Format::Swiss { .. } => "a Swiss",
    };
    format!(
        "{engines} engines in {kind} meet in {} pairs, whose results and ratings take about {} while it plays",
        meetings_per_round(format, engines),
        size(bytes)
    )
}

/// A byte count in words (`1.5 GiB`).
pub(crate) fn size(bytes: u64) -> String {
    size_text(usize::try_from(bytes).unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gauntlet_s_results_grow_with_its_engines_a_round_robin_s_with_their_square() {
        let gauntlet = Format::Gauntlet {
            challengers: 1,
            rounds: 1,
        };
        let round_robin = Format::RoundRobin { rounds: 1 };
        let g = results_bytes(&gauntlet, 8000);
        assert!(g < 512 << 20, "{}", size(g));
        let r = results_bytes(&round_robin, 8000);
        assert!(r > 32 << 30, "{}", size(r));
        assert!(results_words(&round_robin, 8000, r)
            .starts_with("8000 engines in a round robin meet in 31996000 pairs"));
    }
}
