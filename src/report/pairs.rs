//! The one rule that decides an SPRT: pairs count in schedule order, each
//! only once it and every earlier pair of the run (its shard) are complete,
//! and counting stops at the pair where the LLR first crosses a bound. The
//! runner feeds it games as they finish (to stop early), and `report` and
//! `merge` feed it a journal's games (to recompute the same verdict), so
//! "the report equals the run" holds by construction.

use super::prefix::Prefix;
use crate::records::{GameRecord, TournamentInfo};
use crate::stats::{Outcome, PairTally, Sprt, SprtState, Verdict};
use std::collections::HashMap;

/// The pairs of a two-engine run as they counted, in schedule order, from
/// the point of view of its first side (an SPRT's candidate): what the
/// report draws over pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairTrace {
    /// Pair ids, in counting order.
    pub pairs: Vec<u64>,
    /// The side's pairs after each (cumulative).
    pub tallies: Vec<PairTally>,
    /// The LLR after each, for an SPRT that decides (empty otherwise).
    pub llrs: Vec<f64>,
    /// The SPRT of `llrs`.
    pub sprt: Option<Sprt>,
    /// When thinned (a live page keeps a bounded number of points): the
    /// pairs counted at each point. Empty: point `i` is after `i + 1`
    /// pairs, every pair kept.
    pub at: Vec<u64>,
}

impl PairTrace {
    /// Pairs counted up to the last point.
    pub fn counted(&self) -> u64 {
        self.at.last().copied().unwrap_or(self.tallies.len() as u64)
    }
}

/// Counts the pentanomial pairs of one engine (the SPRT's candidate) in
/// schedule order and follows the SPRT over them.
#[derive(Clone, Debug)]
pub struct PairCounter {
    sprt: Sprt,
    me: String,
    /// The run's pairs, in schedule order, and how many of the first are
    /// complete.
    prefix: Prefix,
    /// How many of the prefix's pairs are counted.
    next: usize,
    /// Outcomes for `me` of games whose pair is not counted yet.
    waiting: HashMap<u64, Outcome>,
    tally: PairTally,
    state: Option<SprtState>,
    /// The LLR after each counted pair from the `llrs_from`th on, in
    /// counting order (the report draws it; a follower that draws them as
    /// they come forgets them, [`PairCounter::forget_llrs`]).
    llrs: Vec<f64>,
    llrs_from: usize,
}

impl PairCounter {
    /// The counter of an SPRT run (`None` for other formats): its candidate
    /// and the pairs of its shard.
    pub fn new(info: &TournamentInfo) -> Option<PairCounter> {
        let sprt = info.sprt()?;
        let (me, _) = info.perspective()?;
        Some(PairCounter {
            sprt,
            me: info.engines[me].clone(),
            prefix: Prefix::new(info),
            next: 0,
            waiting: HashMap::new(),
            tally: PairTally::default(),
            state: None,
            llrs: Vec::new(),
            llrs_from: 0,
        })
    }

    /// Takes a finished game (any order; a game already seen is ignored)
    /// and counts every pair that has become countable. Returns true once
    /// the SPRT has decided.
    pub fn add(&mut self, game: &GameRecord) -> bool {
        if !self.decided() && self.prefix.is_pending(game.game_id) {
            let outcome = Outcome::from_points(game.points_of(&self.me).unwrap_or(0.5))
                .unwrap_or(Outcome::Draw);
            self.waiting.entry(game.game_id).or_insert(outcome);
            self.prefix.add(game.game_id);
            self.advance();
        }
        self.decided()
    }

    /// Counts the complete pairs of the prefix not counted yet, until the
    /// SPRT decides.
    fn advance(&mut self) {
        while !self.decided() && (self.next as u64) < self.prefix.complete {
            let p = self.prefix.order[self.next];
            let (Some(a), Some(b)) = (
                self.waiting.remove(&(2 * p)),
                self.waiting.remove(&(2 * p + 1)),
            ) else {
                break; // not reached: a complete pair has both outcomes
            };
            self.tally.add(a, b);
            self.next += 1;
            let state = self.sprt.evaluate_ptnml(&self.tally.ptnml());
            self.llrs.push(state.llr);
            self.state = Some(state);
        }
    }

    /// True once the LLR has crossed a bound.
    pub fn decided(&self) -> bool {
        self.state.is_some_and(|s| s.verdict != Verdict::Continue)
    }

    /// The pairs counted so far, in schedule order.
    pub fn counted(&self) -> &[u64] {
        &self.prefix.order[..self.next]
    }

    /// The counted pairs from the candidate's point of view.
    pub fn tally(&self) -> PairTally {
        self.tally
    }

    /// The SPRT after the last counted pair (`None` before the first).
    pub fn state(&self) -> Option<SprtState> {
        self.state
    }

    /// The LLR after each counted pair, one per pair of [`Self::counted`]
    /// (fewer once some are forgotten).
    pub fn llrs(&self) -> &[f64] {
        &self.llrs
    }

    /// The LLR after the `i`th counted pair (`None` once forgotten).
    pub fn llr_after(&self, i: usize) -> Option<f64> {
        let k = i.checked_sub(self.llrs_from)?;
        self.llrs.get(k).copied()
    }

    /// Forgets the LLRs after the first `pairs` counted pairs: what a
    /// follower that has drawn them keeps is then bounded.
    pub fn forget_llrs(&mut self, pairs: usize) {
        let k = pairs.saturating_sub(self.llrs_from).min(self.llrs.len());
        self.llrs.drain(..k);
        self.llrs_from += k;
    }

    /// The SPRT itself.
    pub fn sprt(&self) -> Sprt {
        self.sprt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Format;
    use crate::stats::Model;

    fn info(shard: &str) -> TournamentInfo {
        let sprt = Format::Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
            max_pairs: 1000,
        };
        TournamentInfo {
            shard: shard.into(),
            ..TournamentInfo::example(&["base", "new"], sprt, 1000)
        }
    }

    /// Game `id` where `new` scores `points`.
    fn game(id: u64, points: f64) -> GameRecord {
        let new_is_black = id % 2 == 1;
        let (black, white) = if new_is_black {
            ("new", "base")
        } else {
            ("base", "new")
        };
        let result = if new_is_black { points } else { 1.0 - points };
        GameRecord::example(id, black, white, result)
    }

    #[test]
    fn counts_whole_pairs_in_schedule_order_and_stops_at_the_decision() {
        // `new` wins every game: H1 after some pairs; later pairs never count.
        let games: Vec<GameRecord> = (0..400).map(|id| game(id, 1.0)).collect();
        let mut in_order = PairCounter::new(&info("1/1")).unwrap();
        let decided_at = games.iter().position(|g| in_order.add(g)).unwrap();
        let pairs = in_order.counted().len();
        assert_eq!(decided_at, 2 * pairs - 1);
        assert_eq!(in_order.state().unwrap().verdict, Verdict::H1);
        assert_eq!(in_order.tally().ww, pairs as u64);
        assert_eq!(in_order.llrs().len(), pairs);
        assert_eq!(in_order.llrs().last(), Some(&in_order.state().unwrap().llr));
        assert!(
            in_order.llrs().windows(2).all(|w| w[0] < w[1]),
            "every win raises the LLR"
        );

        // Any arrival order counts the same pairs; a gap holds counting back.
        let mut shuffled = PairCounter::new(&info("1/1")).unwrap();
        assert!(!shuffled.add(&games[1]));
        assert!(!shuffled.add(&games[3]));
        assert!(!shuffled.add(&games[2]));
        assert!(shuffled.counted().is_empty(), "pair 0 is not complete");
        for g in games.iter().rev() {
            shuffled.add(g);
        }
        assert_eq!(shuffled.counted(), in_order.counted());
        assert_eq!(shuffled.tally(), in_order.tally());
    }

    #[test]
    fn a_shard_counts_its_own_pairs() {
        let mut c = PairCounter::new(&info("2/3")).unwrap();
        for id in 0..12 {
            c.add(&game(id, 0.5));
        }
        assert_eq!(c.counted(), [1, 4]);
        assert_eq!(c.tally().dd, 2);
    }

    #[test]
    fn a_follower_forgets_the_llrs_it_has_drawn_and_the_rest_stay() {
        let mut kept = PairCounter::new(&info("1/1")).unwrap();
        let mut forgetting = kept.clone();
        for id in 0..20 {
            let g = game(id, if id % 3 == 0 { 1.0 } else { 0.5 });
            kept.add(&g);
            forgetting.add(&g);
            forgetting.forget_llrs(forgetting.counted().len().saturating_sub(1));
        }
        assert_eq!(kept.llrs().len(), 10);
        // Only the last pair's LLR is held, and it is the same.
        assert_eq!(forgetting.llrs().len(), 1);
        assert_eq!(forgetting.llr_after(9), kept.llr_after(9));
        assert_eq!(forgetting.llr_after(8), None);
        assert_eq!(kept.llr_after(8), Some(kept.llrs()[8]));
        assert_eq!(forgetting.state(), kept.state());
    }
}
