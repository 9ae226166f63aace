//! The `arena` binary: parses arguments and calls the library. Errors are
//! printed as one line (`error: ...` with the cause chain) and exit code 1;
//! usage errors are clap's, exit code 2.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = arena::cli::Cli::parse();
    match arena::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
