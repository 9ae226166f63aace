//! The solver on several threads: every thread searches the same root
//! with the same tables (lockless, see [`crate::search::tt`]), and a node
//! defers a child that another thread is searching right now to after its
//! other moves (Weill's ABDADA in Kerrigan's simplified form: the first
//! move of a node is always searched, as the young brothers wait for the
//! eldest in YBWC). The threads so split the tree between them, each
//! finding in the tables what the others have proved. The first thread to
//! finish the root gives the answer; the rest stop. Every score a thread
//! computes is exact for its window, whatever the others store, so the
//! result equals one thread's; the node counts are the sum over threads
//! and vary from run to run.

use super::{Solution, Solver};
use crate::game::othello::Board;
use crate::search::busy::Busy;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// Nodes with at least this many empties defer busy children: below, a
/// subtree is too small for the bookkeeping to pay.
pub(super) const DEFER_MIN: u32 = 11;

impl Solver {
    /// Solves on `threads` threads from now on (1: this thread alone). The
    /// helpers share this solver's tables and each has a copy of its
    /// ordering evaluation.
    pub fn set_threads(&mut self, threads: usize) {
        self.helpers.clear();
        if threads <= 1 {
            self.busy = None;
            return;
        }
        let busy = Arc::new(Busy::default());
        self.busy = Some(Arc::clone(&busy));
        for _ in 1..threads {
            let mut helper = Solver::sharing(self);
            helper.busy = Some(Arc::clone(&busy));
            self.helpers.push(helper);
        }
    }

    /// Threads a solve runs on.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// `b` in `(alpha, beta)` on this thread and every helper; the first
    /// to finish answers. `None` when the deadline stopped them all.
    pub(super) fn solve_together(&mut self, b: &Board, alpha: i32, beta: i32) -> Solution {
        let start = Instant::now();
        self.stop.store(false, Relaxed);
        if let Some(busy) = &self.busy {
            busy.clear();
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let (deadline, eval_from) = (self.deadline, self.eval_from);
        let (mine, theirs) = std::thread::scope(|s| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    h.deadline = deadline;
                    h.eval_from = eval_from;
                    s.spawn(move || {
                        let r = h.search_root(b, alpha, beta);
                        if !h.aborted {
                            h.stop.store(true, Relaxed);
                        }
                        (r, h.aborted, h.nodes)
                    })
                })
                .collect();
            let mine = self.search_root(b, alpha, beta);
            self.stop.store(true, Relaxed);
            let theirs: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect();
            (mine, theirs)
        });
        self.helpers = helpers;
        let nodes = self.nodes + theirs.iter().map(|t| t.2).sum::<u64>();
        // This thread's answer, or a helper's that finished when this one
        // was stopped by it (never one stopped by the deadline).
        let (score, best_move) = if self.aborted {
            match theirs.iter().find(|t| !t.1) {
                Some(t) => {
                    self.aborted = false;
                    t.0
                }
                None => mine,
            }
        } else {
            mine
        };
        Solution {
            score,
            best_move,
            nodes,
            elapsed: start.elapsed(),
        }
    }

    /// Whether the other threads have finished the solve (checked with the
    /// deadline).
    #[inline]
    pub(super) fn told_to_stop(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Whether the solve was abandoned from outside (checked with the
    /// deadline).
    #[inline]
    pub(super) fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|f| f.load(Relaxed))
    }
}

/// A fresh stop flag.
pub(super) fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}
