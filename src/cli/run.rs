//! `arena run`, `arena report` and `arena merge`: tournaments.

use super::{observe, print};
use crate::report::colour::Paint;
use crate::tournament::config::Overrides;
use crate::tournament::{self, RunObserver, RunOptions, Shard, Tournament};
use crate::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The tournament config (RON)
    pub config: PathBuf,
    /// Worker threads (games at once), 1 to 256, instead of the config's
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub concurrency: Option<usize>,
    /// Output folder, instead of the config's
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play only slice K of N (pairs p with p % N == K - 1); merge slices with `arena merge`
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Resume, overwrite, quiet, events.
    #[command(flatten)]
    pub folder: FolderArgs,
    /// Rounds of a round-robin or gauntlet, instead of the config's
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,
    /// Seed, instead of the config's
    #[arg(long)]
    pub seed: Option<u64>,
}

/// What to do with an output folder that holds a run, and how much to say:
/// shared by `arena run` and `arena match`.
#[derive(Debug, clap::Args)]
pub struct FolderArgs {
    /// Continue the journal in the output folder (after a kill or Ctrl-C)
    #[arg(long, conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the journal and results in the output folder, starting afresh
    #[arg(long)]
    pub overwrite: bool,
    /// Print nothing but errors
    #[arg(long)]
    pub quiet: bool,
    /// Also write the run as JSON lines to FILE (replaced if it exists),
    /// flushed line by line: one object per finished game, per update of
    /// the statistics, and one at the end ("finished" or "stopped")
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
}

impl FolderArgs {
    /// The run options these flags give (with Ctrl-C and SIGTERM as stop
    /// requests).
    pub fn run_options(&self) -> RunOptions {
        RunOptions {
            resume: self.resume,
            overwrite: self.overwrite,
            stop: stop_requests(),
            ..RunOptions::default()
        }
    }

    /// What the run shows (`--quiet`, a terminal or not) and writes
    /// (`--events`).
    ///
    /// # Errors
    /// An events file that cannot be created.
    pub fn observer(&self) -> anyhow::Result<Box<dyn RunObserver>> {
        observe::observer(self.quiet, self.events.as_deref())
    }
}

/// Arguments of `arena report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A results folder (with journal.jsonl and tournament.json)
    pub dir: PathBuf,
    /// Print results.json instead of the text report
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Results folders of shards of one config
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The folder to write the merged run to (must not hold a journal)
    #[arg(long)]
    pub out: PathBuf,
    /// Merge the shards that are there, finished or not, and mark the
    /// results partial (a partial SPRT never decides)
    #[arg(long)]
    pub allow_partial: bool,
}

/// The process exit code `c`.
pub fn code(c: u8) -> ExitCode {
    ExitCode::from(c)
}

/// Runs `arena run`.
///
/// # Errors
/// A bad config, an output folder of another run, I/O.
pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(|message| Error::Usage {
            argument: "--shard".into(),
            message,
        })?,
        None => Shard::ALL,
    };
    let overrides = Overrides {
        rounds: args.rounds,
        seed: args.seed,
    };
    let t = Tournament::load_with(&args.config, &overrides)?;
    let mut observer = args.folder.observer()?;
    let outcome = tournament::run(
        &t,
        &RunOptions {
            concurrency: args.concurrency,
            out: args.out.clone(),
            shard,
            ..args.folder.run_options()
        },
        &mut observer,
    )?;
    Ok(code(outcome.exit_code))
}

/// Ctrl-C and SIGTERM as a channel of stop requests (`None` when the
/// handler cannot be installed: then they end the process as usual).
pub fn stop_requests() -> Option<crossbeam_channel::Receiver<()>> {
    let (tx, rx) = crossbeam_channel::unbounded();
    ctrlc::set_handler(move || {
        let _ = tx.send(());
    })
    .ok()
    .map(|()| rx)
}

/// Runs `arena report`.
///
/// # Errors
/// A missing or bad journal.
pub fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let (info, results) = tournament::report(&args.dir)?;
    if args.json {
        print(&serde_json::to_string_pretty(&results)?)?;
    } else {
        print(&results.final_text(Paint::for_stdout()))?;
    }
    Ok(code(tournament::exit_code(&info, &results)))
}

/// Runs `arena merge`.
///
/// # Errors
/// Folders of different configs, an occupied output folder, I/O.
pub fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let (info, results) = tournament::merge(&args.dirs, &args.out, args.allow_partial)?;
    print(&results.final_text(Paint::for_stdout()))?;
    print(&format!(
        "Merged {} games into {}",
        results.games_played,
        args.out.display()
    ))?;
    Ok(code(tournament::exit_code(&info, &results)))
}
