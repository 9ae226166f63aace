//! Which games a tournament plays: the [`Scheduler`] seam, one scheduler per
//! format. The runner asks a scheduler for the next game each time a game thread
//! is free, showing it the games finished so far ([`Finished`]); it answers
//! a game to play, "wait" (it needs results still in flight) or "done".
//!
//! Round-robin, gauntlet and SPRT decide every game up front (a
//! [`Schedule`] of colour-swapped pairs) and read results only to stop (an
//! SPRT that has decided). A format whose games depend on results (Swiss,
//! knockout) answers [`Next::Wait`] until the results it needs are in, and
//! must read only those: then its games are the same for any concurrency,
//! any timing and after a resume.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

mod pairs;
mod rounds;

pub use pairs::{
    gauntlet_meetings, meetings, meetings_per_round, round_robin_meetings, total_pairs, Schedule,
    MAX_PAIRS,
};
pub use rounds::ByResults;

use crate::book::OpeningOrder;
use crate::records::{GameRecord, Shard};

/// One game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The pair (0-based, over the whole tournament).
    pub pair_id: u64,
    /// The game: `2 * pair_id` or `2 * pair_id + 1`.
    pub game_id: u64,
    /// Round of the meeting (0-based).
    pub round: u64,
    /// Opening index in the book.
    pub opening_id: usize,
    /// True when the opening order had been used up before (a repeat).
    pub opening_repeated: bool,
    /// Engine index playing black.
    pub black: usize,
    /// Engine index playing white.
    pub white: usize,
    /// In a tune, the values each side plays with (`None` otherwise).
    pub tune: Option<std::sync::Arc<TuneSides>>,
}

impl Pairing {
    /// Game `game_id` of the meeting `(a, b)` in round `round`: `a` has
    /// black in the pair's even game, `b` in its odd one; the opening is
    /// the pair's in `order`.
    pub fn of(game_id: u64, (a, b): (usize, usize), round: u64, order: &OpeningOrder) -> Pairing {
        let pair_id = game_id / 2;
        let pick = order.pick(pair_id);
        let (black, white) = if game_id.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        Pairing {
            pair_id,
            game_id,
            round,
            opening_id: pick.index,
            opening_repeated: pick.wrapped,
            black,
            white,
            tune: None,
        }
    }
}

/// The values the two engines of a tune's game play with.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSides {
    /// The iteration (0-based).
    pub iteration: u64,
    /// The values of engine 0 (θ+) and engine 1 (θ−), in the order of the
    /// tune's parameters, as played (integer fields rounded).
    pub values: [Vec<f64>; 2],
}

/// What a scheduler answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// Play this game (the runner skips it when a resumed journal already
    /// holds it).
    Play(Pairing),
    /// No game can start until more results are in.
    Wait,
    /// No game can start now; ask again after this long, even if no result
    /// comes in meanwhile (a worker of a shared run waiting on the others,
    /// whose results arrive through their journals, not this run's games).
    Later(std::time::Duration),
    /// No more games.
    Done,
}

/// What a scheduler sees of the run: every game finished so far (those of
/// a resumed journal included), in the order they finished, and whether the
/// run's SPRT has decided.
#[derive(Clone, Copy, Debug)]
pub struct Finished<'a> {
    /// The finished games.
    pub games: &'a [GameRecord],
    /// For a worker of a shared run, the worker that journalled each of
    /// `games` (its own ID or another's), in the same order; empty for a
    /// run of one writer.
    pub writers: &'a [std::sync::Arc<str>],
    /// True once the SPRT of an unsharded run has accepted a hypothesis.
    pub sprt_decided: bool,
    /// For a worker of a shared run that follows the run's lead rather
    /// than read the other workers' journals, the pairs the lead has seen
    /// finished from the first on (`None` for any other): every pair
    /// below this one is finished, whoever played it.
    pub finished_pairs: Option<u64>,
    /// The run's live workers as its lead counted them, for a worker that
    /// leads or follows (`None`: the worker counts them itself).
    pub live_workers: Option<u64>,
    /// The game asked for would wait in a queue (every game thread has
    /// one): a scheduler may answer [`Next::Wait`] rather than take what
    /// others could play now (a worker's new claim, while other workers
    /// are live).
    pub ahead: bool,
}

/// A tournament format's choice of games.
pub trait Scheduler: Send {
    /// Most games this scheduler can ask for (the progress display's total).
    fn total(&self) -> u64;

    /// The next game, given the results so far.
    fn next(&mut self, finished: &Finished<'_>) -> Next;

    /// What made it answer [`Next::Done`] early and must end the run with
    /// an error (a resumed journal that is not of its games), once.
    fn failure(&mut self) -> Option<crate::error::Error> {
        None
    }
}

/// Every two engines meet `rounds` times.
#[derive(Clone, Debug)]
pub struct RoundRobin(Schedule);

impl RoundRobin {
    /// The round-robin of `engines` engines over `rounds` rounds.
    pub fn new(engines: usize, rounds: u64, order: OpeningOrder, shard: Shard) -> RoundRobin {
        let meetings = round_robin_meetings(engines);
        let pairs = (meetings.len() as u64).saturating_mul(rounds);
        RoundRobin(Schedule::of_meetings(meetings, pairs, order, shard))
    }
}

impl Scheduler for RoundRobin {
    fn total(&self) -> u64 {
        self.0.total()
    }

    fn next(&mut self, _: &Finished<'_>) -> Next {
        self.0.next().map_or(Next::Done, Next::Play)
    }
}

/// The first `challengers` engines meet every other engine `rounds` times.
#[derive(Clone, Debug)]
pub struct Gauntlet(Schedule);

impl Gauntlet {
    /// The gauntlet of `challengers` among `engines` over `rounds` rounds.
    pub fn new(
        challengers: usize,
        engines: usize,
        rounds: u64,
        order: OpeningOrder,
        shard: Shard,
    ) -> Gauntlet {
        let meetings = gauntlet_meetings(challengers, engines);
        let pairs = (meetings.len() as u64).saturating_mul(rounds);
        Gauntlet(Schedule::of_meetings(meetings, pairs, order, shard))
    }
}

impl Scheduler for Gauntlet {
    fn total(&self) -> u64 {
        self.0.total()
    }

    fn next(&mut self, _: &Finished<'_>) -> Next {
        self.0.next().map_or(Next::Done, Next::Play)
    }
}

/// Engines 0 (baseline) and 1 (candidate), pair after pair until the SPRT
/// decides or `max_pairs` pairs are played.
#[derive(Clone, Debug)]
pub struct SprtSchedule(Schedule);

impl SprtSchedule {
    /// Up to `max_pairs` pairs of engines 0 and 1.
    pub fn new(max_pairs: u64, order: OpeningOrder, shard: Shard) -> SprtSchedule {
        SprtSchedule(Schedule::of_meetings(vec![(0, 1)], max_pairs, order, shard))
    }
}

impl Scheduler for SprtSchedule {
    fn total(&self) -> u64 {
        self.0.total()
    }

    fn next(&mut self, finished: &Finished<'_>) -> Next {
        if finished.sprt_decided {
            return Next::Done;
        }
        self.0.next().map_or(Next::Done, Next::Play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Order;
    use crate::records::Format;

    fn order(len: usize) -> OpeningOrder {
        OpeningOrder::new(len, Order::Sequential, 0, 0).unwrap()
    }

    fn drain(s: &mut dyn Scheduler, decided_after: Option<usize>) -> Vec<Pairing> {
        let mut games = Vec::new();
        loop {
            let finished = Finished {
                games: &[],
                writers: &[],
                sprt_decided: decided_after.is_some_and(|n| games.len() >= n),
                finished_pairs: None,
                live_workers: None,
                ahead: false,
            };
            match s.next(&finished) {
                Next::Play(p) => games.push(p),
                Next::Wait | Next::Later(_) => panic!("a fixed schedule never waits"),
                Next::Done => return games,
            }
        }
    }

    #[test]
    fn each_format_plays_its_fixed_schedule() {
        let shard = Shard { index: 2, count: 3 };
        let sprt = Format::Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: crate::stats::Model::Normalized,
            max_pairs: 7,
        };
        let gauntlet = Format::Gauntlet {
            challengers: 2,
            rounds: 2,
        };
        let cases: [(Format, usize, Box<dyn Scheduler>); 3] = [
            (
                Format::RoundRobin { rounds: 3 },
                4,
                Box::new(RoundRobin::new(4, 3, order(10), shard)),
            ),
            (
                gauntlet,
                5,
                Box::new(Gauntlet::new(2, 5, 2, order(10), shard)),
            ),
            (sprt, 2, Box::new(SprtSchedule::new(7, order(10), shard))),
        ];
        for (format, engines, mut s) in cases {
            let mut fixed = Schedule::new(&format, engines, order(10), shard);
            assert_eq!(s.total(), fixed.total());
            let games = drain(s.as_mut(), None);
            let mut expected = Vec::new();
            while let Some(p) = fixed.next() {
                expected.push(p);
            }
            assert_eq!(games, expected, "{format:?}");
        }
    }

    #[test]
    fn an_sprt_schedule_is_done_once_decided() {
        let mut s = SprtSchedule::new(100, order(10), Shard::ALL);
        assert_eq!(drain(&mut s, Some(6)).len(), 6);
    }
}
