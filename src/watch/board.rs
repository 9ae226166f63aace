//! Every run under the watched root: found by a bounded walk of the
//! folder tree (symbolic links never followed, so nothing outside the
//! root is reached), each followed ([`Run`]), and published after each
//! refresh as a [`Snapshot`]: the index's rows and each run's `live.json`
//! and figures, ready to serve, so a request never waits on a journal.

use super::follow::{Gains, Run};
use super::journal::LastGame;
use super::workers::WorkerView;
use crate::report::html::verdict;
use crate::stats::format::elo;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Deepest folder under the root looked into for runs.
pub const DEPTH: usize = 4;

/// Most folders one walk looks at.
pub const MOST_FOLDERS: usize = 4096;

/// One row of the index (`/runs.json`).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The run's folder relative to the root.
    pub name: String,
    /// "round robin", "gauntlet", "SPRT" or "tune".
    pub kind: &'static str,
    /// "playing", "decided H0", "decided H1", "complete", "stopped",
    /// "stale" or "gone" (its folder deleted).
    pub state: &'static str,
    /// Games played.
    pub games: u64,
    /// Games a minute lately (`None` until measured).
    pub games_a_minute: Option<f64>,
    /// The verdict, or the leading figures.
    pub figures: String,
    /// When the last game was journalled (seconds since 1970).
    pub last_game: Option<u64>,
    /// When the run last wrote anything (seconds since 1970): the order.
    #[serde(skip)]
    pub activity: u64,
}

/// A run as its page and `live.json` show it.
pub struct RunView {
    /// The row of the index.
    pub row: Row,
    /// `live.json`.
    pub live_json: String,
    /// The report's sections (escaped HTML).
    pub figures: String,
}

/// What the server serves until the next refresh.
#[derive(Default)]
pub struct Snapshot {
    /// The index's rows, newest activity first.
    pub rows: Vec<Row>,
    /// `/runs.json`.
    pub runs_json: String,
    /// Each run by name.
    pub runs: HashMap<String, RunView>,
}

struct Entry {
    run: Run,
    gone: bool,
}

/// The runs under a root.
pub struct Board {
    root: PathBuf,
    runs: BTreeMap<String, Entry>,
}

fn unix(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Board {
    /// The runs under `root` (none read yet).
    pub fn new(root: &Path) -> Board {
        Board {
            root: root.to_path_buf(),
            runs: BTreeMap::new(),
        }
    }

    /// Finds new runs, follows each, and marks the deleted gone. Returns
    /// the names of runs seen playing that have just decided or ended.
    pub fn refresh(&mut self) -> Vec<String> {
        let found = find_runs(&self.root);
        let mut ended = Vec::new();
        for (name, dir) in &found {
            if let Some(e) = self.runs.get_mut(name) {
                e.gone = false;
                continue;
            }
            if let Ok(run) = Run::open(dir) {
                let entry = Entry { run, gone: false };
                self.runs.insert(name.clone(), entry);
            }
        }
        for (name, e) in &mut self.runs {
            if !found.contains_key(name) || !e.run.exists() {
                e.gone = true;
                continue;
            }
            let was = e.run.state();
            e.run.refresh();
            let now = e.run.state();
            if now == "playing" {
                // Still reading a long journal: not yet seen playing, and
                // not ended either.
                e.run.seen_playing |= e.run.caught_up();
            } else if was == "playing" && e.run.seen_playing {
                e.run.seen_playing = false;
                ended.push(name.clone());
            }
        }
        ended
    }

    /// The summary line of the run `name` (for `--on-decision`).
    pub fn summary(&self, name: &str) -> Option<String> {
        let e = self.runs.get(name)?;
        serde_json::to_string(&row(name, e)).ok()
    }

    /// What to serve now.
    pub fn snapshot(&self) -> Snapshot {
        let mut snap = Snapshot::default();
        for (name, e) in &self.runs {
            let row = row(name, e);
            let live_json = live_json(&row, e);
            let figures = e.run.figures().to_string();
            snap.rows.push(row.clone());
            snap.runs.insert(
                name.clone(),
                RunView {
                    row,
                    live_json,
                    figures,
                },
            );
        }
        snap.rows
            .sort_by(|a, b| b.activity.cmp(&a.activity).then(a.name.cmp(&b.name)));
        snap.runs_json = serde_json::to_string(&snap.rows).unwrap_or_else(|_| "[]".into());
        snap
    }
}

fn row(name: &str, e: &Entry) -> Row {
    let run = &e.run;
    let r = &run.results;
    Row {
        name: name.to_string(),
        kind: run.kind(),
        state: if e.gone { "gone" } else { run.state() },
        games: r.games_played,
        games_a_minute: run.games_a_minute(),
        figures: figures(run),
        last_game: run.last_game().map(unix),
        activity: run.last_activity().map(unix).unwrap_or(0),
    }
}

/// The verdict once there is one, else the leading figures.
fn figures(run: &Run) -> String {
    let r = &run.results;
    if let Some(t) = &r.tune {
        return format!("iteration {} of {}", t.iterations_done, t.iterations);
    }
    if let Some(h) = &r.head_to_head {
        let mut text = format!(
            "Elo {} ± {}",
            elo(h.elo, 1),
            elo(h.elo_error, 1).trim_start_matches('+')
        );
        if let Some(s) = &h.sprt {
            text.push_str(&format!(
                ", LLR {:.2} ({:.2}, {:.2})",
                s.llr, s.lower_bound, s.upper_bound
            ));
        }
        if r.complete {
            text = format!("{}: {text}", verdict(run.info(), r).1);
        }
        return text;
    }
    match r
        .engines
        .iter()
        .max_by(|a, b| a.points.total_cmp(&b.points))
    {
        Some(top) if r.games_played > 0 => {
            format!("leader {} with {} of {}", top.name, top.points, top.games)
        }
        _ => "no games yet".into(),
    }
}

#[derive(Serialize)]
struct Live<'a> {
    #[serde(flatten)]
    row: &'a Row,
    pairs_left: Option<u64>,
    problem: Option<&'a str>,
    workers: Vec<WorkerView>,
    gains: Vec<Gains>,
    last_games: Vec<&'a LastGame>,
    results: &'a crate::report::Results,
}

fn live_json(row: &Row, e: &Entry) -> String {
    let run = &e.run;
    let last_games = run.last_games();
    let live = Live {
        row,
        pairs_left: run.pairs_left(),
        problem: run.problem.as_deref(),
        workers: run.workers(),
        gains: run.gains(),
        last_games,
        results: &run.results,
    };
    serde_json::to_string(&live).unwrap_or_else(|_| "{}".into())
}

/// The run folders under `root` (a folder holding `tournament.json`) by
/// name: the path relative to `root`, or `root`'s own name when it is
/// a run itself. Symbolic links are never followed; a run's own
/// subfolders are not searched.
pub fn find_runs(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    if is_plain_file(&root.join("tournament.json")) {
        let name = root
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "run".into());
        found.insert(name, root.to_path_buf());
        return found;
    }
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    let mut looked = 0;
    while let Some((dir, depth)) = stack.pop() {
        looked += 1;
        if looked > MOST_FOLDERS {
            break;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(|e| e.ok()) {
            // file_type does not follow links: a link is never a folder here.
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let path = entry.path();
            let Some(name) = path.strip_prefix(root).ok().and_then(|p| p.to_str()) else {
                continue;
            };
            if is_plain_file(&path.join("tournament.json")) {
                found.insert(name.to_string(), path.clone());
            } else if depth + 1 < DEPTH {
                stack.push((path, depth + 1));
            }
        }
    }
    found
}

/// A file that is not a symbolic link.
fn is_plain_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}
