//! The table of positions the threads of a parallel search are searching
//! right now, which Weill's ABDADA (in Kerrigan's simplified form) defers
//! to after a node's other moves. One table serves the midgame search
//! (`abdada.rs`) and the exact solver's threads (`crate::endgame`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots of the table (a power of two).
const SLOTS: usize = 1 << 14;

/// Which positions some thread is searching now: one key (never 0) per
/// slot, the slot chosen by the key. A collision only defers a move
/// needlessly or not at all; it never changes a value.
pub struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Default for Busy {
    fn default() -> Self {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 40) as usize & (SLOTS - 1)]
    }

    /// Claims the position `key` (not 0) for this thread; false, and no
    /// claim, when another thread holds it.
    #[inline]
    pub fn claim(&self, key: u64) -> bool {
        let slot = self.slot(key);
        if slot.load(Relaxed) == key {
            return false;
        }
        slot.store(key, Relaxed);
        true
    }

    /// This thread is done with `key` (unless another has taken the slot).
    #[inline]
    pub fn release(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    /// Forgets every claim (before a search: an aborted one may leave some).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claimed_position_is_refused_until_released() {
        let busy = Busy::default();
        let key = 0x1234_5678_9abc_def1;
        assert!(busy.claim(key));
        assert!(!busy.claim(key));
        busy.release(key);
        assert!(busy.claim(key));
        busy.clear();
        assert!(busy.claim(key));
    }
}
