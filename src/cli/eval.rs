//! `arena eval`: an engine's static evaluation of one position, with every
//! term, so a user can see why a weight change moved a score.

use super::{print, print_json};
use crate::eval::patterns::{weights_file, Patterns};
use crate::eval::{Term, UNITS_PER_DISC};
use crate::game::othello::board_string;
use crate::lab::eval_fit::{fit_eval, EvalFitOptions, EvalFitSettled, StageFits};
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
    /// The engine whose evaluation to use: a file, or FILE.ron:FIELD=VALUE[,...]
    /// (the file with fields changed, as `arena match` takes it:
    /// engines/strong.ron:eval.weights=new.bin)
    #[arg(long, value_name = "FILE")]
    pub engine: Option<String>,
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
    #[command(after_help = super::help::WRITES)]
    Fit(FitArgs),
    /// Convert pattern weights between the RON form and the binary form (by OUT's extension: .bin is binary), without loss
    #[command(after_help = super::help::WRITES)]
    Convert(ConvertArgs),
}

/// Arguments of `arena eval convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Pattern weights file, either form
    pub input: PathBuf,
    /// The file to write: binary when it ends in .bin, RON otherwise
    pub output: PathBuf,
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
    match &args.command {
        Some(EvalCommand::Fit(f)) => return fit(f),
        Some(EvalCommand::Convert(c)) => return convert(c),
        None => {}
    }
    let Some(engine) = &args.engine else {
        return Err(crate::Error::Usage {
            argument: "--engine".into(),
            message: "name the engine whose evaluation to show (or use `arena eval fit`)".into(),
        }
        .into());
    };
    let config = super::in_process_engine(engine, "arena eval", None)?;
    let board = super::othello_position(args.position.as_deref())?;
    let v = config.eval().evaluate(&board);
    let report = EvalReport {
        engine: config.name.clone(),
        position: board_string(&board),
        score: f64::from(v) / f64::from(UNITS_PER_DISC),
        centidiscs: v,
        terms: config.eval().explain(&board),
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

/// The header's lines on how a fitted file was made: the command that
/// regenerates it (the games options only when the games were played) and
/// where the samples came from.
fn fit_made_by(opts: &EvalFitOptions, settled: &EvalFitSettled) -> [String; 2] {
    let ridge = settled.ridge;
    let mut command = format!("arena eval fit --base {}", opts.base.display());
    match &settled.read_from {
        // Read samples: the games options played no part.
        Some(path) => command.push_str(&format!(" --samples {} --ridge {ridge}", path.display())),
        None => {
            if let Some(p) = &opts.play {
                command.push_str(&format!(" --play {}", p.display()));
            }
            command.push_str(&format!(
                " --games {} --seed {} --random-plies {} --depth {} --solve-at {} --ridge {ridge}",
                opts.games, opts.seed, opts.random_plies, opts.depth, opts.solve_at
            ));
        }
    }
    if settled.patterns {
        command.push_str(&format!(" --iterations {}", opts.iterations));
    }
    command.push_str(&format!(" --out {}", opts.out.display()));
    let samples = settled.samples;
    let source = match &settled.read_from {
        Some(path) => format!(
            "Samples: {samples} positions read from {} (see src/lab/fit.rs).",
            path.display()
        ),
        None => format!(
            "Samples: {samples} self-play positions labelled by the exact value at --solve-at empties (see src/lab/fit.rs)."
        ),
    };
    [command, source]
}

/// Runs `arena eval fit` and prints each stage's fit.
///
/// # Errors
/// A bad base or play file, an output equal to the base, a bad samples
/// file, I/O.
fn fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    let report = fit_eval(&EvalFitOptions {
        base: args.base.clone(),
        play: args.play.clone(),
        samples: args.samples.clone(),
        games: args.games,
        seed: args.seed,
        random_plies: args.random_plies,
        depth: args.depth,
        solve_at: args.solve_at,
        ridge: args.ridge,
        iterations: args.iterations,
        out: args.out.clone(),
        threads: 0,
        made_by: fit_made_by,
    })?;
    match &report.stages {
        StageFits::Features(fits) => {
            for f in fits {
                print(&format!(
                    "stage min_empties {:>2}: {:>7} samples, RMSE {:.2} discs (base {:.2})",
                    f.min_empties, f.samples, f.rmse_after, f.rmse_before
                ))?;
            }
        }
        StageFits::Patterns(fits) => {
            for f in fits {
                print(&format!(
                    "stage min_empties {:>2}: {:>7} samples, RMSE {:.2} discs (base {:.2}), {} CG steps",
                    f.min_empties, f.samples, f.rmse_after, f.rmse_before, f.iterations
                ))?;
            }
        }
    }
    print(&format!(
        "wrote {} in {:.1} s ({:.1} s for the samples)",
        report.out.display(),
        report.seconds,
        report.sample_seconds
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `arena eval convert`: reads pattern weights in either form and
/// writes them in the form OUT's extension names.
///
/// # Errors
/// A bad input file, OUT the same file as IN, I/O.
fn convert(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    if args.output == args.input {
        return Err(crate::Error::Usage {
            argument: "OUTPUT".into(),
            message: format!(
                "{} is the input; write to another file",
                args.output.display()
            ),
        }
        .into());
    }
    let weights = Patterns::load(&args.input)?;
    let binary = args.output.extension().is_some_and(|e| e == "bin");
    let bytes = if binary {
        weights.to_binary()
    } else {
        let (bounds, stages): (Vec<u32>, Vec<_>) =
            weights.stages().map(|(m, w)| (m, w.clone())).unzip();
        let header = [format!(
            "Pattern tables converted from {} by arena eval convert.",
            args.input.display()
        )];
        weights_file(&bounds, &stages, &[], &header).into_bytes()
    };
    crate::util::write_atomic_bytes(&args.output, &bytes)?;
    print(&format!(
        "wrote {} ({} form, {} bytes)",
        args.output.display(),
        if binary { "binary" } else { "RON" },
        bytes.len()
    ))?;
    Ok(ExitCode::SUCCESS)
}
