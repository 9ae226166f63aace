//! Transposition table: a fixed-size hash table of search results keyed by
//! the 64-bit position hash (Zobrist keys for Othello).
//!
//! Each entry holds the full key, the remaining depth it was searched to,
//! the kind of bound, the score and the best move. Buckets have two entries:
//!
//! - the *depth-preferred* entry is replaced only by a result of at least the
//!   same depth, by the same position, or when it is from an earlier search
//!   (an older generation);
//! - otherwise the result goes into the *always-replace* entry.
//!
//! This is the classic two-tier scheme (Breuker et al.): deep results
//! survive, and recent shallow ones still find a place.
//!
//! Threads may share one table (the parallel solver): its words are
//! atomics read and written without locks (relaxed, plain moves on x86),
//! and an entry's key word holds the key XORed with its data word (Hyatt
//! and Mann's lockless scheme), so an entry torn by two threads writing
//! at once no longer matches any key and is never believed.

use crate::error::AllocError;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum Bound {
    /// No information (an empty entry).
    #[default]
    None,
    /// The score is the value.
    Exact,
    /// The value is at least the score (the node failed high).
    Lower,
    /// The value is at most the score (the node failed low).
    Upper,
}

impl Bound {
    /// What a fail-soft `value` found with the window `(alpha, beta)` says:
    /// a lower bound at or above beta, an upper bound at or below alpha,
    /// exact in between.
    #[inline]
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched
    /// with the window `(alpha, beta)`: the inverse of [`Bound::of`].
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Score, in the evaluator's units, for the side to move.
    pub score: i32,
    /// Best move found (or the move that caused the cutoff), as a move slot
    /// (see [`super::SearchGame::move_slot`]).
    pub best: u8,
    /// Remaining depth the position was searched to.
    pub depth: u8,
    /// What `score` means.
    pub bound: Bound,
    /// 0: a full search found it (every search but the exact solver's
    /// selective passes); `k` from 1: a selective pass with confidence
    /// level `k - 1` (see `crate::endgame`), believed only by passes at
    /// that level or below.
    pub selective: u8,
    generation: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::None => 0u64,
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth) << 40
            | bound << 48
            | u64::from(self.selective & 0x0F) << 52
            | u64::from(self.generation) << 56
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            score: data as u32 as i32,
            best: (data >> 32) as u8,
            depth: (data >> 40) as u8,
            bound: match (data >> 48) & 0x3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                3 => Bound::Upper,
                _ => Bound::None,
            },
            selective: ((data >> 52) & 0x0F) as u8,
            generation: (data >> 56) as u8,
        }
    }
}

/// Words per bucket: (key, data) for the deep entry, then for the recent one.
const WORDS: usize = 4;

/// A transposition table: buckets of two entries, each a key word (the key
/// XOR the data) and a packed data word. All-zero words are empty entries,
/// so a new table is allocated zeroed (the operating system supplies zero
/// pages lazily) and costs nothing until it is used.
pub struct TranspositionTable {
    words: Words,
    mask: usize,
    generation: AtomicU8,
}

/// The table's words: zeroed memory aligned to a cache line, so no
/// 32-byte bucket straddles two lines. On Linux it is mapped straight from
/// the kernel (zero pages, supplied lazily, so a large table costs only
/// address space until the search writes to it) and, from 2 MiB up,
/// aligned to and advised onto transparent huge pages: every probe is a
/// random access, and with 4 KiB pages a 64 MiB table misses the TLB on
/// nearly every one (`perf` put a fifth of a mid-game search in the probe).
/// Elsewhere it comes zeroed from the global allocator.
#[derive(Debug)]
struct Words {
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
    /// Bytes of the block as obtained (at least `len * 8`): what is freed.
    block: usize,
}

// SAFETY: `Words` owns its block alone (as a `Vec` would), and the block
// holds atomics, which any thread may share.
unsafe impl Send for Words {}
// SAFETY: as above: shared access is only through `&[AtomicU64]`.
unsafe impl Sync for Words {}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points to `len` initialised (zeroed or stored)
        // atomics that live as long as `self` (or is dangling with `len`
        // 0), and they are only ever accessed through shared references.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

/// `n` zero words, or the refusal of the memory (never an abort).
fn zeroed_words(n: usize) -> Result<Words, AllocError> {
    let refused = AllocError {
        bytes: n.saturating_mul(8),
    };
    let bytes = n.checked_mul(8).ok_or(refused)?;
    if bytes == 0 {
        return Ok(Words {
            ptr: std::ptr::NonNull::dangling(),
            len: 0,
            block: 0,
        });
    }
    let (ptr, block) = crate::util::sys::map_zeroed(bytes).ok_or(refused)?;
    Ok(Words {
        ptr: ptr.cast::<AtomicU64>(),
        len: n,
        block,
    })
}

impl Drop for Words {
    fn drop(&mut self) {
        if self.block == 0 {
            return;
        }
        // SAFETY: the block of `self.block` bytes came from `map_zeroed`
        // and is freed once, here.
        unsafe { crate::util::sys::unmap_zeroed(self.ptr.cast::<u8>(), self.block) };
    }
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (rounded down to a power-of-two number of
    /// buckets; at least one bucket), or the allocator's refusal.
    ///
    /// # Errors
    /// [`AllocError`] with the size asked for.
    pub fn try_new(mib: usize) -> Result<Self, AllocError> {
        let n = TranspositionTable::buckets(mib);
        Ok(TranspositionTable {
            words: zeroed_words(n * WORDS)?,
            mask: n - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// As [`TranspositionTable::try_new`], for sizes known to fit.
    ///
    /// # Panics
    /// When the allocator refuses the table (the message names its size).
    pub fn new(mib: usize) -> Self {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("tt_mib {mib}: {e}"))
    }

    /// Buckets in a table of at most `mib` MiB: a power of two, at least 1.
    fn buckets(mib: usize) -> usize {
        let bytes = mib.min(1 << 20).saturating_mul(1 << 20);
        let per = WORDS * 8;
        let mut n = 1usize;
        while n.saturating_mul(2).saturating_mul(per) <= bytes {
            n *= 2;
        }
        n
    }

    /// Bytes a table of at most `mib` MiB takes.
    pub fn bytes(mib: usize) -> usize {
        TranspositionTable::buckets(mib) * WORDS * 8
    }

    /// Number of entries (two per bucket).
    pub fn capacity(&self) -> usize {
        self.words.len() / WORDS * 2
    }

    /// Has the operating system back every page of the table now, by
    /// writing each page's first word with what it holds (while no thread
    /// searches with it): the table reads the same, and no search pays
    /// for the pages later. A new table's pages are supplied on first
    /// write, and each costs a zeroing, in huge pages perhaps a compaction
    /// first: measured at 50 to 300 ms for a 64 MiB table on a loaded
    /// 2-core VM, ms at a time, which a search under a 100 ms move time
    /// cannot afford (the clock is only looked at between nodes).
    pub fn back_pages(&self) {
        // 512 words: 4 KiB, the smallest page.
        for w in self.words.iter().step_by(512) {
            w.store(w.load(Relaxed), Relaxed);
        }
    }

    /// Empties the table (while no thread searches with it).
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * WORDS
    }

    /// Asks the processor to bring `key`'s bucket into the cache ahead of
    /// a probe or store (a hint: what they find is the same without it).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the address is that of a word of the table (the bucket
        // is in bounds), and a prefetch reads nothing the program sees.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let word = self.words.as_ptr().add(self.bucket(key));
            _mm_prefetch::<_MM_HINT_T0>(word.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        let w = &self.words[b..b + WORDS];
        for k in [0, 2] {
            let data = w[k + 1].load(Relaxed);
            if data != 0 && w[k].load(Relaxed) ^ data == key {
                return Some(Entry::unpack(data));
            }
        }
        None
    }

    /// Stores a result of a full search (see the module docs for the
    /// replacement scheme).
    #[inline]
    pub fn store(&self, key: u64, depth: u32, bound: Bound, score: i32, best: u8) {
        self.store_selective(key, depth, 0, bound, score, best);
    }

    /// Stores a result found with selectivity `selective` (0: a full
    /// search; see [`Entry::selective`]). Of two results of one depth, a
    /// full one is preferred: a selective result never replaces the deep
    /// entry's full one of the same depth.
    #[inline]
    pub fn store_selective(
        &self,
        key: u64,
        depth: u32,
        selective: u8,
        bound: Bound,
        score: i32,
        best: u8,
    ) {
        let generation = self.generation.load(Relaxed);
        let depth = depth.min(255) as u8;
        let data = Entry {
            score,
            best,
            depth,
            bound,
            selective,
            generation,
        }
        .pack();
        let b = self.bucket(key);
        let w = &self.words[b..b + WORDS];
        let (deep_word, deep_data) = (w[0].load(Relaxed), w[1].load(Relaxed));
        let deep = Entry::unpack(deep_data);
        let deep_used = deep_data != 0;
        let same = deep_word ^ deep_data == key;
        // A selective result never replaces a full one of the same
        // position at least as deep, in either slot.
        if selective != 0 {
            let recent_data = w[3].load(Relaxed);
            let recent_same = recent_data != 0 && w[2].load(Relaxed) ^ recent_data == key;
            let keeps = |same: bool, e: Entry| same && e.selective == 0 && e.depth >= depth;
            if keeps(deep_used && same, deep) || keeps(recent_same, Entry::unpack(recent_data)) {
                return;
            }
        }
        // Depth first, then a full result over a selective one; for full
        // results this is `deep.depth <= depth`.
        let deeper = (deep.depth, deep.selective == 0) <= (depth, selective == 0);
        if !deep_used || same || deep.generation != generation || deeper {
            // The old deep entry, if it held another position of this search,
            // moves to the recent slot rather than vanishing (its key word
            // moves with its data, so it still matches).
            if deep_used && !same && deep.generation == generation {
                w[2].store(deep_word, Relaxed);
                w[3].store(deep_data, Relaxed);
            }
            w[0].store(key ^ data, Relaxed);
            w[1].store(data, Relaxed);
        } else {
            w[2].store(key ^ data, Relaxed);
            w[3].store(data, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        let t = TranspositionTable::new(1);
        assert!(t.capacity().is_power_of_two());
        assert!(t.capacity() * 16 <= 1 << 20);
        assert_eq!(TranspositionTable::new(0).capacity(), 2);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        use crate::error::{size_text, Error};
        assert_eq!(size_text(16 << 30), "16 GiB");
        assert_eq!(size_text(64 << 20), "64 MiB");
        assert_eq!(size_text(1536), "1.5 KiB");
        assert_eq!(size_text(12), "12 bytes");
        let e = Error::alloc("tt_mib 16384", AllocError { bytes: 16 << 30 });
        assert_eq!(e.line(), "tt_mib 16384: could not allocate 16 GiB");
    }

    #[test]
    fn a_table_the_allocator_refuses_is_an_error_not_an_abort() {
        // 2 EiB, more than any address space: the allocator must refuse it.
        let e = zeroed_words(1 << 58).unwrap_err();
        assert_eq!(e.to_string(), "could not allocate 2097152 TiB");
        assert!(e.to_string().starts_with("could not allocate "), "{e}");
        assert_eq!(TranspositionTable::bytes(16384), 16 << 30);
        let t = TranspositionTable::try_new(1).unwrap();
        assert!(t.words.iter().all(|w| w.load(Relaxed) == 0));
    }

    #[test]
    fn buckets_never_straddle_a_cache_line() {
        for mib in [0, 1, 4] {
            let t = TranspositionTable::new(mib);
            assert_eq!(t.words.as_ptr() as usize % 64, 0, "{mib} MiB");
            t.store(5, 1, Bound::Exact, 3, 2);
            assert_eq!(t.probe(5).unwrap().score, 3);
        }
        #[cfg(target_os = "linux")]
        {
            use crate::util::sys::HUGE_PAGE;
            assert_eq!(
                TranspositionTable::new(4).words.as_ptr() as usize % HUGE_PAGE,
                0
            );
            // A block that is not a whole number of huge pages is rounded
            // up, and every word of it is usable.
            let w = zeroed_words(HUGE_PAGE / 8 + 3).unwrap();
            assert_eq!(w.block, 2 * HUGE_PAGE);
            w[w.len() - 1].store(7, Relaxed);
            assert_eq!(w[w.len() - 1].load(Relaxed), 7);
        }
    }

    #[test]
    fn backing_the_pages_keeps_what_the_table_holds() {
        let t = TranspositionTable::new(4);
        t.store(77, 5, Bound::Exact, 12, 9);
        t.back_pages();
        assert_eq!(t.probe(77).unwrap().score, 12);
        assert!(t.probe(78).is_none());
    }

    #[test]
    fn deep_results_survive_shallow_ones() {
        let t = TranspositionTable::new(0); // one bucket: every key collides
        t.store(1, 8, Bound::Exact, 10, 3);
        t.store(2, 2, Bound::Lower, 20, 4);
        t.store(3, 1, Bound::Upper, 30, 5);
        assert_eq!(t.probe(1).unwrap().depth, 8);
        assert!(t.probe(2).is_none());
        assert_eq!(t.probe(3).unwrap().score, 30);
        // A new search may replace the old deep entry.
        t.new_search();
        t.store(4, 1, Bound::Exact, 40, 6);
        assert_eq!(t.probe(4).unwrap().score, 40);
        assert!(t.probe(1).is_none());
    }

    #[test]
    fn selectivity_is_stored_and_a_full_result_outlives_a_selective_one() {
        let t = TranspositionTable::new(0); // one bucket
        t.store_selective(1, 20, 3, Bound::Lower, -7, 9);
        let e = t.probe(1).unwrap();
        assert_eq!(
            (e.selective, e.bound, e.score, e.best, e.depth),
            (3, Bound::Lower, -7, 9, 20)
        );
        t.store(1, 20, Bound::Exact, 4, 2);
        assert_eq!(t.probe(1).unwrap().selective, 0);
        // A guess about the same position does not replace the proof.
        t.store_selective(1, 20, 2, Bound::Lower, 9, 3);
        assert_eq!(
            (t.probe(1).unwrap().selective, t.probe(1).unwrap().score),
            (0, 4)
        );
        // Another position's selective result of the same depth goes to
        // the recent slot; the full one stays in the deep slot.
        t.store_selective(2, 20, 1, Bound::Upper, 0, 1);
        assert_eq!(t.probe(1).unwrap().score, 4);
        assert_eq!(t.probe(2).unwrap().selective, 1);
        // Every selective level and bound survives packing.
        for sel in 0..=15u8 {
            for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                let e = Entry {
                    score: -64,
                    best: 63,
                    depth: 36,
                    bound,
                    selective: sel,
                    generation: 200,
                };
                assert_eq!(Entry::unpack(e.pack()), e);
            }
        }
    }

    #[test]
    fn a_torn_entry_matches_no_key() {
        let t = TranspositionTable::new(0);
        t.store(7, 3, Bound::Exact, 12, 1);
        assert_eq!(t.probe(7).unwrap().score, 12);
        // Another thread's data word lands beside this key word.
        let other = Entry {
            score: -5,
            best: 2,
            depth: 9,
            bound: Bound::Lower,
            selective: 0,
            generation: 0,
        };
        t.words[1].store(other.pack(), Relaxed);
        assert!(t.probe(7).is_none());
    }
}
