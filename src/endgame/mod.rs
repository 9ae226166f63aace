//! The exact Othello endgame solver: the final disc difference (empties to
//! the winner, the FFO rule) under perfect play, and a move that reaches it.
//!
//! What makes it fast, as in strong solvers (Edax):
//! - principal variation search: a full window on the first move, null
//!   windows on the rest, a re-search when one fails high;
//! - a transposition table for the nodes above [`NEAR_MAX`] empties, and a
//!   second, small one for those of [`SMALL`] + 1 to [`NEAR_MAX`], which
//!   stays in the processor's caches (Edax's shallow table);
//! - move ordering: the table's move (at a null-window node searched
//!   before the other moves are even scored), then fewest opponent replies
//!   ("fastest first", corners counted twice), then parity (moves into
//!   regions with an odd number of empties); from [`EVAL_SORT`] empties,
//!   when the solver has an evaluation, a shallow alpha-beta search of the
//!   position after each move, scored by the evaluation, joins the key
//!   (Edax's scheme: depth (empties - 14) / 3, two more at PV nodes, one
//!   less when the table names a move, that move itself going first
//!   unsearched; a window that stops telling moves
//!   apart 8 discs below alpha; a disc of estimate weighs a quarter to one
//!   opponent reply); a pattern evaluation's readings are carried down
//!   those searches from move to move (`leaves.rs`), not read off each
//!   leaf's board;
//! - with an evaluation, an aspiration window at the root: one disc either
//!   side of a depth-4 estimate, widened until the score falls inside;
//! - stability cutoffs: the opponent's stable discs bound the score from
//!   above, so a node fails low without search when that bound is at most
//!   alpha;
//! - at [`SMALL`] empties or fewer, no table and no sorting: moves in
//!   odd-parity quadrants first, corners first in each, and the last empty
//!   square counted directly;
//! - optionally, before a long solve, selective passes (Multi-ProbCut on
//!   the exact score) whose moves order the exact pass (`selective.rs`).
//!
//! Nothing allocates during a solve: every list is on the stack, and
//! nothing in a list is written before a move is (`ArrayVec`).
//!
//! The root and its aspiration window are in `root.rs`, the inner nodes
//! (PVS, null-window, small) in `nodes.rs`, move ordering in `ordering.rs`,
//! the solve on several threads in `parallel.rs`.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod builtin;
mod last;
mod leaves;
mod nodes;
pub mod obf;
mod ordering;
mod parallel;
mod root;
mod selective;
mod small;

pub use selective::{EndCut, CONFIDENCE, EXACT_DEEP};

use crate::error::Error;
use crate::eval::OthelloEval;
use crate::game::othello::{Board, Move};
use crate::search::busy::Busy;
use crate::search::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// At this many empties or fewer the solver uses its small-position code.
pub const SMALL: u32 = 6;
/// From this many empties null-window nodes try enhanced transposition
/// cutoffs.
pub const ETC_DEPTH: u32 = 12;
/// Nodes of at most this many empties keep their results in a table of
/// their own ([`NEAR_MIB`]), as Edax's shallow table: they are most of the
/// table's nodes, short-lived, and probed where a cache miss costs as much
/// as the node; in a table small enough to stay in the processor's caches
/// they no longer miss, nor push the deeper nodes' results out of the main
/// table.
pub const NEAR_MAX: u32 = 10;
/// MiB of the table of [`NEAR_MAX`] empties or fewer (at most `tt_mib`,
/// at least 1).
pub const NEAR_MIB: usize = 4;
/// From this many empties the evaluation helps order moves (see the module
/// docs).
pub const EVAL_SORT: u32 = 14;

/// Most empties `arena solve` takes. FFO's hardest positions have 34
/// empties and take up to 20 minutes here; each empty more multiplies the
/// time by about 2 to 3, so 36 is a few hours, and 40 or more would run for
/// days: such a solve is refused rather than left to hang.
pub const MAX_SOLVE_EMPTIES: u32 = 36;

/// Beyond any score of a checked evaluation (weights are bounded so that
/// scores stay far inside `i32`), in centidiscs.
const INF_CENTI: i32 = 1 << 30;

/// A position as the solver's functions pass it: the side to move's discs
/// and the opponent's (a pair: it travels in two registers, as the two
/// values did).
#[derive(Clone, Copy)]
struct Discs {
    p: u64,
    o: u64,
}

impl Discs {
    /// `p` to move against `o`.
    #[inline(always)]
    const fn new(p: u64, o: u64) -> Discs {
        Discs { p, o }
    }
}

/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 1 << 14;

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact final disc difference for the side to move.
    pub score: i32,
    /// A move reaching it (`None` when the game is over).
    pub best_move: Option<Move>,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// A selective pass's answer (see [`Solver::last_pass`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pass {
    /// The pass's score, in discs for the side to move: exact only with
    /// the confidence the pass cut at.
    pub score: i32,
    /// Its best move (`None` when the game is over).
    pub best_move: Option<Move>,
    /// The pass's confidence, in sigmas ([`CONFIDENCE`]).
    pub confidence: f64,
    /// Nodes the whole solve visited (every thread) until it stopped.
    pub nodes: u64,
}

/// The solver, with its tables (kept between solves of one game).
pub struct Solver {
    /// The table of nodes of more than [`NEAR_MAX`] empties, shared with
    /// the helper threads.
    tt: Arc<TranspositionTable>,
    /// The table of nodes of at most [`NEAR_MAX`] empties, shared with
    /// the helper threads as `tt` is.
    near: Arc<TranspositionTable>,
    nodes: u64,
    eval: Option<OthelloEval>,
    /// From this many empties `eval` helps order moves.
    pub eval_from: u32,
    deadline: Option<Instant>,
    /// Node count at which the deadline is next checked.
    next_check: u64,
    aborted: bool,
    /// Positions being searched, shared by the threads of a solve (`None`
    /// on one thread).
    busy: Option<Arc<Busy>>,
    /// Set by the thread that finishes a solve: the others stop.
    stop: Arc<AtomicBool>,
    /// Set from outside to abandon the solve (see [`Solver::stop_when`]).
    interrupt: Option<Arc<AtomicBool>>,
    /// The other threads' solvers (see [`Solver::set_threads`]).
    helpers: Vec<Solver>,
    /// The cut model of the selective passes (see `selective.rs`).
    endcut: Option<Box<EndCut>>,
    /// The pass being searched: 0 exact, `k` at `CONFIDENCE[k - 1]`.
    selective: u8,
    /// The previous pass's root move, tried first at the root.
    root_hint: Option<u8>,
    /// The last selective pass of this thread's last solve that finished:
    /// its score, move and number (`k`: at `CONFIDENCE[k - 1]`).
    passed: Option<(i32, Option<Move>, u8)>,
    /// A solve stops at the first look at the clock past this many nodes
    /// (tests stop a solve where they choose; `u64::MAX` otherwise).
    node_limit: u64,
    /// What the cut model's shallow searches proved (see `selective.rs`).
    probed: selective::Probed,
}

impl Solver {
    /// A solver with a table of `tt_mib` MiB (at least 1), and one of
    /// [`NEAR_MIB`] MiB (at most the first) for the nodes near the end, ordering moves
    /// with `eval` at high empties when one is given.
    ///
    /// # Panics
    /// When the allocator refuses a table; [`Solver::try_new`] reports
    /// that as an error instead.
    pub fn new(tt_mib: usize, eval: Option<OthelloEval>) -> Solver {
        Solver::try_new(tt_mib, eval).unwrap_or_else(|e| panic!("{}", e.line()))
    }

    /// As [`Solver::new`], with the allocator's refusal of a table as an
    /// error.
    ///
    /// # Errors
    /// [`Error::Alloc`] naming `tt_mib` and the size.
    pub fn try_new(tt_mib: usize, eval: Option<OthelloEval>) -> Result<Solver, Error> {
        let tt = TranspositionTable::try_new(tt_mib.max(1))
            .map_err(|e| Error::alloc(format!("tt_mib {tt_mib}"), e))?;
        let near = TranspositionTable::try_new(NEAR_MIB.min(tt_mib.max(1)))
            .map_err(|e| Error::alloc(format!("tt_mib {tt_mib}"), e))?;
        Ok(Solver::around(
            Arc::new(tt),
            Arc::new(near),
            selective::Probed::new(),
            eval,
        ))
    }

    /// A solver as [`Solver::try_new`] makes one, around these tables
    /// (empty).
    fn around(
        tt: Arc<TranspositionTable>,
        near: Arc<TranspositionTable>,
        probed: selective::Probed,
        eval: Option<OthelloEval>,
    ) -> Solver {
        Solver {
            tt,
            near,
            nodes: 0,
            eval,
            eval_from: EVAL_SORT,
            deadline: None,
            next_check: 0,
            aborted: false,
            busy: None,
            stop: parallel::stop_flag(),
            interrupt: None,
            helpers: Vec::new(),
            endcut: None,
            selective: 0,
            root_hint: None,
            passed: None,
            node_limit: u64::MAX,
            probed,
        }
    }

    /// This solver's tables, emptied, in a solver otherwise as
    /// [`Solver::try_new`] makes one (one thread, no stop flag, the same
    /// ordering evaluation) with the same cut model: what an engine starts
    /// each game with when its tables' pages are already backed, without
    /// handing them back to the system and asking for them again.
    pub fn renewed(self) -> Solver {
        let Solver {
            tt,
            near,
            eval,
            mut probed,
            endcut,
            ..
        } = self;
        tt.clear();
        near.clear();
        probed.clear();
        Solver {
            endcut,
            ..Solver::around(tt, near, probed, eval)
        }
    }

    /// The table of nodes of `n` empties.
    #[inline(always)]
    fn table(&self, n: u32) -> &TranspositionTable {
        if n <= NEAR_MAX {
            &self.near
        } else {
            &self.tt
        }
    }

    /// A helper of `main`: its tables and stop flag, a copy of its
    /// evaluation.
    fn sharing(main: &Solver) -> Solver {
        Solver {
            tt: Arc::clone(&main.tt),
            near: Arc::clone(&main.near),
            nodes: 0,
            eval: main.eval.clone(),
            eval_from: main.eval_from,
            deadline: None,
            next_check: 0,
            aborted: false,
            busy: None,
            stop: Arc::clone(&main.stop),
            interrupt: None,
            helpers: Vec::new(),
            endcut: main.endcut.clone(),
            selective: 0,
            root_hint: None,
            passed: None,
            node_limit: u64::MAX,
            probed: selective::Probed::new(),
        }
    }

    /// Forgets every position solved before (the tables), so the next
    /// solve depends on its position alone (`arena solve` between
    /// problems; an engine keeps its tables between the moves of a game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.near.clear();
        self.probed.clear();
        for h in &mut self.helpers {
            h.probed.clear();
        }
    }

    /// Has the operating system back the tables' every page now (see
    /// [`TranspositionTable::back_pages`]), so a timed solve does not
    /// spend its time on them.
    pub fn back_pages(&self) {
        self.tt.back_pages();
        self.near.back_pages();
    }

    /// From now on every solve stops when `flag` is set (looked at with
    /// the deadline), its answer then worth nothing: `solve_until` gives
    /// `None`. The helper threads stop with this one.
    pub fn stop_when(&mut self, flag: &Arc<AtomicBool>) {
        self.interrupt = Some(Arc::clone(flag));
    }

    /// Solves `b` exactly.
    pub fn solve(&mut self, b: &Board) -> Solution {
        self.solve_window(b, -64, 64)
    }

    /// Solves `b` within `(alpha, beta)`: exact when the value is inside,
    /// otherwise a bound (fail-soft). The move is the best one found.
    pub fn solve_window(&mut self, b: &Board, alpha: i32, beta: i32) -> Solution {
        self.deadline = None;
        self.solve_inner(b, alpha, beta)
    }

    /// Solves `b` exactly unless `deadline` passes first (`None` then).
    pub fn solve_until(&mut self, b: &Board, deadline: Instant) -> Option<Solution> {
        self.deadline = Some(deadline);
        let s = self.solve_inner(b, -64, 64);
        self.deadline = None;
        (!self.aborted).then_some(s)
    }

    /// The last selective pass that finished in the last solve (of this
    /// thread), when that solve did not finish: what a timed engine plays
    /// instead of the exact answer it did not get, as Edax does. `None`
    /// when the solve finished, ran no passes or finished none.
    pub fn last_pass(&self) -> Option<Pass> {
        let (score, best_move, k) = self.passed.filter(|_| self.aborted)?;
        Some(Pass {
            score,
            best_move,
            confidence: CONFIDENCE[usize::from(k) - 1],
            nodes: self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::parse_position;
    use crate::game::Game;
    use crate::search::{Searcher, ZeroEval, INFINITY};

    #[test]
    fn agrees_with_a_full_search_on_random_endgames() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for _ in 0..60 {
            let mut b = Board::start();
            let mut moves = crate::game::MoveList::new();
            let target = 6 + rng.below(7) as u32; // 6 to 12 empties
            while b.empties() > target && !b.is_over() {
                moves.clear();
                b.generate_moves(&mut moves);
                b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
            }
            let mut s: Searcher<Board, ZeroEval> = Searcher::new(ZeroEval, 0, vec![]);
            let want = s.alphabeta_soft(&b, -INFINITY, INFINITY, 64, 0);
            let got = Solver::new(1, None).solve(&b);
            assert_eq!(
                got.score,
                want,
                "{}",
                crate::game::othello::board_string(&b)
            );
            if let Some(mv) = got.best_move {
                let after = b.play(mv);
                let v = -s.alphabeta_soft(&after, -INFINITY, INFINITY, 64, 0);
                assert_eq!(v, want, "the move reaches the value");
            }
        }
    }

    #[test]
    fn several_threads_find_the_one_thread_scores() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut one = Solver::new(4, None);
        let mut three = Solver::new(4, Some(crate::endgame::builtin::order_eval()));
        three.set_threads(3);
        three.eval_from = 12;
        assert_eq!(three.threads(), 3);
        for _ in 0..12 {
            let mut b = Board::start();
            let mut moves = crate::game::MoveList::new();
            let target = 14 + rng.below(5) as u32; // 14 to 18 empties
            while b.empties() > target && !b.is_over() {
                moves.clear();
                b.generate_moves(&mut moves);
                b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
            }
            let want = one.solve(&b);
            let got = three.solve(&b);
            let text = crate::game::othello::board_string(&b);
            assert_eq!(got.score, want.score, "{text}");
            if let Some(mv) = got.best_move {
                let after = one.solve(&b.play(mv));
                assert_eq!(
                    -after.score, want.score,
                    "the move reaches the value: {text}"
                );
            }
            // A window and a deadline far away: the same again.
            let far = Instant::now() + Duration::from_secs(600);
            assert_eq!(
                three.solve_until(&b, far).map(|s| s.score),
                Some(want.score)
            );
        }
        // A deadline already past stops every thread: no answer (24
        // empties take far more nodes than the 16,384 between checks).
        let mut b = Board::start();
        let mut moves = crate::game::MoveList::new();
        while b.empties() > 24 {
            moves.clear();
            b.generate_moves(&mut moves);
            b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
        }
        assert!(three.solve_until(&b, Instant::now()).is_none());
    }

    #[test]
    fn ffo_1_is_plus_18_with_g8() {
        let b =
            parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
                .unwrap();
        let s = Solver::new(16, None).solve(&b);
        assert_eq!(s.score, 18);
        assert_eq!(s.best_move.unwrap().to_string(), "g8");
    }

    #[test]
    fn a_renewed_solver_solves_as_a_new_one() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo/fforum-1-19.obf");
        let text = std::fs::read_to_string(&path).unwrap();
        let positions: Vec<Board> = obf::parse(&text, &path)
            .unwrap()
            .into_iter()
            .map(|p| p.board)
            .collect();
        // With the selective passes from 14 empties, which a renewed solver
        // keeps running (an engine renews its solver every game).
        let cut = || Some(builtin::endcut(14));
        let mut used = Solver::new(4, Some(builtin::order_eval()));
        used.set_endcut(cut());
        // The same positions: what the tables kept would shorten the solves.
        for b in &positions[1..4] {
            used.solve(b);
        }
        let mut renewed = used.renewed();
        let mut fresh = Solver::new(4, Some(builtin::order_eval()));
        fresh.set_endcut(cut());
        let (mut plain, mut passes) = (
            Solver::new(4, Some(builtin::order_eval())),
            Solver::new(4, Some(builtin::order_eval())),
        );
        passes.set_endcut(cut());
        assert!(positions[1..4].iter().all(|b| b.empties() >= 14));
        for b in &positions[1..4] {
            assert_ne!(
                plain.solve(b).nodes,
                passes.solve(b).nodes,
                "the passes ran"
            );
            let (got, want) = (renewed.solve(b), fresh.solve(b));
            assert_eq!(
                (got.score, got.best_move, got.nodes),
                (want.score, want.best_move, want.nodes)
            );
        }
    }
}
