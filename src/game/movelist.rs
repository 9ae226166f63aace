//! A fixed-capacity move list that lives on the stack, so that move
//! generation in the search hot path never allocates.

use std::fmt;

/// Most moves any position of our games can have. Othello's known maximum is
/// 33; tic-tac-toe has 9; tree files are checked against this bound when read.
pub const MAX_MOVES: usize = 64;

/// Up to [`MAX_MOVES`] moves, in generation order.
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy + Default> {
    len: usize,
    moves: [M; MAX_MOVES],
}

impl<M: Copy + Default> MoveList<M> {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [M::default(); MAX_MOVES],
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// Panics when the list already holds [`MAX_MOVES`] moves; games guarantee
    /// they never produce more.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The move at `i`.
    ///
    /// # Panics
    /// Panics when `i >= len()`.
    #[inline]
    pub fn get(&self, i: usize) -> M {
        self.as_slice()[i]
    }

    /// Swaps the moves at `i` and `j` (for ordering).
    #[inline]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.moves[..self.len].swap(i, j);
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves in order.
    pub fn iter(&self) -> impl Iterator<Item = M> + '_ {
        self.moves[..self.len].iter().copied()
    }

    /// Position of `mv` in the list, if present.
    pub fn position(&self, mv: M) -> Option<usize>
    where
        M: PartialEq,
    {
        self.iter().position(|m| m == mv)
    }

    /// Moves the move at `i` to the front, keeping the others' order.
    pub fn move_to_front(&mut self, i: usize) {
        self.moves[..=i].rotate_right(1);
    }
}

impl<M: Copy + Default> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Default + fmt::Debug> fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
