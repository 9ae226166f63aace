//! Evaluations: outputs pinned on fixed positions (so an accidental change
//! shows), the `arena eval` command, and weight-file errors.

use crate::util::{arena, repo, stderr, stdout};
use arena::eval::{EvalSpec, OthelloEval};
use arena::game::othello::parse_position;
use arena::search::Evaluator;

fn bench_line(n: usize) -> String {
    include_str!("data/bench.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(n)
        .unwrap()
        .to_string()
}

fn load(spec: EvalSpec) -> OthelloEval {
    OthelloEval::load(&spec, &repo("engines")).unwrap()
}

#[test]
fn evaluations_are_pinned_on_fixed_positions() {
    let positions = [
        "start".to_string(),
        "f5d6c3d3c4".to_string(),
        bench_line(0),
        bench_line(6),
    ];
    let cases: [(EvalSpec, [i32; 4]); 4] = [
        (EvalSpec::Discs, [0, -300, -600, -1100]),
        (
            EvalSpec::WeightedSquares {
                weights: "weights/squares-classic.ron".into(),
            },
            [0, 3, -25, 81],
        ),
        (
            EvalSpec::Features {
                weights: "weights/features-v1.ron".into(),
            },
            [0, 6, -195, 61],
        ),
        (
            EvalSpec::Features {
                weights: "weights/features-fit.ron".into(),
            },
            [-14, 43, -749, 179],
        ),
    ];
    for (spec, want) in cases {
        let e = load(spec.clone());
        let got: Vec<i32> = positions
            .iter()
            .map(|p| e.evaluate(&parse_position(p).unwrap()))
            .collect();
        assert_eq!(got, want, "{spec:?}");
    }
}

#[test]
fn eval_command_prints_the_terms() {
    let out = arena(&[
        "eval",
        "--engine",
        repo("engines/strong.ron").to_str().unwrap(),
        "--position",
        "f5d6c3d3c4",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["centidiscs"], 43);
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 8);
    let sum: f64 = terms
        .iter()
        .map(|t| t["contribution"].as_f64().unwrap())
        .sum();
    assert_eq!(sum.round() as i64, 43, "the terms add up to the score");
}

fn weights_error(kind: &str, text: &str) -> String {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("eval");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.ron");
    std::fs::write(&path, text).unwrap();
    let spec = match kind {
        "squares" => EvalSpec::WeightedSquares {
            weights: "w.ron".into(),
        },
        _ => EvalSpec::Features {
            weights: "w.ron".into(),
        },
    };
    OthelloEval::load(&spec, &dir).unwrap_err().to_string()
}

#[test]
fn bad_weight_files_name_the_file_line_and_field() {
    let e = weights_error(
        "squares",
        "WeightedSquares(stages: [(min_empties: 0, squares: [1, 2, 3])])",
    );
    assert!(
        e.contains("w.ron:1:") && e.contains("squares: stage 1 has 3 weights"),
        "{e}"
    );

    let e = weights_error(
        "features",
        "Features(stages: [\n (min_empties: 0, mobility: NaN, frontier: 0.0, corners: 0.0, x_squares: 0.0,\n  c_squares: 0.0, stable: 0.0, discs: 0.0, parity: 0.0),\n])",
    );
    assert!(
        e.contains("w.ron:2:") && e.contains("mobility") && e.contains("not a finite number"),
        "{e}"
    );

    let e = weights_error(
        "features",
        "Features(stages: [\n (min_empties: 0, mobility: 1.0),\n])",
    );
    assert!(
        e.contains("w.ron:2:") && e.contains("frontier"),
        "missing field named: {e}"
    );

    let e = weights_error(
        "squares",
        "WeightedSquares(stages: [(min_empties: 10, squares: [1,2,3,4,5,6,7,8,9,10])])",
    );
    assert!(
        e.contains("min_empties: the last stage must have min_empties: 0"),
        "{e}"
    );
}

#[test]
fn eval_fit_writes_a_loadable_file_that_fits_better_and_is_reproducible() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fit");
    std::fs::create_dir_all(&dir).unwrap();
    let base = repo("engines/weights/features-v1.ron");
    let run = |name: &str| {
        let out = dir.join(name);
        let r = arena(&[
            "eval",
            "fit",
            "--base",
            base.to_str().unwrap(),
            "--games",
            "30",
            "--seed",
            "4",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(r.status.success(), "{}", stderr(&r));
        (std::fs::read_to_string(&out).unwrap(), stdout(&r))
    };
    let (a, report) = run("a.ron");
    let (b, _) = run("b.ron");
    assert_eq!(
        a.replace("a.ron", ""),
        b.replace("b.ron", ""),
        "same seed, same weights"
    );
    arena::eval::Features::parse(&a, std::path::Path::new("a.ron")).unwrap();
    assert!(
        a.contains("// arena eval fit --base"),
        "the command is in the header"
    );
    // Least squares never fits worse than the weights it started from.
    for line in report.lines().filter(|l| l.starts_with("stage")) {
        let nums: Vec<f64> = line
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|t| t.parse().ok())
            .collect();
        let (after, before) = (nums[nums.len() - 2], nums[nums.len() - 1]);
        assert!(after <= before + 1e-9, "{line}");
    }
    let r = arena(&[
        "eval",
        "fit",
        "--base",
        base.to_str().unwrap(),
        "--out",
        base.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
}
