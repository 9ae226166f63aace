//! Game rules, and nothing else: this module imports no search, engine,
//! tournament or I/O code of ours.
//!
//! [`Game`] is what search is generic over. A position *is* the game state
//! (copy-make: [`Game::play`] returns the child), legal moves include an explicit
//! pass when the side to move is stuck but the game goes on, and scores are
//! always from the point of view of the side to move.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod cpu;
pub mod movelist;
pub mod othello;
pub mod perft;
pub mod tictactoe;
pub mod tree;

pub use cpu::Cpu;
pub use movelist::MoveList;

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// A two-player, zero-sum, perfect-information game position.
///
/// Contract shared by every implementation:
/// - [`Game::generate_moves`] yields an empty list exactly when
///   [`Game::is_over`] is true; a side that cannot move but whose game is not
///   over gets the single move [`Game::pass_move`] (games without passes never
///   return that).
/// - [`Game::final_score`] is meaningful only when the game is over and is from
///   the point of view of the side to move in that final position.
/// - [`Game::hash`] is equal for equal positions (as search sees them).
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A move, including the pass where the game has one.
    type Move: Copy + Default + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// Short lower-case name (`othello`, `tictactoe`, `tree`).
    const NAME: &'static str;

    /// Appends every legal move to `moves` (which the caller cleared).
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);

    /// The position after `mv`, which must be legal here.
    ///
    /// # Panics
    /// May panic, or return a meaningless position, if `mv` is not legal.
    fn play(&self, mv: Self::Move) -> Self;

    /// [`Game::play`] by the code of path `cpu` (see [`cpu`]): hot code
    /// generic over the path calls this. Games with no processor-specific
    /// code keep the default.
    #[inline(always)]
    fn play_on<C: Cpu>(&self, cpu: C, mv: Self::Move) -> Self {
        let _ = cpu;
        self.play(mv)
    }

    /// True when neither side has a move.
    fn is_over(&self) -> bool;

    /// The exact result of a finished game, from the side to move's point of
    /// view (positive: the side to move has won).
    fn final_score(&self) -> i32;

    /// A 64-bit key of the position, for transposition tables.
    fn hash(&self) -> u64;

    /// True when the first player (Othello: black; tic-tac-toe: X; trees: MAX)
    /// is to move.
    fn first_player_to_move(&self) -> bool;

    /// The pass move, if this game has one.
    fn pass_move() -> Option<Self::Move> {
        None
    }

    /// Number of legal moves; the default generates them.
    fn move_count(&self) -> usize {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.len()
    }

    /// [`Game::generate_moves`] by the code of path `cpu`, as
    /// [`Game::play_on`].
    #[inline(always)]
    fn generate_moves_on<C: Cpu>(&self, cpu: C, moves: &mut MoveList<Self::Move>) {
        let _ = cpu;
        self.generate_moves(moves)
    }

    /// [`Game::move_count`] by the code of path `cpu`, as [`Game::play_on`].
    #[inline(always)]
    fn move_count_on<C: Cpu>(&self, cpu: C) -> usize {
        let _ = cpu;
        self.move_count()
    }

    /// Leaves `depth` plies below, the last ply counted without playing
    /// it ([`perft::perft_bulk`]), by the code of path `cpu`. The default
    /// walks the moves ([`perft::walk_bulk_on`]); a game may count the
    /// same leaves faster (still visiting every line).
    #[inline(always)]
    fn perft_bulk_on<C: Cpu>(&self, cpu: C, depth: u32) -> u64 {
        perft::walk_bulk_on(cpu, self, depth)
    }
}

/// The games `arena` knows, as engine files and `--game` name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameKind {
    /// Othello (Reversi), 8x8.
    Othello,
    /// Tic-tac-toe, 3x3.
    TicTacToe,
}

impl GameKind {
    /// Every game, in the order commands list them.
    pub const ALL: [GameKind; 2] = [GameKind::Othello, GameKind::TicTacToe];

    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Othello => "othello",
            GameKind::TicTacToe => "tictactoe",
        }
    }

    /// One line on the game, for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            GameKind::Othello => "Othello (Reversi), 8x8",
            GameKind::TicTacToe => "Tic-tac-toe, 3x3",
        }
    }
}
