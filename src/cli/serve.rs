//! `arena serve`: one of our engines on standard input and output, over
//! the NBoard protocol or GTP (the library's `engine::serve` does the
//! work).

use crate::engine::external::Protocol;
use crate::engine::serve::{serve_on, Served};
use crate::search::Limit;
use crate::Error;
use std::process::ExitCode;

/// Arguments of `arena serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The engine file (an in-process engine), or FILE.ron:FIELD=VALUE[,...]
    /// (the file with fields changed, as `arena match` takes it)
    #[arg(long, value_name = "FILE")]
    pub engine: String,
    /// The protocol to speak on standard input and output
    #[arg(long, value_parser = super::named(&Protocol::ALL, Protocol::name, Protocol::summary))]
    pub protocol: Protocol,
    /// Play on a game clock, seconds for the game plus seconds per move
    /// (10+0.1), counted by the engine itself from each new game
    #[arg(long, value_name = "BASE+INC", value_parser = super::matchup::parse_tc, conflicts_with_all = ["movetime", "depth"])]
    pub tc: Option<Limit>,
    /// Play with this many milliseconds per move, instead of the file's limit
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000), conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// Search to this depth, instead of the file's limit
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
}

/// Runs `arena serve` until `quit` or the end of the input.
///
/// # Errors
/// A bad engine file, an external engine, or failed I/O.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let config = super::in_process_engine(&args.engine, "arena serve", None)?;
    let mut served = Served::new(&config);
    let limit = (args.tc)
        .or(args.movetime.map(Limit::MoveTime))
        .or(args.depth.map(Limit::Depth));
    if let Some(limit) = limit {
        if !served.set_limit(limit) {
            return Err(Error::Argument {
                argument: "--tc/--movetime/--depth".into(),
                message: format!("{} does not search, so it takes no limit", args.engine),
            }
            .into());
        }
    }
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    // The input is read on a thread of its own (so a `ping` stops a search).
    let stdin = std::io::BufReader::new(stdin);
    match serve_on(&mut served, args.protocol, stdin, stdout.lock()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => {
            other?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
