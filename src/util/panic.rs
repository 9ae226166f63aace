//! Panics, as users see them: one line naming the place, never a Rust
//! backtrace, and the process exits with 101. A panic inside a call the
//! runner guards (a player's move, a player being built) is not an internal
//! error but that player's failure: it prints nothing here, and the runner
//! records its message as the reason the player lost.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    /// Guarded calls running on this thread.
    static GUARDED: Cell<u32> = const { Cell::new(0) };
}

/// Runs `call`, catching a panic; the hook stays quiet about it.
///
/// # Errors
/// The panic's message.
pub fn guard<T>(call: impl FnOnce() -> T) -> Result<T, String> {
    GUARDED.with(|g| g.set(g.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(call));
    GUARDED.with(|g| g.set(g.get() - 1));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into())
    })
}

/// Installs the hook that prints an unguarded panic as one line:
/// `internal error at src/x.rs:12: message; please report it`.
pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        if GUARDED.with(Cell::get) > 0 {
            return;
        }
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        let place = info
            .location()
            .map_or_else(String::new, |l| format!(" at {}:{}", l.file(), l.line()));
        crate::util::eprint_line(&format!(
            "internal error{place}: {}; please report it",
            message.lines().next().unwrap_or("")
        ));
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guarded_panic_is_its_message() {
        assert_eq!(guard(|| 7), Ok(7));
        assert_eq!(
            guard(|| panic!("boom {}", 1)),
            Err::<(), _>("boom 1".into())
        );
        assert_eq!(guard(|| panic!("boom")), Err::<(), _>("boom".into()));
    }
}
