//! A run's results kept up to date as its games come, so that what a run
//! shows while it plays costs per game what one game adds, not what every
//! game so far weighs: each game is counted once into running tallies (per
//! engine, per meeting, the crosstable, move costs, a tune's θ, the SPRT's
//! [`PairCounter`]), and [`Live::results`] solves the ratings from them
//! (a cost of the engines' number alone). The same games give the same
//! figures as [`super::analyse`] whatever order they come in, the pairs'
//! trace and the list of counted pairs aside (the report's, not a
//! progress line's). [`Live::drawing`] keeps what a live page draws too
//! (the report's histogram, openings and a thinned trace of the pairs), so
//! a watcher need keep no game.

use super::drawing::Drawing;
use super::html::Drawn;
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
    seen: Ids,
    /// Pairs with both games taken.
    complete: u64,
    /// Every pair below this one has both games taken.
    finished: u64,
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
    /// A knockout's or a Swiss's replay (`None` for the other formats).
    rounds: Option<crate::records::rounds::Rounds>,
    /// What a live page draws, when kept ([`Live::drawing`]).
    drawing: Option<Drawing>,
}

/// Game ids taken: a bit each below twice the run's pairs (the ids of its
/// schedule), a set for any other.
#[derive(Clone, Debug)]
struct Ids {
    bits: Vec<u64>,
    limit: u64,
    others: HashSet<u64>,
}

impl Ids {
    fn new(info: &TournamentInfo) -> Ids {
        Ids {
            bits: Vec::new(),
            limit: info.total_pairs.saturating_mul(2),
            others: HashSet::new(),
        }
    }

    /// Takes `id`: false when it was taken before.
    fn insert(&mut self, id: u64) -> bool {
        if id >= self.limit {
            return self.others.insert(id);
        }
        let (word, bit) = ((id / 64) as usize, 1u64 << (id % 64));
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let fresh = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        fresh
    }

    fn contains(&self, id: u64) -> bool {
        if id >= self.limit {
            return self.others.contains(&id);
        }
        self.bits
            .get((id / 64) as usize)
            .is_some_and(|w| w & (1u64 << (id % 64)) != 0)
    }
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
            seen: Ids::new(info),
            complete: 0,
            finished: 0,
            played: 0,
            counted: 0,
            held: HashMap::new(),
            counter: PairCounter::new(info).filter(|_| decides),
            counted_pairs: 0,
            tallies: Tallies::new(info, false),
            moves: MoveSums::new(info),
            tune: TuneTally::new(info),
            rounds: crate::records::rounds::Rounds::of(&info.format, &info.engines),
            drawing: None,
            info: info.clone(),
        }
    }

    /// As [`Live::new`], keeping what a live page draws too: the report's
    /// histogram and openings of the counted games, and a head-to-head's
    /// pairs over time (thinned to a bounded number of points), which
    /// [`Live::results`] then carries as its trace.
    pub fn drawing(info: &TournamentInfo, decides: bool) -> Live {
        Live {
            drawing: Some(Drawing::new(info)),
            ..Live::new(info, decides)
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
        if self.seen.contains(g.game_id ^ 1) {
            self.complete += 1;
            while self.seen.contains(2 * self.finished) && self.seen.contains(2 * self.finished + 1)
            {
                self.finished += 1;
            }
        }
        if let Some(d) = self.drawing.as_mut() {
            d.name_opening(g);
        }
        self.moves.add(g);
        if let Some(t) = self.tune.as_mut() {
            t.add(g);
        }
        if let Some(r) = self.rounds.as_mut() {
            r.absorb(std::slice::from_ref(g));
        }
        let game = Counted::of(b, w, g);
        match self.counter.as_mut() {
            None => {
                self.tallies.game(&game);
                self.counted += 1;
                if let Some(d) = self.drawing.as_mut() {
                    d.game(&game);
                }
                match self.held.remove(&(g.game_id ^ 1)) {
                    Some(other) => {
                        let (first, second) = if g.game_id.is_multiple_of(2) {
                            (game, other)
                        } else {
                            (other, game)
                        };
                        let p = g.game_id / 2;
                        self.tallies.pair(&self.info, p, &first, &second);
                        self.draw_pair(p, None);
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
        let from = self.counted_pairs;
        for (i, &p) in counter.counted().iter().enumerate().skip(from) {
            let (Some(first), Some(second)) =
                (self.held.remove(&(2 * p)), self.held.remove(&(2 * p + 1)))
            else {
                continue; // not reached: a counted pair has both games
            };
            self.tallies.game(&first);
            self.tallies.game(&second);
            self.tallies.pair(&self.info, p, &first, &second);
            self.counted += 2;
            if let Some(d) = self.drawing.as_mut() {
                d.game(&first);
                d.game(&second);
                if let Some(me) = d.side() {
                    d.pair(p, self.tallies.pairs[me], counter.llr_after(i));
                }
            }
        }
        self.counted_pairs = counter.counted().len();
        // Drawn: a live page's counter keeps no LLR it has drawn.
        if let (Some(_), Some(c)) = (&self.drawing, self.counter.as_mut()) {
            c.forget_llrs(self.counted_pairs);
        }
    }

    /// Draws pair `p`, just counted into the tallies, with the LLR after
    /// it (when kept).
    fn draw_pair(&mut self, p: u64, llr: Option<f64>) {
        if let Some(d) = self.drawing.as_mut() {
            if let Some(me) = d.side() {
                d.pair(p, self.tallies.pairs[me], llr);
            }
        }
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

    /// Whether a game of id `game_id` was taken.
    pub fn has(&self, game_id: u64) -> bool {
        self.seen.contains(game_id)
    }

    /// Pairs with both their games taken (counted or not).
    pub fn complete_pairs(&self) -> u64 {
        self.complete
    }

    /// The pairs from the first on with both games taken: every pair
    /// below this one.
    pub fn finished_pairs(&self) -> u64 {
        self.finished
    }

    /// The counted games' histogram and openings, when kept
    /// ([`Live::drawing`]).
    pub fn drawn(&self) -> Option<&Drawn> {
        self.drawing.as_ref().map(Drawing::drawn)
    }

    /// The results of the games taken so far, as [`super::analyse`] gives
    /// them but without the pairs' trace and the list of counted pairs;
    /// the ratings are solved afresh (their cost does not grow with the
    /// games).
    pub fn results(&self) -> Results {
        self.assemble(None)
    }

    /// As [`Live::results`], but with the ratings of `earlier` (results of
    /// fewer of these games, and the notes their solving gave) rather than
    /// solving them again: the counts, the LLR and θ are current, the
    /// ratings lag. Its cost does not grow with the engines' meetings'
    /// ratings solve.
    pub fn results_keeping_ratings(&self, earlier: &Results) -> Results {
        self.assemble(Some(earlier))
    }

    fn assemble(&self, ratings: Option<&Results>) -> Results {
        let mut results = Results::assemble(
            &self.info,
            Counts {
                tallies: &self.tallies,
                counted: self.counted,
                played: self.played,
                counter: self.counter.as_ref(),
                ratings,
                rounds: self.rounds.clone().map(|mut r| r.view()),
            },
            self.moves.stats(&self.info),
            self.tune.as_ref().map(TuneTally::summary),
        );
        let sprt = self.counter.as_ref().map(PairCounter::sprt);
        results.trace = self.drawing.as_ref().and_then(|d| d.trace(sprt));
        results
    }
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
