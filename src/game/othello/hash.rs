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

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

static KEYS: [[u64; 256]; 16] = {
    let mut keys = [[0u64; 256]; 16];
    let mut state = 0x0A2E_7A00_0000_0001u64;
    let mut i = 0;
    while i < 16 {
        let mut j = 1; // byte value 0 (no disc) keys to 0, as in per-square Zobrist.
        while j < 256 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[i][j] = k;
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
