//! `arena bench`: the strong preset's search, at a fixed depth, over a fixed
//! set of mid-game positions (`tests/data/bench.txt`, built in). The total
//! node count is a deterministic signature of the search (any change to
//! search or evaluation that changes it shows up); nodes per second is the
//! speed figure.

use super::{print, print_json};
use crate::engine::EngineConfig;
use crate::eval::{Features, OthelloEval};
use crate::game::othello::parse_position;
use crate::search::{search, Limit, SearchStats, Searcher};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// The bench positions, one position string per line.
pub const POSITIONS: &str = include_str!("../../tests/data/bench.txt");
/// The strong preset, built in so that `bench` runs from anywhere.
const STRONG: &str = include_str!("../../engines/strong.ron");
/// Its weights.
const STRONG_WEIGHTS: &str = include_str!("../../engines/weights/features-v1.ron");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// Arguments of `arena bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Search depth for every position
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Print one JSON object: {"positions","depth","nodes","seconds","nps"}
    #[arg(long)]
    pub json: bool,
}

/// Result of `arena bench`.
#[derive(Debug, serde::Serialize)]
pub struct BenchReport {
    /// Number of positions searched.
    pub positions: usize,
    /// Depth.
    pub depth: u32,
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Every counter, summed.
    pub stats: SearchStats,
}

/// Runs the bench at `depth` (library entry point, used by tests).
///
/// # Panics
/// Never for the built-in data (pinned by tests).
pub fn bench(depth: u32) -> BenchReport {
    let mut config = EngineConfig::parse(
        &STRONG.replace("Features(weights: \"weights/features-v1.ron\")", "Discs"),
        Path::new("engines/strong.ron"),
    )
    .expect("the built-in strong preset is valid");
    config.eval = OthelloEval::Features(
        Features::parse(STRONG_WEIGHTS, Path::new("engines/weights/features-v1.ron"))
            .expect("built-in weights"),
    );
    let mut settings = config.search.expect("the strong preset searches");
    settings.limit = Limit::Depth(depth);
    let mut total = SearchStats::default();
    let mut n = 0;
    let start = Instant::now();
    for line in POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let pos = parse_position(line).expect("bench positions are valid");
        // A fresh searcher per position: the signature does not depend on order.
        let mut s = Searcher::new(
            config.eval.clone(),
            config.raw.tt_mib,
            config.raw.ordering.clone(),
        );
        let out = search(&mut s, &pos, &settings, None, 30);
        total.add(&out.stats);
        n += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    BenchReport {
        positions: n,
        depth,
        nodes: total.nodes,
        seconds,
        nps: if seconds > 0.0 {
            total.nodes as f64 / seconds
        } else {
            0.0
        },
        stats: total,
    }
}

/// Runs `arena bench`.
///
/// # Errors
/// Output errors only.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if args.depth == 0 {
        return Err(crate::Error::Argument {
            argument: "--depth".into(),
            message: "must be at least 1".into(),
        }
        .into());
    }
    let r = bench(args.depth);
    if args.json {
        print_json(&r)?;
    } else {
        print(&format!(
            "bench: {} positions, depth {}: {} nodes in {:.3} s ({:.2} M nodes/s)",
            r.positions,
            r.depth,
            r.nodes,
            r.seconds,
            r.nps / 1e6
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
