//! An ordered parallel map on scoped threads, for offline work (fitting,
//! labelling, filtering a book) whose results must not depend on the
//! number of threads, and
//! what a thread setting of 0 means (every core: [`threads`]).

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The threads a setting asks for: `asked`, or with 0 every core this
/// process may use (1 when that cannot be told).
pub fn threads(asked: usize) -> usize {
    match asked {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The cores this process may use (at least 1).
pub fn cores() -> usize {
    threads(0)
}

/// Runs `f` over `items` on `threads` threads, results in item order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    parallel_map_with(items, threads, || (), |(), x| f(x))
}

/// As [`parallel_map`], with a state per thread made by `init` (a
/// searcher, a solver, a filter) that `f` may reuse between items. `f`
/// must leave nothing in the state that changes a later item's result
/// (clear a table before each item), so the results stay independent of
/// the number of threads. Each thread takes the next item not yet taken,
/// so threads that draw slow items do fewer. A panic in `f` is the
/// caller's, with its message.
pub fn parallel_map_with<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1).min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = Vec::with_capacity(items.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (f, init, next) = (&f, &init, &next);
                scope.spawn(move || {
                    let mut state = init();
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        let Some(x) = items.get(i) else {
                            return done;
                        };
                        done.push((i, f(&mut state, x)));
                    }
                })
            })
            .collect();
        for h in handles {
            out.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
    });
    out.sort_by_key(|r| r.0);
    out.into_iter().map(|r| r.1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_item_order_for_any_number_of_threads() {
        let items: Vec<u64> = (0..101).collect();
        let one = parallel_map_with(
            &items,
            1,
            || 0u64,
            |calls, x| {
                *calls += 1;
                x * x
            },
        );
        for threads in [2, 3, 8, 200] {
            let many = parallel_map_with(&items, threads, || 0u64, |_, x| x * x);
            assert_eq!(many, one, "{threads} threads");
        }
        assert!(parallel_map_with(&[] as &[u64], 4, || (), |(), x| *x).is_empty());
    }
}
