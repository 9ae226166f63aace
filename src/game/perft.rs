//! Perft: the number of leaves of the game tree to a fixed depth, the
//! standard check and benchmark of move generation.
//!
//! Counting rule: every move is a ply, **a pass included**; a finished game is
//! a leaf at whatever depth it ends (it counts 1, even above the requested
//! depth). Depth 0 counts the position itself.

use crate::game::cpu::{dispatch, Avx2, Cpu, OnCpu};
use crate::game::{Game, MoveList};

/// Deepest perft `arena perft` accepts: Othello's count at depth 20 is
/// beyond 10^17 leaves, weeks of counting; deeper is never meant.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// Leaves at `depth` below `pos`, every leaf made by playing its move.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    dispatch(Count {
        pos,
        depth,
        bulk: false,
    })
}

/// As [`perft`], but the last ply is counted without playing it ("bulk
/// counting"): a position one ply above the leaves counts its number of
/// moves (1 when it must pass or the game is over).
pub fn perft_bulk<G: Game>(pos: &G, depth: u32) -> u64 {
    dispatch(Count {
        pos,
        depth,
        bulk: true,
    })
}

/// One count, for [`dispatch`] to run on the chosen code path.
struct Count<'a, G> {
    pos: &'a G,
    depth: u32,
    bulk: bool,
}

impl<G: Game> OnCpu for Count<'_, G> {
    type Output = u64;
    fn call<C: Cpu>(self, cpu: C) -> u64 {
        if self.bulk {
            perft_bulk_on(cpu, self.pos, self.depth)
        } else {
            perft_on(cpu, self.pos, self.depth)
        }
    }
}

/// [`perft`] by the code of path `cpu` (both paths count the same).
#[inline]
pub fn perft_on<C: Cpu, G: Game>(cpu: C, pos: &G, depth: u32) -> u64 {
    match cpu.avx2() {
        // SAFETY: an `Avx2` token exists only where the processor has the
        // features `count_avx2` is compiled for.
        #[allow(unused_unsafe)]
        Some(avx2) => unsafe { count_avx2(avx2, pos, depth) },
        None => count(cpu, pos, depth),
    }
}

/// [`perft_bulk`] by the code of path `cpu` (both paths count the same):
/// the game's [`Game::perft_bulk_on`].
#[inline]
pub fn perft_bulk_on<C: Cpu, G: Game>(cpu: C, pos: &G, depth: u32) -> u64 {
    pos.perft_bulk_on(cpu, depth)
}

/// [`perft_bulk_on`] by generating and playing the moves of every
/// position above the last ply: what [`Game::perft_bulk_on`] does unless
/// a game counts faster.
#[inline]
pub fn walk_bulk_on<C: Cpu, G: Game>(cpu: C, pos: &G, depth: u32) -> u64 {
    match cpu.avx2() {
        // SAFETY: as in `perft_on`.
        #[allow(unused_unsafe)]
        Some(avx2) => unsafe { count_bulk_avx2(avx2, pos, depth) },
        None => count_bulk(cpu, pos, depth),
    }
}

/// [`count`] compiled for AVX2: the recursion calls it straight, with its
/// arguments in registers (see [`crate::game::cpu`]).
#[cfg_attr(
    target_arch = "x86_64",
    target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")
)]
fn count_avx2<G: Game>(cpu: Avx2, pos: &G, depth: u32) -> u64 {
    count(cpu, pos, depth)
}

/// [`count_bulk`] compiled for AVX2, as [`count_avx2`].
#[cfg_attr(
    target_arch = "x86_64",
    target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")
)]
fn count_bulk_avx2<G: Game>(cpu: Avx2, pos: &G, depth: u32) -> u64 {
    count_bulk(cpu, pos, depth)
}

/// The body of [`perft_on`], inlined into each path's function.
#[inline(always)]
fn count<C: Cpu, G: Game>(cpu: C, pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_moves_on(cpu, &mut moves);
    if moves.is_empty() {
        return 1;
    }
    moves
        .iter()
        .map(|mv| perft_on(cpu, &pos.play_on(cpu, mv), depth - 1))
        .sum()
}

/// The body of [`walk_bulk_on`], inlined into each path's function.
#[inline(always)]
fn count_bulk<C: Cpu, G: Game>(cpu: C, pos: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.move_count_on(cpu).max(1) as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves_on(cpu, &mut moves);
            if moves.is_empty() {
                return 1;
            }
            moves
                .iter()
                .map(|mv| walk_bulk_on(cpu, &pos.play_on(cpu, mv), depth - 1))
                .sum()
        }
    }
}

/// As [`perft`] (or [`perft_bulk`] with `bulk`), counted in parts: the
/// positions two plies below `pos` (fewer at depth 2 or less) are counted
/// one by one, and `progress(done, parts)` is called before the first and
/// after each, so a long count can show how far it is. Same total.
pub fn perft_parts<G: Game>(
    pos: &G,
    depth: u32,
    bulk: bool,
    mut progress: impl FnMut(usize, usize),
) -> u64 {
    let split = depth.saturating_sub(1).min(2);
    let mut parts = Vec::new();
    // Games that end above the split are leaves already.
    let mut total = 0;
    frontier(pos, split, &mut parts, &mut total);
    progress(0, parts.len());
    for (i, part) in parts.iter().enumerate() {
        total += if bulk {
            perft_bulk(part, depth - split)
        } else {
            perft(part, depth - split)
        };
        progress(i + 1, parts.len());
    }
    total
}

/// The positions `plies` below `pos` into `out`; each finished game met
/// on the way adds its leaf to `leaves`.
fn frontier<G: Game>(pos: &G, plies: u32, out: &mut Vec<G>, leaves: &mut u64) {
    if plies == 0 {
        out.push(pos.clone());
        return;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        *leaves += 1;
        return;
    }
    for mv in moves.iter() {
        frontier(&pos.play(mv), plies - 1, out, leaves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tictactoe::TicTacToe;

    /// Othello's parts are counted in `othello/perft.rs`'s tests.
    #[test]
    fn counting_in_parts_gives_the_same_totals() {
        // Tic-tac-toe: games end above the split.
        let t = TicTacToe::parse("XXO-O----").unwrap();
        for depth in 0..=9 {
            assert_eq!(perft_parts(&t, depth, true, |_, _| {}), perft(&t, depth));
        }
    }
}
