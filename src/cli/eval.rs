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
    /// Fit feature weights or pattern tables by least squares on self-play positions labelled by exact endgame solves
    Fit(FitArgs),
}

/// Arguments of `arena eval fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Features or Patterns weights file: its stages (and pattern set) are fitted, and unless --play is given its engine plays the games
    #[arg(long)]
    pub base: PathBuf,
    /// Weights file (any kind) of the engine that plays the self-play games (default: --base)
    #[arg(long)]
    pub play: Option<PathBuf>,
    /// Samples file: read instead of playing when it exists, written after playing when not (one line per position: side to move's discs and opponent's as 16 hex digits, label in centidiscs)
    #[arg(long)]
    pub samples: Option<PathBuf>,
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
    /// Ridge penalty: for features, added to the normal equations' diagonal per sample (default 0.001); for patterns, per table entry, so configurations seen much less often than this many times stay near 0 (default 20)
    #[arg(long)]
    pub ridge: Option<f64>,
    /// Pattern fits: at most this many conjugate-gradient steps per stage
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub iterations: u32,
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
        let width = report
            .terms
            .iter()
            .map(|t| t.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        text.push_str(&format!(
            "{:<width$} {:>8} {:>9} {:>13}\n",
            "term", "value", "weight", "contribution"
        ));
        for t in &report.terms {
            text.push_str(&format!(
                "{:<width$} {:>8} {:>9} {:>13.1}\n",
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
/// A bad base or play file, an output equal to the base, a bad samples
/// file, I/O.
fn fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    use crate::eval::OthelloEval;
    use crate::lab::fit::{
        fit_features, fit_patterns, parse_samples, samples_text, self_play, weights_file,
        FitOptions,
    };
    let same = |a: &std::path::Path, b: &std::path::Path| {
        a == b
            || matches!(
                (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                (Ok(x), Ok(y)) if x == y
            )
    };
    let argument = |argument: &str, message: String| {
        anyhow::Error::from(crate::Error::Argument {
            argument: argument.into(),
            message,
        })
    };
    if same(&args.out, &args.base) {
        return Err(argument(
            "--out",
            "would overwrite the base weights; write the fit to a new file".into(),
        ));
    }
    let base = OthelloEval::from_weights_file(&args.base)?;
    let ridge = args.ridge.unwrap_or(match base {
        OthelloEval::Patterns(_) => 20.0,
        OthelloEval::Discs | OthelloEval::Squares(_) | OthelloEval::Features(_) => 0.001,
    });
    if !(ridge.is_finite() && ridge >= 0.0) {
        return Err(argument("--ridge", format!("{ridge} is not a number >= 0")));
    }
    if !matches!(base, OthelloEval::Features(_) | OthelloEval::Patterns(_)) {
        return Err(argument(
            "--base",
            format!(
                "{} is not a Features or Patterns weights file (only those are fitted)",
                args.base.display()
            ),
        ));
    }
    let play = match &args.play {
        Some(p) => OthelloEval::from_weights_file(p)?,
        None => base.clone(),
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = FitOptions {
        games: args.games,
        seed: args.seed,
        random_plies: args.random_plies,
        depth: args.depth,
        solve_at: args.solve_at,
        threads,
    };
    let start = std::time::Instant::now();
    let read_from = args.samples.as_ref().filter(|p| p.exists());
    let samples = match read_from {
        Some(path) => parse_samples(&crate::error::read_text(path)?, path)?,
        None => {
            let samples = self_play(&play, &opts);
            if let Some(path) = &args.samples {
                crate::util::write_atomic(path, &samples_text(&samples))?;
            }
            samples
        }
    };
    if samples.is_empty() {
        return Err(argument(
            if read_from.is_some() {
                "--samples"
            } else {
                "--games"
            },
            "no samples to fit (an empty samples file, or games without a position from ply 8)"
                .into(),
        ));
    }
    let played = start.elapsed().as_secs_f64();
    let mut command = format!("arena eval fit --base {}", args.base.display());
    match read_from {
        // Read samples: the games options played no part.
        Some(path) => command.push_str(&format!(" --samples {} --ridge {ridge}", path.display())),
        None => {
            if let Some(p) = &args.play {
                command.push_str(&format!(" --play {}", p.display()));
            }
            command.push_str(&format!(
                " --games {} --seed {} --random-plies {} --depth {} --solve-at {} --ridge {ridge}",
                args.games, args.seed, args.random_plies, args.depth, args.solve_at
            ));
        }
    }
    if matches!(base, OthelloEval::Patterns(_)) {
        command.push_str(&format!(" --iterations {}", args.iterations));
    }
    command.push_str(&format!(" --out {}", args.out.display()));
    let source = match read_from {
        Some(path) => format!(
            "Samples: {} positions read from {} (see src/eval/fit.rs).",
            samples.len(),
            path.display()
        ),
        None => format!(
            "Samples: {} self-play positions labelled by the exact value at --solve-at empties (see src/eval/fit.rs).",
            samples.len()
        ),
    };
    match &base {
        OthelloEval::Features(f) => {
            let fits = fit_features(f, &samples, ridge);
            let header = vec![
                "Feature weights fitted by least squares (centidiscs per unit of each feature)."
                    .to_string(),
                command,
                source,
            ];
            crate::util::write_atomic(&args.out, &weights_file(&fits, &header))?;
            for f in &fits {
                print(&format!(
                    "stage min_empties {:>2}: {:>7} samples, RMSE {:.2} discs (base {:.2})",
                    f.min_empties, f.samples, f.rmse_after, f.rmse_before
                ))?;
            }
        }
        OthelloEval::Patterns(p) => {
            let (fitted, fits) = fit_patterns(p, &samples, ridge, args.iterations, threads);
            let header = vec![
                "Pattern tables fitted by least squares (centidiscs; format in src/eval/patterns.rs)."
                    .to_string(),
                command,
                source,
            ];
            let notes: Vec<String> = fits
                .iter()
                .map(|f| {
                    format!(
                        "{} samples; RMSE {:.2} discs (base weights: {:.2}); {} CG steps.",
                        f.samples, f.rmse_after, f.rmse_before, f.iterations
                    )
                })
                .collect();
            let bounds: Vec<u32> = fitted.stages().map(|s| s.0).collect();
            let stages: Vec<_> = fitted.stages().map(|s| s.1.clone()).collect();
            let text = crate::eval::patterns::weights_file(&bounds, &stages, &notes, &header);
            crate::util::write_atomic(&args.out, &text)?;
            for f in &fits {
                print(&format!(
                    "stage min_empties {:>2}: {:>7} samples, RMSE {:.2} discs (base {:.2}), {} CG steps",
                    f.min_empties, f.samples, f.rmse_after, f.rmse_before, f.iterations
                ))?;
            }
        }
        OthelloEval::Discs | OthelloEval::Squares(_) => unreachable!("checked above"),
    }
    print(&format!(
        "wrote {} in {:.1} s ({played:.1} s for the samples)",
        args.out.display(),
        start.elapsed().as_secs_f64()
    ))?;
    Ok(ExitCode::SUCCESS)
}
