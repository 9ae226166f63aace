//! Weights by game stage, the shape every weights file shares: a list of
//! stages, each applying from its `min_empties` up to the previous stage's
//! (highest first, the last at 0), each with its own weights. Reading the
//! bounds, checking them, building each stage in order and finding the
//! stage of a position are written here once; an evaluation says only how
//! one stage of its file becomes its weights.

use crate::error::{Error, Result};
use crate::util::{check_stages, stage_of};
use std::path::Path;

/// A stage as a weights file writes it.
pub(super) trait StageBound {
    /// The least number of empties the stage applies to.
    fn min_empties(&self) -> u32;
}

/// Which stage of which file is being built, for error messages.
pub(super) struct StageAt<'a> {
    n: usize,
    text: &'a str,
    path: &'a Path,
}

impl StageAt<'_> {
    /// The stage's number as a reader counts (1 for the first).
    pub(super) fn number(&self) -> usize {
        self.n + 1
    }

    /// A configuration error about `field` in this stage, placed at the
    /// field's occurrence for this stage.
    pub(super) fn error(&self, field: &str, message: String) -> Error {
        crate::util::ron_scan::config_field_nth(self.path, self.text, field, self.n, message)
    }
}

/// Weights of type `W` by game stage.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Staged<W> {
    min_empties: Vec<u32>,
    weights: Vec<W>,
    /// The stage of each number of empties (0 to 64): the evaluation's
    /// hot path looks it up instead of scanning the bounds.
    by_empties: [u16; 65],
}

impl<W> Staged<W> {
    /// Stages from their bounds (highest first, the last at 0) and weights,
    /// one per bound.
    pub(super) fn new(min_empties: Vec<u32>, weights: Vec<W>) -> Staged<W> {
        let mut by_empties = [0u16; 65];
        for (empties, stage) in (0u32..).zip(by_empties.iter_mut()) {
            *stage = stage_of(&min_empties, empties) as u16;
        }
        Staged {
            min_empties,
            weights,
            by_empties,
        }
    }

    /// The stages of a weights file whose stage list, as read from `text`
    /// (`path` only names it in errors), is `raw`: checks the bounds, then
    /// builds each stage's weights with `build`, in file order.
    ///
    /// # Errors
    /// Bad stage bounds, or the first error `build` returns.
    pub(super) fn parse<S: StageBound>(
        raw: &[S],
        text: &str,
        path: &Path,
        mut build: impl FnMut(&S, &StageAt) -> Result<W>,
    ) -> Result<Staged<W>> {
        let min_empties: Vec<u32> = raw.iter().map(StageBound::min_empties).collect();
        check_stages(&min_empties, text, path)?;
        let mut weights = Vec::with_capacity(raw.len());
        for (n, stage) in raw.iter().enumerate() {
            weights.push(build(stage, &StageAt { n, text, path })?);
        }
        Ok(Staged::new(min_empties, weights))
    }

    /// The weights of the stage a position with `empties` empties is in.
    #[inline]
    pub(super) fn at(&self, empties: u32) -> &W {
        &self.weights[usize::from(self.by_empties[(empties as usize).min(64)])]
    }

    /// Every stage: its `min_empties` and weights, highest first.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u32, &W)> {
        self.min_empties.iter().copied().zip(self.weights.iter())
    }
}
