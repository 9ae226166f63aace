//! The state one search carries from node to node: the evaluation, the
//! transposition table, move-ordering tables (killers, history), the
//! principal-variation table, counters and the stop control. The variants
//! (`minimax.rs`, `negamax.rs`, `alphabeta.rs`, `pvs.rs`, `mtdf.rs`) are
//! methods on [`Searcher`], each in its own file.
//!
//! Nothing here allocates after [`Searcher::new`]: the tables live in the
//! searcher and are reused by every node and every search.

use super::limits::Stop;
use super::order_by::OrderBy;
use super::tt::TranspositionTable;
use super::{Evaluator, SearchGame, SearchStats, MAX_PLY, MOVE_SLOTS};
use crate::error::Error;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A search in progress (or ready for the next one).
pub struct Searcher<G: SearchGame, E: Evaluator<G>> {
    /// The static evaluation.
    pub eval: E,
    /// The transposition table, when the engine has one (shared with the
    /// helper threads of a parallel search).
    pub tt: Option<Arc<TranspositionTable>>,
    /// Move-ordering options, highest priority first.
    pub order: Vec<OrderBy>,
    /// Counters of the current search (reset by the driver).
    pub stats: SearchStats,
    /// Node and time limits of the current search.
    pub stop: Stop,
    /// Move to search first at the root (the previous iteration's best).
    pub root_first: Option<G::Move>,
    /// ProbCut parameters, when the engine uses ProbCut.
    pub probcut: Option<super::probcut::ProbCut>,
    /// True inside ProbCut's shallow searches (which do not nest).
    pub(super) in_probcut: bool,
    pub(super) killers: Box<[[Option<G::Move>; 2]; MAX_PLY]>,
    pub(super) history: Box<[[u32; MOVE_SLOTS]; 2]>,
    pv: Box<[[G::Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Best move of the last root search, even when every move failed low.
    pub(super) root_best: Option<G::Move>,
    /// The last root move of the current iteration whose search finished
    /// and raised alpha (proven better than every move searched before it,
    /// the previous iteration's best first), with its score: what an
    /// iteration aborted by the clock still tells (alpha-beta, PVS and
    /// MTD(f), whose passes are alpha-beta searches).
    pub(super) root_proven: Option<(G::Move, i32)>,
    /// Whether killers/history/shallow ordering are on (cached from `order`).
    pub(super) flags: OrderFlags,
    /// Set when this searcher is a helper thread of a parallel search: the
    /// main search sets the flag when it is done, which stops this one.
    pub(super) helper_of: Option<Arc<AtomicBool>>,
    /// Set from outside to abandon the search at once, even in its first
    /// iteration (see [`Searcher::stop_when`]).
    pub(super) interrupt: Option<Arc<AtomicBool>>,
    /// The positions the threads of a parallel search are searching now,
    /// shared by all of them (none on one thread; see `abdada.rs`).
    pub(super) busy: Option<Arc<super::busy::Busy>>,
}

/// Which ordering tables are in use.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct OrderFlags {
    pub killers: bool,
    pub history: bool,
    pub any: bool,
    /// The table's move comes first and no other key can change while it
    /// is searched (no history, no shallow search: a killer of this ply
    /// changes only on this node's own cutoff), so the other moves are
    /// sorted only if it does not cut (`Rest` in ordering.rs).
    pub hash_first: bool,
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with `eval`, a table of `tt_mib` MiB (none for 0) and the
    /// ordering options `order` (highest priority first).
    ///
    /// # Panics
    /// When the allocator refuses the table; [`Searcher::try_new`] reports
    /// that as an error instead.
    pub fn new(eval: E, tt_mib: usize, order: Vec<OrderBy>) -> Self {
        Searcher::try_new(eval, tt_mib, order).unwrap_or_else(|e| panic!("{}", e.line()))
    }

    /// As [`Searcher::new`], with the allocator's refusal of the table as
    /// an error.
    ///
    /// # Errors
    /// [`Error::Alloc`] naming `tt_mib` and the size.
    pub fn try_new(eval: E, tt_mib: usize, order: Vec<OrderBy>) -> Result<Self, Error> {
        let tt = match tt_mib {
            0 => None,
            mib => Some(Arc::new(
                TranspositionTable::try_new(mib)
                    .map_err(|e| Error::alloc(format!("tt_mib {mib}"), e))?,
            )),
        };
        Ok(Searcher::with_table(eval, tt, order))
    }

    /// A fresh searcher around the table `tt` (none, new, emptied, or
    /// shared): what [`Searcher::new`] makes with a table of its own.
    pub fn with_table(eval: E, tt: Option<Arc<TranspositionTable>>, order: Vec<OrderBy>) -> Self {
        let flags = OrderFlags {
            killers: order.contains(&OrderBy::Killers),
            history: order.contains(&OrderBy::History),
            any: !order.is_empty(),
            hash_first: order.first() == Some(&OrderBy::HashMove)
                && !order.contains(&OrderBy::History)
                && !order.contains(&OrderBy::ShallowSearch),
        };
        Searcher {
            eval,
            tt,
            order,
            stats: SearchStats::default(),
            stop: Stop::none(),
            root_first: None,
            probcut: None,
            in_probcut: false,
            killers: Box::new([[None; 2]; MAX_PLY]),
            history: Box::new([[0; MOVE_SLOTS]; 2]),
            pv: Box::new([[G::Move::default(); MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            root_best: None,
            root_proven: None,
            flags,
            helper_of: None,
            interrupt: None,
            busy: None,
        }
    }

    /// A helper thread's searcher for a parallel search with this one:
    /// the same evaluation, ordering and ProbCut, this searcher's table
    /// (shared), its own killers and history, stopped by `flag`.
    pub fn helper(&self, flag: &Arc<AtomicBool>) -> Self
    where
        E: Clone,
    {
        let mut helper =
            Searcher::with_table(self.eval.clone(), self.tt.clone(), self.order.clone());
        helper.probcut = self.probcut.clone();
        helper.helper_of = Some(Arc::clone(flag));
        helper
    }

    /// From now on every search stops when `flag` is set, looked at as
    /// often as the clock (every few thousand nodes), in every iteration
    /// including the first: the search returns at once with what it has
    /// (`arena serve` abandons a search so, when the GUI pings). The
    /// helpers of a parallel search need no flag: they stop with the main
    /// search. A search that nothing stops runs exactly as without one.
    pub fn stop_when(&mut self, flag: &Arc<AtomicBool>) {
        self.interrupt = Some(Arc::clone(flag));
    }

    /// Forgets what earlier searches learnt (table, killers, history), so the
    /// next search gives the same result as on a fresh searcher.
    pub fn clear(&mut self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
        self.killers.fill([None; 2]);
        for h in self.history.iter_mut() {
            h.fill(0);
        }
        self.root_first = None;
    }

    /// The principal variation found by the last search (empty for MTD(f),
    /// which reads it from the table instead).
    pub fn pv(&self) -> &[G::Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// Best move of the last root search.
    pub fn root_best(&self) -> Option<G::Move> {
        self.root_best
    }

    /// One search of `pos` at `depth` with `variant` and the full window
    /// (MTD(f) from a first guess of 0): the value every exact variant
    /// agrees on, for the side to move.
    pub fn full_window(&mut self, pos: &G, variant: super::Variant, depth: u32) -> i32 {
        use super::{Fail, Variant, INFINITY};
        match variant {
            Variant::Minimax => self.minimax(pos, depth),
            Variant::Negamax => self.negamax(pos, depth),
            Variant::AlphaBeta { fail: Fail::Hard } => {
                self.alphabeta_hard(pos, -INFINITY, INFINITY, depth, 0)
            }
            Variant::AlphaBeta { fail: Fail::Soft } => {
                self.alphabeta_soft(pos, -INFINITY, INFINITY, depth, 0)
            }
            Variant::Pvs => self.pvs(pos, -INFINITY, INFINITY, depth, 0),
            Variant::MtdF => self.mtdf(pos, depth, 0),
        }
    }

    /// Counts a node; true when the search must stop.
    #[inline(always)]
    pub(super) fn visit(&mut self) -> bool {
        self.stats.nodes += 1;
        self.stop.check(self.stats.nodes)
    }

    /// Value of a finished game for the side to move.
    #[inline]
    pub(super) fn terminal(&self, pos: &G) -> i32 {
        super::final_value(&self.eval, pos)
    }

    /// Starts the PV line at `ply` as empty.
    #[inline(always)]
    pub(super) fn pv_clear(&mut self, ply: usize) {
        if ply < MAX_PLY {
            self.pv_len[ply] = 0;
        }
    }

    /// The PV at `ply` becomes `mv` followed by the PV at `ply + 1`.
    #[inline]
    pub(super) fn pv_update(&mut self, ply: usize, mv: G::Move) {
        if ply + 1 >= MAX_PLY {
            return;
        }
        let n = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Takes `v`, the value of the `i`-th move `mv` of a fail-soft node of
    /// `pos` (PVS and fail-soft alpha-beta, on one thread or split): keeps
    /// the best value and move, the root's move and proven score, raises
    /// alpha and keeps the PV. True on a beta cutoff, recorded for killers
    /// and history.
    #[inline(always)]
    pub(super) fn take_soft(
        &mut self,
        node: &mut SoftNode<G::Move>,
        pos: &G,
        i: usize,
        mv: G::Move,
        v: i32,
    ) -> bool {
        if v <= node.best {
            return false;
        }
        node.best = v;
        node.best_move = mv;
        let ply = node.ply;
        if ply == 0 {
            self.root_best = Some(mv);
        }
        if v <= node.alpha {
            return false;
        }
        node.alpha = v;
        if ply == 0 {
            self.root_proven = Some((mv, v));
        }
        self.pv_update(ply, mv);
        if v < node.beta {
            return false;
        }
        self.record_cutoff(pos, mv, ply, node.depth, i == 0);
        true
    }

    /// Records the move that caused a beta cutoff, for killers and history.
    #[inline]
    pub(super) fn record_cutoff(
        &mut self,
        pos: &G,
        mv: G::Move,
        ply: usize,
        depth: u32,
        first: bool,
    ) {
        self.stats.beta_cutoffs += 1;
        if first {
            self.stats.first_move_cutoffs += 1;
        }
        if self.flags.killers && ply < MAX_PLY {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.flags.history {
            let side = usize::from(pos.first_player_to_move());
            let h = &mut self.history[side][G::move_slot(mv)];
            *h = h.saturating_add(depth * depth);
        }
    }
}

/// A fail-soft node's moves so far: the best value and move, and its
/// window as raised by them (see [`Searcher::take_soft`]).
pub(super) struct SoftNode<M> {
    pub best: i32,
    pub best_move: M,
    pub alpha: i32,
    pub beta: i32,
    pub depth: u32,
    pub ply: usize,
}

impl<M> SoftNode<M> {
    /// A node with no move searched yet: `first` stands as its move until
    /// one scores above -infinity.
    #[inline(always)]
    pub fn new(first: M, alpha: i32, beta: i32, depth: u32, ply: usize) -> Self {
        SoftNode {
            best: -super::INFINITY,
            best_move: first,
            alpha,
            beta,
            depth,
            ply,
        }
    }
}
