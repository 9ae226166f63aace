//! `arena serve`: one of our engines on standard input and output, over
//! the NBoard protocol or GTP (the library's `engine::serve` does the
//! work).

use crate::engine::external::Protocol;
use crate::engine::serve::serve;
use crate::engine::EngineSpec;
use crate::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The engine file (an in-process engine)
    #[arg(long)]
    pub engine: PathBuf,
    /// The protocol to speak on standard input and output
    #[arg(long, value_parser = super::named(&Protocol::ALL, Protocol::name, Protocol::summary))]
    pub protocol: Protocol,
}

/// Runs `arena serve` until `quit` or the end of the input.
///
/// # Errors
/// A bad engine file, an external engine, or failed I/O.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let spec = EngineSpec::load(&args.engine, None)?;
    let Some(config) = spec.in_process() else {
        return Err(Error::Argument {
            argument: "--engine".into(),
            message: format!(
                "{} is an External engine; arena serve serves in-process engines",
                args.engine.display()
            ),
        }
        .into());
    };
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    match serve(config, args.protocol, stdin.lock(), stdout.lock()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => {
            other?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
