//! Othello (Reversi) on two 64-bit bitboards.
//!
//! [`Board`] holds the side to move's discs and the opponent's; move
//! generation works on whole boards with shifts ([`bitboard`]); notation,
//! symmetry and hashing each have their own file.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
pub mod bitboard;
mod board;
pub mod hash;
pub mod notation;
pub mod ops;
mod perft;
pub(crate) mod shape;
mod square;
pub mod symmetry;

pub use board::{Board, Color, IllegalMove};
pub use notation::{
    board_string, parse_board_string, parse_position, play_move_list, NotationError,
};
pub use ops::Ops;
pub use square::{Move, Square};
pub use symmetry::Symmetry;
