//! Offline learning, above the runtime it feeds: self-play and labelling
//! ([`fit`]), evaluation fitting (feature weights and pattern tables by
//! least squares), ProbCut fitting and checking ([`probcut`]), and balanced
//! opening books ([`balanced`]). Nothing below this layer imports it.
//!
//! Each offline command is one call here, with typed options in and a
//! report out, so the CLI only parses, calls and prints: `arena eval fit`
//! ([`eval_fit`]), `arena book generate` ([`book_generate`]), `arena
//! probcut fit` and `check` ([`probcut_run`]).

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod balanced;
pub mod book_generate;
pub mod endcut;
pub mod eval_fit;
pub mod fit;
pub mod probcut;
pub mod probcut_run;
pub mod train;
