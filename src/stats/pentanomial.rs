//! Game pairs: the two games of a pair share an opening with colours
//! swapped, so their results are correlated and the pair, not the game, is
//! the independent sample. A pair scores 0, 1/2, 1, 3/2 or 2 points; the
//! five counts are the pentanomial distribution ([`Ptnml`]). The tournament
//! keeps the finer [`PairTally`], which also separates a win plus a loss
//! (WL) from two draws (DD).

use super::elo::{Basis, EloEstimate, Outcome, Wdl};

/// Pentanomial counts: `counts[i]` pairs scored `i / 2` points out of 2,
/// i.e. LL, LD, WL+DD, WD, WW (fishtest's and fastchess's order). The
/// statistics assume fewer than 2^52 pairs in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Ptnml(pub [u64; 5]);

impl Ptnml {
    /// Pairs played.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Games played: twice the pairs.
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Points over all games of these pairs.
    pub fn points(&self) -> f64 {
        self.0
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * i as f64 / 2.0)
            .sum()
    }

    /// Points per game (`NaN` without pairs).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }

    /// Share of pairs that scored 1 point out of 2 (WL or DD), as fastchess
    /// reports `DrawRatio` for pentanomial statistics (`NaN` without pairs).
    pub fn draw_ratio(&self) -> f64 {
        self.0[2] as f64 / self.pairs() as f64
    }

    /// fastchess's `PairsRatio`: pairs won (WW + WD) per pair lost
    /// (LD + LL). Infinite if no pair was lost, `NaN` if none was won either.
    pub fn pairs_ratio(&self) -> f64 {
        (self.0[3] + self.0[4]) as f64 / (self.0[0] + self.0[1]) as f64
    }

    /// Elo, LOS and normalized Elo with the pair as the sample.
    pub fn estimate(&self) -> EloEstimate {
        EloEstimate::from_frequencies(Basis::Pentanomial, &self.0)
    }
}

impl std::ops::AddAssign for Ptnml {
    fn add_assign(&mut self, other: Ptnml) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// Results of finished pairs, with WL and DD kept apart; from the point of
/// view of one engine (the engine under test, or the first of a
/// head-to-head).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct PairTally {
    /// Both games lost.
    pub ll: u64,
    /// One loss, one draw.
    pub ld: u64,
    /// One win, one loss.
    pub wl: u64,
    /// Both games drawn.
    pub dd: u64,
    /// One win, one draw.
    pub wd: u64,
    /// Both games won.
    pub ww: u64,
}

impl PairTally {
    /// Counts one finished pair, given the engine's result in each game (in
    /// either order).
    pub fn add(&mut self, first: Outcome, second: Outcome) {
        use Outcome::{Draw, Loss, Win};
        let slot = match (first, second) {
            (Loss, Loss) => &mut self.ll,
            (Loss, Draw) | (Draw, Loss) => &mut self.ld,
            (Win, Loss) | (Loss, Win) => &mut self.wl,
            (Draw, Draw) => &mut self.dd,
            (Win, Draw) | (Draw, Win) => &mut self.wd,
            (Win, Win) => &mut self.ww,
        };
        *slot += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The pentanomial counts (WL and DD merged).
    pub fn ptnml(&self) -> Ptnml {
        Ptnml([self.ll, self.ld, self.wl + self.dd, self.wd, self.ww])
    }

    /// The games of these pairs as win/draw/loss counts.
    pub fn wdl(&self) -> Wdl {
        Wdl {
            wins: 2 * self.ww + self.wd + self.wl,
            draws: self.ld + 2 * self.dd + self.wd,
            losses: 2 * self.ll + self.ld + self.wl,
        }
    }

    /// fastchess's `WL/DD Ratio`: pairs split one win and one loss per pair
    /// of two draws. Infinite without DD pairs, `NaN` with neither.
    pub fn wl_dd_ratio(&self) -> f64 {
        self.wl as f64 / self.dd as f64
    }
}

impl std::ops::AddAssign for PairTally {
    fn add_assign(&mut self, o: PairTally) {
        self.ll += o.ll;
        self.ld += o.ld;
        self.wl += o.wl;
        self.dd += o.dd;
        self.wd += o.wd;
        self.ww += o.ww;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::close;

    /// fastchess `elo_test.cpp`, "EloPentanomial 1".
    #[test]
    fn fastchess_penta_34_54_63_64_75() {
        let e = Ptnml([34, 54, 63, 64, 75]).estimate();
        assert_eq!((e.samples, e.games), (290, 580));
        close(e.elo, 55.58, 0.005);
        close(e.elo_error, 27.65, 0.005);
        close(e.nelo, 57.94, 0.005);
        close(e.nelo_error, 28.28, 0.005);
        assert_eq!(format!("{:.2}", e.los * 100.0), "100.00");
        close(e.los, 0.99997, 0.000005);
    }

    /// fastchess `elo_test.cpp`, "EloPentanomial 2".
    #[test]
    fn fastchess_penta_332_433_498_333_334() {
        let e = Ptnml([332, 433, 498, 333, 334]).estimate();
        close(e.elo, -8.64, 0.005);
        close(e.elo_error, 10.33, 0.005);
        close(e.nelo, -9.17, 0.005);
        close(e.nelo_error, 10.96, 0.005);
        assert_eq!(format!("{:.2}", e.los * 100.0), "5.05");
    }

    /// fastchess `elo_test.cpp`, "EloPentanomial 3".
    #[test]
    fn fastchess_penta_7895_8757_5685_568_9999() {
        let e = Ptnml([7895, 8757, 5685, 568, 9999]).estimate();
        close(e.elo, -21.04, 0.005);
        close(e.elo_error, 2.95, 0.005);
        close(e.nelo, -19.01, 0.005);
        close(e.nelo_error, 2.65, 0.005);
    }

    #[test]
    fn tally_counts_pairs_in_either_order() {
        use Outcome::{Draw, Loss, Win};
        let mut t = PairTally::default();
        t.add(Win, Loss);
        t.add(Loss, Win);
        t.add(Draw, Draw);
        t.add(Win, Draw);
        t.add(Draw, Win);
        t.add(Win, Win);
        t.add(Loss, Draw);
        t.add(Loss, Loss);
        assert_eq!(
            t,
            PairTally {
                ll: 1,
                ld: 1,
                wl: 2,
                dd: 1,
                wd: 2,
                ww: 1
            }
        );
        assert_eq!(t.ptnml(), Ptnml([1, 1, 3, 2, 1]));
        assert_eq!(t.wdl(), Wdl::new(6, 5, 5));
        assert_eq!(t.wdl().games(), t.ptnml().games());
        assert_eq!(t.wdl().points(), t.ptnml().points());
        assert_eq!(t.wl_dd_ratio(), 2.0);
    }

    #[test]
    fn ratios() {
        let p = Ptnml([10, 100, 200, 150, 40]);
        close(p.draw_ratio(), 0.4, 1e-12);
        close(p.pairs_ratio(), 190.0 / 110.0, 1e-12);
        assert_eq!(Ptnml([0, 0, 3, 1, 0]).pairs_ratio(), f64::INFINITY);
        assert!(Ptnml([0, 0, 3, 0, 0]).pairs_ratio().is_nan());
    }

    #[test]
    fn pairs_all_scoring_three_quarters() {
        // Zero variance but a score strictly inside (0, 1).
        let e = Ptnml([0, 0, 0, 12, 0]).estimate();
        close(e.elo, score_to_elo_of(0.75), 1e-9);
        assert_eq!(e.elo_error, 0.0);
        assert_eq!(e.los, 1.0);
        assert_eq!(e.nelo, f64::INFINITY);
    }

    fn score_to_elo_of(s: f64) -> f64 {
        super::super::elo::score_to_elo(s)
    }
}
