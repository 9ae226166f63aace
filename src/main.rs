//! The `arena` binary: parses arguments and calls the library. Errors are
//! printed as one line (`error: ...` with the cause chain) and exit code 1
//! (101 for an internal error); usage errors are clap's, exit code 2; a
//! panic is one line from the library's hook and exit code 101.

use std::process::ExitCode;

fn main() -> ExitCode {
    arena::util::panic::install_hook();
    let cli = match arena::cli::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match arena::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            arena::util::eprint_line(&format!("error: {err:#}"));
            let internal = matches!(
                err.downcast_ref::<arena::Error>(),
                Some(arena::Error::Internal(_))
            );
            ExitCode::from(if internal { 101 } else { 1 })
        }
    }
}
