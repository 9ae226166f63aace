//! `arena train`: a tiny training run end to end through the binary. The
//! same file gives the same weights on one thread and on two; the weights
//! load and have the design's stages; every stage reports its fit on
//! held-out games; a bad training file is one line naming the file, line
//! and field, and nothing is written.

use crate::util::{arena, repo, stderr, stdout};
use arena::eval::Patterns;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A training file in `dir` (inputs are the repository's, by absolute
/// path), with `field: value` replaced where asked.
fn training(dir: &Path, replace: &[(&str, &str)]) -> PathBuf {
    let mut fields = vec![
        (
            "design",
            format!("{:?}", repo("engines/weights/patterns-empty.ron")),
        ),
        (
            "play",
            format!("{:?}", repo("engines/weights/features-fit.ron")),
        ),
        ("book", format!("{:?}", repo("openings/balanced-8ply.txt"))),
        ("games", "12".into()),
        ("seed", "3".into()),
        ("play_depth", "1".into()),
        ("random", "0.2".into()),
        ("exact_at", "10".into()),
        ("label_depth", "2".into()),
        ("search_weight", "0.5".into()),
        ("held_out", "4".into()),
        ("ridge", "20.0".into()),
        ("iterations", "20".into()),
        ("out", "\"w.bin\"".into()),
    ];
    for (k, v) in replace {
        match fields.iter_mut().find(|f| f.0 == *k) {
            Some(f) => f.1 = (*v).to_string(),
            None => fields.push((k, (*v).to_string())),
        }
    }
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("    {k}: {v},"))
        .collect();
    let path = dir.join("train.ron");
    std::fs::write(&path, format!("Training(\n{}\n)\n", body.join("\n"))).unwrap();
    path
}

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).expect("one JSON object")
}

#[test]
fn the_same_file_trains_the_same_weights_on_one_thread_and_on_two() {
    let one = scratch("one");
    let two = scratch("two");
    let f1 = training(&one, &[]);
    let f2 = training(&two, &[]);
    let r1 = json(&arena(&[
        "train",
        f1.to_str().unwrap(),
        "--threads",
        "1",
        "--json",
    ]));
    let r2 = json(&arena(&[
        "train",
        f2.to_str().unwrap(),
        "--threads",
        "2",
        "--json",
    ]));
    let w1 = std::fs::read(one.join("w.bin")).unwrap();
    let w2 = std::fs::read(two.join("w.bin")).unwrap();
    assert!(w1 == w2, "the weights differ between one and two threads");
    assert_eq!(r1["checksum"], r2["checksum"]);
    assert_eq!(r1["positions"], r2["positions"]);

    // The weights load, with the design's stages.
    let trained = Patterns::load(&one.join("w.bin")).unwrap();
    let design = Patterns::load(&repo("engines/weights/patterns-empty.ron")).unwrap();
    let bounds = |p: &Patterns| p.stages().map(|s| s.0).collect::<Vec<_>>();
    assert_eq!(bounds(&trained), bounds(&design));
    assert_ne!(trained, design, "the fit changed the weights");

    // Every stage has fitted and held-out positions (game 3, 7 and 11 are
    // held out), the stages at or below exact_at are labelled exactly, and
    // the fit is closer to its own labels than the empty design was.
    let stages = r1["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 10);
    for s in stages {
        assert!(s["train"].as_u64().unwrap() > 0, "{s}");
        assert!(s["held_out"].as_u64().unwrap() > 0, "{s}");
        if s["max_empties"].as_u64().unwrap() <= 10 {
            assert_eq!(
                s["exact"],
                s["train"].as_u64().unwrap() + s["held_out"].as_u64().unwrap()
            );
        }
        assert!(s["rmse_train"].as_f64().unwrap() >= 0.0);
    }
    let total: u64 = stages
        .iter()
        .map(|s| s["train"].as_u64().unwrap() + s["held_out"].as_u64().unwrap())
        .sum();
    assert_eq!(Some(total), r1["positions"].as_u64());

    // Another seed plays other games.
    let other = scratch("seed");
    let f = training(&other, &[("seed", "4")]);
    let r = json(&arena(&["train", f.to_str().unwrap(), "--json"]));
    assert_ne!(r["checksum"], r1["checksum"]);
}

#[test]
fn a_design_with_the_fourth_lines_trains_them_and_one_without_leaves_them_out() {
    let with = scratch("row4");
    let f = training(
        &with,
        &[(
            "design",
            &format!("{:?}", repo("engines/weights/patterns-empty-row4.ron")),
        )],
    );
    json(&arena(&["train", f.to_str().unwrap(), "--json"]));
    let trained = Patterns::load(&with.join("w.bin")).unwrap();
    let names = |p: &Patterns| p.patterns().iter().map(|p| p.name).collect::<Vec<_>>();
    assert_eq!(names(&trained).last(), Some(&"row_4"));
    let row_4 = arena::eval::patterns::offset(arena::eval::patterns::FIRST_PATTERNS);
    assert!(
        trained
            .stages()
            .any(|(_, w)| w.tables[row_4..].iter().any(|&t| t != 0)),
        "the fourth lines were fitted"
    );
    // The same training of the ten-pattern design has no fourth lines.
    let without = scratch("no-row4");
    let f = training(&without, &[]);
    json(&arena(&["train", f.to_str().unwrap(), "--json"]));
    let trained = Patterns::load(&without.join("w.bin")).unwrap();
    assert_eq!(names(&trained).len(), arena::eval::patterns::FIRST_PATTERNS);
}

#[test]
fn outcome_labels_alone_need_no_search_and_still_fit() {
    let dir = scratch("outcome");
    let f = training(&dir, &[("search_weight", "0.0"), ("held_out", "0")]);
    let r = json(&arena(&["train", f.to_str().unwrap(), "--json"]));
    for s in r["stages"].as_array().unwrap() {
        assert_eq!(s["held_out"], 0);
        assert_eq!(
            s["label_seconds"].as_f64(),
            Some(0.0),
            "no labelling search: {s}"
        );
    }
    assert!(Patterns::load(&dir.join("w.bin")).is_ok());
}

#[test]
fn parity_true_fits_a_parity_weight_and_writes_the_second_binary_form() {
    let plain = scratch("no-parity");
    let f = training(&plain, &[("search_weight", "0.0")]);
    let r0 = json(&arena(&["train", f.to_str().unwrap(), "--json"]));
    let bytes = std::fs::read(plain.join("w.bin")).unwrap();
    assert!(bytes.starts_with(b"ARENAPW1"));
    assert!(!Patterns::load(&plain.join("w.bin")).unwrap().has_parity());

    let dir = scratch("parity");
    let f = training(&dir, &[("search_weight", "0.0"), ("parity", "true")]);
    let r1 = json(&arena(&["train", f.to_str().unwrap(), "--json"]));
    let bytes = std::fs::read(dir.join("w.bin")).unwrap();
    assert!(bytes.starts_with(b"ARENAPW2"));
    let w = Patterns::load(&dir.join("w.bin")).unwrap();
    let weighed = w.stages().filter(|(_, s)| s.parity != 0.0).count();
    assert!(weighed >= 5, "{weighed} of 10 stages weigh the parity");
    // The same positions and labels, one more free weight a stage: the
    // fit is at least about as close to them.
    let fit_error = |r: &serde_json::Value| -> f64 {
        r["stages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["rmse_train"].as_f64().unwrap())
            .sum()
    };
    assert_eq!(r0["positions"], r1["positions"]);
    assert!(
        fit_error(&r1) <= fit_error(&r0) * 1.01,
        "{} > {}",
        fit_error(&r1),
        fit_error(&r0)
    );
}

#[test]
fn a_bad_training_file_is_one_line_naming_file_line_and_field() {
    let cases: &[(&str, &str, &str)] = &[
        ("random", "1.5", "random: 1.5 is not a chance"),
        ("search_weight", "-0.1", "search_weight: -0.1"),
        ("games", "0", "games: 0 is not a number of games"),
        ("label_depth", "0", "label_depth: 0 is not a depth"),
        ("exact_at", "30", "exact_at: 30"),
        ("held_out", "1", "held_out: 1 would hold out every game"),
        ("ridge", "-1.0", "ridge: -1 is not a number >= 0"),
        ("out", "\"w.ron\"", "must end in .bin"),
        (
            "design",
            format!("{:?}", repo("engines/weights/features-fit.ron")).leak(),
            "is not a Patterns weights file",
        ),
        ("design", "\"missing.ron\"", "design: weights file"),
        ("book", "\"missing.txt\"", "book"),
    ];
    for (field, value, says) in cases {
        let dir = scratch(&format!("bad-{field}"));
        let f = training(&dir, &[(field, value)]);
        let out = arena(&["train", f.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{field}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        let line = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .position(|l| l.trim_start().starts_with(&format!("{field}:")))
            .unwrap()
            + 1;
        assert!(
            err.starts_with(&format!("error: {}:{line}:", f.display())),
            "{field}: names the file and line {line}: {err}"
        );
        assert!(err.contains(says), "{field}: {err}");
        assert!(!dir.join("w.bin").exists() && !dir.join("w.ron").exists());
    }
    // A field that does not exist.
    let dir = scratch("unknown");
    let f = training(&dir, &[]);
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace("seed:", "sed:");
    std::fs::write(&f, text).unwrap();
    let out = arena(&["train", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("sed"), "{}", stderr(&out));
    // The output may not overwrite an input.
    let f = training(
        &dir,
        &[
            ("out", format!("{:?}", dir.join("w.bin")).leak()),
            ("play", format!("{:?}", dir.join("w.bin")).leak()),
        ],
    );
    std::fs::copy(repo("engines/weights/patterns-fit.bin"), dir.join("w.bin")).unwrap();
    let out = arena(&["train", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is an input of this training"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn every_shipped_training_file_reads_and_names_its_design() {
    let dir = repo("engines/training");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for f in &files {
        let t =
            arena::lab::train::Training::load(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let patterns = t.design.patterns().len();
        // The third generation fits the fourth lines; the first two did not.
        let third = f.file_name().unwrap() == "patterns-train3.ron";
        assert_eq!(patterns, if third { 11 } else { 10 }, "{}", f.display());
    }
}
