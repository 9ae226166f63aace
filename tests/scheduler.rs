//! The scheduler seam: a format of the caller's, including one that waits
//! for results, runs through the same runner and stays deterministic.

use crate::tournament::{config, games, opts, three_engines, tmp};
use arena::tournament::{self, GameRecord, Shard};

/// A format whose games depend on results: pair 0 is engines 0 and 1; pair
/// 1 pits the winner of pair 0 (more points over its two games; engine 0 on
/// a tie) against engine 2. It waits until pair 0 is in.
struct WinnerStays {
    order: arena::book::OpeningOrder,
    next_game: u64,
}

impl tournament::Scheduler for WinnerStays {
    fn total(&self) -> u64 {
        4
    }

    fn next(&mut self, finished: &tournament::Finished<'_>) -> tournament::Next {
        use tournament::{Next, Pairing};
        let g = self.next_game;
        let (a, b) = match g / 2 {
            0 => (0, 1),
            1 => {
                let pair0: Vec<&GameRecord> =
                    finished.games.iter().filter(|r| r.pair_id == 0).collect();
                if pair0.len() < 2 {
                    return Next::Wait;
                }
                let points =
                    |name: &str| -> f64 { pair0.iter().map(|r| r.points_of(name).unwrap()).sum() };
                let winner = if points("ab1") > points("random") {
                    1
                } else {
                    0
                };
                (winner, 2)
            }
            _ => return Next::Done,
        };
        self.next_game += 1;
        let (black, white) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
        Next::Play(Pairing {
            pair_id: g / 2,
            game_id: g,
            round: g / 2,
            opening_id: self.order.pick(g / 2).index,
            opening_repeated: false,
            black,
            white,
            tune: None,
        })
    }
}

#[test]
fn a_scheduler_may_wait_for_results_and_stays_deterministic() {
    let dir = tmp("winner-stays");
    let (_, t) = config(&dir, "RoundRobin(rounds: 1)", &three_engines(), "");
    let mut runs = Vec::new();
    for (name, threads) in [("one", 1), ("four", 4)] {
        let out = dir.join(name);
        let scheduler = Box::new(WinnerStays {
            order: t.order.clone(),
            next_game: 0,
        });
        tournament::run_with(
            &t,
            scheduler,
            &opts(&out, threads, Shard::ALL, false),
            &mut tournament::Silent,
        )
        .unwrap();
        runs.push(games(&out));
    }
    assert_eq!(runs[0], runs[1]);
    let g = &runs[0];
    assert_eq!(g.len(), 4);
    let points = |name: &str| -> f64 { g[..2].iter().map(|r| r.points_of(name).unwrap()).sum() };
    let winner = if points("ab1") > points("random") {
        "ab1"
    } else {
        "random"
    };
    assert_eq!((g[2].black.as_str(), g[2].white.as_str()), (winner, "pvs2"));
    assert_eq!((g[3].black.as_str(), g[3].white.as_str()), ("pvs2", winner));
    // Its folder reads back: report checks the games against the run's
    // engines, not against the format's fixed schedule it did not follow.
    let report = tournament::report(&dir.join("one"));
    assert!(report.is_ok(), "{:?}", report.err());
}

/// A scheduler that waits for a result that never comes.
struct WaitsForever;

impl tournament::Scheduler for WaitsForever {
    fn total(&self) -> u64 {
        2
    }

    fn next(&mut self, _: &tournament::Finished<'_>) -> tournament::Next {
        tournament::Next::Wait
    }
}

#[test]
fn a_scheduler_that_waits_with_nothing_in_flight_is_an_error_not_a_hang() {
    let dir = tmp("waits");
    let (_, t) = config(&dir, "RoundRobin(rounds: 1)", &three_engines(), "");
    let e = tournament::run_with(
        &t,
        Box::new(WaitsForever),
        &opts(&dir.join("o"), 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("waits for results but no game is in flight"),
        "{e}"
    );
}
