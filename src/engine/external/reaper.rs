//! How engine processes end, whoever ends them. A process is first asked
//! to `quit` (NBoard and GTP both have it) and given [`QUIT_GRACE`] to
//! exit; then its process group is killed. A process that failed mid-game
//! (a missed deadline) is killed at once. Either way it is reaped, and its
//! transcript's last line says how it ended: `ended: quit`, `ended: killed
//! after quit grace`, `ended: exited with code N` or `ended: killed by
//! signal N`. The game thread that plays with a process ends it when it is done
//! with it; a run's [`Engines`] ends every process of the run that is still
//! running (a run abandoned with games in flight, an error, a panic), from
//! any thread; whichever comes first writes the last line.
//!
//! Nothing an engine starts outlives the run. Every engine gets
//! `PR_SET_PDEATHSIG(SIGKILL)`, so a `kill -9` of arena ends it too. The
//! signal comes when the *thread* that started the engine ends, not the
//! process: engines are started by the game thread that plays with them,
//! which ends them before it returns (the [`Process`](super::process::Process)
//! is dropped on it), and a run's [`Engines`] ends those of game threads
//! it leaves behind before the run returns. When the binary makes arena a
//! child subreaper ([`become_subreaper`]), whatever an engine started that
//! left its process group (`setsid`) is re-parented to arena when the
//! engine ends, and [`sweep_orphans`] kills and reaps every child of arena
//! that is not a running engine, each time an engine ends and at the end.

use super::transcript::{Dir, Transcript};
use crate::util::sys;
use crossbeam_channel::Receiver;
use std::os::fd::OwnedFd;
use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

/// How long an engine has to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_secs(1);

/// How long the reader threads of an ended process may take to pass on
/// its last lines before the transcript's last line is written.
const DRAIN: Duration = Duration::from_millis(200);

/// How often an engine asked to quit is looked at.
const LOOK: Duration = Duration::from_millis(10);

/// The pids of every engine process of this program that is not reaped yet
/// (any run's): the children [`sweep_orphans`] leaves alone. Taken around
/// a spawn and its registration, so a sweep never sees an engine that is
/// not in it yet.
static ENGINE_PIDS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Set by [`become_subreaper`]: orphans are then ours to end.
static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// Set before the first engine process is started: until then this
/// program has no child, so [`sweep_orphans`] has nothing to look for
/// (its look reads every process's `/proc` entry, which a run of
/// in-process engines on a node of many workers need not pay).
static SPAWNED: AtomicBool = AtomicBool::new(false);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The part of a running engine that any thread may end.
pub struct Shared {
    pid: u32,
    state: Mutex<State>,
    /// The process's session of the transcript.
    pub log: Transcript,
    /// Disconnected once both reader threads have ended.
    readers: Receiver<()>,
}

struct State {
    child: Child,
    /// A second descriptor of the engine's input, to send `quit` on
    /// without waiting (dropped once it is sent).
    input: Option<OwnedFd>,
    /// When `quit` was sent.
    quit_at: Option<Instant>,
    /// The words of the exit status, once reaped.
    ended: Option<ExitStatus>,
}

/// How an ended process went.
#[derive(Clone, Copy)]
enum How {
    /// It exited (or was killed) on its own.
    Itself,
    /// It exited after `quit`.
    Quit,
    /// Killed once the grace after `quit` had passed.
    Grace,
}

impl Shared {
    /// A started engine's shared part; `input` is a copy of its input's
    /// descriptor, `readers` disconnects when its reader threads end.
    pub fn new(child: Child, input: OwnedFd, log: Transcript, readers: Receiver<()>) -> Shared {
        Shared {
            pid: child.id(),
            state: Mutex::new(State {
                child,
                input: Some(input),
                quit_at: None,
                ended: None,
            }),
            log,
            readers,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends `quit` once, without waiting (an input that is full is not
    /// written to: the grace then runs out).
    pub fn ask_quit(&self) {
        let mut st = lock(&self.state);
        if st.ended.is_some() || st.quit_at.is_some() {
            return;
        }
        st.quit_at = Some(Instant::now());
        if let Some(fd) = st.input.take() {
            if sys::write_now(&fd, b"quit\n") {
                self.log.line(Dir::ToEngine, "quit");
            }
        }
    }

    /// Asks the process to quit, waits until it exits or `grace` after
    /// `quit` has passed, then kills its group; returns its exit status.
    pub fn end(&self, grace: Duration) -> ExitStatus {
        self.ask_quit();
        loop {
            {
                let mut st = lock(&self.state);
                if let Some(status) = st.ended {
                    return status;
                }
                let since = st.quit_at.map_or(Duration::ZERO, |t| t.elapsed());
                match st.child.try_wait() {
                    Ok(Some(status)) => return self.reaped(&mut st, status, How::Quit),
                    Ok(None) if since < grace => {}
                    Ok(None) | Err(_) => return self.kill_locked(&mut st, How::Grace),
                }
            }
            std::thread::sleep(LOOK);
        }
    }

    /// Kills the process group at once (a process that already exited
    /// keeps its status) and reaps it; returns its exit status.
    pub fn kill(&self) -> ExitStatus {
        let mut st = lock(&self.state);
        if let Some(status) = st.ended {
            return status;
        }
        self.kill_locked(&mut st, How::Itself)
    }

    fn kill_locked(&self, st: &mut State, how: How) -> ExitStatus {
        if let Ok(Some(status)) = st.child.try_wait() {
            let how = if st.quit_at.is_some() {
                How::Quit
            } else {
                How::Itself
            };
            return self.reaped(st, status, how);
        }
        kill_group(&mut st.child);
        match st.child.wait() {
            Ok(status) => self.reaped(st, status, how),
            Err(e) => {
                self.log.close(&format!("ended: lost ({e})"));
                forget_pid(self.pid);
                let status = sys::killed_status();
                st.ended = Some(status);
                status
            }
        }
    }

    /// Records the end of a reaped process: its group killed (what it left
    /// behind in it), its last lines passed on, the transcript's last line,
    /// and its orphans ended.
    fn reaped(&self, st: &mut State, status: ExitStatus, how: How) -> ExitStatus {
        st.ended = Some(status);
        st.input = None;
        kill_group(&mut st.child);
        forget_pid(self.pid);
        sweep_orphans();
        let _ = self.readers.recv_deadline(Instant::now() + DRAIN);
        self.log.close(&format!("ended: {}", words(status, how)));
        status
    }
}

/// The transcript's words for how a process ended.
fn words(status: ExitStatus, how: How) -> String {
    match (how, status.code(), sys::killed_by(status)) {
        (How::Grace, _, _) => "killed after quit grace".into(),
        (How::Quit, Some(0), _) => "quit".into(),
        (_, Some(code), _) => format!("exited with code {code}"),
        (_, None, Some(signal)) => format!("killed by signal {signal}"),
        (_, None, None) => status.to_string(),
    }
}

/// Kills `child` and every process of its group. The child is not reaped
/// yet (or was reaped by this call's caller a moment ago, holding the
/// engine's lock: its pid is then freed but no process of ours reuses it
/// before we return), so its pid is its group's id.
pub fn kill_group(child: &mut Child) {
    sys::kill_group(child.id());
    let _ = child.kill();
}

/// A run's engine processes: those still running when the run ends are
/// ended by [`Engines::end_all`], and none starts after it.
#[derive(Clone, Default)]
pub struct Engines(Arc<Mutex<Registry>>);

#[derive(Default)]
struct Registry {
    live: Vec<Weak<Shared>>,
    closed: bool,
}

impl std::fmt::Debug for Engines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Engines")
    }
}

impl Engines {
    /// Ends every process still running: `quit` to all, then each given
    /// what is left of `grace`, then killed; then the orphans. No process
    /// starts after this.
    pub fn end_all(&self, grace: Duration) {
        let live: Vec<Arc<Shared>> = {
            let mut r = lock(&self.0);
            r.closed = true;
            r.live.drain(..).filter_map(|w| w.upgrade()).collect()
        };
        for s in &live {
            s.ask_quit();
        }
        for s in &live {
            s.end(grace);
        }
        sweep_orphans();
    }
}

/// Starts a process with `start` and registers what it returns (with
/// `engines` when given): with the lock every sweep takes held, so no
/// sweep sees the child before it is known.
///
/// # Errors
/// `start`'s, or the run's engines are ended already.
pub fn register<T>(
    engines: Option<&Engines>,
    start: impl FnOnce() -> std::io::Result<(Arc<Shared>, T)>,
) -> std::io::Result<(Arc<Shared>, T)> {
    let mut run = engines.map(|e| lock(&e.0));
    if run.as_ref().is_some_and(|r| r.closed) {
        return Err(std::io::Error::other("the run is ending"));
    }
    let mut pids = lock(&ENGINE_PIDS);
    SPAWNED.store(true, Ordering::Release);
    let (shared, rest) = start()?;
    pids.push(shared.pid);
    if let Some(r) = run.as_mut() {
        r.live.retain(|w| w.strong_count() > 0);
        r.live.push(Arc::downgrade(&shared));
    }
    Ok((shared, rest))
}

fn forget_pid(pid: u32) {
    let mut pids = lock(&ENGINE_PIDS);
    if let Some(i) = pids.iter().position(|&p| p == pid) {
        pids.swap_remove(i);
    }
}

/// Makes this process the reaper of its engines' descendants (Linux: a
/// child subreaper), so that [`sweep_orphans`] can end what an engine left
/// behind outside its process group. For a program that starts no other
/// children than engines (the `arena` binary's `run` and `match`).
pub fn become_subreaper() {
    SUBREAPER.store(sys::become_subreaper(), Ordering::Release);
}

/// Kills and reaps every child of this process that is not a running
/// engine (and the process group each leads), until none is left: what
/// engines started and left behind, re-parented here. Nothing unless
/// [`become_subreaper`] was called.
pub fn sweep_orphans() {
    if !SUBREAPER.load(Ordering::Acquire) || !SPAWNED.load(Ordering::Acquire) {
        return;
    }
    let pids = lock(&ENGINE_PIDS);
    let me = std::process::id();
    // Each round reaps what the last one killed; their children come next.
    for _ in 0..64 {
        let orphans: Vec<u32> = sys::children_of(me)
            .into_iter()
            .filter(|p| !pids.contains(p))
            .collect();
        if orphans.is_empty() {
            return;
        }
        // Each pid is our unreaped child, so neither it nor the group it
        // leads can be another's.
        for &p in &orphans {
            sys::kill_tree(p);
        }
        for &p in &orphans {
            sys::reap(p);
        }
    }
}
