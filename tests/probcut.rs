//! ProbCut: with no chance of a cut it changes nothing, with a fitted model
//! it searches fewer nodes; `arena probcut fit` and `check` work end to end;
//! bad parameters and engine combinations are refused.

use crate::util::{arena, repo, stderr, stdout};
use arena::engine::EngineConfig;
use arena::eval::{EvalSpec, OthelloEval};
use arena::game::othello::{parse_position, Board};
use arena::search::probcut::{Pair, ProbCut, Stage};
use arena::search::{OrderBy, Searcher, Variant};
use std::path::Path;

fn eval() -> OthelloEval {
    OthelloEval::load(
        &EvalSpec::Features {
            weights: "weights/features-fit.ron".into(),
        },
        &repo("engines"),
    )
    .unwrap()
}

fn positions() -> Vec<Board> {
    include_str!("data/bench.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(8)
        .map(|l| parse_position(l.trim()).unwrap())
        .collect()
}

fn model(sigma: f64, confidence: f64) -> ProbCut {
    let pairs = (3..=8)
        .map(|d| Pair {
            deep: d,
            shallow: d / 2 - 1,
            a: 1.0,
            b: 0.0,
            sigma,
        })
        .collect();
    ProbCut {
        confidence,
        stages: vec![Stage {
            min_empties: 0,
            pairs,
        }],
    }
}

fn run(b: &Board, variant: Variant, pc: Option<ProbCut>) -> (i32, u64, u64, u64) {
    let mut s = Searcher::new(
        eval(),
        4,
        vec![OrderBy::HashMove, OrderBy::Killers, OrderBy::FastestFirst],
    );
    s.probcut = pc;
    let v = s.full_window(b, variant, 7);
    (
        v,
        s.stats.nodes,
        s.stats.probcut_tries,
        s.stats.probcut_cuts,
    )
}

#[test]
fn probcut_that_cannot_cut_returns_the_exact_value() {
    // A sigma of a million centidiscs puts every cut bound beyond any score.
    for b in positions() {
        for variant in [
            Variant::Pvs,
            Variant::AlphaBeta {
                fail: arena::search::Fail::Soft,
            },
            Variant::MtdF,
        ] {
            let plain = run(&b, variant, None);
            let never = run(&b, variant, Some(model(9.0e5, 3.0)));
            assert_eq!(never.0, plain.0, "{variant:?}");
            assert!(never.2 > 0, "it tried");
            assert_eq!(never.3, 0, "and never cut");
        }
    }
}

#[test]
fn probcut_with_a_tight_model_cuts_and_saves_nodes() {
    let (mut plain_nodes, mut pc_nodes, mut cuts) = (0, 0, 0);
    for b in positions() {
        let plain = run(&b, Variant::Pvs, None);
        let pc = run(&b, Variant::Pvs, Some(model(200.0, 1.0)));
        plain_nodes += plain.1;
        pc_nodes += pc.1;
        cuts += pc.3;
    }
    assert!(cuts > 0);
    assert!(pc_nodes < plain_nodes, "{pc_nodes} >= {plain_nodes}");
}

#[test]
fn probcut_fit_and_check_work_end_to_end() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("probcut");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(repo("engines/weights/features-fit.ron"), dir.join("w.ron")).unwrap();
    let engine = dir.join("e.ron");
    std::fs::write(
        &engine,
        "Engine(name: \"e\", search: Pvs, limit: Depth(5), tt_mib: 2, ordering: [HashMove, Killers, FastestFirst], eval: Features(weights: \"w.ron\"))",
    )
    .unwrap();
    // The same positions and pairs, plain or `--nested`.
    let fit = |out: &Path, nested: bool| {
        let mut args = vec![
            "probcut",
            "fit",
            "--engine",
            engine.to_str().unwrap(),
            "--games",
            "6",
            "--positions",
            "60",
            "--pairs",
            "3:1,4:2,5:1",
            "--stages",
            "30,0",
            "--out",
            out.to_str().unwrap(),
        ];
        if nested {
            args.push("--nested");
        }
        arena(&args)
    };
    let out = dir.join("pc.ron");
    let r = fit(&out, false);
    assert!(r.status.success(), "{}", stderr(&r));
    let pc = ProbCut::load(&out).unwrap();
    assert_eq!(pc.stages.len(), 2);
    for s in &pc.stages {
        let pairs: Vec<(u32, u32)> = s.pairs.iter().map(|p| (p.deep, p.shallow)).collect();
        assert_eq!(pairs, [(3, 1), (4, 2), (5, 1)]);
        // Shallow and deep searches agree closely: the slope is near 1.
        for p in &s.pairs {
            assert!(p.a > 0.5 && p.a < 1.5 && p.sigma > 0.0, "{p:?}");
        }
    }
    assert!(stdout(&r).contains("wrote"));
    // Nested: the same positions, deep values from searches that cut with
    // the pairs below; depth 3 has none below, so its pair is the plain
    // one, and the file's header gives the command with --nested.
    let nested_out = dir.join("pc-nested.ron");
    let r = fit(&nested_out, true);
    assert!(r.status.success(), "{}", stderr(&r));
    let nested = ProbCut::load(&nested_out).unwrap();
    for (p, n) in pc.stages.iter().zip(&nested.stages) {
        assert_eq!(p.pairs[0], n.pairs[0]);
        assert_eq!(n.pairs.len(), 3);
    }
    let text = std::fs::read_to_string(&nested_out).unwrap();
    assert!(
        text.lines().nth(1).unwrap().contains(" --nested --out "),
        "{text}"
    );
    // The header, byte for byte: the command with the pairs and the
    // engine's own --min-empties (12: it solves nothing exactly).
    let header = |text: &str| text.lines().take(3).map(String::from).collect::<Vec<_>>();
    let command = |out: &Path, nested: &str| {
        format!(
            "// arena probcut fit --engine {} --games 6 --positions 60 --seed 1 --pairs 3:1,4:2,5:1 --stages 30,0 --confidence 1.5 --min-empties 12{nested} --out {}",
            engine.display(),
            out.display()
        )
    };
    assert_eq!(
        header(&text),
        [
            "// ProbCut parameters for e (values in centidiscs).".to_string(),
            command(&nested_out, " --nested"),
            "// 60 positions from self-play with the engine's evaluation, searched by PVS to each depth, the deep searches cutting with the pairs fitted below them (see src/lab/probcut.rs).".into(),
        ]
    );
    assert_eq!(
        header(&std::fs::read_to_string(&out).unwrap())[1..],
        [
            command(&out, ""),
            "// 60 positions from self-play with the engine's evaluation, searched by PVS to each depth (see src/lab/probcut.rs).".into(),
        ]
    );
    // The engine with the fitted file: check reports nodes and agreement.
    let with = dir.join("e-pc.ron");
    std::fs::write(
        &with,
        "Engine(name: \"e\", search: Pvs, deepening: true, limit: Depth(5), tt_mib: 2, ordering: [HashMove, Killers, FastestFirst], eval: Features(weights: \"w.ron\"), probcut: Some(\"pc.ron\"))",
    )
    .unwrap();
    let r = arena(&[
        "probcut",
        "check",
        "--engine",
        with.to_str().unwrap(),
        "--depth",
        "5",
        "--positions",
        "10",
        "--games",
        "4",
        "--json",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let v: serde_json::Value = serde_json::from_str(&stdout(&r)).unwrap();
    assert_eq!(v["positions"], 10);
    assert!(v["nodes_probcut"].as_u64().unwrap() <= v["nodes_full"].as_u64().unwrap());
    assert!(v["same_move"].as_u64().unwrap() <= 10);
    // Without a ProbCut file, check refuses.
    let r = arena(&["probcut", "check", "--engine", engine.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("no ProbCut file"), "{}", stderr(&r));
}

#[test]
fn probcut_errors_name_the_file_and_field() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("probcut-errors");
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join("x.ron");
    let parse = |text: &str| EngineConfig::parse(text, &engine).unwrap_err().to_string();
    let e = parse("Engine(\n  name: \"x\",\n  search: Pvs, limit: Depth(4), eval: Discs,\n  probcut: Some(\"missing.ron\"),\n)");
    assert!(
        e.contains("x.ron:4:") && e.contains("probcut: ProbCut file"),
        "{e}"
    );
    let e = parse("Engine(\n  name: \"x\",\n  search: Minimax, limit: Depth(4), eval: Discs,\n  probcut: Some(\"pc.ron\"),\n)");
    assert!(e.contains("probcut: ProbCut needs a pruning search"), "{e}");
    std::fs::write(
        dir.join("pc.ron"),
        "ProbCut(\n  confidence: 1.0,\n  stages: [(min_empties: 0, pairs: [\n    (deep: 4, shallow: 5, a: 1.0, b: 0.0, sigma: 1.0)])],\n)",
    )
    .unwrap();
    let e = parse("Engine(\n  name: \"x\",\n  search: Pvs, limit: Depth(4), eval: Discs,\n  probcut: Some(\"pc.ron\"),\n)");
    assert!(
        e.contains("pc.ron:4:") && e.contains("shallow: stage 1: 5 must be less than deep"),
        "{e}"
    );
    let ok = ProbCut::parse(
        "ProbCut(confidence: 1.0, stages: [(min_empties: 0, pairs: [])])",
        Path::new("ok.ron"),
    );
    assert!(ok.is_ok());
    let r = arena(&[
        "probcut",
        "fit",
        "--engine",
        repo("engines/random.ron").to_str().unwrap(),
        "--out",
        dir.join("o.ron").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("random mover"), "{}", stderr(&r));
    let r = arena(&[
        "probcut",
        "fit",
        "--engine",
        repo("engines/strong.ron").to_str().unwrap(),
        "--pairs",
        "4:4",
        "--out",
        dir.join("o.ron").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2), "a bad command-line value");
    assert!(stderr(&r).contains("--pairs"), "{}", stderr(&r));
}

#[test]
fn probcut_never_cuts_a_search_that_reaches_the_end() {
    // At 10 empties a depth-12 search is exact; the most aggressive model
    // (sigma 0, confidence 0) must not change its value.
    let mut rng = arena::rng::SplitMix64::new(5);
    for _ in 0..20 {
        let mut b = Board::start();
        let mut moves = arena::game::MoveList::new();
        while b.empties() > 10 && !arena::game::Game::is_over(&b) {
            moves.clear();
            arena::game::Game::generate_moves(&b, &mut moves);
            b = arena::game::Game::play(&b, moves.get(rng.below(moves.len() as u64) as usize));
        }
        let mut model = model(0.0, 0.0);
        model.stages[0].pairs = (3..=12)
            .map(|d| Pair {
                deep: d,
                shallow: 1,
                a: 1.0,
                b: 0.0,
                sigma: 0.0,
            })
            .collect();
        let mut plain = Searcher::new(eval(), 1, vec![]);
        let mut pc = Searcher::new(eval(), 1, vec![]);
        pc.probcut = Some(model);
        assert_eq!(
            pc.full_window(&b, Variant::Pvs, 12),
            plain.full_window(&b, Variant::Pvs, 12)
        );
        assert_eq!(pc.stats.probcut_cuts, 0);
    }
}

#[test]
fn probcut_fit_endgame_gives_the_command_in_its_header() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("probcut-endgame");
    std::fs::create_dir_all(&dir).unwrap();
    let order = repo("engines/weights/features-fit.ron");
    let header = |order_eval: Option<&Path>, name: &str| {
        let out = dir.join(name);
        let mut args = vec![
            "probcut",
            "fit-endgame",
            "--games",
            "20",
            "--positions",
            "10",
            "--seed",
            "3",
            "--stages",
            "10:1,11:2",
            "--out",
            out.to_str().unwrap(),
        ];
        if let Some(p) = order_eval {
            args.extend(["--order-eval", p.to_str().unwrap()]);
        }
        let r = arena(&args);
        assert!(r.status.success(), "{}", stderr(&r));
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<String> = text.lines().take(4).map(String::from).collect();
        (lines, out)
    };
    let notes = [
        "// Positions from self-play with the ordering evaluation, solved exactly and searched by the solver's shallow search (src/lab/endcut.rs).",
        "// The solver's passes use their own confidences (src/endgame/selective.rs): the confidence below is not read.",
    ];
    let (lines, out) = header(None, "builtin.ron");
    assert_eq!(
        lines,
        [
            "// The exact solver's cut model (Multi-ProbCut on the exact score; values in centidiscs; deep: 60 means the exact score).".to_string(),
            format!("// arena probcut fit-endgame --games 20 --positions 10 --seed 3 --stages 11:2,10:1 --out {}", out.display()),
            notes[0].into(),
            notes[1].into(),
        ]
    );
    let (lines, out) = header(Some(&order), "ordered.ron");
    assert_eq!(
        lines[1],
        format!(
            "// arena probcut fit-endgame --order-eval {} --games 20 --positions 10 --seed 3 --stages 11:2,10:1 --out {}",
            order.display(),
            out.display()
        )
    );
}
