//! Which of a run's first pairs are complete, whatever order their games
//! finish in: the SPRT counts pairs in that order ([`super::PairCounter`])
//! and the plain lines' result blocks are of exactly the schedule's first
//! pairs.

use crate::records::TournamentInfo;

/// The pairs of a run's schedule (its shard's, in order) and how many of
/// the first have both games finished.
#[derive(Clone, Debug)]
pub(crate) struct Prefix {
    /// The pairs, in schedule order (ascending ids).
    pub(crate) order: Vec<u64>,
    /// Per pair of `order`, the games finished (bit 0 the first, bit 1
    /// the second), so a game seen twice counts once.
    seen: Vec<u8>,
    /// The first pairs of `order` complete.
    pub(crate) complete: u64,
}

impl Prefix {
    pub(crate) fn new(info: &TournamentInfo) -> Prefix {
        let shard = info.shard();
        let order: Vec<u64> = (0..info.total_pairs).filter(|&p| shard.owns(p)).collect();
        Prefix {
            seen: vec![0; order.len()],
            order,
            complete: 0,
        }
    }

    /// Whether `game_id` is a game of a pair of the schedule that is not
    /// complete yet, in the prefix.
    pub(crate) fn is_pending(&self, game_id: u64) -> bool {
        self.order[self.complete as usize..]
            .binary_search(&(game_id / 2))
            .is_ok()
    }

    /// Takes a finished game (one seen before changes nothing).
    pub(crate) fn add(&mut self, game_id: u64) {
        if let Ok(i) = self.order.binary_search(&(game_id / 2)) {
            self.seen[i] |= 1 << (game_id & 1);
        }
        while (self.complete as usize) < self.order.len() && self.seen[self.complete as usize] == 3
        {
            self.complete += 1;
        }
    }
}
