//! Offline learning, above the runtime it feeds: self-play and labelling
//! ([`fit`]), evaluation fitting (feature weights and pattern tables by
//! least squares), ProbCut fitting and checking ([`probcut`]), and balanced
//! opening books ([`balanced`]). Nothing below this layer imports it.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod balanced;
pub mod fit;
pub mod probcut;
