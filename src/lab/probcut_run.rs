//! `arena probcut fit` and `arena probcut check` as library calls: check
//! the request, draw positions from self-play, then fit and write a ProbCut
//! file, or measure an engine's ProbCut against the full search
//! ([`super::probcut`] holds the fitting and measuring). The caller prints
//! the returned reports.

use super::probcut::{check, fit, sample_positions, CheckReport, PairFit, Sampling};
use crate::engine::EngineConfig;
use crate::game::othello::Board;
use crate::util::write_atomic;
use crate::{Error, Result};
use std::path::PathBuf;
use std::time::Instant;

/// What `arena probcut fit` was asked: its arguments, typed.
#[derive(Clone, Debug)]
pub struct ProbCutFitOptions {
    /// The engine whose evaluation, table and ordering to use, read and
    /// checked by the caller.
    pub engine: EngineConfig,
    /// The engine as the caller named it (an engine file, or one with
    /// fields changed), for errors and the file's header.
    pub engine_arg: String,
    /// Self-play games to draw positions from.
    pub games: u32,
    /// Positions to fit on.
    pub positions: u64,
    /// Seed of the games and the draw.
    pub seed: u64,
    /// Pairs as typed, `deep:shallow` each, checked after the engine
    /// loads; empty: deep 3 to `max_depth` with shallow
    /// `2·⌊deep/4⌋ + deep mod 2`, at least 1.
    pub pairs: Vec<String>,
    /// Deepest pair when `pairs` is empty.
    pub max_depth: u32,
    /// Stage bounds in empties, decreasing, ending at 0.
    pub stages: Vec<u32>,
    /// Confidence written to the file.
    pub confidence: f64,
    /// Fit the deep values of searches that already cut with the pairs
    /// fitted below them, as in play (see [`super::probcut::fit`]).
    pub nested: bool,
    /// Only positions with more empties than this (`None`: the engine's
    /// `endgame_exact_at`, or 12).
    pub min_empties: Option<u32>,
    /// The ProbCut file to write.
    pub out: PathBuf,
    /// Threads; 0 means every core.
    pub threads: usize,
    /// The command that regenerates the file, for its header, as the
    /// caller words it from these options and what the fit settled (the
    /// library knows no command line).
    pub command: fn(&ProbCutFitOptions, &ProbCutFitSettled) -> String,
}

/// What a fit settles that its options leave open, for the
/// [`ProbCutFitOptions::command`] in the file's header.
#[derive(Clone, Debug)]
pub struct ProbCutFitSettled {
    /// The pairs fitted, `(deep, shallow)`: those given, or the default
    /// ladder.
    pub pairs: Vec<(u32, u32)>,
    /// Only positions with more empties than this were drawn: the number
    /// given, or the engine's.
    pub min_empties: u32,
}

/// What `arena probcut fit` did.
#[derive(Clone, Debug)]
pub struct ProbCutFitReport {
    /// The ProbCut file written.
    pub file: PathBuf,
    /// Positions fitted on.
    pub positions: usize,
    /// Each stage's fitted pairs.
    pub pairs: Vec<PairFit>,
    /// Seconds from drawing the positions to writing the file.
    pub seconds: f64,
}

/// What `arena probcut check` was asked: its arguments, typed.
#[derive(Clone, Debug)]
pub struct ProbCutCheckOptions {
    /// An engine with a ProbCut file, read and checked by the caller.
    pub engine: EngineConfig,
    /// The engine as the caller named it, for errors.
    pub engine_arg: String,
    /// Search depth.
    pub depth: u32,
    /// Positions.
    pub positions: u64,
    /// Self-play games to draw positions from.
    pub games: u32,
    /// Seed of the games and the draw.
    pub seed: u64,
    /// A confidence to use instead of the file's.
    pub confidence: Option<f64>,
    /// Threads; 0 means every core.
    pub threads: usize,
}

/// Positions for fitting or checking: more empties than the engine solves
/// exactly (12 when it does not).
fn default_min_empties(config: &EngineConfig) -> u32 {
    match config.searching().map_or(0, |s| s.endgame_exact_at) {
        0 => 12,
        n => n,
    }
}

/// `positions` positions with more than `min_empties` empties from `games`
/// seeded self-play games with the engine's evaluation.
fn draw(
    config: &EngineConfig,
    games: u32,
    seed: u64,
    positions: u64,
    min_empties: u32,
    threads: usize,
) -> Vec<Board> {
    sample_positions(
        config.eval(),
        &Sampling {
            games,
            seed,
            positions: positions as usize,
            min_empties,
            threads,
        },
    )
}

/// The engine `arg` names, which must search (not the random mover).
fn searching_engine(config: &EngineConfig, arg: &str) -> Result<EngineConfig> {
    if config.searching().is_none() {
        return Err(Error::argument(
            "engine",
            format!("{arg} is the random mover; ProbCut needs a searching engine"),
        ));
    }
    Ok(config.clone())
}

/// The pairs to fit: `texts` parsed as `deep:shallow`, or the default
/// ladder to `max_depth` when there are none.
fn pairs(texts: &[String], max_depth: u32) -> Result<Vec<(u32, u32)>> {
    if texts.is_empty() {
        return Ok((3..=max_depth)
            .map(|d| (d, (2 * (d / 4) + d % 2).max(1)))
            .collect());
    }
    texts
        .iter()
        .map(|p| {
            let parsed = p.split_once(':').and_then(|(a, b)| {
                Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?))
            });
            match parsed {
                Some((d, s)) if (1..=20).contains(&d) && s < d => Ok((d, s)),
                _ => Err(Error::usage(
                    "pairs",
                    format!("{p:?} is not deep:shallow with 1 <= deep <= 20 and shallow < deep"),
                )),
            }
        })
        .collect()
}

/// Checks the stage bounds and the confidence of a fit.
fn check_fit_options(opts: &ProbCutFitOptions) -> Result<()> {
    if opts.stages.is_empty()
        || opts.stages.windows(2).any(|w| w[0] <= w[1])
        || *opts.stages.last().unwrap_or(&1) != 0
    {
        return Err(Error::usage(
            "stages",
            format!(
                "{:?}: give empties bounds strictly decreasing and ending at 0",
                opts.stages
            ),
        ));
    }
    if !(opts.confidence.is_finite() && (0.0..=10.0).contains(&opts.confidence)) {
        return Err(Error::usage(
            "confidence",
            format!("{} is not a number from 0 to 10", opts.confidence),
        ));
    }
    Ok(())
}

/// The header of the ProbCut file: what it is, the command that
/// regenerates it, where the positions came from.
fn header(
    opts: &ProbCutFitOptions,
    name: &str,
    settled: &ProbCutFitSettled,
    positions: usize,
) -> Vec<String> {
    vec![
        format!("ProbCut parameters for {name} (values in centidiscs)."),
        (opts.command)(opts, settled),
        format!(
            "{positions} positions from self-play with the engine's evaluation, searched by PVS to each depth{} (see src/lab/probcut.rs).",
            if opts.nested { ", the deep searches cutting with the pairs fitted below them" } else { "" }
        ),
    ]
}

/// Runs `arena probcut fit`: checks the options, draws positions from
/// self-play, fits every pair in every stage and writes the ProbCut file to
/// `opts.out`.
///
/// # Errors
/// [`Error::Argument`] for the random mover (`--engine`), bad `--pairs`, `--stages` or `--confidence`, too few
/// positions (`--games`); I/O.
pub fn fit_probcut(opts: &ProbCutFitOptions) -> Result<ProbCutFitReport> {
    let config = searching_engine(&opts.engine, &opts.engine_arg)?;
    let pairs = pairs(&opts.pairs, opts.max_depth)?;
    check_fit_options(opts)?;
    let threads = crate::util::par::threads(opts.threads);
    let min_empties = opts.min_empties.unwrap_or(default_min_empties(&config));
    let start = Instant::now();
    let positions = draw(
        &config,
        opts.games,
        opts.seed,
        opts.positions,
        min_empties,
        threads,
    );
    if positions.len() < 10 {
        return Err(Error::argument(
            "games",
            format!(
                "only {} positions with more than {min_empties} empties came from {} games; play more games",
                positions.len(),
                opts.games
            ),
        ));
    }
    let (pc, fits) = fit(
        &config,
        &positions,
        &pairs,
        &opts.stages,
        opts.confidence,
        opts.nested,
        threads,
    );
    let settled = ProbCutFitSettled { pairs, min_empties };
    let header = header(opts, &config.name, &settled, positions.len());
    write_atomic(&opts.out, &pc.to_file(&header))?;
    Ok(ProbCutFitReport {
        file: opts.out.clone(),
        positions: positions.len(),
        pairs: fits,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Runs `arena probcut check`: searches positions drawn from self-play with
/// and without the engine's ProbCut (at `opts.confidence` when given).
///
/// # Errors
/// [`Error::Argument`] for the random mover or an
/// engine without a ProbCut file (`--engine`), a bad `--confidence`.
pub fn check_probcut(opts: &ProbCutCheckOptions) -> Result<CheckReport> {
    let mut config = searching_engine(&opts.engine, &opts.engine_arg)?;
    if let (Some(c), Some(pc)) = (
        opts.confidence,
        config.searching_mut().and_then(|s| s.probcut.as_mut()),
    ) {
        if !(c.is_finite() && (0.0..=10.0).contains(&c)) {
            return Err(Error::usage(
                "confidence",
                format!("{c} is not a number from 0 to 10"),
            ));
        }
        pc.confidence = c;
    }
    if config
        .searching()
        .and_then(|s| s.probcut.as_ref())
        .is_none()
    {
        return Err(Error::argument(
            "engine",
            format!("{} has no ProbCut file (probcut: None)", opts.engine_arg),
        ));
    }
    let threads = crate::util::par::threads(opts.threads);
    let min_empties = default_min_empties(&config);
    let positions = draw(
        &config,
        opts.games,
        opts.seed,
        opts.positions,
        min_empties,
        threads,
    );
    Ok(check(&config, &positions, opts.depth, threads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Argument;

    #[test]
    fn pairs_default_to_the_ladder_and_are_checked_when_given() {
        assert_eq!(pairs(&[], 6).unwrap(), vec![(3, 1), (4, 2), (5, 3), (6, 2)]);
        assert_eq!(
            pairs(&["4:2".into(), " 8 : 4".into()], 6).unwrap(),
            vec![(4, 2), (8, 4)]
        );
        for bad in ["5:7", "abc", "21:3", "0:0"] {
            let e = pairs(&[bad.into()], 6).unwrap_err();
            assert!(
                matches!(&e, Error::Usage { argument: Argument::Option(o), .. } if o == "pairs"),
                "{bad}: {e}"
            );
        }
    }
}
