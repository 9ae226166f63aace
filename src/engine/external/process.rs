//! A running engine process: its standard input to write lines to, and
//! its output and error streams read by two threads that feed one channel,
//! so that a line is waited for until a deadline without polling. Each
//! process runs in a process group of its own, which is killed whole (a
//! shell script's children too) when the process ends: asked to `quit`
//! when it is dropped, killed at once when it fails (see [`reaper`](super::reaper)).
//! What the engine did when it stops answering (its exit status, its last
//! line on the error stream) becomes the player's error.

use super::reaper::{self, Engines, Shared, QUIT_GRACE};
use super::spec::ExternalConfig;
use super::transcript::{Dir, Transcript};
use crate::engine::player::PlayerError;
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsFd;
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest line kept from an engine (longer ones are cut there).
const MAX_LINE: u64 = 1 << 20;

/// How long a process that closed its output may take to exit before it
/// is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// What the reader threads report.
enum Event {
    /// A line of output.
    Out(String),
    /// A line on the error stream.
    Err(String),
    /// The output is closed.
    OutClosed,
    /// The error stream is closed.
    ErrClosed,
}

/// What a deadline is, which decides what missing it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// The game clock's: missing it loses on time.
    Clock,
    /// `reply_timeout_ms`, for a move without a clock.
    Reply(u64),
    /// `ready_timeout_ms`, for the start and a new game.
    Ready(u64),
}

/// When an answer must have come, and since when it is awaited.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    /// The moment.
    pub at: Instant,
    /// When the request was sent.
    pub since: Instant,
    /// Whose deadline it is.
    pub wait: Wait,
}

impl Deadline {
    /// A deadline `ms` from now of kind `wait`.
    pub fn after_ms(ms: u64, wait: Wait) -> Deadline {
        let since = Instant::now();
        Deadline {
            at: since + Duration::from_millis(ms),
            since,
            wait,
        }
    }

    /// The clock's deadline `at`.
    pub fn clock(at: Instant) -> Deadline {
        Deadline {
            at,
            since: Instant::now(),
            wait: Wait::Clock,
        }
    }
}

/// A started engine: the game thread's side (its input, its lines) and the
/// side any thread may end ([`Shared`]).
pub struct Process {
    shared: Arc<Shared>,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    last_stderr: Option<String>,
    out_closed: bool,
}

/// The words of an exit status: `exit status 3`, `killed by signal 11`.
pub fn describe(status: ExitStatus) -> String {
    if let Some(signal) = crate::util::sys::killed_by(status) {
        return format!("killed by signal {signal}");
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

/// The command that starts `config`'s program: a path made absolute (a
/// bare name is looked up in PATH), its arguments and working folder, its
/// streams piped, in a process group of its own that dies with arena.
///
/// # Errors
/// A path that names a directory, a FIFO, a socket or a device (no
/// program), or one that cannot be made absolute.
fn command_of(config: &ExternalConfig) -> std::io::Result<Command> {
    let program = if config.program.components().count() > 1 {
        std::path::absolute(&config.program)?
    } else {
        config.program.clone()
    };
    let problem = (program.components().count() > 1)
        .then(|| crate::util::text::file_problem(&program))
        .flatten();
    if let Some(problem) = problem {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            problem,
        ));
    }
    let mut command = Command::new(program);
    command
        .args(&config.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = &config.working_dir {
        command.current_dir(dir);
    }
    crate::util::sys::own_group_dying_with_us(&mut command);
    Ok(command)
}

/// What a started process's caller keeps of it: its standard input and
/// the events of its output streams.
type Streams = (ChildStdin, Receiver<Event>);

/// A started engine process made ready: its start noted in `log`, a
/// reader thread for each of its output streams sending [`Event`]s, and
/// what the run shares of it; its standard input and the events.
///
/// # Errors
/// Streams that were not opened (the process is killed and reaped), or a
/// descriptor that cannot be copied.
fn started(
    mut child: std::process::Child,
    config: &ExternalConfig,
    log: &Transcript,
) -> std::io::Result<(Arc<Shared>, Streams)> {
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        reaper::kill_group(&mut child);
        let _ = child.wait();
        return Err(std::io::Error::other(
            "the engine's standard streams were not opened",
        ));
    };
    let input = stdin.as_fd().try_clone_to_owned()?;
    log.line(
        Dir::Note,
        &format!("started {} (pid {})", command_line(config), child.id()),
    );
    let (tx, events) = bounded::<Event>(4096);
    let (alive, readers) = bounded::<()>(0);
    for (out, stream) in [
        (true, Box::new(stdout) as Box<dyn Read + Send>),
        (false, Box::new(stderr)),
    ] {
        let (tx, log, alive) = (tx.clone(), log.clone(), alive.clone());
        std::thread::spawn(move || {
            read_lines(stream, out, &tx, &log);
            drop(alive);
        });
    }
    let shared = Arc::new(Shared::new(child, input, log.clone(), readers));
    Ok((shared, (stdin, events)))
}

/// Reads lines from `stream` until it closes, recording each in the
/// transcript, then reports the close.
fn read_lines(stream: impl Read, out: bool, events: &Sender<Event>, log: &Transcript) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf)
            .trim_end_matches(['\n', '\r'])
            .to_string();
        if out {
            log.line(Dir::FromEngine, &line);
            if events.send(Event::Out(line)).is_err() {
                return;
            }
        } else {
            log.line(Dir::Stderr, &line);
            // Only the last one matters; a full channel loses none of the
            // output's lines.
            let _ = events.try_send(Event::Err(line));
        }
    }
    let _ = events.send(if out {
        Event::OutClosed
    } else {
        Event::ErrClosed
    });
}

/// The command line of `config`, as the transcript shows it.
fn command_line(config: &ExternalConfig) -> String {
    let mut line = config.program.display().to_string();
    for a in &config.args {
        line.push(' ');
        line.push_str(a);
    }
    line
}

impl Process {
    /// Starts `config`'s program with its arguments in its folder, in a
    /// process group of its own, ending when the calling thread ends
    /// (Linux), registered with a run's `engines` when given.
    ///
    /// # Errors
    /// The program cannot be started (not found, not executable), or the
    /// run's engines are being ended.
    pub fn spawn(
        config: &ExternalConfig,
        log: Transcript,
        engines: Option<&Engines>,
    ) -> std::io::Result<Process> {
        let mut command = command_of(config)?;
        let log = log.session();
        let (shared, (stdin, events)) = reaper::register(engines, || {
            let child = command.spawn()?;
            started(child, config, &log)
        })?;
        Ok(Process {
            shared,
            stdin: Some(stdin),
            events,
            last_stderr: None,
            out_closed: false,
        })
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`PlayerError::Crashed`] with the exit status when the engine is
    /// gone.
    pub fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        self.shared.log.line(Dir::ToEngine, line);
        let sent = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{line}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        match sent {
            Ok(()) => Ok(()),
            Err(_) => Err(self.died(&format!("when sent `{line}`"))),
        }
    }

    /// The next line of output, waited for until `deadline`; `awaited`
    /// names what is expected (for the error).
    ///
    /// # Errors
    /// [`PlayerError::Timeout`] past a clock's deadline;
    /// [`PlayerError::Protocol`] past a reply or ready timeout;
    /// [`PlayerError::Crashed`] with the exit status when the engine ends.
    pub fn line(&mut self, deadline: &Deadline, awaited: &str) -> Result<String, PlayerError> {
        if self.out_closed {
            return Err(self.died(&format!("waiting for {awaited}")));
        }
        loop {
            match self.events.recv_deadline(deadline.at) {
                Ok(Event::Out(line)) => return Ok(line),
                Ok(Event::Err(line)) => self.error_line(line),
                Ok(Event::ErrClosed) => {}
                Ok(Event::OutClosed) | Err(RecvTimeoutError::Disconnected) => {
                    self.out_closed = true;
                    return Err(self.died(&format!("waiting for {awaited}")));
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.late(deadline, awaited)),
            }
        }
    }

    /// Keeps a line of the error stream for the crash message, unless it
    /// is blank (gtp-rhino ends its last words with an empty line).
    fn error_line(&mut self, line: String) {
        if !line.trim().is_empty() {
            self.last_stderr = Some(line);
        }
    }

    /// The error of a missed deadline; the engine is killed.
    fn late(&mut self, deadline: &Deadline, awaited: &str) -> PlayerError {
        let waited = deadline.since.elapsed();
        let secs = waited.as_secs_f64();
        self.shared.log.line(
            Dir::Note,
            &format!("timeout: {secs:.3} s waiting for {awaited}"),
        );
        self.kill();
        match deadline.wait {
            Wait::Clock => PlayerError::Timeout(waited),
            Wait::Reply(ms) => PlayerError::Protocol(format!(
                "timeout after {secs:.1} s waiting for {awaited}; reply_timeout_ms is {ms}"
            )),
            Wait::Ready(ms) => PlayerError::Protocol(format!(
                "timeout after {secs:.1} s waiting for {awaited}; ready_timeout_ms is {ms}"
            )),
        }
    }

    /// The error of an engine that closed its output or its input: it is
    /// given a moment to exit, then killed, and its exit status (and last
    /// line on the error stream) name what happened.
    fn died(&mut self, when: &str) -> PlayerError {
        let until = Instant::now() + EXIT_GRACE;
        while let Ok(event) = self.events.recv_deadline(until) {
            match event {
                Event::Err(line) => self.error_line(line),
                Event::ErrClosed => break,
                Event::Out(_) | Event::OutClosed => {}
            }
        }
        let status = self.kill();
        let mut msg = format!("{status} {when}");
        if let Some(last) = &self.last_stderr {
            msg.push_str(&format!("; its last error line: {last}"));
        }
        PlayerError::Crashed(msg)
    }

    /// Kills the process group at once (a process that already exited
    /// keeps its status) and reaps it; returns the words of its exit status.
    pub fn kill(&mut self) -> String {
        describe(self.shared.kill())
    }

    /// Asks the process to `quit`, gives it [`QUIT_GRACE`] to exit, then
    /// kills its group.
    pub fn end(&mut self) {
        self.shared.ask_quit();
        // End of input too, for an engine that waits for it.
        self.stdin = None;
        self.shared.end(QUIT_GRACE);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.end();
    }
}
