//! A worker's claim files: each claim is a hard link of a scratch file of
//! the worker's own holding its ID (see [`super::claims`] for how the
//! claims share a run's pairs), made with one `link(2)`; who owns a claim,
//! and whether an owner is gone.

use super::heartbeat;
use super::owners::{read_claim, scratch_name, Owner};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The error of a file that was there a moment ago.
fn lost() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotFound, "gone as soon as written")
}

/// Claims made from one scratch file at most: each claim is one more
/// name of it, and some filesystems cap a file's names (ext4 at 65,000).
pub(super) const NAMES_PER_SCRATCH: u64 = 10_000;

/// The claims folder of a run, as one worker sees it.
pub struct Claims {
    /// `DIR/claims`.
    dir: PathBuf,
    /// `DIR/workers`.
    workers: PathBuf,
    /// This worker's ID.
    pub(super) me: String,
    /// The file holding this worker's ID that its claims are made from,
    /// once made (see [`Scratch`]).
    scratch: Option<Scratch>,
    /// Its last claim succeeded.
    free: bool,
}

/// A worker's claims are hard links of one file of its own holding its
/// ID, `workers/ID/.claim.K`, kept for the run: a claim is then one
/// `link(2)`, and every claim made from it is the same file, which
/// `arena report` reads once ([`super::owners::claim_owners`]). After
/// [`NAMES_PER_SCRATCH`] claims the next `K` is used.
struct Scratch {
    path: PathBuf,
    /// The file's device and inode.
    id: (u64, u64),
    /// Its names so far (its own included).
    names: u64,
}

/// The file name of generation `gen` of pair `pair`'s claim.
pub(super) fn claim_name(pair: u64, gen: u32) -> String {
    if gen == 0 {
        pair.to_string()
    } else {
        format!("{pair}.{gen}")
    }
}

/// The first scratch file `.claim.K` in `own` (worker `me`'s folder) that
/// holds its ID and has names to spare, or a new one (written whole under
/// another name, then renamed, so a kill leaves none half-written). One
/// that holds something else and no claim (written by hand, or cut short
/// before any claim) is made again.
fn open_scratch(own: &Path, me: &str) -> Result<Scratch> {
    let line = format!("{me}\n");
    for k in 0.. {
        let path = own.join(scratch_name(k));
        if let Some((id, names)) = crate::util::sys::file_links(&path) {
            let holds_id = std::fs::read(&path).is_ok_and(|b| b == line.as_bytes());
            match (holds_id, names) {
                (true, n) if n < NAMES_PER_SCRATCH => return Ok(Scratch { path, id, names }),
                (false, 1) => std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?,
                _ => continue,
            }
        }
        let new = own.join(format!("{}.new", scratch_name(k)));
        std::fs::write(&new, &line).map_err(|e| Error::io(&new, e))?;
        std::fs::rename(&new, &path).map_err(|e| Error::io(&path, e))?;
        let (id, names) =
            crate::util::sys::file_links(&path).ok_or_else(|| Error::io(&path, lost()))?;
        return Ok(Scratch { path, id, names });
    }
    unreachable!("a worker has fewer than 2^32 scratch files")
}

impl Claims {
    /// The claims of the run in `dir`, for worker `me`.
    pub fn new(dir: &Path, me: &str) -> Claims {
        Claims {
            dir: dir.join("claims"),
            workers: dir.join("workers"),
            me: me.to_string(),
            scratch: None,
            free: false,
        }
    }

    /// A scratch file to claim from: the one in use while it may take
    /// another name, else [`open_scratch`]'s.
    fn scratch(&mut self) -> Result<&Scratch> {
        let spare = |s: &Scratch| s.names < NAMES_PER_SCRATCH;
        if !self.scratch.as_ref().is_some_and(spare) {
            self.scratch = Some(open_scratch(&self.workers.join(&self.me), &self.me)?);
        }
        Ok(self.scratch.as_ref().expect("set above"))
    }

    /// Claims generation `gen` of pair `pair`: true when this worker got
    /// it, false when another worker had it first.
    ///
    /// # Errors
    /// I/O (a read-only folder, a full disk).
    pub fn claim(&mut self, pair: u64, gen: u32) -> Result<bool> {
        let path = self.dir.join(claim_name(pair, gen));
        // A claim is never removed, so one seen is taken: one look (workers
        // that move together try every pair; the link below decides a
        // race), skipped while this worker's claims succeed (alone, it
        // finds every pair free).
        if !self.free && std::fs::symlink_metadata(&path).is_ok() {
            return Ok(false);
        }
        let scratch = self.scratch()?;
        let ours = match std::fs::hard_link(&scratch.path, &path) {
            Ok(()) => true,
            // Over NFS a retried link can report EEXIST for the link it
            // made: the name is then this worker's scratch file, which has
            // one name more than before (a claim of its own made before a
            // restart is the same file, but adds no name).
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                crate::util::sys::file_links_here(&path) == Some((scratch.id, scratch.names + 1))
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        if ours {
            self.scratch.as_mut().expect("made above").names += 1;
        }
        self.free = ours;
        Ok(ours)
    }

    /// The newest generation of pair `pair`'s claim and its owner (`None`
    /// when nobody claimed it).
    pub fn owner(&self, pair: u64) -> Option<(u32, Owner)> {
        let mut found = None;
        for gen in 0.. {
            match read_claim(&self.dir, &claim_name(pair, gen)) {
                Some(owner) => found = Some((gen, owner)),
                None => return found,
            }
        }
        found
    }

    /// The workers whose heartbeat is live (this one included): a beat
    /// within [`heartbeat::LIVE`] that does not say it ended.
    pub(super) fn live_workers(&self) -> u64 {
        let Ok(entries) = std::fs::read_dir(&self.workers) else {
            return 1;
        };
        let ids = entries.filter_map(|e| Some(e.ok()?.file_name()));
        heartbeat::live_among(&self.workers, ids).max(1)
    }

    /// True when the owner `owner` of a claim is gone for good (a claim
    /// that names no worker has none).
    pub(super) fn owner_is_stale(&self, owner: &Owner, stale_after: Duration) -> bool {
        match owner {
            Owner::Unreadable(_) => true,
            Owner::Worker(id) => {
                *id != self.me
                    && heartbeat::is_stale(&self.workers.join(id).join("heartbeat"), stale_after)
            }
        }
    }
}
