//! Engines are data: an engine file (`engines/*.ron`) is read into a checked
//! [`EngineConfig`], from which a fresh [`Player`] is built for every game.

pub mod config;
pub mod player;

pub use config::{EngineConfig, RawEngine, SearchKind};
pub use player::{build_player, MoveReport, Player, RandomPlayer, SearchPlayer};
