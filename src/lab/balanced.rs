//! Balanced books: the filter that searches each opening with an engine and
//! keeps those it scores near 0. Offline work, above the engine it uses;
//! the book's own enumeration and sampling stay in `book::generate`.

use crate::engine::{EngineConfig, SearchEngine};
use crate::eval::OthelloEval;
use crate::game::othello::Board;
use crate::search::{search, Limit, SearchSettings, Searcher};

/// A bad balanced-book request.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BalanceError {
    /// A balanced book asked of an engine that does not search (the random
    /// mover).
    #[error("engine {engine} does not search (search: Random): a balanced book needs an engine that searches")]
    NotSearching {
        /// The engine's name.
        engine: String,
    },
    /// A balanced book searched to depth 0 or deeper than
    /// [`MAX_BALANCE_DEPTH`].
    #[error("depth {depth} is out of range: give 1 to {MAX_BALANCE_DEPTH}")]
    Depth {
        /// The value asked for.
        depth: u32,
    },
    /// A bound that is negative, infinite or not a number.
    #[error("max_abs {max_abs} is not a number of discs of 0 or more")]
    MaxAbs {
        /// The value asked for, as text.
        max_abs: String,
    },
}

/// The deepest search [`Balance`] accepts (a game has at most 60 moves).
pub const MAX_BALANCE_DEPTH: u32 = 60;

/// The filter of balanced books: searches an opening with an engine to a
/// fixed depth and keeps it when the score, for the side to move, is within
/// a bound of 0.
///
/// Each opening is searched by a fresh [`Searcher`] (a new transposition
/// table, killers and history), so a verdict depends only on the opening:
/// not on the thread that searched it nor on what that thread searched
/// before. A new table is a zeroed allocation the operating system supplies
/// lazily, so a fresh one per opening costs only the pages the search
/// touches.
#[derive(Clone, Debug)]
pub struct Balance {
    name: String,
    engine: SearchEngine,
    settings: SearchSettings,
    depth: u32,
    max_abs: i64,
}

impl Balance {
    /// Scores openings with `engine` (its algorithm, evaluation, ordering,
    /// table size and deepening as configured, its limit replaced by
    /// `depth` plies) and keeps those within `max_abs_discs` discs of 0,
    /// compared in whole centidiscs (`max_abs_discs * 100`, rounded).
    ///
    /// # Errors
    /// [`BalanceError::NotSearching`] for the random mover,
    /// [`BalanceError::Depth`] for a depth outside `1..=`[`MAX_BALANCE_DEPTH`],
    /// [`BalanceError::MaxAbs`] for a bound that is negative or not finite.
    pub fn new(
        engine: &EngineConfig,
        depth: u32,
        max_abs_discs: f64,
    ) -> Result<Balance, BalanceError> {
        let Some(search) = engine.searching() else {
            return Err(BalanceError::NotSearching {
                engine: engine.name.clone(),
            });
        };
        if depth == 0 || depth > MAX_BALANCE_DEPTH {
            return Err(BalanceError::Depth { depth });
        }
        if !max_abs_discs.is_finite() || max_abs_discs < 0.0 {
            return Err(BalanceError::MaxAbs {
                max_abs: max_abs_discs.to_string(),
            });
        }
        let mut settings = search.settings;
        settings.limit = Limit::Depth(depth);
        Ok(Balance {
            name: engine.name.clone(),
            engine: search.clone(),
            settings,
            depth,
            max_abs: (max_abs_discs * 100.0).round() as i64,
        })
    }

    /// The engine's display name.
    pub fn engine_name(&self) -> &str {
        &self.name
    }

    /// The depth of each search, in plies.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The bound in centidiscs: an opening is kept when its score's
    /// absolute value is at most this.
    pub fn max_abs_centidiscs(&self) -> i64 {
        self.max_abs
    }

    /// The score of `board` for the side to move, in centidiscs: a search
    /// to the depth by a fresh searcher with the engine's settings.
    pub fn score(&self, board: &Board) -> i32 {
        let mut searcher: Searcher<Board, OthelloEval> = Searcher::new(
            self.engine.eval.clone(),
            self.engine.tt_mib,
            self.engine.ordering.clone(),
        );
        // The engine as configured, ProbCut included.
        searcher.probcut = self.engine.probcut.clone();
        search(
            &mut searcher,
            board,
            &self.settings,
            None,
            board.empties() / 2,
        )
        .score
    }

    /// Whether a balanced book keeps `board`: `|score| <= max_abs`.
    pub fn keeps(&self, board: &Board) -> bool {
        i64::from(self.score(board)).abs() <= self.max_abs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_scores_with_a_fresh_search() {
        use std::path::Path;
        let parse = |text: &str| EngineConfig::parse(text, Path::new("engines/t.ron")).unwrap();
        let one_ply = parse(r#"Engine(name: "n1", search: Negamax, limit: Depth(6), eval: Discs)"#);
        // Depth 1 with the disc count: any first move leaves 4 discs to 1.
        let b = Balance::new(&one_ply, 1, 3.0).unwrap();
        assert_eq!(b.score(&Board::start()), 300);
        assert!(b.keeps(&Board::start()));
        assert_eq!(b.score(&Board::start()), 300, "the same again");
        let tight = Balance::new(&one_ply, 1, 2.99).unwrap();
        assert_eq!(tight.max_abs_centidiscs(), 299);
        assert!(!tight.keeps(&Board::start()));

        let random = parse(r#"Engine(name: "rnd", search: Random)"#);
        assert_eq!(
            Balance::new(&random, 2, 1.0).unwrap_err(),
            BalanceError::NotSearching {
                engine: "rnd".into()
            }
        );
        assert!(Balance::new(&one_ply, 0, 1.0).is_err());
        assert!(Balance::new(&one_ply, 2, -1.0).is_err());
        assert!(Balance::new(&one_ply, 2, f64::NAN).is_err());
    }
}
