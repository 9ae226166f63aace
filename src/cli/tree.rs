//! `arena tree`: searches an explicit game tree (`.tree.ron`) to its leaves
//! with one algorithm and reports the root value and the nodes visited.

use super::{print, print_json};
use crate::game::tree::{TreeData, TreePos};
use crate::search::{Searcher, Variant, ZeroEval};
use crate::util::text::read_text;
use crate::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena tree`.
#[derive(Debug, clap::Args)]
pub struct TreeArgs {
    /// A tree file: nested lists, integers are leaf values for the first player (MAX)
    pub file: PathBuf,
    /// The search algorithm
    #[arg(long, value_parser = super::named(&Variant::ALL, Variant::name, Variant::summary))]
    pub algorithm: Variant,
    /// Print one JSON object: {"value","nodes"}
    #[arg(long)]
    pub json: bool,
}

/// Result of `arena tree --json`.
#[derive(Debug, serde::Serialize)]
pub struct TreeReport {
    /// The root's (MAX's) value.
    pub value: i32,
    /// Nodes visited: root, inner nodes and leaves.
    pub nodes: u64,
    /// The algorithm, as named on the command line.
    pub algorithm: &'static str,
    /// Best move at the root (0-based child index).
    pub best_move: Option<u8>,
}

/// Searches `root` to its leaves with `variant`.
pub fn search_tree(root: &TreePos, variant: Variant) -> TreeReport {
    let depth = u32::MAX / 2;
    let tt_mib = usize::from(variant == Variant::MtdF);
    let mut s: Searcher<TreePos, ZeroEval> = Searcher::new(ZeroEval, tt_mib, Vec::new());
    let value = s.full_window(root, variant, depth);
    TreeReport {
        value,
        nodes: s.stats.nodes,
        algorithm: variant.name(),
        best_move: s.root_best().map(|b| b.0),
    }
}

/// Runs `arena tree`.
///
/// # Errors
/// The file cannot be read or is not a tree.
pub fn run(args: &TreeArgs) -> anyhow::Result<ExitCode> {
    let text = read_text(&args.file)?;
    let root = TreeData::parse(&text).map_err(|source| Error::Tree {
        path: args.file.clone(),
        source,
    })?;
    let report = search_tree(&root, args.algorithm);
    if args.json {
        print_json(&report)?;
    } else {
        print(&format!(
            "{}: value {}, {} nodes visited{}",
            report.algorithm,
            report.value,
            report.nodes,
            report
                .best_move
                .map(|b| format!(", best move: child {b}"))
                .unwrap_or_default()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
