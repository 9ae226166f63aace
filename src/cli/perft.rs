//! `arena perft`: leaf counts of the game tree, for checking and timing move
//! generation.

use super::progress;
use super::{named, print, print_json};
use crate::game::perft::{perft_parts, MAX_PERFT_DEPTH};
use crate::game::tictactoe::TicTacToe;
use crate::game::Game;
use crate::game::GameKind;
use crate::Error;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `arena perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, default_value = "othello", value_parser = named(&GameKind::ALL, GameKind::name, GameKind::summary))]
    pub game: GameKind,
    /// Start from this position (Othello: a position string or a move list;
    /// tic-tac-toe: 9 cells like `X-O------` or a move list like `b2a1`)
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Plies to count, at most 20 (a pass is a ply; a finished game is a leaf wherever it ends)
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
    pub depth: u32,
    /// Play every last-ply move instead of counting them ("bulk counting" is the default)
    #[arg(long)]
    pub no_bulk: bool,
    /// Print one JSON object: {"game","depth","nodes","seconds","nps","bulk"}
    #[arg(long)]
    pub json: bool,
}

/// Result of a perft run, as printed by `--json`.
#[derive(Debug, serde::Serialize)]
pub struct PerftReport {
    /// The game (`othello` or `tictactoe`).
    pub game: &'static str,
    /// Depth in plies.
    pub depth: u32,
    /// Leaves counted.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Leaves per second.
    pub nps: f64,
    /// Whether the last ply was bulk-counted.
    pub bulk: bool,
}

/// Counts in parts, with a bar of the parts on a terminal.
fn count<G: Game>(pos: &G, depth: u32, bulk: bool) -> u64 {
    let bar = progress::bar(0, "subtrees");
    bar.set_message(format!("perft depth {depth}"));
    let nodes = perft_parts(pos, depth, bulk, |done, parts| {
        bar.set_length(parts as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    nodes
}

/// Runs `arena perft`.
///
/// # Errors
/// A bad `--position`.
pub fn run(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let bulk = !args.no_bulk;
    let start = Instant::now();
    let nodes = match args.game {
        GameKind::Othello => {
            let pos = super::othello_position(args.position.as_deref())?;
            count(&pos, args.depth, bulk)
        }
        GameKind::TicTacToe => {
            let pos = match &args.position {
                Some(p) => TicTacToe::parse(p).map_err(|source| Error::TicTacToe {
                    argument: "--position".into(),
                    source,
                })?,
                None => TicTacToe::new(),
            };
            count(&pos, args.depth, bulk)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let report = PerftReport {
        game: args.game.name(),
        depth: args.depth,
        nodes,
        seconds,
        nps: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        bulk,
    };
    if args.json {
        print_json(&report)?;
    } else {
        print(&format!(
            "perft {} depth {}: {} nodes in {:.3} s ({:.1} M nodes/s{})",
            report.game,
            report.depth,
            report.nodes,
            report.seconds,
            report.nps / 1e6,
            if bulk { ", bulk counting" } else { "" }
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
