//! A hash that never changes between Rust versions (the standard library's
//! may): FNV-1a, 64-bit, for config fingerprints and for telling stored
//! runs apart in the history database.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_prefixes() {
        // Reference values of FNV-1a 64.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv1a::new().feed(b"fo").feed(b"o").finish(), fnv1a(b"foo"));
    }
}
