//! An ordered parallel map on scoped threads, for offline work (fitting,
//! labelling) whose results must not depend on the number of threads.

/// Runs `f` over `items` on `threads` threads, results in item order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1);
    let mut out: Vec<(usize, R)> = Vec::with_capacity(items.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let f = &f;
                scope.spawn(move || {
                    items
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % threads == t)
                        .map(|(i, x)| (i, f(x)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            out.extend(h.join().expect("parallel_map workers do not panic"));
        }
    });
    out.sort_by_key(|r| r.0);
    out.into_iter().map(|r| r.1).collect()
}
