//! Checking an engine file ([`RawEngine`] -> [`EngineConfig`]): every
//! problem is an error naming the file, line and field; nothing is
//! silently corrected. The settings are checked first, then the files they
//! name (weights, ProbCut) are loaded.

use super::{
    EngineConfig, EngineKind, RawEngine, SearchEngine, SearchKind, Stated, MAX_THREADS, MAX_TT_MIB,
};
use crate::error::{Error, Result};
use crate::eval::{EvalSpec, OthelloEval};
use crate::game::GameKind;
use crate::search::deepening::SearchSettings;
use crate::search::probcut::ProbCut;
use crate::search::{Limit, OrderBy, Variant};
use crate::util::{Source, Sourced};

/// The checks, in the order their errors are reported: the settings first,
/// then the files they name (weights, ProbCut) are loaded.
impl TryFrom<Sourced<'_, RawEngine>> for EngineConfig {
    type Error = Error;

    fn try_from(s: Sourced<'_, RawEngine>) -> Result<EngineConfig> {
        convert(s.source, s.raw, None)
    }
}

impl EngineConfig {
    /// As [`EngineConfig::check`], taking the evaluation and ProbCut model
    /// already loaded by `like` when `raw` names the same ones (a tune
    /// builds an engine per iteration from one file, whose weights need
    /// reading once).
    ///
    /// # Errors
    /// As [`EngineConfig::check`].
    pub fn check_like(
        raw: RawEngine,
        source: Source<'_>,
        like: &EngineConfig,
    ) -> Result<EngineConfig> {
        convert(source, raw, Some(like))
    }
}

/// The checks of [`EngineConfig::try_from`]; files `like` loaded already
/// are taken from it.
fn convert(src: Source<'_>, raw: RawEngine, like: Option<&EngineConfig>) -> Result<EngineConfig> {
    check_name(&src, &raw)?;
    check_game(&src, &raw)?;
    let variant = match raw.search {
        SearchKind::Random => None,
        SearchKind::Search(v) => Some(v),
    };
    if let Some(v) = variant {
        check_stated(&src, &raw)?;
        check_limit(&src, &raw)?;
        check_tables(&src, &raw, v)?;
        check_ordering(&src, &raw)?;
        check_aspiration(&src, &raw, v)?;
    }
    check_threads(&src, &raw)?;
    check_sizes(&src, &raw)?;
    check_tuning(&src, &raw)?;
    check_endgame(&src, &raw)?;
    let same = like.filter(|l| l.written.eval == raw.eval && l.written.probcut == raw.probcut);
    let (eval, probcut) = match same {
        Some(l) => (
            l.eval().clone(),
            l.searching().and_then(|s| s.probcut.clone()),
        ),
        None => (load_eval(&src, &raw)?, load_probcut(&src, &raw)?),
    };
    let endcut = match same {
        // The model starts above the exact solve: another threshold,
        // another model.
        Some(l)
            if l.written.endcut == raw.endcut
                && l.written.endgame_exact_at == raw.endgame_exact_at =>
        {
            l.searching().and_then(|s| s.endcut.clone())
        }
        _ => load_endcut(&src, &raw)?,
    };
    let probcut = probcut.map(|mut p| {
        p.confidence = raw.probcut_confidence.unwrap_or(p.confidence);
        p
    });
    let kind = match variant {
        None => EngineKind::Random {
            seed: raw.seed,
            eval,
        },
        Some(variant) => EngineKind::Search(SearchEngine {
            settings: SearchSettings {
                time: raw.time,
                variant,
                deepening: raw.deepening,
                aspiration: raw.aspiration,
                limit: raw.limit,
            },
            eval,
            probcut,
            tt_mib: raw.tt_mib,
            ordering: raw.ordering.clone(),
            endgame_exact_at: raw.endgame_exact_at,
            endgame_selective_at: raw.endgame_selective_at,
            endcut,
            endgame_share: raw.endgame_share,
            threads: raw.threads,
        }),
    };
    Ok(EngineConfig {
        name: raw.name.clone(),
        game: raw.game,
        kind,
        written: raw,
    })
}

/// More than one thread: an Othello search with deepening and a table
/// for the threads to share (the exact solver's threads share its own).
fn check_threads(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    let problem = if raw.threads == 0 || raw.threads > MAX_THREADS {
        Some(format!("{} threads: give 1 to {MAX_THREADS}", raw.threads))
    } else if raw.threads == 1 {
        None
    } else if raw.search == SearchKind::Random {
        Some("the random mover does not search; use 1".to_string())
    } else if raw.game != GameKind::Othello {
        Some("only Othello searches run on several threads; use 1".to_string())
    } else if !raw.deepening || raw.tt_mib == 0 {
        Some(format!(
            "{} threads share one transposition table between iterative deepening searches: \
             needs deepening: true and tt_mib > 0",
            raw.threads
        ))
    } else {
        None
    };
    match problem {
        Some(msg) => Err(src.field("threads", msg)),
        None => Ok(()),
    }
}

fn check_name(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if let Some(msg) = crate::util::ron::name_problem(&raw.name, "an engine") {
        return Err(src.field("name", msg));
    }
    Ok(())
}

/// A tic-tac-toe engine searches to the end of the game: it has no
/// evaluation, no endgame solver and no ProbCut.
fn check_game(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    match raw.game {
        GameKind::Othello => Ok(()),
        GameKind::TicTacToe => {
            let wrong = if raw.stated.eval && raw.eval != EvalSpec::Discs {
                Some((
                    "eval",
                    "tic-tac-toe searches use no evaluation; leave eval out",
                ))
            } else if raw.endgame_exact_at > 0 {
                Some(("endgame_exact_at", "the endgame solver is Othello's; use 0"))
            } else if raw.probcut.is_some() {
                Some(("probcut", "ProbCut models are Othello's; use None"))
            } else {
                None
            };
            match wrong {
                Some((field, msg)) => Err(src.field(field, msg)),
                None => Ok(()),
            }
        }
    }
}

/// A searching engine states its limit and its evaluation: nothing is
/// assumed. The error is placed at the engine's name (in a tournament
/// config, the inline engine it belongs to).
fn check_stated(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    let missing = match raw.stated {
        Stated { limit: false, .. } => {
            Some(("limit", "how long it searches (e.g. limit: Depth(6))"))
        }
        Stated { eval: false, .. } if raw.game == GameKind::Othello => {
            Some(("eval", "its evaluation (e.g. eval: Discs)"))
        }
        Stated { .. } => None,
    };
    let Some((field, what)) = missing else {
        return Ok(());
    };
    let quoted = format!("{:?}", raw.name);
    let (line, column) = src.value_place("name");
    let message = format!(
        "{field}: missing; engine {quoted} searches, so it must state {what}; nothing is assumed"
    );
    Err(Error::config_at(src.path, line, column, message))
}

/// A searching engine's limit: something to search, within the caps
/// (depth 60, 10^12 nodes, 24 hours), and deepening for every limit but a
/// fixed depth.
fn check_limit(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if let Some(msg) = raw.limit.problem() {
        return Err(src.field("limit", msg));
    }
    if !raw.deepening && !matches!(raw.limit, Limit::Depth(_)) {
        return Err(src.field(
            "limit",
            format!(
                "{:?} needs iterative deepening (deepening: true); without it only Depth(n) is possible",
                raw.limit
            ),
        ));
    }
    Ok(())
}

/// What needs a pruning search or a table: the table itself, ordering,
/// ProbCut, MTD(f)'s memory.
fn check_tables(src: &Source<'_>, raw: &RawEngine, v: Variant) -> Result<()> {
    if !v.prunes() {
        if raw.tt_mib > 0 {
            return Err(src.field(
                "tt_mib",
                format!(
                    "{} does not use a transposition table; set tt_mib: 0",
                    v.name()
                ),
            ));
        }
        if !raw.ordering.is_empty() {
            return Err(src.field(
                "ordering",
                format!(
                    "{} searches every move, so ordering has no effect; use []",
                    v.name()
                ),
            ));
        }
    }
    if v == Variant::MtdF && raw.tt_mib == 0 {
        return Err(src.field("tt_mib", "MtdF needs a transposition table (tt_mib > 0)"));
    }
    if raw.ordering.contains(&OrderBy::HashMove) && raw.tt_mib == 0 {
        return Err(src.field(
            "ordering",
            "HashMove needs a transposition table (tt_mib > 0)",
        ));
    }
    Ok(())
}

/// Each ordering at most once; ProbCut only in a pruning search.
fn check_ordering(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    for (i, o) in raw.ordering.iter().enumerate() {
        if raw.ordering[..i].contains(o) {
            return Err(src.field("ordering", format!("{o:?} is listed twice")));
        }
    }
    match raw.search {
        SearchKind::Search(v) if raw.probcut.is_some() && !v.prunes() => Err(src.field(
            "probcut",
            format!(
                "ProbCut needs a pruning search (AlphaBeta, Pvs or MtdF), not {}",
                v.name()
            ),
        )),
        SearchKind::Search(_) | SearchKind::Random => Ok(()),
    }
}

fn check_aspiration(src: &Source<'_>, raw: &RawEngine, v: Variant) -> Result<()> {
    let Some(a) = raw.aspiration else {
        return Ok(());
    };
    if a <= 0 || a > 6400 {
        return Err(src.field(
            "aspiration",
            format!("the window must be 1 to 6400 centidiscs (64 discs), got {a}"),
        ));
    }
    if !raw.deepening || !matches!(v, Variant::AlphaBeta { .. } | Variant::Pvs) {
        return Err(src.field(
            "aspiration",
            "aspiration windows need deepening: true and AlphaBeta or Pvs",
        ));
    }
    Ok(())
}

/// The numbers a tune may set that have no other check: how a clock is
/// spent, and ProbCut's confidence (with a ProbCut file to apply to).
fn check_tuning(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if let Some((field, msg)) = raw.time.problem() {
        return Err(src.field(field, msg));
    }
    match raw.probcut_confidence {
        Some(_) if raw.probcut.is_none() => Err(src.field(
            "probcut_confidence",
            "there is no ProbCut file to apply it to (probcut: None)",
        )),
        Some(c) if !(c > 0.0 && c <= 10.0) => Err(src.field(
            "probcut_confidence",
            format!("{c} sigmas: give more than 0, at most 10"),
        )),
        _ => Ok(()),
    }
}

/// The table and the solver within what a machine can give, and nothing
/// the random mover cannot use.
fn check_sizes(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if raw.tt_mib > MAX_TT_MIB {
        return Err(src.field(
            "tt_mib",
            format!(
                "{} MiB is more than the {MAX_TT_MIB} MiB allowed",
                raw.tt_mib
            ),
        ));
    }
    if raw.endgame_exact_at > 30 {
        return Err(src.field(
            "endgame_exact_at",
            format!(
                "{} empties: solving more than 30 empties exactly takes hours; use 30 or fewer",
                raw.endgame_exact_at
            ),
        ));
    }
    if raw.endgame_exact_at > 0 && raw.search == SearchKind::Random {
        return Err(src.field(
            "endgame_exact_at",
            "the random mover does not solve endgames; use 0",
        ));
    }
    Ok(())
}

/// The selective passes: above the exact solve, with a cut model for the
/// engine's own evaluation (which orders the solver's moves), and a share
/// of the move time the solver may take.
fn check_endgame(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    let share = raw.endgame_share;
    if !(share > 0.0 && share <= 1.0) {
        return Err(src.field(
            "endgame_share",
            format!("{share}: give more than 0, at most 1 (the whole move)"),
        ));
    }
    let (at, exact) = (raw.endgame_selective_at, raw.endgame_exact_at);
    let problem = if at == 0 {
        raw.endcut.as_ref().map(|_| {
            (
                "endcut",
                "nothing uses it without endgame_selective_at".to_string(),
            )
        })
    } else if at > 40 {
        Some((
            "endgame_selective_at",
            format!("{at} empties: use 40 or fewer"),
        ))
    } else if exact == 0 || at <= exact {
        Some((
            "endgame_selective_at",
            format!("{at} empties: the selective passes come above the exact solve, so give more than endgame_exact_at ({exact}), which must be more than 0"),
        ))
    } else if raw.endcut.is_none() {
        Some((
            "endgame_selective_at",
            "the selective passes need a cut model: endcut: Some(\"FILE\") (arena probcut fit-endgame)".to_string(),
        ))
    } else if !matches!(
        raw.eval,
        EvalSpec::Patterns { .. } | EvalSpec::Features { .. }
    ) {
        Some((
            "endgame_selective_at",
            "the selective passes search with the engine's evaluation: use a Patterns or Features one".to_string(),
        ))
    } else {
        None
    };
    match problem {
        Some((field, msg)) => Err(src.field(field, msg)),
        None => Ok(()),
    }
}

/// The selective passes' cut model, read relative to the engine file, for
/// solves of more than `endgame_exact_at` empties.
fn load_endcut(src: &Source<'_>, raw: &RawEngine) -> Result<Option<Box<crate::endgame::EndCut>>> {
    let Some(p) = &raw.endcut else {
        return Ok(None);
    };
    let path = src.base().join(p);
    let pc = ProbCut::load(&path).map_err(|e| match e {
        Error::Io { path: p, source } => src.field(
            "endcut",
            format!("cut model {} cannot be read: {source}", p.display()),
        ),
        other => other,
    })?;
    crate::endgame::EndCut::new(&pc, raw.endgame_exact_at + 1)
        .map(|cut| Some(Box::new(cut)))
        .map_err(|e| src.field("endcut", format!("{}: {e}", path.display())))
}

/// The evaluation, its weights read relative to the engine file.
fn load_eval(src: &Source<'_>, raw: &RawEngine) -> Result<OthelloEval> {
    OthelloEval::load(&raw.eval, src.base()).map_err(|e| match e {
        Error::Io { path: p, source } => src.field(
            "eval",
            format!("weights file {} cannot be read: {source}", p.display()),
        ),
        other => other,
    })
}

/// The ProbCut model, read relative to the engine file.
fn load_probcut(src: &Source<'_>, raw: &RawEngine) -> Result<Option<ProbCut>> {
    let Some(p) = &raw.probcut else {
        return Ok(None);
    };
    if raw.search == SearchKind::Random {
        return Err(src.field("probcut", "the random mover does not search; use None"));
    }
    ProbCut::load(&src.base().join(p))
        .map(Some)
        .map_err(|e| match e {
            Error::Io { path: p, source } => src.field(
                "probcut",
                format!("ProbCut file {} cannot be read: {source}", p.display()),
            ),
            other => other,
        })
}
