//! A hash that never changes between Rust versions (the standard library's
//! may): FNV-1a, 64-bit, for config fingerprints and for telling stored
//! runs apart in the history database; and [`line_hash`], eight bytes a
//! step, for what is only compared in memory.

/// FNV-1a, 64-bit, of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    Fnv1a::new().feed(bytes).finish()
}

/// FNV-1a, 64-bit, fed piece by piece: the state after some bytes is the
/// hash of those bytes, so the hash of every prefix of a stream comes for
/// the price of one pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

impl Fnv1a {
    /// The hash of no bytes.
    pub fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds `bytes`.
    #[must_use]
    pub fn feed(mut self, bytes: &[u8]) -> Fnv1a {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    /// The hash of the bytes fed so far.
    pub fn finish(self) -> u64 {
        self.0
    }
}

/// A 64-bit hash of `bytes` taken eight bytes a step (FNV-1a takes one,
/// and a journal line of a game is about 750): how a reader of journals
/// tells a repeated line from a changed one. Never written anywhere, so
/// free to change. Each step is a bijection of the state for a given
/// word, so two texts of one length that differ in a single word of eight
/// bytes never collide in all 64 bits.
pub fn line_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64) ^ 0x2d35_8dcc_aa6c_78a5;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K);
    // MurmurHash3's finalizer: every bit of the state reaches the low ones.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_prefixes() {
        // Reference values of FNV-1a 64.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        // line_hash: a change of any one byte, or of the length, changes
        // the hash (of all 64 bits, and of the 31 a journal reader keeps).
        let line = br#"{"pair_id":101,"game_id":202,"result":1.0,"disc_diff":10}"#;
        let h = line_hash(line);
        for i in 0..line.len() {
            let mut other = line.to_vec();
            other[i] ^= 1;
            assert_ne!(line_hash(&other) as u32 | 1, h as u32 | 1, "byte {i}");
        }
        assert_ne!(line_hash(&line[..line.len() - 1]), h);
        assert_ne!(line_hash(b""), line_hash(b"\0"));
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv1a::new().feed(b"fo").feed(b"o").finish(), fnv1a(b"foo"));
    }
}
