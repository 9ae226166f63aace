//! The records a run leaves behind, read by both the runner and the report:
//! finished games ([`GameRecord`], and their GGF form), the journal format
//! (one JSON line per game after a header), and what `tournament.json` says
//! about the run ([`TournamentInfo`], [`Format`], [`Shard`]).

pub mod game;
pub mod info;
pub mod journal;

pub use game::{ggf, GameRecord};
pub use info::{BookInfo, Format, Shard, TournamentInfo};
pub use journal::{Header, Journal};
