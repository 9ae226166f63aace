//! A worker ID's seat: which process plays as worker ID. Two processes
//! started with one ID would write one journal and one claim scratch file,
//! so exactly one may hold the ID, whatever the timing.
//!
//! A process takes the seat by creating `workers/ID/seat.N` with its host
//! and pid, N one past the newest seat there, after finding the newest
//! seat's holder gone. The file is created as claims are (a hard link,
//! which fails when the name exists, on local filesystems and NFS alike),
//! so of two processes that found the same newest seat only one creates
//! the next: the other looks again and finds it live. A lock file would
//! not do: on NFS it outlives a crashed node.
//!
//! A holder is live when its heartbeat says so (see [`heartbeat`]), or,
//! before its first beat, when it is this host's and its process exists,
//! or is another host's and took the seat within [`heartbeat::LIVE`].

use super::heartbeat::{self, Beat};
use crate::error::{Error, Result};
use std::path::Path;

/// The process that took a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Holder {
    host: String,
    pid: u32,
}

/// How many times a process looks again after another took the seat it
/// tried (each time, that other is live and refuses it, or gone).
const TRIES: u32 = 16;

/// The newest seat in the worker folder `own`: its number, holder and
/// when it was taken (a seat that cannot be read has no holder).
fn newest(own: &Path) -> Result<Option<(u64, Option<Holder>, std::time::SystemTime)>> {
    let entries = std::fs::read_dir(own).map_err(|e| Error::io(own, e))?;
    let n = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name();
            name.to_str()?.strip_prefix("seat.")?.parse::<u64>().ok()
        })
        .max();
    let Some(n) = n else {
        return Ok(None);
    };
    let path = own.join(format!("seat.{n}"));
    let holder = std::fs::read_to_string(&path).ok().and_then(|text| {
        let mut words = text.split_whitespace();
        Some(Holder {
            host: words.next()?.to_string(),
            pid: words.next()?.parse().ok()?,
        })
    });
    let taken = std::fs::symlink_metadata(&path)
        .and_then(|m| m.modified())
        .unwrap_or(std::time::UNIX_EPOCH);
    Ok(Some((n, holder, taken)))
}

/// The error of a live holder of worker `id`'s seat.
fn refused(id: &str, folder: &Path, host: &str, pid: u32) -> Error {
    Error::Run(
        format!(
            "worker {id:?} of {} is running on {host} (pid {pid}): give this worker another ID, or stop that one first",
            crate::error::path_text(folder)
        )
        .into(),
    )
}

/// Checks that the holder of the newest seat is gone.
///
/// # Errors
/// [`Error::Run`] naming its host and pid when it is live.
fn check_gone(
    own: &Path,
    id: &str,
    folder: &Path,
    holder: &Holder,
    taken: std::time::SystemTime,
) -> Result<()> {
    let beat = own.join("heartbeat");
    let beaten =
        Beat::read(&beat).is_some_and(|(b, _)| b.host == holder.host && b.pid == holder.pid);
    if beaten {
        return heartbeat::refuse_live(&beat, id, folder);
    }
    let me = heartbeat::host_name();
    let live = if holder.host == me {
        holder.pid != std::process::id() && heartbeat::process_exists(holder.pid)
    } else {
        heartbeat::age(taken) <= heartbeat::LIVE
    };
    if live {
        return Err(refused(id, folder, &holder.host, holder.pid));
    }
    Ok(())
}

/// Takes worker `id`'s seat in its folder `own` (inside the run folder
/// `folder`) for this process.
///
/// # Errors
/// A live holder (naming its host and pid), I/O.
pub fn take(own: &Path, id: &str, folder: &Path) -> Result<()> {
    let line = format!("{} {}\n", heartbeat::host_name(), std::process::id());
    let scratch = own.join(format!(".seat.{}", std::process::id()));
    std::fs::write(&scratch, &line).map_err(|e| Error::io(&scratch, e))?;
    let result = take_with(own, id, folder, &scratch);
    let _ = std::fs::remove_file(&scratch);
    result
}

/// [`take`], with this process's seat written at `scratch`.
fn take_with(own: &Path, id: &str, folder: &Path, scratch: &Path) -> Result<()> {
    for _ in 0..TRIES {
        let next = match newest(own)? {
            None => {
                // A folder of an arena from before seats: its heartbeat tells.
                heartbeat::refuse_live(&own.join("heartbeat"), id, folder)?;
                0
            }
            Some((n, holder, taken)) => {
                if let Some(h) = &holder {
                    check_gone(own, id, folder, h, taken)?;
                }
                n + 1
            }
        };
        let path = own.join(format!("seat.{next}"));
        match std::fs::hard_link(scratch, &path) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                // Over NFS a retried link can report EEXIST for the link it
                // made: the scratch file's link count tells.
                if crate::util::sys::link_count(scratch).is_some_and(|n| n > 1) {
                    return Ok(());
                }
            }
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    Err(Error::Run(
        format!(
            "worker {id:?} of {}: other processes kept taking this ID's seat; give this worker another ID",
            crate::error::path_text(folder)
        )
        .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_seat_per_live_process_and_a_gone_holder_gives_way() {
        let dir = std::env::temp_dir().join(format!("arena-seat-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let own = dir.join("workers/x");
        std::fs::create_dir_all(&own).unwrap();
        take(&own, "x", &dir).unwrap();
        assert!(own.join("seat.0").is_file());
        // A live process of this host holds the next seat (pid 1 exists).
        let host = heartbeat::host_name();
        std::fs::write(own.join("seat.1"), format!("{host} 1\n")).unwrap();
        let e = take(&own, "x", &dir).unwrap_err().to_string();
        assert!(e.contains(&format!("is running on {host} (pid 1)")), "{e}");
        // Gone: a pid no process has.
        std::fs::write(own.join("seat.1"), format!("{host} {}\n", u32::MAX - 1)).unwrap();
        take(&own, "x", &dir).unwrap();
        assert!(own.join("seat.2").is_file());
        // Another host's seat taken just now is live; an old one is gone.
        std::fs::write(own.join("seat.3"), "elsewhere 7\n").unwrap();
        let e = take(&own, "x", &dir).unwrap_err().to_string();
        assert!(e.contains("is running on elsewhere (pid 7)"), "{e}");
        let old = std::time::SystemTime::now() - 2 * heartbeat::LIVE;
        let f = std::fs::File::options()
            .write(true)
            .open(own.join("seat.3"))
            .unwrap();
        f.set_modified(old).unwrap();
        take(&own, "x", &dir).unwrap();
        assert!(own.join("seat.4").is_file());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
