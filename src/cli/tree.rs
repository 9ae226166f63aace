//! `arena tree`: searches an explicit game tree (`.tree.ron`) to its leaves
//! with one algorithm and reports the root value and the nodes visited.

use super::{print, print_json};
use crate::game::tree::TreeData;
use crate::search::tree::search_tree;
use crate::search::Variant;
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
