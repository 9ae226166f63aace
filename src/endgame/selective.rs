//! Selective passes before a long exact solve: Multi-ProbCut on the exact
//! score (Buro's ProbCut in the endgame, as Edax solves).
//!
//! With a cut model ([`Solver::set_endcut`]) and at least its `from`
//! empties, a solve first searches the root (with its aspiration window)
//! at increasing confidences, [`CONFIDENCE`] (Edax's 73%, 87%, 95%, 98%
//! and 99%), then exactly. In a selective pass a null-window node whose
//! empties the model covers first asks the ordering evaluation's shallow
//! search: when the predicted exact score `a·v + b` lies more than
//! `t·sigma` beyond the window (`t` the pass's confidence), the node is
//! cut without its search. Each pass leaves in the table the moves that
//! order the next one, and its score centres the next one's window.
//!
//! The passes never decide the score: the last pass is exact and believes
//! only full results. Table entries carry the pass that found them
//! ([`Entry::selective`]: 0 for a full search, `k` for a pass at
//! `CONFIDENCE[k - 1]`); a pass believes full entries and those of its own
//! confidence or a higher one, and uses any entry's move. A node with
//! fewer empties than the model's lowest stage is never cut, nor is any
//! node below it, so its result is exact and is stored as full even in a
//! selective pass: the exact pass finds those subtrees already solved.
//!
//! The model is a ProbCut file (see [`crate::search::probcut`]) whose pairs
//! have `deep: 60` (the exact score), fitted by `arena probcut
//! fit-endgame`: per stage of empties, the exact score (in centidiscs)
//! against the shallow search at that pair's `shallow` depth.

use super::Solver;
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::search::probcut::{ProbCut, MAX_DEPTH};
use crate::search::tt::Entry;

/// Confidences of the selective passes, in sigmas, lowest first.
pub const CONFIDENCE: [f64; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];

/// A pair's `deep` that means "the exact score".
pub const EXACT_DEEP: u32 = MAX_DEPTH;

/// Deepest shallow search a cut model may ask for: the shallow search
/// does not look at the clock, so a deeper one could outlast a deadline.
pub const MAX_SHALLOW: u32 = 12;

/// Slots of [`Probed`]: 16 bytes each, 1 MiB in all.
const PROBED_SLOTS: usize = 1 << 16;

/// The bounds the cut model's shallow searches proved, by position
/// (direct-mapped by table key; a solver's own, so threads share
/// nothing). A shallow value depends on the position alone (its depth on
/// the empties, under one model), so a bound proved once holds in every
/// later pass.
pub(super) struct Probed {
    /// `(key, lowest, highest)` of the shallow value; a key of 0 is empty.
    slots: Box<[(u64, i32, i32)]>,
}

impl Probed {
    pub(super) fn new() -> Probed {
        Probed {
            slots: vec![(0, 0, 0); PROBED_SLOTS].into_boxed_slice(),
        }
    }

    /// Forgets every bound (a new model may search to other depths).
    pub(super) fn clear(&mut self) {
        self.slots.fill((0, 0, 0));
    }

    /// The bounds known for the position of `key` (none: the widest).
    #[inline(always)]
    fn bounds(&self, key: u64) -> (i32, i32) {
        let k = key | 1;
        match self.slots[key as usize & (PROBED_SLOTS - 1)] {
            (stored, low, high) if stored == k => (low, high),
            _ => (-super::INF_CENTI, super::INF_CENTI),
        }
    }

    /// Keeps the bounds of the position of `key`.
    #[inline(always)]
    fn keep(&mut self, key: u64, low: i32, high: i32) {
        self.slots[key as usize & (PROBED_SLOTS - 1)] = (key | 1, low, high);
    }
}

/// The model of one number of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cut {
    /// Depth of the shallow search.
    shallow: u32,
    /// Slope (centidiscs of exact score per centidisc of shallow value).
    a: f64,
    /// Intercept (centidiscs).
    b: f64,
    /// Standard deviation of the prediction's error (centidiscs).
    sigma: f64,
}

/// The cut model by empties, ready for the hot path.
#[derive(Clone, Debug, PartialEq)]
pub struct EndCut {
    /// The model at each number of empties (`None`: never cut there).
    at: [Option<Cut>; 65],
    /// Fewest empties with a model: below, every result is exact.
    lowest: u32,
    /// A solve of at least this many empties runs the selective passes.
    from: u32,
}

impl EndCut {
    /// The model of a ProbCut file's exact-score pairs (the first pair
    /// with `deep: 60` of each stage), for solves of at least `from`
    /// empties.
    ///
    /// # Errors
    /// What is wrong, for the caller to name the file: no stage has such a
    /// pair, or one asks for a shallow search deeper than [`MAX_SHALLOW`].
    pub fn new(pc: &ProbCut, from: u32) -> Result<EndCut, String> {
        if let Some((k, p)) = pc.stages.iter().enumerate().find_map(|(k, s)| {
            s.pairs
                .iter()
                .find(|p| p.deep == EXACT_DEEP && p.shallow > MAX_SHALLOW)
                .map(|p| (k, p))
        }) {
            return Err(format!(
                "stage {}: shallow {} is deeper than {MAX_SHALLOW} (the cut model's searches do not look at the clock)",
                k + 1,
                p.shallow
            ));
        }
        let mut at = [None; 65];
        let mut lowest = None;
        for (n, slot) in at.iter_mut().enumerate() {
            let n = n as u32;
            let Some(stage) = pc.stages.iter().find(|s| n >= s.min_empties) else {
                continue;
            };
            let Some(p) = stage.pairs.iter().find(|p| p.deep == EXACT_DEEP) else {
                continue;
            };
            // A shallow search as deep as the empties would be the solve.
            if p.shallow >= n {
                continue;
            }
            *slot = Some(Cut {
                shallow: p.shallow,
                a: p.a,
                b: p.b,
                sigma: p.sigma,
            });
            lowest.get_or_insert(n);
        }
        let lowest = lowest.ok_or_else(|| {
            format!("no stage has an exact-score pair (deep: {EXACT_DEEP}); fit one with arena probcut fit-endgame")
        })?;
        Ok(EndCut { at, lowest, from })
    }

    /// Fewest empties the model cuts at.
    pub fn lowest(&self) -> u32 {
        self.lowest
    }
}

impl Solver {
    /// A new solver (its tables empty, nothing stored to mistrust) with
    /// this model, as [`Solver::set_endcut`] sets it without emptying the
    /// tables again: writing them whole would back every page of a table
    /// that an untimed engine lets come as its solves write it.
    pub fn with_endcut(mut self, cut: Option<Box<EndCut>>) -> Solver {
        for h in &mut self.helpers {
            h.endcut = cut.clone();
        }
        self.endcut = cut;
        self
    }

    /// Runs selective passes before solves of at least `from` empties with
    /// this model (`None`: exact solves only, the default). The passes
    /// need the ordering evaluation: without one they are skipped. Empties
    /// the tables: what an earlier model's passes stored below its lowest
    /// stage counts as exact, which another model need not grant.
    pub fn set_endcut(&mut self, cut: Option<EndCut>) {
        self.tt.clear();
        self.near.clear();
        self.probed.clear();
        for h in &mut self.helpers {
            h.endcut = cut.clone().map(Box::new);
            h.probed.clear();
        }
        self.endcut = cut.map(Box::new);
    }

    /// Whether a solve of `empties` empties runs the selective passes.
    #[inline]
    pub(super) fn presearch(&self, empties: u32) -> bool {
        self.eval.is_some() && self.endcut.as_ref().is_some_and(|c| empties >= c.from)
    }

    /// Whether this pass may take `e`'s bound: a full result always, a
    /// selective one only in a selective pass of its confidence or a lower
    /// one.
    #[inline(always)]
    pub(super) fn believes(&self, e: &Entry) -> bool {
        e.selective == 0 || (self.selective != 0 && e.selective >= self.selective)
    }

    /// What a result at `n` empties is stored as: 0 (full) in the exact
    /// pass and below the model's lowest empties, else this pass.
    #[inline(always)]
    pub(super) fn mark(&self, n: u32) -> u8 {
        if self.selective != 0 && self.endcut.as_ref().is_some_and(|c| n >= c.lowest) {
            self.selective
        } else {
            0
        }
    }

    /// In a selective pass, at a null-window node (window `(alpha, alpha +
    /// 1)`) of `n` empties and table key `key`: `Some(alpha + 1)` when the
    /// shallow search predicts a fail high, `Some(alpha)` a fail low, with
    /// the pass's confidence; `None` to search the node.
    ///
    /// What each test learnt of the shallow value is kept in
    /// [`Probed`]: a later test at the same position (the other side's, or
    /// the next pass's with its wider margin) that those bounds already
    /// decide needs no search. The decision is the search's own, so
    /// the solve is the same; only the shallow searches are fewer.
    #[inline]
    pub(super) fn try_endcut<C: Cpu>(
        &mut self,
        cpu: C,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        key: u64,
    ) -> Option<i32> {
        if self.selective == 0 {
            return None;
        }
        let cut = self.endcut.as_ref()?.at[n as usize]?;
        let margin = CONFIDENCE[usize::from(self.selective) - 1] * cut.sigma;
        let limit = f64::from(super::INF_CENTI / 2);
        let beta = alpha + 1;
        let (mut low, mut high) = self.probed.bounds(key);
        let mut verdict = None;
        // Fail high: a·v + b − margin ≥ beta  ⇔  v ≥ (beta + margin − b) / a.
        if beta < 64 {
            let bound = ((f64::from(beta * 100) + margin - cut.b) / cut.a).ceil();
            if bound.abs() < limit {
                let bound = bound as i32;
                if low < bound && high >= bound {
                    let v = self.shallow(cpu, p, o, cut.shallow, bound - 1, bound);
                    if v >= bound {
                        low = v;
                    } else {
                        high = v;
                    }
                }
                if low >= bound {
                    verdict = Some(beta);
                }
            }
        }
        // Fail low: a·v + b + margin ≤ alpha  ⇔  v ≤ (alpha − margin − b) / a.
        if verdict.is_none() && alpha > -64 {
            let bound = ((f64::from(alpha * 100) - margin - cut.b) / cut.a).floor();
            if bound.abs() < limit {
                let bound = bound as i32;
                if high > bound && low <= bound {
                    let v = self.shallow(cpu, p, o, cut.shallow, bound, bound + 1);
                    if v <= bound {
                        high = v;
                    } else {
                        low = v;
                    }
                }
                if high <= bound {
                    verdict = Some(alpha);
                }
            }
        }
        self.probed.keep(key, low, high);
        verdict
    }

    /// The ordering evaluation's alpha-beta value of `b` at `depth`
    /// (centidiscs for the side to move; 0 at depth 0 without an
    /// evaluation): what the cut model predicts from.
    pub fn estimate(&mut self, b: &crate::game::othello::Board, depth: u32) -> i32 {
        let (p, o, inf) = (b.player, b.opponent, super::INF_CENTI);
        match detect() {
            Some(avx2) => self.shallow(avx2, p, o, depth, -inf, inf),
            None => self.shallow(Baseline, p, o, depth, -inf, inf),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::builtin::order_eval;
    use crate::game::othello::Board;
    use crate::game::Game;
    use crate::search::probcut::{Pair, Stage};

    fn model(sigma: f64) -> ProbCut {
        let pair = |shallow| Pair {
            deep: EXACT_DEEP,
            shallow,
            a: 1.0,
            b: 0.0,
            sigma,
        };
        ProbCut {
            confidence: 1.5,
            stages: vec![
                Stage {
                    min_empties: 14,
                    pairs: vec![pair(4)],
                },
                Stage {
                    min_empties: 10,
                    pairs: vec![pair(2)],
                },
                Stage {
                    min_empties: 0,
                    pairs: vec![],
                },
            ],
        }
    }

    #[test]
    fn the_model_covers_the_stages_with_exact_pairs() {
        let c = EndCut::new(&model(500.0), 20).unwrap();
        let mut deep = model(500.0);
        deep.stages[0].pairs[0].shallow = 13;
        let e = EndCut::new(&deep, 20).unwrap_err();
        assert!(e.contains("stage 1: shallow 13"), "{e}");
        assert_eq!(c.lowest(), 10);
        assert!(c.at[9].is_none());
        assert_eq!(c.at[12].unwrap().shallow, 2);
        assert_eq!(c.at[30].unwrap().shallow, 4);
        let none = ProbCut {
            confidence: 1.5,
            stages: vec![Stage {
                min_empties: 0,
                pairs: vec![],
            }],
        };
        assert!(EndCut::new(&none, 20).unwrap_err().contains("deep: 60"));
    }

    /// Positions of `empties` empties from seeded random play.
    fn positions(seed: u64, empties: u32, count: usize) -> Vec<Board> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut b = Board::start();
            let mut moves = crate::game::MoveList::new();
            while b.empties() > empties && !b.is_over() {
                moves.clear();
                b.generate_moves(&mut moves);
                b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
            }
            if b.empties() == empties && !b.is_over() {
                out.push(b);
            }
        }
        out
    }

    #[test]
    fn selective_passes_never_change_the_exact_score() {
        // A model far too bold (sigma 0.5 discs: nearly every node it sees
        // is cut in the passes) must still give the exact score and a move
        // that reaches it, since the last pass believes only full results.
        let mut exact = Solver::new(8, Some(order_eval()));
        let mut bold = Solver::new(8, Some(order_eval()));
        bold.set_endcut(EndCut::new(&model(50.0), 16).ok());
        for b in positions(7, 18, 6) {
            exact.clear();
            bold.clear();
            let want = exact.solve(&b);
            let got = bold.solve(&b);
            let text = crate::game::othello::board_string(&b);
            assert_eq!(got.score, want.score, "{text}");
            let mv = got.best_move.unwrap();
            exact.clear();
            assert_eq!(-exact.solve(&b.play(mv)).score, want.score, "{text}");
            assert!(got.nodes != want.nodes, "the passes ran: {text}");
        }
    }

    #[test]
    fn on_several_threads_too() {
        let mut exact = Solver::new(8, Some(order_eval()));
        let mut bold = Solver::new(8, Some(order_eval()));
        bold.set_threads(2);
        bold.set_endcut(EndCut::new(&model(150.0), 16).ok());
        for b in positions(9, 18, 4) {
            exact.clear();
            bold.clear();
            assert_eq!(bold.solve(&b).score, exact.solve(&b).score);
        }
    }

    #[test]
    fn kept_bounds_decide_as_the_shallow_searches_would() {
        // A solver that keeps what its tests proved, asked at every pass's
        // confidence and at several windows, against one that forgets
        // before each test: the same verdict every time, with fewer nodes.
        let cut = EndCut::new(&model(300.0), 10).unwrap();
        let mut keeping = Solver::new(1, Some(order_eval()));
        let mut fresh = Solver::new(1, Some(order_eval()));
        keeping.set_endcut(Some(cut.clone()));
        fresh.set_endcut(Some(cut));
        let mut cuts = 0;
        for n in [12, 16] {
            for b in positions(11 + u64::from(n), n, 20) {
                let key = crate::game::othello::hash::mixed(b.player, b.opponent);
                for pass in 1..=CONFIDENCE.len() as u8 {
                    for alpha in [-20, -6, -1, 0, 3, 12] {
                        keeping.selective = pass;
                        fresh.selective = pass;
                        fresh.probed.clear();
                        let (p, o) = (b.player, b.opponent);
                        let want = fresh.try_endcut(Baseline, p, o, alpha, n, key);
                        let got = keeping.try_endcut(Baseline, p, o, alpha, n, key);
                        assert_eq!(got, want, "pass {pass} alpha {alpha}");
                        cuts += usize::from(want.is_some());
                    }
                }
            }
        }
        assert!(cuts > 0, "some tests cut");
        assert!(
            keeping.nodes < fresh.nodes / 2,
            "{} {}",
            keeping.nodes,
            fresh.nodes
        );
    }

    #[test]
    fn a_cleared_solver_solves_again_with_the_same_nodes() {
        let mut s = Solver::new(8, Some(order_eval()));
        s.set_endcut(EndCut::new(&model(300.0), 16).ok());
        for b in positions(13, 18, 3) {
            s.clear();
            let first = s.solve(&b);
            s.clear();
            let again = s.solve(&b);
            assert_eq!(
                (again.score, again.best_move, again.nodes),
                (first.score, first.best_move, first.nodes)
            );
        }
    }

    #[test]
    fn a_solve_stopped_late_gives_the_last_pass_that_finished() {
        // Stopped at ever more nodes, a solve gives no pass, then ever
        // later passes (each legal and the same every time it is stopped
        // there), then, finished, its exact answer and no pass.
        let mut s = Solver::new(8, Some(order_eval()));
        s.set_endcut(EndCut::new(&model(300.0), 16).ok());
        for b in positions(17, 20, 2) {
            s.clear();
            let full = s.solve(&b);
            assert!(s.last_pass().is_none(), "a finished solve gives no pass");
            let mut seen = Vec::new();
            for tenth in 0..10u64 {
                s.clear();
                s.node_limit = full.nodes * tenth / 10;
                let stopped = s.solve_window(&b, -64, 64);
                let pass = s.last_pass();
                s.clear();
                let again = s.solve_window(&b, -64, 64);
                let same = |x: &super::super::Solution| (x.score, x.best_move, x.nodes);
                assert_eq!(same(&again), same(&stopped), "the same again");
                assert_eq!(s.last_pass(), pass, "the same pass again");
                s.node_limit = u64::MAX;
                if let Some(p) = pass {
                    let mv = p.best_move.unwrap();
                    let legal = crate::game::othello::bitboard::legal_moves(b.player, b.opponent);
                    assert!(legal >> mv.to_square().unwrap().index() & 1 == 1);
                    assert!(p.nodes <= full.nodes);
                }
                seen.push(pass.map(|p| p.confidence));
            }
            assert_eq!(seen[0], None, "stopped at once: no pass");
            assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
            assert_eq!(seen[9], Some(CONFIDENCE[CONFIDENCE.len() - 1]), "{seen:?}");
        }
    }
}
