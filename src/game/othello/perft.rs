//! Perft with bulk counting for Othello ([`crate::game::perft::perft_bulk`]'s
//! count for [`super::Board`]), on the two bitboards alone: no move list,
//! no colour, positions passed by value in registers. Still a plain
//! enumeration of every line (no hashing, no symmetry): one ply above the
//! leaves a position counts its moves, and two plies above, each move is
//! played and only the reply count of the child is taken.

use super::bitboard::Bits;
use super::ops::Ops;
use crate::game::cpu::{Avx2, Cpu};

/// Leaves `depth` plies below the position (`player` to move), the last
/// ply counted without playing it; a pass is a ply and a finished game is
/// a leaf wherever it ends, as [`crate::game::perft`] counts.
#[inline]
pub(crate) fn leaves_on<C: Cpu>(cpu: C, player: u64, opponent: u64, depth: u32) -> u64 {
    match cpu.avx2() {
        // SAFETY: an `Avx2` token exists only where the processor has the
        // features `leaves_avx2` is compiled for.
        #[allow(unused_unsafe)]
        Some(avx2) => unsafe { leaves_avx2(avx2, player, opponent, depth) },
        None => leaves(cpu, player, opponent, depth),
    }
}

/// [`leaves`] compiled for AVX2: the recursion calls it straight, its
/// arguments in registers (see [`crate::game::cpu`]).
#[cfg_attr(
    target_arch = "x86_64",
    target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")
)]
fn leaves_avx2(cpu: Avx2, player: u64, opponent: u64, depth: u32) -> u64 {
    leaves(cpu, player, opponent, depth)
}

/// Legal moves, inlined on the AVX2 path (a call per child costs more
/// here than the larger loop).
#[inline(always)]
fn moves<C: Cpu>(cpu: C, player: u64, opponent: u64) -> u64 {
    match cpu.avx2() {
        Some(avx2) => avx2.legal_moves_inlined(player, opponent),
        None => cpu.legal_moves(player, opponent),
    }
}

/// The leaves two plies below: for each move of `legal` (not none), the
/// number of replies, or 1 when there is none (a pass or the end of the
/// game: one leaf).
#[inline(always)]
fn reply_counts<C: Cpu>(cpu: C, legal: u64, player: u64, opponent: u64) -> u64 {
    match cpu.avx2() {
        Some(avx2) => avx2.reply_counts(legal, player, opponent),
        None => Bits(legal)
            .map(|sq| {
                let (p, o) = play(cpu, sq, player, opponent);
                u64::from(cpu.legal_moves(p, o).count_ones().max(1))
            })
            .sum(),
    }
}

/// The position after `player` plays on `square` (a legal move), still
/// from the mover's side: (the new side to move's discs, the other's).
#[inline(always)]
fn play<C: Cpu>(cpu: C, square: usize, player: u64, opponent: u64) -> (u64, u64) {
    let flipped = cpu.flips(square, player, opponent);
    (opponent ^ flipped, player ^ flipped ^ (1 << square))
}

/// The body of [`leaves_on`], inlined into each path's function.
#[inline(always)]
fn leaves<C: Cpu>(cpu: C, player: u64, opponent: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = moves(cpu, player, opponent);
    if legal == 0 {
        // Pass (one ply) or the end of the game (a leaf).
        return if depth == 1 || moves(cpu, opponent, player) == 0 {
            1
        } else {
            leaves_on(cpu, opponent, player, depth - 1)
        };
    }
    match depth {
        1 => u64::from(legal.count_ones()),
        // Each child counts its moves, or 1 for its pass or its end.
        2 => reply_counts(cpu, legal, player, opponent),
        _ => Bits(legal)
            .map(|sq| {
                let (p, o) = play(cpu, sq, player, opponent);
                leaves_on(cpu, p, o, depth - 1)
            })
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cpu::Baseline;
    use crate::game::perft::walk_bulk_on;
    use crate::game::{Game, MoveList};
    use crate::Board;

    #[test]
    fn counting_in_parts_gives_the_same_totals() {
        use crate::game::perft::{perft, perft_parts};
        for depth in 0..=6 {
            for bulk in [false, true] {
                let mut calls = Vec::new();
                let b = Board::start();
                let n = perft_parts(&b, depth, bulk, |d, t| calls.push((d, t)));
                assert_eq!(n, perft(&b, depth), "othello {depth}");
                let (done, parts) = *calls.last().unwrap();
                assert_eq!(done, parts);
                assert_eq!(calls.len(), parts + 1);
            }
        }
    }

    /// Positions of random games at every stage, passes and ends included.
    fn positions() -> Vec<Board> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut all = Vec::new();
        for _ in 0..40 {
            let mut b = Board::start();
            loop {
                all.push(b);
                let mut moves = MoveList::new();
                b.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b = b.play(moves.get(state as usize % moves.len()));
            }
        }
        all
    }

    #[test]
    fn both_paths_count_what_the_walk_counts() {
        let all = positions();
        assert!(all.iter().any(|b| b.must_pass()) && all.iter().any(Game::is_over));
        for (i, b) in all.iter().enumerate() {
            // Deeper counts on every fifth position, to stay quick.
            let deepest = if i % 5 == 0 { 4 } else { 2 };
            for depth in 0..=deepest {
                let walked = walk_bulk_on(Baseline, b, depth);
                let base = leaves_on(Baseline, b.player, b.opponent, depth);
                assert_eq!(base, walked, "{b:?} depth {depth}");
                if let Some(avx2) = Avx2::detect() {
                    let fast = leaves_on(avx2, b.player, b.opponent, depth);
                    assert_eq!(fast, walked, "{b:?} depth {depth}");
                }
            }
        }
    }
}
