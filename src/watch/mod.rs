//! `arena watch ROOT`: a live, read-only web page of every run under a
//! folder. A thread refreshes the runs ([`board`]: found by a bounded walk;
//! [`follow`]: each journal read from where the last read stopped, each
//! game counted into the running tallies the runner keeps,
//! [`crate::report::Live`], whose figures are [`crate::report::analyse`]'s,
//! and dropped) about every half second and publishes a snapshot; the HTTP
//! server ([`http`]) serves the snapshot (pages from [`pages`]). Nothing
//! is written and no lock taken; a command run on a decision that fails
//! is told to the caller ([`Notice`]).

pub mod board;
pub mod follow;
pub mod http;
pub mod journal;
pub mod pages;
pub mod workers;

use crate::error::{Error, Result};
use board::Board;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the runs are read again.
pub const REFRESH: Duration = Duration::from_millis(500);

/// What to watch, and where to serve it.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// The folder whose runs are served.
    pub root: PathBuf,
    /// The address to listen on.
    pub listen: SocketAddr,
    /// A command run when a run seen playing decides or ends: its words,
    /// the run's summary on its standard input as one JSON line.
    pub on_decision: Option<Vec<String>>,
}

/// What the watcher tells its caller while it serves (`cli/` words it);
/// it goes on serving after each.
#[derive(Debug)]
pub enum Notice {
    /// `--on-decision`'s command, for the run `run`, could not be started.
    NotStarted {
        /// The run's name.
        run: String,
        /// The command's program.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// `--on-decision`'s command, for the run `run`, ended in failure.
    Failed {
        /// The run's name.
        run: String,
        /// The command's program.
        program: String,
        /// How it ended.
        status: std::process::ExitStatus,
    },
}

/// Where the watcher's notices go.
pub type Tell = Arc<dyn Fn(Notice) + Send + Sync>;

/// Serves the runs under `options.root` on `options.listen` until the
/// process ends; `ready` is told the address bound (port 0 picks one),
/// `tell` each [`Notice`].
///
/// # Errors
/// A root that is not a folder; an address that cannot be bound.
pub fn watch(options: &WatchOptions, ready: impl FnOnce(SocketAddr), tell: Tell) -> Result<()> {
    let root = &options.root;
    match std::fs::metadata(root) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            let e = std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder");
            return Err(Error::io(root, e));
        }
        Err(e) => return Err(Error::io(root, e)),
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| Error::Run(format!("cannot start the server: {e}").into()))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.listen))
        .map_err(|e| Error::Run(format!("cannot listen on {}: {e}", options.listen).into()))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Run(format!("cannot listen on {}: {e}", options.listen).into()))?;
    let mut board = Board::new(root);
    board.refresh();
    let shared: http::Shared = Arc::new(Mutex::new(Arc::new(board.snapshot())));
    let keep = Arc::clone(&shared);
    let on_decision = options.on_decision.clone();
    std::thread::spawn(move || follow_runs(board, &keep, on_decision.as_deref(), &tell));
    ready(addr);
    runtime.block_on(http::serve(listener, shared));
    Ok(())
}

/// Refreshes the runs every [`REFRESH`] and publishes each snapshot.
fn follow_runs(
    mut board: Board,
    shared: &http::Shared,
    on_decision: Option<&[String]>,
    tell: &Tell,
) {
    loop {
        std::thread::sleep(REFRESH);
        let ended = board.refresh();
        let snap = Arc::new(board.snapshot());
        *shared.lock().unwrap_or_else(|e| e.into_inner()) = snap;
        if let Some(command) = on_decision {
            for name in ended {
                if let Some(line) = board.summary(&name) {
                    notify(command, &name, &line, tell);
                }
            }
        }
    }
}

/// Runs `command` for the run `run` with `line` on its standard input,
/// without waiting for it to end: a thread reaps it and tells a failure
/// (as one that could not start is told at once).
fn notify(command: &[String], run: &str, line: &str, tell: &Tell) {
    let Some((program, args)) = command.split_first() else {
        return;
    };
    let child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(error) => {
            tell(Notice::NotStarted {
                run: run.to_string(),
                program: program.clone(),
                error,
            });
            return;
        }
    };
    let line = format!("{line}\n");
    let (run, program, tell) = (run.to_string(), program.clone(), Arc::clone(tell));
    std::thread::spawn(move || {
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write;
            // A command that does not read its input is no failure.
            let _ = stdin.write_all(line.as_bytes());
        }
        match child.wait() {
            Ok(status) if !status.success() => tell(Notice::Failed {
                run,
                program,
                status,
            }),
            Ok(_) => {}
            Err(error) => tell(Notice::NotStarted {
                run,
                program,
                error,
            }),
        }
    });
}
