//! The move-ordering options an engine lists, highest priority first
//! (how they sort a node's moves is `ordering.rs`).

use serde::{Deserialize, Serialize};

/// One move-ordering option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrderBy {
    /// The game's static square values (Othello: corners first, X-squares
    /// last).
    SquareWeights,
    /// The best move stored in the transposition table for this position
    /// (needs a table).
    HashMove,
    /// The two most recent moves that caused a cutoff at the same ply.
    Killers,
    /// Moves that caused cutoffs often and deep (depth² per cutoff), per side.
    History,
    /// Fewest opponent replies first ("fastest first", Othello's mobility
    /// ordering).
    FastestFirst,
    /// A shallow search of each move: depth `(d - 1) / 3` at nodes with `d >= 3`
    /// plies left (0 = the evaluation of the position after the move).
    ShallowSearch,
    /// Edax's fast ordering key, in one number: fewest opponent replies
    /// (corners counted twice), then own corner stability, fewest empties
    /// next to own discs (the opponent's potential mobility), square value
    /// and parity (Othello; 0 for other games).
    EdaxFast,
}

impl OrderBy {
    /// Every option, in the order commands list them.
    pub const ALL: [OrderBy; MAX_ORDER] = [
        OrderBy::SquareWeights,
        OrderBy::HashMove,
        OrderBy::Killers,
        OrderBy::History,
        OrderBy::FastestFirst,
        OrderBy::ShallowSearch,
        OrderBy::EdaxFast,
    ];

    /// The name command-line flags use (`--order fastest-first`).
    pub fn name(self) -> &'static str {
        match self {
            OrderBy::SquareWeights => "square-weights",
            OrderBy::HashMove => "hash-move",
            OrderBy::Killers => "killers",
            OrderBy::History => "history",
            OrderBy::FastestFirst => "fastest-first",
            OrderBy::ShallowSearch => "shallow-search",
            OrderBy::EdaxFast => "edax-fast",
        }
    }

    /// One line on what the option does, for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            OrderBy::SquareWeights => "Static square values",
            OrderBy::HashMove => "Transposition-table move first",
            OrderBy::Killers => "Killer moves",
            OrderBy::History => "History heuristic",
            OrderBy::FastestFirst => "Fewest opponent replies first",
            OrderBy::ShallowSearch => "Shallow-search ordering",
            OrderBy::EdaxFast => "Edax's fast key: replies, corner stability, potential mobility",
        }
    }
}

/// Most ordering options in one list (each at most once).
pub const MAX_ORDER: usize = 7;
