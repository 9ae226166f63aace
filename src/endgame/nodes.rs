//! The solver's inner nodes: principal-variation nodes (full window) and
//! null-window nodes (with enhanced transposition cutoffs); from
//! [`SMALL`] empties down, the small-position code of `small.rs`. Every
//! node is fail-soft.

use super::last::final_score;
use super::ordering::{Moves, Scored, ToOrder};
use super::parallel::DEFER_MIN;
use super::{Discs, Solver, CHECK_EVERY, ETC_DEPTH, SMALL};
use crate::game::cpu::{Avx2, Cpu};
use crate::game::othello::bitboard::Bits;
use crate::game::othello::hash::mixed;
use crate::game::othello::shape::odd_quadrants;
use crate::game::othello::Ops;
use crate::search::tt::Bound;
use std::time::Instant;

/// Stability is checked only when alpha is at least this (by empties): below
/// it the bound cannot cut.
const STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [99; 65];
    let mut n = 4;
    while n <= 64 {
        let v = 2 * n as i32 - 4;
        t[n] = if v > 64 { 64 } else { v };
        n += 1;
    }
    t
};

/// A null-window node's table key and the move its table entry names
/// (when that move is legal there).
#[derive(Clone, Copy)]
struct Probed {
    key: u64,
    first: Option<u8>,
}

impl Solver {
    /// Counts a node; true when the deadline has passed, another thread
    /// has finished the solve or the solve was abandoned from outside
    /// (checked every 16,384 nodes), after which every node returns at
    /// once.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.told_to_stop() || self.interrupted() || self.nodes >= self.node_limit {
                self.aborted = true;
            }
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Stability bound: the opponent's stable discs cap the score.
    #[inline(always)]
    pub(super) fn stability_cut<C: Cpu>(cpu: C, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        // Even every opponent disc stable would not cut: no need to look.
        if alpha >= STABILITY_THRESHOLD[n as usize] && 64 - 2 * (o.count_ones() as i32) <= alpha {
            let upper = 64 - 2 * cpu.stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return Some(upper);
            }
        }
        None
    }

    /// Principal-variation node, window `(alpha, beta)`, fail-soft.
    #[inline]
    fn pvs<C: Cpu>(&mut self, cpu: C, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        match cpu.avx2() {
            // SAFETY: an `Avx2` token exists only where the processor has
            // the features `pvs_avx2` is compiled for.
            #[allow(unused_unsafe)]
            Some(avx2) => unsafe { self.pvs_avx2(avx2, p, o, alpha, beta, n) },
            None => self.pvs_body(cpu, p, o, alpha, beta, n),
        }
    }

    /// [`Solver::pvs`] compiled for AVX2: the recursion calls it
    /// straight, its arguments in registers (see [`crate::game::cpu`]).
    #[cfg_attr(
        target_arch = "x86_64",
        target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")
    )]
    fn pvs_avx2(&mut self, cpu: Avx2, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        self.pvs_body(cpu, p, o, alpha, beta, n)
    }

    /// The body of [`Solver::pvs`], inlined into each path's function.
    #[inline(always)]
    fn pvs_body<C: Cpu>(&mut self, cpu: C, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let d = Discs::new(p, o);
        if n <= SMALL {
            return self.small(cpu, d, alpha, beta, n, odd_quadrants(!(p | o)));
        }
        if self.tick() {
            return 0;
        }
        let moves = cpu.legal_moves(p, o);
        if moves == 0 {
            if cpu.legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.pvs(cpu, o, p, -beta, -alpha, n);
        }
        if let Some(v) = Self::stability_cut(cpu, p, o, alpha, n) {
            return v;
        }
        let key = mixed(p, o);
        let mut hash_move = None;
        if let Some(e) = self.table(n).probe(key) {
            hash_move = Some(e.best);
            if self.believes(&e) && e.bound.cuts(e.score, alpha, beta) {
                return e.score;
            }
        }
        let mut list = Moves::new();
        self.order(cpu, ToOrder::pv(d, moves, n, hash_move, alpha), &mut list);
        let alpha0 = alpha;
        let (best, best_sq) = self.search_moves(cpu, d, &list, alpha, beta, n);
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, alpha0, beta);
        self.table(n)
            .store_selective(key, n, self.mark(n), bound, best, best_sq);
        best
    }

    /// The moves of `list` (ordered), PVS style: the first with the full
    /// window, the rest with null windows and a re-search on a fail high.
    /// Returns the best value (fail-soft) and its square; stops early on
    /// abort (the caller checks). On several threads, a move whose
    /// position another thread is searching waits for a second pass.
    pub(super) fn search_moves<C: Cpu>(
        &mut self,
        cpu: C,
        Discs { p, o }: Discs,
        list: &[Scored],
        mut alpha: i32,
        beta: i32,
        n: u32,
    ) -> (i32, u8) {
        cpu.run(
            #[inline(always)]
            move || {
                let mut best = -65;
                let mut best_sq = list[0].sq;
                let mut deferred = 0u64;
                for pass in 0..2 {
                    for (i, m) in list.iter().enumerate() {
                        if pass == 1 && deferred & (1 << i) == 0 {
                            continue;
                        }
                        let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                        let claim = self.claim(pass == 0 && i > 0, np, no, n);
                        if claim == Some(0) {
                            deferred |= 1 << i;
                            continue;
                        }
                        let v = if i == 0 {
                            -self.pvs(cpu, np, no, -beta, -alpha, n - 1)
                        } else {
                            let mut v = -self.nws(cpu, np, no, -alpha - 1, n - 1);
                            if v > alpha && v < beta {
                                v = -self.pvs(cpu, np, no, -beta, -alpha, n - 1);
                            }
                            v
                        };
                        self.release(claim);
                        if self.aborted {
                            return (best, best_sq);
                        }
                        if v > best {
                            best = v;
                            best_sq = m.sq;
                            if v > alpha {
                                alpha = v;
                                if v >= beta {
                                    return (best, best_sq);
                                }
                            }
                        }
                    }
                    if deferred == 0 {
                        break;
                    }
                }
                (best, best_sq)
            },
        )
    }

    /// On several threads, at a node of at least [`DEFER_MIN`] empties,
    /// for a move that may wait (`may_defer`): `Some(0)` when another
    /// thread is searching the position after it (search it later), else
    /// `Some(key)` with the position claimed for this thread. `None`: no
    /// claim.
    #[inline]
    fn claim(&self, may_defer: bool, np: u64, no: u64, n: u32) -> Option<u64> {
        let busy = self.busy.as_ref().filter(|_| may_defer && n >= DEFER_MIN)?;
        let key = mixed(np, no) | 1;
        Some(if busy.claim(key) { key } else { 0 })
    }

    /// Gives back a position [`Solver::claim`] claimed.
    #[inline]
    fn release(&self, claim: Option<u64>) {
        if let (Some(key), Some(busy)) = (claim, &self.busy) {
            busy.release(key);
        }
    }

    /// Null-window node: is the value above `alpha` (window `(alpha,
    /// alpha + 1)`)? Fail-soft.
    #[inline]
    fn nws<C: Cpu>(&mut self, cpu: C, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        match cpu.avx2() {
            // SAFETY: an `Avx2` token exists only where the processor has
            // the features `nws_avx2` is compiled for.
            #[allow(unused_unsafe)]
            Some(avx2) => unsafe { self.nws_avx2(avx2, p, o, alpha, n) },
            None => self.nws_body(cpu, p, o, alpha, n),
        }
    }

    /// [`Solver::nws`] compiled for AVX2: the recursion calls it
    /// straight, its arguments in registers (see [`crate::game::cpu`]).
    #[cfg_attr(
        target_arch = "x86_64",
        target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")
    )]
    fn nws_avx2(&mut self, cpu: Avx2, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nws_body(cpu, p, o, alpha, n)
    }

    /// The body of [`Solver::nws`], inlined into each path's function.
    #[inline(always)]
    fn nws_body<C: Cpu>(&mut self, cpu: C, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let d = Discs::new(p, o);
        if n <= SMALL {
            return self.small(cpu, d, alpha, alpha + 1, n, odd_quadrants(!(p | o)));
        }
        if self.tick() {
            return 0;
        }
        // The table's bucket is asked for now, its cache miss served
        // while the moves and the stability bound are computed.
        let key = mixed(p, o);
        self.table(n).prefetch(key);
        let moves = cpu.legal_moves(p, o);
        if moves == 0 {
            if cpu.legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws(cpu, o, p, -alpha - 1, n);
        }
        if let Some(v) = Self::stability_cut(cpu, p, o, alpha, n) {
            return v;
        }
        let mut hash_move = None;
        if let Some(e) = self.table(n).probe(key) {
            hash_move = Some(e.best);
            if self.believes(&e) && e.bound.cuts(e.score, alpha, alpha + 1) {
                return e.score;
            }
        }
        // In a selective pass: Multi-ProbCut on the exact score.
        if let Some(v) = self.try_endcut(cpu, p, o, alpha, n, key) {
            return v;
        }
        let first = hash_move.filter(|&sq| moves >> sq & 1 == 1);
        if n >= ETC_DEPTH {
            if let Some(v) = self.etc(cpu, d, moves, Probed { key, first }, alpha, n) {
                return v;
            }
        }
        // The table's move first, before any ordering work: most often it
        // fails high, and the other moves need no keys (nor the ordering
        // evaluation's searches). The rest follow in the order they had
        // with it at their head.
        let mut best = -65;
        let mut best_sq = 0;
        let mut rest = moves;
        if let Some(sq) = first {
            let f = cpu.flips(usize::from(sq), p, o);
            let v = -self.nws(cpu, o ^ f, p ^ f ^ (1u64 << sq), -alpha - 1, n - 1);
            if self.aborted {
                return 0;
            }
            best = v;
            best_sq = sq;
            rest &= !(1u64 << sq);
        }
        if best <= alpha && rest != 0 {
            let mut list = Moves::new();
            self.order(cpu, ToOrder::null(d, rest, n, hash_move, alpha), &mut list);
            let (v, sq) = self.null_moves(cpu, d, &list, alpha, n, first.is_some());
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
            }
        }
        let bound = if best > alpha {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.table(n)
            .store_selective(key, n, self.mark(n), bound, best, best_sq);
        best
    }

    /// Enhanced transposition cutoff at a null-window node (window
    /// `(alpha, alpha + 1)`, its table key and entry's move `probed`): a
    /// child the table already proves at most `-alpha - 1` for the
    /// opponent ends the node at once, the result stored. The table's move
    /// (one of `moves`) is looked at first, then the others by square;
    /// every child's bucket is asked for before any is probed, so that
    /// their cache misses overlap.
    #[inline(always)]
    fn etc<C: Cpu>(
        &mut self,
        cpu: C,
        Discs { p, o }: Discs,
        moves: u64,
        Probed { key, first }: Probed,
        alpha: i32,
        n: u32,
    ) -> Option<i32> {
        let mut keys = arrayvec::ArrayVec::<(u64, u8), 64>::new();
        let others = moves & !first.map_or(0, |sq| 1u64 << sq);
        for sq in first.map(usize::from).into_iter().chain(Bits(others)) {
            let f = cpu.flips(sq, p, o);
            let k = mixed(o ^ f, p ^ f ^ (1u64 << sq));
            self.table(n - 1).prefetch(k);
            keys.push((k, sq as u8));
        }
        for &(k, sq) in &keys {
            if let Some(e) = self.table(n - 1).probe(k) {
                if self.believes(&e)
                    && matches!(e.bound, Bound::Upper | Bound::Exact)
                    && -e.score > alpha
                {
                    let mark = self.mark(n).max(e.selective);
                    self.table(n)
                        .store_selective(key, n, mark, Bound::Lower, -e.score, sq);
                    return Some(-e.score);
                }
            }
        }
        None
    }

    /// The moves of a null-window node, in order, until one fails high:
    /// the best value (fail-soft) and its square. As in
    /// [`Solver::search_moves`], a busy move waits for a second pass; the
    /// first of `list` never does unless `eldest_done` (the table's move,
    /// searched before the list was made, was the node's first).
    fn null_moves<C: Cpu>(
        &mut self,
        cpu: C,
        Discs { p, o }: Discs,
        list: &[Scored],
        alpha: i32,
        n: u32,
        eldest_done: bool,
    ) -> (i32, u8) {
        cpu.run(
            #[inline(always)]
            move || {
                let mut best = -65;
                let mut best_sq = list[0].sq;
                let mut deferred = 0u64;
                for pass in 0..2 {
                    for (i, m) in list.iter().enumerate() {
                        if pass == 1 && deferred & (1 << i) == 0 {
                            continue;
                        }
                        let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                        let may_defer = pass == 0 && (i > 0 || eldest_done);
                        let claim = self.claim(may_defer, np, no, n);
                        if claim == Some(0) {
                            deferred |= 1 << i;
                            continue;
                        }
                        let v = -self.nws(cpu, np, no, -alpha - 1, n - 1);
                        self.release(claim);
                        if self.aborted {
                            return (best, best_sq);
                        }
                        if v > best {
                            best = v;
                            best_sq = m.sq;
                            if v > alpha {
                                return (best, best_sq);
                            }
                        }
                    }
                    if deferred == 0 {
                        break;
                    }
                }
                (best, best_sq)
            },
        )
    }
}
