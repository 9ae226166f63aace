//! `arena bench`: the strong preset's search settings (PVS, deepening,
//! aspiration, table, ordering) with the fitted feature evaluation and
//! without ProbCut, at a fixed depth, over a fixed set of mid-game positions
//! (`tests/data/bench.txt`, built in). The evaluation and the missing
//! ProbCut keep the signature comparable across evaluation work. The total
//! node count is a deterministic signature of the search (any change to
//! search or evaluation that changes it shows up); nodes per second is the
//! speed figure.

use super::{print, print_json};
use crate::engine::EngineConfig;
use crate::eval::{Features, OthelloEval};
use crate::game::othello::parse_position;
use crate::search::{search, Fail, Limit, OrderBy, SearchSettings, SearchStats, Searcher, Variant};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// The bench positions, one position string per line.
pub const POSITIONS: &str = include_str!("../../tests/data/bench.txt");
/// The strong preset, built in so that `bench` runs from anywhere.
const STRONG: &str = include_str!("../../engines/strong.ron");
/// The weights bench evaluates with.
const STRONG_WEIGHTS: &str = include_str!("../../engines/weights/features-fit.ron");

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
    /// Print a Markdown table of total nodes by technique for depths 1 to
    /// --max-depth instead (the README's table)
    #[arg(long)]
    pub table: bool,
    /// Deepest row of --table
    #[arg(long, default_value_t = 8, requires = "table")]
    pub max_depth: u32,
    /// With --table: skip a cell when the previous depth's count times the
    /// growth seen so far would pass this many nodes
    #[arg(long, default_value_t = 400_000_000, requires = "table")]
    pub budget: u64,
}

/// The techniques of the node table: name, variant, deepening, table MiB,
/// ordering, aspiration.
fn techniques() -> Vec<(&'static str, SearchSettings, usize, Vec<OrderBy>)> {
    let s = |variant, deepening, aspiration| SearchSettings {
        variant,
        deepening,
        aspiration,
        limit: Limit::Depth(1),
    };
    let soft = Variant::AlphaBeta { fail: Fail::Soft };
    let order = vec![
        OrderBy::Killers,
        OrderBy::FastestFirst,
        OrderBy::History,
        OrderBy::SquareWeights,
    ];
    let tt_order = vec![
        OrderBy::HashMove,
        OrderBy::Killers,
        OrderBy::FastestFirst,
        OrderBy::History,
    ];
    vec![
        ("minimax", s(Variant::Minimax, false, None), 0, vec![]),
        ("alpha-beta, board order", s(soft, false, None), 0, vec![]),
        ("alpha-beta, ordered", s(soft, false, None), 0, order),
        (
            "PVS + TT + ordering",
            s(Variant::Pvs, true, None),
            16,
            tt_order.clone(),
        ),
        ("MTD(f) + TT", s(Variant::MtdF, true, None), 16, tt_order),
        (
            "strong preset",
            s(Variant::Pvs, true, Some(50)),
            64,
            strong_order(),
        ),
    ]
}

fn strong_order() -> Vec<OrderBy> {
    strong_config().raw.ordering
}

/// The strong preset's settings as built in, with the fitted feature
/// weights and without ProbCut (read from the binary, so `bench` runs from
/// any folder).
fn strong_config() -> EngineConfig {
    let path = Path::new("engines/strong.ron");
    let mut raw: crate::engine::RawEngine =
        crate::util::parse_ron(STRONG, path).expect("the built-in strong preset parses");
    // Check the settings with a file-free evaluation, then put back the
    // preset's own and load its weights from the binary.
    let eval = std::mem::replace(&mut raw.eval, crate::eval::EvalSpec::Discs);
    raw.probcut = None;
    let mut config =
        EngineConfig::check(raw, STRONG, path).expect("the built-in strong preset is valid");
    config.raw.eval = eval;
    config.eval = OthelloEval::Features(
        Features::parse(
            STRONG_WEIGHTS,
            Path::new("engines/weights/features-fit.ron"),
        )
        .expect("built-in weights"),
    );
    config
}

/// Total nodes of one technique at one depth over the bench positions.
fn total_nodes(
    settings: &SearchSettings,
    tt_mib: usize,
    order: &[OrderBy],
    eval: &OthelloEval,
    depth: u32,
) -> u64 {
    let mut settings = *settings;
    settings.limit = Limit::Depth(depth);
    let mut total = 0;
    for line in POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let pos = parse_position(line).expect("bench positions are valid");
        let mut s = Searcher::new(eval.clone(), tt_mib, order.to_vec());
        total += search(&mut s, &pos, &settings, None, 30).stats.nodes;
    }
    total
}

/// The node table as Markdown: one row per depth, one column per technique.
pub fn table(max_depth: u32, budget: u64) -> String {
    let eval = strong_config().eval;
    let techniques = techniques();
    let mut out = String::from("| depth |");
    for (name, ..) in &techniques {
        out.push_str(&format!(" {name} |"));
    }
    out.push_str("\n| ---: |");
    for _ in &techniques {
        out.push_str(" ---: |");
    }
    let mut last: Vec<Option<u64>> = vec![None; techniques.len()];
    let mut growth: Vec<f64> = vec![1.0; techniques.len()];
    for depth in 1..=max_depth {
        out.push_str(&format!("\n| {depth} |"));
        for (k, (_, settings, tt, order)) in techniques.iter().enumerate() {
            let skip = match last[k] {
                Some(n) => (n as f64 * growth[k]) > budget as f64,
                None => depth > 1,
            };
            if skip {
                last[k] = None;
                out.push_str(" - |");
                continue;
            }
            let n = total_nodes(settings, *tt, order, &eval, depth);
            if let Some(prev) = last[k] {
                growth[k] = (n as f64 / prev.max(1) as f64).max(1.0);
            }
            last[k] = Some(n);
            out.push_str(&format!(" {n} |"));
        }
    }
    out
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
    let config = strong_config();
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
        return Err(crate::Error::Usage {
            argument: "--depth".into(),
            message: "must be at least 1".into(),
        }
        .into());
    }
    if args.table {
        print(&table(args.max_depth, args.budget))?;
        return Ok(ExitCode::SUCCESS);
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
