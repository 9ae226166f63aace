//! The bench: the strong preset's search settings (PVS, deepening,
//! aspiration, table, ordering) with the fitted feature evaluation and
//! without ProbCut, at a fixed depth, over a fixed set of mid-game positions
//! (`tests/data/bench.txt`, built in). The evaluation and the missing
//! ProbCut keep the signature comparable across evaluation work. The total
//! node count is a deterministic signature of the search (any change to
//! search or evaluation that changes it shows up); nodes per second is the
//! speed figure. `arena bench` prints what these functions return.

use super::config::{EngineConfig, EngineKind, SearchEngine};
use crate::eval::{EvalBoard, EvalSpec, Features, OthelloEval};
use crate::game::othello::parse_position;
use crate::search::smp::{self, search_together};
use crate::search::{search, Fail, Limit, OrderBy, SearchSettings, SearchStats, Searcher, Variant};
use std::path::Path;
use std::time::Instant;

/// The bench positions, one position string per line.
pub const POSITIONS: &str = include_str!("../../tests/data/bench.txt");
/// The strong preset, built in so that the bench runs from anywhere.
const STRONG: &str = include_str!("../../engines/strong.ron");
/// The weights bench evaluates with.
const STRONG_WEIGHTS: &str = include_str!("../../engines/weights/features-fit.ron");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// The techniques of the node table: name, variant, deepening, table MiB,
/// ordering, aspiration; the last is `strong`'s window and ordering, as
/// `arena bench` searches.
fn techniques(strong: SearchEngine) -> Vec<(&'static str, SearchSettings, usize, Vec<OrderBy>)> {
    let s = |variant, deepening, aspiration| SearchSettings {
        time: crate::search::limits::TimeUse::default(),
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
            s(Variant::Pvs, true, strong.settings.aspiration),
            64,
            strong.ordering,
        ),
    ]
}

/// The strong preset's search as built in, with the fitted feature weights
/// and without ProbCut or the solver's selective passes (read from the
/// binary, so the bench runs from any folder).
///
/// # Panics
/// Never: the built-in preset is a valid searching engine (pinned by
/// tests).
fn strong() -> SearchEngine {
    let path = Path::new("engines/strong.ron");
    let checked =
        crate::util::parse_ron::<crate::engine::RawEngine>(STRONG, path).and_then(|mut raw| {
            // Check the settings with a file-free evaluation, then put back the
            // preset's own and load its weights from the binary.
            let eval = std::mem::replace(&mut raw.eval, EvalSpec::Discs);
            raw.probcut = None;
            raw.probcut_confidence = None;
            // The bench searches mid-game positions to a depth: no solver,
            // so neither its selective passes nor their cut model (a file).
            raw.endgame_selective_at = 0;
            raw.endcut = None;
            let weights = Features::parse(
                STRONG_WEIGHTS,
                Path::new("engines/weights/features-fit.ron"),
            )?;
            EngineConfig::check(raw, STRONG, path)
                .map(|c| c.with_eval(eval, OthelloEval::Features(weights)))
        });
    match checked.map(|c| c.kind) {
        Ok(EngineKind::Search(s)) => s,
        Ok(EngineKind::Random { .. }) | Err(_) => {
            panic!("the built-in strong preset is a valid searching engine")
        }
    }
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
        total += search(&mut s, &EvalBoard::new(pos, eval), &settings, None, 30)
            .stats
            .nodes;
    }
    total
}

/// The node table as Markdown: one row per depth, one column per technique.
pub fn table(max_depth: u32, budget: u64) -> String {
    let strong = strong();
    let eval = strong.eval.clone();
    let techniques = techniques(strong);
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
    /// Threads of each search.
    pub threads: usize,
    /// Total nodes: the signature (on one thread).
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Every counter, summed.
    pub stats: SearchStats,
    /// The code path the speed comes from: `avx2+bmi2` or `baseline`
    /// (chosen at run time; `ARENA_SIMD=off` forces the baseline).
    pub simd: &'static str,
}

/// Runs the bench at `depth` on one thread.
///
/// # Panics
/// Never for the built-in data (pinned by tests).
pub fn bench(depth: u32) -> BenchReport {
    bench_with(depth, 1, |_, _| {})
}

/// As [`bench`], each search on `threads` threads (1: the signature; more:
/// the parallel search, whose nodes vary from run to run: a measure of
/// time to depth), calling `progress(done, positions)` before the first
/// position and after each.
///
/// # Panics
/// Never for the built-in data (pinned by tests).
pub fn bench_with(depth: u32, threads: usize, progress: impl FnMut(usize, usize)) -> BenchReport {
    bench_engine(&strong(), depth, threads, progress)
}

/// As [`bench_with`], with the search of `engine` (its variant, window,
/// table, ordering, evaluation and ProbCut; not its endgame solver, which
/// the bench positions are too early for): a measure of that engine's time
/// to depth, whose node count is its own signature.
pub fn bench_engine(
    engine: &SearchEngine,
    depth: u32,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> BenchReport {
    let mut settings = engine.settings;
    settings.limit = Limit::Depth(depth);
    let mut total = SearchStats::default();
    let mut n = 0;
    let start = Instant::now();
    let lines: Vec<&str> = POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    progress(0, lines.len());
    for line in &lines {
        let pos = parse_position(line).expect("bench positions are valid");
        // A fresh searcher per position: the signature does not depend on order.
        let mut s = Searcher::new(engine.eval.clone(), engine.tt_mib, engine.ordering.clone());
        s.probcut = engine.probcut.clone();
        let mut helpers = smp::helpers(&s, threads);
        let pos = EvalBoard::new(pos, &engine.eval);
        let out = search_together(&mut s, &mut helpers, &pos, &settings, None, 30);
        total.add(&out.stats);
        n += 1;
        progress(n, lines.len());
    }
    let seconds = start.elapsed().as_secs_f64();
    BenchReport {
        positions: n,
        depth,
        threads,
        nodes: total.nodes,
        seconds,
        nps: if seconds > 0.0 {
            total.nodes as f64 / seconds
        } else {
            0.0
        },
        stats: total,
        simd: crate::game::cpu::chosen_name(),
    }
}
