//! `arena probcut fit` and `arena probcut check`: fit an engine's ProbCut
//! parameters, and measure what they save and cost.

use super::{print, print_json};
use crate::engine::EngineConfig;
use crate::lab::probcut::{check, fit, sample_positions, Sampling};
use crate::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena probcut`.
#[derive(Debug, clap::Subcommand)]
pub enum ProbCutArgs {
    /// Fit v_deep ≈ a·v_shallow + b (and sigma) per stage and depth pair on self-play positions; write a ProbCut file
    Fit(FitArgs),
    /// Search positions with and without an engine's ProbCut: nodes, best-move agreement, score difference
    Check(CheckArgs),
}

/// Arguments of `arena probcut fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// The engine whose evaluation, table and ordering to use (its own ProbCut file is ignored)
    #[arg(long)]
    pub engine: PathBuf,
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
    /// An engine with a ProbCut file
    #[arg(long)]
    pub engine: PathBuf,
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
    }
}

fn argument(argument: &str, message: String) -> anyhow::Error {
    Error::Argument {
        argument: argument.into(),
        message,
    }
    .into()
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Positions for fitting or checking: more empties than the engine solves
/// exactly (12 when it does not).
fn default_min_empties(config: &EngineConfig) -> u32 {
    if config.raw.endgame_exact_at > 0 {
        config.raw.endgame_exact_at
    } else {
        12
    }
}

/// `positions` positions with more than `min_empties` empties from `games`
/// seeded self-play games with the engine's evaluation.
fn draw(
    config: &EngineConfig,
    games: u32,
    seed: u64,
    positions: u64,
    min_empties: u32,
) -> Vec<crate::game::othello::Board> {
    sample_positions(
        &config.eval,
        &Sampling {
            games,
            seed,
            positions: positions as usize,
            min_empties,
            threads: threads(),
        },
    )
}

fn searching_engine(path: &std::path::Path) -> anyhow::Result<EngineConfig> {
    let config = EngineConfig::load(path)?;
    if config.search.is_none() {
        return Err(argument(
            "--engine",
            format!(
                "{} is the random mover; ProbCut needs a searching engine",
                path.display()
            ),
        ));
    }
    Ok(config)
}

fn run_fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    let config = searching_engine(&args.engine)?;
    let pairs: Vec<(u32, u32)> = if args.pairs.is_empty() {
        (3..=args.max_depth)
            .map(|d| (d, (2 * (d / 4) + d % 2).max(1)))
            .collect()
    } else {
        args.pairs
            .iter()
            .map(|p| {
                let parsed = p.split_once(':').and_then(|(a, b)| {
                    Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?))
                });
                match parsed {
                    Some((d, s)) if (1..=20).contains(&d) && s < d => Ok((d, s)),
                    _ => Err(argument(
                        "--pairs",
                        format!(
                            "{p:?} is not deep:shallow with 1 <= deep <= 20 and shallow < deep"
                        ),
                    )),
                }
            })
            .collect::<anyhow::Result<_>>()?
    };
    if args.stages.is_empty()
        || args.stages.windows(2).any(|w| w[0] <= w[1])
        || *args.stages.last().unwrap_or(&1) != 0
    {
        return Err(argument(
            "--stages",
            format!(
                "{:?}: give empties bounds strictly decreasing and ending at 0",
                args.stages
            ),
        ));
    }
    if !(args.confidence.is_finite() && (0.0..=10.0).contains(&args.confidence)) {
        return Err(argument(
            "--confidence",
            format!("{} is not a number from 0 to 10", args.confidence),
        ));
    }
    let min_empties = args.min_empties.unwrap_or(default_min_empties(&config));
    let start = std::time::Instant::now();
    let positions = draw(&config, args.games, args.seed, args.positions, min_empties);
    if positions.len() < 10 {
        return Err(argument(
            "--games",
            format!(
                "only {} positions with more than {min_empties} empties came from {} games; play more games",
                positions.len(),
                args.games
            ),
        ));
    }
    let (pc, fits) = fit(
        &config,
        &positions,
        &pairs,
        &args.stages,
        args.confidence,
        threads(),
    );
    let pair_text: Vec<String> = pairs.iter().map(|(d, s)| format!("{d}:{s}")).collect();
    let header = vec![
        format!("ProbCut parameters for {} (values in centidiscs).", config.name),
        format!(
            "arena probcut fit --engine {} --games {} --positions {} --seed {} --pairs {} --stages {} --confidence {} --min-empties {min_empties} --out {}",
            args.engine.display(),
            args.games,
            args.positions,
            args.seed,
            pair_text.join(","),
            args.stages.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
            args.confidence,
            args.out.display()
        ),
        format!(
            "{} positions from self-play with the engine's evaluation, searched by PVS to each depth (see src/engine/probcut.rs).",
            positions.len()
        ),
    ];
    crate::util::write_atomic(&args.out, &pc.to_file(&header))?;
    if args.json {
        print_json(
            &serde_json::json!({ "file": args.out, "positions": positions.len(), "pairs": fits }),
        )?;
    } else {
        let mut text = format!(
            "{} positions; {:>5} {:>4} {:>7} {:>7} {:>8} {:>8} {:>5}\n",
            positions.len(),
            "stage",
            "pair",
            "a",
            "b",
            "sigma",
            "r",
            "n"
        );
        for f in &fits {
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
        text.push_str(&format!(
            "wrote {} in {:.1} s",
            args.out.display(),
            start.elapsed().as_secs_f64()
        ));
        print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let mut config = searching_engine(&args.engine)?;
    if let (Some(c), Some(pc)) = (args.confidence, config.probcut.as_mut()) {
        if !(c.is_finite() && (0.0..=10.0).contains(&c)) {
            return Err(argument(
                "--confidence",
                format!("{c} is not a number from 0 to 10"),
            ));
        }
        pc.confidence = c;
    }
    if config.probcut.is_none() {
        return Err(argument(
            "--engine",
            format!(
                "{} has no ProbCut file (probcut: None)",
                args.engine.display()
            ),
        ));
    }
    let min_empties = default_min_empties(&config);
    let positions = draw(&config, args.games, args.seed, args.positions, min_empties);
    let r = check(&config, &positions, args.depth, threads());
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
