//! The plain lines' result blocks: every so many pairs, the results of
//! exactly the schedule's first pairs, shown once every game of them has
//! finished, so the blocks are the same whatever order the games finish
//! in. The games of the finished prefix go, pair by pair in schedule
//! order, into a [`Live`] tally, so a block costs the ratings' solve, not
//! a new analysis of every game before it.

use super::observer::RunObserver;
use crate::records::{GameRecord, TournamentInfo};
use crate::report::prefix::Prefix;
use crate::report::Live;
use std::collections::HashMap;

/// A run's result blocks, as its games come.
pub(super) struct Blocks {
    /// Pairs per block.
    every: u64,
    /// Which of the schedule's first pairs are complete.
    prefix: Prefix,
    /// The games of the first `fed` pairs of the prefix.
    live: Live,
    fed: u64,
    /// Pairs of the last block shown (a multiple of `every`).
    shown: u64,
    /// Games not fed yet, by id: their place in the run's games (the
    /// first record of an id).
    waiting: HashMap<u64, usize>,
}

impl Blocks {
    /// Blocks of `every` pairs of the run `info`, after its `games`
    /// already finished (a resumed journal's, other workers'): the blocks
    /// they complete were shown before and are not shown again.
    pub(super) fn new(info: &TournamentInfo, every: u64, games: &[GameRecord]) -> Blocks {
        let mut blocks = Blocks {
            every,
            prefix: Prefix::new(info),
            live: Live::new(info, info.decides()),
            fed: 0,
            shown: 0,
            waiting: HashMap::new(),
        };
        for i in 0..games.len() {
            blocks.note(games, i);
        }
        blocks.shown = blocks.prefix.complete / every * every;
        blocks.feed(games, &mut |_| {});
        blocks
    }

    /// Takes game `i` of the run's `games` (its place there is kept until
    /// its pair is fed).
    pub(super) fn note(&mut self, games: &[GameRecord], i: usize) {
        let id = games[i].game_id;
        if self.prefix.is_pending(id) {
            self.waiting.entry(id).or_insert(i);
            self.prefix.add(id);
        }
    }

    /// Shows `observer` every block the prefix has completed since the
    /// last call.
    pub(super) fn show(&mut self, games: &[GameRecord], observer: &mut dyn RunObserver) {
        self.feed(games, &mut |live| observer.interval(&live.results()));
    }

    /// Feeds the prefix's complete pairs not fed yet, in schedule order,
    /// calling `block` at each block's end past the last shown.
    fn feed(&mut self, games: &[GameRecord], block: &mut dyn FnMut(&Live)) {
        while self.fed < self.prefix.complete {
            let Ok(at) = usize::try_from(self.fed) else {
                return;
            };
            let p = self.prefix.order[at];
            for id in [2 * p, 2 * p + 1] {
                if let Some(i) = self.waiting.remove(&id) {
                    self.live.add(&games[i]);
                }
            }
            self.fed += 1;
            if self.fed.is_multiple_of(self.every) && self.fed > self.shown {
                self.shown = self.fed;
                block(&self.live);
            }
        }
    }
}
