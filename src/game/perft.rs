//! Perft: the number of leaves of the game tree to a fixed depth, the
//! standard check and benchmark of move generation.
//!
//! Counting rule: every move is a ply, **a pass included**; a finished game is
//! a leaf at whatever depth it ends (it counts 1, even above the requested
//! depth). Depth 0 counts the position itself.

use crate::game::{Game, MoveList};

/// Leaves at `depth` below `pos`, every leaf made by playing its move.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    moves.iter().map(|mv| perft(&pos.play(mv), depth - 1)).sum()
}

/// As [`perft`], but the last ply is counted without playing it ("bulk
/// counting"): a position one ply above the leaves counts its number of
/// moves (1 when it must pass or the game is over).
pub fn perft_bulk<G: Game>(pos: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.move_count().max(1) as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                return 1;
            }
            moves
                .iter()
                .map(|mv| perft_bulk(&pos.play(mv), depth - 1))
                .sum()
        }
    }
}
