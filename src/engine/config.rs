//! Engine files (`engines/*.ron`): the raw, deserialized form
//! ([`RawEngine`], `deny_unknown_fields`) and the checked form
//! ([`EngineConfig`]) that players are built from. Every problem is an
//! error naming the file, line and field; nothing is silently corrected.

use crate::error::{read_text, Error, Result};
use crate::eval::{EvalSpec, OthelloEval};
use crate::search::deepening::SearchSettings;
use crate::search::probcut::ProbCut;
use crate::search::{Fail, Limit, OrderBy, Variant};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The game an engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameName {
    /// Othello.
    Othello,
}

/// How an engine picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum SearchKind {
    /// A uniformly random legal move (seeded).
    Random,
    /// Textbook minimax.
    Minimax,
    /// Negamax.
    Negamax,
    /// Alpha-beta, fail-hard or fail-soft.
    AlphaBeta {
        /// `Hard` or `Soft`.
        fail: Fail,
    },
    /// Principal variation search.
    Pvs,
    /// MTD(f) (needs `tt_mib` > 0).
    MtdF,
}

/// Largest transposition table an engine may ask for, in MiB.
pub const MAX_TT_MIB: usize = 16384;

fn default_limit() -> Limit {
    Limit::Depth(1)
}

/// An engine file as written (see the shipped `engines/*.ron` for every
/// field explained).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Engine")]
pub struct RawEngine {
    /// Display name.
    pub name: String,
    /// The game.
    #[serde(default = "default_game")]
    pub game: GameName,
    /// The search algorithm.
    pub search: SearchKind,
    /// Iterative deepening.
    #[serde(default)]
    pub deepening: bool,
    /// Aspiration window half-width in centidiscs (alpha-beta and PVS with
    /// deepening).
    #[serde(default)]
    pub aspiration: Option<i32>,
    /// How long to search.
    #[serde(default = "default_limit")]
    pub limit: Limit,
    /// Move ordering, highest priority first.
    #[serde(default)]
    pub ordering: Vec<OrderBy>,
    /// Transposition table size in MiB (0: none).
    #[serde(default)]
    pub tt_mib: usize,
    /// The evaluation.
    #[serde(default = "default_eval")]
    pub eval: EvalSpec,
    /// Solve exactly when this many or fewer squares are empty (0: never;
    /// at most 30).
    #[serde(default)]
    pub endgame_exact_at: u32,
    /// ProbCut parameters file, relative to the engine file (alpha-beta,
    /// PVS and MTD(f) only).
    #[serde(default)]
    pub probcut: Option<PathBuf>,
    /// Seed of every random choice.
    #[serde(default)]
    pub seed: u64,
}

fn default_game() -> GameName {
    GameName::Othello
}

fn default_eval() -> EvalSpec {
    EvalSpec::Discs
}

/// A checked engine: its settings, with the evaluation loaded.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name.
    pub name: String,
    /// The raw settings (for hashing and display).
    pub raw: RawEngine,
    /// The search settings (`None` for the random mover).
    pub search: Option<SearchSettings>,
    /// The evaluation, loaded.
    pub eval: OthelloEval,
    /// ProbCut parameters, loaded.
    pub probcut: Option<ProbCut>,
}

impl EngineConfig {
    /// Reads and checks an engine file.
    ///
    /// # Errors
    /// [`Error::Io`] or [`Error::Config`] naming the file, line and field.
    pub fn load(path: &Path) -> Result<EngineConfig> {
        let text = read_text(path)?;
        EngineConfig::parse(&text, path)
    }

    /// Parses and checks engine text; `path` names it in errors and is the
    /// base of relative weight paths.
    ///
    /// # Errors
    /// [`Error::Config`] naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<EngineConfig> {
        let raw: RawEngine = crate::util::parse_ron(text, path)?;
        EngineConfig::check(raw, text, path)
    }

    /// Checks a raw engine (`text` is its source, for error positions).
    ///
    /// # Errors
    /// [`Error::Config`] naming the field and the value.
    pub fn check(raw: RawEngine, text: &str, path: &Path) -> Result<EngineConfig> {
        let err = |field: &str, msg: String| Err(Error::config_field(path, text, field, msg));
        if raw.name.trim().is_empty() {
            return err("name", "an engine needs a non-empty name".into());
        }
        let variant = match raw.search {
            SearchKind::Random => None,
            SearchKind::Minimax => Some(Variant::Minimax),
            SearchKind::Negamax => Some(Variant::Negamax),
            SearchKind::AlphaBeta { fail } => Some(Variant::AlphaBeta { fail }),
            SearchKind::Pvs => Some(Variant::Pvs),
            SearchKind::MtdF => Some(Variant::MtdF),
        };
        if let Some(v) = variant {
            match raw.limit {
                Limit::Depth(0) => {
                    return err(
                        "limit",
                        "Depth(0) searches nothing; the depth must be at least 1".into(),
                    )
                }
                Limit::Nodes(0) => {
                    return err(
                        "limit",
                        "Nodes(0): the node budget must be at least 1".into(),
                    )
                }
                Limit::MoveTime(0) => {
                    return err(
                        "limit",
                        "MoveTime(0): the time must be at least 1 ms".into(),
                    )
                }
                Limit::Clock(0, 0) => {
                    return err("limit", "Clock(0, 0): the clock needs time".into())
                }
                _ => {}
            }
            if !raw.deepening && !matches!(raw.limit, Limit::Depth(_)) {
                return err(
                    "limit",
                    format!("{:?} needs iterative deepening (deepening: true); without it only Depth(n) is possible", raw.limit),
                );
            }
            if !v.prunes() {
                if raw.tt_mib > 0 {
                    return err(
                        "tt_mib",
                        format!(
                            "{} does not use a transposition table; set tt_mib: 0",
                            v.name()
                        ),
                    );
                }
                if !raw.ordering.is_empty() {
                    return err(
                        "ordering",
                        format!(
                            "{} searches every move, so ordering has no effect; use []",
                            v.name()
                        ),
                    );
                }
            }
            if v == Variant::MtdF && raw.tt_mib == 0 {
                return err(
                    "tt_mib",
                    "MtdF needs a transposition table (tt_mib > 0)".into(),
                );
            }
            if raw.ordering.contains(&OrderBy::HashMove) && raw.tt_mib == 0 {
                return err(
                    "ordering",
                    "HashMove needs a transposition table (tt_mib > 0)".into(),
                );
            }
            for (i, o) in raw.ordering.iter().enumerate() {
                if raw.ordering[..i].contains(o) {
                    return err("ordering", format!("{o:?} is listed twice"));
                }
            }
            if raw.probcut.is_some() && !v.prunes() {
                return err(
                    "probcut",
                    format!(
                        "ProbCut needs a pruning search (AlphaBeta, Pvs or MtdF), not {}",
                        v.name()
                    ),
                );
            }
            if let Some(a) = raw.aspiration {
                if a <= 0 || a > 6400 {
                    return err(
                        "aspiration",
                        format!("the window must be 1 to 6400 centidiscs (64 discs), got {a}"),
                    );
                }
                if !raw.deepening || !matches!(v, Variant::AlphaBeta { .. } | Variant::Pvs) {
                    return err(
                        "aspiration",
                        "aspiration windows need deepening: true and AlphaBeta or Pvs".into(),
                    );
                }
            }
        }
        if raw.tt_mib > MAX_TT_MIB {
            return err(
                "tt_mib",
                format!(
                    "{} MiB is more than the {MAX_TT_MIB} MiB allowed",
                    raw.tt_mib
                ),
            );
        }
        if raw.endgame_exact_at > 30 {
            return err(
                "endgame_exact_at",
                format!(
                    "{} empties: solving more than 30 empties exactly takes hours; use 30 or fewer",
                    raw.endgame_exact_at
                ),
            );
        }
        if raw.endgame_exact_at > 0 && raw.search == SearchKind::Random {
            return err(
                "endgame_exact_at",
                "the random mover does not solve endgames; use 0".into(),
            );
        }
        let base = path.parent().unwrap_or(Path::new("."));
        let eval = OthelloEval::load(&raw.eval, base).map_err(|e| match e {
            Error::Io { path: p, source } => Error::config_field(
                path,
                text,
                "eval",
                format!("weights file {} cannot be read: {source}", p.display()),
            ),
            other => other,
        })?;
        if raw.probcut.is_some() && raw.search == SearchKind::Random {
            return err(
                "probcut",
                "the random mover does not search; use None".into(),
            );
        }
        let probcut = match &raw.probcut {
            None => None,
            Some(p) => Some(ProbCut::load(&base.join(p)).map_err(|e| match e {
                Error::Io { path: p, source } => Error::config_field(
                    path,
                    text,
                    "probcut",
                    format!("ProbCut file {} cannot be read: {source}", p.display()),
                ),
                other => other,
            })?),
        };
        Ok(EngineConfig {
            name: raw.name.clone(),
            probcut,
            search: variant.map(|variant| SearchSettings {
                variant,
                deepening: raw.deepening,
                aspiration: raw.aspiration,
                limit: raw.limit,
            }),
            eval,
            raw,
        })
    }
}
