//! A search on several threads: the main search runs beside helper
//! searches of the same position, each with its own killers and history
//! but the main search's transposition table, all deepening to the same
//! depths. They split the tree rather than repeat it: a node defers a move
//! another thread is searching (simplified ABDADA, `abdada.rs`), so each
//! thread finds in the table what the others proved. The main search alone
//! decides the move, and when it is done the helpers are told to stop.
//! Their nodes count in the outcome's total.
//!
//! Unlike one thread, the result depends on how the threads were timed:
//! two runs of the same search may differ (searching to the end, the
//! score does not).

use super::busy::Busy;
use super::deepening::{search, SearchOutcome, SearchSettings};
use super::limits::{ClockState, MAX_DEPTH};
use super::searcher::Searcher;
use super::{Evaluator, Limit, SearchGame};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// Searches `pos` with `main` on this thread and every helper (made by
/// [`Searcher::helper`]) on a thread of its own; `main`'s outcome, with
/// the helpers' counters added. Without helpers this is [`search`].
pub fn search_together<G, E>(
    main: &mut Searcher<G, E>,
    helpers: &mut [Searcher<G, E>],
    pos: &G,
    settings: &SearchSettings,
    clock: Option<ClockState>,
    moves_left: u32,
) -> SearchOutcome<G::Move>
where
    G: SearchGame + Sync,
    G::Move: Send,
    E: Evaluator<G> + Send,
{
    let flags: Vec<Arc<AtomicBool>> = helpers.iter().filter_map(|h| h.helper_of.clone()).collect();
    if flags.is_empty() {
        return search(main, pos, settings, clock, moves_left);
    }
    for f in &flags {
        f.store(false, Relaxed);
    }
    // The main search claims and defers as the helpers do, during this
    // search only (alone, it runs as on one thread).
    main.busy = helpers.iter().find_map(|h| h.busy.clone());
    if let Some(busy) = &main.busy {
        busy.clear();
    }
    // The helpers stop when the main search is done, not by a depth or a
    // node count of their own; a time limit stays, as a safety.
    let theirs = SearchSettings {
        limit: match settings.limit {
            Limit::Depth(_) | Limit::Nodes(_) => Limit::Depth(MAX_DEPTH),
            time @ (Limit::MoveTime(_) | Limit::Clock(..)) => time,
        },
        ..*settings
    };
    let out = std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .map(|h| {
                let theirs = &theirs;
                s.spawn(move || search(h, pos, theirs, clock, moves_left).stats)
            })
            .collect();
        // Dropped when the main search is done, and also when it panics:
        // the scope waits for the helpers before the panic goes on, and
        // under a depth or node limit nothing else would stop them.
        let stop = StopHelpers(&flags);
        let mut out = search(main, pos, settings, clock, moves_left);
        drop(stop);
        for h in handles {
            let stats = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            out.stats.add(&stats);
        }
        out
    });
    main.busy = None;
    out
}

/// Tells the helpers to stop when dropped.
struct StopHelpers<'a>(&'a [Arc<AtomicBool>]);

impl Drop for StopHelpers<'_> {
    fn drop(&mut self) {
        for f in self.0 {
            f.store(true, Relaxed);
        }
    }
}

/// `threads - 1` helpers of `main`, stopped by one flag, sharing one
/// table of claimed positions.
pub fn helpers<G: SearchGame, E: Evaluator<G> + Clone>(
    main: &Searcher<G, E>,
    threads: usize,
) -> Vec<Searcher<G, E>> {
    let flag = Arc::new(AtomicBool::new(false));
    let busy = Arc::new(Busy::default());
    (1..threads)
        .map(|_| {
            let mut h = main.helper(&flag);
            h.busy = Some(Arc::clone(&busy));
            h
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Board;
    use crate::game::Game;
    use crate::search::testing::{random_game, Mobility};
    use crate::search::{OrderBy, Variant, ZeroEval};

    /// Positions `empties` squares from the end, by seeded random play.
    fn endgame(seed: u64, empties: u32) -> Board {
        random_game(seed, |b, _| b.empties() <= empties)
    }

    /// An evaluation that panics on the thread that made it once it has
    /// been asked `after` times there (its clones, on other threads, never
    /// do).
    #[derive(Clone)]
    struct PanicsOnItsThread {
        thread: std::thread::ThreadId,
        calls: Arc<std::sync::atomic::AtomicU64>,
        after: u64,
    }

    impl crate::search::Evaluator<Board> for PanicsOnItsThread {
        fn evaluate(&self, pos: &Board) -> i32 {
            if std::thread::current().id() == self.thread
                && self.calls.fetch_add(1, Relaxed) >= self.after
            {
                panic!("the main search's evaluation panics");
            }
            ZeroEval.evaluate(pos)
        }
    }

    #[test]
    fn a_panic_in_the_main_search_stops_the_helpers_and_goes_on() {
        // Under a depth limit the helpers search until told to stop: a
        // panic of the main search must tell them too, or the scope would
        // wait for them forever. Bounded: the search runs on a thread of
        // its own, and the test waits at most 60 s for its panic.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let eval = PanicsOnItsThread {
                thread: std::thread::current().id(),
                calls: Arc::default(),
                after: 5_000,
            };
            let settings = SearchSettings {
                time: crate::search::limits::TimeUse::default(),
                variant: Variant::Pvs,
                deepening: true,
                aspiration: None,
                limit: Limit::Depth(MAX_DEPTH),
            };
            let mut main = Searcher::new(eval, 1, vec![OrderBy::HashMove]);
            let mut team = helpers(&main, 2);
            let b = Board::start();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search_together(&mut main, &mut team, &b, &settings, None, 30)
            }));
            let _ = tx.send(result.is_err());
        });
        let panicked = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the search came back within 60 s");
        assert!(panicked, "the main search's panic reached the caller");
    }

    #[test]
    fn two_threads_searching_to_the_end_find_one_threads_exact_score() {
        let settings = SearchSettings {
            time: crate::search::limits::TimeUse::default(),
            variant: Variant::Pvs,
            deepening: true,
            aspiration: Some(50),
            limit: Limit::Depth(14),
        };
        let order = vec![OrderBy::HashMove, OrderBy::Killers, OrderBy::History];
        for seed in 0..12 {
            let b = endgame(seed, 11);
            if b.is_over() {
                continue;
            }
            // Every line ends within the depth: scores are exact.
            let mut alone = Searcher::new(ZeroEval, 4, order.clone());
            let exact = search(&mut alone, &b, &settings, None, 6).score;
            let mut main = Searcher::new(ZeroEval, 4, order.clone());
            let mut team = helpers(&main, 2);
            let out = search_together(&mut main, &mut team, &b, &settings, None, 6);
            assert_eq!(out.score, exact, "seed {seed}");
            assert!(out.stats.nodes > main.stats.nodes, "the helper searched");
        }
    }

    #[test]
    fn split_searches_to_the_end_equal_one_thread_across_many_positions() {
        // Seeded positions from 6 to 13 empties, on 2 and 3 threads, with
        // an evaluation (so the shallow iterations order the deep ones)
        // and a small table (so entries are replaced under the threads):
        // every score is one thread's, and the threads did split nodes.
        let settings = SearchSettings {
            time: crate::search::limits::TimeUse::default(),
            variant: Variant::Pvs,
            deepening: true,
            aspiration: Some(50),
            limit: Limit::Depth(20),
        };
        // The second order sorts a node's moves after its table move only
        // when that move does not cut (`Rest::Unsorted`), in the split too.
        let orders = [
            vec![OrderBy::HashMove, OrderBy::Killers, OrderBy::History],
            vec![OrderBy::HashMove, OrderBy::FastestFirst, OrderBy::Killers],
        ];
        let eval = Mobility;
        let mut deferred = 0;
        for (seed, order) in (100..164).flat_map(|s| orders.iter().map(move |o| (s, o))) {
            let b = endgame(seed, 6 + (seed % 8) as u32);
            if b.is_over() {
                continue;
            }
            let mut alone = Searcher::new(eval, 1, order.clone());
            let exact = search(&mut alone, &b, &settings, None, 6).score;
            for threads in [2, 3] {
                let mut main = Searcher::new(eval, 1, order.clone());
                let mut team = helpers(&main, threads);
                let out = search_together(&mut main, &mut team, &b, &settings, None, 6);
                assert_eq!(
                    out.score, exact,
                    "seed {seed}, {threads} threads, {order:?}"
                );
                assert!(main.busy.is_none(), "the claims are the search's alone");
                deferred += out.stats.deferred;
            }
        }
        assert!(deferred > 0, "no thread ever deferred a move");
    }
}
