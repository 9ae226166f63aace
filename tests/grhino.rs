//! Debian's gtp-rhino (GRhino's GTP front end) as an external engine: one
//! pair of games against the shipped `engines/grhino-l3.ron`, through the
//! real `arena` binary, bounded in time. Skipped, saying why, on a machine
//! without gtp-rhino in PATH (`.ci/run` installs it).

use crate::tournament::{squares, tmp};
use crate::util::repo;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `arena args` and waits at most `limit` for it (killing it past
/// that): its exit status and stderr.
fn arena_within(args: &[&str], limit: Duration) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary runs");
    // Stderr is read on a thread, so a chatty run never blocks on a full pipe.
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).ok();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!(
                "arena {} still running after {} s: killed",
                args.join(" "),
                limit.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (status, reader.join().unwrap())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// gtp-rhino's path, or `None` after saying why the test is skipped.
pub(crate) fn gtp_rhino() -> Option<PathBuf> {
    crate::util::program(
        "gtp-rhino",
        "on Debian: apt-get install grhino-data, then the grhino package or, without its GUI \
         dependencies, apt-get download grhino and dpkg -x it, linking usr/games/gtp-rhino into \
         PATH, as .ci/run does",
    )
}

#[test]
fn a_pair_of_games_against_gtp_rhino_ends_normally() {
    let Some(program) = gtp_rhino() else {
        return;
    };
    let dir = tmp("grhino");
    let out = dir.join("out");
    let config = dir.join("vs-grhino.ron");
    // A quick in-process searcher (depth 4) against the shipped level-3
    // engine file, which names gtp-rhino by its PATH name.
    let text = format!(
        "Tournament(
    name: \"grhino-test\",
    engines: [
        Inline(Engine(name: \"pvs-d4\", search: Pvs, deepening: true, limit: Depth(4),
            ordering: [HashMove], tt_mib: 1, eval: WeightedSquares(weights: {:?}))),
        Path({:?}),
    ],
    format: RoundRobin(rounds: 1),
    book: (file: {:?}, order: Random, start: 0),
    concurrency: 1,
    seed: 3,
    out: {:?},
)
",
        squares(),
        repo("engines/grhino-l3.ron"),
        repo("openings/balanced-8ply.txt"),
        out
    );
    std::fs::write(&config, text).unwrap();
    // Level 3 answers in well under 0.1 s a move: the pair takes about a
    // second; two minutes is room for a loaded machine.
    let (status, stderr) = arena_within(
        &["run", config.to_str().unwrap(), "--quiet"],
        Duration::from_secs(120),
    );
    let transcript = out.join("logs/grhino-l3-0.log");
    let log = std::fs::read_to_string(&transcript).unwrap_or_default();
    assert!(
        status.success(),
        "gtp-rhino at {}: arena exited with {status}: {stderr}\ntranscript:\n{log}",
        program.display()
    );

    let journal = read(&out.join("journal.jsonl"));
    let games: Vec<serde_json::Value> = journal
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{journal}");
    for g in &games {
        assert_eq!(g["reason"], "game over", "{g}\ntranscript:\n{log}");
    }
    // One opening, each side playing black once.
    assert_eq!(games[0]["opening_id"], games[1]["opening_id"]);
    assert_ne!(games[0]["black"], games[1]["black"]);

    // The transcript has the whole conversation: the start, the moves
    // asked for and gtp-rhino's answers.
    assert!(log.contains("# started"), "{log}");
    assert!(log.contains("> boardsize 8"), "{log}");
    assert!(log.contains("> clear_board"), "{log}");
    assert!(log.contains("> genmove"), "{log}");
    assert!(log.contains("< = "), "{log}");

    let results: serde_json::Value =
        serde_json::from_str(&read(&out.join("results.json"))).unwrap();
    let moves = results["engine_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "grhino-l3")
        .unwrap_or_else(|| panic!("{results}"));
    assert!(moves["moves"].as_u64().unwrap() >= 20, "{moves}");
    assert!(moves["forfeits"].as_object().unwrap().is_empty(), "{moves}");
}

#[test]
fn the_grhino_files_load_on_a_machine_without_the_program() {
    // The program is started by the first game that needs it, never by
    // loading: the shipped engine files and config load anywhere (and
    // `every_shipped_config_loads` holds on machines without gtp-rhino).
    for name in ["engines/grhino-l3.ron", "engines/grhino-l5.ron"] {
        let path = repo(name);
        let text = read(&path).replace("\"gtp-rhino\"", "\"no-such-gtp-rhino\"");
        assert!(text.contains("no-such-gtp-rhino"), "{name} names gtp-rhino");
        let spec = arena::engine::EngineSpec::parse(&text, &path, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(spec.in_process().is_none(), "{name} is an external engine");
        assert_eq!(spec.limit(), None, "{name} plays by its level");
    }
}

#[test]
fn a_depth_gtp_cannot_carry_is_warned_of_once_naming_the_engine() {
    if gtp_rhino().is_none() {
        return;
    }
    let dir = tmp("grhino-depth");
    let out = dir.join("out");
    let (ours, theirs) = (
        repo("engines/squares-classic.ron"),
        repo("engines/grhino-l3.ron"),
    );
    let book = repo("openings/balanced-8ply.txt");
    let (status, stderr) = arena_within(
        &[
            "match",
            ours.to_str().unwrap(),
            theirs.to_str().unwrap(),
            "--games",
            "2",
            "--depth",
            "2",
            "--book",
            book.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ],
        Duration::from_secs(120),
    );
    assert!(status.success(), "{status}: {stderr}");
    // Said once at the start for the whole match, even under --quiet.
    assert_eq!(
        stderr,
        "warning: grhino-l3: GTP has no depth command; it plays at its own settings\n"
    );
    // It played at its level: both games to the end, no depth sent.
    let journal = read(&out.join("journal.jsonl"));
    assert_eq!(
        journal.matches("\"reason\":\"game over\"").count(),
        2,
        "{journal}"
    );
    let log = read(&out.join("logs/grhino-l3-0.log"));
    assert!(log.contains("> genmove") && !log.contains("depth"), "{log}");
}

/// The seconds of each `> time_left COLOR S 0` line of a transcript.
fn time_left(log: &str) -> Vec<u64> {
    log.lines()
        .filter_map(|l| l.split_once("> time_left ").map(|x| x.1))
        .map(|rest| {
            let words: Vec<&str> = rest.split_whitespace().collect();
            assert_eq!((words.len(), words[2]), (3, "0"), "{rest}");
            words[1].parse().unwrap()
        })
        .collect()
}

#[test]
fn gtp_clocks_are_whole_seconds_rounded_up_with_a_warning() {
    if gtp_rhino().is_none() {
        return;
    }
    let dir = tmp("grhino-clock");
    let out = dir.join("out");
    // gtp-rhino at level 3 on a clock of 1.5 s a game, and on 0.5 s a
    // move: whole seconds round both up by more than a tenth.
    let level3 = read(&repo("engines/grhino-l3.ron"));
    let mut engines = Vec::new();
    for (name, limit) in [
        ("grhino-clock", "Clock(1500, 0)"),
        ("grhino-move", "MoveTime(500)"),
    ] {
        let text = level3
            .replace("\"grhino-l3\"", &format!("{name:?}"))
            .replace("limit: None", &format!("limit: Some({limit})"));
        assert!(text.contains(limit), "{text}");
        let path = dir.join(format!("{name}.ron"));
        std::fs::write(&path, text).unwrap();
        engines.push(format!("Path({path:?})"));
    }
    let text = format!(
        "Tournament(
    name: \"grhino-clock\",
    engines: [
        Inline(Engine(name: \"pvs-d4\", search: Pvs, deepening: true, limit: Depth(4),
            ordering: [HashMove], tt_mib: 1, eval: WeightedSquares(weights: {:?}))),
        {},
    ],
    format: Gauntlet(challengers: 1, rounds: 1),
    book: (file: {:?}, order: Random, start: 0),
    concurrency: 1,
    seed: 3,
    out: {:?},
)
",
        squares(),
        engines.join(", "),
        repo("openings/balanced-8ply.txt"),
        out
    );
    let config = dir.join("clock.ron");
    std::fs::write(&config, text).unwrap();
    let (status, stderr) = arena_within(
        &["run", config.to_str().unwrap(), "--quiet"],
        Duration::from_secs(120),
    );
    assert!(status.success(), "{status}: {stderr}");
    assert_eq!(
        stderr,
        "warning: grhino-clock: GTP clocks are whole seconds: the clock of 1.5 s is sent as 2 s \
         (rounded up; the runner still holds it to 1.5 s)\n\
         warning: grhino-move: GTP clocks are whole seconds: the move time of 0.5 s is sent as \
         1 s (rounded up; the runner still holds it to 0.5 s)\n"
    );
    // The clock: 2 s, and the time left each move never 0 while time is
    // left (a game lost on time is fine here: what was sent is the test).
    let log = read(&out.join("logs/grhino-clock-0.log"));
    assert!(log.contains("> time_settings 2 0 0\n"), "{log}");
    let left = time_left(&log);
    assert!(!left.is_empty(), "{log}");
    assert!(
        left.iter().all(|&s| (1..=2).contains(&s)),
        "{left:?}\n{log}"
    );
    // The move time: 1 s a move (byo-yomi of one stone), where nothing
    // was sent below a second before.
    let log = read(&out.join("logs/grhino-move-0.log"));
    assert!(log.contains("> time_settings 0 1 1\n"), "{log}");
    assert!(time_left(&log).is_empty(), "{log}");
}
