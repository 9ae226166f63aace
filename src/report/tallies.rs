//! The running counts results are made of: per engine, per meeting of two
//! engines, the crosstable the ratings are solved from, forfeits, and a
//! two-engine run's pairs over time. Each game and each pair is added once,
//! so the counts can be kept up to date as games come ([`super::live`]) or
//! built at once from a journal ([`super::results`]): the same games give
//! the same counts in any order (they are integers, and half points are
//! exact in floating point).

use super::pairs::PairTrace;
use crate::records::{GameRecord, TournamentInfo};
use crate::stats::{Crosstable, Outcome, PairTally, Wdl};
use std::collections::BTreeMap;

/// What the counts need of a game: its two engines (by index in the
/// run's list), its result for black, its disc difference, whether it
/// ended off the board (a forfeit) and its opening (what a live page
/// draws of it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counted {
    pub(crate) black: usize,
    pub(crate) white: usize,
    pub(crate) result: f64,
    pub(crate) disc_diff: i32,
    pub(crate) forfeit: bool,
    pub(crate) opening_id: usize,
}

impl Counted {
    /// Game `g` of engines `black` and `white`.
    pub(crate) fn of(black: usize, white: usize, g: &GameRecord) -> Counted {
        Counted {
            black,
            white,
            result: g.result,
            disc_diff: g.disc_diff,
            forfeit: g.reason != "game over" && !g.reason.starts_with("adjudicated"),
            opening_id: g.opening_id,
        }
    }

    /// The game's outcome for engine `e` (a draw for an engine that did
    /// not play it, as a record's `points_of` gives none).
    fn outcome(&self, e: usize) -> Outcome {
        let points = if e == self.black {
            self.result
        } else if e == self.white {
            1.0 - self.result
        } else {
            0.5
        };
        Outcome::from_points(points).unwrap_or(Outcome::Draw)
    }
}

/// Tallies of the counted games: per engine, per meeting (by engine
/// indexes, lower first) and the crosstable for ratings.
#[derive(Clone, Debug)]
pub(crate) struct Tallies {
    pub(crate) wdl: Vec<Wdl>,
    /// Sum of own-minus-opponent disc differences, and games.
    pub(crate) discs: Vec<(i64, u64)>,
    pub(crate) pairs: Vec<PairTally>,
    /// Meeting (a, b), a < b: results, pairs and disc sum from a's view.
    pub(crate) meet: BTreeMap<(usize, usize), (Wdl, PairTally, i64)>,
    pub(crate) table: Crosstable,
    pub(crate) forfeits: u64,
    /// The pairs of a two-engine run, as they count (when kept).
    pub(crate) trace: Option<PairTrace>,
}

impl Tallies {
    /// No games yet of the run `info`; its pairs over time are kept when
    /// `trace` (a two-engine run's only).
    pub(crate) fn new(info: &TournamentInfo, trace: bool) -> Tallies {
        let n = info.engines.len();
        let mut table = Crosstable::new();
        for name in &info.engines {
            table.engine(name);
        }
        Tallies {
            wdl: vec![Wdl::default(); n],
            discs: vec![(0, 0); n],
            pairs: vec![PairTally::default(); n],
            meet: BTreeMap::new(),
            table,
            forfeits: 0,
            trace: info
                .perspective()
                .filter(|_| trace)
                .map(|_| PairTrace::default()),
        }
    }

    /// Counts one game.
    pub(crate) fn game(&mut self, g: &Counted) {
        let (b, w) = (g.black, g.white);
        let black = Outcome::from_points(g.result).unwrap_or(Outcome::Draw);
        self.wdl[b].add(black);
        self.wdl[w].add(black.reversed());
        self.discs[b].0 += i64::from(g.disc_diff);
        self.discs[w].0 -= i64::from(g.disc_diff);
        self.discs[b].1 += 1;
        self.discs[w].1 += 1;
        self.table.add_game(b, w, g.result);
        let (a, o) = (b.min(w), b.max(w));
        let entry = self.meet.entry((a, o)).or_default();
        let for_a = if a == b { black } else { black.reversed() };
        entry.0.add(for_a);
        entry.2 += if a == b {
            i64::from(g.disc_diff)
        } else {
            -i64::from(g.disc_diff)
        };
        if g.forfeit {
            self.forfeits += 1;
        }
    }

    /// Counts one pair (games `g` and `h` of one opening, `g` the first,
    /// whose two engines the pair counts for), for both engines and their
    /// meeting; `g` is pair `pair` of the run.
    pub(crate) fn pair(&mut self, info: &TournamentInfo, pair: u64, g: &Counted, h: &Counted) {
        let (x, y) = (g.black, g.white);
        for me in [x, y] {
            self.pairs[me].add(g.outcome(me), h.outcome(me));
        }
        let a = x.min(y);
        self.meet
            .entry((a, x.max(y)))
            .or_default()
            .1
            .add(g.outcome(a), h.outcome(a));
        if let (Some(trace), Some((me, _))) = (self.trace.as_mut(), info.perspective()) {
            trace.pairs.push(pair);
            trace.tallies.push(self.pairs[me]);
        }
    }
}
