//! What arena asks of the operating system beyond the standard library,
//! in one place: the only module that calls `libc` (tests/layers.rs holds
//! it to that). Kept by hand rather than taken from crates: each piece is a
//! call or two (prctl, kill of a process group, poll, mmap with huge-page
//! advice, the address-space limit) that no well-kept crate offers alone;
//! the signal handlers, which signal-hook would give, are a dozen lines of
//! the same self-pipe. The memory a process may take is read here too
//! (/proc and the cgroup's files), beside its limit.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;

/// Makes writes to `file` wait again (clears `O_NONBLOCK`, with which it
/// was opened so that opening a pipe nobody reads fails at once).
///
/// # Errors
/// The `fcntl(2)` error.
pub fn set_blocking(file: &File) -> std::io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor `file` owns, with integer arguments.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// True when opening a FIFO failed because no process has it open for
/// reading (`ENXIO` from [`open_writer`]).
pub fn no_reader(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ENXIO)
}

/// Opens `path` for appending, creating it when absent, without ever
/// waiting: a FIFO nobody reads fails at once (see [`no_reader`]). Writes
/// then wait as usual (a slow reader slows the writer). Nothing is
/// truncated here.
///
/// # Errors
/// The I/O error.
pub fn open_writer(path: &Path) -> std::io::Result<File> {
    let file = nonblocking(std::fs::OpenOptions::new().append(true).create(true)).open(path)?;
    set_blocking(&file)?;
    Ok(file)
}

/// This machine's name, as `gethostname(2)` gives it (`None` when it
/// fails).
pub fn host_name() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its whole length, which is passed.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(String::from_utf8_lossy(&buf[..end]).trim().to_string())
}

/// True when process `pid` of this host exists (whoever owns it).
pub fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Bytes in a transparent huge page (x86-64 and most Linux targets).
#[cfg(target_os = "linux")]
pub const HUGE_PAGE: usize = 2 << 20;

/// A fresh zeroed block of at least `bytes` (not 0), aligned to a
/// cache line (from 2 MiB up, to a transparent huge page, advised to be
/// backed by them), and its size.
#[cfg(target_os = "linux")]
pub fn map_zeroed(bytes: usize) -> Option<(std::ptr::NonNull<u8>, usize)> {
    use libc::{c_void, MAP_ANONYMOUS, MAP_FAILED, MAP_PRIVATE, PROT_READ, PROT_WRITE};
    let huge = bytes >= HUGE_PAGE;
    // A whole number of huge pages (a table of 2 MiB or more already is:
    // a power of two), and room to slide them to a huge-page boundary.
    let (block, mapped) = if huge {
        let block = bytes.checked_next_multiple_of(HUGE_PAGE)?;
        (block, block.checked_add(HUGE_PAGE)?)
    } else {
        (bytes, bytes)
    };
    // SAFETY: an anonymous private mapping at an address of the kernel's
    // choosing: it touches no memory that exists already.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            mapped,
            PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == MAP_FAILED {
        return None;
    }
    if !huge {
        return Some((std::ptr::NonNull::new(base.cast::<u8>())?, block));
    }
    let addr = base as usize;
    let head = addr.next_multiple_of(HUGE_PAGE) - addr;
    let tail = mapped - head - block;
    // SAFETY: `head` is less than a huge page, so `start` lies within the
    // mapping. The head and the tail are the parts of the mapping just
    // made that lie outside the block kept (both page-aligned: the mapping
    // is, and `start` and `block` are multiples of the huge page). The
    // advice only changes how the kept block is backed; refused, it leaves
    // ordinary pages.
    let start = unsafe {
        let start = base.cast::<u8>().add(head);
        if head > 0 {
            libc::munmap(base, head);
        }
        if tail > 0 {
            libc::munmap(start.add(block).cast::<c_void>(), tail);
        }
        libc::madvise(start.cast::<c_void>(), block, libc::MADV_HUGEPAGE);
        start
    };
    Some((std::ptr::NonNull::new(start)?, block))
}

/// A fresh zeroed block of `bytes` (not 0), aligned to a cache line, and
/// its size.
#[cfg(not(target_os = "linux"))]
pub fn map_zeroed(bytes: usize) -> Option<(std::ptr::NonNull<u8>, usize)> {
    let layout = std::alloc::Layout::from_size_align(bytes, 64).ok()?;
    // SAFETY: the layout's size is not zero.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    Some((std::ptr::NonNull::new(ptr)?, bytes))
}

/// Gives back a block [`map_zeroed`] gave.
///
/// # Safety
/// `ptr` and `block` are exactly what one call of [`map_zeroed`] returned,
/// and the block is given back once and not used after.
pub unsafe fn unmap_zeroed(ptr: std::ptr::NonNull<u8>, block: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: as the caller promises.
    unsafe {
        libc::munmap(ptr.as_ptr().cast(), block);
    }
    #[cfg(not(target_os = "linux"))]
    // SAFETY: as the caller promises: the layout is the one allocated.
    unsafe {
        let layout = std::alloc::Layout::from_size_align_unchecked(block, 64);
        std::alloc::dealloc(ptr.as_ptr(), layout);
    }
}

// --- Memory ----------------------------------------------------------------

/// The bytes this process may still take: the least of what the system
/// has available (`MemAvailable` of /proc/meminfo), what is left of its
/// cgroup's limit (cgroup v2 `memory.max` less `memory.current`: a batch
/// job's or a container's share) and what is left of its address-space
/// limit (`RLIMIT_AS` less the address space it holds, `VmSize` of
/// /proc/self/status). `None` when none of them is known.
pub fn available_memory() -> Option<u64> {
    [system_available(), cgroup_left(), address_space_left()]
        .into_iter()
        .flatten()
        .min()
}

/// A `NAME: N kB` line's bytes from a /proc file's `text`.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let rest = text
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))?;
    let kib: u64 = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// `MemAvailable` of /proc/meminfo: what the system can give without
/// swapping.
fn system_available() -> Option<u64> {
    kib_field(
        &std::fs::read_to_string("/proc/meminfo").ok()?,
        "MemAvailable",
    )
}

/// What is left of this process's cgroup (v2) memory limit, when it has
/// one.
fn cgroup_left() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = Path::new("/sys/fs/cgroup").join(path.trim().trim_start_matches('/'));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let current: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

/// What is left of this process's address-space limit (`RLIMIT_AS`),
/// when it has one.
fn address_space_left() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) fills the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let held = kib_field(&status, "VmSize")?;
    let limit: u64 = limit.rlim_cur;
    Some(limit.saturating_sub(held))
}

// --- Processes -------------------------------------------------------------

/// Sends SIGKILL to the process group `pid` leads.
pub fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// Sends SIGKILL to process `pid` and, when it leads one, to its group.
pub fn kill_tree(pid: u32) {
    let Ok(p) = libc::pid_t::try_from(pid) else {
        return;
    };
    // SAFETY: plain integers; the caller names its own unreaped child.
    unsafe {
        if libc::getpgid(p) == p {
            libc::kill(-p, libc::SIGKILL);
        }
        libc::kill(p, libc::SIGKILL);
    }
}

/// Waits for this process's child `pid` to end (its status unread).
pub fn reap(pid: u32) {
    if let Ok(p) = libc::pid_t::try_from(pid) {
        // SAFETY: waits for our own child; the status is not read.
        unsafe {
            libc::waitpid(p, std::ptr::null_mut(), 0);
        }
    }
}

/// Makes this process a child subreaper (Linux): descendants whose parent
/// ends are re-parented to it. False where that cannot be done.
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) with integer arguments only.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// In a child between fork and exec: asks for SIGKILL when the thread
/// that forked it ends, and kills itself at once when its parent (pid
/// `parent`) is already gone. Async-signal-safe.
///
/// # Errors
/// prctl(2) refused.
pub fn die_with_parent(parent: i32) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(2), getppid(2) and raise(3) are async-signal-safe
    // and take integers only.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::getppid() != parent {
            libc::raise(libc::SIGKILL);
        }
    }
    let _ = parent;
    Ok(())
}

/// The exit status of a process killed by SIGKILL (for one that could not
/// be reaped).
pub fn killed_status() -> std::process::ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    std::process::ExitStatus::from_raw(libc::SIGKILL)
}

/// Writes `bytes` (at most a pipe's atomic size) to `fd` if that cannot
/// block; returns whether it did.
pub fn write_now(fd: &std::os::fd::OwnedFd, bytes: &[u8]) -> bool {
    let mut poll = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: poll(2) and write(2) get a descriptor we own and a buffer
    // that lives across the call, with its length.
    unsafe {
        libc::poll(&mut poll, 1, 0) == 1
            && poll.revents & libc::POLLOUT != 0
            && libc::write(fd.as_raw_fd(), bytes.as_ptr().cast(), bytes.len())
                == bytes.len() as isize
    }
}

/// The processes whose parent is `pid`, from /proc.
pub fn children_of(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| parent_of(p) == Some(pid))
        .collect()
}

/// The parent of process `pid`, from /proc/PID/stat (its fourth field,
/// after the name in parentheses, which may hold anything).
pub fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

// --- Files -----------------------------------------------------------------

/// The identity of the file `path` names (its device and inode, links
/// followed): two names with the same identity are one file, hard links
/// included. `None` when the file cannot be read.
pub fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino()))
}

/// [`file_links`] of the name `path` itself, a link not followed: `None`
/// unless it is a regular file.
pub fn file_links_here(path: &Path) -> Option<((u64, u64), u64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(path).ok()?;
    m.is_file().then(|| ((m.dev(), m.ino()), m.nlink()))
}

/// The inode number a folder's entry gives for its name, as the folder
/// lists it (no call to the filesystem).
pub fn entry_ino(entry: &std::fs::DirEntry) -> u64 {
    use std::os::unix::fs::DirEntryExt;
    entry.ino()
}

/// The identity of the file `path` names (as [`file_id`]) and how many
/// names (hard links) it has.
pub fn file_links(path: &Path) -> Option<((u64, u64), u64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(((m.dev(), m.ino()), m.nlink()))
}

/// How many names (hard links) the file `path` names has; `None` when it
/// cannot be read. Over NFS a retried `link(2)` can report `EEXIST` for the
/// link it made itself: a count above one of the file linked from tells.
pub fn link_count(path: &Path) -> Option<u64> {
    file_links(path).map(|(_, n)| n)
}

/// Reads into `buf` from byte `offset` of `file` (`pread(2)`: the file's
/// position does not move).
pub fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// True when the file `path` names may be run (a regular file with an
/// execute bit).
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The signal that ended a process, when a signal did.
pub fn killed_by(status: std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

/// Makes `command` start its process in a process group of its own (so
/// the group can be killed whole) and die with this process: the kernel
/// sends it SIGKILL when this process ends, however it ends.
pub fn own_group_dying_with_us(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    let parent = std::process::id() as i32;
    // SAFETY: the closure only makes async-signal-safe calls (prctl,
    // getppid, raise), as pre_exec requires.
    unsafe {
        command.pre_exec(move || die_with_parent(parent));
    }
}

/// Makes `link` a symbolic link to `target` (for tests that set up odd
/// folders).
///
/// # Errors
/// The I/O error.
#[cfg(test)]
pub fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// True when `file` is where this process's standard output or standard
/// error go (the same device and inode, as /proc/self/fd shows them).
pub fn is_standard_output(file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(m) = file.metadata() else {
        return false;
    };
    ["/proc/self/fd/1", "/proc/self/fd/2"]
        .iter()
        .any(|fd| std::fs::metadata(fd).is_ok_and(|o| o.dev() == m.dev() && o.ino() == m.ino()))
}

/// Sets `O_NONBLOCK` on files `options` opens: opening a FIFO then never
/// waits for the other end.
pub fn nonblocking(options: &mut std::fs::OpenOptions) -> &mut std::fs::OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NONBLOCK)
}

// --- Signals ---------------------------------------------------------------

/// A signal that asks a run to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopSignal {
    /// Ctrl-C (SIGINT).
    Interrupt,
    /// SIGTERM (how batch schedulers stop jobs) or SIGHUP.
    Terminate,
}

/// The pipe's write end, for the handler.
static SIGNAL_PIPE: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

extern "C" fn on_signal(signal: libc::c_int) {
    // SAFETY: only async-signal-safe calls (write(2) on a descriptor that
    // stays open, errno saved and restored).
    unsafe {
        let errno = *libc::__errno_location();
        let byte = signal as u8;
        let fd = SIGNAL_PIPE.load(std::sync::atomic::Ordering::Relaxed);
        libc::write(fd, (&byte as *const u8).cast(), 1);
        *libc::__errno_location() = errno;
    }
}

/// Installs handlers of SIGINT, SIGTERM and SIGHUP that write the signal
/// to a pipe (the one thing a handler may safely do); a thread reads it
/// and calls `on` for each, until `on` returns false. False when the
/// handlers cannot be installed (the signals then end the process as
/// usual). Call it once.
pub fn on_stop_signals(on: impl Fn(StopSignal) -> bool + Send + 'static) -> bool {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe2(2) fills the two descriptors of the array; fcntl and
    // sigaction get integers and a zeroed, filled-in sigaction.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return false;
        }
        libc::fcntl(fds[1], libc::F_SETFL, libc::O_NONBLOCK);
        SIGNAL_PIPE.store(fds[1], std::sync::atomic::Ordering::Relaxed);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return false;
            }
        }
    }
    // SAFETY: the read end is ours alone from here.
    let mut pipe = unsafe { std::fs::File::from_raw_fd(fds[0]) };
    std::thread::spawn(move || {
        let mut byte = [0u8; 1];
        while pipe.read_exact(&mut byte).is_ok() {
            let signal = if i32::from(byte[0]) == libc::SIGINT {
                StopSignal::Interrupt
            } else {
                StopSignal::Terminate
            };
            if !on(signal) {
                return;
            }
        }
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_lines_read_as_bytes() {
        let text = "MemTotal:       16265424 kB\nMemAvailable:    9811740 kB\n";
        assert_eq!(kib_field(text, "MemAvailable"), Some(9_811_740 * 1024));
        assert_eq!(kib_field(text, "MemFree"), None);
        assert_eq!(
            kib_field("VmSizeX: 1 kB\nVmSize: 2 kB\n", "VmSize"),
            Some(2048)
        );
    }
}
