//! Offline learning, above the runtime it feeds: self-play and labelling
//! ([`fit`]), evaluation fitting (feature weights and pattern tables by
//! least squares), ProbCut fitting and checking ([`probcut`]), and balanced
//! opening books ([`balanced`]). Nothing below this layer imports it.

pub mod balanced;
pub mod fit;
pub mod probcut;
