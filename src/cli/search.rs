//! `arena search`: one search of one position, by an engine file or an
//! engine described with flags; prints the move, score, PV and counters.

use super::{named, print, print_json};
use crate::engine::config::{EvalChoice, MAX_TT_MIB};
use crate::engine::{
    EngineConfig, EngineKind, EngineOptions, OptionsError, SearchEngine, SearchPlayer,
};
use crate::eval::UNITS_PER_DISC;
use crate::game::GameKind;

use super::progress;
use crate::game::tictactoe::TicTacToe;
use crate::search::deepening::SearchSettings;
use crate::search::limits::{MAX_DEPTH, MAX_NODES, MAX_TIME_MS};
use crate::search::{
    search, Limit, OrderBy, SearchGame, SearchOutcome, SearchStats, Searcher, Variant, ZeroEval,
};
use crate::Error;
use std::fmt::Display;
use std::path::PathBuf;
use std::process::ExitCode;

/// Evaluations as flags spell them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalFlag {
    /// Disc difference
    Discs,
    /// Weighted squares (needs --weights)
    Squares,
    /// Linear features (needs --weights)
    Features,
    /// Pattern tables (needs --weights)
    Patterns,
}

/// Arguments of `arena search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// An engine file, or one with fields changed (FILE.ron:FIELD=VALUE[,FIELD=VALUE..]); without it, the engine is described by the flags below
    #[arg(long, conflicts_with_all = ["algorithm", "deepening", "tt_mib", "order", "eval", "weights"])]
    pub engine: Option<String>,
    /// The game (tic-tac-toe searches use flags, not engine files)
    #[arg(long, default_value = "othello", value_parser = named(&GameKind::ALL, GameKind::name, GameKind::summary))]
    pub game: GameKind,
    /// The position: a position string or a move list (default: the start)
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Search to this depth, 1 to 60 (overrides the engine's limit; a flag-described engine searches to depth 4 without a limit flag)
    #[arg(long, conflicts_with_all = ["nodes", "movetime"],
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Deepen until this many nodes, 1 to 10^12 (overrides the engine's limit)
    #[arg(long, conflicts_with = "movetime",
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    pub nodes: Option<u64>,
    /// Deepen for this many milliseconds, 1 to 86400000 (24 h; overrides the engine's limit)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_TIME_MS))]
    pub movetime: Option<u64>,
    /// Search algorithm (flag-described engine)
    #[arg(long, value_parser = named(&Variant::ALL, Variant::name, Variant::summary))]
    pub algorithm: Option<Variant>,
    /// Iterative deepening (flag-described engine; implied by --nodes and --movetime)
    #[arg(long)]
    pub deepening: bool,
    /// Transposition table MiB, 0 to 16384 (flag-described engine)
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_TT_MIB as u64))]
    pub tt_mib: Option<usize>,
    /// Move ordering, highest priority first, comma-separated (flag-described engine)
    #[arg(long, value_delimiter = ',', value_parser = named(&OrderBy::ALL, OrderBy::name, OrderBy::summary))]
    pub order: Vec<OrderBy>,
    /// Evaluation (flag-described engine; default discs)
    #[arg(long, value_enum)]
    pub eval: Option<EvalFlag>,
    /// Weights file for --eval squares|features
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Print one JSON object: {"best_move","score_discs" (tic-tac-toe: "score_points"),"depth","nodes","seconds","nps","pv","iterations",...}
    #[arg(long)]
    pub json: bool,
}

/// A score in its game's unit, which its JSON key names: `score_discs` for
/// Othello (the final disc difference the search expects, side to move),
/// `score_points` for tic-tac-toe (a win at ply k scores 10 - k).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum Score {
    /// Discs (evaluation units / 100).
    #[serde(rename = "score_discs")]
    Discs(f64),
    /// Game points.
    #[serde(rename = "score_points")]
    Points(f64),
}

impl Score {
    /// An Othello score of `value` evaluation units (centidiscs).
    pub fn discs(value: i32) -> Score {
        Score::Discs(f64::from(value) / f64::from(UNITS_PER_DISC))
    }

    /// A score of `value` game points (searches without an evaluation).
    pub fn points(value: i32) -> Score {
        Score::Points(f64::from(value))
    }

    /// `+1.25 discs`, `+8 points`.
    pub fn text(self) -> String {
        match self {
            Score::Discs(d) => format!("{d:+.2} discs"),
            Score::Points(p) => format!("{p:+} points"),
        }
    }
}

/// One completed iteration in `arena search --json`.
#[derive(Debug, serde::Serialize)]
pub struct IterationReport {
    /// Depth searched.
    pub depth: u32,
    /// Its score, in the unit its key names.
    #[serde(flatten)]
    pub score: Score,
    /// Nodes of the whole search so far.
    pub nodes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// Result of `arena search --json`. Every score is in one unit, named in
/// its key (see [`Score`]).
#[derive(Debug, serde::Serialize)]
pub struct SearchReport {
    /// The move to play (null when the game is over).
    pub best_move: Option<String>,
    /// Score for the side to move.
    #[serde(flatten)]
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Every counter of the search.
    pub stats: SearchStats,
    /// Each completed iteration.
    pub iterations: Vec<IterationReport>,
    /// Share of cutoffs made by the first move searched.
    pub first_move_cutoff_rate: Option<f64>,
}

/// The report of a search whose scores `score` turns into their unit.
fn report<M: Display>(out: &SearchOutcome<M>, score: fn(i32) -> Score) -> SearchReport {
    let s = &out.stats;
    SearchReport {
        best_move: out.best_move.as_ref().map(|m| m.to_string()),
        score: score(out.score),
        depth: out.depth,
        nodes: s.nodes,
        seconds: out.elapsed.as_secs_f64(),
        nps: out.nps(),
        pv: out.pv.iter().map(|m| m.to_string()).collect(),
        stats: *s,
        iterations: out
            .iterations
            .iter()
            .map(|i| IterationReport {
                depth: i.depth,
                score: score(i.score),
                nodes: i.nodes,
                seconds: i.seconds,
            })
            .collect(),
        first_move_cutoff_rate: (s.beta_cutoffs > 0)
            .then(|| s.first_move_cutoffs as f64 / s.beta_cutoffs as f64),
    }
}

fn limit_override(args: &SearchArgs) -> Option<Limit> {
    args.depth
        .map(Limit::Depth)
        .or(args.nodes.map(Limit::Nodes))
        .or(args.movetime.map(Limit::MoveTime))
}

/// The engine the flags describe.
fn flag_options(args: &SearchArgs) -> EngineOptions {
    EngineOptions {
        game: args.game,
        variant: args.algorithm,
        deepening: args.deepening,
        limit: limit_override(args),
        tt_mib: args.tt_mib,
        ordering: args.order.clone(),
        eval: args.eval.map(|e| match e {
            EvalFlag::Discs => EvalChoice::Discs,
            EvalFlag::Squares => EvalChoice::Squares,
            EvalFlag::Features => EvalChoice::Features,
            EvalFlag::Patterns => EvalChoice::Patterns,
        }),
        weights: args.weights.clone(),
    }
}

/// The flags' engine: a setting the flags got wrong is a usage error (exit
/// code 2) naming the flag; a weights file that cannot be read or is
/// malformed is an error about that file (exit code 1).
fn flag_engine(args: &SearchArgs) -> crate::Result<EngineConfig> {
    let usage = |argument: &str, message: &str| Error::Usage {
        argument: argument.into(),
        message: message.into(),
    };
    flag_options(args).engine().map_err(|e| match e {
        OptionsError::WeightsUnused => usage(
            "--weights",
            "the disc count (--eval discs, the default) takes no weights file; name --eval squares, features or patterns",
        ),
        OptionsError::EvalUnused => usage(
            "--eval",
            "tic-tac-toe searches are exhaustive and use no evaluation",
        ),
        OptionsError::WeightsMissing => usage(
            "--weights",
            "--eval squares, features and patterns need a weights file",
        ),
        OptionsError::Settings(message) => usage("engine flags", &message),
        OptionsError::Weights(e) => e,
    })
}

/// The search of `config`; the random mover is an error.
fn searching(config: EngineConfig) -> crate::Result<(String, SearchEngine)> {
    match config.kind {
        EngineKind::Search(engine) => Ok((config.name, engine)),
        EngineKind::Random { .. } => Err(Error::Argument {
            argument: "--engine".into(),
            message: format!("engine {} does not search (search: Random)", config.name),
        }),
    }
}

/// An Othello search: the engine file or the flags' engine, its limit
/// replaced by the one given.
fn search_othello(args: &SearchArgs) -> crate::Result<SearchReport> {
    let pos = super::othello_position(args.position.as_deref())?;
    let config = match &args.engine {
        Some(text) => super::in_process_engine(text, "arena search", limit_override(args))?,
        None => flag_engine(args)?,
    };
    let (name, engine) = searching(config)?;
    // SearchPlayer::new cannot report a refused table; ask for the same
    // tables first, so that a refusal is an error naming the setting.
    engine
        .check_tables(1)
        .map_err(|e| match (e, &args.engine) {
            (Error::Alloc { setting, source }, Some(text)) => {
                Error::alloc(format!("{text}: {setting}"), source)
            }
            (Error::Alloc { source, .. }, None) => {
                Error::alloc(format!("--tt-mib {}", engine.tt_mib), source)
            }
            (other, _) => other,
        })?;
    let mut player = SearchPlayer::new(&name, &engine);
    let spinner = progress::spinner(format!("searching, limit {:?}", engine.settings.limit));
    let outcome = player.analyse(&pos, None);
    spinner.finish_and_clear();
    Ok(report(&outcome, Score::discs))
}

/// A tic-tac-toe search: flags only, no evaluation, to the end by default.
fn search_tictactoe(args: &SearchArgs) -> crate::Result<SearchReport> {
    if args.engine.is_some() {
        return Err(Error::Usage {
            argument: "--engine".into(),
            message: "engine files are Othello engines; describe a tic-tac-toe search with flags"
                .into(),
        });
    }
    let pos = match &args.position {
        Some(p) => TicTacToe::parse(p).map_err(|source| Error::TicTacToe {
            argument: "--position".into(),
            source,
        })?,
        None => TicTacToe::new(),
    };
    let (_, engine) = searching(flag_engine(args)?)?;
    run_generic(&pos, &engine.settings, engine.tt_mib, engine.ordering)
}

/// The text `arena search` prints without `--json`.
fn report_text(rep: &SearchReport) -> String {
    format!(
        "best move {}, score {}, depth {}, {} nodes in {:.3} s ({:.2} M nodes/s)\npv {}\ncutoffs {} (first move {}), tt probes {} hits {} cutoffs {}, re-searches {}",
        rep.best_move.as_deref().unwrap_or("none (game over)"),
        rep.score.text(),
        rep.depth,
        rep.nodes,
        rep.seconds,
        rep.nps / 1e6,
        rep.pv.join(" "),
        rep.stats.beta_cutoffs,
        rep.stats.first_move_cutoffs,
        rep.stats.tt_probes,
        rep.stats.tt_hits,
        rep.stats.tt_cutoffs,
        rep.stats.researches,
    )
}

/// Runs `arena search`.
///
/// # Errors
/// A bad position, engine file or flag combination.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let rep = match args.game {
        GameKind::Othello => search_othello(args)?,
        GameKind::TicTacToe => search_tictactoe(args)?,
    };
    if args.json {
        print_json(&rep)?;
    } else {
        print(&report_text(&rep))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_generic<G: SearchGame>(
    pos: &G,
    settings: &SearchSettings,
    tt_mib: usize,
    order: Vec<OrderBy>,
) -> crate::Result<SearchReport> {
    let mut s: Searcher<G, ZeroEval> =
        Searcher::try_new(ZeroEval, tt_mib, order).map_err(|e| match e {
            Error::Alloc { source, .. } => Error::alloc(format!("--tt-mib {tt_mib}"), source),
            other => other,
        })?;
    let out = search(&mut s, pos, settings, None, 0);
    Ok(report(&out, Score::points))
}
