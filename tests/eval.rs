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
    let cases: [(EvalSpec, [i32; 4]); 5] = [
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
        (
            EvalSpec::Patterns {
                weights: "weights/patterns-fit.ron".into(),
            },
            [-539, -138, -1950, 3227],
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
        repo("engines/features-fit.ron").to_str().unwrap(),
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

#[test]
fn pattern_files_with_errors_name_the_file_line_and_field() {
    let path = std::path::Path::new("p.ron");
    let good = std::fs::read_to_string(crate::util::data("patterns-template.ron")).unwrap();
    assert!(arena::eval::Patterns::parse(&good, path).is_ok());
    let with_entry =
        |entry: &str| good.replacen("\"edge_x\": []", &format!("\"edge_x\": [{entry}]"), 1);
    let cases = [
        (with_entry("(59049, 10.0)"), "index 59049 is out of range"),
        (with_entry("(5, 1.0), (5, 2.0)"), "index 5 is listed twice"),
        (with_entry("(5, NaN)"), "weight NaN is not a whole number"),
        (with_entry("(5, 2.5)"), "weight 2.5 is not a whole number"),
        (
            with_entry("(5, 40000.0)"),
            "weight 40000 is not a whole number",
        ),
        (
            good.replacen("\"diag_4\": [],\n", "", 1),
            "pattern \"diag_4\" is missing",
        ),
        (
            good.replacen("\"diag_4\"", "\"diag_3\"", 1),
            "unknown pattern \"diag_3\"",
        ),
        (
            good.replacen("mobility: 0.0", "mobility: inf", 1),
            "mobility: stage 1",
        ),
        // A map would keep the second silently.
        (
            good.replacen(
                "\"diag_4\": [],",
                "\"diag_4\": [], \"diag_4\": [(1, 5.0)],",
                1,
            ),
            "pattern `diag_4` is given twice",
        ),
    ];
    for (text, want) in cases {
        let e = arena::eval::Patterns::parse(&text, path)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(want) && e.contains("p.ron:"),
            "want {want:?}, got {e}"
        );
    }
    // The error points at the stage's line: the second stage's table.
    let second = good.clone();
    let n = second.match_indices("\"edge_x\": []").nth(1).unwrap().0;
    let bad = format!(
        "{}\"edge_x\": [(70000, 1.0)]{}",
        &second[..n],
        &second[n + 12..]
    );
    let e = arena::eval::Patterns::parse(&bad, path)
        .unwrap_err()
        .to_string();
    let line = bad[..bad.match_indices("tables").nth(1).unwrap().0]
        .lines()
        .count();
    assert!(e.contains(&format!("p.ron:{line}:")), "line {line}: {e}");
    // Stages out of order: the error is at the stage that breaks it.
    let swapped = good.replacen("min_empties: 20", "min_empties: 50", 1);
    let e = arena::eval::Patterns::parse(&swapped, path)
        .unwrap_err()
        .to_string();
    let line = swapped[..swapped.find("min_empties: 50").unwrap()]
        .lines()
        .count();
    assert!(
        e.contains(&format!("p.ron:{line}:")) && e.contains("strictly decreasing"),
        "line {line}: {e}"
    );
}

#[test]
fn pattern_fit_writes_a_loadable_file_that_fits_better_and_is_reproducible() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pattern-fit");
    std::fs::create_dir_all(&dir).unwrap();
    let base = crate::util::data("patterns-template.ron");
    let play = repo("engines/weights/features-fit.ron");
    let samples = dir.join("samples.txt");
    let _ = std::fs::remove_file(&samples);
    let run = |name: &str| {
        let out = dir.join(name);
        let r = arena(&[
            "eval",
            "fit",
            "--base",
            base.to_str().unwrap(),
            "--play",
            play.to_str().unwrap(),
            "--games",
            "40",
            "--seed",
            "5",
            "--iterations",
            "30",
            "--samples",
            samples.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(r.status.success(), "{}", stderr(&r));
        (std::fs::read_to_string(&out).unwrap(), stdout(&r))
    };
    let (a, report) = run("a.ron");
    assert!(samples.exists(), "the samples are kept");
    // The second run reads the samples file instead of playing.
    let (b, _) = run("b.ron");
    let body = |t: &str| -> String { t.lines().filter(|l| !l.starts_with("//")).collect() };
    assert_eq!(body(&a), body(&b), "the same samples give the same tables");
    assert!(
        a.contains("--games 40 --seed 5"),
        "the first run played the games"
    );
    assert!(
        b.contains("--samples") && !b.contains("--games"),
        "the second read them"
    );
    let fitted = arena::eval::Patterns::parse(&a, std::path::Path::new("a.ron")).unwrap();
    for line in report.lines().filter(|l| l.starts_with("stage")) {
        let nums: Vec<f64> = line
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|t| t.parse().ok())
            .collect();
        // "... RMSE after discs (base before), N CG steps"
        let (after, before) = (nums[nums.len() - 3], nums[nums.len() - 2]);
        assert!(after < before, "{line}");
    }
    // An engine file naming the fitted weights plays with them.
    let engine = dir.join("patterns.ron");
    std::fs::write(
        &engine,
        "Engine(name: \"patterns\", search: Pvs, limit: Depth(3), tt_mib: 1, ordering: [HashMove], eval: Patterns(weights: \"a.ron\"))",
    )
    .unwrap();
    let r = arena(&[
        "eval",
        "--engine",
        engine.to_str().unwrap(),
        "--position",
        "f5d6c3d3c4",
        "--json",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let v: serde_json::Value = serde_json::from_str(&stdout(&r)).unwrap();
    let b = parse_position("f5d6c3d3c4").unwrap();
    assert_eq!(v["centidiscs"], fitted.evaluate(&b));
    // Bias, mobility, then the 42 instances (no parity term: these weights
    // have none); their contributions add up.
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 2 + 42);
    let sum: f64 = terms
        .iter()
        .map(|t| t["contribution"].as_f64().unwrap())
        .sum();
    assert!((sum - f64::from(fitted.evaluate(&b))).abs() <= 1.0, "{sum}");
    // A corrupt samples file is an error naming its line.
    std::fs::write(
        &samples,
        "0000000810000000 0000001008000000 0\nnot a sample\n",
    )
    .unwrap();
    let fit_error = || {
        let r = arena(&[
            "eval",
            "fit",
            "--base",
            base.to_str().unwrap(),
            "--samples",
            samples.to_str().unwrap(),
            "--out",
            dir.join("c.ron").to_str().unwrap(),
        ]);
        assert_eq!(r.status.code(), Some(1));
        stderr(&r)
    };
    let e = fit_error();
    assert!(e.contains("samples.txt:2:"), "{e}");
    // An empty one has nothing to fit.
    std::fs::write(&samples, "").unwrap();
    let e = fit_error();
    assert!(e.contains("no samples"), "{e}");
}

/// An engine of the shipped pattern weights in `form` (a weights path
/// relative to the engine file), written beside it in `dir`.
fn pattern_engine(dir: &std::path::Path, name: &str, weights: &std::path::Path) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "Engine(name: {name:?}, search: Pvs, deepening: true, limit: Depth(4), eval: Patterns(weights: {weights:?}))"
        ),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn pattern_weights_convert_to_binary_and_back_without_loss() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("eval-convert");
    std::fs::create_dir_all(&dir).unwrap();
    let ron = repo("engines/weights/patterns-fit.ron");
    let (bin, back) = (dir.join("w.bin"), dir.join("back.ron"));
    for (from, to) in [(&ron, &bin), (&bin, &back)] {
        let out = arena(&[
            "eval",
            "convert",
            from.to_str().unwrap(),
            to.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).starts_with(&format!("wrote {}", to.display())));
    }
    // The round trip gives the same weights, and the binary form is the
    // shipped one (which the solver has built in).
    let strip = |t: String| {
        t.lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        strip(std::fs::read_to_string(&back).unwrap()),
        strip(std::fs::read_to_string(&ron).unwrap())
    );
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        std::fs::read(repo("engines/weights/patterns-fit.bin")).unwrap()
    );
    // An engine evaluates the same with either form.
    let scores: Vec<String> = [("ron", &ron), ("bin", &bin)]
        .iter()
        .map(|(name, w)| {
            let engine = pattern_engine(&dir, &format!("{name}.ron"), w);
            let out = arena(&[
                "eval",
                "--engine",
                &engine,
                "--position",
                "f5d6c3d3c4",
                "--json",
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
            let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
            v["centidiscs"].to_string()
        })
        .collect();
    assert_eq!(scores[0], scores[1]);
    // A damaged binary file is one line naming the file and the byte.
    let bytes = std::fs::read(&bin).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let engine = pattern_engine(&dir, "cut.ron", &cut);
    let out = arena(&["eval", "--engine", &engine]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: byte {}: the checksum does not match: the file is damaged or truncated",
            cut.display(),
            bytes.len() - 108
        )
    );
    // Converting onto the input is refused as a usage error.
    let out = arena(&[
        "eval",
        "convert",
        bin.to_str().unwrap(),
        bin.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn eval_fit_headers_give_the_command_that_regenerates_the_file() {
    // Played samples (with --play), the same samples read back, and a
    // pattern fit: each header gives the options that made it, byte for byte.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fit-headers");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = |name: &str| dir.join(name).display().to_string();
    let r = |name: &str| repo(name).display().to_string();
    let (features, play, patterns) = (
        r("engines/weights/features-fit.ron"),
        r("engines/weights/features-v1.ron"),
        r("engines/weights/patterns-empty.ron"),
    );
    let (samples, a, b, c) = (d("s.txt"), d("a.ron"), d("b.ron"), d("c.ron"));
    let header = |args: &[&str], out: &str| {
        let got = arena(&[&["eval", "fit"], args, &["--out", out]].concat());
        assert!(got.status.success(), "{args:?}: {}", stderr(&got));
        let text = std::fs::read_to_string(out).unwrap();
        text.lines().take(3).map(String::from).collect::<Vec<_>>()
    };
    let played = header(
        &[
            "--base",
            &features,
            "--play",
            &play,
            "--samples",
            &samples,
            "--games",
            "3",
            "--seed",
            "2",
            "--random-plies",
            "8",
            "--depth",
            "1",
            "--solve-at",
            "8",
        ],
        &a,
    );
    let n = std::fs::read_to_string(&samples).unwrap().lines().count();
    assert_eq!(
        played,
        [
            "// Feature weights fitted by least squares (centidiscs per unit of each feature).".to_string(),
            format!("// arena eval fit --base {features} --play {play} --games 3 --seed 2 --random-plies 8 --depth 1 --solve-at 8 --ridge 0.001 --out {a}"),
            format!("// Samples: {n} self-play positions labelled by the exact value at --solve-at empties (see src/lab/fit.rs)."),
        ]
    );
    let read = header(
        &["--base", &features, "--samples", &samples, "--ridge", "0.5"],
        &b,
    );
    assert_eq!(
        read[1..],
        [
            format!(
                "// arena eval fit --base {features} --samples {samples} --ridge 0.5 --out {b}"
            ),
            format!("// Samples: {n} positions read from {samples} (see src/lab/fit.rs)."),
        ]
    );
    let fitted = header(
        &[
            "--base",
            &patterns,
            "--samples",
            &samples,
            "--iterations",
            "2",
        ],
        &c,
    );
    assert_eq!(
        fitted[..2],
        [
            "// Pattern tables fitted by least squares (centidiscs; format in src/eval/patterns/file.rs).".to_string(),
            format!("// arena eval fit --base {patterns} --samples {samples} --ridge 20 --iterations 2 --out {c}"),
        ]
    );
}
