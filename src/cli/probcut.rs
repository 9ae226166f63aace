//! `arena probcut fit` and `arena probcut check`: fit an engine's ProbCut
//! parameters, and measure what they save and cost.

use super::book::shell_word;
use super::{print, print_json};
use crate::lab::endcut::{fit_endcut, parse_stages, EndCutFitOptions};
use crate::lab::probcut_run::{
    check_probcut, fit_probcut, ProbCutCheckOptions, ProbCutFitOptions, ProbCutFitSettled,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena probcut`.
#[derive(Debug, clap::Subcommand)]
pub enum ProbCutArgs {
    /// Fit v_deep ≈ a·v_shallow + b (and sigma) per stage and depth pair on self-play positions; write a ProbCut file
    #[command(after_help = super::help::WRITES)]
    Fit(FitArgs),
    /// Search positions with and without an engine's ProbCut: nodes, best-move agreement, score difference
    #[command(after_help = super::help::PRINTS)]
    Check(CheckArgs),
    /// Fit the exact solver's cut model (exact score ≈ a·v_shallow + b, and sigma, per stage of empties) for `arena solve --endcut`
    #[command(after_help = super::help::WRITES)]
    FitEndgame(FitEndgameArgs),
}

/// Arguments of `arena probcut fit-endgame`.
#[derive(Debug, clap::Args)]
pub struct FitEndgameArgs {
    /// Weights file of the ordering evaluation (default: the solver's built-in one)
    #[arg(long)]
    pub order_eval: Option<PathBuf>,
    /// Self-play games to draw positions from
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Positions per stage (each solved exactly)
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=100_000))]
    pub positions: u64,
    /// Seed of the games and the draw
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stages as empties:shallow (the stage's fewest empties, the shallow search's depth), comma-separated
    #[arg(long, value_delimiter = ',', default_value = "12:2,15:3,18:4,21:4")]
    pub stages: Vec<String>,
    /// The file to write
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object: {"file","pairs":[...]}
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena probcut fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// The engine file whose evaluation, table and ordering to use (its own ProbCut file is ignored), or one with fields changed (FILE.ron:FIELD=VALUE[,FIELD=VALUE..])
    #[arg(long)]
    pub engine: String,
    /// Self-play games to draw positions from
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Positions to fit on
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=1_000_000))]
    pub positions: u64,
    /// Seed of the games and the draw
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pairs as deep:shallow, comma-separated (default: deep 3 to --max-depth with shallow = 2·⌊deep/4⌋ + deep mod 2, at least 1)
    #[arg(long, value_delimiter = ',')]
    pub pairs: Vec<String>,
    /// Deepest pair when --pairs is not given
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(3..=20))]
    pub max_depth: u32,
    /// Stage bounds in empties, decreasing, ending at 0
    #[arg(long, value_delimiter = ',', default_values_t = [36u32, 24, 0])]
    pub stages: Vec<u32>,
    /// Confidence written to the file (cut when the prediction is this many sigmas beyond the window)
    #[arg(long, default_value_t = 1.5)]
    pub confidence: f64,
    /// Only positions with more empties than this (default: the engine's endgame_exact_at, or 12)
    #[arg(long)]
    pub min_empties: Option<u32>,
    /// Fit the pairs from the shallowest up, each deep value from a search that already cuts with the pairs below it (as in play; makes deep pairs affordable)
    #[arg(long)]
    pub nested: bool,
    /// The ProbCut file to write
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object: {"file","pairs":[...]}
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena probcut check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// An engine file with a ProbCut file, or one with fields changed (FILE.ron:FIELD=VALUE[,FIELD=VALUE..], e.g. probcut=other.ron)
    #[arg(long)]
    pub engine: String,
    /// Search depth
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Positions
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub positions: u64,
    /// Self-play games to draw positions from
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Seed of the games and the draw (use another than the fit's for held-out positions)
    #[arg(long, default_value_t = 2)]
    pub seed: u64,
    /// Use this confidence instead of the file's (sigmas beyond the window before a cut)
    #[arg(long)]
    pub confidence: Option<f64>,
    /// Print one JSON object (the report's fields)
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena probcut`.
///
/// # Errors
/// Bad arguments or engine file, I/O.
pub fn run(args: &ProbCutArgs) -> anyhow::Result<ExitCode> {
    match args {
        ProbCutArgs::Fit(a) => run_fit(a),
        ProbCutArgs::Check(a) => run_check(a),
        ProbCutArgs::FitEndgame(a) => run_fit_endgame(a),
    }
}

/// `(a, b)` pairs as the command line gives them: `a:b`, comma-separated.
fn pairs_text(pairs: &[(u32, u32)]) -> String {
    let items: Vec<String> = pairs.iter().map(|(a, b)| format!("{a}:{b}")).collect();
    items.join(",")
}

/// The command that regenerates an exact solver's cut model, recorded in
/// its header: the stages as parsed (most empties first).
fn fit_endgame_command(args: &FitEndgameArgs, stages: &[(u32, u32)]) -> String {
    format!(
        "arena probcut fit-endgame{} --games {} --positions {} --seed {} --stages {} --out {}",
        args.order_eval
            .as_ref()
            .map_or(String::new(), |p| format!(" --order-eval {}", p.display())),
        args.games,
        args.positions,
        args.seed,
        pairs_text(stages),
        args.out.display()
    )
}

/// The command that regenerates a ProbCut file, recorded in its header:
/// the pairs and fewest empties the fit settled on.
fn fit_command(opts: &ProbCutFitOptions, settled: &ProbCutFitSettled) -> String {
    format!(
        "arena probcut fit --engine {} --games {} --positions {} --seed {} --pairs {} --stages {} --confidence {} --min-empties {}{} --out {}",
        shell_word(&opts.engine_arg),
        opts.games,
        opts.positions,
        opts.seed,
        pairs_text(&settled.pairs),
        opts.stages.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
        opts.confidence,
        settled.min_empties,
        if opts.nested { " --nested" } else { "" },
        opts.out.display()
    )
}

fn run_fit_endgame(args: &FitEndgameArgs) -> anyhow::Result<ExitCode> {
    let stages = parse_stages(&args.stages)?;
    let command = fit_endgame_command(args, &stages);
    let eval = match &args.order_eval {
        Some(p) => crate::eval::OthelloEval::from_weights_file(p)?,
        None => crate::endgame::builtin::order_eval(),
    };
    let r = fit_endcut(&EndCutFitOptions {
        eval,
        eval_file: args.order_eval.clone(),
        games: args.games,
        positions: args.positions as usize,
        seed: args.seed,
        stages,
        out: args.out.clone(),
        threads: 0,
        command,
    })?;
    if args.json {
        print_json(&serde_json::json!({ "file": r.file, "pairs": r.pairs }))?;
    } else {
        let mut text = format!(
            "{:>7} {:>7} {:>7} {:>7} {:>8} {:>6} {:>5}\n",
            "empties", "shallow", "a", "b", "sigma", "r", "n"
        );
        for f in &r.pairs {
            text.push_str(&format!(
                "{:>7} {:>7} {:>7.3} {:>7.1} {:>8.1} {:>6.3} {:>5}\n",
                f.min_empties,
                f.pair.shallow,
                f.pair.a,
                f.pair.b,
                f.pair.sigma,
                f.correlation,
                f.samples
            ));
        }
        text.push_str(&format!("wrote {} in {:.1} s", r.file.display(), r.seconds));
        print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    let r = fit_probcut(&ProbCutFitOptions {
        engine: super::in_process_engine(&args.engine, "arena probcut fit", None)?,
        engine_arg: args.engine.clone(),
        games: args.games,
        positions: args.positions,
        seed: args.seed,
        pairs: args.pairs.clone(),
        max_depth: args.max_depth,
        stages: args.stages.clone(),
        confidence: args.confidence,
        nested: args.nested,
        min_empties: args.min_empties,
        out: args.out.clone(),
        threads: 0,
        command: fit_command,
    })?;
    if args.json {
        print_json(
            &serde_json::json!({ "file": r.file, "positions": r.positions, "pairs": r.pairs }),
        )?;
    } else {
        let mut text = format!(
            "{} positions; {:>5} {:>4} {:>7} {:>7} {:>8} {:>8} {:>5}\n",
            r.positions, "stage", "pair", "a", "b", "sigma", "r", "n"
        );
        for f in &r.pairs {
            text.push_str(&format!(
                "{:>15}{:>5} {:>4} {:>7.3} {:>7.1} {:>8.1} {:>8.3} {:>5}\n",
                "",
                f.min_empties,
                format!("{}:{}", f.pair.deep, f.pair.shallow),
                f.pair.a,
                f.pair.b,
                f.pair.sigma,
                f.correlation,
                f.samples
            ));
        }
        text.push_str(&format!("wrote {} in {:.1} s", r.file.display(), r.seconds));
        print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let r = check_probcut(&ProbCutCheckOptions {
        engine: super::in_process_engine(&args.engine, "arena probcut check", None)?,
        engine_arg: args.engine.clone(),
        depth: args.depth,
        positions: args.positions,
        games: args.games,
        seed: args.seed,
        confidence: args.confidence,
        threads: 0,
    })?;
    if args.json {
        print_json(&r)?;
    } else {
        print(&format!(
            "{} positions at depth {}: nodes {} without ProbCut, {} with ({:.1}% saved; time {:.1} s -> {:.1} s)\n\
             same best move: {} of {} ({:.1}%); mean |score difference| {:.2} discs; mean loss of the ProbCut move {:.3} discs",
            r.positions,
            r.depth,
            r.nodes_full,
            r.nodes_probcut,
            100.0 * (1.0 - r.nodes_probcut as f64 / r.nodes_full.max(1) as f64),
            r.seconds_full,
            r.seconds_probcut,
            r.same_move,
            r.positions,
            100.0 * r.same_move as f64 / r.positions.max(1) as f64,
            r.mean_score_difference,
            r.mean_move_loss
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
