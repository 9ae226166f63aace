//! Knockout and Swiss through the binary: the shipped configs run and
//! report their bracket and standings; the games are the same at
//! concurrency 1 and 2, after a journal cut short and `--resume`, and as
//! two worker processes on one folder; bad settings are one line naming
//! the field; `--shard` and `--rounds` are refused.

use crate::util::{arena_in_within, repo, stderr, stdout};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long one run of a shipped config may take on a loaded 2-core machine.
const LIMIT: Duration = Duration::from_secs(120);

fn tmp(name: &str) -> PathBuf {
    crate::util::fresh("formats", name)
}

/// Runs `config` into `out` with `extra` arguments; its output.
fn run(config: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    crate::util::run_quiet(&repo(config), out, extra)
}

/// The games of the journals at `paths`, by id (the first record of an id
/// counts): black, white and moves.
fn games(paths: &[PathBuf]) -> BTreeMap<u64, (String, String, String)> {
    let mut games = BTreeMap::new();
    for p in paths {
        let text = std::fs::read_to_string(p).unwrap();
        for line in text.lines().skip(1) {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(id) = g["game_id"].as_u64() else {
                continue;
            };
            games.entry(id).or_insert_with(|| {
                let s = |k: &str| g[k].as_str().unwrap_or_default().to_string();
                (s("black"), s("white"), s("moves"))
            });
        }
    }
    games
}

fn results(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

#[test]
fn the_shipped_knockout_reports_its_bracket_and_a_champion() {
    let dir = tmp("knockout");
    let out = dir.join("run");
    let o = run("configs/knockout.ron", &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = results(&out);
    assert_eq!(r["complete"], true);
    let matches = r["bracket"]["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 7, "eight engines: 4 + 2 + 1 matches");
    // Each winner plays the next round: the final's engines won their semifinals.
    let winner = |m: &serde_json::Value| m["winner"].as_str().unwrap().to_string();
    let final_ = &matches[6];
    let semis = [winner(&matches[4]), winner(&matches[5])];
    assert!(semis.contains(&final_["a"].as_str().unwrap().to_string()));
    assert!(semis.contains(&final_["b"].as_str().unwrap().to_string()));
    for (m, (from, to)) in [(4, (0, 1)), (5, (2, 3))] {
        let played = [
            matches[m]["a"].as_str().unwrap(),
            matches[m]["b"].as_str().unwrap(),
        ];
        for q in [from, to] {
            assert!(
                played.contains(&winner(&matches[q]).as_str()),
                "{matches:?}"
            );
        }
    }
    // Each match played its 2 pairs, or up to 2 more while tied.
    for m in matches {
        let pairs = m["pairs"].as_u64().unwrap();
        assert!((2..=4).contains(&pairs), "{m}");
    }
    let places = r["bracket"]["places"].as_array().unwrap();
    assert_eq!(places[0][1], "1");
    assert_eq!(places[0][0].as_str().unwrap(), winner(final_));
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("Knockout bracket:") && summary.contains("Places: 1 "));
}

#[test]
fn the_shipped_swiss_plays_five_rounds_with_byes_and_no_repeat() {
    let dir = tmp("swiss");
    let out = dir.join("run");
    let o = run("configs/swiss.ron", &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = results(&out);
    assert_eq!(r["complete"], true);
    let st = &r["standings"];
    assert_eq!(st["rounds_played"], 5);
    let rows = st["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    let byes: Vec<u64> = rows.iter().map(|r| r["byes"].as_u64().unwrap()).collect();
    assert_eq!(byes.iter().sum::<u64>(), 5, "one bye a round");
    assert!(byes.iter().all(|&b| b <= 1), "{byes:?}");
    let g = games(&[out.join("journal.jsonl")]);
    assert_eq!(g.len(), 40, "5 rounds of 4 boards, a pair each");
    let mut met = std::collections::HashSet::new();
    for (id, (b, w, _)) in &g {
        if id % 2 == 0 {
            let key = if b < w { (b, w) } else { (w, b) };
            assert!(met.insert(key), "{b} and {w} met twice");
        }
    }
    // Ratings over every game, as in a round robin.
    assert_eq!(r["games"], 40);
    assert!(r["ratings"].is_object());
}

#[test]
fn swiss_and_knockout_games_are_the_same_at_concurrency_1_and_2_and_after_a_resume() {
    for config in ["configs/swiss.ron", "configs/knockout.ron"] {
        let dir = tmp(&format!("same-{}", &config[8..config.len() - 4]));
        let one = dir.join("one");
        let two = dir.join("two");
        for (out, c) in [(&one, "1"), (&two, "2")] {
            let o = run(config, out, &["--concurrency", c]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        }
        let want = games(&[one.join("journal.jsonl")]);
        assert_eq!(want, games(&[two.join("journal.jsonl")]), "{config}");
        // A journal cut after its header and first few games, resumed.
        let journal = std::fs::read_to_string(one.join("journal.jsonl")).unwrap();
        let kept: Vec<&str> = journal.lines().take(8).collect();
        std::fs::write(one.join("journal.jsonl"), kept.join("\n") + "\n").unwrap();
        let o = run(config, &one, &["--resume", "--concurrency", "2"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            want,
            games(&[one.join("journal.jsonl")]),
            "{config} resumed"
        );
    }
}

#[test]
fn two_workers_on_one_folder_play_the_one_machine_swiss_and_knockout() {
    for config in ["configs/swiss.ron", "configs/knockout.ron"] {
        let dir = tmp(&format!("workers-{}", &config[8..config.len() - 4]));
        let alone = dir.join("alone");
        let o = run(config, &alone, &["--concurrency", "1"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = dir.join("shared");
        let one = ["--concurrency", "1"];
        let mut children = [
            crate::workers::worker(&repo(config), &out, "w1", &one),
            crate::workers::worker(&repo(config), &out, "w2", &one),
        ];
        let start = Instant::now();
        for c in &mut children {
            while c.try_wait().unwrap().is_none() {
                if start.elapsed() > LIMIT {
                    let _ = c.kill();
                    panic!("a worker ran past {LIMIT:?}");
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let mut logs = Vec::new();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            logs.push(stderr(&o));
        }
        let journals = [
            out.join("workers/w1/journal.jsonl"),
            out.join("workers/w2/journal.jsonl"),
        ];
        assert_eq!(
            games(&[alone.join("journal.jsonl")]),
            games(&journals),
            "{config}: {logs:?}"
        );
        let o = arena_in_within(&repo("."), &["report", out.to_str().unwrap()], LIMIT);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (a, b) = (results(&alone), results(&out));
        assert_eq!(a["standings"], b["standings"], "{config}");
        assert_eq!(a["bracket"], b["bracket"], "{config}");
    }
}

/// A config of `engines` random movers (by name) with `format`.
fn config(dir: &Path, engines: &[&str], format: &str) -> PathBuf {
    let list: Vec<String> = engines
        .iter()
        .map(|n| format!("Inline(Engine(name: {n:?}, search: Random))"))
        .collect();
    let path = dir.join("bad.ron");
    std::fs::write(
        &path,
        format!(
            "Tournament(\n  name: \"bad\",\n  engines: [{}],\n  format: {format},\n  out: \"out\",\n)\n",
            list.join(", ")
        ),
    )
    .unwrap();
    path
}

#[test]
fn bad_knockout_and_swiss_settings_are_one_line_naming_the_field() {
    let dir = tmp("bad");
    let four = ["a", "b", "c", "d"];
    for (engines, format, words) in [
        (
            &four[..],
            "Swiss(rounds: 0)",
            "rounds: 0 rounds of 4 engines: must be 1 to 3",
        ),
        (
            &four[..],
            "Swiss(rounds: 4)",
            "rounds: 4 rounds of 4 engines: must be 1 to 3",
        ),
        (
            &four[..3],
            "Swiss(rounds: 4)",
            "rounds: 4 rounds of 3 engines: must be 1 to 3",
        ),
        (
            &four[..],
            "Swiss(rounds: 2, pairs: 0)",
            "pairs: must be at least 1",
        ),
        (
            &four[..],
            "Swiss(rounds: 2, tiebreaks: [Buchholz, Buchholz])",
            "tiebreaks: Buchholz is listed twice",
        ),
        (&four[..], "Swiss(rounds: 2, tiebreaks: [Median])", "Median"),
        (&four[..], "Knockout(pairs: 0)", "pairs: must be at least 1"),
        (
            &four[..],
            "Knockout(seeds: Some([\"x\"]))",
            "seeds: \"x\" is not one of the engines (a, b, c, d)",
        ),
        (
            &four[..],
            "Knockout(seeds: Some([\"b\", \"b\"]))",
            "seeds: \"b\" is seeded twice",
        ),
        (&four[..1], "Knockout()", "engines"),
    ] {
        let path = config(&dir, engines, format);
        let o = arena_in_within(&dir, &["run", path.to_str().unwrap()], LIMIT);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{format}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{format}: {err}");
        assert!(
            err.contains(words) && err.contains("bad.ron"),
            "{format}: {err}"
        );
    }
    let path = config(&dir, &four, "Swiss(rounds: 2)");
    for (flag, value, words) in [
        ("--shard", "1/2", "cannot be split into shards"),
        ("--rounds", "3", "--rounds does not apply"),
    ] {
        let o = arena_in_within(&dir, &["run", path.to_str().unwrap(), flag, value], LIMIT);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}{}", stdout(&o));
        assert!(err.contains(words), "{flag}: {err}");
    }
}

#[test]
fn arena_watch_shows_the_standings_and_the_bracket_results_json_holds() {
    use crate::watch::Watcher;
    let dir = tmp("watch");
    let root = dir.join("root");
    for config in ["configs/swiss.ron", "configs/knockout.ron"] {
        let out = root.join(&config[8..config.len() - 4]);
        let o = run(config, &out, &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let w = Watcher::start(&root, &[]);
    let rows = w.json("/runs.json");
    let kinds: Vec<(&str, &str)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["kind"].as_str().unwrap()))
        .collect();
    assert!(kinds.contains(&("swiss", "Swiss")), "{kinds:?}");
    assert!(kinds.contains(&("knockout", "knockout")), "{kinds:?}");
    for (name, field, section) in [
        ("swiss", "standings", "Swiss standings"),
        ("knockout", "bracket", "Knockout"),
    ] {
        let live = w.json(&format!("/run/{name}/live.json"));
        let disk = results(&root.join(name));
        assert_eq!(live["results"][field], disk[field], "{name}");
        let figures = w.get(&format!("/run/{name}/figures.html")).body;
        assert!(figures.contains(section), "{name}: {figures}");
    }
}

#[test]
fn a_swiss_journal_edited_to_other_engines_is_refused_by_the_report() {
    let dir = tmp("edited");
    let out = dir.join("run");
    let o = run("configs/swiss.ron", &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Game 0 given to another engine of the run (its pair is the first board).
    let path = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"game_id\":0,"))
        .expect("game 0 is journalled");
    let mut g: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
    let engines = results(&out)["engines"].clone();
    let other = engines
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .find(|n| *n != g["black"] && *n != g["white"])
        .unwrap();
    g["white"] = serde_json::Value::String(other);
    lines[at] = serde_json::to_string(&g).unwrap();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let o = arena_in_within(&repo("."), &["report", out.to_str().unwrap()], LIMIT);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("journal.jsonl:{}:", at + 1))
            && err.contains("game 0 is not one of this run's"),
        "{err}"
    );
}
