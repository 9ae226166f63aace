//! The optional parts of a tournament config and the command line's
//! changes to it: the time control (for engines without a limit), a limit
//! forced on every engine, adjudication and `arena run`'s overrides.

use crate::engine::EngineSpec;
use crate::error::Result;
use crate::records::adjudge::{Draw, Resign, ScoreRules};
use crate::search::Limit;
use crate::util::Source;
use serde::{Deserialize, Serialize};

/// Most game threads a run may ask for (the config's `concurrency` and
/// the command line's `--concurrency` alike).
pub const MAX_CONCURRENCY: usize = 256;

/// A config's `speed: (reference_nps: N)`: clocks and move times are
/// scaled on each machine by N over the nodes a second `arena bench`'s
/// positions run at there (one thread, median of 3), as fishtest's and
/// OpenBench's workers scale their time controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Speed {
    /// The nodes a second of the machine the clocks are meant for.
    pub reference_nps: u64,
}

/// How games may end early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudicate {
    /// End a game once it reaches this many empty squares, with the exact
    /// result of perfect play from there (the solver's).
    #[serde(default)]
    pub solve_at_empties: Option<u32>,
    /// End a game when both engines' reported scores say one side is
    /// `score` discs or more down for `move_count` moves each in a row
    /// (cutechess-cli's `-resign`); that side loses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<Resign>,
    /// End a game as a draw when, from full move `move_number` on, both
    /// engines' reported scores are within `score` discs of 0 for
    /// `move_count` moves each in a row (cutechess-cli's `-draw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Draw>,
}

impl Adjudicate {
    /// The rules by reported score.
    pub fn score_rules(&self) -> ScoreRules {
        ScoreRules {
            resign: self.resign,
            draw: self.draw,
        }
    }

    /// The first value out of range, as the field and the message.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if let Some(n) = self.solve_at_empties {
            if n == 0 || n > MAX_ADJUDICATE_EMPTIES {
                let msg = format!("{n} empties: must be 1 to {MAX_ADJUDICATE_EMPTIES}");
                return Some(("solve_at_empties", msg));
            }
        }
        let resign = self.resign.and_then(|r| r.problem()).map(|m| ("resign", m));
        resign.or_else(|| self.draw.and_then(|d| d.problem()).map(|m| ("draw", m)))
    }
}

/// Most empties adjudication solves (each more costs 2-3x the time).
pub const MAX_ADJUDICATE_EMPTIES: u32 = 30;

/// What the command line may change in a config before it is checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `--rounds`: the rounds of a round-robin or gauntlet.
    pub rounds: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--adjudicate-solve`, `--resign`, `--draw`: the adjudication's
    /// settings given (each replaces the config's).
    pub adjudicate: Adjudicate,
}

/// A tournament's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum TimeControl {
    /// A game clock: base milliseconds and an increment per move.
    Clock {
        /// Milliseconds for the whole game.
        base_ms: u64,
        /// Milliseconds added after each move.
        inc_ms: u64,
    },
    /// Milliseconds per move.
    MoveTime(u64),
}

impl TimeControl {
    /// The engine limit it stands for.
    pub fn limit(self) -> Limit {
        match self {
            TimeControl::Clock { base_ms, inc_ms } => Limit::Clock(base_ms, inc_ms),
            TimeControl::MoveTime(ms) => Limit::MoveTime(ms),
        }
    }
}

/// A limit forced on every engine (its range is checked with the config's
/// other limits): one an external engine can be told.
pub fn check_forced_limit(
    src: &Source<'_>,
    limit: Option<Limit>,
    engines: &[EngineSpec],
) -> Result<()> {
    let Some(l) = limit else { return Ok(()) };
    let external = engines.iter().find(|e| e.in_process().is_none());
    match (l, external) {
        (Limit::Nodes(_), Some(e)) => Err(src.field(
            "limit",
            format!(
                "Nodes(n) cannot be sent to the external engine {:?}",
                e.name()
            ),
        )),
        (Limit::Depth(_) | Limit::Nodes(_) | Limit::MoveTime(_) | Limit::Clock(..), _) => Ok(()),
    }
}
