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

use serde::Serialize;

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

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry<M: Copy + Default> {
    /// Full position key (0 with [`Bound::None`] marks an empty entry).
    pub key: u64,
    /// Score, in the evaluator's units, for the side to move.
    pub score: i32,
    /// Best move found (or the move that caused the cutoff).
    pub best: M,
    /// Remaining depth the position was searched to.
    pub depth: u8,
    /// What `score` means.
    pub bound: Bound,
    /// Search generation that wrote it.
    generation: u8,
}

#[derive(Clone, Copy, Default)]
struct Bucket<M: Copy + Default> {
    deep: Entry<M>,
    recent: Entry<M>,
}

/// A transposition table for moves of type `M`.
pub struct TranspositionTable<M: Copy + Default> {
    buckets: Vec<Bucket<M>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy + Default> TranspositionTable<M> {
    /// A table of at most `mib` MiB (rounded down to a power-of-two number of
    /// buckets; at least one bucket).
    pub fn new(mib: usize) -> Self {
        let bytes = mib.saturating_mul(1 << 20);
        let per = std::mem::size_of::<Bucket<M>>().max(1);
        let mut n = 1usize;
        while n.saturating_mul(2).saturating_mul(per) <= bytes {
            n *= 2;
        }
        TranspositionTable {
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Number of entries (two per bucket).
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = &self.buckets[key as usize & self.mask];
        if b.deep.bound != Bound::None && b.deep.key == key {
            Some(b.deep)
        } else if b.recent.bound != Bound::None && b.recent.key == key {
            Some(b.recent)
        } else {
            None
        }
    }

    /// Stores a result (see the module docs for the replacement scheme).
    #[inline]
    pub fn store(&mut self, key: u64, depth: u32, bound: Bound, score: i32, best: M) {
        let generation = self.generation;
        let entry = Entry {
            key,
            score,
            best,
            depth: depth.min(255) as u8,
            bound,
            generation,
        };
        let b = &mut self.buckets[key as usize & self.mask];
        if b.deep.bound == Bound::None
            || b.deep.key == key
            || b.deep.generation != generation
            || b.deep.depth <= entry.depth
        {
            // The old deep entry, if it held another position, still gets the
            // recent slot rather than vanishing.
            if b.deep.key != key && b.deep.bound != Bound::None && b.deep.generation == generation {
                b.recent = b.deep;
            }
            b.deep = entry;
        } else {
            b.recent = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        let t = TranspositionTable::<u8>::new(1);
        assert!(t.capacity().is_power_of_two());
        assert!(t.capacity() * std::mem::size_of::<Entry<u8>>() <= 1 << 20);
        assert_eq!(TranspositionTable::<u8>::new(0).capacity(), 2);
    }

    #[test]
    fn deep_results_survive_shallow_ones() {
        let mut t = TranspositionTable::<u8>::new(0); // one bucket: every key collides
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
}
