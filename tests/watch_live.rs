//! `arena watch` following runs while they play, through the binary: an
//! SPRT's live figures equal its results.json once it has ended (the
//! watcher keeps no game: they come from its running tallies), four
//! `arena run --worker` processes on one folder shown while they play,
//! the stale time the workers recorded taken as the run's, and an
//! `--on-decision` command that cannot start or fails told in one line
//! on stderr while the watcher goes on. Bounded in time; 127.0.0.1 only.

use crate::util::repo;
use crate::watch::{played, tmp, Watcher};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A folder `root/NAME` holding the first half of the run `done`'s
/// games (its journal to be completed by [`finish`]).
fn half_played(done: &Path, root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(done.join("tournament.json"), dir.join("tournament.json")).unwrap();
    let journal = std::fs::read_to_string(done.join("journal.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    let half: String = lines[..lines.len() / 2 + 1]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("journal.jsonl"), half).unwrap();
    dir
}

/// Appends the rest of `done`'s games to the run in `dir`.
fn finish(done: &Path, dir: &Path) {
    let journal = std::fs::read_to_string(done.join("journal.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("journal.jsonl"))
        .unwrap();
    for l in &lines[lines.len() / 2 + 1..] {
        writeln!(f, "{l}").unwrap();
    }
}

/// Waits for `ok` on the text of `path` for at most `limit`; the text.
fn text_until(path: &Path, limit: Duration, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if ok(&text) || start.elapsed() > limit {
            return text;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn an_on_decision_command_that_fails_is_told_in_one_line_and_watching_goes_on() {
    let dir = tmp("decision-fails");
    played(&dir, &dir.join("done"), 4);
    let done = dir.join("done");
    let limit = Duration::from_secs(10);
    for (command, said) in [
        ("sh -c 'exit 3'", "failed (exit status: 3)"),
        ("no-such-program-of-arena-tests", "cannot run"),
    ] {
        let root = dir.join(format!("root-{}", said.len()));
        let a = half_played(&done, &root, "a");
        let b = half_played(&done, &root, "b");
        let log = dir.join(format!("stderr-{}", said.len()));
        let w = Watcher::start_to(
            &root,
            &["--on-decision", command],
            Stdio::from(File::create(&log).unwrap()),
        );
        for run in ["a", "b"] {
            w.until(&format!("/run/{run}/live.json"), limit, |v| {
                v["state"] == "playing"
            });
        }
        finish(&done, &a);
        w.until("/run/a/live.json", limit, |v| v["state"] == "complete");
        let text = text_until(&log, limit, |t| t.lines().count() >= 1);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(
            text.contains(said) && text.contains("\"a\"") && text.contains("watching goes on"),
            "{text}"
        );
        // It goes on: the next run's end is followed and told too.
        finish(&done, &b);
        w.until("/run/b/live.json", limit, |v| v["state"] == "complete");
        let text = text_until(&log, limit, |t| t.lines().count() >= 2);
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.lines().nth(1).unwrap().contains("\"b\""), "{text}");
        assert_eq!(w.get("/runs.json").status, 200);
    }
}

#[test]
fn an_sprt_s_live_figures_are_its_results_json_once_it_has_ended() {
    let dir = tmp("sprt-live");
    let config = dir.join("sprt.ron");
    // Random movers, hypotheses 2 Elo apart at error rates of 0.1%: it
    // cannot decide, so every pair counts and is drawn.
    let text = format!(
        "Tournament(\n  name: \"sprt\",\n  engines: [Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"b\", search: Random, seed: 2))],\n  format: Sprt(elo0: 0.0, elo1: 2.0, alpha: 0.001, beta: 0.001, model: Normalized, max_pairs: 1500),\n  book: (file: {:?}, order: Random, start: 0),\n  concurrency: 2,\n  seed: 1,\n  out: \"out\",\n)\n",
        repo("openings/all-4ply.txt"),
    );
    std::fs::write(&config, text).unwrap();
    let out = dir.join("root/sprt");
    let r = crate::util::arena_in_within(
        &dir,
        &[
            "run",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ],
        Duration::from_secs(120),
    );
    assert!(r.status.success(), "{}", crate::util::stderr(&r));
    let w = Watcher::start(&dir.join("root"), &[]);
    let live = w.until("/run/sprt/live.json", Duration::from_secs(20), |v| {
        v["games"] == 3000
    });
    let disk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(
        live["results"], disk,
        "live.json's figures are results.json's"
    );
    assert_eq!(live["state"], "complete");
    assert_eq!(live["pairs_left"], 0);
    let ids: Vec<u64> = live["last_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, (2988..3000).rev().collect::<Vec<u64>>());
    let figures = w.get("/run/sprt/figures.html").body;
    for section in ["SPRT", "Elo over pairs", "Disc differences", "Openings"] {
        assert!(figures.contains(section), "{section}: {figures}");
    }
}

/// Processes killed when dropped (a failing test leaves none behind).
struct Killed(Vec<Child>);

impl Drop for Killed {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Worker `id` of the run `config` into `out`, its peers' heartbeats
/// stale after `stale`.
fn worker(config: &Path, out: &Path, id: &str, stale: &str) -> Child {
    crate::workers::worker(config, out, id, &["--stale-after", stale])
}

#[test]
fn four_workers_are_shown_while_they_play_and_go_stale_at_their_own_stale_time() {
    let dir = tmp("four-workers");
    let ab = |name: &str, weights: &str| {
        let w = repo(&format!("engines/weights/{weights}.ron"));
        format!("Inline(Engine(name: {name:?}, search: AlphaBeta(fail: Soft), limit: Depth(4), eval: Features(weights: {w:?})))")
    };
    // Far more games than the test waits for: the workers are killed.
    let text = format!(
        "Tournament(\n  name: \"four\",\n  engines: [{}, {}],\n  format: RoundRobin(rounds: 100000),\n  book: (file: {:?}, order: Sequential, start: 0),\n  concurrency: 1,\n  seed: 3,\n  out: \"out\",\n)\n",
        ab("v1", "features-v1"),
        ab("v2", "features-v2"),
        repo("openings/balanced-8ply.txt"),
    );
    let config = dir.join("four.ron");
    std::fs::write(&config, text).unwrap();
    let root = dir.join("root");
    let out = root.join("shared");
    std::fs::create_dir_all(&root).unwrap();
    let w = Watcher::start(&root, &[]);
    let workers = Killed(
        ["w1", "w2", "w3", "w4"]
            .iter()
            .map(|id| worker(&config, &out, id, "3s"))
            .collect(),
    );
    let limit = Duration::from_secs(60);
    let playing = |v: &serde_json::Value| {
        v["state"] == "playing"
            && v["workers"]
                .as_array()
                .is_some_and(|a| a.len() == 4 && a.iter().all(|w| w["state"] == "live"))
    };
    w.until("/runs.json", limit, |v| {
        v.as_array().unwrap().iter().any(|r| r["name"] == "shared")
    });
    let first = w.until("/run/shared/live.json", limit, |v| {
        playing(v) && v["games"].as_u64().unwrap_or(0) > 0
    });
    let games = first["games"].as_u64().unwrap();
    let later = w.until("/run/shared/live.json", limit, |v| {
        playing(v) && v["games"].as_u64().unwrap_or(0) > games
    });
    let rows = later["workers"].as_array().unwrap();
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["w1", "w2", "w3", "w4"]);
    for row in rows {
        assert!(row["pid"].as_u64().unwrap() > 0, "{row}");
        assert!(row["heartbeat_age_s"].as_u64().unwrap() <= 7, "{row}");
    }
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("workers/w1/worker.json")).unwrap())
            .unwrap();
    assert_eq!(record["stale_after_ms"], 3000, "{record}");
    // Killed without a word: their heartbeats stop but never say ended.
    // The run is stale after the 3 s its workers recorded, not the
    // default 5 minutes.
    drop(workers);
    w.until("/runs.json", Duration::from_secs(30), |v| {
        v.as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "shared" && r["state"] == "stale")
    });
}
