//! Game-tree search, generic over [`Game`]: every classic variant as its own
//! code (minimax, negamax, alpha-beta fail-hard and fail-soft, PVS, MTD(f)),
//! iterative deepening with aspiration windows, a transposition table, move
//! ordering and search limits.
//!
//! Conventions shared by every variant:
//! - Scores are `i32` in the evaluator's units, from the point of view of the
//!   side to move; a finished game scores `final_score * units_per_point`.
//! - A node is counted each time a position is visited: root, inner nodes and
//!   leaves alike (the textbook count).
//! - A pass is a move and a node, but it does not use up depth (as in Edax):
//!   two passes end the game, so this cannot loop, and a position is always
//!   searched to the same remaining depth whichever way it was reached, which
//!   keeps transposition-table cutoffs exact.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod abdada;
pub mod alphabeta;
pub mod busy;
pub mod deepening;
pub mod limits;
pub mod minimax;
pub mod mtdf;
pub mod negamax;
mod node;
pub mod order_by;
pub mod ordering;
pub mod probcut;
pub mod pvs;
pub mod searcher;
pub mod smp;
#[cfg(test)]
mod testing;
pub mod tree;
pub mod tt;

pub use deepening::{search, Iteration, SearchOutcome, SearchSettings};
pub use limits::{Limit, StopReason};
pub use order_by::OrderBy;
pub use searcher::Searcher;
pub use tt::{Bound, TranspositionTable};

use crate::game::othello::{Board, Move, Square};
use crate::game::tictactoe::TicTacToe;
use crate::game::tree::TreePos;
use crate::game::{Cpu, Game};
use serde::{Deserialize, Serialize};

/// Larger than any score; `-INFINITY..=INFINITY` is the full window.
pub const INFINITY: i32 = 1 << 28;

// Explicit trees refuse leaves the full window could not hold.
const _: () = assert!(crate::game::tree::MAX_LEAF < INFINITY);

/// Deepest ply a search may reach (Othello: 60 moves plus passes).
pub const MAX_PLY: usize = 128;

/// Number of distinct move slots (see [`SearchGame::move_slot`]).
pub const MOVE_SLOTS: usize = 65;

/// What search needs from a game beyond its rules: a dense index of moves (for
/// killer and history tables) and an optional static weight per move.
pub trait SearchGame: Game {
    /// A dense index of `mv`, below [`MOVE_SLOTS`].
    fn move_slot(mv: Self::Move) -> usize;

    /// The move whose slot is `slot` (the inverse of [`SearchGame::move_slot`]).
    fn move_from_slot(slot: usize) -> Self::Move;

    /// True when `mv` is a pass (which does not use up depth).
    fn is_pass(mv: Self::Move) -> bool {
        Self::pass_move() == Some(mv)
    }

    /// Depth left after `mv` at a node with `depth` left: one less, but a
    /// pass uses none (see the module docs).
    #[inline(always)]
    fn child_depth(mv: Self::Move, depth: u32) -> u32 {
        if Self::is_pass(mv) {
            depth
        } else {
            depth - 1
        }
    }

    /// The classic static value of the square a move is played on (higher is
    /// searched first); 0 for games without one.
    fn square_weight(_mv: Self::Move) -> i32 {
        0
    }

    /// Edax's fast ordering key of `mv` here (higher is searched first):
    /// the opponent's replies (corners counted twice), own corner
    /// stability, the opponent's potential mobility, square value and
    /// parity, in that priority; 0 for games without one.
    fn edax_fast_key<C: Cpu>(&self, _cpu: C, _mv: Self::Move) -> i32 {
        0
    }

    /// Most plies (passes aside) the game can still last, when the rules
    /// bound it; deepening stops once an iteration has seen every end.
    fn max_plies_left(&self) -> Option<u32> {
        None
    }

    /// The number of moves after `mv` (what [`OrderBy::FastestFirst`]
    /// ranks by), the child played by the code of path `cpu`. A position
    /// that carries more than the game (an evaluation's readings) may
    /// count them without making the whole child.
    #[inline(always)]
    fn replies_after<C: Cpu>(&self, cpu: C, mv: Self::Move) -> usize {
        self.play_on(cpu, mv).move_count()
    }

    /// The [`Game::hash`] of the position after `mv` (what the table is
    /// asked to fetch ahead of a child's probe), as
    /// [`SearchGame::replies_after`].
    #[inline(always)]
    fn hash_after<C: Cpu>(&self, cpu: C, mv: Self::Move) -> u64 {
        self.play_on(cpu, mv).hash()
    }
}

/// The classic Othello square values (corners best, X-squares worst), used to
/// order moves. Indexed by square, a1 = 0.
#[rustfmt::skip]
pub const OTHELLO_SQUARE_ORDER: [i32; 64] = [
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2,  -1, -1, -1, -1,  -2,  10,
      5,  -2,  -1, -1, -1, -1,  -2,   5,
      5,  -2,  -1, -1, -1, -1,  -2,   5,
     10,  -2,  -1, -1, -1, -1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
];

impl SearchGame for Board {
    #[inline]
    fn move_slot(mv: Self::Move) -> usize {
        mv.index()
    }

    #[inline]
    fn move_from_slot(slot: usize) -> Self::Move {
        if slot < 64 {
            Move::square(Square::new(slot as u8))
        } else {
            Move::PASS
        }
    }

    #[inline]
    fn is_pass(mv: Self::Move) -> bool {
        mv.is_pass()
    }

    #[inline]
    fn square_weight(mv: Self::Move) -> i32 {
        mv.to_square()
            .map_or(-1000, |sq| OTHELLO_SQUARE_ORDER[sq.index()])
    }

    #[inline(always)]
    fn edax_fast_key<C: Cpu>(&self, cpu: C, mv: Self::Move) -> i32 {
        use crate::game::othello::shape::{fast_key, odd_quadrants};
        use crate::game::othello::Ops;
        // A pass is a node's only move: nothing to order.
        let Some(sq) = mv.to_square() else {
            return 0;
        };
        let (sq, p, o) = (sq.index(), self.player, self.opponent);
        let f = cpu.flips(sq, p, o);
        let (np, no) = (o ^ f, p ^ f ^ 1u64 << sq);
        let empty = !(p | o);
        fast_key(sq, cpu.legal_moves(np, no), no, empty, odd_quadrants(empty))
    }

    fn max_plies_left(&self) -> Option<u32> {
        Some(self.empties())
    }
}

impl SearchGame for TicTacToe {
    fn move_slot(mv: Self::Move) -> usize {
        usize::from(mv.0)
    }

    fn move_from_slot(slot: usize) -> Self::Move {
        crate::game::tictactoe::Cell(slot as u8)
    }

    fn square_weight(mv: Self::Move) -> i32 {
        // Centre, then corners, then edges.
        [2, 1, 2, 1, 3, 1, 2, 1, 2][usize::from(mv.0)]
    }

    fn max_plies_left(&self) -> Option<u32> {
        Some(9 - self.plies())
    }
}

impl SearchGame for TreePos {
    fn move_slot(mv: Self::Move) -> usize {
        usize::from(mv.0)
    }

    fn move_from_slot(slot: usize) -> Self::Move {
        crate::game::tree::Branch(slot as u8)
    }
}

/// A static evaluation: the search calls it on positions at the depth limit
/// that are not finished games.
pub trait Evaluator<G: Game> {
    /// Value of a position whose game goes on, for the side to move.
    fn evaluate(&self, pos: &G) -> i32;

    /// [`Evaluator::evaluate`] compiled for the code path `cpu` (see
    /// [`crate::game::cpu`]): what hot code generic over the path calls.
    #[inline(always)]
    fn evaluate_on<C: Cpu>(&self, cpu: C, pos: &G) -> i32 {
        cpu.run(
            #[inline(always)]
            || self.evaluate(pos),
        )
    }

    /// Evaluation units per point of final score (per disc in Othello), so
    /// that finished games and estimates share one scale.
    fn units_per_point(&self) -> i32 {
        1
    }

    /// The value at a search's horizon, compiled for `cpu`: the final
    /// score (in evaluation units) of a finished game, else
    /// [`Evaluator::evaluate_on`]. An evaluation that reads both sides'
    /// moves may share them with the test for the game's end.
    #[inline(always)]
    fn horizon_on<C: Cpu>(&self, cpu: C, pos: &G) -> i32 {
        horizon_value(self, cpu, pos)
    }
}

/// The value of a finished game for the side to move, in `eval`'s units:
/// its final score times [`Evaluator::units_per_point`].
#[inline(always)]
pub fn final_value<G: Game, E: Evaluator<G> + ?Sized>(eval: &E, pos: &G) -> i32 {
    pos.final_score() * eval.units_per_point()
}

/// What [`Evaluator::horizon_on`] gives unless an evaluation overrides it:
/// [`final_value`] of a finished game, else [`Evaluator::evaluate_on`].
#[inline(always)]
pub fn horizon_value<G: Game, E: Evaluator<G> + ?Sized, C: Cpu>(eval: &E, cpu: C, pos: &G) -> i32 {
    if pos.is_over() {
        final_value(eval, pos)
    } else {
        eval.evaluate_on(cpu, pos)
    }
}

/// Evaluates every unfinished position as 0: for exhaustive searches of
/// tic-tac-toe and explicit trees, where the depth limit is never reached.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroEval;

impl<G: Game> Evaluator<G> for ZeroEval {
    fn evaluate(&self, _pos: &G) -> i32 {
        0
    }
}

/// Which search algorithm runs inside iterative deepening (or alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// Textbook minimax: separate MAX and MIN functions, no pruning.
    Minimax,
    /// Minimax in one function, negating the score at each ply.
    Negamax,
    /// Alpha-beta pruning.
    AlphaBeta {
        /// What a node returns when it fails high or low.
        fail: Fail,
    },
    /// Principal variation search (NegaScout): null windows after the
    /// first move, re-searched on a fail high.
    Pvs,
    /// MTD(f): null-window fail-soft searches with a transposition table,
    /// converging on the value.
    MtdF,
}

/// Fail-hard or fail-soft alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fail {
    /// Return values clamped to the window: beta on a cutoff, alpha when no
    /// move beats alpha.
    Hard,
    /// Return the best value found, even outside the window.
    Soft,
}

impl Variant {
    /// Every variant, in the order commands list them.
    pub const ALL: [Variant; 6] = [
        Variant::Minimax,
        Variant::Negamax,
        Variant::AlphaBeta { fail: Fail::Hard },
        Variant::AlphaBeta { fail: Fail::Soft },
        Variant::Pvs,
        Variant::MtdF,
    ];

    /// One line on what the variant is, for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            Variant::Minimax => "Textbook minimax (MAX and MIN functions)",
            Variant::Negamax => "Negamax",
            Variant::AlphaBeta { fail: Fail::Hard } => "Alpha-beta, fail-hard",
            Variant::AlphaBeta { fail: Fail::Soft } => "Alpha-beta, fail-soft",
            Variant::Pvs => "Principal variation search (NegaScout)",
            Variant::MtdF => "MTD(f) from a first guess of 0 (with a transposition table)",
        }
    }

    /// True for the alpha-beta family (which may use a transposition table
    /// and move ordering).
    pub fn prunes(self) -> bool {
        !matches!(self, Variant::Minimax | Variant::Negamax)
    }

    /// A short name, as `arena tree --algorithm` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Minimax => "minimax",
            Variant::Negamax => "negamax",
            Variant::AlphaBeta { fail: Fail::Hard } => "alphabeta",
            Variant::AlphaBeta { fail: Fail::Soft } => "alphabeta-failsoft",
            Variant::Pvs => "pvs",
            Variant::MtdF => "mtdf",
        }
    }
}

/// Counters of one search, for study and speed figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Positions visited (root, inner nodes and leaves).
    pub nodes: u64,
    /// Nodes where a move reached beta.
    pub beta_cutoffs: u64,
    /// Of those, how many on the first move searched.
    pub first_move_cutoffs: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Probes whose stored bound ended the node.
    pub tt_cutoffs: u64,
    /// Re-searches (PVS after a null-window fail high, aspiration failures).
    pub researches: u64,
    /// Nodes where ProbCut ran its shallow test.
    pub probcut_tries: u64,
    /// Of those, how many it cut.
    pub probcut_cuts: u64,
    /// Moves put off to the end of their node because another thread was
    /// searching them (a search on several threads; see `abdada.rs`).
    pub deferred: u64,
}

impl SearchStats {
    /// Adds `other`'s counters into `self`.
    pub fn add(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.beta_cutoffs += other.beta_cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
        self.probcut_tries += other.probcut_tries;
        self.probcut_cuts += other.probcut_cuts;
        self.researches += other.researches;
        self.deferred += other.deferred;
    }
}
