//! One run folder followed as it grows, read-only and without its lock:
//! its journal (or each worker's) read from where the last read stopped
//! ([`Tail`]), started over when the file is replaced (`--overwrite`, a
//! `--resume` that extends the run), and the run's figures computed by the
//! one analysis `arena report` and `arena status` use ([`analyse`]).

use crate::error::Result;
use crate::records::check::Slot;
use crate::records::tail::Tail;
use crate::records::{Format, GameRecord, TournamentInfo};
use crate::report::{analyse, Results};
use crate::stats::Verdict;
use crate::tournament::folder::{note_capped_transcripts, plan, read_info};
use crate::tournament::schedule::Schedule;
use crate::tournament::workers::heartbeat::{self, Beat};
use crate::tournament::workers::report::{combine, workers_notes, WorkerGames};
use crate::tournament::workers::status::estimate_left;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// A run with no game and no heartbeat for this long is stale (the
/// workers' own default, `--stale-after`).
pub const STALE: Duration = crate::tournament::workers::STALE_AFTER;

/// How many of the last games a run's page lists.
pub const LAST_GAMES: usize = 12;

/// One journal followed: where it was read to, and which file it was.
struct Followed {
    tail: Tail,
    /// The file's identity and length when last read: another file, or a
    /// shorter one, means the journal was replaced.
    file: Option<((u64, u64), u64)>,
    games: Vec<GameRecord>,
}

impl Followed {
    fn new(path: &Path) -> Followed {
        Followed {
            tail: Tail::new(path),
            file: None,
            games: Vec::new(),
        }
    }

    /// Reads what was appended. True when the file was replaced (nothing
    /// read then: the caller starts over).
    fn more(&mut self, info: &TournamentInfo, slot: &dyn Fn(u64) -> Option<Slot>) -> Result<bool> {
        let path = self.tail.path().to_path_buf();
        let now =
            crate::util::sys::file_id(&path).zip(std::fs::metadata(&path).ok().map(|m| m.len()));
        if let (Some((old_id, old_len)), Some((id, len))) = (self.file, now) {
            if old_id != id || len < old_len {
                return Ok(true);
            }
        }
        if self.file.is_some() && now.is_none() {
            return Ok(true);
        }
        self.file = now;
        let more = self.tail.more(info, slot)?;
        self.games.extend(more);
        Ok(false)
    }

    fn modified(&self) -> Option<SystemTime> {
        std::fs::metadata(self.tail.path())
            .and_then(|m| m.modified())
            .ok()
    }
}

/// One worker of a shared run, as a run's page shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WorkerView {
    /// Its ID.
    pub id: String,
    /// Its host and process id, from its heartbeat (empty without one).
    pub host: String,
    /// Its process id (0 without a heartbeat).
    pub pid: u32,
    /// Games in its journal.
    pub games: u64,
    /// Seconds since its last heartbeat (`None`: none).
    pub heartbeat_age_s: Option<u64>,
    /// "live", "ended", "stale" or "none".
    pub state: &'static str,
}

/// A tune's gains at an iteration, for one parameter.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Gains {
    /// The parameter's field.
    pub field: String,
    /// The iteration they are of (the next one to apply).
    pub iteration: u64,
    /// c_k, the perturbation.
    pub c: f64,
    /// a_k, the step.
    pub a: f64,
}

/// A run folder followed.
pub struct Run {
    dir: PathBuf,
    info: TournamentInfo,
    /// `tournament.json`'s identity and time, to see it rewritten.
    info_stamp: Option<((u64, u64), SystemTime)>,
    plan: Option<Schedule>,
    /// The run's journal, or each worker's by ID.
    journals: BTreeMap<String, Followed>,
    /// Games counted at each refresh of the last few minutes.
    samples: VecDeque<(Instant, u64)>,
    /// The figures, recomputed when games came.
    pub results: Results,
    /// A workers' run's games, each id once, in game order.
    combined: Vec<GameRecord>,
    /// The last read's problem, if any (a bad line: shown, not fatal).
    pub problem: Option<String>,
    /// Whether the run was playing when first seen (for `--on-decision`).
    pub seen_playing: bool,
}

fn stamp(path: &Path) -> Option<((u64, u64), SystemTime)> {
    let id = crate::util::sys::file_id(path)?;
    let time = std::fs::metadata(path).and_then(|m| m.modified()).ok()?;
    Some((id, time))
}

impl Run {
    /// Starts following the run in `dir`.
    ///
    /// # Errors
    /// A missing or bad `tournament.json`.
    pub fn open(dir: &Path) -> Result<Run> {
        let mut run = Run::open_quiet(dir)?;
        run.refresh();
        run.seen_playing = run.state() == "playing";
        Ok(run)
    }

    /// The run's record.
    pub fn info(&self) -> &TournamentInfo {
        &self.info
    }

    /// Whether the folder is still there.
    pub fn exists(&self) -> bool {
        self.dir.join("tournament.json").is_file()
    }

    /// Reads what was written since the last refresh; starts over when a
    /// journal or `tournament.json` was replaced.
    pub fn refresh(&mut self) {
        let now = stamp(&self.dir.join("tournament.json"));
        if now.is_some() && now != self.info_stamp {
            if let Ok(fresh) = Run::open_quiet(&self.dir) {
                *self = Run {
                    seen_playing: self.seen_playing,
                    ..fresh
                };
            }
        }
        let before = self.games_read();
        match self.read_journals() {
            Ok(true) => {
                self.journals.clear();
                self.combined.clear();
                self.samples.clear();
                let _ = self.read_journals();
            }
            Ok(false) => self.problem = None,
            Err(e) => self.problem = Some(e.to_string()),
        }
        let after = self.games_read();
        if after != before || self.samples.is_empty() {
            self.recompute();
        }
        let t = Instant::now();
        self.samples.push_back((t, self.results.games_played));
        while self
            .samples
            .front()
            .is_some_and(|(s, _)| t.duration_since(*s) > Duration::from_secs(120))
        {
            self.samples.pop_front();
        }
    }

    fn open_quiet(dir: &Path) -> Result<Run> {
        let info_stamp = stamp(&dir.join("tournament.json"));
        let info = read_info(dir)?;
        let plan = (!info.custom_schedule)
            .then(|| plan(&info, &dir.join("tournament.json")).ok())
            .flatten();
        Ok(Run {
            dir: dir.to_path_buf(),
            results: analyse(&info, &[]),
            info,
            info_stamp,
            plan,
            journals: BTreeMap::new(),
            samples: VecDeque::new(),
            combined: Vec::new(),
            problem: None,
            seen_playing: false,
        })
    }

    fn games_read(&self) -> usize {
        self.journals.values().map(|j| j.games.len()).sum()
    }

    /// True when a journal was replaced.
    fn read_journals(&mut self) -> Result<bool> {
        if self.info.workers {
            for id in worker_ids(&self.dir) {
                let path = self.dir.join("workers").join(&id).join("journal.jsonl");
                self.journals
                    .entry(id)
                    .or_insert_with(|| Followed::new(&path));
            }
        } else if self.journals.is_empty() {
            let path = self.dir.join("journal.jsonl");
            self.journals.insert(String::new(), Followed::new(&path));
        }
        let plan = self.plan.as_ref();
        let slot = |id: u64| {
            plan.map(|p| {
                let p = p.pairing(id);
                Slot {
                    black: p.black,
                    white: p.white,
                    round: p.round,
                    opening_id: p.opening_id,
                }
            })
        };
        let mut replaced = false;
        for j in self.journals.values_mut() {
            replaced |= j.more(&self.info, &slot)?;
        }
        Ok(replaced)
    }

    /// The games of every journal (each id once), analysed.
    fn recompute(&mut self) {
        let mut results = if self.info.workers {
            let workers: Vec<WorkerGames> = self
                .journals
                .iter_mut()
                .map(|(id, j)| WorkerGames {
                    id: id.clone(),
                    games: std::mem::take(&mut j.games),
                })
                .collect();
            let (games, twice) = combine(&workers);
            let mut results = analyse(&self.info, &games);
            match workers_notes(&self.dir, &self.info, &workers, twice) {
                Ok(notes) => results.notes.extend(notes),
                Err(e) => self.problem = Some(e.to_string()),
            }
            for (w, j) in workers.into_iter().zip(self.journals.values_mut()) {
                j.games = w.games;
            }
            self.combined = games;
            results
        } else {
            analyse(&self.info, self.games())
        };
        note_capped_transcripts(&self.dir, &self.info, &mut results);
        self.results = results;
    }

    /// The games of every journal, each id once (a run on one machine:
    /// its journal's, in journal order).
    pub fn games(&self) -> &[GameRecord] {
        if self.info.workers {
            return &self.combined;
        }
        self.journals.values().next().map_or(&[], |j| &j.games)
    }

    /// Games a minute over the last two minutes of refreshes (`None`
    /// before 5 s of them).
    pub fn games_a_minute(&self) -> Option<f64> {
        let (t0, g0) = *self.samples.front()?;
        let (t1, g1) = *self.samples.back()?;
        let secs = t1.duration_since(t0).as_secs_f64();
        (secs >= 5.0).then(|| (g1.saturating_sub(g0)) as f64 * 60.0 / secs)
    }

    /// When the run last wrote: its journals, heartbeats, results.json.
    pub fn last_activity(&self) -> Option<SystemTime> {
        let mut times: Vec<SystemTime> = self
            .journals
            .values()
            .filter_map(Followed::modified)
            .collect();
        times.extend(self.worker_beats().into_iter().map(|(_, _, t)| t));
        times.extend(
            std::fs::metadata(self.dir.join("results.json"))
                .and_then(|m| m.modified())
                .ok(),
        );
        times.into_iter().max()
    }

    /// When the last game was journalled.
    pub fn last_game(&self) -> Option<SystemTime> {
        self.journals.values().filter_map(Followed::modified).max()
    }

    fn worker_beats(&self) -> Vec<(String, Beat, SystemTime)> {
        if !self.info.workers {
            return Vec::new();
        }
        worker_ids(&self.dir)
            .into_iter()
            .filter_map(|id| {
                let path = self.dir.join("workers").join(&id).join("heartbeat");
                Beat::read(&path).map(|(b, t)| (id, b, t))
            })
            .collect()
    }

    /// Where the run stands: "playing", "decided H0", "decided H1",
    /// "complete", "stopped" or "stale".
    pub fn state(&self) -> &'static str {
        let verdict = self
            .results
            .head_to_head
            .as_ref()
            .and_then(|h| h.sprt.as_ref())
            .map(|s| s.verdict);
        match verdict {
            Some(Verdict::H0) => return "decided H0",
            Some(Verdict::H1) => return "decided H1",
            _ => {}
        }
        if self.results.complete {
            return "complete";
        }
        if self.stopped() {
            return "stopped";
        }
        let age = self.last_activity().map(heartbeat::age);
        match age {
            Some(a) if a <= STALE => "playing",
            _ => "stale",
        }
    }

    /// Stopped by hand: every worker's heartbeat says it ended, or the
    /// results a one-machine run last wrote say so.
    fn stopped(&self) -> bool {
        if self.info.workers {
            let beats = self.worker_beats();
            return !beats.is_empty() && beats.iter().all(|(_, b, _)| b.count.is_none());
        }
        let Ok(text) = std::fs::read_to_string(self.dir.join("results.json")) else {
            return false;
        };
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| {
                v.get("status")
                    .and_then(|s| s.as_str())
                    .map(|s| s == "stopped")
            })
            .unwrap_or(false)
    }

    /// Each worker of a shared run (none for a run on one machine).
    pub fn workers(&self) -> Vec<WorkerView> {
        let beats: BTreeMap<String, (Beat, SystemTime)> = self
            .worker_beats()
            .into_iter()
            .map(|(id, b, t)| (id, (b, t)))
            .collect();
        self.journals
            .iter()
            .filter(|_| self.info.workers)
            .map(|(id, j)| {
                let beat = beats.get(id);
                let age = beat.map(|(_, t)| heartbeat::age(*t));
                let state = match (beat, age) {
                    (None, _) => "none",
                    (Some((b, _)), _) if b.count.is_none() => "ended",
                    (Some(_), Some(a)) if a <= heartbeat::LIVE => "live",
                    _ => "stale",
                };
                WorkerView {
                    id: id.clone(),
                    host: beat.map(|(b, _)| b.host.clone()).unwrap_or_default(),
                    pid: beat.map(|(b, _)| b.pid).unwrap_or(0),
                    games: j.games.len() as u64,
                    heartbeat_age_s: age.map(|a| a.as_secs()),
                    state,
                }
            })
            .collect()
    }

    /// Pairs still to play: none once complete; for an SPRT, the pairs
    /// its LLR would take to reach the bound it drifts towards at its pace
    /// so far (`None` before it moves), capped by the pairs left; else the
    /// unfinished pairs (`arena status`'s estimate).
    pub fn pairs_left(&self) -> Option<u64> {
        let ids: std::collections::HashSet<u64> = self.games().iter().map(|g| g.game_id).collect();
        let finished = ids
            .iter()
            .filter(|&&id| id.is_multiple_of(2) && ids.contains(&(id + 1)))
            .count() as u64;
        estimate_left(&self.info, &self.results, finished)
    }

    /// A tune's gains for its next iteration, each parameter's field with
    /// c_k (the perturbation) and a_k (the step); none for other runs.
    pub fn gains(&self) -> Vec<Gains> {
        let (Format::Spsa { params, .. }, Some(t)) = (&self.info.format, &self.results.tune) else {
            return Vec::new();
        };
        let Some(spsa) = self
            .info
            .format
            .spsa(self.info.seed, &vec![false; params.len()])
        else {
            return Vec::new();
        };
        let k = t.iterations_done.min(t.iterations.saturating_sub(1));
        params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let g = spsa.gains(i, k);
                Gains {
                    field: p.field.clone(),
                    iteration: k,
                    c: g.c,
                    a: g.a,
                }
            })
            .collect()
    }

    /// The run's kind in words.
    pub fn kind(&self) -> &'static str {
        match self.info.format {
            Format::RoundRobin { .. } => "round robin",
            Format::Gauntlet { .. } => "gauntlet",
            Format::Sprt { .. } => "SPRT",
            Format::Spsa { .. } => "tune",
        }
    }
}

/// The worker IDs that have a folder under `dir/workers`.
fn worker_ids(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir.join("workers")) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| crate::tournament::workers::check_id(n).is_ok())
        .collect();
    ids.sort();
    ids
}
