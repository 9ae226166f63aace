//! Searching an explicit game tree (`.tree.ron`) to its leaves with one
//! algorithm: the root value and the nodes visited (`arena tree`).

use super::{Searcher, Variant, ZeroEval};
use crate::game::tree::TreePos;

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
