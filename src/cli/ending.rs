//! The words of a run's end that the library hands over as data: a
//! worker's last line ([`WorkerSummary`]) and a tune's check command
//! ([`TunedCheck`]: `arena match OUT/tuned.ron BASE --depth 4 --sprt ...`).

use crate::search::Limit;
use crate::tournament::runner::observer::WorkerSummary;
use crate::tournament::tune::output::TunedCheck;

/// A worker's last line: `run decided H1 after 57 pairs; this worker (2)
/// played 30 pairs (...)`, or `run complete; ...`, with the claims naming
/// no worker it took over.
pub fn worker_line(s: &WorkerSummary) -> String {
    let (reading, wall) = s.reading;
    let played = format!(
        "this worker ({}) played {} pairs ({} games in its journal; {:.2} s of its {:.1} s reading the other workers' journals)",
        s.id,
        s.pairs,
        s.games,
        reading.as_secs_f64(),
        wall.as_secs_f64()
    );
    let mut line = match s.decided {
        Some((verdict, pairs)) => format!("run decided {verdict} after {pairs} pairs; {played}"),
        None => format!("run complete; {played}"),
    };
    if !s.unreadable.is_empty() {
        line += &format!(
            "; it took over claims that name no worker: {}",
            s.unreadable.join("; ")
        );
    }
    line
}

/// Where a tune's `tuned.ron` is and the command that checks it against
/// the engine it was tuned from (two lines and the indented command).
pub fn tuned_lines(c: &TunedCheck) -> String {
    let limit = c.limit.map(limit_flag).unwrap_or_default();
    format!(
        "Tuned engine written to {}\nCheck it against the engine it was tuned from:\n  arena match {} {}{limit} --sprt elo0={} elo1={} --max-pairs {}",
        c.tuned.display(),
        c.tuned.display(),
        c.base.display(),
        c.elo.0,
        c.elo.1,
        c.max_pairs
    )
}

/// The flag of `arena match` that makes both engines play with `limit`,
/// with a space before it: ` --depth 4`, ` --nodes 3000`, ` --movetime
/// 100`, ` --tc 10+0.1` (seconds, as `--tc` reads them).
pub fn limit_flag(limit: Limit) -> String {
    match limit {
        Limit::Depth(d) => format!(" --depth {d}"),
        Limit::Nodes(n) => format!(" --nodes {n}"),
        Limit::MoveTime(ms) => format!(" --movetime {ms}"),
        Limit::Clock(base, inc) => {
            format!(" --tc {}+{}", base as f64 / 1000.0, inc as f64 / 1000.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn each_limit_has_the_flag_arena_match_reads() {
        assert_eq!(limit_flag(Limit::Depth(4)), " --depth 4");
        assert_eq!(limit_flag(Limit::Nodes(3000)), " --nodes 3000");
        assert_eq!(limit_flag(Limit::MoveTime(100)), " --movetime 100");
        assert_eq!(limit_flag(Limit::Clock(10_000, 100)), " --tc 10+0.1");
        assert_eq!(limit_flag(Limit::Clock(400, 4)), " --tc 0.4+0.004");
    }

    #[test]
    fn the_check_command_names_both_files_the_limit_and_the_sprt() {
        let c = TunedCheck {
            tuned: "out/tuned.ron".into(),
            base: "engines/a.ron".into(),
            limit: Some(Limit::Depth(4)),
            elo: (0.0, 5.0),
            max_pairs: 20_000,
        };
        assert_eq!(
            tuned_lines(&c),
            "Tuned engine written to out/tuned.ron\nCheck it against the engine it was tuned from:\n  arena match out/tuned.ron engines/a.ron --depth 4 --sprt elo0=0 elo1=5 --max-pairs 20000"
        );
    }

    #[test]
    fn a_worker_line_says_the_verdict_and_the_claims_taken_over() {
        let mut s = WorkerSummary {
            id: "2".into(),
            pairs: 30,
            games: 60,
            decided: Some(("H1", 57)),
            reading: (Duration::from_millis(250), Duration::from_millis(12_340)),
            unreadable: Vec::new(),
            followed: false,
        };
        assert_eq!(
            worker_line(&s),
            "run decided H1 after 57 pairs; this worker (2) played 30 pairs (60 games in its journal; 0.25 s of its 12.3 s reading the other workers' journals)"
        );
        s.decided = None;
        s.unreadable = vec!["claims/7: empty".into()];
        assert!(worker_line(&s).starts_with("run complete; this worker (2)"));
        assert!(
            worker_line(&s).ends_with("; it took over claims that name no worker: claims/7: empty")
        );
    }

    proptest::proptest! {
        /// A clock's flag, read back as `--tc` reads seconds (times 1000,
        /// rounded), is the very milliseconds the tune played.
        #[test]
        fn a_clock_flag_reads_back_as_its_milliseconds(
            base in 0u64..=86_400_000,
            inc in 0u64..=86_400_000,
        ) {
            let flag = limit_flag(Limit::Clock(base, inc));
            let text = flag.strip_prefix(" --tc ").expect("a clock's flag");
            let (b, i) = text.split_once('+').expect("BASE+INC");
            let ms = |s: &str| (s.parse::<f64>().expect("seconds") * 1000.0).round() as u64;
            proptest::prop_assert_eq!((ms(b), ms(i)), (base, inc));
        }
    }
}
