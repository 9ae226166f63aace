//! What a live page draws of a run as its games count, so that no game
//! need be kept ([`super::Live::drawing`], for `arena watch`): the
//! report's histogram and openings ([`Drawn`]), and a head-to-head's pairs
//! over time, thinned to a bounded number of points: every pair until
//! [`KEPT`] points, then every 2nd, 4th, … pair, the last one always.

use super::html::{Drawn, DrawnGame, Seat};
use super::pairs::PairTrace;
use super::tallies::Counted;
use crate::records::{GameRecord, TournamentInfo};
use crate::stats::{PairTally, Sprt};

/// Most points of a head-to-head's pairs kept (the report draws about a
/// third of them).
pub const KEPT: usize = 2048;

/// The figures of a run's counted games, kept as they count.
#[derive(Clone, Debug)]
pub(crate) struct Drawing {
    /// A head-to-head's first side, whose view the figures take.
    me: Option<usize>,
    drawn: Drawn,
    /// Every this many pairs a point is kept.
    every: u64,
    /// Pairs counted.
    count: u64,
    /// The points kept (`at`: the pairs counted at each).
    kept: PairTrace,
    /// The last pair counted: its id, the side's pairs and the LLR after it.
    last: Option<(u64, PairTally, Option<f64>)>,
}

impl Drawing {
    /// Nothing counted yet of the run `info`.
    pub(crate) fn new(info: &TournamentInfo) -> Drawing {
        let me = info.perspective().map(|(me, _)| me);
        Drawing {
            me,
            drawn: Drawn::new(info.game, me.is_some()),
            every: 1,
            count: 0,
            kept: PairTrace::default(),
            last: None,
        }
    }

    /// Notes game `g`'s opening (taken, whether or not it comes to count).
    pub(crate) fn name_opening(&mut self, g: &GameRecord) {
        self.drawn.name_opening(g);
    }

    /// Counts game `g`.
    pub(crate) fn game(&mut self, g: &Counted) {
        let seat = match self.me {
            Some(m) if g.black == m => Seat::Black,
            Some(m) if g.white == m => Seat::White,
            Some(_) | None => Seat::Neither,
        };
        self.drawn.add(DrawnGame {
            opening_id: g.opening_id,
            result: g.result,
            disc_diff: g.disc_diff,
            seat,
        });
    }

    /// The side whose pairs are drawn (`None`: more than two engines).
    pub(crate) fn side(&self) -> Option<usize> {
        self.me
    }

    /// Counts pair `pair`: `tally` is the side's pairs after it, `llr` the
    /// SPRT's (when one decides).
    pub(crate) fn pair(&mut self, pair: u64, tally: PairTally, llr: Option<f64>) {
        if self.me.is_none() {
            return;
        }
        self.count += 1;
        if self.count.is_multiple_of(self.every) {
            push(&mut self.kept, pair, tally, llr, self.count);
            if self.kept.tallies.len() >= KEPT {
                self.every *= 2;
                self.kept = thinned(&self.kept, self.every);
            }
        }
        self.last = Some((pair, tally, llr));
    }

    /// The counted games' histogram and openings.
    pub(crate) fn drawn(&self) -> &Drawn {
        &self.drawn
    }

    /// A head-to-head's pairs as they counted, thinned, the last always
    /// (`None` for more engines); `sprt`: the SPRT whose LLRs were given.
    pub(crate) fn trace(&self, sprt: Option<Sprt>) -> Option<PairTrace> {
        self.me?;
        let mut trace = self.kept.clone();
        if let Some((pair, tally, llr)) = self.last {
            if trace.at.last() != Some(&self.count) {
                push(&mut trace, pair, tally, llr, self.count);
            }
        }
        trace.sprt = sprt;
        Some(trace)
    }
}

/// Adds a point to `trace`: pair `pair`, after which the side's pairs are
/// `tally` and the LLR `llr`, `count` pairs counted.
fn push(trace: &mut PairTrace, pair: u64, tally: PairTally, llr: Option<f64>, count: u64) {
    trace.pairs.push(pair);
    trace.tallies.push(tally);
    trace.llrs.extend(llr);
    trace.at.push(count);
}

/// The points of `trace` at a multiple of `every` pairs.
fn thinned(trace: &PairTrace, every: u64) -> PairTrace {
    let mut out = PairTrace::default();
    for (i, &count) in trace.at.iter().enumerate() {
        if count.is_multiple_of(every) {
            out.pairs.push(trace.pairs[i]);
            out.tallies.push(trace.tallies[i]);
            out.llrs.extend(trace.llrs.get(i).copied());
            out.at.push(count);
        }
    }
    out
}
