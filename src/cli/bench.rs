//! `arena bench`: runs the bench ([`crate::engine::bench`]) and prints its
//! signature and speed, or the node table by technique.

use super::progress;
use super::{print, print_json};
use crate::engine::bench::{bench_engine, bench_with, table, DEFAULT_DEPTH};
use crate::engine::config::MAX_THREADS;
use crate::engine::EngineConfig;
use crate::search::limits::MAX_DEPTH;
use crate::Error;
use std::process::ExitCode;

/// Arguments of `arena bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position, 1 to 60
    #[arg(long, default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: u32,
    /// Threads of each search, 1 to 256: more than 1 measures time to depth
    /// (the node count then varies from run to run)
    #[arg(long, default_value_t = 1, conflicts_with = "table",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64))]
    pub threads: usize,
    /// Print one JSON object: {"positions","depth","threads","nodes","seconds","nps"}
    #[arg(long)]
    pub json: bool,
    /// Print a Markdown table of total nodes by technique for depths 1 to
    /// --max-depth instead (the README's table)
    #[arg(long)]
    pub table: bool,
    /// Deepest row of --table, 1 to 60
    #[arg(long, default_value_t = 8, requires = "table",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub max_depth: u32,
    /// With --table: skip a cell when the previous depth's count times the
    /// growth seen so far would pass this many nodes
    #[arg(long, default_value_t = 400_000_000, requires = "table")]
    pub budget: u64,
    /// Bench this engine file's search instead (its variant, window,
    /// table, ordering, evaluation and ProbCut; --threads, not its own):
    /// its time to depth, and its own node count
    #[arg(long, value_name = "FILE", conflicts_with = "table")]
    pub engine: Option<std::path::PathBuf>,
}

/// Runs `arena bench`.
///
/// # Errors
/// An engine file that cannot be read or does not search; output errors.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if args.table {
        let spinner = progress::spinner(format!("node table to depth {}", args.max_depth));
        let table = table(args.max_depth, args.budget);
        spinner.finish_and_clear();
        print(&table)?;
        return Ok(ExitCode::SUCCESS);
    }
    let bar = progress::bar(0, "positions");
    bar.set_message(format!("bench depth {}", args.depth));
    let progress = |done: usize, positions: usize| {
        bar.set_length(positions as u64);
        bar.set_position(done as u64);
    };
    let r = match &args.engine {
        None => bench_with(args.depth, args.threads, progress),
        Some(path) => {
            let config = EngineConfig::load(path)?;
            let Some(engine) = config.searching() else {
                return Err(Error::usage(
                    "engine",
                    format!("{}: the random mover does not search", path.display()),
                )
                .into());
            };
            bench_engine(engine, args.depth, args.threads, progress)
        }
    };
    bar.finish_and_clear();
    if args.json {
        print_json(&r)?;
    } else {
        print(&format!(
            "bench: {} positions, depth {}{}: {} nodes in {:.3} s ({:.2} M nodes/s, simd {})",
            r.positions,
            r.depth,
            match r.threads {
                1 => String::new(),
                n => format!(", {n} threads"),
            },
            r.nodes,
            r.seconds,
            r.nps / 1e6,
            r.simd
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
