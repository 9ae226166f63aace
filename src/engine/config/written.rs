//! Reading an engine file: its fields as written, `limit` and `eval` as
//! options, so the checks can tell a missing one from a stated one
//! ([`super::Stated`]); every other field has its neutral default. The
//! field list mirrors [`RawEngine`] one for one.

use super::{EvalSpec, GameKind, Limit, OrderBy, RawEngine, SearchKind, Stated};
use crate::search::limits::TimeUse;
use serde::{Deserialize, Deserializer};
use std::path::PathBuf;

/// An engine file's fields as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Engine")]
pub(super) struct Written {
    name: String,
    #[serde(default = "othello")]
    game: GameKind,
    search: SearchKind,
    #[serde(default)]
    deepening: bool,
    #[serde(default)]
    aspiration: Option<i32>,
    #[serde(default, deserialize_with = "stated")]
    limit: Option<Limit>,
    #[serde(default)]
    ordering: Vec<OrderBy>,
    #[serde(default)]
    tt_mib: usize,
    #[serde(default, deserialize_with = "stated")]
    eval: Option<EvalSpec>,
    #[serde(default)]
    endgame_exact_at: u32,
    #[serde(default)]
    probcut: Option<PathBuf>,
    #[serde(default)]
    seed: u64,
    #[serde(default = "super::one_thread")]
    threads: u32,
    #[serde(default)]
    time: TimeUse,
    #[serde(default)]
    probcut_confidence: Option<f64>,
    #[serde(default)]
    endgame_selective_at: u32,
    #[serde(default)]
    endcut: Option<PathBuf>,
    #[serde(default = "super::half")]
    endgame_share: f64,
}

fn othello() -> GameKind {
    GameKind::Othello
}

/// A field written as its plain value (`limit: Depth(6)`), held as
/// stated.
fn stated<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

impl From<Written> for RawEngine {
    fn from(w: Written) -> RawEngine {
        RawEngine {
            stated: Stated {
                limit: w.limit.is_some(),
                eval: w.eval.is_some(),
            },
            name: w.name,
            game: w.game,
            search: w.search,
            deepening: w.deepening,
            aspiration: w.aspiration,
            limit: w.limit.unwrap_or(Limit::Depth(1)),
            ordering: w.ordering,
            tt_mib: w.tt_mib,
            eval: w.eval.unwrap_or(EvalSpec::Discs),
            endgame_exact_at: w.endgame_exact_at,
            probcut: w.probcut,
            seed: w.seed,
            threads: w.threads,
            time: w.time,
            probcut_confidence: w.probcut_confidence,
            endgame_selective_at: w.endgame_selective_at,
            endcut: w.endcut,
            endgame_share: w.endgame_share,
        }
    }
}
