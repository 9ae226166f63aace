//! An engine described by options instead of a file (`arena search`'s
//! variant flags): [`EngineOptions`] -> [`EngineConfig`], checked as an
//! engine file is. The errors name what is wrong with the options; the
//! command line turns them into its flags' words.

use super::{EngineConfig, RawEngine, Stated};
use crate::error::Error;
use crate::eval::{EvalSpec, OthelloEval};
use crate::game::GameKind;
use crate::search::{Fail, Limit, OrderBy, Variant};
use std::path::{Path, PathBuf};

/// The evaluations options can name (the weights come separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// Disc difference.
    Discs,
    /// Weighted squares.
    Squares,
    /// Linear features.
    Features,
    /// Pattern tables.
    Patterns,
}

/// A searching engine described setting by setting; what is left out takes
/// its documented default.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// The game (a tic-tac-toe search uses no evaluation).
    pub game: GameKind,
    /// The variant (default alpha-beta, fail-soft).
    pub variant: Option<Variant>,
    /// Iterative deepening (implied by a limit other than a depth).
    pub deepening: bool,
    /// The limit (default: depth 4 for Othello, depth 9, the whole game,
    /// for tic-tac-toe).
    pub limit: Option<Limit>,
    /// Transposition table MiB (default 0).
    pub tt_mib: Option<usize>,
    /// Move ordering, highest priority first.
    pub ordering: Vec<OrderBy>,
    /// The evaluation (default the disc count).
    pub eval: Option<EvalChoice>,
    /// The weights file of `eval`.
    pub weights: Option<PathBuf>,
}

/// Why options do not describe an engine.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// A weights file for the disc count, which takes none.
    #[error("the disc count takes no weights file")]
    WeightsUnused,
    /// An evaluation in a game that has none (tic-tac-toe).
    #[error("tic-tac-toe searches use no evaluation")]
    EvalUnused,
    /// An evaluation that needs weights, without them (or with an empty
    /// path).
    #[error("the evaluation needs a weights file")]
    WeightsMissing,
    /// A setting the engine checks refuse (their message).
    #[error("{0}")]
    Settings(String),
    /// The weights file cannot be read or is malformed.
    #[error(transparent)]
    Weights(Error),
}

impl EngineOptions {
    /// The engine these options describe, checked as an engine file is
    /// (the weights file is read last).
    ///
    /// # Errors
    /// [`OptionsError`]: the first problem, in the order of its variants.
    pub fn engine(&self) -> Result<EngineConfig, OptionsError> {
        let choice = self.eval.unwrap_or(EvalChoice::Discs);
        if self.weights.is_some() && choice == EvalChoice::Discs {
            return Err(OptionsError::WeightsUnused);
        }
        if self.game == GameKind::TicTacToe && choice != EvalChoice::Discs {
            return Err(OptionsError::EvalUnused);
        }
        let raw = self.raw();
        if raw.eval.weights().is_some_and(|w| w.as_os_str().is_empty()) {
            return Err(OptionsError::WeightsMissing);
        }
        // The settings are checked with a file-free evaluation; the
        // weights file is an error of its own.
        let settings = RawEngine {
            eval: EvalSpec::Discs,
            ..raw.clone()
        };
        let config = EngineConfig::check(settings, "", Path::new("")).map_err(|e| match e {
            Error::Config { message, .. } => OptionsError::Settings(message),
            other => OptionsError::Weights(other),
        })?;
        let eval = OthelloEval::load(&raw.eval, Path::new("")).map_err(OptionsError::Weights)?;
        Ok(config.with_eval(raw.eval, eval))
    }

    /// The engine as a file would state it.
    fn raw(&self) -> RawEngine {
        let default_depth = match self.game {
            GameKind::Othello => 4,
            GameKind::TicTacToe => 9,
        };
        let limit = self.limit.unwrap_or(Limit::Depth(default_depth));
        let weights = self.weights.clone().unwrap_or_default();
        RawEngine {
            name: "command-line".into(),
            game: self.game,
            search: super::SearchKind::Search(
                self.variant
                    .unwrap_or(Variant::AlphaBeta { fail: Fail::Soft }),
            ),
            deepening: self.deepening || !matches!(limit, Limit::Depth(_)),
            aspiration: None,
            limit,
            ordering: self.ordering.clone(),
            tt_mib: self.tt_mib.unwrap_or(0),
            eval: match self.eval.unwrap_or(EvalChoice::Discs) {
                EvalChoice::Discs => EvalSpec::Discs,
                EvalChoice::Squares => EvalSpec::WeightedSquares { weights },
                EvalChoice::Features => EvalSpec::Features { weights },
                EvalChoice::Patterns => EvalSpec::Patterns { weights },
            },
            endgame_exact_at: 0,
            probcut: None,
            seed: 0,
            time: crate::search::limits::TimeUse::default(),
            probcut_confidence: None,
            endgame_selective_at: 0,
            endcut: None,
            endgame_share: 0.5,
            threads: 1,
            // The documented defaults (the depth, discs) are stated ones.
            stated: Stated {
                limit: true,
                eval: true,
            },
        }
    }
}
