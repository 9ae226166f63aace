//! The lead of a shared run: the live worker of the lowest ID publishes
//! what it counted (`workers/ID/tally`), and a worker that shows nothing
//! of the run (`--quiet`) follows that tally instead of reading every
//! journal; a worker that shows the run reads the journals; when the lead
//! is gone for good, the next ID takes its place.

use crate::util::{arena, stderr, stdout};
use crate::workers::{
    decision, finish, one_machine, results, round_robin_config, sprt_config, worker,
};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

/// `arena run CONFIG --out OUT --worker ID MORE...`, bounded at [`LIMIT`].
fn run_bounded(config: &Path, out: &Path, id: &str, more: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", config.to_str().unwrap(), "--out"])
        .args([out.to_str().unwrap(), "--worker", id])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("worker {id} ran longer than {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Games in worker `id`'s journal.
fn games_of(out: &Path, id: &str) -> usize {
    std::fs::read_to_string(out.join("workers").join(id).join("journal.jsonl"))
        .map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// A worker that shows nothing of the run (`--quiet`, or plain lines
/// without result blocks, a worker's default) takes the lead's word: a
/// live lead whose tally says the run decided after one pair makes it play
/// nothing, and its last line says so without the run's block. A worker
/// that shows the run (`--ratinginterval 10`) reads the journals, plays
/// the run to its true decision, and `arena report` gives the one-machine
/// result.
#[test]
fn a_worker_that_shows_nothing_of_the_run_follows_the_leads_tally_and_one_that_shows_it_reads_the_journals(
) {
    let dir = crate::util::fresh("worker_lead", "follows");
    let config = sprt_config(&dir, 4);
    let one = one_machine(&config, &dir);
    let out = dir.join("shared");
    // The run's folder, as its first worker leaves it, with a lead "a"
    // that is live (its heartbeat fresh, from another host) and says the
    // run is decided.
    std::fs::create_dir_all(out.join("workers/a")).unwrap();
    std::fs::copy(dir.join("one/tournament.json"), out.join("tournament.json")).unwrap();
    let mut info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap();
    info["workers"] = true.into();
    std::fs::write(out.join("tournament.json"), info.to_string()).unwrap();
    std::fs::write(out.join("workers/a/heartbeat"), "elsewhere 1 1\n").unwrap();
    std::fs::write(
        out.join("workers/a/tally"),
        "{\"finished\":1,\"live\":2,\"verdict\":\"H1\",\"pairs\":1}\n",
    )
    .unwrap();

    let (code, err) = finish(worker(&config, &out, "b", &[]), LIMIT);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        games_of(&out, "b"),
        0,
        "a follower of a decided run plays nothing"
    );
    assert!(
        !out.join("workers/b/tally").exists(),
        "only the lead publishes"
    );
    let d = run_bounded(&config, &out, "d", &[]);
    assert_eq!(d.status.code(), Some(0), "{}", stderr(&d));
    let shown = stdout(&d);
    assert!(
        shown.contains("\nrun decided H1 after 1 pairs; this worker (d) played 0 pairs (0 games")
            && !shown.contains("LLR"),
        "{shown}"
    );

    let c = run_bounded(&config, &out, "c", &["--ratinginterval", "10"]);
    assert_eq!(c.status.code(), Some(0), "{}", stderr(&c));
    let pairs = one["games"].as_u64().unwrap() / 2;
    let shown = stdout(&c);
    assert!(
        shown.contains(&format!("run decided H0 after {pairs} pairs")) && shown.contains("LLR"),
        "{shown}"
    );
    std::fs::remove_dir_all(out.join("workers/a")).unwrap();
    let r = arena(&["report", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(decision(&results(&out)), decision(&one));
}

/// The lead killed for good: the next ID takes its place once its
/// heartbeat is no longer live (made old here, rather than waited for),
/// reads the journals, publishes the run's decision, and the run decides
/// as on one machine.
#[test]
fn the_lead_killed_for_good_is_replaced_and_the_run_decides_as_one_machine() {
    let dir = crate::util::fresh("worker_lead", "replaced");
    let config = sprt_config(&dir, 4);
    let one = one_machine(&config, &dir);
    let out = dir.join("shared");
    let stale = ["--stale-after", "2s"];
    let mut lead = worker(&config, &out, "1", &stale);
    let b = worker(&config, &out, "2", &stale);
    let start = Instant::now();
    while games_of(&out, "1") < 30 || !out.join("workers/1/tally").exists() {
        assert!(start.elapsed() < LIMIT, "the lead never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    lead.kill().unwrap();
    lead.wait().unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(out.join("workers/1/heartbeat"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let (code, err) = finish(b, LIMIT);
    assert_eq!(code, 0, "{err}");
    let r = arena(&["report", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let shared = results(&out);
    assert_eq!(decision(&shared), decision(&one));
    let pairs = one["games"].as_u64().unwrap() / 2;
    let tally: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("workers/2/tally")).unwrap())
            .unwrap();
    assert_eq!(
        (&tally["verdict"], &tally["pairs"]),
        (&"H0".into(), &pairs.into())
    );
    assert!(tally["finished"].as_u64().unwrap() >= pairs, "{tally}");
}

/// A follower that plays the last pair of a round robin ends the run
/// complete (exit 0, `run complete`), though its lead's tally does not
/// know that pair yet: every other pair is below the tally's finished
/// ones, and the last is its own.
#[test]
fn a_follower_that_plays_the_last_pair_ends_the_run_complete() {
    let dir = crate::util::fresh("worker_lead", "last");
    let config = round_robin_config(&dir, 2, 6);
    let (code, err) = finish(worker(&config, &dir.join("first"), "z", &[]), LIMIT);
    assert_eq!(code, 0, "{err}");
    let out = dir.join("shared");
    std::fs::create_dir_all(out.join("workers/a")).unwrap();
    std::fs::copy(
        dir.join("first/tournament.json"),
        out.join("tournament.json"),
    )
    .unwrap();
    std::fs::write(out.join("workers/a/heartbeat"), "elsewhere 1 1\n").unwrap();
    std::fs::write(out.join("workers/a/tally"), "{\"finished\":5,\"live\":2}\n").unwrap();
    let b = run_bounded(&config, &out, "b", &[]);
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    assert!(
        stdout(&b).contains("run complete; this worker (b) played 1 pairs (2 games"),
        "{}",
        stdout(&b)
    );
    assert_eq!(games_of(&out, "b"), 2);
}
