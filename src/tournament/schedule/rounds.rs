//! The scheduler of a knockout or a Swiss on one machine: pair numbers in
//! order, each asked of the format's replay ([`Rounds`]): played (both its
//! games, the even one first), skipped, or waited for until the results
//! it depends on are in. It reads only finished games, so its games are
//! the same for any concurrency and after a resume.

use super::{Finished, Next, Pairing, Scheduler};
use crate::book::OpeningOrder;
use crate::error::{Error, Wording};
use crate::records::rounds::{Rounds, Slot};

/// A knockout's or a Swiss's games, as their results decide them.
#[derive(Debug)]
pub struct ByResults {
    rounds: Rounds,
    order: OpeningOrder,
    /// The next pair to ask about.
    cursor: u64,
    /// The odd game of the pair whose even game was just handed out.
    odd: Option<Pairing>,
    /// Finished games taken in so far.
    seen: usize,
    failure: Option<Error>,
}

impl ByResults {
    /// The games of `rounds`, openings from `order`.
    pub fn new(rounds: Rounds, order: OpeningOrder) -> ByResults {
        ByResults {
            rounds,
            order,
            cursor: 0,
            odd: None,
            seen: 0,
            failure: None,
        }
    }

    /// Takes in the games finished since the last look; the first look
    /// (a resumed journal's games) checks they are this format's.
    fn absorb(&mut self, finished: &Finished<'_>) {
        let from = self.seen.min(finished.games.len());
        let first = self.seen == 0 && !finished.games.is_empty();
        let more = from < finished.games.len();
        self.rounds.absorb(&finished.games[from..]);
        self.seen = finished.games.len();
        // At the end, checked again only when games came.
        if first || (more && self.cursor >= self.rounds.reserved()) {
            if let Some(why) = self.rounds.failure() {
                self.failure.get_or_insert(Error::Run(Wording::text(format!(
                    "the journal is not of this run's games: {why}"
                ))));
            }
        }
    }
}

impl Scheduler for ByResults {
    fn total(&self) -> u64 {
        2 * self.rounds.reserved()
    }

    fn next(&mut self, finished: &Finished<'_>) -> Next {
        self.absorb(finished);
        if self.failure.is_some() {
            return Next::Done;
        }
        if let Some(p) = self.odd.take() {
            return Next::Play(p);
        }
        while self.cursor < self.rounds.reserved() {
            match self.rounds.slot(self.cursor) {
                Slot::Wait => return Next::Wait,
                Slot::Skip => self.cursor += 1,
                Slot::Play {
                    first,
                    second,
                    round,
                } => {
                    let g = 2 * self.cursor;
                    self.cursor += 1;
                    self.odd = Some(Pairing::of(g + 1, (first, second), round, &self.order));
                    return Next::Play(Pairing::of(g, (first, second), round, &self.order));
                }
            }
        }
        Next::Done
    }

    fn failure(&mut self) -> Option<Error> {
        self.failure.take()
    }
}
