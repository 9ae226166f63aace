//! One run folder followed as it grows, read-only and without its lock:
//! its journal (or each worker's) read from where the last read stopped
//! ([`Tail`]; a long one caught up with in steps of [`STEP`] bytes, so
//! what is held at once stays bounded), started over when the file is
//! replaced (`--overwrite`, a `--resume` that extends the run). Each game
//! read goes into the run's [`Live`] (the running tallies the runner keeps,
//! here with what the report draws) and is dropped, but for the last
//! [`LAST_GAMES`] the page lists. The counts, the LLR and a tune's θ are
//! current after every refresh; the full figures (the ratings solved, the
//! notes, the report's sections) are redone at most every [`FULL_EVERY`]
//! (or ten times as long as they last took) while games come, and as soon
//! as they stop: a run that has ended shows what `arena report` computes.

use super::journal::{Followed, LastGame, Read};
use super::workers::{self, FirstReaders, WorkerView};
use crate::error::{Error, Result};
use crate::records::check::Slot;
use crate::records::{Format, GameRecord, TournamentInfo};
use crate::report::html::report_sections;
use crate::report::{analyse, Live, Results};
use crate::stats::Verdict;
use crate::tournament::folder::{note_capped_transcripts, plan, read_info};
use crate::tournament::schedule::Schedule;
use crate::tournament::workers::heartbeat;
use crate::tournament::workers::report::{twice_note, workers_notes};
use crate::tournament::workers::status::estimate_left;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// A run with no game and no heartbeat for this long is stale, unless its
/// workers recorded another `--stale-after` ([`workers::stale_after`]).
pub const STALE: Duration = crate::tournament::workers::STALE_AFTER;

/// How many of the last games a run's page lists.
pub const LAST_GAMES: usize = 12;

/// Least time between two full computations of a run's figures while its
/// games come (the ratings lag the counts by at most this, or by ten times
/// as long as the last full computation took).
pub const FULL_EVERY: Duration = Duration::from_secs(3);

/// Most bytes of journal read in one step (shared by a run's journals).
pub const STEP: u64 = 1 << 20;

/// Most time one refresh spends catching up with a run's long journals.
pub const CATCH_UP: Duration = Duration::from_secs(1);

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
    /// Every game read, counted.
    live: Live,
    /// The figures: counts as of the last refresh, ratings and notes as of
    /// the last full computation.
    pub results: Results,
    /// The notes the watcher adds to the analysis' (a workers' run's,
    /// capped transcripts), as of the last full computation.
    notes: Vec<String>,
    /// A workers' run: which worker gave each game first.
    first: FirstReaders,
    /// The last games by id.
    last: BTreeMap<u64, LastGame>,
    /// The report's sections (escaped HTML), as of the last full
    /// computation.
    figures: String,
    /// Whether `results` and `figures` are full for every game read.
    exact: bool,
    /// When the figures were last computed in full, and what it took.
    last_full: Option<Instant>,
    full_cost: Duration,
    /// Whether the last refresh read every journal to its end.
    caught_up: bool,
    /// The run's stale time.
    stale_after: Duration,
    /// Where the run stood at the last refresh ([`Run::state`]).
    state: &'static str,
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
        run.seen_playing = run.caught_up && run.state == "playing";
        Ok(run)
    }

    fn open_quiet(dir: &Path) -> Result<Run> {
        let info_stamp = stamp(&dir.join("tournament.json"));
        let info = read_info(dir)?;
        let plan = (!info.custom_schedule && !info.format.by_results())
            .then(|| plan(&info, &dir.join("tournament.json")).ok())
            .flatten();
        let stale_after = if info.workers {
            workers::stale_after(dir)
        } else {
            STALE
        };
        Ok(Run {
            dir: dir.to_path_buf(),
            results: analyse(&info, &[]),
            live: Live::drawing(&info, info.decides()),
            first: FirstReaders::new(&info),
            info,
            info_stamp,
            plan,
            journals: BTreeMap::new(),
            samples: VecDeque::new(),
            notes: Vec::new(),
            last: BTreeMap::new(),
            figures: String::new(),
            exact: false,
            last_full: None,
            full_cost: Duration::ZERO,
            caught_up: false,
            stale_after,
            state: "stale",
            problem: None,
            seen_playing: false,
        })
    }

    /// The run's record.
    pub fn info(&self) -> &TournamentInfo {
        &self.info
    }

    /// Whether the folder is still there.
    pub fn exists(&self) -> bool {
        self.dir.join("tournament.json").is_file()
    }

    /// Whether the last refresh read every journal to its end (a long
    /// journal takes a few refreshes).
    pub fn caught_up(&self) -> bool {
        self.caught_up
    }

    /// The report's sections (escaped HTML) as last computed in full.
    pub fn figures(&self) -> &str {
        &self.figures
    }

    /// The last games, newest id first.
    pub fn last_games(&self) -> Vec<&LastGame> {
        self.last.values().rev().collect()
    }

    /// Reads what was written since the last refresh (starting over when
    /// a journal or `tournament.json` was replaced), counts it, and redoes
    /// the full figures when they are due.
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
        let came = self.read();
        if came {
            self.results = self.live.results_keeping_ratings(&self.results);
            self.results.notes.extend(self.notes.iter().cloned());
            self.exact = false;
        }
        let since = self.last_full.map(|t| t.elapsed());
        let quiet = since.is_none_or(|s| s >= self.full_cost * 10);
        let due = since.is_none_or(|s| s >= FULL_EVERY.max(self.full_cost * 10));
        if !self.exact && (due || (!came && quiet)) {
            self.full();
        }
        self.state = self.current_state();
        let t = Instant::now();
        self.samples.push_back((t, self.live.played()));
        while self
            .samples
            .front()
            .is_some_and(|(s, _)| t.duration_since(*s) > Duration::from_secs(120))
        {
            self.samples.pop_front();
        }
    }

    /// Reads the journals in steps until each is read to its end or
    /// [`CATCH_UP`] has passed; true when games came.
    fn read(&mut self) -> bool {
        let began = Instant::now();
        let mut came = false;
        let mut restarted = false;
        loop {
            match self.read_step() {
                Ok(None) if !restarted => {
                    restarted = true;
                    self.start_over();
                    came = true;
                }
                Ok(None) => return came,
                Ok(Some((n, at_end))) => {
                    self.problem = None;
                    came |= n > 0;
                    self.caught_up = at_end;
                    if at_end {
                        return came;
                    }
                }
                Err((n, e)) => {
                    self.problem = Some(e.to_string());
                    return came || n > 0;
                }
            }
            if began.elapsed() > CATCH_UP {
                return came;
            }
        }
    }

    /// Forgets what was read: the journals were replaced.
    fn start_over(&mut self) {
        self.journals.clear();
        self.samples.clear();
        self.live = Live::drawing(&self.info, self.info.decides());
        self.results = analyse(&self.info, &[]);
        self.first = FirstReaders::new(&self.info);
        self.last.clear();
        self.notes.clear();
        self.exact = false;
        self.caught_up = false;
    }

    /// Reads at most [`STEP`] bytes of the journals and counts their
    /// games: how many came and whether every journal was read to its end
    /// (`None`: a journal was replaced). A journal's bad line is the
    /// error, with the games the others gave counted.
    fn read_step(&mut self) -> std::result::Result<Option<(usize, bool)>, (usize, Error)> {
        if self.info.workers {
            for id in workers::worker_ids(&self.dir) {
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
        let most = (STEP / self.journals.len().max(1) as u64).max(64 << 10);
        let mut read = Vec::new();
        let mut all = true;
        let mut problem = None;
        for (id, j) in &mut self.journals {
            match j.more(&self.info, &slot, most) {
                Ok(Read::Replaced) => return Ok(None),
                Ok(Read::Games(games, at_end)) => {
                    all &= at_end;
                    read.push((id.clone(), games));
                }
                Err(e) => problem = problem.or(Some(e)),
            }
        }
        let mut n = 0;
        for (id, games) in read {
            n += games.len();
            for g in &games {
                self.take(&id, g);
            }
        }
        match problem {
            Some(e) => Err((n, e)),
            None => Ok(Some((n, all))),
        }
    }

    /// Counts game `g`, read from worker `id`'s journal (the run's: "").
    fn take(&mut self, id: &str, g: &GameRecord) {
        let again = self.live.has(g.game_id);
        if self.info.workers {
            self.first.read(id, g, again);
        }
        self.live.add(g);
        let newer = self.last.len() < LAST_GAMES
            || self
                .last
                .first_key_value()
                .is_some_and(|(&k, _)| g.game_id > k);
        if !again && newer {
            self.last.insert(g.game_id, LastGame::of(g));
            if self.last.len() > LAST_GAMES {
                self.last.pop_first();
            }
        }
    }

    /// The figures in full: the ratings solved, the notes a workers' run
    /// and capped transcripts add, the report's sections.
    fn full(&mut self) {
        let began = Instant::now();
        let mut results = self.live.results();
        let before = results.notes.len();
        if self.info.workers {
            let journalled: Vec<(&str, usize)> = self
                .journals
                .iter()
                .filter(|(_, j)| j.found())
                .map(|(id, j)| (id.as_str(), usize::try_from(j.games).unwrap_or(usize::MAX)))
                .collect();
            let twice = twice_note(&self.first.twice()).into_iter().collect();
            match workers_notes(&self.dir, &self.info, &journalled, twice) {
                Ok(notes) => results.notes.extend(notes),
                Err(e) => self.problem = Some(e.to_string()),
            }
            self.stale_after = workers::stale_after(&self.dir);
        }
        note_capped_transcripts(&self.dir, &self.info, &mut results);
        self.notes = results.notes[before..].to_vec();
        if let Some(drawn) = self.live.drawn() {
            self.figures = report_sections(&self.info, &results, drawn);
        }
        self.results = results;
        self.exact = true;
        self.full_cost = began.elapsed();
        self.last_full = Some(Instant::now());
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
        if self.info.workers {
            times.extend(workers::beats(&self.dir).into_iter().map(|(_, _, t)| t));
        }
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

    /// Where the run stood at the last refresh: "playing", "decided H0",
    /// "decided H1", "complete", "stopped" or "stale" (no game, heartbeat
    /// or results written for longer than the run's stale time).
    pub fn state(&self) -> &'static str {
        self.state
    }

    fn current_state(&self) -> &'static str {
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
            Some(a) if a <= self.stale_after => "playing",
            _ => "stale",
        }
    }

    /// Stopped by hand: every worker's heartbeat says it ended, or the
    /// results a one-machine run last wrote say so.
    fn stopped(&self) -> bool {
        if self.info.workers {
            let beats = workers::beats(&self.dir);
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
        if !self.info.workers {
            return Vec::new();
        }
        let beats: BTreeMap<String, _> = workers::beats(&self.dir)
            .into_iter()
            .map(|(id, b, t)| (id, (b, t)))
            .collect();
        self.journals
            .iter()
            .map(|(id, j)| WorkerView::new(id, j.games, beats.get(id)))
            .collect()
    }

    /// Pairs still to play: none once complete; for an SPRT, the pairs
    /// its LLR would take to reach the bound it drifts towards at its pace
    /// so far (`None` before it moves), capped by the pairs left; else the
    /// unfinished pairs (`arena status`'s estimate).
    pub fn pairs_left(&self) -> Option<u64> {
        estimate_left(&self.info, &self.results, self.live.complete_pairs())
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
            Format::Knockout { .. } => "knockout",
            Format::Swiss { .. } => "Swiss",
        }
    }
}
