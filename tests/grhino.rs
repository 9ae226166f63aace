//! Debian's gtp-rhino (GRhino's GTP front end) as an external engine: one
//! pair of games against the shipped `engines/grhino-l3.ron`, through the
//! real `arena` binary, bounded in time. Skipped, saying why, on a machine
//! without gtp-rhino in PATH (`.ci/run` installs it).

use crate::tournament::{squares, tmp};
use crate::util::repo;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where `name` is found in PATH, as the engine file's `command` is.
fn in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

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

#[test]
fn a_pair_of_games_against_gtp_rhino_ends_normally() {
    let Some(program) = in_path("gtp-rhino") else {
        eprintln!(
            "skipped: gtp-rhino is not in PATH. On Debian: apt-get install grhino-data, then \
             the grhino package (or, without its GUI dependencies, apt-get download grhino and \
             dpkg -x it, linking usr/games/gtp-rhino into PATH), as .ci/run does"
        );
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
