//! Engines are data: an engine file (`engines/*.ron`) is read into a checked
//! [`EngineConfig`] (the random mover or a [`SearchEngine`]), from which a
//! [`Player`] is built (once per game thread, reset by [`Player::new_game`]
//! before every game). [`bench`] searches fixed positions with the strong
//! preset: the search's signature. [`field`] sets one field of an engine
//! by its path: the one way a changed engine file, a matrix and a tune do.

pub mod arg;
pub mod bench;
pub mod config;
pub mod exhaustive;
pub mod external;
pub mod field;
pub mod hosted;
pub mod player;
pub mod serve;
pub mod spec;

pub use arg::EngineArg;
pub use config::{
    EngineConfig, EngineKind, EngineOptions, OptionsError, RawEngine, SearchEngine, SearchKind,
};
pub use field::{FieldError, FieldType, FieldValue, Fields};
pub use player::{
    build_player, Clock, GameSetup, MoveInfo, Player, PlayerError, RandomPlayer, SearchPlayer,
};
pub use spec::EngineSpec;
