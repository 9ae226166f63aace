//! Fitting the exact solver's cut model (`arena probcut fit-endgame`): the
//! Multi-ProbCut model of its selective passes (see `crate::endgame`).
//!
//! For each stage of empties, positions from seeded self-play with the
//! ordering evaluation, with that stage's fewest empties or one more (so
//! that both parities count and no solve is much longer than the stage
//! needs), are solved exactly and searched by the solver's own shallow
//! search at the stage's depth; a least-squares line `exact ≈ a·v + b`
//! (centidiscs) with the residuals' standard deviation `sigma` is the
//! stage's pair, written with `deep: 60` (the exact score) in the ProbCut
//! file format.

use super::fit::{self_play, FitOptions, Sample};
use super::probcut::PairFit;
use crate::endgame::{Solver, EXACT_DEEP};
use crate::eval::OthelloEval;
use crate::game::othello::Board;
use crate::game::Game;
use crate::rng::SplitMix64;
use crate::search::probcut::{fit_line, Pair, ProbCut, Stage};
use crate::util::{parallel_map, write_atomic};
use crate::{Error, Result};
use std::path::PathBuf;
use std::time::Instant;

/// Most empties a stage may start at: each position is solved exactly.
pub const MAX_STAGE_EMPTIES: u32 = 26;

/// What `arena probcut fit-endgame` was asked: its arguments, typed.
#[derive(Clone, Debug)]
pub struct EndCutFitOptions {
    /// The ordering evaluation (the solver's, whose shallow search the
    /// model predicts from).
    pub eval: OthelloEval,
    /// Its weights file, for the file's header (`None`: the solver's
    /// built-in evaluation).
    pub eval_file: Option<PathBuf>,
    /// Self-play games to draw positions from.
    pub games: u32,
    /// Positions per stage.
    pub positions: usize,
    /// Seed of the games and the draw.
    pub seed: u64,
    /// Stages as `(fewest empties, shallow depth)`, in any order.
    pub stages: Vec<(u32, u32)>,
    /// The ProbCut file to write.
    pub out: PathBuf,
    /// Threads; 0 means every core.
    pub threads: usize,
    /// The command that regenerates the file, for its header, as the
    /// caller words it (the library knows no command line).
    pub command: String,
}

/// What `arena probcut fit-endgame` did.
#[derive(Clone, Debug)]
pub struct EndCutFitReport {
    /// The file written.
    pub file: PathBuf,
    /// Each stage's fitted pair.
    pub pairs: Vec<PairFit>,
    /// Seconds from the first game to writing the file.
    pub seconds: f64,
}

/// Parses `--stages` items `empties:shallow`.
///
/// # Errors
/// [`Error::Usage`] naming `--stages` and the item.
pub fn parse_stages(texts: &[String]) -> Result<Vec<(u32, u32)>> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for t in texts {
        let parsed = t.split_once(':').and_then(|(a, b)| {
            Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?))
        });
        match parsed {
            Some((n, d)) if (8..=MAX_STAGE_EMPTIES).contains(&n) && d < n && d <= 12 => {
                if out.iter().any(|s| s.0 == n) {
                    return Err(Error::usage(
                        "stages",
                        format!("{t:?}: a stage at {n} empties is given twice"),
                    ));
                }
                out.push((n, d));
            }
            _ => {
                return Err(Error::usage(
                    "stages",
                    format!(
                        "{t:?} is not empties:shallow with 8 <= empties <= {MAX_STAGE_EMPTIES} and shallow <= 12, below empties"
                    ),
                ))
            }
        }
    }
    if out.is_empty() {
        return Err(Error::usage("stages", "give at least one empties:shallow"));
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.0));
    Ok(out)
}

/// The self-play positions of a stage at `empties`: that many empties or
/// one more, games not over, shuffled by the seed and cut to
/// `opts.positions`.
///
/// # Errors
/// Fewer than 10 of them (`--games`).
fn stage_boards(games: &[Sample], opts: &EndCutFitOptions, empties: u32) -> Result<Vec<Board>> {
    let mut boards: Vec<Board> = games
        .iter()
        .map(|s| s.0)
        .filter(|b| (b.empties() == empties || b.empties() == empties + 1) && !b.is_over())
        .collect();
    SplitMix64::new(opts.seed ^ 0x454E_4443_5554 ^ u64::from(empties)).shuffle(&mut boards);
    boards.truncate(opts.positions);
    if boards.len() < 10 {
        return Err(Error::argument(
            "games",
            format!(
                "only {} positions with {empties} or {} empties came from {} games; play more games",
                boards.len(),
                empties + 1,
                opts.games
            ),
        ));
    }
    Ok(boards)
}

/// The stage's pair at `empties`: `boards` solved exactly and searched by
/// the solver's shallow search at `shallow`, and the line through them.
///
/// # Errors
/// The positions do not spread, or the shallow search does not predict
/// the exact score (`--games`).
fn fit_stage_pair(
    opts: &EndCutFitOptions,
    boards: &[Board],
    (empties, shallow): (u32, u32),
    threads: usize,
) -> Result<PairFit> {
    let points: Vec<(f64, f64)> = parallel_map(boards, threads, |b| {
        let mut solver = Solver::new(16, Some(opts.eval.clone()));
        let exact = solver.solve(b).score * 100;
        let v = solver.estimate(b, shallow);
        (f64::from(v), f64::from(exact))
    });
    let Some((a, b, sigma)) = fit_line(&points) else {
        return Err(Error::argument(
            "games",
            format!("the positions at {empties} empties do not spread; play more games"),
        ));
    };
    if !(a > 0.01 && a < 100.0) {
        return Err(Error::argument(
            "games",
            format!("the shallow search at {empties} empties does not predict the exact score (slope {a:.3}); play more games or use another evaluation"),
        ));
    }
    let round = |x: f64, k: f64| (x * k).round() / k;
    let pair = Pair {
        deep: EXACT_DEEP,
        shallow,
        a: round(a, 1e4),
        b: round(b, 10.0),
        sigma: round(sigma, 10.0),
    };
    Ok(PairFit {
        min_empties: empties,
        pair,
        samples: points.len(),
        correlation: super::probcut::correlation(&points),
    })
}

/// The model file's header: what it is and the command that wrote it.
fn endcut_header(opts: &EndCutFitOptions) -> Vec<String> {
    vec![
        format!(
            "The exact solver's cut model (Multi-ProbCut on the exact score; values in centidiscs; deep: {EXACT_DEEP} means the exact score)."
        ),
        opts.command.clone(),
        "Positions from self-play with the ordering evaluation, solved exactly and searched by the solver's shallow search (src/lab/endcut.rs).".into(),
        "The solver's passes use their own confidences (src/endgame/selective.rs): the confidence below is not read.".into(),
    ]
}

/// Fits the model and writes it to `opts.out`.
///
/// # Errors
/// Too few positions for a stage (`--games`); I/O.
pub fn fit_endcut(opts: &EndCutFitOptions) -> Result<EndCutFitReport> {
    let start = Instant::now();
    let threads = crate::util::par::threads(opts.threads);
    let games = self_play(
        &opts.eval,
        &FitOptions {
            games: opts.games,
            seed: opts.seed,
            random_plies: 10,
            depth: 2,
            solve_at: 0,
            threads,
        },
    );
    let mut stages = opts.stages.clone();
    stages.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut fits = Vec::new();
    let mut out_stages = Vec::new();
    for (k, &(empties, shallow)) in stages.iter().enumerate() {
        let boards = stage_boards(&games, opts, empties)?;
        let fit = fit_stage_pair(opts, &boards, (empties, shallow), threads)?;
        out_stages.push(Stage {
            min_empties: empties,
            pairs: vec![fit.pair],
        });
        fits.push(fit);
        // Below the lowest stage: no cuts.
        if k + 1 == stages.len() {
            out_stages.push(Stage {
                min_empties: 0,
                pairs: vec![],
            });
        }
    }
    let pc = ProbCut {
        confidence: 1.5,
        stages: out_stages,
    };
    let header = endcut_header(opts);
    write_atomic(&opts.out, &pc.to_file(&header))?;
    Ok(EndCutFitReport {
        file: opts.out.clone(),
        pairs: fits,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_parse_and_bad_ones_name_the_argument() {
        let s = |v: &[&str]| parse_stages(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["14:2", "20:4"]).unwrap(), vec![(20, 4), (14, 2)]);
        for bad in [&["14"][..], &["14:14"], &["40:4"], &["14:2", "14:3"], &[]] {
            let e = s(bad).unwrap_err().line();
            assert!(e.starts_with("stages: "), "{bad:?}: {e}");
        }
    }

    #[test]
    fn a_tiny_fit_writes_a_model_the_solver_reads() {
        let dir = std::env::temp_dir().join(format!("arena-endcut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("endcut.ron");
        let r = fit_endcut(&EndCutFitOptions {
            eval: crate::endgame::builtin::order_eval(),
            eval_file: None,
            games: 40,
            positions: 30,
            seed: 3,
            stages: vec![(10, 2), (12, 2)],
            out: out.clone(),
            threads: 2,
            command: "arena probcut fit-endgame as the caller words it".into(),
        })
        .unwrap();
        assert_eq!(r.pairs.len(), 2);
        for f in &r.pairs {
            // The evaluation predicts the exact score, loosely.
            assert!(f.correlation > 0.5, "{f:?}");
            assert!(f.pair.sigma > 0.0, "{f:?}");
        }
        // The caller's command is the header's second line (the binary's
        // own is pinned by tests/probcut.rs).
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            text.lines().nth(1),
            Some("// arena probcut fit-endgame as the caller words it")
        );
        let pc = ProbCut::load(&out).unwrap();
        let cut = crate::endgame::EndCut::new(&pc, 14).unwrap();
        assert_eq!(cut.lowest(), 10);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
