//! `arena eval`: an engine's static evaluation of one position, with every
//! term, so a user can see why a weight change moved a score.

use super::{print, print_json};
use crate::engine::EngineConfig;
use crate::eval::{Term, UNITS_PER_DISC};
use crate::game::othello::board_string;
use crate::search::Evaluator;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena eval`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct EvalArgs {
    /// Fit weights instead of evaluating
    #[command(subcommand)]
    pub command: Option<EvalCommand>,
    /// The engine whose evaluation to use
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// The position: a position string or a move list (default: the start)
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Print one JSON object: {"engine","position","score","centidiscs","terms"}
    #[arg(long)]
    pub json: bool,
}

/// Subcommands of `arena eval`.
#[derive(Debug, clap::Subcommand)]
pub enum EvalCommand {
    /// Fit feature weights by least squares on self-play positions labelled by exact endgame solves
    Fit(FitArgs),
}

/// Arguments of `arena eval fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Feature weights file: its stages are fitted, and its engine plays the games
    #[arg(long)]
    pub base: PathBuf,
    /// Self-play games
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the random opening moves
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random moves at the start of each game
    #[arg(long, default_value_t = 10)]
    pub random_plies: u32,
    /// Search depth of the playing engine
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// Solve exactly from this many empties (labels)
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub solve_at: u32,
    /// Ridge penalty per sample
    #[arg(long, default_value_t = 0.001)]
    pub ridge: f64,
    /// The weights file to write (not the base)
    #[arg(long)]
    pub out: PathBuf,
}

/// Result of `arena eval --json`.
#[derive(Debug, serde::Serialize)]
pub struct EvalReport {
    /// Engine name.
    pub engine: String,
    /// The position string.
    pub position: String,
    /// Score for the side to move, in discs.
    pub score: f64,
    /// The same in centidiscs (what the search sees).
    pub centidiscs: i32,
    /// Each term: name, value, weight, contribution (centidiscs).
    pub terms: Vec<Term>,
}

/// Runs `arena eval`.
///
/// # Errors
/// A bad engine file or position.
pub fn run(args: &EvalArgs) -> anyhow::Result<ExitCode> {
    if let Some(EvalCommand::Fit(f)) = &args.command {
        return fit(f);
    }
    let Some(engine) = &args.engine else {
        return Err(crate::Error::Argument {
            argument: "--engine".into(),
            message: "name the engine whose evaluation to show (or use `arena eval fit`)".into(),
        }
        .into());
    };
    let config = EngineConfig::load(engine)?;
    let board = super::othello_position(args.position.as_deref())?;
    let v = config.eval.evaluate(&board);
    let report = EvalReport {
        engine: config.name.clone(),
        position: board_string(&board),
        score: f64::from(v) / f64::from(UNITS_PER_DISC),
        centidiscs: v,
        terms: config.eval.explain(&board),
    };
    if args.json {
        print_json(&report)?;
    } else {
        let mut text = format!(
            "{}\n{}: {:+.2} discs ({} centidiscs) for the side to move\n",
            report.position, report.engine, report.score, v
        );
        text.push_str(&format!(
            "{:<18} {:>8} {:>9} {:>13}\n",
            "term", "value", "weight", "contribution"
        ));
        for t in &report.terms {
            text.push_str(&format!(
                "{:<18} {:>8} {:>9} {:>13.1}\n",
                t.name, t.value, t.weight, t.contribution
            ));
        }
        print(text.trim_end())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena eval fit`.
///
/// # Errors
/// A bad base file, an output equal to the base, I/O.
fn fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    use crate::eval::fit::{fit, weights_file, FitOptions};
    let same = args.out == args.base
        || matches!(
            (std::fs::canonicalize(&args.out), std::fs::canonicalize(&args.base)),
            (Ok(a), Ok(b)) if a == b
        );
    if same {
        return Err(crate::Error::Argument {
            argument: "--out".into(),
            message: "would overwrite the base weights; write the fit to a new file".into(),
        }
        .into());
    }
    if !(args.ridge.is_finite() && args.ridge >= 0.0) {
        return Err(crate::Error::Argument {
            argument: "--ridge".into(),
            message: format!("{} is not a number >= 0", args.ridge),
        }
        .into());
    }
    let text = crate::error::read_text(&args.base)?;
    let base = crate::eval::Features::parse(&text, &args.base)?;
    let opts = FitOptions {
        games: args.games,
        seed: args.seed,
        random_plies: args.random_plies,
        depth: args.depth,
        solve_at: args.solve_at,
        ridge: args.ridge,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let start = std::time::Instant::now();
    let fits = fit(&base, &opts);
    let command = format!(
        "arena eval fit --base {} --games {} --seed {} --random-plies {} --depth {} --solve-at {} --ridge {} --out {}",
        args.base.display(),
        args.games,
        args.seed,
        args.random_plies,
        args.depth,
        args.solve_at,
        args.ridge,
        args.out.display()
    );
    let header = vec![
        "Feature weights fitted by least squares (centidiscs per unit of each feature).".to_string(),
        command,
        "Samples: self-play positions labelled by the exact value at --solve-at empties (see src/eval/fit.rs).".to_string(),
    ];
    crate::tournament::journal::write_atomic(&args.out, &weights_file(&fits, &header))?;
    for f in &fits {
        print(&format!(
            "stage min_empties {:>2}: {:>7} samples, RMSE {:.2} discs (base {:.2})",
            f.min_empties, f.samples, f.rmse_after, f.rmse_before
        ))?;
    }
    print(&format!(
        "wrote {} in {:.1} s",
        args.out.display(),
        start.elapsed().as_secs_f64()
    ))?;
    Ok(ExitCode::SUCCESS)
}
