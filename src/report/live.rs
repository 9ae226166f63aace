//! A run's results kept up to date as its games come, so that what a run
//! shows while it plays costs per game what one game adds, not what every
//! game so far weighs: each game is counted once into running tallies (per
//! engine, per meeting, the crosstable, move costs, a tune's θ, the SPRT's
//! [`PairCounter`]), and [`Live::results`] solves the ratings from them
//! (a cost of the engines' number alone). The same games give the same
//! figures as [`super::analyse`] whatever order they come in, the pairs'
//! trace and the list of counted pairs aside (the report's, not a
//! progress line's).

use super::moves::MoveSums;
use super::pairs::PairCounter;
use super::results::{Counts, Results};
use super::tallies::{Counted, Tallies};
use super::tune::TuneTally;
use crate::records::{GameRecord, TournamentInfo};
use std::collections::{HashMap, HashSet};

/// Results of a run, kept game by game.
#[derive(Clone, Debug)]
pub struct Live {
    info: TournamentInfo,
    /// Each engine's index in the run's list.
    index: HashMap<String, usize>,
    /// Game ids taken (the first record of an id counts; later ones not).
    seen: HashSet<u64>,
    /// Games of the run taken.
    played: u64,
    /// Games that count.
    counted: u64,
    /// Games whose pair is not counted yet, by id.
    held: HashMap<u64, Counted>,
    /// The SPRT's counter (an SPRT that decides); `None`: every game counts.
    counter: Option<PairCounter>,
    /// Pairs of the counter already counted into `tallies`.
    counted_pairs: usize,
    tallies: Tallies,
    moves: MoveSums,
    tune: Option<TuneTally>,
}

impl Live {
    /// No games yet of the run `info`; when `decides`, an SPRT's pair
    /// counter decides which games count (pairs in schedule order up to
    /// the decision), else every game does.
    pub fn new(info: &TournamentInfo, decides: bool) -> Live {
        Live {
            index: info
                .engines
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect(),
            seen: HashSet::new(),
            played: 0,
            counted: 0,
            held: HashMap::new(),
            counter: PairCounter::new(info).filter(|_| decides),
            counted_pairs: 0,
            tallies: Tallies::new(info, false),
            moves: MoveSums::new(info),
            tune: TuneTally::new(info),
            info: info.clone(),
        }
    }

    /// Takes a finished game: counted when it is the first record of its
    /// id and between two engines of the run. Returns true once the SPRT
    /// has decided.
    pub fn add(&mut self, g: &GameRecord) -> bool {
        let (Some(&b), Some(&w)) = (self.index.get(&g.black), self.index.get(&g.white)) else {
            return self.decided();
        };
        if b == w || !self.seen.insert(g.game_id) {
            return self.decided();
        }
        self.played += 1;
        self.moves.add(g);
        if let Some(t) = self.tune.as_mut() {
            t.add(g);
        }
        let game = Counted::of(b, w, g);
        match self.counter.as_mut() {
            None => {
                self.tallies.game(&game);
                self.counted += 1;
                match self.held.remove(&(g.game_id ^ 1)) {
                    Some(other) => {
                        let (first, second) = if g.game_id.is_multiple_of(2) {
                            (game, other)
                        } else {
                            (other, game)
                        };
                        self.tallies
                            .pair(&self.info, g.game_id / 2, &first, &second);
                    }
                    None => {
                        self.held.insert(g.game_id, game);
                    }
                }
            }
            Some(counter) => {
                if !counter.decided() {
                    self.held.insert(g.game_id, game);
                }
                counter.add(g);
                self.count_pairs();
            }
        }
        self.decided()
    }

    /// Counts into the tallies the pairs the SPRT's counter has counted
    /// since the last call.
    fn count_pairs(&mut self) {
        let Some(counter) = self.counter.as_ref() else {
            return;
        };
        for &p in &counter.counted()[self.counted_pairs..] {
            let (Some(first), Some(second)) =
                (self.held.remove(&(2 * p)), self.held.remove(&(2 * p + 1)))
            else {
                continue; // not reached: a counted pair has both games
            };
            self.tallies.game(&first);
            self.tallies.game(&second);
            self.tallies.pair(&self.info, p, &first, &second);
            self.counted += 2;
        }
        self.counted_pairs = counter.counted().len();
    }

    /// True once the SPRT has decided.
    pub fn decided(&self) -> bool {
        self.counter.as_ref().is_some_and(PairCounter::decided)
    }

    /// The SPRT's pair counter (`None` when every game counts).
    pub fn counter(&self) -> Option<&PairCounter> {
        self.counter.as_ref()
    }

    /// Games taken (each game id once).
    pub fn played(&self) -> u64 {
        self.played
    }

    /// The results of the games taken so far, as [`super::analyse`] gives
    /// them but without the pairs' trace and the list of counted pairs;
    /// the ratings are solved afresh (their cost does not grow with the
    /// games).
    pub fn results(&self) -> Results {
        Results::assemble(
            &self.info,
            Counts {
                tallies: &self.tallies,
                counted: self.counted,
                played: self.played,
                counter: self.counter.as_ref(),
            },
            self.moves.stats(&self.info),
            self.tune.as_ref().map(TuneTally::summary),
        )
    }
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
