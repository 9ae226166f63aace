//! `arena`: engine tournaments, self-play and search study for two-player
//! board games, Othello first.
//!
//! The library is organised as DESIGN.md's module map: [`game`] (rules only),
//! [`stats`] (Elo, SPRT), and the command implementations in [`cli`]. The
//! `arena` binary only parses arguments and calls [`cli`].
#![deny(missing_docs)]

pub mod book;
pub mod cli;
pub mod endgame;
pub mod engine;
pub mod error;
pub mod eval;
pub mod game;
pub mod lab;
pub mod records;
pub mod report;
pub mod rng;
pub mod search;
pub mod stats;
pub mod tournament;
pub mod util;
pub mod watch;

pub use error::{Error, Result};
pub use game::othello::{Board, Move, Square};
pub use game::tictactoe::TicTacToe;
pub use game::tree::{TreeData, TreePos};
pub use game::{Game, MoveList};
