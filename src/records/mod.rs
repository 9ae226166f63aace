//! The records a run leaves behind, read by both the runner and the report:
//! finished games ([`GameRecord`], and their GGF form), the journal format
//! (one JSON line per game after a header), GGF games in progress
//! ([`ggf_of`], [`parse_ggf`]), and what `tournament.json` says
//! about the run ([`TournamentInfo`], [`Format`], [`Shard`], the
//! [`BuildInfo`] that played it, and the config in normal form, against
//! which another config's changes are named: [`changes`]).

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod adjudge;
pub mod build;
pub mod changes;
pub mod check;
mod counted;
pub mod game;
pub mod ggf;
pub mod info;
pub mod journal;
pub mod knockout;
mod played;
pub mod rounds;
pub mod swiss;
pub mod tail;
pub mod tune;

pub use adjudge::AdjudicateInfo;
pub use build::BuildInfo;
pub use game::{ggf, ggs_clock, GameRecord, GgfRun};
pub use ggf::{ggf_of, parse_ggf, GgfError};
pub use info::{BookInfo, Format, Shard, SpeedInfo, TournamentInfo};
pub use journal::{Header, Journal};
