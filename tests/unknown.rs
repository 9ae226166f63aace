//! Unknown is not zero: the depth, nodes and score an engine does not
//! report are `null` in the journal and `—` in summary.md and report.html
//! (`null` in results.json), and averages count only the moves that report
//! them; a forced pass has no evaluation; journals written before (with
//! zeros there) read and report exactly as they did.

use crate::tournament::tmp;
use crate::util::{arena, data, repo, stderr};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Writes `text` to `dir/name` and returns its path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// An NBoard engine that says no depth, as Edax answers `go`: `arena
/// serve` with its `search` lines dropped.
fn without_depth(dir: &Path) -> PathBuf {
    let script = write(
        dir,
        "no-depth.sh",
        "#!/bin/sh\n\"$1\" serve --engine \"$2\" --protocol nboard | grep --line-buffered -v '^search '\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The run's per-move figures of `engine`'s moves other than passes, and
/// of its passes: `(depth, nodes, score)` each, as the journal has them.
type Figures = Vec<(Value, Value, Value)>;

fn figures(games: &[Value], engine: &str) -> (Figures, Figures) {
    let (mut moves, mut passes) = (Vec::new(), Vec::new());
    for g in games {
        let plies = g["opening_plies"].as_u64().unwrap() as usize;
        let text = g["moves"].as_str().unwrap();
        let scores = g.get("scores").and_then(Value::as_array);
        for k in 0..g["depths"].as_array().unwrap().len() {
            // The standard start: black moves on even plies.
            let mover = if (plies + k).is_multiple_of(2) {
                "black"
            } else {
                "white"
            };
            if g[mover] != engine {
                continue;
            }
            let at = 2 * (plies + k);
            let score = scores.map_or(Value::Null, |s| s[k].clone());
            let entry = (g["depths"][k].clone(), g["nodes"][k].clone(), score);
            if &text[at..at + 2] == "pa" {
                passes.push(entry);
            } else {
                moves.push(entry);
            }
        }
    }
    (moves, passes)
}

/// The row of `engine` in summary.md's Engines table.
fn summary_row<'a>(summary: &'a str, engine: &str) -> &'a str {
    summary
        .lines()
        .find(|l| l.starts_with(&format!("| {engine} | ")) && l.ends_with(" | none |"))
        .unwrap_or_else(|| panic!("no Engines row of {engine}:\n{summary}"))
}

#[test]
fn figures_an_engine_does_not_report_are_null_and_shown_as_a_dash() {
    let dir = tmp("unknown-figures");
    let arena_bin = env!("CARGO_BIN_EXE_arena");
    let twin = write(
        &dir,
        "twin.ron",
        "Engine(name: \"twin\", search: Pvs, limit: Depth(2), eval: Discs)",
    );
    let twin = twin.to_str().unwrap();
    let script = without_depth(&dir);
    let gtp = write(
        &dir,
        "gtp-twin.ron",
        &format!(
            "External(name: \"gtp-twin\", command: {arena_bin:?}, args: [\"serve\", \
             \"--engine\", {twin:?}, \"--protocol\", \"gtp\"], protocol: Gtp)"
        ),
    );
    let nboard = write(
        &dir,
        "no-depth.ron",
        &format!(
            "External(name: \"no-depth\", command: {:?}, args: [{arena_bin:?}, {twin:?}], \
             protocol: Nboard)",
            script.display()
        ),
    );
    let engines = [
        "Inline(Engine(name: \"d1\", search: Pvs, limit: Depth(1), eval: Discs))".to_string(),
        // GTP carries no depth, nodes or score.
        format!("Path({gtp:?})"),
        // Nodes and scores, no depth.
        format!("Path({nboard:?})"),
    ];
    // The book's first opening, in order: d1 against the twin passes twice
    // in its first game.
    let config = write(
        &dir,
        "config.ron",
        &format!(
            "Tournament(name: \"unknown\", engines: [{}], format: RoundRobin(rounds: 1), \
             book: (file: {:?}, order: Sequential, start: 0), concurrency: 2, seed: 1, out: {:?})",
            engines.join(", "),
            repo("openings/all-4ply.txt"),
            dir.join("out")
        ),
    );
    let run = arena(&["run", config.to_str().unwrap(), "--quiet"]);
    assert!(run.status.success(), "{}", stderr(&run));
    // No limit was asked for, so there is nothing to warn of.
    assert_eq!(stderr(&run), "");
    let out = dir.join("out");
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let games: Vec<Value> = journal
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 6, "{journal}");
    assert!(
        games.iter().all(|g| g["reason"] == "game over"),
        "{journal}"
    );

    let (gtp, gtp_passes) = figures(&games, "gtp-twin");
    assert!(gtp.len() > 40, "{journal}");
    assert!(
        gtp.iter()
            .all(|f| *f == (Value::Null, Value::Null, Value::Null)),
        "GTP moves are null: {gtp:?}"
    );
    let (nb, nb_passes) = figures(&games, "no-depth");
    assert!(
        nb.iter()
            .all(|(d, n, s)| d.is_null() && n.is_u64() && s.is_i64()),
        "NBoard without `search`: {nb:?}"
    );
    let (d1, d1_passes) = figures(&games, "d1");
    assert!(
        d1.iter()
            .all(|(d, n, s)| *d == 1 && n.is_u64() && s.is_i64()),
        "in-process: {d1:?}"
    );
    // A forced pass is searched by nobody: depth and nodes 0, no score.
    let passes: Figures = [gtp_passes, nb_passes, d1_passes].concat();
    assert!(!passes.is_empty(), "the first game has passes: {journal}");
    let unsearched = (Value::from(0), Value::from(0), Value::Null);
    assert!(passes.iter().all(|p| *p == unsearched), "{passes:?}");
    let ggf = std::fs::read_to_string(out.join("games.ggf")).unwrap();
    assert!(ggf.contains("[PA]") && !ggf.contains("[PA/"), "{ggf}");

    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let of = |name: &str| {
        results["engine_moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()
            .clone()
    };
    let g = of("gtp-twin");
    assert!(g["moves"].as_u64().unwrap() > 40, "{g}");
    for key in ["avg_depth", "nodes", "nps"] {
        assert!(g[key].is_null(), "{key}: {g}");
    }
    assert!(g["avg_time_ms"].is_f64(), "{g}");
    let n = of("no-depth");
    assert!(n["avg_depth"].is_null(), "{n}");
    assert!(n["nodes"].as_u64().unwrap() > 0 && n["nps"].is_f64(), "{n}");
    assert_eq!(of("d1")["avg_depth"], 1.0);

    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    let row = summary_row(&summary, "gtp-twin");
    let cells: Vec<&str> = row.split(" | ").collect();
    assert_eq!(cells[2..4], ["—", "—"], "avg depth, nodes/s: {row}");
    let row = summary_row(&summary, "no-depth");
    let cells: Vec<&str> = row.split(" | ").collect();
    assert_eq!(cells[2], "—", "{row}");
    assert!(cells[3].parse::<u64>().is_ok(), "{row}");
    assert!(
        summary_row(&summary, "d1").contains(" | 1.0 | "),
        "{summary}"
    );

    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let row = format!("<td>gtp-twin</td><td class=\"n\">4</td><td class=\"n\">{}</td><td class=\"n\">—</td><td class=\"n\">—</td>", g["moves"]);
    assert!(html.contains(&row), "no {row} in report.html");
}

#[test]
fn a_journal_written_with_zeros_for_unknown_figures_reports_as_before() {
    // A run of an in-process engine against one over GTP, its journal,
    // tournament.json and the summary.md and results.json `arena report`
    // made of them before unknown figures were null: the GTP engine's
    // depths and nodes are 0 there.
    let fixture = data("journals/gtp-zeros");
    let dir = tmp("unknown-old-journal");
    for file in ["journal.jsonl", "tournament.json"] {
        std::fs::copy(fixture.join(file), dir.join(file)).unwrap();
    }
    let out = arena(&["report", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    for file in ["summary.md", "results.json"] {
        let before = std::fs::read_to_string(fixture.join(file)).unwrap();
        let now = std::fs::read_to_string(dir.join(file)).unwrap();
        assert_eq!(now, before, "{file}");
    }
    // Its zeros stay zeros.
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary_row(&summary, "gtp-twin").starts_with("| gtp-twin | 112 | 0.0 | — |"),
        "{summary}"
    );
}
