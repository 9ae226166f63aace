//! What arena asks of the operating system beyond the standard library:
//! the one place for `libc` calls (issue: platform code in one place).

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
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
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
