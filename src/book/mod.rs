//! Opening books: reading and checking `openings/*.txt`, generating books of
//! every (or balanced) N-ply openings, and importing public lists.
//!
//! - [`format`](mod@format): the text format (one opening per line: a move list or a
//!   position string; `#` comments) into a checked [`Book`]; every bad line
//!   is reported at once ([`BookError::BadLines`]).
//! - [`symmetry`]: the canonical form of a position under the 8 board
//!   symmetries, the key for "the same opening".
//! - [`check`](mod@check): duplicate openings, exact and by symmetry.
//! - [`generate`](mod@generate): every position reachable in exactly N plies, optionally
//!   one per symmetry class, filtered (the hook for balanced books) and
//!   sampled.
//! - [`order`]: which opening a tournament plays for a given pair
//!   (sequential or seeded shuffle, rotated by a start index), with the
//!   hand-written `rng::SplitMix64` that makes the shuffle reproducible forever.
//! - [`import`]: public lists (XOT: one move list per line) into our format.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod check;
pub mod format;
pub mod generate;
pub mod import;
pub mod order;
pub mod symmetry;

pub use check::{check, CheckReport, Duplicate};
pub use format::{
    format_book, parse_book, read_book, write_book, Book, BookError, LineError, Opening,
};
pub use generate::{
    enumerate, generate, sample, Filter, GenerateError, GenerateOptions, Generated,
    GeneratedOpening, MAX_PLIES,
};
pub use import::import_move_lists;
pub use order::{opening_index, wrap_notice, OpeningOrder, OpeningPick, Order, OrderError};
pub use symmetry::{canonical, symmetry_name};
