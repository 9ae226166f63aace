//! `arena eval`: an engine's static evaluation of one position, with every
//! term, so a user can see why a weight change moved a score.

use super::{print, print_json};
use crate::engine::EngineConfig;
use crate::eval::{Term, UNITS_PER_DISC};
use crate::game::othello::board_string;
use crate::search::Evaluator;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena eval`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// The engine whose evaluation to use
    #[arg(long)]
    pub engine: PathBuf,
    /// The position: a position string or a move list (default: the start)
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Print one JSON object: {"engine","position","score","centidiscs","terms"}
    #[arg(long)]
    pub json: bool,
}

/// Result of `arena eval --json`.
#[derive(Debug, serde::Serialize)]
pub struct EvalReport {
    /// Engine name.
    pub engine: String,
    /// The position string.
    pub position: String,
    /// Score for the side to move, in discs.
    pub score: f64,
    /// The same in centidiscs (what the search sees).
    pub centidiscs: i32,
    /// Each term: name, value, weight, contribution (centidiscs).
    pub terms: Vec<Term>,
}

/// Runs `arena eval`.
///
/// # Errors
/// A bad engine file or position.
pub fn run(args: &EvalArgs) -> anyhow::Result<ExitCode> {
    let config = EngineConfig::load(&args.engine)?;
    let board = super::othello_position(args.position.as_deref())?;
    let v = config.eval.evaluate(&board);
    let report = EvalReport {
        engine: config.name.clone(),
        position: board_string(&board),
        score: f64::from(v) / f64::from(UNITS_PER_DISC),
        centidiscs: v,
        terms: config.eval.explain(&board),
    };
    if args.json {
        print_json(&report)?;
    } else {
        let mut text = format!(
            "{}\n{}: {:+.2} discs ({} centidiscs) for the side to move\n",
            report.position, report.engine, report.score, v
        );
        text.push_str(&format!(
            "{:<18} {:>8} {:>9} {:>13}\n",
            "term", "value", "weight", "contribution"
        ));
        for t in &report.terms {
            text.push_str(&format!(
                "{:<18} {:>8} {:>9} {:>13.1}\n",
                t.name, t.value, t.weight, t.contribution
            ));
        }
        print(text.trim_end())?;
    }
    Ok(ExitCode::SUCCESS)
}
