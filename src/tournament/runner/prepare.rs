//! What a run needs before its first game, owned by the runner: the
//! options the caller gives ([`RunOptions`]) and how a run ended
//! ([`RunOutcome`], [`EXIT_STOPPED`]); the record of the run in its folder
//! ([`info`]); the checks of its game threads, tables, memory and
//! programs; the warnings it starts with; the exit code its results call
//! for.

use super::game_thread::PlayerFactory;
use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::records::rounds::Rounds;
use crate::records::{BookInfo, Shard, SpeedInfo, TournamentInfo};
use crate::report::Results;
use crate::search::Limit;
use crate::stats::Verdict;
use crate::tournament::config::options::MAX_CONCURRENCY;
use crate::tournament::config::{Plan, Tournament};
use crate::tournament::schedule::{ByResults, Gauntlet, RoundRobin, SprtSchedule};
use crate::tournament::{memory, schedule};
use std::path::PathBuf;

/// How to run a tournament (the command line's overrides).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Game threads, instead of the config's.
    pub concurrency: Option<usize>,
    /// Output folder, instead of the config's.
    pub out: Option<PathBuf>,
    /// The slice of pairs to play.
    pub shard: Shard,
    /// Continue the journal in the output folder.
    pub resume: bool,
    /// Replace a journal in the output folder.
    pub overwrite: bool,
    /// With `resume`: another build of arena or of its engine programs
    /// may continue the run (`--allow-mixed-builds`); the results note it.
    pub allow_mixed_builds: bool,
    /// Stop requests (Ctrl-C, SIGTERM): the first stops scheduling and lets
    /// the games in flight finish (after SIGTERM, for the grace at most);
    /// the second abandons them. Either way the outputs are written, marked
    /// stopped, and `--resume` continues.
    pub stop: Option<super::stops::Stops>,
    /// The factor of a config's `speed` given rather than measured
    /// (`--speed-factor`, ARENA_SPEED_FACTOR), as a test or a user who
    /// knows the machine sets it.
    pub speed_factor: Option<f64>,
    /// How players are built (the engine files' players by default; tests
    /// plug in their own).
    pub players: PlayerFactory,
}

/// How a run ended.
#[derive(Debug)]
pub struct RunOutcome {
    /// The results, as written to results.json.
    pub results: Results,
    /// Where they were written.
    pub out: PathBuf,
    /// Process exit code: 3 when the SPRT accepted H0 and `fail_on_h0` is
    /// set, 130 when stopped before the end.
    pub exit_code: u8,
}

/// Exit code of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT).
pub const EXIT_STOPPED: u8 = 130;

/// The scheduler of `t`'s games on one machine, in the slice `shard`: one
/// function for every format, a tune's included (its games carry values
/// only its own scheduler knows).
///
/// # Errors
/// [`Error::Usage`] naming `shard` for a tune split into shards.
pub(crate) fn scheduler(t: &Tournament, shard: Shard) -> Result<Box<dyn schedule::Scheduler>> {
    let (n, order) = (t.engines.len(), t.order.clone());
    Ok(match t.plan {
        Plan::Tune(_) if shard != Shard::ALL => {
            return Err(Error::usage(
                "shard",
                "a tune is one run: each iteration plays values that earlier ones' results decide, so its pairs cannot be split into shards",
            ))
        }
        Plan::Knockout { .. } | Plan::Swiss { .. } if shard != Shard::ALL => {
            return Err(Error::usage(
                "shard",
                "a knockout or a Swiss is one run: each round pairs by the results before it, so its pairs cannot be split into shards (workers on one folder can share it)",
            ))
        }
        Plan::Knockout { .. } | Plan::Swiss { .. } => {
            let rounds = Rounds::of(&t.plan.format(), &t.engine_names())
                .ok_or_else(|| Error::Internal("a knockout or Swiss without its rounds".into()))?;
            Box::new(ByResults::new(rounds, order))
        }
        Plan::Tune(ref tune) => Box::new(tune.scheduler(order)),
        Plan::RoundRobin { rounds } => Box::new(RoundRobin::new(n, rounds, order, shard)),
        Plan::Gauntlet {
            challengers,
            rounds,
        } => Box::new(Gauntlet::new(challengers, n, rounds, order, shard)),
        Plan::Sprt { max_pairs, .. } => Box::new(SprtSchedule::new(max_pairs, order, shard)),
    })
}

/// The record of a tournament in its output folder.
pub fn info(t: &Tournament, shard: Shard) -> TournamentInfo {
    let format = t.plan.format();
    TournamentInfo {
        config_hash: t.hash.clone(),
        name: t.name.clone(),
        engines: t.engine_names(),
        total_pairs: schedule::total_pairs(&format, t.engines.len()),
        format,
        book: match &t.book_settings {
            Some(b) => BookInfo {
                file: b.file.display().to_string(),
                openings: t.book.len(),
                order: b.order,
                start: b.start,
            },
            None => BookInfo::none(),
        },
        seed: t.seed,
        fail_on_h0: t.fail_on_h0,
        shard: shard.to_string(),
        partial: None,
        game: t.game,
        custom_schedule: false,
        workers: false,
        adjudicate: Some(crate::records::AdjudicateInfo {
            solve_at_empties: t.adjudicate.solve_at_empties,
            resign: t.adjudicate.resign,
            draw: t.adjudicate.draw,
        }),
        build: None,
        mixed_builds: None,
        resumed_builds: None,
        family: Some(t.family.clone()),
        time_control: one_clock(t),
        config: Some(t.normal_form.clone()),
        // The driver measures it (or takes the forced factor).
        speed: None,
    }
}

/// The clock every engine of `t` plays on (random movers aside), in GGS's
/// form; none when they play to depths, per-move times or clocks of their
/// own.
fn one_clock(t: &Tournament) -> Option<String> {
    let mut clocks = t.engines.iter().filter_map(EngineSpec::limit);
    let first = clocks.next()?;
    match first {
        Limit::Clock(base, inc) if clocks.all(|l| l == first) => {
            Some(crate::records::ggs_clock(base, inc))
        }
        _ => None,
    }
}

/// How the run of `t` scales its clocks and move times here, when its
/// config asks (`speed`): by `forced`, or by the config's reference over
/// the nodes a second `arena bench`'s positions run at on this machine
/// (one thread, the median of 3 runs).
pub(crate) fn speed(t: &Tournament, forced: Option<f64>) -> Option<SpeedInfo> {
    let s = t.speed?;
    Some(match forced {
        Some(factor) => SpeedInfo {
            factor,
            nps: None,
            reference_nps: s.reference_nps,
        },
        None => {
            let mut runs: Vec<f64> = (0..3)
                .map(|_| crate::engine::bench::bench(crate::engine::bench::DEFAULT_DEPTH).nps)
                .collect();
            runs.sort_by(f64::total_cmp);
            let nps = runs[1].max(1.0);
            SpeedInfo {
                factor: s.reference_nps as f64 / nps,
                nps: Some(nps),
                reference_nps: s.reference_nps,
            }
        }
    })
}

/// The exit code results call for.
pub fn exit_code(info: &TournamentInfo, results: &Results) -> u8 {
    if info.fail_on_h0 && results.verdict() == Some(Verdict::H0) {
        3
    } else {
        0
    }
}

/// Checks, before any game, that the machine gives each engine's tables to
/// `threads` game threads at once (their sum is [`check_memory`]'s).
///
/// # Errors
/// [`Error::Alloc`] naming the engine and its `tt_mib`.
pub(crate) fn check_tables(t: &Tournament, threads: usize) -> Result<()> {
    for e in t.engines.iter().filter_map(EngineSpec::in_process) {
        e.check_tables(threads).map_err(|err| match err {
            Error::Alloc { setting, source } => Error::Alloc {
                setting: format!("engine {:?}: {setting}", e.name),
                source,
            },
            other => other,
        })?;
    }
    Ok(())
}

/// Checks, before any game, that the memory the machine has available
/// (what the system has, within this process's cgroup and address-space
/// limits) holds what the run will: the players `threads` game threads
/// keep with their tables, and the results and ratings of its engines
/// ([`memory::Held`]). Nothing is checked where the machine does not say.
///
/// # Errors
/// [`Error::Memory`] naming the setting behind the larger part.
pub(crate) fn check_memory(t: &Tournament, threads: usize) -> Result<()> {
    let Some(available) = crate::util::sys::available_memory() else {
        return Ok(());
    };
    let format = t.plan.format();
    let held = memory::Held::of(&t.engines, &format, threads);
    if held.total() <= available {
        return Ok(());
    }
    Err(held.refusal(&t.engines, &format, threads, available))
}

/// Checks, before any game, that every external engine's program starts.
///
/// # Errors
/// [`Error::Start`] naming the engine and the program.
pub(crate) fn check_programs(t: &Tournament) -> Result<()> {
    for e in &t.engines {
        if let EngineSpec::External(x) = e {
            x.check_starts()?;
        }
    }
    Ok(())
}

/// What the run warns of before its first game: each external engine's
/// limit that its protocol cannot carry.
pub(crate) fn engine_warnings(t: &Tournament) -> Vec<String> {
    let external = t.engines.iter().filter_map(|e| match e {
        EngineSpec::External(x) => Some(x),
        EngineSpec::Engine(_) => None,
    });
    external.filter_map(|x| x.limit_note()).collect()
}

/// The game threads the caller asks for instead of the config's, checked.
///
/// # Errors
/// [`Error::Usage`] outside 1 to [`MAX_CONCURRENCY`].
pub(crate) fn check_concurrency(concurrency: usize) -> Result<usize> {
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        return Err(Error::usage(
            "concurrency",
            format!("{concurrency} threads: must be 1 to 256"),
        ));
    }
    Ok(concurrency)
}
