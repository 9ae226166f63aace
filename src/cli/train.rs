//! `arena train FILE`: the evaluation's training pipeline, from a training
//! file (see `crate::lab::train`).

use super::{print, print_json};
use crate::lab::train::{train, Training};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena train`.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// The training file (RON): book, games, depths, labels, stages, output
    pub file: PathBuf,
    /// Threads (0: every core); the weights are the same for any number
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=256))]
    pub threads: u32,
    /// Print one JSON object: {"out","games","positions","stages":[...],"play_seconds","seconds","threads","checksum"}
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena train`.
///
/// # Errors
/// A bad training file (or a file it names); the weights cannot be written.
pub fn run(args: &TrainArgs) -> anyhow::Result<ExitCode> {
    let training = Training::load(&args.file)?;
    let bars = super::progress::Bars::default();
    let report = train(&training, args.threads as usize, &bars)?;
    if args.json {
        print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = format!(
        "{} games, {} positions ({} threads): self-play {:.1} s, {:.1} s in all\n",
        report.games, report.positions, report.threads, report.play_seconds, report.seconds
    );
    text.push_str(
        "empties  fitted  held out   exact  RMSE fit  RMSE held out (play weights)  CG steps  label s  fit s\n",
    );
    for s in &report.stages {
        text.push_str(&format!(
            "{:>2}-{:<2}  {:>8} {:>9} {:>7} {:>9.2} {:>14.2} ({:>6.2})        {:>8} {:>8.1} {:>6.1}\n",
            s.min_empties,
            s.max_empties,
            s.train,
            s.held_out,
            s.exact,
            s.rmse_train,
            s.rmse_held_out,
            s.rmse_held_out_play,
            s.iterations,
            s.label_seconds,
            s.fit_seconds,
        ));
    }
    text.push_str(&format!(
        "wrote {} (checksum {})",
        report.out.display(),
        report.checksum
    ));
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}
