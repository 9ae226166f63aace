//! `arena run`, `arena report` and `arena merge`: tournaments.

use super::{observe, print};
use crate::engine::external::reaper;
use crate::tournament::config::Overrides;
use crate::tournament::runner::stops::{StopRequest, Stops};
use crate::tournament::workers::{self, WorkerOptions};
use crate::tournament::{self, RunObserver, RunOptions, Shard, Tournament};
use crate::util::sys::StopSignal;
use crate::Error;
use crossbeam_channel::Receiver;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Duration;

/// Arguments of `arena run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The tournament config (RON)
    pub config: PathBuf,
    /// Game threads (games at once), 1 to 256, instead of the config's
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub concurrency: Option<usize>,
    /// Output folder, instead of the config's
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play only slice K of N (pairs p with p % N == K - 1); merge slices with `arena merge`
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Resume, overwrite, quiet, events.
    #[command(flatten)]
    pub folder: FolderArgs,
    /// Rounds of a round-robin or gauntlet, instead of the config's
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,
    /// Seed, instead of the config's
    #[arg(long)]
    pub seed: Option<u64>,
    /// With a config's `speed`: multiply clocks and move times by F (0.01
    /// to 100) instead of measuring this machine (also ARENA_SPEED_FACTOR)
    #[arg(long, value_name = "F", value_parser = parse_speed_factor)]
    pub speed_factor: Option<f64>,
    /// Play as one worker of a run that workers share in the output folder
    /// (any number, on any machine that sees it): ID names this worker and
    /// stays the same when a scheduler requeues it; `auto` takes it from
    /// SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX
    #[arg(long, value_name = "ID", conflicts_with = "shard")]
    pub worker: Option<String>,
    /// With --worker: how long a worker's heartbeat may be silent before
    /// another worker takes over the pairs it claimed (5m, 90s)
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "5m", requires = "worker")]
    pub stale_after: Duration,
    /// Adjudication (--resign, --draw, --adjudicate-solve), instead of the config's.
    #[command(flatten)]
    pub adjudication: super::adjudication::AdjudicationArgs,
}

/// What to do with an output folder that holds a run, and how much to say:
/// shared by `arena run` and `arena match`.
#[derive(Debug, clap::Args)]
pub struct FolderArgs {
    /// Continue the journal in the output folder (after a kill or Ctrl-C)
    #[arg(long, conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the journal and results in the output folder, starting afresh
    #[arg(long)]
    pub overwrite: bool,
    /// Print nothing but errors (no per-game lines, no result blocks)
    #[arg(long)]
    pub quiet: bool,
    /// In a pipe, the result block every N pairs (0: only the final one;
    /// default 10; 0 for a worker of a round-robin, a gauntlet or an SPRT,
    /// which then follows the run's lead rather than read every journal)
    #[arg(long, value_name = "N")]
    pub ratinginterval: Option<u64>,
    /// Also write the run as JSON lines to FILE (replaced if it exists),
    /// flushed line by line: one object per finished game, per update of
    /// the statistics, and one at the end ("finished" or "stopped")
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// After SIGTERM, how long the games in flight may go on before they
    /// are abandoned (played again on --resume): 10s, 500ms, 1m
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "10s")]
    pub stop_grace: Duration,
    /// With --resume (or --worker): continue or join a run another arena
    /// build (or other engine programs) started; recorded, and noted in
    /// the results
    #[arg(long)]
    pub allow_mixed_builds: bool,
}

impl FolderArgs {
    /// The run options these flags give (with Ctrl-C and SIGTERM as stop
    /// requests).
    ///
    /// # Errors
    /// [`Error::Usage`]: `--allow-mixed-builds` without `--resume` or
    /// `--worker` (`worker`: whether the command has that flag, and
    /// whether it was given).
    pub fn run_options(&self, worker: Option<bool>) -> Result<RunOptions, Error> {
        if self.allow_mixed_builds && !self.resume && worker != Some(true) {
            let needs = match worker {
                Some(_) => "--resume or --worker",
                None => "--resume",
            };
            return Err(Error::usage(
                "allow_mixed_builds",
                format!("is for a run continued or joined: give it with {needs}"),
            ));
        }
        Ok(RunOptions {
            resume: self.resume,
            overwrite: self.overwrite,
            allow_mixed_builds: self.allow_mixed_builds,
            stop: stop_requests().map(|requests| Stops {
                requests,
                grace: self.stop_grace,
            }),
            ..RunOptions::default()
        })
    }

    /// What the run of `t` into `out` shows (`--quiet`, a terminal or not;
    /// as a `worker` of a run whose pairs need no result, no result block
    /// unless `--ratinginterval` asks) and
    /// writes (`--events`, opened once the run's folder is locked and
    /// checked).
    ///
    /// # Errors
    /// [`Error::Usage`] naming `--events` when it is a file of the run
    /// itself: its config, a file an engine reads, its book, anything in
    /// its output folder (nothing is touched).
    pub fn observer(
        &self,
        t: &Tournament,
        out: &Path,
        worker: bool,
    ) -> crate::Result<Box<dyn RunObserver>> {
        if let Some(events) = &self.events {
            if let Some(what) = t.owns(events, out) {
                return Err(Error::usage(
                    "events",
                    format!(
                        "{} is {what}: the events file must be another file",
                        crate::error::path_text(events)
                    ),
                ));
            }
        }
        let events = self.events.as_deref();
        let every = match self.ratinginterval {
            Some(n) => n,
            // A worker that shows nothing of the run follows its lead.
            None if worker && t.plan.format().results_free() => 0,
            None => observe::EVERY_PAIRS,
        };
        Ok(observe::observer(self.quiet, every, events))
    }
}

/// Arguments of `arena report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A results folder (with journal.jsonl and tournament.json, or the
    /// workers/ of a run played by workers)
    pub dir: PathBuf,
    /// Print results.json instead of the text report
    #[arg(long)]
    pub json: bool,
    /// For a run played by workers that is neither decided nor complete:
    /// exit 0, not 1 (the results are written marked partial either way)
    #[arg(long)]
    pub allow_partial: bool,
}

/// Arguments of `arena status`.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// The folder of a run played by workers (`arena run --worker`)
    pub dir: PathBuf,
}

/// Arguments of `arena merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Results folders of shards of one config
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The folder to write the merged run to (must not hold a journal)
    #[arg(long)]
    pub out: PathBuf,
    /// Merge the shards that are there, finished or not, and mark the
    /// results partial (a partial SPRT never decides)
    #[arg(long)]
    pub allow_partial: bool,
    /// Merge shards of different arena builds or engine programs (their
    /// tournament.json's build); the results note it
    #[arg(long)]
    pub allow_mixed_builds: bool,
}

/// The process exit code `c`.
pub fn code(c: u8) -> ExitCode {
    ExitCode::from(c)
}

/// Runs `arena run`.
///
/// # Errors
/// A bad config, an output folder of another run, I/O.
pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(|message| Error::Usage {
            argument: "--shard".into(),
            message,
        })?,
        None => Shard::ALL,
    };
    let overrides = Overrides {
        rounds: args.rounds,
        seed: args.seed,
        adjudicate: args.adjudication.settings()?,
    };
    let worker = match &args.worker {
        Some(id) => Some(WorkerOptions {
            id: worker_id(id)?,
            stale_after: args.stale_after,
            allow_mixed_builds: args.folder.allow_mixed_builds,
        }),
        None => None,
    };
    let Some(t) = load_unless_stopped(&args.config, overrides)? else {
        crate::util::eprint_line(
            "stopped while the config was read and checked: nothing was played or written",
        );
        return Ok(code(tournament::EXIT_STOPPED));
    };
    let out = args.out.as_deref().unwrap_or(&t.out);
    let mut observer = args.folder.observer(&t, out, worker.is_some())?;
    let options = RunOptions {
        concurrency: args.concurrency,
        out: args.out.clone(),
        shard,
        speed_factor: speed_factor(args.speed_factor)?,
        ..args.folder.run_options(Some(args.worker.is_some()))?
    };
    let outcome = match &worker {
        Some(w) => reaping(|| workers::run_worker(&t, &options, w, &mut observer))?.0,
        None => reaping(|| tournament::run(&t, &options, &mut observer))?,
    };
    Ok(code(outcome.exit_code))
}

/// The config at `path`, loaded and checked with `overrides` (a matrix of
/// thousands of engines takes seconds), or `None` when Ctrl-C or SIGTERM
/// comes first: their handlers are installed before, so a stop is
/// answered at once from the moment the config is read (the loading
/// thread ends with the process).
///
/// # Errors
/// The config's errors; a panic while loading it, as an internal error.
fn load_unless_stopped(path: &Path, overrides: Overrides) -> crate::Result<Option<Tournament>> {
    let Some(stops) = stop_requests() else {
        return Tournament::load_with(path, &overrides).map(Some);
    };
    let (done, loaded) = crossbeam_channel::bounded(1);
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let t = crate::util::panic::guard(|| Tournament::load_with(&path, &overrides));
        let _ = done.send(t);
    });
    crossbeam_channel::select! {
        recv(loaded) -> t => match t {
            Ok(Ok(t)) => t.map(Some),
            Ok(Err(panic)) => Err(Error::Internal(format!("loading the config failed: {panic}"))),
            Err(_) => Err(Error::Internal("the thread loading the config ended without a word".into())),
        },
        recv(stops) -> _ => Ok(None),
    }
}

/// The worker ID `--worker` gives: as written, or for `auto` the array
/// index the batch system sets.
///
/// # Errors
/// [`Error::Usage`] (exit 2) naming `--worker`.
fn worker_id(given: &str) -> crate::Result<String> {
    if given != "auto" {
        workers::check_id(given).map_err(|message| Error::Usage {
            argument: "--worker".into(),
            message,
        })?;
        return Ok(given.to_string());
    }
    let (variable, id) = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
        .iter()
        .find_map(|v| Some((*v, std::env::var(v).ok().filter(|s| !s.trim().is_empty())?)))
        .ok_or_else(|| Error::Usage {
            argument: "--worker".into(),
            message: "auto takes the ID from SLURM_ARRAY_TASK_ID (a Slurm array job) or JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), and neither is set: give the ID".into(),
        })?;
    workers::check_id(&id).map_err(|why| Error::Usage {
        argument: format!("{variable} (read by --worker auto)").into(),
        message: format!("not a worker ID: {why}"),
    })?;
    Ok(id)
}

/// Runs `play` with this process the reaper of its engines' descendants,
/// and ends whatever of them is left when it returns (or panics).
pub fn reaping<T>(play: impl FnOnce() -> T) -> T {
    struct Sweep;
    impl Drop for Sweep {
        fn drop(&mut self) {
            reaper::sweep_orphans();
        }
    }
    reaper::become_subreaper();
    let _sweep = Sweep;
    play()
}

/// `10s`, `500ms`, `1m` (a bare number is seconds), at most a day.
pub(super) fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit_ms) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        (t, 1000.0)
    };
    let x: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a duration: give e.g. 10s, 500ms or 1m"))?;
    let ms = x * unit_ms;
    if !(0.0..=86_400_000.0).contains(&ms) {
        return Err(format!("{text:?} is not 0 to 24 hours"));
    }
    Ok(Duration::from_millis(ms.round() as u64))
}

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP as a channel of stop requests
/// (`None` when the handlers cannot be installed: then they end the
/// process as usual; see [`crate::util::sys::on_stop_signals`]).
/// Installed once; every caller gets the same channel.
pub fn stop_requests() -> Option<Receiver<StopRequest>> {
    static REQUESTS: OnceLock<Option<Receiver<StopRequest>>> = OnceLock::new();
    REQUESTS
        .get_or_init(|| {
            let (tx, rx) = crossbeam_channel::unbounded();
            let installed = crate::util::sys::on_stop_signals(move |signal| {
                let request = match signal {
                    StopSignal::Interrupt => StopRequest::Interrupt,
                    StopSignal::Terminate => StopRequest::Terminate,
                };
                tx.send(request).is_ok()
            });
            installed.then_some(rx)
        })
        .clone()
}

/// Runs `arena report`.
///
/// # Errors
/// A missing or bad journal.
pub fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    if tournament::folder::is_worker_folder(&args.dir) {
        return report_workers(args);
    }
    let (info, results) = tournament::report(&args.dir)?;
    if args.json {
        print(&serde_json::to_string_pretty(&results)?)?;
    } else {
        print(&results.final_text(super::paint()))?;
        print(&super::observe::report_line(&args.dir))?;
    }
    Ok(code(tournament::exit_code(&info, &results)))
}

/// `arena report` of a run played by workers: its results, written from
/// every worker's journal; exit 1 (unless `--allow-partial`) when the run
/// is neither decided nor complete, naming what it lacks.
fn report_workers(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let r = workers::report::report(&args.dir)?;
    if args.json {
        print(&serde_json::to_string_pretty(&r.results)?)?;
    } else {
        print(&r.results.final_text(super::paint()))?;
        print(&super::observe::report_line(&args.dir))?;
    }
    match &r.missing {
        Some(what) if !args.allow_partial => Err(Error::Run(
            format!(
                "{}: the run is neither decided nor complete ({what}); its results are written marked partial (pass --allow-partial to exit 0)",
                args.dir.display()
            )
            .into(),
        )
        .into()),
        _ => Ok(code(tournament::exit_code(&r.info, &r.results))),
    }
}

/// Runs `arena status`.
///
/// # Errors
/// Not a worker run's folder, a bad journal.
pub fn status(args: &StatusArgs) -> anyhow::Result<ExitCode> {
    let s = workers::status::status(&args.dir)?;
    print(s.text(&args.dir).trim_end())?;
    Ok(code(0))
}

/// Runs `arena merge`.
///
/// # Errors
/// Folders of different configs, an occupied output folder, I/O.
pub fn merge(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let opts = tournament::MergeOptions {
        allow_partial: args.allow_partial,
        allow_mixed_builds: args.allow_mixed_builds,
    };
    let (info, results) = tournament::merge(&args.dirs, &args.out, &opts)?;
    print(&results.final_text(super::paint()))?;
    print(&format!(
        "Merged {} games into {}",
        results.games_played,
        args.out.display()
    ))?;
    print(&super::observe::report_line(&args.out))?;
    Ok(code(tournament::exit_code(&info, &results)))
}

/// `--speed-factor F`: a number from 0.01 to 100.
pub(super) fn parse_speed_factor(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if (0.01..=100.0).contains(&f) => Ok(f),
        _ => Err(format!(
            "{text:?}: give a factor from 0.01 to 100, like 1.25"
        )),
    }
}

/// The speed factor `--speed-factor` gives (`flag`), else
/// ARENA_SPEED_FACTOR's.
pub(super) fn speed_factor(flag: Option<f64>) -> std::result::Result<Option<f64>, Error> {
    match flag {
        Some(f) => Ok(Some(f)),
        None => speed_factor_from_env(),
    }
}

/// ARENA_SPEED_FACTOR, when set: as `--speed-factor`.
fn speed_factor_from_env() -> std::result::Result<Option<f64>, Error> {
    match std::env::var("ARENA_SPEED_FACTOR") {
        Ok(text) => parse_speed_factor(&text)
            .map(Some)
            .map_err(|why| Error::usage("speed_factor", format!("ARENA_SPEED_FACTOR {why}"))),
        Err(_) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_grace_reads_seconds_milliseconds_and_minutes() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("0s"), Ok(Duration::ZERO));
        for bad in ["", "ten", "-1s", "10h", "25000m"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
