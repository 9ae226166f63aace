//! A worker's heartbeat: `workers/ID/heartbeat`, rewritten every
//! [`BEAT`] while the worker runs (its line changes each time, so another
//! node sees it live without comparing clocks), and marked `ended` when it
//! stops. A lock file alone would not do: on NFS it outlives a crashed node.
//!
//! Another worker takes the ID's place only when it is not live: on the
//! same host, its process is gone; elsewhere, its line has not changed for
//! [`LIVE`]. Another worker takes over its claims when its heartbeat is
//! older than the run's `stale_after` (or says `ended`).

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// How often a live worker rewrites its heartbeat.
pub const BEAT: Duration = Duration::from_secs(2);

/// How long a heartbeat written on another host must stay unchanged before
/// its worker is taken for gone.
pub const LIVE: Duration = Duration::from_secs(7);

/// What a heartbeat file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beat {
    /// The host the worker runs on.
    pub host: String,
    /// Its process id.
    pub pid: u32,
    /// A counter that changes with every beat; `None` once it `ended`.
    pub count: Option<u64>,
}

impl Beat {
    /// The line written for this beat.
    fn line(&self) -> String {
        match self.count {
            Some(n) => format!("{} {} {n}\n", self.host, self.pid),
            None => format!("{} {} ended\n", self.host, self.pid),
        }
    }

    /// Reads a heartbeat file: `None` when there is none (or it cannot be
    /// read as one: a worker killed while creating it).
    pub fn read(path: &Path) -> Option<(Beat, SystemTime)> {
        let text = std::fs::read_to_string(path).ok()?;
        let modified = std::fs::metadata(path).ok()?.modified().ok()?;
        let mut words = text.split_whitespace();
        let host = words.next()?.to_string();
        let pid = words.next()?.parse().ok()?;
        let count = match words.next()? {
            "ended" => None,
            n => Some(n.parse().ok()?),
        };
        Some((Beat { host, pid, count }, modified))
    }
}

/// This machine's name ("unknown-host" when it has none that can be
/// written in a heartbeat's line).
pub fn host_name() -> String {
    crate::util::sys::host_name()
        .filter(|n| !n.is_empty() && !n.contains(char::is_whitespace))
        .unwrap_or_else(|| "unknown-host".into())
}

/// True when process `pid` of this host exists.
pub fn process_exists(pid: u32) -> bool {
    crate::util::sys::process_exists(pid)
}

/// How long ago a heartbeat was written (0 when its time is in the future:
/// another node's clock).
pub fn age(modified: SystemTime) -> Duration {
    SystemTime::now()
        .duration_since(modified)
        .unwrap_or(Duration::ZERO)
}

/// True when the heartbeat at `path` was written within [`LIVE`] and does
/// not say its worker ended.
pub fn is_live(path: &Path) -> bool {
    Beat::read(path).is_some_and(|(b, t)| b.count.is_some() && age(t) <= LIVE)
}

/// How many of the workers `ids` in the workers folder `workers` are live
/// (see [`is_live`]).
pub fn live_among<I: AsRef<Path>>(workers: &Path, ids: impl IntoIterator<Item = I>) -> u64 {
    let live = ids
        .into_iter()
        .filter(|id| is_live(&workers.join(id).join("heartbeat")));
    live.count() as u64
}

/// True when the worker whose heartbeat is at `path` may be gone for good:
/// its heartbeat says it ended, or is older than `stale_after`, or there is
/// none.
pub fn is_stale(path: &Path, stale_after: Duration) -> bool {
    match Beat::read(path) {
        None => true,
        Some((beat, modified)) => beat.count.is_none() || age(modified) > stale_after,
    }
}

/// Waits until the worker whose heartbeat is at `path` is known gone (then
/// `Ok`), or is found live (then an error naming its host and pid). On this
/// host its process tells at once; elsewhere a heartbeat unchanged for
/// [`LIVE`] is gone.
///
/// # Errors
/// [`Error::Run`] naming the worker, its host and pid.
pub fn refuse_live(path: &Path, id: &str, folder: &Path) -> Result<()> {
    let live = |b: &Beat| {
        Error::Run(
            format!(
                "worker {id:?} of {} is running on {} (pid {}): give this worker another ID, or stop that one first",
                crate::error::path_text(folder),
                b.host,
                b.pid
            )
            .into(),
        )
    };
    let Some((first, modified)) = Beat::read(path) else {
        return Ok(());
    };
    if first.count.is_none() {
        return Ok(());
    }
    if first.host == host_name() {
        return if process_exists(first.pid) && first.pid != std::process::id() {
            Err(live(&first))
        } else {
            Ok(())
        };
    }
    if age(modified) > LIVE {
        return Ok(());
    }
    let start = std::time::Instant::now();
    while start.elapsed() < LIVE {
        std::thread::sleep(BEAT / 4);
        match Beat::read(path) {
            Some((now, _)) if now != first => {
                return if now.count.is_some() {
                    Err(live(&now))
                } else {
                    Ok(())
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A running heartbeat: a thread rewriting the file every [`BEAT`] until
/// this is dropped, which writes `ended`.
pub struct Heartbeat {
    path: PathBuf,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    host: String,
}

impl Heartbeat {
    /// Starts beating at `path`.
    ///
    /// # Errors
    /// The first write failing (a read-only folder).
    pub fn start(path: &Path) -> Result<Heartbeat> {
        let host = host_name();
        let pid = std::process::id();
        let write = {
            let path = path.to_path_buf();
            let host = host.clone();
            move |count: Option<u64>| {
                let beat = Beat {
                    host: host.clone(),
                    pid,
                    count,
                };
                std::fs::write(&path, beat.line())
            }
        };
        write(Some(0)).map_err(|e| Error::io(path, e))?;
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::park_timeout(BEAT);
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    n += 1;
                    // A failed beat is retried at the next one; a worker
                    // whose beats all fail is taken for gone by the others,
                    // which is what it is to them.
                    let _ = write(Some(n));
                }
            })
        };
        Ok(Heartbeat {
            path: path.to_path_buf(),
            stop,
            thread: Some(thread),
            host,
        })
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
        let beat = Beat {
            host: self.host.clone(),
            pid: std::process::id(),
            count: None,
        };
        let _ = std::fs::write(&self.path, beat.line());
    }
}
