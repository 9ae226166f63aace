//! `arena watch` in a real headless Chromium: a run's page, opened once,
//! shows its game count rising as the journal grows (the page's script
//! redraws it from `live.json`, no reload), the plots are drawn, and a
//! tune's page shows each parameter's trajectory. Screenshots are checked
//! not to be blank. Without `chromium` on the PATH (`.ci/run` installs
//! Debian's) the test says it skips, and fails under ARENA_REQUIRE_ALL.

use super::report_html::{bounded, browser, not_blank};
use super::watch::{played, tmp, Watcher};
use crate::util::repo;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Longest one browser run may take.

#[test]
fn the_page_counts_games_as_they_come_and_draws_a_tune_s_trajectories() {
    let Some(chromium) = crate::util::program(
        "chromium",
        "the browser half: .ci/run installs Debian's chromium",
    ) else {
        return;
    };
    let dir = tmp("browser");
    let root = dir.join("root");
    // A run played by the test: its journal written a game at a time.
    played(&dir, &dir.join("done"), 200);
    std::fs::create_dir_all(root.join("nightly/live")).unwrap();
    std::fs::copy(
        dir.join("done/tournament.json"),
        root.join("nightly/live/tournament.json"),
    )
    .unwrap();
    let journal = std::fs::read_to_string(dir.join("done/journal.jsonl")).unwrap();
    let lines: Vec<String> = journal.lines().map(|l| format!("{l}\n")).collect();
    let path = root.join("nightly/live/journal.jsonl");
    std::fs::write(&path, lines[..6].concat()).unwrap();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        for l in &lines[6..] {
            f.write_all(l.as_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(30));
        }
    });
    tune(&dir, &root.join("tune"));
    let w = Watcher::start(&root, &[]);
    let url = format!("http://{}/run/nightly/live/", w.addr);
    // Chromium runs the page's timers in virtual time, which passes
    // faster than the journal grows: a page may see no game come in; each
    // attempt is one load, never reloaded.
    let mut seen = Vec::new();
    let dom = loop {
        let dom = dump_dom(&chromium, &dir, &url);
        let (first, games, updates) = counts(&dom);
        assert!(updates >= 2, "the script fetched live.json {updates} times");
        seen.push((first, games));
        if games > first {
            break dom;
        }
        assert!(
            seen.len() < 5,
            "the count never rose within one load: {seen:?}"
        );
    };
    assert!(dom.contains("<svg"), "the plots are drawn");
    let png = dir.join("live.png");
    screenshot(&chromium, &dir, &url, &png, (1200, 900));
    not_blank(&png, (1200, 900), 20);
    writer.join().unwrap();
    // The tune's page: θ of each parameter, and its trajectory plotted.
    let url = format!("http://{}/run/tune/", w.addr);
    let dom = dump_dom(&chromium, &dir, &url);
    let theta = between(&dom, "<tbody id=\"theta\">", "</tbody>");
    assert!(
        theta.contains("endgame_exact_at") && theta.contains("aspiration"),
        "{theta}"
    );
    assert!(
        dom.contains("id=\"tune-0\"") && dom.contains("id=\"tune-1\""),
        "{dom}"
    );
    let png = dir.join("tune.png");
    screenshot(&chromium, &dir, &url, &png, (1200, 900));
    not_blank(&png, (1200, 900), 20);
}

/// The games the page's script saw first, the games it shows, and how
/// many times it fetched `live.json`.
fn counts(dom: &str) -> (u64, u64, u64) {
    let games = between(dom, "<dd id=\"games\">", "<").parse().unwrap_or(0);
    let first = between(dom, "data-first-games=\"", "\"")
        .parse()
        .unwrap_or(0);
    let updates = between(dom, "data-first-games=\"", "<")
        .rsplit('>')
        .next()
        .and_then(|u| u.parse().ok())
        .unwrap_or(0);
    (first, games, updates)
}

/// A short tune (depth 1) played into `out`.
fn tune(dir: &Path, out: &Path) {
    let config = dir.join("tune.ron");
    let text = format!(
        "Tournament(\n  name: \"tiny-tune\",\n  engines: [Path({:?})],\n  format: Spsa(\n    params: [\n      (field: \"endgame_exact_at\", start: 6, min: 0, max: 16, c_end: 1, r_end: 0.05),\n      (field: \"aspiration\", start: 50, min: 10, max: 300, c_end: 10, r_end: 0.002),\n    ],\n    iterations: 12,\n    pairs_per_iteration: 1,\n  ),\n  book: (file: {:?}, order: Random, start: 0),\n  limit: Some(Depth(1)),\n  concurrency: 1,\n  seed: 1,\n  out: \"out\",\n)\n",
        repo("engines/pvs-tt-d8.ron"),
        repo("openings/all-4ply.txt"),
    );
    std::fs::write(&config, text).unwrap();
    let args = [
        "run",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    let r = crate::util::arena_in_within(dir, &args, Duration::from_secs(60));
    assert!(r.status.success(), "{}", crate::util::stderr(&r));
}

/// The text of `text` after `start`, up to `end`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in {text}"))
        + start.len();
    let rest = &text[at..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

fn dump_dom(chromium: &Path, dir: &Path, url: &str) -> String {
    let mut c = browser(chromium, dir);
    // 30 s of the page's time: some 30 fetches of live.json, each a
    // real request, so real time passes while the journal grows.
    c.args(["--virtual-time-budget=30000", "--dump-dom", url]);
    let out = dir.join("dom.html");
    bounded(c, &out);
    std::fs::read_to_string(&out).unwrap()
}

fn screenshot(chromium: &Path, dir: &Path, url: &str, png: &Path, (w, h): (u32, u32)) {
    let mut c = browser(chromium, dir);
    c.arg("--virtual-time-budget=6000")
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={w},{h}"))
        .arg(url);
    bounded(c, &dir.join("screenshot.log"));
}
