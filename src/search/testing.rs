//! What the search's unit tests share: a cheap evaluation that orders
//! moves, and positions from seeded random play.

use super::Evaluator;
use crate::game::othello::Board;
use crate::game::{Game, MoveList};

/// Ten units per move of the side to move, a hundred per disc at the end.
#[derive(Clone, Copy)]
pub(super) struct Mobility;

impl Evaluator<Board> for Mobility {
    fn evaluate(&self, b: &Board) -> i32 {
        let mut moves = MoveList::new();
        b.generate_moves(&mut moves);
        10 * moves.len() as i32
    }

    fn units_per_point(&self) -> i32 {
        100
    }
}

/// Seeded random moves from the start until `done(position, plies played)`
/// or the game's end.
pub(super) fn random_game(seed: u64, done: impl Fn(&Board, u32) -> bool) -> Board {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut b = Board::start();
    let mut moves = MoveList::new();
    let mut plies = 0;
    while !done(&b, plies) && !b.is_over() {
        moves.clear();
        b.generate_moves(&mut moves);
        b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
        plies += 1;
    }
    b
}
