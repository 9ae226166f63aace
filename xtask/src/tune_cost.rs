//! `cargo xtask tune-cost [--rounds N] [--iterations N]`: what a tune
//! costs beyond its games. A tune of the depth-1 alpha-beta engine
//! (engines/alphabeta-d6.ron at Depth(1), one pair an iteration) against
//! `arena match` of the same engine against itself with as many pairs, on
//! the same book at the same concurrency, in alternating rounds (the order
//! swapped each round) on this checkout's build. The tuned number is the
//! engine's `seed`, which its search never uses: the tune plays the
//! match's games, so what differs is the tune's own work (its schedule,
//! θ, a player built for each pair's values, the values in the journal).
//! Prints each round's wall and user CPU and the median ratios (tune over
//! match).

use crate::compare::{start, times, Times};
use crate::{build_arena, root, scratch, Result};
use std::time::Instant;

/// The tune's config, playing into `out`.
fn config(iterations: u64, out: &std::path::Path) -> String {
    let root = root();
    format!(
        r#"Tournament(
    name: "tune-cost",
    engines: [Path({engine:?})],
    format: Spsa(
        params: [(field: "seed", start: 500, min: 0, max: 1000, c_end: 10, r_end: 0.002)],
        iterations: {iterations}, pairs_per_iteration: 1, delay: 8,
    ),
    book: (file: {book:?}, order: Sequential),
    limit: Some(Depth(1)),
    concurrency: 2,
    out: {out:?},
)
"#,
        engine = root.join("engines/alphabeta-d6.ron").display(),
        book = root.join("openings/all-4ply.txt").display(),
        out = out.display(),
    )
}

/// Runs the measurement; true when every run succeeded.
pub fn run(args: &[String]) -> Result<bool> {
    let (mut rounds, mut iterations) = (5usize, 2000u64);
    let mut words = args.iter();
    while let Some(w) = words.next() {
        let mut number = |name: &str| -> Result<u64> {
            let n = words.next().ok_or(format!("{name} needs a number"))?;
            n.parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(format!("{name} {n}: give a whole number of at least 1"))
        };
        match w.as_str() {
            "--rounds" => rounds = number("--rounds")? as usize,
            "--iterations" => iterations = number("--iterations")?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let binary = build_arena(&root(), &root().join("target"))?;
    let dir = scratch().join("tune-cost");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let config_path = dir.join("tune.ron");
    let commands = |label: &str| -> Result<[Vec<String>; 2]> {
        let tune_out = dir.join(format!("tune-{label}"));
        std::fs::write(&config_path, config(iterations, &tune_out))
            .map_err(|e| format!("{}: {e}", config_path.display()))?;
        let engine = root()
            .join("engines/alphabeta-d6.ron")
            .display()
            .to_string();
        let book = root().join("openings/all-4ply.txt").display().to_string();
        let match_out = dir.join(format!("match-{label}")).display().to_string();
        let tune = ["run", &config_path.display().to_string(), "--quiet"];
        let pairs = iterations.to_string();
        let matchup = [
            "match",
            &engine,
            &engine,
            "--pairs",
            &pairs,
            "--depth",
            "1",
            "--book",
            &book,
            "--concurrency",
            "2",
            "--out",
            &match_out,
            "--quiet",
        ];
        Ok([&tune[..], &matchup[..]].map(|a| a.iter().map(|s| s.to_string()).collect()))
    };
    let mut all: Vec<[Times; 2]> = Vec::new();
    println!("round  tune wall  match wall  tune user  match user");
    for round in 0..rounds {
        let label = (round + 1).to_string();
        let args = commands(&label)?;
        let mut t = [Times::default(); 2];
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            let name = format!("{}-{label}", ["tune", "match"][i]);
            let began = Instant::now();
            t[i] = times(start(&binary, &args[i], None, &dir, &name)?, began, &name)?;
        }
        println!(
            "{:>5}  {:>8.3}s  {:>9.3}s  {:>8.3}s  {:>9.3}s",
            round + 1,
            t[0].wall.as_secs_f64(),
            t[1].wall.as_secs_f64(),
            t[0].user.as_secs_f64(),
            t[1].user.as_secs_f64()
        );
        all.push(t);
    }
    let median = |f: &dyn Fn(&[Times; 2]) -> f64| {
        let mut v: Vec<f64> = all.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let wall = median(&|t| t[0].wall.as_secs_f64() / t[1].wall.as_secs_f64());
    let user = median(&|t| t[0].user.as_secs_f64() / t[1].user.as_secs_f64());
    println!(
        "tune of {iterations} iterations / match of {iterations} pairs, median of {rounds} rounds: wall {wall:.3}, user CPU {user:.3}"
    );
    Ok(true)
}
