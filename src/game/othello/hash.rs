//! Zobrist hashing of a (player, opponent) pair, table-driven by byte: each
//! of the 16 bytes of the two bitboards selects one of 256 random keys, and the
//! keys are XORed. This is a Zobrist hash over byte patterns (XOR-linear in
//! the discs, like the per-square form) computed in 16 look-ups instead of up
//! to 64. The keys come from a fixed SplitMix64 stream, so hashes are the same
//! on every machine and run.
//!
//! The key depends on the discs of the side to move and of its opponent, not
//! on their colours: positions that differ only by colour are the same for
//! search.

static KEYS: [[u64; 256]; 16] = {
    let mut keys = [[0u64; 256]; 16];
    let mut rng = crate::rng::SplitMix64::new(0x0A2E_7A00_0000_0001);
    let mut i = 0;
    while i < 16 {
        let mut j = 1; // byte value 0 (no disc) keys to 0, as in per-square Zobrist.
        while j < 256 {
            keys[i][j] = rng.next_u64();
            j += 1;
        }
        i += 1;
    }
    keys
};

/// The hash of the side to move's discs `player` and the opponent's discs.
#[inline]
pub fn hash(player: u64, opponent: u64) -> u64 {
    let mut h = 0;
    let (p, o) = (player.to_le_bytes(), opponent.to_le_bytes());
    let mut i = 0;
    while i < 8 {
        h ^= KEYS[i][p[i] as usize] ^ KEYS[8 + i][o[i] as usize];
        i += 1;
    }
    h
}

/// A hash of (`player`, `opponent`) computed without tables: each
/// bitboard multiplied by an odd constant (a bijection), one turned half
/// way round, XORed and finished with MurmurHash3's 64-bit mixer. For a
/// given opponent it is a bijection of the player's discs, and it reads no
/// memory: the solver's nodes call it several times each, and the 32 KiB of
/// [`hash`]'s keys would fill the processor's first-level cache.
#[inline(always)]
pub fn mixed(player: u64, opponent: u64) -> u64 {
    let mut h = player.wrapping_mul(crate::rng::GOLDEN)
        ^ opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(32);
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random disjoint bitboards as a game makes them: from 4 to 64 discs.
    fn positions(count: usize) -> Vec<(u64, u64)> {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        (0..count)
            .map(|_| {
                let discs = xorshift(&mut s) | xorshift(&mut s) | 0x0000_0018_1800_0000;
                let mine = xorshift(&mut s);
                (discs & mine, discs & !mine)
            })
            .collect()
    }

    /// The solver's tables take a bucket from the key's low bits: 2^16
    /// buckets filled by 2^20 positions hold 16 each, and a chi-square
    /// test of the counts (65,535 degrees of freedom, so a mean of 65,535
    /// and a deviation of 362) must stay inside five deviations.
    #[test]
    fn mixed_spreads_positions_over_the_low_bits() {
        let mut counts = vec![0u32; 1 << 16];
        for (p, o) in positions(1 << 20) {
            counts[(mixed(p, o) & 0xFFFF) as usize] += 1;
        }
        let chi: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - 16.0).powi(2) / 16.0)
            .sum();
        assert!((chi - 65_535.0).abs() < 5.0 * 362.0, "chi-square {chi}");
    }

    /// A position and its colours swapped (the same discs, the other side
    /// to move) are different positions for search.
    #[test]
    fn mixed_tells_the_side_to_move() {
        for (p, o) in positions(10_000) {
            assert_ne!(mixed(p, o), mixed(o, p), "{p:016x} {o:016x}");
        }
    }

    /// One disc more or less anywhere changes the key, for either side,
    /// and each of the key's bits flips about half the time.
    #[test]
    fn mixed_changes_with_every_disc() {
        let mut flipped = [0u32; 64];
        let mut tries = 0u32;
        for (p, o) in positions(2_000) {
            let h = mixed(p, o);
            for sq in 0..64 {
                let bit = 1u64 << sq;
                for (np, no) in [(p ^ bit, o & !bit), (p & !bit, o ^ bit)] {
                    let d = mixed(np, no) ^ h;
                    assert_ne!(d, 0, "square {sq}");
                    for (i, f) in flipped.iter_mut().enumerate() {
                        *f += (d >> i & 1) as u32;
                    }
                    tries += 1;
                }
            }
        }
        for (i, &f) in flipped.iter().enumerate() {
            let share = f64::from(f) / f64::from(tries);
            assert!((0.48..0.52).contains(&share), "bit {i} flips {share}");
        }
    }
}
