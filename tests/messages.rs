//! What a user sees when a file or a command-line value is wrong: one line
//! naming the file, line, column and field in the user's words (never a
//! parser's `Integer is out of bounds` or a type name like `RawStage`), a
//! short excerpt at most of what was written, exit code 1 for a bad file
//! and 2 for a bad command-line value. The messages are snapshots: a change
//! to what users see is made on purpose, here.

use crate::util::{arena, data, repo, stderr};
use std::path::{Path, PathBuf};

/// A fresh folder under cargo's temporary directory.
pub(crate) fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("messages")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A shipped file's text with its relative paths made absolute, so that a
/// copy anywhere loads the same engines, weights and book, and its output
/// folder under the temporary directory (a mistake that turns out valid
/// must not write into the repository).
pub(crate) fn shipped(name: &str) -> String {
    let text = std::fs::read_to_string(repo(name)).unwrap();
    let root = repo("");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("messages/out");
    text.replace("out: \"results/", &format!("out: \"{}/", out.display()))
        .replace("../engines/", &format!("{}engines/", root.display()))
        .replace("../openings/", &format!("{}openings/", root.display()))
        .replace(
            "\"weights/",
            &format!("\"{}engines/weights/", root.display()),
        )
}

/// Runs `args` (with `{}` replaced by `file`) and checks that it fails with
/// exit code 1 and exactly `error: FILE:expected`.
fn expect_file_error(file: &Path, args: &[&str], expected: &str) {
    let path = file.to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "{}" { path } else { a })
        .collect();
    let out = arena(&args);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!("error: {path}:{expected}\n"),
        "{args:?}"
    );
}

/// Writes `base` with `from` replaced by `to` (once) to `dir/name` and
/// returns the file.
fn variant(dir: &Path, name: &str, base: &str, from: &str, to: &str) -> PathBuf {
    assert!(
        base.contains(from),
        "{name}: {from:?} is not in the base text"
    );
    let path = dir.join(name);
    std::fs::write(&path, base.replacen(from, to, 1)).unwrap();
    path
}

#[test]
fn tournament_config_errors_name_the_field_and_value() {
    let dir = tmp("tournament");
    let base = shipped("configs/quick.ron");
    let cases: &[(&str, &str, &str)] = &[
        ("concurrency: 2", "concurrency: -2", "30:19: concurrency must be at least 1, got -2"),
        ("concurrency: 2", "concurrency: 2.5", "30:19: concurrency must be a whole number, got 2.5"),
        ("seed: 1,", "seed: -1,", "32:12: seed must be at least 0, got -1"),
        ("name: \"quick\"", "name: 5", "7:10: name must be text in double quotes, got 5"),
        ("rounds: 30", "rounds: -1", "25:33: rounds must be at least 1, got -1"),
        ("rounds: 30", "rounds: 1e3", "25:32: rounds must be a whole number, got 1e3"),
        ("limit: Depth(6)", "limit: Clock(base_ms: 10, inc_ms: 1)", "16:26: engines entry 3, limit: Clock takes numbers in order, without field names; got `base_ms`"),
        ("name: \"quick\"", "name: \"qu\nick\"", "7:5: name: \"qu\\nick\" holds a line break, tab or other control character; a name is one line of text"),
        ("fail_on_h0: false,", "fail_on_h0: false, colour: 1,", "36:24: `colour` is not a field of a tournament config; the fields are name, engines, format, book, concurrency, seed, out, fail_on_h0, time_control, adjudicate, limit or speed"),
        ("order: Random, ", "", "28:{close}: book needs the field `order:`, which is missing"),
        ("RoundRobin(rounds: 30)", "Ladder(rounds: 30)", "25:13: format: unknown value `Ladder`; expected RoundRobin, Gauntlet, Sprt, Spsa, Knockout or Swiss"),
        ("tt_mib: 4,", "tt_mib: -4,", "18:22: engines entry 3, tt_mib must be at least 0, got -4"),
        ("limit: Depth(6)", "limit: Depth(-6)", "16:27: engines entry 3, limit: Depth must be at least 1, got -6"),
        ("FastestFirst]", "Fastest]", "17:43: engines entry 3, ordering entry 3: unknown value `Fastest`; expected SquareWeights, HashMove, Killers, History, FastestFirst, ShallowSearch or EdaxFast"),
        ("fail_on_h0: false", "fail_on_h0: yes", "36:16: fail_on_h0 must be true or false, got `yes`"),
        ("\nTournament(", "\nEngine(", "5:1: this file holds `Engine(...)`, but a tournament config is expected here (it starts with `Tournament(`)"),
        (")\n", ")\ngarbage\n", "38:1: unexpected text after the end of the file's value: `garbage`"),
    ];
    for (i, (from, to, expected)) in cases.iter().enumerate() {
        let file = variant(&dir, &format!("c{i}.ron"), &base, from, to);
        // The book's line holds the absolute path of the checkout, so the
        // column of its closing parenthesis depends on where the repository
        // was cloned.
        let text = std::fs::read_to_string(&file).unwrap();
        let close = text.lines().nth(27).and_then(|l| l.find(')')).unwrap() + 1;
        let expected = expected.replace("{close}", &close.to_string());
        expect_file_error(&file, &["run", "{}"], &expected);
    }
}

#[test]
fn engine_weights_and_probcut_errors_name_the_field_and_value() {
    let dir = tmp("engine");
    let engine = shipped("engines/features-v1.ron");
    let search = ["search", "--depth", "1", "--engine", "{}"];
    let cases: &[(&str, &str, &str)] = &[
        (
            "Depth(4)",
            "Clock(1)",
            "16:19: limit: Clock takes 2 values, got 1",
        ),
        (
            "search: Pvs",
            "search: AlphaBeta",
            "10:22: search: AlphaBeta needs its values in parentheses, like AlphaBeta(...)",
        ),
        (
            "aspiration: None",
            "aspiration: 50",
            "14:16: aspiration must be None or Some(...), got 50",
        ),
        (
            "seed: 0",
            "seed: 0, seed: 1",
            "28:14: `seed:` is given twice in an engine",
        ),
        (
            "endgame_exact_at: 0",
            "endgame_exact_at: -1",
            "24:24: endgame_exact_at must be at least 0, got -1",
        ),
        (
            "    search: Pvs,\n",
            "",
            "28:1: an engine needs the field `search:`, which is missing",
        ),
    ];
    for (i, (from, to, expected)) in cases.iter().enumerate() {
        let file = variant(&dir, &format!("e{i}.ron"), &engine, from, to);
        expect_file_error(&file, &search, expected);
    }

    // Weights of each kind, read through an engine that names them.
    let weights: &[(&str, &str, &str, &str, &str)] = &[
        ("WeightedSquares", "squares-classic.ron", "squares: [100,", "squares: [100.5,", "12:26: stages entry 1, squares entry 1 must be a whole number, got 100.5"),
        ("WeightedSquares", "squares-classic.ron", "squares: [100,", "squares: [99999999999,", "12:23: stages entry 1, squares entry 1 must be at most 100000, got 99999999999"),
        ("Features", "features-v1.ron", "mobility: 10.0, ", "", "8:66: stages entry 1 needs the field `mobility:`, which is missing"),
        ("Features", "features-v1.ron", "mobility: 10.0", "mobility: 10.0, edges: 1.0", "7:43: `edges` is not a field of stages entry 1; the fields are min_empties, mobility, frontier, corners, x_squares, c_squares, stable, discs or parity"),
        ("Features", "features-v1.ron", "mobility: 10.0", "mobility: 1e300", "7:27: mobility: stage 1: weight 1e300 is not a finite number of at most 100000 in size"),
        ("Features", "features-v1.ron", "\nFeatures(", "\nWeightedSquares(", "4:1: this file holds `WeightedSquares(...)`, but a Features weights file is expected here (it starts with `Features(`)"),
        ("Patterns", "patterns-empty.ron", "tables: {", "tables: [", "6:60: stages entry 1, tables must be a map in {...}, got `[`"),
    ];
    for (i, (kind, file, from, to, expected)) in weights.iter().enumerate() {
        let base = std::fs::read_to_string(repo(&format!("engines/weights/{file}"))).unwrap();
        let w = variant(&dir, &format!("w{i}.ron"), &base, from, to);
        let e = dir.join(format!("we{i}.ron"));
        std::fs::write(
            &e,
            format!("Engine(name: \"w\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: {kind}(weights: {:?}))", w.display()),
        )
        .unwrap();
        let out = arena(&["eval", "--engine", e.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out), format!("error: {}:{expected}\n", w.display()));
    }

    let probcut = std::fs::read_to_string(repo("engines/probcut/strong.ron")).unwrap();
    for (i, (from, to, expected)) in [
        (
            "(deep: 3,",
            "(deep: -3,",
            "9:21: stages entry 1, pairs entry 1, deep must be at least 1, got -3",
        ),
        (
            "a: 1.0093, ",
            "",
            "9:56: stages entry 1, pairs entry 1 needs the field `a:`, which is missing",
        ),
    ]
    .iter()
    .enumerate()
    {
        let p = variant(&dir, &format!("p{i}.ron"), &probcut, from, to);
        let e = variant(
            &dir,
            &format!("pe{i}.ron"),
            &engine,
            "probcut: None",
            &format!("probcut: Some({:?})", p.display()),
        );
        let out = arena(&["search", "--depth", "1", "--engine", e.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out), format!("error: {}:{expected}\n", p.display()));
    }
}

/// Every RON mistake we could think of, each in a file of its own: the
/// message never shows a parser's or a type's words.
#[test]
fn no_message_shows_parser_or_type_names() {
    let dir = tmp("words");
    let base = shipped("configs/sprt-eval.ron");
    let mistakes = [
        ("max_pairs: 5000", "max_pairs: -5"),
        ("elo1: 20.0", "elo1: \"20\""),
        ("model: Normalized", "model: Gaussian"),
        ("beta: 0.05, ", ""),
        ("start: 0)", "start: -1)"),
        ("start: 0)", "start: 0, x: 2)"),
        ("order: Random", "order: Shuffle"),
        ("seed: 1,", "seed: 1,,"),
        ("seed: 1,", "seed: 1 2,"),
        ("Path(\"", "File(\""),
        ("fail_on_h0: true,", "fail_on_h0: true, fail_on_h0: true,"),
        ("\n)", "\n"),
    ];
    for (i, (from, to)) in mistakes.iter().enumerate() {
        let file = variant(&dir, &format!("m{i}.ron"), &base, from, to);
        let out = arena(&["run", file.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{to}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        for word in [
            "Raw",
            "Expected",
            "Unexpected",
            "out of bounds",
            "Tournament`",
            "struct",
        ] {
            assert!(!err.contains(word), "{to:?} gives {err}");
        }
    }
}

/// A path that points at something else entirely (a directory, a binary,
/// a huge one-line file, another kind of file) is one short line: what it
/// is, never its contents.
#[test]
fn a_path_to_the_wrong_thing_says_what_it_is_in_one_short_line() {
    let dir = tmp("wrong-thing");
    let binary = dir.join("binary.ron");
    std::fs::write(&binary, b"Engine(name: \"\xff\xfe\")").unwrap();
    let huge = dir.join("huge.ron");
    std::fs::write(&huge, "x".repeat(200_000)).unwrap();
    let folder = dir.join("folder.ron");
    std::fs::create_dir_all(&folder).unwrap();
    for target in [&binary, &huge, &folder] {
        let t = target.to_str().unwrap();
        let weights_engine = dir.join("we.ron");
        std::fs::write(
            &weights_engine,
            format!(
                "Engine(name: \"w\", search: Pvs, limit: Depth(1), eval: Features(weights: {t:?}))"
            ),
        )
        .unwrap();
        for args in [
            vec!["run", t],
            vec!["search", "--engine", t],
            vec!["search", "--engine", weights_engine.to_str().unwrap()],
            vec!["book", "check", t],
            vec!["solve", t],
            vec![
                "solve",
                data("ffo/fforum-40-42.obf").to_str().unwrap(),
                "--order-eval",
                t,
                "--lines",
                "1",
            ],
            vec!["tree", t, "--algorithm", "minimax"],
            vec!["stats", "ratings", t],
        ] {
            let out = arena(&args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.len() < 300, "{args:?}: {err}");
            if target == &folder {
                assert!(
                    err.contains("is a directory, not a file"),
                    "{args:?}: {err}"
                );
            }
            if target == &binary {
                assert!(
                    err.contains("is not UTF-8 text (byte 0xff at line 1, column 15)"),
                    "{args:?}: {err}"
                );
            }
        }
    }
}

/// A byte order mark (as Windows editors write) is accepted silently:
/// every file reads the same with or without one.
#[test]
fn a_byte_order_mark_is_ignored() {
    let dir = tmp("bom");
    let bom = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("\u{feff}{text}")).unwrap();
        path
    };
    let weights = bom(
        "w.ron",
        &std::fs::read_to_string(repo("engines/weights/features-v1.ron")).unwrap(),
    );
    let engine = bom(
        "e.ron",
        &format!(
            "Engine(name: \"b\", search: Pvs, limit: Depth(2), eval: Features(weights: {:?}))",
            weights.display()
        ),
    );
    let book = bom("b.txt", "f5d6\nf5f6\n");
    let obf = bom(
        "p.obf",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n",
    );
    let tree = bom("t.tree.ron", "[[7, 3], [15], [1, 12, 20, 22]]");
    let results = bom("r.txt", "a b 1\nb a 0.5\n");
    let config = bom(
        "c.ron",
        &format!(
            "Tournament(name: \"b\", engines: [Path({:?}), Inline(Engine(name: \"r\", search: Random))], format: RoundRobin(rounds: 1), book: (file: {:?}, order: Sequential), out: {:?})",
            engine.display(),
            book.display(),
            dir.join("out").display()
        ),
    );
    for args in [
        vec!["search", "--engine", engine.to_str().unwrap()],
        vec!["book", "check", book.to_str().unwrap()],
        vec!["solve", obf.to_str().unwrap()],
        vec!["tree", tree.to_str().unwrap(), "--algorithm", "alphabeta"],
        vec!["stats", "ratings", results.to_str().unwrap()],
        vec!["run", config.to_str().unwrap(), "--quiet"],
    ] {
        let out = arena(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
}

/// Every bad command-line value exits with 2, whether clap or the command
/// finds it; a bad file named on the command line exits with 1.
#[test]
fn bad_command_line_values_exit_2_and_bad_files_exit_1() {
    let obf = data("ffo/fforum-40-42.obf");
    let obf = obf.to_str().unwrap();
    let usage: &[&[&str]] = &[
        &["search", "--depth", "0"],
        &["search", "--depth", "61"],
        &["search", "--nodes", "0"],
        &["search", "--movetime", "0"],
        &["search", "--tt-mib", "99999"],
        &["search", "--position", "zz"],
        &["search", "--eval", "features"],
        &[
            "search",
            "--game",
            "tictactoe",
            "--eval",
            "squares",
            "--weights",
            "x.ron",
        ],
        &["search", "--algorithm", "minimax", "--tt-mib", "4"],
        &["perft", "--depth", "1", "--position", "zz"],
        &[
            "eval",
            "--engine",
            "engines/features-v1.ron",
            "--position",
            "zz",
        ],
        &["stats", "wdl", "1", "2", "3", "--alpha", "2"],
        &["stats", "wdl", "1", "2", "3", "--elo0", "5", "--elo1", "0"],
        &[
            "stats",
            "ratings",
            "tests/data/stats/ratings.txt",
            "--anchor",
            "nobody",
        ],
        &["solve", obf, "--lines", "3-1"],
        // Lines the file has no position on: "0 of 0 correct" would pass.
        &["solve", obf, "--lines", "30-40"],
        &["solve", obf, "--tt-mib", "0"],
        &["bench", "--depth", "0"],
        &["book", "generate", "--plies", "0", "--out", "x.txt"],
    ];
    for args in usage {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(*args)
            .current_dir(repo(""))
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
    let files: &[&[&str]] = &[
        &[
            "search",
            "--eval",
            "features",
            "--weights",
            "no/such/weights.ron",
        ],
        &["search", "--engine", "no/such/engine.ron"],
        &["solve", "no/such/file.obf"],
        &["run", "no/such/config.ron"],
    ];
    for args in files {
        let out = arena(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    }
    // A file with no position is not "0 of 0 correct".
    let empty = tmp("empty-obf").join("empty.obf");
    std::fs::write(&empty, "% nothing here\n").unwrap();
    let out = arena(&["solve", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no position in this file"),
        "{}",
        stderr(&out)
    );
}

/// `solve` says on stderr which line disagrees with the file, and both
/// scores.
#[test]
fn solve_names_the_line_and_both_scores_of_a_wrong_expectation() {
    let dir = tmp("solve");
    let file = dir.join("wrong.obf");
    std::fs::write(
        &file,
        "% FFO #1 is +18, not +20\n--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+20;\n",
    )
    .unwrap();
    let out = arena(&["solve", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "{}:2: the file gives score +20, the solver finds +18\n",
            file.display()
        )
    );
}

/// Thousands of small edits of shipped files (a character deleted,
/// replaced, or a `-1` inserted): whatever the parser says, the message
/// stays one short line in the user's words, and nothing panics.
#[test]
fn every_small_edit_of_a_shipped_file_gives_a_short_plain_message() {
    use arena::engine::EngineConfig;
    use arena::eval::{Features, WeightedSquares};
    use arena::search::probcut::ProbCut;
    use arena::tournament::Tournament;
    type Parse = fn(&str, &Path) -> Option<String>;
    let kinds: [(&str, Parse); 5] = [
        ("engines/alphabeta-d6.ron", |t, p| {
            EngineConfig::parse(t, p).err().map(|e| e.to_string())
        }),
        // A tournament's engines and book are not found from here, so
        // only the parse and the first checks run.
        ("configs/sprt-eval.ron", |t, _| {
            Tournament::parse(t, Path::new("/no/such/dir/c.ron"))
                .err()
                .map(|e| e.to_string())
        }),
        ("engines/weights/features-v1.ron", |t, p| {
            Features::parse(t, p).err().map(|e| e.to_string())
        }),
        ("engines/weights/squares-classic.ron", |t, p| {
            WeightedSquares::parse(t, p).err().map(|e| e.to_string())
        }),
        ("engines/probcut/strong.ron", |t, p| {
            ProbCut::parse(t, p).err().map(|e| e.to_string())
        }),
    ];
    let mut checked = 0;
    for (name, parse) in kinds {
        let path = repo(name);
        let chars: Vec<char> = std::fs::read_to_string(&path).unwrap().chars().collect();
        for k in (0..chars.len()).step_by(3) {
            let edits = [
                [&chars[..k], &chars[k + 1..]].concat(),
                [&chars[..k], &['x'][..], &chars[k + 1..]].concat(),
                [&chars[..k], &['-', '1'][..], &chars[k..]].concat(),
            ];
            for edit in edits {
                let edited: String = edit.into_iter().collect();
                let Some(err) = parse(&edited, &path) else {
                    continue;
                };
                checked += 1;
                assert!(err.len() < 400, "{err}");
                assert!(!err.contains('\n'), "{err}");
                for word in ["Raw", "Expected", "Unexpected", "out of bounds"] {
                    assert!(!err.contains(word), "{err}");
                }
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}

/// A tournament with two inline engines written alike, whose `tweak` is
/// applied to the second (or, with `top`, to the tournament itself).
fn two_inline(second: &str, top: &str) -> String {
    let root = repo("");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("messages/out-two");
    format!(
        r#"Tournament(
    name: "two",
    engines: [
        Inline(Engine(
            name: "a",
            search: Pvs,
            limit: Depth(2),
            tt_mib: 4,
            eval: Discs,
        )),
        Inline(Engine(
            {second}
            search: Pvs,
            limit: Depth(2),
            tt_mib: 4,
            eval: Discs,
        )),
    ],
    format: RoundRobin(rounds: 1),
    book: (file: "{root}openings/all-4ply.txt", order: Sequential, start: 0),
    concurrency: 1,
    seed: 1,
    out: "{out}",
    {top}
)
"#,
        root = root.display(),
        out = out.display(),
    )
}

#[test]
fn an_error_points_at_the_entry_or_level_it_is_in() {
    let dir = tmp("levels");
    let cases: &[(&str, &str, &str, &str)] = &[
        // The second engine's own field, not the first engine's alike one.
        (
            "name: \"b\",",
            "",
            "tt_mib: 4,",
            "15:22: engines entry 2, tt_mib must be at least 0, got -4",
        ),
        // Two engines named alike: the second entry is the culprit.
        (
            "name: \"a\",",
            "",
            "",
            "11:9: engines: two engines are named \"a\"; names must be unique (they label results)",
        ),
        // A tournament's limit is the tournament's, not the engines'.
        (
            "name: \"b\",",
            "limit: Some(Depth(0)),",
            "",
            "24:5: limit: Depth(0) searches nothing; the depth must be at least 1",
        ),
        (
            "name: \"b\",",
            "time_control: Some(MoveTime(0)),",
            "",
            "24:5: time_control: MoveTime(0): the time must be at least 1 ms",
        ),
    ];
    for (i, (second, top, bad_tt, expected)) in cases.iter().enumerate() {
        let mut text = two_inline(second, top);
        if !bad_tt.is_empty() {
            // Only the second engine's `tt_mib` (its last occurrence).
            let at = text.rfind(bad_tt).unwrap();
            text.replace_range(at..at + bad_tt.len(), "tt_mib: -4,");
        }
        let file = dir.join(format!("t{i}.ron"));
        std::fs::write(&file, &text).unwrap();
        expect_file_error(&file, &["run", "{}"], expected);
    }
}

#[test]
fn a_field_named_in_a_nested_block_comment_does_not_move_the_place() {
    // RON block comments nest: the field on line 3 is inside one comment.
    let dir = tmp("nested-comment");
    let root = repo("");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("messages/out-nested");
    let file = dir.join("t.ron");
    std::fs::write(
        &file,
        format!(
            r#"Tournament(
    name: "nested",
    /* old /* nested */ concurrency: 3 */
    engines: [Path("{root}engines/random.ron"), Path("{root}engines/alphabeta-d6.ron")],
    format: RoundRobin(rounds: 1),
    concurrency: 0,
    book: (file: "{root}openings/all-4ply.txt", order: Sequential, start: 0),
    seed: 1,
    out: "{out}",
)
"#,
            root = root.display(),
            out = out.display(),
        ),
    )
    .unwrap();
    expect_file_error(
        &file,
        &["run", "{}"],
        "6:5: concurrency: must be 1 to 256, got 0",
    );
}

#[test]
fn an_external_engine_limit_beyond_the_game_is_refused() {
    let dir = tmp("external-limit");
    let file = dir.join("deep.ron");
    std::fs::write(
        &file,
        format!(
            "External(\n    name: \"deep\",\n    command: \"{}\",\n    args: [\"serve\"],\n    protocol: Nboard,\n    limit: Some(Depth(999)),\n)\n",
            env!("CARGO_BIN_EXE_arena")
        ),
    )
    .unwrap();
    let list = dir.join("t.ron");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("messages/out-ext");
    std::fs::write(
        &list,
        format!(
            r#"Tournament(name: "x", engines: [Path("{}"), Path("{}engines/random.ron")],
    format: RoundRobin(rounds: 1),
    book: (file: "{}openings/all-4ply.txt", order: Sequential, start: 0),
    concurrency: 1, seed: 1, out: "{}")
"#,
            file.display(),
            repo("").display(),
            repo("").display(),
            out.display()
        ),
    )
    .unwrap();
    let got = arena(&["run", list.to_str().unwrap()]);
    assert_eq!(got.status.code(), Some(1), "{}", stderr(&got));
    let err = stderr(&got);
    assert!(
        err.starts_with(&format!("error: {}:6:", file.display()))
            && err.contains("Depth(999) is deeper than the game")
            && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn an_engine_of_another_game_or_an_ignored_flag_is_refused() {
    let dir = tmp("other-game");
    let ttt = dir.join("ttt.ron");
    std::fs::write(
        &ttt,
        "Engine(\n    name: \"t\",\n    game: TicTacToe,\n    search: Minimax,\n    limit: Depth(9),\n)\n",
    )
    .unwrap();
    let p = ttt.to_str().unwrap();
    let want = "3:5: game: engine \"t\" plays tictactoe;";
    for args in [
        vec!["search", "--engine", p],
        vec!["eval", "--engine", p],
        vec!["serve", "--engine", p, "--protocol", "nboard"],
    ] {
        let out = arena(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {p}:{want}")) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    // A weights file the disc count would not read.
    let out = arena(&["search", "--weights", "engines/weights/features-v1.ron"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--weights"), "{}", stderr(&out));
    // A tournament with nowhere to write.
    let base = shipped("configs/quick.ron");
    let out_line = base.lines().position(|l| l.contains("out: \"")).unwrap() + 1;
    let text: Vec<String> = base
        .lines()
        .map(|l| {
            if l.contains("out: \"") {
                "    out: \"\",".into()
            } else {
                l.to_string()
            }
        })
        .collect();
    let file = dir.join("noout.ron");
    std::fs::write(&file, text.join("\n")).unwrap();
    expect_file_error(
        &file,
        &["run", "{}"],
        &format!("{out_line}:5: out: the results folder is empty text; name one, like out: \"results/NAME\""),
    );
}
