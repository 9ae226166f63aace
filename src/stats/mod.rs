//! Match statistics: Elo and its error from W/D/L or pentanomial counts, LOS,
//! normalized Elo, the generalized SPRT as fishtest computes it, and
//! multi-engine ratings. Independent of the games.
//!
//! - [`elo`]: Elo, LOS, normalized Elo from a score distribution; [`Wdl`].
//! - [`pentanomial`]: game pairs: [`Ptnml`] counts and the [`PairTally`]
//!   that keeps WL and DD apart.
//! - [`sprt`]: the test ([`Sprt`], [`SprtState`]), on top of the private
//!   maximum-likelihood solvers (`mle`, `root`).
//! - [`crosstable`] and [`ratings`](mod@ratings): multi-engine Bradley-Terry
//!   ratings, on top of the private likelihood and its maximum
//!   (`bradley_terry` over dense matrices, `hubs` over the pairs that met,
//!   for many engines).
//! - [`format`](mod@format): the fastchess-style result block and the rating table.
//! - [`summary`]: the JSON objects.
//! - [`spsa`]: the SPSA gain schedule of fishtest and OpenBench, its flip
//!   vectors and steps, in iteration order.
//!
//! A tournament keeps a [`Wdl`] (every finished game) and a [`PairTally`]
//! (every finished pair), asks [`Sprt::evaluate_ptnml`] whether to stop,
//! and prints [`format::match_block`].

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

mod bradley_terry;
pub mod crosstable;
pub mod elo;
pub mod format;
mod hubs;
pub(crate) mod linalg;
mod mle;
pub mod pentanomial;
pub mod ratings;
mod root;
pub mod sprt;
pub mod spsa;
pub mod summary;

pub use crosstable::{Crosstable, RatingsFileError};
pub use elo::{elo_to_score, score_to_elo, Basis, EloEstimate, Outcome, Wdl, NELO_PER_T};
pub use format::match_block;
pub use pentanomial::{PairTally, Ptnml};
pub use ratings::{
    ratings, Anchor, EngineRating, Method, Ratings, RatingsError, LOS_MAX_ENGINES,
    PRIOR_VIRTUAL_DRAWS,
};
pub use sprt::{Model, Sprt, SprtError, SprtState, Verdict};
pub use summary::{RatingsSummary, Summary};

/// Asserts that `actual` is within `tolerance` of `expected` (the unit
/// tests' comparison of computed statistics with reference values).
#[cfg(test)]
fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not {expected} (±{tolerance})"
    );
}
