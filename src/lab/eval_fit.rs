//! `arena eval fit` as one library call: check the request, get the samples
//! (seeded self-play labelled by exact solves, or a samples file), fit the
//! base's stages ([`super::fit`]) and write the weights file, its header
//! recording the command that regenerates it (as the caller words it:
//! [`EvalFitOptions::made_by`]). The caller prints the
//! returned [`EvalFitReport`].

use super::fit::{
    fit_features, fit_patterns, parse_samples, samples_text, self_play, weights_file, FitOptions,
    PatternStageFit, Sample, StageFit,
};
use crate::eval::{Features, OthelloEval, Patterns};
use crate::util::text::read_text;
use crate::util::{same_file, write_atomic};
use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `arena eval fit` was asked: its arguments, typed.
#[derive(Clone, Debug)]
pub struct EvalFitOptions {
    /// The Features or Patterns weights file whose stages are fitted.
    pub base: PathBuf,
    /// The weights file of the engine that plays the self-play games
    /// (`None`: the base).
    pub play: Option<PathBuf>,
    /// The samples file: read when it exists, written after playing when
    /// not.
    pub samples: Option<PathBuf>,
    /// Self-play games.
    pub games: u32,
    /// Seed of the random opening moves.
    pub seed: u64,
    /// Random moves at the start of each game.
    pub random_plies: u32,
    /// Search depth of the playing engine.
    pub depth: u32,
    /// Empties from which the games are solved exactly (the labels).
    pub solve_at: u32,
    /// Ridge penalty (`None`: 0.001 for features, 20 for patterns).
    pub ridge: Option<f64>,
    /// Pattern fits: at most this many conjugate-gradient steps a stage.
    pub iterations: u32,
    /// The weights file to write.
    pub out: PathBuf,
    /// Threads for self-play and pattern fits; 0 means every core.
    pub threads: usize,
    /// The header's lines on how the file was made: the command that
    /// regenerates it and where its samples came from, as the caller words
    /// them from these options and what the fit settled (the library
    /// knows no command line).
    pub made_by: fn(&EvalFitOptions, &EvalFitSettled) -> [String; 2],
}

/// What a fit settles that its options leave open, for the header's
/// [`EvalFitOptions::made_by`] lines.
#[derive(Clone, Debug)]
pub struct EvalFitSettled {
    /// The ridge used: the one asked for, or the default for the base's
    /// kind.
    pub ridge: f64,
    /// The samples file read (`None`: the samples were played, so the
    /// games options made them).
    pub read_from: Option<PathBuf>,
    /// True when the base holds pattern tables (whose fits take
    /// `iterations`).
    pub patterns: bool,
    /// How many samples the fit used.
    pub samples: usize,
}

/// How each stage of a fit came out, by kind of weights.
#[derive(Clone, Debug)]
pub enum StageFits {
    /// Feature weights, one fit per stage.
    Features(Vec<StageFit>),
    /// Pattern tables, one fit per stage.
    Patterns(Vec<PatternStageFit>),
}

/// What `arena eval fit` did.
#[derive(Clone, Debug)]
pub struct EvalFitReport {
    /// The weights file written.
    pub out: PathBuf,
    /// Each stage's fit.
    pub stages: StageFits,
    /// Seconds spent getting the samples (playing or reading them).
    pub sample_seconds: f64,
    /// Seconds in all.
    pub seconds: f64,
}

/// The weights a fit starts from: the two kinds that are fitted.
#[derive(Clone, Copy)]
enum Target<'a> {
    Features(&'a Features),
    Patterns(&'a Patterns),
}

/// The ridge asked for, or the default for the base's kind; checked.
fn ridge(opts: &EvalFitOptions, base: &OthelloEval) -> Result<f64> {
    let ridge = opts.ridge.unwrap_or(match base {
        OthelloEval::Patterns(_) => 20.0,
        OthelloEval::Discs | OthelloEval::Squares(_) | OthelloEval::Features(_) => 0.001,
    });
    if ridge.is_finite() && ridge >= 0.0 {
        Ok(ridge)
    } else {
        Err(Error::usage(
            "ridge",
            format!("{ridge} is not a number >= 0"),
        ))
    }
}

/// The base as a fit target: Features or Patterns, nothing else.
fn target<'a>(base: &'a OthelloEval, path: &Path) -> Result<Target<'a>> {
    match base {
        OthelloEval::Features(f) => Ok(Target::Features(f)),
        OthelloEval::Patterns(p) => Ok(Target::Patterns(p)),
        OthelloEval::Discs | OthelloEval::Squares(_) => Err(Error::argument(
            "base",
            format!(
                "{} is not a Features or Patterns weights file (only those are fitted)",
                path.display()
            ),
        )),
    }
}

/// The samples: read from the samples file when it exists (its path is
/// returned), else played with `play` (and written to the samples file
/// when one is named). None at all is an error naming the argument to
/// change.
fn samples<'a>(
    opts: &'a EvalFitOptions,
    play: &OthelloEval,
    threads: usize,
) -> Result<(Vec<Sample>, Option<&'a Path>)> {
    let read_from = opts.samples.as_deref().filter(|p| p.exists());
    let samples = match read_from {
        Some(path) => parse_samples(&read_text(path)?, path)?,
        None => {
            let fit = FitOptions {
                games: opts.games,
                seed: opts.seed,
                random_plies: opts.random_plies,
                depth: opts.depth,
                solve_at: opts.solve_at,
                threads,
            };
            let samples = self_play(play, &fit);
            if let Some(path) = &opts.samples {
                write_atomic(path, &samples_text(&samples))?;
            }
            samples
        }
    };
    if samples.is_empty() {
        return Err(Error::argument(
            if read_from.is_some() {
                "samples"
            } else {
                "games"
            },
            "no samples to fit (an empty samples file, or games without a position from ply 8)",
        ));
    }
    Ok((samples, read_from))
}

/// Fits `target` on `samples` and returns the weights file's text with
/// the `made_by` lines in its header, and each stage's fit.
fn fit_text(
    target: Target,
    samples: &[Sample],
    ridge: f64,
    opts: &EvalFitOptions,
    threads: usize,
    made_by: [String; 2],
) -> (String, StageFits) {
    let [command, source] = made_by;
    match target {
        Target::Features(f) => {
            let fits = fit_features(f, samples, ridge);
            let header = [
                "Feature weights fitted by least squares (centidiscs per unit of each feature)."
                    .to_string(),
                command,
                source,
            ];
            (weights_file(&fits, &header), StageFits::Features(fits))
        }
        Target::Patterns(p) => {
            let (fitted, fits) = fit_patterns(p, samples, ridge, opts.iterations, threads);
            let header = [
                "Pattern tables fitted by least squares (centidiscs; format in src/eval/patterns/file.rs)."
                    .to_string(),
                command,
                source,
            ];
            let notes: Vec<String> = fits
                .iter()
                .map(|f| {
                    format!(
                        "{} samples; RMSE {:.2} discs (base weights: {:.2}); {} CG steps.",
                        f.samples, f.rmse_after, f.rmse_before, f.iterations
                    )
                })
                .collect();
            let bounds: Vec<u32> = fitted.stages().map(|s| s.0).collect();
            let stages: Vec<_> = fitted.stages().map(|s| s.1.clone()).collect();
            let text = crate::eval::patterns::weights_file(&bounds, &stages, &notes, &header);
            (text, StageFits::Patterns(fits))
        }
    }
}

/// Runs `arena eval fit`: checks the options, gets the samples, fits the
/// base's stages and writes the weights file to `opts.out`.
///
/// # Errors
/// [`Error::Argument`] for an output equal to the base (`--out`), a bad
/// ridge (`--ridge`), a base that is not Features or Patterns (`--base`),
/// no samples (`--samples` or `--games`); a bad base, play or samples file;
/// I/O.
pub fn fit_eval(opts: &EvalFitOptions) -> Result<EvalFitReport> {
    if same_file(&opts.out, &opts.base) {
        return Err(Error::argument(
            "out",
            "would overwrite the base weights; write the fit to a new file",
        ));
    }
    let base = OthelloEval::from_weights_file(&opts.base)?;
    let ridge = ridge(opts, &base)?;
    let target = target(&base, &opts.base)?;
    let play = match &opts.play {
        Some(p) => OthelloEval::from_weights_file(p)?,
        None => base.clone(),
    };
    let threads = crate::util::par::threads(opts.threads);
    let start = Instant::now();
    let (samples, read_from) = samples(opts, &play, threads)?;
    let sample_seconds = start.elapsed().as_secs_f64();
    let settled = EvalFitSettled {
        ridge,
        read_from: read_from.map(Path::to_path_buf),
        patterns: matches!(target, Target::Patterns(_)),
        samples: samples.len(),
    };
    let made_by = (opts.made_by)(opts, &settled);
    let (text, stages) = fit_text(target, &samples, ridge, opts, threads, made_by);
    write_atomic(&opts.out, &text)?;
    Ok(EvalFitReport {
        out: opts.out.clone(),
        stages,
        sample_seconds,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(base: &str, out: &str, ridge: Option<f64>) -> EvalFitOptions {
        EvalFitOptions {
            base: PathBuf::from(base),
            play: None,
            samples: None,
            games: 1,
            seed: 0,
            random_plies: 10,
            depth: 1,
            solve_at: 10,
            ridge,
            iterations: 1,
            out: PathBuf::from(out),
            threads: 1,
            made_by: |_, _| ["command".into(), "samples".into()],
        }
    }

    fn argument_of(e: Error) -> String {
        if let Error::Argument { argument, .. } | Error::Usage { argument, .. } = &e {
            if let crate::error::Argument::Option(option) = argument {
                return option.clone();
            }
        }
        panic!("not an argument error: {e}")
    }

    #[test]
    fn bad_requests_name_the_argument_before_any_game_is_played() {
        let features = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/engines/weights/features-fit.ron"
        );
        let squares = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/engines/weights/squares-classic.ron"
        );
        let e = fit_eval(&options(features, features, None)).unwrap_err();
        assert_eq!(argument_of(e), "out");
        let e = fit_eval(&options(features, "x.ron", Some(-1.0))).unwrap_err();
        assert!(
            matches!(e, Error::Usage { .. }),
            "a bad value is exit 2: {e}"
        );
        assert_eq!(argument_of(e), "ridge");
        let e = fit_eval(&options(squares, "x.ron", None)).unwrap_err();
        assert_eq!(argument_of(e), "base");
        assert!(!Path::new("x.ron").exists());
    }
}
