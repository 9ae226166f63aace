//! Formats whose next games depend on results (a knockout, a Swiss): what
//! they share, so that the runner, the workers and the report read one
//! replay of a run's games. [`Played`] keeps each pair's result (the first
//! journalled record of a game counts, as the report counts it); a format
//! answers, for each pair number, a [`Slot`]: wait for results, skip (a
//! number reserved and not needed), or the two engines that play it.
//!
//! Pair numbers are fixed before any result: a Swiss numbers its pairs by
//! round and board, a knockout by match with a block of numbers reserved
//! for each, so every worker and every resume numbers the games alike.

use super::info::Format;
use super::knockout::Knockout;
pub use super::played::{PairResult, Played, Slot};
use super::swiss::Swiss;
use super::GameRecord;

/// What the report shows of a knockout or a Swiss.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundsView {
    /// Every pair is played or not needed: the run is over.
    pub complete: bool,
    /// A knockout's bracket.
    pub bracket: Option<super::knockout::Bracket>,
    /// A Swiss's standings.
    pub standings: Option<super::swiss::Standings>,
}

/// A format whose games depend on results, replayed from a run's games.
#[derive(Clone, Debug)]
pub enum Rounds {
    /// A knockout.
    Knockout(Knockout),
    /// A Swiss.
    Swiss(Swiss),
}

impl Rounds {
    /// The replay of `format` for `engines` (by name); `None` for formats
    /// whose games are fixed.
    pub fn of(format: &Format, engines: &[String]) -> Option<Rounds> {
        match format {
            Format::Knockout {
                pairs,
                extra_pairs,
                seeds,
            } => Some(Rounds::Knockout(Knockout::new(
                (*pairs, *extra_pairs),
                seeds.as_deref(),
                engines,
            ))),
            Format::Swiss {
                rounds,
                pairs,
                tiebreaks,
            } => Some(Rounds::Swiss(Swiss::new(
                (*rounds, *pairs),
                tiebreaks,
                engines,
            ))),
            Format::RoundRobin { .. }
            | Format::Gauntlet { .. }
            | Format::Sprt { .. }
            | Format::Spsa { .. } => None,
        }
    }

    /// Takes in finished games.
    pub fn absorb(&mut self, games: &[GameRecord]) {
        for g in games {
            match self {
                Rounds::Knockout(k) => k.played.absorb(g),
                Rounds::Swiss(s) => s.played.absorb(g),
            }
        }
    }

    /// What pair `pair` is now.
    pub fn slot(&mut self, pair: u64) -> Slot {
        match self {
            Rounds::Knockout(k) => k.slot(pair),
            Rounds::Swiss(s) => s.slot(pair),
        }
    }

    /// Pair numbers reserved in all.
    pub fn reserved(&self) -> u64 {
        match self {
            Rounds::Knockout(k) => k.reserved(),
            Rounds::Swiss(s) => s.reserved(),
        }
    }

    /// True when every pair number is played or not needed.
    pub fn finished(&mut self) -> bool {
        (0..self.reserved()).all(|p| match self.slot(p) {
            Slot::Wait => false,
            Slot::Skip => true,
            Slot::Play { .. } => self.played().pair(p).is_some(),
        })
    }

    fn played(&self) -> &Played {
        match self {
            Rounds::Knockout(k) => &k.played,
            Rounds::Swiss(s) => &s.played,
        }
    }

    /// What the report shows of it.
    pub fn view(&mut self) -> RoundsView {
        RoundsView {
            complete: self.finished(),
            bracket: match self {
                Rounds::Knockout(k) => Some(k.bracket()),
                Rounds::Swiss(_) => None,
            },
            standings: match self {
                Rounds::Swiss(s) => Some(s.standings()),
                Rounds::Knockout(_) => None,
            },
        }
    }

    /// What makes the games not this format's (a game of an engine the
    /// run lacks, or of two engines its pair does not pair), once.
    pub fn failure(&mut self) -> Option<String> {
        let played = match self {
            Rounds::Knockout(k) => &mut k.played,
            Rounds::Swiss(s) => &mut s.played,
        };
        if let Some(why) = played.failure.take() {
            return Some(why);
        }
        self.misplaced()
    }

    /// The first game taken in whose engines are not those its pair
    /// number plays (once the format knows them).
    fn misplaced(&mut self) -> Option<String> {
        self.misplaced_game().map(|(_, why)| why)
    }

    /// Engine `i`'s name.
    fn name(&self, i: usize) -> &str {
        let names = match self {
            Rounds::Knockout(k) => k.names(),
            Rounds::Swiss(s) => s.names(),
        };
        names.get(i).map_or("?", String::as_str)
    }

    /// As [`Rounds::failure`]'s check of the games' engines, with the game.
    pub fn misplaced_game(&mut self) -> Option<(u64, String)> {
        let played = match self {
            Rounds::Knockout(k) => &k.played,
            Rounds::Swiss(s) => &s.played,
        };
        let mut ids: Vec<u64> = played.game_ids().collect();
        ids.sort_unstable();
        let seen: Vec<(u64, (usize, usize))> = ids
            .into_iter()
            .filter_map(|g| Some((g, played.engines_of(g)?)))
            .collect();
        for (g, (black, white)) in seen {
            let expected = match self.slot(g / 2) {
                Slot::Wait => continue,
                Slot::Skip => None,
                Slot::Play { first, second, .. } => Some(if g.is_multiple_of(2) {
                    (first, second)
                } else {
                    (second, first)
                }),
            };
            if expected != Some((black, white)) {
                return Some((
                    g,
                    format!(
                        "game {g} is not one of this run's: its pair is {}",
                        match expected {
                            None => "not played".to_string(),
                            Some((b, w)) => format!(
                                "{:?} (black) against {:?} (white)",
                                self.name(b),
                                self.name(w)
                            ),
                        }
                    ),
                ));
            }
        }
        None
    }
}
