//! Hostile inputs through the binary: a FIFO where a file should be, a book
//! aimed at a file of secrets, out-of-range flags, paths holding control
//! characters, an output folder that is a dangling link or holds files
//! arena did not write, and an engine that cannot start. Each is refused at
//! once, on one line naming the path or the argument, with the exit code
//! of its kind (1 for input and files, 2 for a command-line value).

use crate::tournament::{squares, tmp};
use crate::util::{repo, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `args`, killed if it is still running after 60 s
/// (a FIFO that hangs it fails the test instead of hanging the suite).
fn arena_bounded(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary runs");
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("arena {args:?} still running after 60 s: {}", stderr(&out));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The one line of an error run: exit `code`, stderr one `error:` line.
fn one_line_error(out: &Output, code: i32) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// A two-engine round robin in `dir` (engines inline unless `engines`),
/// book `book` (relative to the config), output `dir/out`.
fn config_file(dir: &Path, book: Option<&Path>, engines: Option<&str>) -> PathBuf {
    let inline = format!(
        "Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"b\", search: AlphaBeta(fail: Soft), limit: Depth(1), eval: WeightedSquares(weights: {:?})))",
        squares()
    );
    let book = book.map_or(String::new(), |b| {
        format!("book: (file: {b:?}, order: Sequential),")
    });
    let text = format!(
        "Tournament(\n  name: \"h\",\n  engines: [{}],\n  format: RoundRobin(rounds: 1),\n  {book}\n  seed: 1,\n  out: {:?},\n)\n",
        engines.unwrap_or(&inline),
        dir.join("out")
    );
    let path = dir.join("config.ron");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_fifo_as_config_book_or_weights_is_refused_at_once() {
    let dir = tmp("hostile-fifo");
    let fifo = dir.join("f.ron");
    mkfifo(&fifo);
    let err = one_line_error(&arena_bounded(&["run", fifo.to_str().unwrap()]), 1);
    assert!(err.contains("f.ron") && err.contains("FIFO"), "{err}");

    let book = dir.join("book.txt");
    mkfifo(&book);
    let config = config_file(&dir, Some(&book), None);
    let err = one_line_error(&arena_bounded(&["run", config.to_str().unwrap()]), 1);
    assert!(
        err.contains("config.ron:") && err.contains("book.txt") && err.contains("FIFO"),
        "{err}"
    );

    let weights = dir.join("w.ron");
    mkfifo(&weights);
    let engine = format!(
        "Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"w\", search: Pvs, limit: Depth(1), eval: WeightedSquares(weights: {weights:?})))"
    );
    let config = config_file(&dir, None, Some(&engine));
    let err = one_line_error(&arena_bounded(&["run", config.to_str().unwrap()]), 1);
    assert!(err.contains("w.ron") && err.contains("FIFO"), "{err}");

    // A device: it would never end.
    let err = one_line_error(&arena_bounded(&["run", "/dev/zero"]), 1);
    assert!(err.contains("/dev/zero") && err.contains("device"), "{err}");
}

#[test]
fn a_book_aimed_at_a_file_of_secrets_quotes_its_first_word_only() {
    let dir = tmp("hostile-secrets");
    let secrets = dir.join("secrets.env");
    let mut text = String::from("PASSWORD=hunter2 and more\nAPI_KEY=sk-live-0123456789abcdef\n");
    for i in 0..30 {
        text.push_str(&format!("user{i}:x:{i}:{i}:secret-{i}:/home\n"));
    }
    std::fs::write(&secrets, text).unwrap();
    let config = config_file(&dir, Some(&secrets), None);
    let err = one_line_error(&arena_bounded(&["run", config.to_str().unwrap()]), 1);
    assert!(
        err.contains("32 bad lines") && err.contains("PASSWORD"),
        "{err}"
    );
    for secret in ["hunter2", "sk-live", "API_KEY", "user3", "secret-"] {
        assert!(!err.contains(secret), "{secret} shown: {err}");
    }
}

#[test]
fn rounds_beyond_any_tournament_is_a_usage_error_of_the_flag() {
    let dir = tmp("hostile-rounds");
    let config = config_file(&dir, None, None);
    let out = arena_bounded(&[
        "run",
        config.to_str().unwrap(),
        "--rounds",
        "99999999999999",
    ]);
    let err = one_line_error(&out, 2);
    assert!(
        err.contains("--rounds") && !err.contains("config.ron"),
        "{err}"
    );
}

#[test]
fn an_engine_path_that_is_a_folder_is_placed_in_the_config() {
    let dir = tmp("hostile-engine-dir");
    let folder = dir.join("engine.ron");
    std::fs::create_dir_all(&folder).unwrap();
    let engines = format!("Path({folder:?}), Inline(Engine(name: \"a\", search: Random, seed: 1))");
    let config = config_file(&dir, None, Some(&engines));
    let err = one_line_error(&arena_bounded(&["run", config.to_str().unwrap()]), 1);
    assert!(
        err.contains("config.ron:3:") && err.contains("engines") && err.contains("is a directory"),
        "{err}"
    );
}

#[test]
fn a_path_with_a_newline_is_shown_escaped_on_one_line() {
    let dir = tmp("hostile-newline");
    let odd = dir.join("two\nlines.ron");
    let err = one_line_error(&arena_bounded(&["run", odd.to_str().unwrap()]), 1);
    assert!(err.contains("two\\nlines.ron"), "{err}");
    // An ordinary path reads as it is.
    let plain = dir.join("missing.ron");
    let err = one_line_error(&arena_bounded(&["run", plain.to_str().unwrap()]), 1);
    assert!(err.contains(&format!("{}", plain.display())), "{err}");
}

#[test]
fn an_output_folder_that_is_a_dangling_link_is_said_so() {
    let dir = tmp("hostile-dangling");
    let config = config_file(&dir, None, None);
    let link = dir.join("out-link");
    std::os::unix::fs::symlink(dir.join("nowhere"), &link).unwrap();
    let out = arena_bounded(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        link.to_str().unwrap(),
    ]);
    let err = one_line_error(&out, 1);
    assert!(
        err.contains("out-link") && err.contains("symbolic link") && err.contains("nowhere"),
        "{err}"
    );
    assert!(!err.contains("File exists"), "{err}");
}

#[test]
fn a_run_never_replaces_a_file_it_did_not_write() {
    let dir = tmp("hostile-foreign");
    let config = config_file(&dir, None, None);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let foreign = out.join("results.json");
    std::fs::write(&foreign, "{\"mine\": true}\n").unwrap();
    for more in [&[][..], &["--overwrite"][..]] {
        let mut args = vec!["run", config.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(more);
        let err = one_line_error(&arena_bounded(&args), 1);
        assert!(
            err.contains("results.json") && err.contains("not written"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(&foreign).unwrap(),
            "{\"mine\": true}\n"
        );
    }
    // A journal.jsonl that is not arena's is not replaced by --overwrite.
    std::fs::remove_file(&foreign).unwrap();
    std::fs::write(out.join("journal.jsonl"), "my notes\n").unwrap();
    let args = ["run", config.to_str().unwrap(), "--quiet", "--overwrite"];
    let err = one_line_error(&arena_bounded(&args), 1);
    assert!(
        err.contains("journal.jsonl") && err.contains("not an arena journal"),
        "{err}"
    );
    // Arena's own folder is replaced by --overwrite, as before.
    std::fs::remove_file(out.join("journal.jsonl")).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", config.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(extra);
        arena_bounded(&args)
    };
    assert_eq!(run(&[]).status.code(), Some(0));
    let again = run(&["--overwrite"]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
}

/// A script engine that fails at start as Edax does without its data.
fn no_data_engine(dir: &Path) -> PathBuf {
    let script = dir.join("edax.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'Cannot open data/eval.dat' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let engine = dir.join("edax.ron");
    std::fs::write(
        &engine,
        format!(
            "External(name: \"edax\", command: {script:?}, args: [\"-q\"], protocol: Nboard, ready_timeout_ms: 5000, reply_timeout_ms: 5000)"
        ),
    )
    .unwrap();
    engine
}

#[test]
fn an_engine_failing_its_first_games_before_a_move_stops_the_run() {
    let dir = tmp("hostile-broken");
    let engine = no_data_engine(&dir);
    let engines = format!("Path({engine:?}), Inline(Engine(name: \"a\", search: Random, seed: 1))");
    let text = format!(
        "Tournament(name: \"b\", engines: [{engines}], format: RoundRobin(rounds: 10), book: (file: {:?}, order: Sequential), concurrency: 1, seed: 1, out: {:?})\n",
        repo("openings/all-4ply.txt"),
        dir.join("out")
    );
    let config = dir.join("config.ron");
    std::fs::write(&config, text).unwrap();
    let out = arena_bounded(&["run", config.to_str().unwrap(), "--quiet"]);
    let err = one_line_error(&out, 1);
    assert!(
        err.contains("\"edax\"")
            && err.contains("edax.sh -q")
            && err.contains("Cannot open data/eval.dat")
            && err.contains("first 3 games"),
        "{err}"
    );
    // The games played are journalled, each lost by the engine's crash, and
    // the results written. The stop comes after the first 3; a game a
    // worker had already taken from its queue may be played too.
    let journal = std::fs::read_to_string(dir.join("out/journal.jsonl")).unwrap();
    let games = journal.lines().count() - 1;
    assert!((3..=20).contains(&games), "{journal}");
    assert_eq!(
        journal.matches("\"reason\":\"crash: edax (").count(),
        games,
        "{journal}"
    );
    let results = std::fs::read_to_string(dir.join("out/results.json")).unwrap();
    assert!(
        results.contains(&format!("\"games_played\": {games}")),
        "{results}"
    );
}

#[test]
fn a_fifo_as_journal_or_engine_program_or_working_dir_is_refused_at_once() {
    let dir = tmp("hostile-fifo-run");
    let config = config_file(&dir, None, None);
    let out = arena_bounded(&["run", config.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let journal = dir.join("out/journal.jsonl");
    std::fs::remove_file(&journal).unwrap();
    mkfifo(&journal);
    let out_dir = dir.join("out");
    let err = one_line_error(&arena_bounded(&["report", out_dir.to_str().unwrap()]), 1);
    assert!(
        err.contains("journal.jsonl") && err.contains("FIFO"),
        "{err}"
    );

    let dir = dir.join("engine");
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("engine.sh");
    mkfifo(&program);
    let engine = dir.join("fifo.ron");
    std::fs::write(
        &engine,
        format!("External(name: \"piped\", command: {program:?}, protocol: Nboard)"),
    )
    .unwrap();
    let engines = format!("Path({engine:?}), Inline(Engine(name: \"a\", search: Random, seed: 1))");
    let config = config_file(&dir, None, Some(&engines));
    let err = one_line_error(&arena_bounded(&["run", config.to_str().unwrap()]), 1);
    assert!(
        err.contains("\"piped\"") && err.contains("engine.sh") && err.contains("FIFO"),
        "{err}"
    );

    no_data_engine(&dir);
    let script = dir.join("edax.sh");
    let work = dir.join("work");
    mkfifo(&work);
    std::fs::write(
        &engine,
        format!("External(name: \"piped\", command: {script:?}, protocol: Nboard, working_dir: Some({work:?}))"),
    )
    .unwrap();
    let err = one_line_error(&arena_bounded(&["run", config.to_str().unwrap()]), 1);
    assert!(
        err.contains("\"piped\"") && err.contains("work") && err.contains("FIFO"),
        "{err}"
    );
}

/// A refused command leaves no lock file behind: `arena report` of a
/// folder that holds only `workers/` (no run), and a fresh run whose
/// events file cannot be opened (its folder does not exist), which takes
/// away the output folder it made.
#[test]
fn a_refused_report_or_run_leaves_no_lock_file() {
    let dir = tmp("hostile-lock-left");
    let only_workers = dir.join("only-workers");
    std::fs::create_dir_all(only_workers.join("workers")).unwrap();
    let r = arena_bounded(&["report", only_workers.to_str().unwrap()]);
    one_line_error(&r, 1);
    assert!(!only_workers.join(".arena.lock").exists());
    let config = config_file(&dir, None, None);
    let fresh = dir.join("fresh/deeper");
    let events = dir.join("no-such-folder/events.jsonl");
    let r = arena_bounded(&[
        "run",
        config.to_str().unwrap(),
        "--out",
        fresh.to_str().unwrap(),
        "--events",
        events.to_str().unwrap(),
    ]);
    one_line_error(&r, 1);
    assert!(
        !dir.join("fresh").exists(),
        "the folders the run made are gone"
    );
}
