//! The board operations hot code calls through its code path's token
//! ([`crate::game::cpu`]): [`Ops`] gives every [`Cpu`] the discs a move
//! flips, the legal moves and the stable discs by that path's fastest code,
//! the portable code of [`super::bitboard`] or the AVX2 code of
//! `super::avx2`. The branch is on [`Cpu::avx2`], known at compile time, so
//! each path's code holds only its own calls.

#[cfg(not(target_arch = "x86_64"))]
use super::bitboard::Bits;
use super::bitboard::{flips_rays, legal_moves, stable_discs};
#[cfg(not(target_arch = "x86_64"))]
use crate::game::cpu::Baseline;
use crate::game::cpu::{Avx2, Cpu};

/// Othello's board operations by a code path's own code. Implemented for
/// every [`Cpu`]; bring it into scope to call them on a token.
pub trait Ops: Cpu {
    /// The opponent discs `player` flips by playing on `square`
    /// ([`flips`]), by this path's fastest code.
    #[inline(always)]
    fn flips(self, square: usize, player: u64, opponent: u64) -> u64 {
        match self.avx2() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Avx2` token proves the features.
            Some(_) => unsafe { flips_avx2(square, player, opponent) },
            _ => flips_rays(square, player, opponent),
        }
    }

    /// [`legal_moves`] by this path's code. With AVX2 a function of its
    /// own, called, not inlined (as LLVM chose in a `target-cpu=native`
    /// build): inlined at every use it made the hot loops larger and
    /// slower.
    #[inline(always)]
    fn legal_moves(self, player: u64, opponent: u64) -> u64 {
        match self.avx2() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Some(_) => unsafe { legal_moves_avx2(player, opponent) },
            _ => legal_moves(player, opponent),
        }
    }

    /// [`stable_discs`] by this path's code, called as
    /// [`Ops::legal_moves`] is.
    #[inline(always)]
    fn stable_discs(self, player: u64, opponent: u64) -> u64 {
        match self.avx2() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Some(_) => unsafe { stable_discs_avx2(player, opponent) },
            _ => stable_discs(player, opponent),
        }
    }
}

impl<C: Cpu> Ops for C {}

/// The opponent discs that `player` flips by playing on `square` (0..64),
/// by the code path this process uses; 0 when the move flips nothing (an
/// illegal move). Hot code calls [`Ops::flips`] on its token instead.
#[inline]
pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    match crate::game::cpu::detect() {
        Some(avx2) => avx2.flips(square, player, opponent),
        None => flips_rays(square, player, opponent),
    }
}

/// [`flips`] compiled for AVX2 (`super::avx2::flips`). Hot code calls it
/// through [`Ops::flips`] of an [`Avx2`] token, inside code compiled for
/// AVX2 where it is inlined; a call from elsewhere is `unsafe` and must
/// know the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn flips_avx2(square: usize, player: u64, opponent: u64) -> u64 {
    super::avx2::flips(square, player, opponent)
}

/// [`legal_moves`] compiled for AVX2 and kept out of line (see
/// [`Ops::legal_moves`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
#[inline(never)]
fn legal_moves_avx2(player: u64, opponent: u64) -> u64 {
    super::avx2::legal_moves(player, opponent)
}

/// [`stable_discs`] compiled for AVX2 and kept out of line, as
/// [`legal_moves_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
#[inline(never)]
fn stable_discs_avx2(player: u64, opponent: u64) -> u64 {
    stable_discs(player, opponent)
}

impl Avx2 {
    /// [`Ops::legal_moves`] inlined into its caller, for the few loops
    /// where a call per position costs more than the larger code (perft's
    /// last plies); the caller must be compiled for AVX2 (its body run on
    /// this path) for the code to be inlined.
    #[inline(always)]
    pub fn legal_moves_inlined(self, player: u64, opponent: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves the features.
        unsafe {
            super::avx2::legal_moves(player, opponent)
        }
        #[cfg(not(target_arch = "x86_64"))]
        Baseline.legal_moves(player, opponent)
    }

    /// The leaves two plies below a position whose side to move
    /// (`player`) has the moves `moves` (not none): for each move, the
    /// number of replies, or 1 when there is none (a pass or the end of
    /// the game). Perft's last two plies, four children at a time in
    /// vector registers; inlined as [`Avx2::legal_moves_inlined`].
    #[inline(always)]
    pub fn reply_counts(self, moves: u64, player: u64, opponent: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves the features.
        unsafe {
            super::avx2::reply_counts(moves, player, opponent)
        }
        #[cfg(not(target_arch = "x86_64"))]
        Bits(moves)
            .map(|sq| {
                let f = Baseline.flips(sq, player, opponent);
                let (p, o) = (opponent ^ f, player ^ f ^ (1 << sq));
                u64::from(Baseline.legal_moves(p, o).count_ones().max(1))
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cpu::Baseline;

    /// Both paths flip what a hand reading of the board gives.
    #[test]
    fn both_paths_flip_the_same_discs_as_by_hand() {
        let (p, o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let sq = 19; // d3 flips d4
        assert_eq!(Baseline.flips(sq, p, o), 1 << 27);
        if let Some(avx2) = Avx2::detect() {
            assert_eq!(avx2.flips(sq, p, o), 1 << 27);
        }
    }

    /// Every path gives the portable code's answer, on random boards.
    #[test]
    fn every_path_equals_the_portable_code() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..20_000 {
            let (a, b, c) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
            let (player, opponent) = (a & !b, b & !a & c);
            let empty = !(player | opponent);
            let legal = legal_moves(player, opponent);
            let stable = stable_discs(player, opponent);
            assert_eq!(Baseline.legal_moves(player, opponent), legal);
            assert_eq!(Baseline.stable_discs(player, opponent), stable);
            let avx2 = Avx2::detect();
            if let Some(avx2) = avx2 {
                assert_eq!(avx2.legal_moves(player, opponent), legal);
                assert_eq!(avx2.legal_moves_inlined(player, opponent), legal);
                assert_eq!(avx2.stable_discs(player, opponent), stable);
            }
            for sq in (0..64).filter(|sq| empty & (1 << sq) != 0) {
                let f = flips_rays(sq, player, opponent);
                assert_eq!(flips(sq, player, opponent), f, "square {sq}");
                assert_eq!(Baseline.flips(sq, player, opponent), f, "square {sq}");
                if let Some(avx2) = avx2 {
                    assert_eq!(avx2.flips(sq, player, opponent), f, "square {sq}");
                }
            }
        }
    }
}
