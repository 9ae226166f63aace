//! `arena solve`: solves every position of an OBF file exactly and checks
//! score and move against the file.

use super::progress;
use super::{print, print_json};
use crate::endgame::{obf, EndCut, Solver, MAX_SOLVE_EMPTIES};
use crate::eval::OthelloEval;
use crate::search::probcut::ProbCut;
use crate::util::text::read_text;
use crate::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// An OBF file: `<position>; <MOVE>:<score>; ...` per line
    pub file: PathBuf,
    /// Only these lines (1-based, e.g. `1-3` or `5`)
    #[arg(long)]
    pub lines: Option<String>,
    /// Transposition table size in MiB (with a second table of at most 4 MiB for positions of 10 empties or fewer, and 1 MiB for the selective passes)
    #[arg(long, default_value_t = 64)]
    pub tt_mib: usize,
    /// Weights file (any kind) whose evaluation orders moves at high empties (default: the built-in copy of engines/weights/patterns-train.bin)
    #[arg(long)]
    pub order_eval: Option<PathBuf>,
    /// No evaluation: fastest-first, parity and the table only (the search machinery alone, as Edax with a zero evaluation)
    #[arg(long, conflicts_with = "order_eval")]
    pub no_eval_order: bool,
    /// From this many empties the evaluation orders moves
    #[arg(long, default_value_t = crate::endgame::EVAL_SORT, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub eval_from: u32,
    /// Print one JSON object: {"positions":[...],"correct","total","nodes","seconds","nps","threads"}
    #[arg(long)]
    pub json: bool,
    /// Threads per solve, sharing one table (scores as on one thread; node counts vary from run to run)
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub threads: usize,
    /// Cut model of the selective passes run before the exact one (a ProbCut file with deep: 60 pairs, from `arena probcut fit-endgame`; default: the built-in one, with the built-in evaluation); scores stay exact
    #[arg(long, conflicts_with_all = ["no_eval_order", "no_selective"])]
    pub endcut: Option<PathBuf>,
    /// No selective passes: the exact search alone
    #[arg(long)]
    pub no_selective: bool,
    /// Positions with at least this many empties get the selective passes (with the built-in evaluation, or a model given by --endcut)
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub selective_from: u32,
}

/// One solved line of `arena solve --json`.
#[derive(Debug, serde::Serialize)]
pub struct SolvedLine {
    /// Line in the file.
    pub line: usize,
    /// Empty squares.
    pub empties: u32,
    /// Exact score found.
    pub score: i32,
    /// Move found.
    pub best_move: Option<String>,
    /// Score in the file.
    pub expected_score: Option<i32>,
    /// Score equal and move among the file's best.
    pub correct: bool,
    /// Nodes.
    pub nodes: u64,
    /// Seconds.
    pub seconds: f64,
}

/// The report of `arena solve --json`.
#[derive(Debug, serde::Serialize)]
pub struct SolveReport {
    /// Each position.
    pub positions: Vec<SolvedLine>,
    /// Positions solved correctly.
    pub correct: usize,
    /// Positions.
    pub total: usize,
    /// Nodes in all.
    pub nodes: u64,
    /// Seconds in all.
    pub seconds: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Threads per solve.
    pub threads: usize,
}

fn line_range(text: &str) -> Option<(usize, usize)> {
    match text.split_once('-') {
        Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
        None => {
            let n = text.trim().parse().ok()?;
            Some((n, n))
        }
    }
}

/// The solver's built-in move-ordering evaluation.
pub fn order_eval() -> OthelloEval {
    crate::endgame::builtin::order_eval()
}

/// Checks `--tt-mib` against what the solver can allocate.
fn check_tt_mib(tt_mib: usize) -> crate::Result<()> {
    let max = crate::engine::config::MAX_TT_MIB;
    if tt_mib == 0 || tt_mib > max {
        return Err(Error::Usage {
            argument: "--tt-mib".into(),
            message: format!("{tt_mib}: must be 1 to {max}"),
        });
    }
    Ok(())
}

/// The problems of the file on the lines `--lines` selects, none with
/// more than [`MAX_SOLVE_EMPTIES`] empties.
fn problems(args: &SolveArgs) -> crate::Result<Vec<obf::Problem>> {
    let text = read_text(&args.file)?;
    let problems = obf::parse(&text, &args.file)?;
    let range = match &args.lines {
        Some(l) => Some(
            line_range(l)
                .filter(|(a, b)| a <= b && *a >= 1)
                .ok_or_else(|| Error::Usage {
                    argument: "--lines".into(),
                    message: format!("{l:?}: expected N or A-B with 1 <= A <= B"),
                })?,
        ),
        None => None,
    };
    let total = problems.len();
    let chosen: Vec<obf::Problem> = problems
        .into_iter()
        .filter(|p| range.is_none_or(|(a, b)| (a..=b).contains(&p.line)))
        .collect();
    if chosen.is_empty() {
        // "0 of 0 correct" would read as a pass.
        return Err(match (&args.lines, total) {
            (Some(l), 1..) => Error::Usage {
                argument: "--lines".into(),
                message: format!(
                    "{l:?}: no position of {} is on those lines",
                    args.file.display()
                ),
            },
            _ => Error::config_at(
                &args.file,
                0,
                0,
                "no position in this file (one per line: 64 squares, the side to move, `;` and the expected score)".into(),
            ),
        });
    }
    if let Some(p) = chosen
        .iter()
        .find(|p| p.board.empties() > MAX_SOLVE_EMPTIES)
    {
        return Err(Error::config_at(
            &args.file,
            p.line,
            1,
            format!(
                "{} empties: arena solve takes at most {MAX_SOLVE_EMPTIES} (FFO's hardest have 34; \
                 each empty more multiplies the time by 2 to 3, so this solve would run for days)",
                p.board.empties()
            ),
        ));
    }
    Ok(chosen)
}

/// The solver the arguments describe: its table, its move-ordering
/// evaluation (a weights file, the built-in one, or none) and from how
/// many empties it uses it.
fn solver(args: &SolveArgs) -> crate::Result<Solver> {
    let eval = match &args.order_eval {
        _ if args.no_eval_order => None,
        Some(p) => Some(OthelloEval::from_weights_file(p)?),
        None => Some(order_eval()),
    };
    let mut solver = Solver::try_new(args.tt_mib, eval).map_err(|e| match e {
        Error::Alloc { source, .. } => Error::alloc(format!("--tt-mib {}", args.tt_mib), source),
        other => other,
    })?;
    solver.eval_from = args.eval_from;
    solver.set_threads(args.threads);
    if args.no_selective || args.no_eval_order {
        return Ok(solver);
    }
    if let Some(path) = &args.endcut {
        let pc = ProbCut::load(path)?;
        let cut = EndCut::new(&pc, args.selective_from)
            .map_err(|e| Error::argument("endcut", format!("{}: {e}", path.display())))?;
        solver.set_endcut(Some(cut));
    } else if args.order_eval.is_none() {
        // The built-in model is fitted for the built-in evaluation only.
        solver.set_endcut(Some(crate::endgame::builtin::endcut(args.selective_from)));
    }
    Ok(solver)
}

/// Solves one problem and checks it against the file.
fn solve_one(solver: &mut Solver, p: &obf::Problem) -> SolvedLine {
    solver.clear();
    let s = solver.solve(&p.board);
    let expected = p.expected_score();
    let correct = expected.is_none_or(|e| e == s.score)
        && s.best_move
            .is_none_or(|m| p.moves.is_empty() || p.is_best(m));
    SolvedLine {
        line: p.line,
        empties: p.board.empties(),
        score: s.score,
        best_move: s.best_move.map(|m| m.to_string()),
        expected_score: expected,
        correct,
        nodes: s.nodes,
        seconds: s.elapsed.as_secs_f64(),
    }
}

/// The text line of one solved problem.
fn line_text(line: &SolvedLine) -> String {
    format!(
        "line {:>3}: {:>2} empties  score {:+3} (expected {})  move {}  {}  {:>12} nodes  {:>8.3} s  {:>6.1} M nodes/s",
        line.line,
        line.empties,
        line.score,
        line.expected_score.map_or("-".into(), |e| format!("{e:+}")),
        line.best_move.as_deref().unwrap_or("-"),
        if line.correct { "ok" } else { "WRONG" },
        line.nodes,
        line.seconds,
        line.nodes as f64 / line.seconds.max(1e-9) / 1e6
    )
}

/// Runs `arena solve`. Exit code 1 when a position is solved wrongly.
///
/// # Errors
/// A missing or malformed file, a bad `--lines`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    check_tt_mib(args.tt_mib)?;
    let problems = problems(args)?;
    let mut solver = solver(args)?;
    let mut report = SolveReport {
        positions: Vec::new(),
        correct: 0,
        total: 0,
        nodes: 0,
        seconds: 0.0,
        nps: 0.0,
        threads: args.threads,
    };
    let bar = progress::bar(problems.len() as u64, "positions");
    for p in &problems {
        bar.set_message(format!("line {}: {} empties", p.line, p.board.empties()));
        let line = solve_one(&mut solver, p);
        bar.inc(1);
        if !line.correct {
            crate::util::eprint_line(&p.mismatch(
                &args.file,
                line.score,
                line.best_move.as_deref(),
            ));
        }
        if !args.json {
            bar.suspend(|| print(&line_text(&line)))?;
        }
        report.correct += usize::from(line.correct);
        report.total += 1;
        report.nodes += line.nodes;
        report.seconds += line.seconds;
        report.positions.push(line);
    }
    bar.finish_and_clear();
    report.nps = report.nodes as f64 / report.seconds.max(1e-9);
    if args.json {
        print_json(&report)?;
    } else {
        print(&format!(
            "{} of {} correct, {} nodes in {:.3} s ({:.1} M nodes/s)",
            report.correct,
            report.total,
            report.nodes,
            report.seconds,
            report.nps / 1e6
        ))?;
    }
    Ok(if report.correct == report.total {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::{board_string, Board};
    use crate::game::{Game, MoveList};

    /// A position with `empties` empty squares (first legal move each ply).
    fn with_empties(empties: u32) -> String {
        let mut b = Board::start();
        let mut moves = MoveList::new();
        while b.empties() > empties {
            moves.clear();
            b.generate_moves(&mut moves);
            b = b.play(moves.get(0));
        }
        assert_eq!(b.empties(), empties);
        board_string(&b)
    }

    #[test]
    fn solves_up_to_36_empties_are_taken_and_deeper_ones_refused() {
        let dir = std::env::temp_dir().join(format!("arena-solve-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("cap.obf");
        let text = format!("{}\n{}\n", with_empties(36), with_empties(37));
        std::fs::write(&file, text).unwrap();
        let args = |lines: &str| SolveArgs {
            file: file.clone(),
            lines: Some(lines.into()),
            tt_mib: 1,
            order_eval: None,
            no_eval_order: true,
            eval_from: 0,
            json: false,
            threads: 1,
            endcut: None,
            no_selective: false,
            selective_from: 20,
        };
        assert_eq!(problems(&args("1")).unwrap().len(), 1);
        let e = problems(&args("1-2")).unwrap_err().to_string();
        assert!(e.contains("cap.obf:2:1: 37 empties"), "{e}");
    }
}
