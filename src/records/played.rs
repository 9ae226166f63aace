//! The results of a knockout's or Swiss's pairs as the formats read them
//! ([`Played`]: the first journalled record of a game counts, as the
//! report counts it), and what a pair number is ([`Slot`]).

use super::GameRecord;
use std::collections::HashMap;

/// What a pair number is, as far as the results so far tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Not known until results still to come are in.
    Wait,
    /// Reserved and not played (a bye, a tie-break pair not needed, a
    /// round that no pairing allows).
    Skip,
    /// Played: `first` has black in the even game, `second` in the odd.
    Play {
        /// Engine index of the even game's black.
        first: usize,
        /// Engine index of the even game's white.
        second: usize,
        /// The round (0-based).
        round: u64,
    },
}

/// One pair's result, from `first`'s side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// Engine index of the even game's black.
    pub first: usize,
    /// Engine index of the even game's white.
    pub second: usize,
    /// `first`'s points over the two games (0 to 2).
    pub points: f64,
    /// `first`'s discs minus `second`'s, over the two games.
    pub discs: i64,
}

/// One game as the formats read it.
#[derive(Clone, Copy, Debug)]
struct GameSeen {
    black: usize,
    white: usize,
    result: f64,
    disc_diff: i32,
}

/// The results of the pairs played so far.
#[derive(Clone, Debug, Default)]
pub struct Played {
    index: HashMap<String, usize>,
    games: HashMap<u64, GameSeen>,
    /// A game naming an engine the run does not have.
    pub failure: Option<String>,
}

impl Played {
    /// Results of a run of `engines` (by name, in the run's order).
    pub fn new(engines: &[String]) -> Played {
        Played {
            index: engines
                .iter()
                .enumerate()
                .map(|(i, e)| (e.clone(), i))
                .collect(),
            ..Played::default()
        }
    }

    /// Takes in `game` (a second record of one game is ignored).
    pub fn absorb(&mut self, game: &GameRecord) {
        if self.games.contains_key(&game.game_id) {
            return;
        }
        let (Some(&black), Some(&white)) =
            (self.index.get(&game.black), self.index.get(&game.white))
        else {
            self.failure.get_or_insert_with(|| {
                format!(
                    "game {} names an engine this run does not have ({:?} against {:?})",
                    game.game_id, game.black, game.white
                )
            });
            return;
        };
        self.games.insert(
            game.game_id,
            GameSeen {
                black,
                white,
                result: game.result,
                disc_diff: game.disc_diff,
            },
        );
    }

    /// The result of pair `pair` once both its games are in.
    pub fn pair(&self, pair: u64) -> Option<PairResult> {
        let even = self.games.get(&(2 * pair))?;
        let odd = self.games.get(&(2 * pair + 1))?;
        Some(PairResult {
            first: even.black,
            second: even.white,
            points: even.result + (1.0 - odd.result),
            discs: i64::from(even.disc_diff) - i64::from(odd.disc_diff),
        })
    }

    /// The engines of game `game_id`, if it is in: (black, white).
    pub fn engines_of(&self, game_id: u64) -> Option<(usize, usize)> {
        self.games.get(&game_id).map(|g| (g.black, g.white))
    }

    /// Game numbers taken in so far.
    pub fn game_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.games.keys().copied()
    }
}
