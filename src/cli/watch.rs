//! `arena watch ROOT`: parses its arguments, makes Ctrl-C and SIGTERM end
//! it at once with exit code 130 (it writes nothing, so nothing is left
//! half done), prints the address it listens on and serves the runs
//! (crate::watch).

use crate::watch::{watch, Notice, WatchOptions};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena watch`.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// The folder whose runs to serve (a run folder, or a folder of them, nested)
    pub root: PathBuf,
    /// The address to listen on (port 0: any free port)
    #[arg(long, default_value = "127.0.0.1:8040")]
    pub listen: SocketAddr,
    /// A command to run when a run seen playing decides or ends, with the
    /// run's summary as one JSON line on its standard input (split into
    /// words like a command line, quotes kept together; no shell)
    #[arg(long, value_name = "CMD")]
    pub on_decision: Option<String>,
}

/// Runs `arena watch` until stopped.
///
/// # Errors
/// A root that is not a folder, an address that cannot be bound, an
/// `--on-decision` with an unclosed quote.
pub fn run(args: &WatchArgs) -> anyhow::Result<ExitCode> {
    let on_decision = match &args.on_decision {
        Some(text) => Some(words(text).ok_or_else(|| {
            super::usage(
                "--on-decision",
                format!("{text:?} has an unclosed quote or no command"),
            )
        })?),
        None => None,
    };
    crate::util::sys::on_stop_signals(|_| std::process::exit(130));
    let options = WatchOptions {
        root: args.root.clone(),
        listen: args.listen,
        on_decision,
    };
    let tell = |notice: Notice| crate::util::eprint_line(&notice_line(&notice));
    watch(
        &options,
        |addr| {
            let _ = super::print(&format!("arena watch: http://{addr}/"));
        },
        std::sync::Arc::new(tell),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A notice of the watcher as the one line it prints on stderr.
fn notice_line(notice: &Notice) -> String {
    match notice {
        Notice::NotStarted {
            run,
            program,
            error,
        } => format!(
            "arena watch: --on-decision for run {run:?}: cannot run {program:?}: {error}; watching goes on"
        ),
        Notice::Failed {
            run,
            program,
            status,
        } => format!(
            "arena watch: --on-decision for run {run:?}: {program:?} failed ({status}); watching goes on"
        ),
    }
}

/// `text` split into words as a command line splits them: at spaces,
/// except inside '…' or "…", a backslash keeping the next character.
/// `None` for an unclosed quote or no word at all.
pub fn words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                word.push(chars.next()?);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_word {
        words.push(word);
    }
    (!words.is_empty()).then_some(words)
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn a_command_is_split_like_a_command_line() {
        assert_eq!(
            words("notify-send 'run ended'").unwrap(),
            ["notify-send", "run ended"]
        );
        assert_eq!(
            words(r#"sh -c "cat > x" a\ b"#).unwrap(),
            ["sh", "-c", "cat > x", "a b"]
        );
        assert_eq!(words("a ''").unwrap(), ["a", ""]);
        assert!(words("a 'b").is_none());
        assert!(words("   ").is_none());
    }
}
