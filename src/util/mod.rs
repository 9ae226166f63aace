//! Small shared tools with no knowledge of games or engines: atomic file
//! writes, reading text files, RON helpers (where a field is written, error
//! wording), an ordered parallel map, what long work reports of its
//! progress (drawn by cli/), the calls to the operating system, and a
//! stable hash.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod fs;
pub mod hash;
pub mod panic;
pub mod par;
pub mod progress;
pub mod ron;
pub mod ron_edit;
mod ron_explain;
mod ron_place;
pub mod ron_scan;
pub mod sys;
pub mod text;

pub use self::ron::{check_stages, parse_ron, stage_of, Source, Sourced};
pub use fs::{same_file, write_atomic, write_atomic_bytes, write_durable, FolderLock, LockError};
pub use hash::{fnv1a, line_hash, Fnv1a};
pub use par::{parallel_map, parallel_map_with};

/// Writes `text` and a newline on stderr. A closed or broken stderr
/// (`arena … 2>&1 | head -1`) drops the line instead of panicking, as
/// `eprintln!` would (and a panic while printing the panic aborts).
pub fn eprint_line(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}
