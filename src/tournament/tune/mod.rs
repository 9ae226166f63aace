//! SPSA tuning as a tournament format (`format: Spsa(...)`): one engine
//! against itself, θ+ against θ−, its numbers stepped after each
//! iteration ([`crate::stats::spsa`] has the method). The config's tune is
//! checked here ([`Tune::check`]); its games come from a
//! [`TuneScheduler`], each carrying the values its two sides play; the
//! game threads build each side's engine from the [`TuneBase`]; the run's
//! end writes `tuned.ron` ([`output`]).

pub mod base;
pub mod external;
pub mod output;
pub mod scheduler;

use crate::book::OpeningOrder;
use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::records::tune::TuneParam;
use crate::records::{Format, Shard};
use crate::search::Limit;
use crate::stats::spsa::Spsa;
use crate::tournament::schedule::Schedule;
use crate::util::Source;
pub use base::TuneBase;
pub use scheduler::{Trajectory, TuneScheduler};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A checked tune.
#[derive(Clone, Debug)]
pub struct Tune {
    /// Its settings as the config writes them (the record's format).
    pub format: Format,
    /// The method, its parameters and gains.
    pub spsa: Arc<Spsa>,
    /// Pairs each iteration plays.
    pub pairs_per_iteration: u64,
    /// The engine it changes.
    pub base: TuneBase,
    /// The names θ+ and θ− play under (engines 0 and 1 of the run).
    pub names: [String; 2],
    /// How the config names the engine.
    pub named: Named,
    /// The engine file's text when the tune started (`tuned.ron` keeps
    /// it, comments and all).
    pub text: Option<String>,
    /// Where the engine's relative paths start.
    pub folder: PathBuf,
    /// The limit it plays with (the run's, when it states none).
    pub limit: Option<Limit>,
}

/// How a tune's config names its engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Named {
    /// An engine file (relative to where arena runs, as the config's
    /// folder and the file's path give it).
    File(PathBuf),
    /// `FILE.ron:FIELD=VALUE` or a program, as `arena match` takes it.
    Arg(String),
    /// Written in the config.
    Inline,
}

/// The parameters and pairs per iteration of the tune `format` (in the
/// config `src`), and the one engine of `engines` it tunes.
///
/// # Errors
/// [`Error::Config`] naming the field: not exactly one engine, no pair per
/// iteration; [`Error::Internal`]: a format that is not `Spsa`.
fn spsa_parts<'a>(
    src: &Source<'_>,
    format: &'a Format,
    engines: &'a [EngineSpec],
) -> Result<(&'a [TuneParam], u64, &'a EngineSpec)> {
    let Format::Spsa {
        params,
        pairs_per_iteration,
        ..
    } = format
    else {
        return Err(Error::Internal(
            "a tune of a format that is not Spsa".into(),
        ));
    };
    let [engine] = engines else {
        return Err(src.field(
            "engines",
            format!(
                "a tune plays one engine against itself: list exactly one, got {}",
                engines.len()
            ),
        ));
    };
    if *pairs_per_iteration == 0 {
        return Err(src.field("pairs_per_iteration", "must be at least 1"));
    }
    Ok((params, *pairs_per_iteration, engine))
}

/// Most corners of a tune's box that its check builds an engine for
/// (ten parameters).
const MAX_CORNERS: usize = 1 << 10;

impl Tune {
    /// The tune of `format` (a `Spsa`, in the config `src`) on `engines`
    /// (the config's, loaded: exactly one, named in the config as `named`),
    /// whose relative paths start from `folder`, seeded `seed`: the tune,
    /// and the two engines of the run, θ+ and θ− at the start.
    ///
    /// # Errors
    /// [`Error::Config`] naming the config's file, line and field: a list
    /// that is not one engine, a setting out of range, a field the engine
    /// does not have or that is not a number, a bound the engine refuses.
    pub fn check(
        src: &Source<'_>,
        format: &Format,
        engines: &[EngineSpec],
        (folder, named): (&Path, Named),
        seed: u64,
    ) -> Result<(Tune, Vec<EngineSpec>)> {
        let (params, pairs_per_iteration, engine) = spsa_parts(src, format, engines)?;
        let param = |i: usize| src.entry("params", i);
        let base = TuneBase::new(engine, folder, params).map_err(|(i, m)| match i {
            Some(i) => param(i).field("field", m),
            None => src.field("params", m),
        })?;
        let spsa = format
            .spsa(seed, base.integer())
            .ok_or_else(|| Error::Internal("a Spsa format without its tune".into()))?;
        spsa.check().map_err(|e| match e.param {
            Some(i) => param(i).field(e.field, e.message),
            None => src.field(e.field, e.message),
        })?;
        if matches!(base, TuneBase::External(_)) && !matches!(named, Named::File(_)) {
            return Err(src.field(
                "engines",
                "an external engine is tuned from its engine file: name it with Path(\"FILE.ron\")",
            ));
        }
        let name = base.name().to_string();
        let tune = Tune {
            format: format.clone(),
            spsa: Arc::new(spsa),
            pairs_per_iteration,
            base,
            names: [format!("{name}+"), format!("{name}-")],
            text: match &named {
                Named::File(f) => Some(crate::util::text::read_text(f)?),
                Named::Arg(_) | Named::Inline => None,
            },
            named,
            folder: folder.to_path_buf(),
            limit: engine.limit(),
        };
        tune.check_bounds(params, &param)?;
        let start = tune.spsa.start();
        let sides = tune
            .names
            .iter()
            .map(|n| tune.base.engine(n, &start))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|m| param(0).field("start", m))?;
        Ok((tune, sides))
    }

    /// Every parameter's start, least and greatest value make an engine
    /// its checks accept (the others at their start), and so does every
    /// corner of their box.
    fn check_bounds<'a>(
        &self,
        params: &[TuneParam],
        param: &dyn Fn(usize) -> Source<'a>,
    ) -> Result<()> {
        let start = self.spsa.start();
        for (i, p) in params.iter().enumerate() {
            for (field, v) in [("start", p.start), ("min", p.min), ("max", p.max)] {
                let mut values = start.clone();
                values[i] = v;
                if let Err(m) = self.base.engine(&self.names[0], &values) {
                    return Err(param(i).field(
                        field,
                        format!(
                            "{} = {}: the engine refuses it: {m}",
                            p.field,
                            crate::stats::spsa::short(v)
                        ),
                    ));
                }
            }
        }
        self.check_corners(params, param)
    }

    /// Every corner of the parameters' box (each at its least or greatest
    /// value) makes an engine its checks accept, for fields that limit
    /// each other (`endgame_selective_at` above `endgame_exact_at`): a θ
    /// the engine refused would lose its games as forfeits and bend the
    /// tune. Up to [`MAX_CORNERS`] corners are checked.
    fn check_corners<'a>(
        &self,
        params: &[TuneParam],
        param: &dyn Fn(usize) -> Source<'a>,
    ) -> Result<()> {
        let n = params.len();
        if n < 2 || 1usize << n.min(63) > MAX_CORNERS {
            return Ok(());
        }
        for corner in 0..1usize << n {
            let at_max = |i: usize| corner >> i & 1 == 1;
            let values: Vec<f64> = (0..n)
                .map(|i| {
                    if at_max(i) {
                        params[i].max
                    } else {
                        params[i].min
                    }
                })
                .collect();
            if let Err(m) = self.base.engine(&self.names[0], &values) {
                let text: Vec<String> = (0..n)
                    .map(|i| format!("{} = {}", params[i].field, values[i]))
                    .collect();
                let last = n - 1;
                return Err(param(last).field(
                    if at_max(last) { "max" } else { "min" },
                    format!(
                        "the bounds together make an engine its checks refuse ({}): {m}; narrow them",
                        text.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The engine of side `side` (0: θ+, 1: θ−) playing `values`.
    ///
    /// # Errors
    /// What the engine's checks say of the values.
    pub fn engine(&self, side: usize, values: &[f64]) -> std::result::Result<EngineSpec, String> {
        self.base.engine(&self.names[side], values)
    }

    /// The scheduler of the tune's games, openings from `order`.
    pub fn scheduler(&self, order: OpeningOrder) -> TuneScheduler {
        let pairs = self
            .spsa
            .schedule
            .iterations
            .saturating_mul(self.pairs_per_iteration);
        let fixed = Schedule::of_meetings(vec![(0, 1)], pairs, order, Shard::ALL);
        TuneScheduler::new(fixed, self.trajectory())
    }

    /// θ of this tune, before any game.
    pub fn trajectory(&self) -> Trajectory {
        Trajectory::new(
            Arc::clone(&self.spsa),
            self.pairs_per_iteration,
            &self.names[0],
        )
    }

    /// Most games the tune can play at once: its `delay + 1` iterations
    /// that may be in flight together.
    pub fn most_at_once(&self) -> u64 {
        (self.spsa.schedule.delay + 1)
            .saturating_mul(self.pairs_per_iteration)
            .saturating_mul(2)
    }

    /// The warning for a process that plays this tune on `threads` game
    /// threads, more than [`Tune::most_at_once`] games can keep busy (the
    /// rest wait for the whole run); `None` when every thread can play.
    /// One line, naming the settings.
    pub fn idle_warning(&self, threads: usize) -> Option<String> {
        let most = self.most_at_once();
        let threads = u64::try_from(threads).unwrap_or(u64::MAX);
        if threads <= most {
            return None;
        }
        Some(format!(
            "tune: concurrency {threads} is more game threads than the tune keeps busy: delay {} and pairs_per_iteration {} let at most {most} games play at once (2 x (delay + 1) x pairs_per_iteration), so {} threads wait; raise delay or pairs_per_iteration (a new tune) or lower concurrency",
            self.spsa.schedule.delay,
            self.pairs_per_iteration,
            threads - most
        ))
    }
}
