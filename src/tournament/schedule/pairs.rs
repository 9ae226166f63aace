//! A fixed sequence of pairs, decided up front: what round-robin, gauntlet
//! and SPRT schedules are made of. Pair `p` is a meeting of two engines on
//! one opening, played twice with colours swapped: game `2p` has the
//! meeting's first engine as black, game `2p + 1` the second. A shard `K/N`
//! takes the pairs with `p % N == K - 1`.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::Pairing;
use crate::book::OpeningOrder;
use crate::records::{Format, Shard};

/// Every meeting of a format, in schedule order within a round.
pub fn meetings(format: &Format, engines: usize) -> Vec<(usize, usize)> {
    match *format {
        Format::RoundRobin { .. } => round_robin_meetings(engines),
        Format::Gauntlet { challengers, .. } => gauntlet_meetings(challengers, engines),
        // A tune's θ+ (engine 0) against its θ− (engine 1).
        Format::Sprt { .. } | Format::Spsa { .. } => vec![(0, 1)],
        // Who meets whom depends on results (records::rounds).
        Format::Knockout { .. } | Format::Swiss { .. } => Vec::new(),
    }
}

/// Every two engines once, lower index first.
pub fn round_robin_meetings(engines: usize) -> Vec<(usize, usize)> {
    let mut m = Vec::new();
    for i in 0..engines {
        for j in i + 1..engines {
            m.push((i, j));
        }
    }
    m
}

/// Each of the first `challengers` engines against every other engine;
/// two challengers meet once (when the first is the lower index).
pub fn gauntlet_meetings(challengers: usize, engines: usize) -> Vec<(usize, usize)> {
    let mut m = Vec::new();
    for c in 0..challengers {
        for j in 0..engines {
            if j != c && !(j < challengers && j < c) {
                m.push((c, j));
            }
        }
    }
    m
}

/// Most pairs a tournament may have (its schedule is built in memory).
pub const MAX_PAIRS: u64 = 10_000_000;

/// How many meetings [`meetings`] lists, counted without listing them
/// (a round robin of 8,000 engines has 32 million).
pub fn meetings_per_round(format: &Format, engines: usize) -> u64 {
    let n = engines as u64;
    match *format {
        Format::RoundRobin { .. } => n.saturating_mul(n.saturating_sub(1)) / 2,
        // Challenger c meets every engine but itself and the challengers
        // before it: n - 1 - c (none past the last engine).
        Format::Gauntlet { challengers, .. } => {
            let k = (challengers as u64).min(n);
            let after = k.saturating_mul(k.saturating_sub(1)) / 2;
            k.saturating_mul(n.saturating_sub(1)).saturating_sub(after)
        }
        Format::Sprt { .. } | Format::Spsa { .. } => 1,
        // The most pairs of engines that can meet: a Swiss's boards each
        // round, a knockout's matches.
        Format::Swiss { .. } => n / 2,
        Format::Knockout { .. } => n.saturating_sub(1),
    }
}

/// Total pairs of a format with `engines` engines (saturating; configs
/// above [`MAX_PAIRS`] are refused when checked).
pub fn total_pairs(format: &Format, engines: usize) -> u64 {
    let per_round = meetings_per_round(format, engines);
    match *format {
        Format::RoundRobin { rounds } | Format::Gauntlet { rounds, .. } => {
            per_round.saturating_mul(rounds)
        }
        Format::Sprt { max_pairs, .. } => max_pairs,
        Format::Spsa {
            iterations,
            pairs_per_iteration,
            ..
        } => iterations.saturating_mul(pairs_per_iteration),
        Format::Swiss { rounds, pairs, .. } => rounds
            .saturating_mul(engines as u64 / 2)
            .saturating_mul(pairs),
        // Every match owns a block of numbers for its pairs and its
        // tie-break pairs, played or not (records::knockout).
        Format::Knockout {
            pairs, extra_pairs, ..
        } => ((engines.max(2).next_power_of_two() - 1) as u64)
            .saturating_mul(pairs.saturating_add(extra_pairs)),
    }
}

/// The games of a tournament (or of one shard) made of `pairs` meetings
/// taken in turn from a list, in game_id order.
#[derive(Clone, Debug)]
pub struct Schedule {
    meetings: Vec<(usize, usize)>,
    pairs: u64,
    order: OpeningOrder,
    shard: Shard,
    next_game: u64,
}

impl Schedule {
    /// The schedule of `format` for `engines` engines, openings from
    /// `order`, restricted to `shard`.
    pub fn new(format: &Format, engines: usize, order: OpeningOrder, shard: Shard) -> Schedule {
        Schedule::of_meetings(
            meetings(format, engines),
            total_pairs(format, engines),
            order,
            shard,
        )
    }

    /// `pairs` pairs cycling through `meetings` (one round is one pass).
    ///
    /// # Panics
    /// When `meetings` is empty and `pairs` is not 0.
    pub fn of_meetings(
        meetings: Vec<(usize, usize)>,
        pairs: u64,
        order: OpeningOrder,
        shard: Shard,
    ) -> Schedule {
        assert!(pairs == 0 || !meetings.is_empty(), "pairs without meetings");
        Schedule {
            meetings,
            pairs,
            order,
            shard,
            next_game: 0,
        }
    }

    /// Pairs of the whole tournament (all shards).
    pub fn total_pairs(&self) -> u64 {
        self.pairs
    }

    /// Games of this shard.
    pub fn total(&self) -> u64 {
        let mut n = self.pairs / self.shard.count;
        if self.pairs % self.shard.count >= self.shard.index {
            n += 1;
        }
        2 * n
    }

    /// The pairing of game `game_id` (whatever the shard).
    pub fn pairing(&self, game_id: u64) -> Pairing {
        let m = self.meetings.len() as u64;
        let pair_id = game_id / 2;
        let meeting = self.meetings[(pair_id % m) as usize];
        Pairing::of(game_id, meeting, pair_id / m, &self.order)
    }

    /// The next game of this shard, in game_id order.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Pairing> {
        while self.next_game < 2 * self.pairs {
            let g = self.next_game;
            self.next_game += 1;
            if self.shard.owns(g / 2) {
                return Some(self.pairing(g));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Order;

    fn order(len: usize) -> OpeningOrder {
        OpeningOrder::new(len, Order::Sequential, 0, 0).unwrap()
    }

    #[test]
    fn meetings_are_counted_as_they_are_listed() {
        for n in 0..12 {
            let mut formats = vec![Format::RoundRobin { rounds: 1 }];
            formats.extend((0..14).map(|challengers| Format::Gauntlet {
                challengers,
                rounds: 1,
            }));
            for f in formats {
                assert_eq!(
                    meetings_per_round(&f, n),
                    meetings(&f, n).len() as u64,
                    "{f:?} of {n} engines"
                );
            }
        }
        let huge = Format::RoundRobin { rounds: 1 };
        assert_eq!(meetings_per_round(&huge, 8000), 31_996_000);
        assert_eq!(total_pairs(&huge, usize::MAX), u64::MAX / 2);
    }

    #[test]
    fn round_robin_meets_every_two_engines_with_colours_swapped() {
        let f = Format::RoundRobin { rounds: 2 };
        let mut s = Schedule::new(&f, 3, order(100), Shard::ALL);
        assert_eq!(s.total(), 12);
        let mut games = Vec::new();
        while let Some(p) = s.next() {
            games.push(p);
        }
        assert_eq!(games.len(), 12);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].pair_id, pair[1].pair_id);
            assert_eq!(pair[0].opening_id, pair[1].opening_id);
            assert_eq!(
                (pair[0].black, pair[0].white),
                (pair[1].white, pair[1].black)
            );
        }
        let mut met: Vec<(usize, usize)> = games
            .iter()
            .map(|g| (g.black.min(g.white), g.black.max(g.white)))
            .collect();
        met.sort();
        met.dedup();
        assert_eq!(met, vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(games.last().unwrap().round, 1);
        // Openings follow the pairs: pair p plays opening p.
        assert!(games.iter().all(|g| g.opening_id as u64 == g.pair_id));
    }

    #[test]
    fn gauntlet_pits_challengers_against_everyone_once_per_round() {
        let f = Format::Gauntlet {
            challengers: 2,
            rounds: 1,
        };
        assert_eq!(
            meetings(&f, 4),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
        );
        assert_eq!(total_pairs(&f, 4), 5);
    }

    #[test]
    fn shards_partition_the_games() {
        let f = Format::RoundRobin { rounds: 5 };
        let mut all: Vec<u64> = Vec::new();
        let mut total = 0;
        for k in 1..=3 {
            let mut s = Schedule::new(&f, 3, order(7), Shard { index: k, count: 3 });
            total += s.total();
            while let Some(p) = s.next() {
                assert_eq!(p.pair_id % 3, k - 1);
                all.push(p.game_id);
            }
        }
        all.sort();
        assert_eq!(all, (0..30).collect::<Vec<_>>());
        assert_eq!(total, 30);
    }

    #[test]
    fn shard_strings() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "x/4", "2", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
