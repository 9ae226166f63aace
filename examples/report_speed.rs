//! How long `report.html` takes to render from computed results, and what
//! the rest of `arena report` costs around it, on a results folder (the
//! README's figures use `configs/report-10k.ron`, 10,000 games):
//!
//! ```sh
//! cargo run --release -- run configs/report-10k.ron --quiet
//! cargo run --release --example report_speed -- results/report-10k
//! ```
//!
//! It reads the folder once, then times reading the journal, `analyse`
//! and rendering the page, each the median of 21 runs (nothing is
//! written).

use arena::records::journal;
use arena::report::{analyse, report_html};
use arena::tournament::read_info;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const RUNS: usize = 21;

/// The median, fastest and slowest of `RUNS` calls of `f`, in ms.
fn time<T>(mut f: impl FnMut() -> T) -> (f64, f64, f64) {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(times[RUNS / 2]), ms(times[0]), ms(times[RUNS - 1]))
}

fn main() -> anyhow::Result<()> {
    let dir: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or_else(|| anyhow::anyhow!("usage: report_speed RESULTS_DIR"))?;
    let info = read_info(&dir)?;
    let journal = dir.join("journal.jsonl");
    let games = journal::read(&journal)?.games;
    let results = analyse(&info, &games);
    let page = report_html(&info, &results, &games, "now");
    println!(
        "{}: {} games in the journal, {} counted; report.html {} bytes",
        dir.display(),
        games.len(),
        results.games,
        page.len()
    );
    let show = |what: &str, (median, min, max): (f64, f64, f64)| {
        println!("{what:<22} median {median:7.2} ms  (min {min:.2}, max {max:.2}; {RUNS} runs)");
    };
    show(
        "read the journal",
        time(|| journal::read(&journal).map(|c| c.games.len())),
    );
    show("analyse", time(|| analyse(&info, &games)));
    show(
        "render report.html",
        time(|| report_html(&info, &results, &games, "now")),
    );
    Ok(())
}
