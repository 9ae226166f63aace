//! File writes that a kill cannot leave half done, and the lock that gives
//! a results folder one writer at a time.

use crate::error::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A temporary name beside `path`, unique to this process and call, so two
/// writers (two processes, or two threads) never share a temporary file.
fn temp_name(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Writes `text` to `path` atomically: a temporary file of a unique name in
/// the same folder, then a rename, so a reader (or a kill) never sees half a
/// file.
///
/// # Errors
/// [`Error::Io`].
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    write_atomic_bytes(path, text.as_bytes())
}

/// As [`write_atomic`], for bytes.
///
/// # Errors
/// [`Error::Io`].
pub fn write_atomic_bytes(path: &Path, text: &[u8]) -> Result<()> {
    let tmp = temp_name(path);
    // Errors name the file being written, not its temporary name.
    std::fs::write(&tmp, text).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// As [`write_atomic`], and durable: the file's data reach the disk before
/// the rename, and the folder's entry after it, so a power cut leaves either
/// no file or the whole file.
///
/// # Errors
/// [`Error::Io`].
pub fn write_durable(path: &Path, text: &str) -> Result<()> {
    let tmp = temp_name(path);
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })?;
    sync_folder(path)
}

/// Flushes a folder's entries (new and renamed files) to the disk.
fn sync_folder(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Opening a folder read-only and syncing it is how POSIX makes a rename
    // durable; where folders cannot be opened (not on Linux) there is
    // nothing more to do.
    match File::open(dir) {
        Ok(f) => f.sync_all().or(Ok(())),
        Err(_) => Ok(()),
    }
}

/// How long a lock whose file names this process is tried again (see
/// [`FolderLock::take`]): far longer than any fork-to-exec window.
const SELF_HELD_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// An exclusive advisory lock on a folder, held until dropped: one writer
/// per results folder. The lock file (`.arena.lock`) holds the owner's pid,
/// for the message a second writer gets. The operating system releases the
/// lock when the process ends, however it ends, so a killed run never
/// leaves a stale lock.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Why a folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error("{folder} is in use by another arena run{}", pid.map(|p| format!(" (pid {p})")).unwrap_or_default())]
    Busy {
        /// The folder.
        folder: String,
        /// The holder's pid, when it wrote one.
        pid: Option<u32>,
    },
    /// The lock file could not be opened.
    #[error(transparent)]
    Io(#[from] Error),
}

impl FolderLock {
    /// Takes the lock of `dir` (which must exist), or fails at once if
    /// another process holds it.
    ///
    /// # Errors
    /// [`LockError::Busy`] naming the holder, or [`LockError::Io`].
    pub fn take(dir: &Path) -> std::result::Result<FolderLock, LockError> {
        let path = dir.join(".arena.lock");
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        // A lock this process let go of can still be held for a moment by a
        // child another thread is starting: between its fork and its exec
        // the child shares every open file, the lock file's too. So when the
        // holder named in the file is this very process, the lock is tried
        // again for a bounded while before it counts as taken; a holder
        // that is another process is refused at once.
        let deadline = std::time::Instant::now() + SELF_HELD_GRACE;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut text = String::new();
                    let _ = file.seek(SeekFrom::Start(0));
                    let _ = file.read_to_string(&mut text);
                    let pid = text.trim().parse().ok();
                    if pid == Some(std::process::id()) && std::time::Instant::now() < deadline {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        continue;
                    }
                    return Err(LockError::Busy {
                        folder: crate::error::path_text(dir),
                        pid,
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(&path, e).into()),
            }
        }
        let pid = format!("{}\n", std::process::id());
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)).map(|_| ()))
            .and_then(|()| file.write_all(pid.as_bytes()))
            .map_err(|e| Error::io(&path, e))?;
        Ok(FolderLock { _file: file })
    }
}

/// Whether two paths name the same file: equal, equal once resolved, or
/// two names of one file (a hard link: the same device and inode). For
/// refusing an output that would overwrite an input.
pub fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
        || matches!(
            (super::sys::file_id(a), super::sys::file_id(b)),
            (Some(x), Some(y)) if x == y
        )
}

/// The first file under `folder` (any depth; links are not followed into
/// other folders) that is the file `path` names under another name, if
/// `path` is a file with hard links: a file of a run given from outside
/// under a second name. Only a file with more than one name is looked for,
/// so the folder is walked only then.
pub fn linked_inside(path: &Path, folder: &Path) -> Option<PathBuf> {
    let (id, links) = super::sys::file_links(path)?;
    if links < 2 {
        return None;
    }
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let inside = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(inside),
                Ok(_) if super::sys::file_id(&inside) == Some(id) => return Some(inside),
                _ => {}
            }
        }
    }
    None
}

/// `path` as the filesystem resolves it: links followed and `..` taken
/// away in the part that exists, the rest appended as written.
pub fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut head = absolute.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            return rest.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_differ_between_calls() {
        let p = Path::new("/x/results.json");
        let (a, b) = (temp_name(p), temp_name(p));
        assert_ne!(a, b);
        assert_eq!(a.parent(), p.parent());
    }

    #[test]
    fn a_second_lock_of_a_folder_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("arena-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = FolderLock::take(&dir).unwrap();
        let e = FolderLock::take(&dir).unwrap_err().to_string();
        assert!(
            e.contains("is in use by another arena run")
                && e.contains(&format!("(pid {})", std::process::id())),
            "{e}"
        );
        drop(first);
        FolderLock::take(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A child forked by another thread shares the lock file's description
    /// until it execs; a copy of the descriptor (`try_clone`, a `dup`) is
    /// that same sharing. Taking the lock again must wait for the copy to
    /// close rather than call this process busy (a CI run once failed so).
    #[test]
    fn a_lock_still_shared_with_a_starting_child_is_waited_for() {
        let dir = std::env::temp_dir().join(format!("arena-lock-fork-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = FolderLock::take(&dir).unwrap();
        let child_copy = first._file.try_clone().unwrap();
        drop(first);
        let closer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            drop(child_copy);
        });
        FolderLock::take(&dir).unwrap();
        closer.join().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
