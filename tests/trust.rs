//! What an overnight CI run relies on: shards never decide and merge
//! refuses an incomplete set, one writer per folder, a kill or a Ctrl-C at
//! any moment loses at most the games in flight, a lying journal is an
//! error, a re-run says what the folder holds, and a misbehaving player
//! loses its game while the run goes on. Processes and signals are real;
//! every wait is bounded.

use crate::tournament::{config, engine, games, opts, results, squares, tmp};
use crate::util::{arena, stderr, stdout};
use arena::tournament::{self, RunOptions, Shard};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

/// Waits (at most `limit`) for a child to end; kills it and fails past that.
fn wait(child: &mut Child, limit: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the run did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Games in a journal as it is being written (complete lines after the
/// header).
fn lines(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// Waits (at most 30 s) until a journal holds `n` games.
fn wait_for_games(journal: &Path, n: usize) {
    let start = Instant::now();
    while lines(journal) < n {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no {n} games in {journal:?} after 30 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name} failed");
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Two depth-4 searchers: games take milliseconds, so a run of 100 pairs
/// lasts long enough to be interrupted.
fn slow_pair(dir: &Path, rounds: u64) -> (PathBuf, arena::tournament::Tournament) {
    let engines = vec![
        engine("ab4", "search: AlphaBeta(fail: Soft), limit: Depth(4), eval: Discs"),
        engine(
            "pvs4",
            "search: Pvs, deepening: true, limit: Depth(4), tt_mib: 1, ordering: [HashMove, FastestFirst], eval: Discs",
        ),
    ];
    config(dir, &format!("RoundRobin(rounds: {rounds})"), &engines, "")
}

/// An SPRT whose candidate (the random mover) is far weaker than its
/// baseline: H0, and `fail_on_h0` makes that exit code 3.
fn h0_sprt(dir: &Path) -> (PathBuf, arena::tournament::Tournament) {
    let strong = engine(
        "ab2",
        &format!(
            "search: AlphaBeta(fail: Soft), limit: Depth(2), eval: WeightedSquares(weights: {:?})",
            squares()
        ),
    );
    let weak = engine("random", "search: Random");
    let sprt =
        "Sprt(elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 60)";
    config(dir, sprt, &[strong, weak], "fail_on_h0: true,")
}

/// Runs the three shard commands of a recipe (`sh -c` with the scheduler's
/// index variable set) and returns their folders.
fn run_shards(dir: &Path, cfg: &Path, var: &str) -> Vec<PathBuf> {
    let exe = env!("CARGO_BIN_EXE_arena");
    (0..3)
        .map(|i| {
            let script = format!(
                "\"{exe}\" run \"{}\" --shard $(({var}+1))/3 --out \"{}/${var}\" --quiet",
                cfg.display(),
                dir.display()
            );
            let out = Command::new("sh")
                .args(["-c", &script])
                .env(var, i.to_string())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "shard {i}: {}", stderr(&out));
            dir.join(i.to_string())
        })
        .collect()
}

#[test]
fn shards_never_decide_and_their_merge_decides_like_the_unsharded_run() {
    let dir = tmp("trust-shards");
    let (cfg, _) = h0_sprt(&dir);
    let whole = dir.join("whole");
    let out = arena(&["run", s(&cfg), "--out", s(&whole), "--quiet"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(json(&whole.join("results.json"))["verdict"], "H0");

    for (var, name) in [
        ("SLURM_ARRAY_TASK_ID", "slurm"),
        ("JOB_COMPLETION_INDEX", "k8s"),
    ] {
        let shards = run_shards(&dir.join(name), &cfg, var);
        for (k, shard) in shards.iter().enumerate() {
            let r = json(&shard.join("results.json"));
            assert_eq!(r["verdict"], serde_json::Value::Null, "{name} shard {k}");
            let note = r["status_note"].as_str().unwrap().to_string();
            assert!(
                note.contains(&format!("shard {}/3: no verdict", k + 1)),
                "{note}"
            );
        }
        let merged = dir.join(name).join("merged");
        let mut args = vec!["merge"];
        args.extend(shards.iter().map(|p| s(p)));
        args.extend(["--out", s(&merged)]);
        let out = arena(&args);
        assert_eq!(out.status.code(), Some(3), "{name}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("SPRT verdict: H0"),
            "{}",
            stdout(&out)
        );
        // The same pairs decide: shards play their whole slice, but only
        // the pairs up to the decision count, as in the unsharded run.
        let (m, w) = (results(&merged), results(&whole));
        for key in ["verdict", "games", "head_to_head", "engines", "complete"] {
            assert_eq!(m[key], w[key], "{name}: {key}");
        }
    }
}

#[test]
fn merge_refuses_a_missing_twice_given_foreign_or_unfinished_shard() {
    let dir = tmp("trust-merge");
    let (cfg, _) = h0_sprt(&dir);
    let shards = run_shards(&dir.join("s"), &cfg, "SLURM_ARRAY_TASK_ID");
    let merge = |dirs: &[&Path], out: &str, extra: &[&str]| {
        let out_dir = dir.join(out);
        let mut args = vec!["merge".to_string()];
        args.extend(dirs.iter().map(|p| s(p).to_string()));
        args.extend(["--out".into(), s(&out_dir).into()]);
        args.extend(extra.iter().map(|x| x.to_string()));
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        arena(&refs)
    };
    let out = merge(&[&shards[0], &shards[2]], "m1", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("shard 2/3 is missing"),
        "{}",
        stderr(&out)
    );

    let out = merge(&[&shards[0], &shards[1], &shards[0]], "m2", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("shard 1/3 given twice"),
        "{}",
        stderr(&out)
    );

    // A shard of another config (another seed).
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("seed: 7", "seed: 8");
    let other_cfg = other.join("config.ron");
    std::fs::write(&other_cfg, text).unwrap();
    let foreign = run_shards(&other, &other_cfg, "SLURM_ARRAY_TASK_ID");
    let out = merge(&[&shards[0], &foreign[1], &shards[2]], "m3", &[]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(e.contains("was run with another config (hash"), "{e}");

    // --allow-partial merges what is there, says so, and never decides.
    let out = merge(&[&shards[0], &shards[2]], "m4", &["--allow-partial"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&dir.join("m4/results.json"));
    assert_eq!(r["status"], "partial");
    assert_eq!(r["verdict"], serde_json::Value::Null);
    assert!(r["status_note"]
        .as_str()
        .unwrap()
        .contains("shard 2/3 is missing"));
    let md = std::fs::read_to_string(dir.join("m4/summary.md")).unwrap();
    assert!(md.contains("partial: shard 2/3 is missing"), "{md}");
    assert!(stdout(&out).contains("partial"), "{}", stdout(&out));
}

#[test]
fn a_second_run_on_the_same_folder_is_refused_at_once() {
    let dir = tmp("trust-lock");
    let (cfg, _) = slow_pair(&dir, 1000);
    let out_dir = dir.join("o");
    let mut first = spawn(&["run", s(&cfg), "--out", s(&out_dir), "--quiet"]);
    wait_for_games(&out_dir.join("journal.jsonl"), 1);
    let start = Instant::now();
    for extra in [&[][..], &["--resume"][..], &["--overwrite"][..]] {
        let mut args = vec!["run", s(&cfg), "--out", s(&out_dir), "--quiet"];
        args.extend_from_slice(extra);
        let out = arena(&args);
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        let e = stderr(&out);
        assert!(
            e.contains("is in use by another arena run")
                && e.contains(&format!("(pid {})", first.id())),
            "{e}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(10), "refused at once");
    let out = arena(&["report", s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "report waits for its turn too");
    first.kill().unwrap();
    first.wait().unwrap();
    // The journal the first run wrote is intact and resumable.
    arena::records::journal::read(&out_dir.join("journal.jsonl")).unwrap();
}

#[test]
fn a_kill_at_any_early_moment_leaves_a_folder_that_resume_completes() {
    let dir = tmp("trust-early-kill");
    let (cfg, t) = slow_pair(&dir, 3);
    let full = dir.join("full");
    tournament::run(
        &t,
        &opts(&full, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    for i in 0..12u64 {
        let out_dir = dir.join(format!("k{i}"));
        let mut child = spawn(&["run", s(&cfg), "--out", s(&out_dir), "--quiet"]);
        // 0 to 55 ms: the window in which the folder and journal are made.
        std::thread::sleep(Duration::from_millis(i * 5));
        let _ = child.kill();
        child.wait().unwrap();
        let out = arena(&["run", s(&cfg), "--out", s(&out_dir), "--resume", "--quiet"]);
        assert!(out.status.success(), "kill {i}: {}", stderr(&out));
        assert_eq!(games(&out_dir), games(&full), "kill {i}");
    }
}

/// Writes a finished journal with one line changed by `edit`, and returns
/// what `arena report` says of it.
fn report_of_edited(dir: &Path, name: &str, edit: impl Fn(&mut serde_json::Value)) -> String {
    let src = dir.join("o");
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(src.join("tournament.json"), folder.join("tournament.json")).unwrap();
    let text = std::fs::read_to_string(src.join("journal.jsonl")).unwrap();
    let mut out_lines: Vec<String> = text.lines().map(String::from).collect();
    let mut v: serde_json::Value = serde_json::from_str(&out_lines[3]).unwrap();
    edit(&mut v);
    out_lines[3] = serde_json::to_string(&v).unwrap();
    std::fs::write(folder.join("journal.jsonl"), out_lines.join("\n") + "\n").unwrap();
    let out = arena(&["report", s(&folder)]);
    assert_eq!(out.status.code(), Some(1), "{name}: {}", stdout(&out));
    stderr(&out)
}

/// A change to one journal line.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

#[test]
fn a_journal_that_lies_is_an_error_naming_the_file_line_and_field() {
    let dir = tmp("trust-journal");
    let (_, t) = slow_pair(&dir, 3);
    tournament::run(
        &t,
        &opts(&dir.join("o"), 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let journal = std::fs::read_to_string(dir.join("o/journal.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(journal.lines().nth(1).unwrap()).unwrap();
    let (first_game, first_pair) = (first["game_id"].clone(), first["pair_id"].clone());
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "seven",
            Box::new(|v| v["result"] = 7.0.into()),
            "result: 7 is not a game result",
        ),
        (
            "outside",
            Box::new(|v| {
                v["game_id"] = 99.into();
                v["pair_id"] = 49.into();
            }),
            "game_id: 99 is outside the schedule",
        ),
        (
            "twice",
            Box::new(move |v| {
                v["game_id"] = first_game.clone();
                v["pair_id"] = first_pair.clone();
            }),
            "is in the journal twice",
        ),
        (
            "illegal",
            Box::new(|v| {
                let m = v["moves"].as_str().unwrap().to_string();
                v["moves"] = format!("a1{}", &m[2..]).into();
            }),
            "moves:",
        ),
        (
            "stranger",
            Box::new(|v| v["black"] = "nobody".into()),
            "black: \"nobody\", but the schedule has",
        ),
        (
            "swapped",
            Box::new(|v| {
                let black = v["black"].clone();
                v["black"] = v["white"].clone();
                v["white"] = black;
            }),
            "as black in game",
        ),
        (
            "opening",
            Box::new(|v| v["opening_id"] = (v["opening_id"].as_u64().unwrap() + 1).into()),
            "opening_id: ",
        ),
        (
            "round",
            Box::new(|v| v["round"] = 2.into()),
            "round: 2, but game",
        ),
        (
            "forfeiter",
            Box::new(|v| {
                v["reason"] = format!("crash: {} (gone)", v["black"].as_str().unwrap()).into();
                v["result"] = 1.0.into();
                v["disc_diff"] = 64.into();
            }),
            "result: 1 does not match \"crash: ",
        ),
        (
            "unknown",
            Box::new(|v| v["reason"] = "resigned".into()),
            "reason: \"resigned\" is not a way a game ends",
        ),
        (
            "nodes",
            Box::new(|v| {
                v["nodes"].as_array_mut().unwrap().pop();
            }),
            "nodes: ",
        ),
        (
            "plies",
            Box::new(|v| v["opening_plies"] = 70.into()),
            "opening_plies: 70 is more than",
        ),
    ];
    for (name, edit, want) in cases {
        let e = report_of_edited(&dir, name, edit);
        assert!(
            e.contains(&format!("{name}/journal.jsonl:4:")) && e.contains(want),
            "{name}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn ctrl_c_or_sigterm_stops_writes_stopped_results_and_resume_completes() {
    let dir = tmp("trust-stop");
    let (cfg, t) = slow_pair(&dir, 60);
    let full = dir.join("full");
    tournament::run(
        &t,
        &opts(&full, 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    for sig in ["INT", "TERM"] {
        let out_dir = dir.join(sig);
        let mut child = spawn(&["run", s(&cfg), "--out", s(&out_dir), "--quiet"]);
        wait_for_games(&out_dir.join("journal.jsonl"), 6);
        signal(&child, sig);
        let status = wait(&mut child, Duration::from_secs(30));
        assert_eq!(status.code(), Some(130), "SIG{sig}");
        let r = json(&out_dir.join("results.json"));
        assert_eq!(r["status"], "stopped", "SIG{sig}");
        let note = r["status_note"].as_str().unwrap();
        assert!(
            note.starts_with("stopped after ") && note.contains(" of 120 games"),
            "{note}"
        );
        let md = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
        assert!(md.contains("stopped after"), "{md}");
        let out = arena(&["run", s(&cfg), "--out", s(&out_dir), "--resume", "--quiet"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(games(&out_dir), games(&full));
        assert_eq!(results(&out_dir), results(&full));
    }
}

#[test]
fn a_second_ctrl_c_abandons_the_games_in_flight() {
    let dir = tmp("trust-abandon");
    // Depth-9 games take long enough that only an abandon ends the run soon.
    let engines = vec![
        engine(
            "ab9",
            "search: AlphaBeta(fail: Soft), limit: Depth(9), eval: Discs",
        ),
        engine("random", "search: Random"),
    ];
    let (cfg, _) = config(&dir, "RoundRobin(rounds: 50)", &engines, "");
    let out_dir = dir.join("o");
    let mut child = spawn(&["run", s(&cfg), "--out", s(&out_dir), "--quiet"]);
    let journal = out_dir.join("journal.jsonl");
    let start = Instant::now();
    while !journal.exists() {
        assert!(start.elapsed() < Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(50));
    signal(&child, "INT");
    let status = wait(&mut child, Duration::from_secs(5));
    assert_eq!(status.code(), Some(130));
    let r = json(&out_dir.join("results.json"));
    assert_eq!(r["status"], "stopped");
    let out = arena(&["run", s(&cfg), "--out", s(&out_dir), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--resume"), "{}", stderr(&out));
}

#[test]
fn running_a_finished_folder_again_shows_its_results_and_exit_code() {
    let dir = tmp("trust-rerun");
    let (cfg, _) = h0_sprt(&dir);
    let out_dir = dir.join("o");
    let first = arena(&["run", s(&cfg), "--out", s(&out_dir)]);
    assert_eq!(first.status.code(), Some(3), "{}", stderr(&first));
    let again = arena(&["run", s(&cfg), "--out", s(&out_dir)]);
    assert_eq!(again.status.code(), Some(3), "{}", stderr(&again));
    let text = stdout(&again);
    assert!(
        text.contains("already holds this run, finished") && text.contains("SPRT verdict: H0"),
        "{text}"
    );
    assert!(!stderr(&again).contains("--out"), "{}", stderr(&again));

    // An unfinished folder says what to do; --overwrite starts afresh.
    let slow_dir = dir.join("slow");
    std::fs::create_dir_all(&slow_dir).unwrap();
    let (slow, _) = slow_pair(&slow_dir, 100);
    let partial = dir.join("p");
    let mut child = spawn(&["run", s(&slow), "--out", s(&partial), "--quiet"]);
    wait_for_games(&partial.join("journal.jsonl"), 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = arena(&["run", s(&slow), "--out", s(&partial), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("holds an unfinished run")
            && e.contains("--resume")
            && e.contains("--overwrite"),
        "{e}"
    );
    let out = arena(&[
        "run",
        s(&cfg),
        "--out",
        s(&partial),
        "--overwrite",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

mod players {
    //! In-process players that misbehave, through the runner's player
    //! factory: each loses its games with the reason, and the run goes on.
    use super::*;
    use arena::engine::{
        Clock, EngineSpec, GameSetup, MoveInfo, Player, PlayerError, RandomPlayer,
    };
    use arena::tournament::runner::game_thread::PlayerFactory;
    use arena::{Board, Game, Move, MoveList};
    use std::sync::Arc;

    /// What a bad player does on its third move.
    #[derive(Clone, Copy)]
    enum Fault {
        Panic,
        Hang,
        Illegal,
        Overrun,
    }

    struct Bad {
        name: String,
        fault: Fault,
        moves: u32,
    }

    impl Player<Board> for Bad {
        fn name(&self) -> &str {
            &self.name
        }

        fn new_game(&mut self, _: &GameSetup<Board>) -> Result<(), PlayerError> {
            self.moves = 0;
            Ok(())
        }

        fn choose(&mut self, pos: &Board, clock: &Clock) -> Result<MoveInfo<Move>, PlayerError> {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            self.moves += 1;
            if self.moves == 3 {
                match self.fault {
                    Fault::Panic => panic!("bad player panics"),
                    Fault::Hang => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    Fault::Illegal => {
                        let occupied = Move::parse("d4").unwrap();
                        return Ok(MoveInfo::bare(occupied, Duration::ZERO));
                    }
                    Fault::Overrun => {
                        let left = clock.deadline.unwrap() - Instant::now();
                        std::thread::sleep(left + Duration::from_millis(20));
                    }
                }
            }
            Ok(MoveInfo::bare(moves.get(0), Duration::ZERO))
        }
    }

    #[test]
    fn panics_hangs_illegal_moves_overruns_and_failed_builds_lose_and_the_run_goes_on() {
        let dir = tmp("trust-bad-players");
        let clocked =
            "search: AlphaBeta(fail: Soft), deepening: true, limit: Clock(300, 0), eval: Discs";
        let names = ["panics", "hangs", "illegal", "overruns", "unbuildable"];
        let mut engines: Vec<String> = names.iter().map(|n| engine(n, clocked)).collect();
        engines.push(engine("random", "search: Random"));
        let (_, t) = config(&dir, "Gauntlet(challengers: 5, rounds: 1)", &engines, "");
        let factory = PlayerFactory(Arc::new(|c: &EngineSpec| -> Box<dyn Player<Board>> {
            let fault = match c.name() {
                "panics" => Fault::Panic,
                "hangs" => Fault::Hang,
                "illegal" => Fault::Illegal,
                "overruns" => Fault::Overrun,
                "unbuildable" => panic!("cannot build this one"),
                _ => return Box::new(RandomPlayer::new(c.name(), 1)),
            };
            Box::new(Bad {
                name: c.name().to_string(),
                fault,
                moves: 0,
            })
        }));
        let o = RunOptions {
            players: factory,
            ..opts(&dir.join("o"), 2, Shard::ALL, false)
        };
        let start = Instant::now();
        tournament::run(&t, &o, &mut tournament::Silent).unwrap();
        assert!(start.elapsed() < Duration::from_secs(20));
        let g = games(&dir.join("o"));
        // 5 challengers meet each other once and random once: 15 pairs.
        assert_eq!(g.len(), 30);
        for (name, reason) in [
            ("panics", "crash: panics (bad player panics)"),
            // The clock is 0.3 s a game; the first moves may have used a
            // few milliseconds of it on a loaded machine.
            ("hangs", "time forfeit: hangs (used 0."),
            ("illegal", "illegal move: illegal (d4)"),
            ("overruns", "time forfeit: overruns (used 0."),
            (
                "unbuildable",
                "crash: unbuildable (could not be built: cannot build this one)",
            ),
        ] {
            let theirs: Vec<_> = g
                .iter()
                .filter(|r| r.black == name || r.white == name)
                .collect();
            assert!(!theirs.is_empty());
            let vs_random: Vec<_> = theirs
                .iter()
                .filter(|r| r.black == "random" || r.white == "random")
                .collect();
            assert_eq!(vs_random.len(), 2, "{name}");
            for r in vs_random {
                assert!(r.reason.starts_with(reason), "{name}: {}", r.reason);
                if let Some((used, of)) = used_of(&r.reason) {
                    assert!(used >= of && of <= 0.3, "{name}: {}", r.reason);
                }
                assert_eq!(r.points_of(name), Some(0.0), "{name}");
            }
        }
    }
}

/// The seconds used and allowed of a time forfeit's reason (`time
/// forfeit: NAME (used 0.312 s of 0.300 s)`).
fn used_of(reason: &str) -> Option<(f64, f64)> {
    let rest = reason.split("(used ").nth(1)?;
    let (used, rest) = rest.split_once(" s of ")?;
    let of = rest.split(' ').next()?;
    Some((used.parse().ok()?, of.parse().ok()?))
}

#[test]
fn a_panic_is_one_line_and_exit_101() {
    let out = arena(&["internal-panic-check"]);
    assert_eq!(out.status.code(), Some(101));
    let e = stderr(&out);
    assert!(
        e.starts_with("internal error at src/cli/mod.rs:")
            && e.contains(": a deliberate panic; please report it"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        !e.contains("RUST_BACKTRACE") && !e.contains("panicked"),
        "{e}"
    );
}

#[test]
fn a_shard_that_owns_no_pair_finishes_empty_and_merges() {
    let dir = tmp("trust-empty-shard");
    let weak = engine("random", "search: Random");
    let ab = engine(
        "ab1",
        "search: AlphaBeta(fail: Soft), limit: Depth(1), eval: Discs",
    );
    // One pair in all: shard 2/2 owns none.
    let (cfg, _) = config(&dir, "RoundRobin(rounds: 1)", &[ab, weak], "");
    let mut folders = Vec::new();
    for k in 1..=2 {
        let out = dir.join(format!("s{k}"));
        let shard = format!("{k}/2");
        let got = arena(&[
            "run",
            s(&cfg),
            "--shard",
            &shard,
            "--out",
            s(&out),
            "--quiet",
        ]);
        assert_eq!(
            got.status.code(),
            Some(0),
            "shard {shard}: {}",
            stderr(&got)
        );
        folders.push(out);
    }
    assert_eq!(lines(&folders[0].join("journal.jsonl")), 2, "two games");
    assert_eq!(lines(&folders[1].join("journal.jsonl")), 0, "no game");
    let merged = dir.join("m");
    let got = arena(&["merge", s(&folders[0]), s(&folders[1]), "--out", s(&merged)]);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    assert_eq!(json(&merged.join("results.json"))["games"], 2);
}

#[test]
fn a_closed_stderr_still_gives_the_exit_code() {
    // The error line has nowhere to go; the exit code must still say 1
    // (not an abort from a failed write).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "no-such-config.ron"])
        .stdout(std::process::Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn journal_bytes_a_user_or_a_kill_may_leave_are_read_or_named() {
    let dir = tmp("trust-journal-bytes");
    let (_, t) = slow_pair(&dir, 2);
    tournament::run(
        &t,
        &opts(&dir.join("o"), 2, Shard::ALL, false),
        &mut tournament::Silent,
    )
    .unwrap();
    let text = std::fs::read(dir.join("o/journal.jsonl")).unwrap();
    let write = |name: &str, bytes: &[u8]| -> std::process::Output {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(
            dir.join("o/tournament.json"),
            folder.join("tournament.json"),
        )
        .unwrap();
        std::fs::write(folder.join("journal.jsonl"), bytes).unwrap();
        arena(&["report", s(&folder)])
    };
    // An editor's byte order mark is read past.
    let bom = [b"\xef\xbb\xbf".as_slice(), &text].concat();
    let out = write("bom", &bom);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A kill inside a character of the last line: that game is replayed.
    let mut cut = text.clone();
    cut.extend_from_slice(b"{\"pair_id\":9,\"black\":\"\xc3");
    let out = write("cut", &cut);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Bytes that are not text, inside the file: named by line.
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let mut bad = lines.clone();
    let broken = [lines[2], b"\xff"].concat();
    bad[2] = &broken;
    let out = write("binary", &bad.join(&b'\n'));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("binary/journal.jsonl:3:") && stderr(&out).contains("not UTF-8"),
        "{}",
        stderr(&out)
    );
    // A negative id: the field and what it must be, in words.
    let line = String::from_utf8(lines[1].to_vec()).unwrap();
    let id = serde_json::from_str::<serde_json::Value>(&line).unwrap()["game_id"].clone();
    let neg = line.replacen(&format!("\"game_id\":{id}"), "\"game_id\":-5", 1);
    assert_ne!(neg, line);
    let edited = String::from_utf8(text.clone())
        .unwrap()
        .replacen(&line, &neg, 1);
    let out = write("negative", edited.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("negative/journal.jsonl:2:")
            && e.contains("game_id: invalid value: integer `-")
            && e.contains("expected a whole number of at least 0")
            && !e.contains("u64"),
        "{e}"
    );
    // A folder that is not there is named itself (not its lock file).
    let out = arena(&["report", s(&dir.join("nowhere"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stderr(&out).contains(".arena.lock"), "{}", stderr(&out));
}
