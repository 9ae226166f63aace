//! Results of a tournament, recomputed from its games alone (the journal):
//! per-engine and per-meeting tallies, ratings, the head-to-head block and
//! the SPRT decision. `arena run`, `arena report` and `arena merge` all call
//! [`analyse`], so the same games always give the same results.
//!
//! Which games count: every finished game, except in an SPRT, where the
//! [`PairCounter`] decides: pairs count in schedule order only while they
//! and every earlier pair of the run (its shard) are complete, and counting
//! stops at the pair where the LLR first crosses a bound. Games played past
//! that point stay in the journal but not in the results, so the verdict
//! never depends on thread timing.

use super::moves::{engine_moves, EngineMoves};
use super::pairs::{PairCounter, PairTrace};
use super::tallies::{Counted, Tallies};
use crate::game::GameKind;
use crate::records::{GameRecord, TournamentInfo};
use crate::stats::format::match_block;
use crate::stats::{
    ratings, Anchor, Basis, Crosstable, PairTally, RatingsSummary, SprtState, Summary, Verdict, Wdl,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// One engine's results.
#[derive(Clone, Debug, Serialize)]
pub struct EngineResult {
    /// Name.
    pub name: String,
    /// Games counted.
    pub games: u64,
    /// Wins, draws, losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points.
    pub points: f64,
    /// Its finished pairs, from its point of view.
    pub pairs: PairTally,
    /// Average disc difference (own minus opponent) per game.
    pub avg_disc_diff: Option<f64>,
}

/// Two engines' results against each other.
#[derive(Clone, Debug, Serialize)]
pub struct MeetingResult {
    /// First engine (config order).
    pub a: String,
    /// Second engine.
    pub b: String,
    /// Games counted.
    pub games: u64,
    /// Games `a` won.
    pub a_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games `b` won.
    pub b_wins: u64,
    /// Finished pairs from `a`'s point of view.
    pub pairs: PairTally,
    /// Average disc difference `a` minus `b` per game.
    pub avg_disc_diff: Option<f64>,
}

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Games remain to be played.
    InProgress,
    /// Every game is in, or the SPRT has decided.
    Complete,
    /// Stopped by Ctrl-C or SIGTERM before the end; `--resume` continues.
    Stopped,
    /// A merge of some of the shards only (`--allow-partial`).
    Partial,
}

impl Status {
    /// The status in words.
    pub fn words(self) -> &'static str {
        match self {
            Status::InProgress => "in progress",
            Status::Complete => "complete",
            Status::Stopped => "stopped",
            Status::Partial => "partial",
        }
    }
}

/// Everything `results.json` holds.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    /// Tournament name.
    pub name: String,
    /// Config hash.
    pub config_hash: String,
    /// Shard (`K/N`) or `merged`.
    pub shard: String,
    /// The game (absent: Othello).
    #[serde(skip_serializing_if = "crate::records::info::is_othello")]
    pub game: GameKind,
    /// True when every game of the run is in (or the SPRT has decided).
    pub complete: bool,
    /// Where the run stands.
    pub status: Status,
    /// Why no verdict, or what stopped or is missing, in words (`stopped
    /// after 40 of 180 games`, `shard 2/3: no verdict`), when anything.
    pub status_note: Option<String>,
    /// Games counted in these results.
    pub games: u64,
    /// Games in the journal (some may not count, see the module docs).
    pub games_played: u64,
    /// Games the run schedules.
    pub games_scheduled: u64,
    /// Per engine, in config order.
    pub engines: Vec<EngineResult>,
    /// Per meeting of two engines.
    pub meetings: Vec<MeetingResult>,
    /// Multi-engine ratings (`null` with a note when they cannot be computed).
    pub ratings: Option<RatingsSummary>,
    /// Head-to-head statistics of a two-engine run, pentanomial, with the
    /// SPRT fields when it is an SPRT.
    pub head_to_head: Option<Summary>,
    /// "H0", "H1" or "continue" for an SPRT.
    pub verdict: Option<&'static str>,
    /// Games ended by time, crash or illegal move.
    pub forfeits: u64,
    /// How the games played ended: `game over`, `time forfeit`, `crash`,
    /// `illegal move`, with counts.
    pub terminations: BTreeMap<String, u64>,
    /// What each engine's moves cost (all games played).
    pub engine_moves: Vec<EngineMoves>,
    /// Notes (a book that wrapped, a rating prior used, ...).
    pub notes: Vec<String>,
    /// A tune's θ: start, last value and trajectory (absent for the
    /// other formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<super::tune::TuneSummary>,
    /// A knockout's bracket and places (absent for the other formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bracket: Option<crate::records::knockout::Bracket>,
    /// A Swiss's standings with their tie-breaks (absent for the other
    /// formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standings: Option<crate::records::swiss::Standings>,
    #[serde(skip)]
    pub(super) head_to_head_wdl: Option<(Wdl, PairTally, Option<SprtState>)>,
    /// A two-engine run's pairs over time (`None` for more engines).
    #[serde(skip)]
    pub(super) trace: Option<PairTrace>,
    /// The pairs an SPRT counted, in order (`None`: every game counts).
    #[serde(skip)]
    pub(super) counted_pairs: Option<Vec<u64>>,
    /// The notes solving the ratings gave (among `notes`), kept with them
    /// when later results keep these ratings.
    #[serde(skip)]
    pub(super) rating_notes: Vec<String>,
}

/// The games of a run that can count, by game id: each once (the first
/// record of an id wins), between two different engines of the run.
fn valid_games<'a>(
    index: &BTreeMap<&str, usize>,
    games: &'a [GameRecord],
) -> BTreeMap<u64, &'a GameRecord> {
    let mut by_id: BTreeMap<u64, &GameRecord> = BTreeMap::new();
    for g in games {
        if g.black != g.white
            && index.contains_key(g.black.as_str())
            && index.contains_key(g.white.as_str())
        {
            by_id.entry(g.game_id).or_insert(g);
        }
    }
    by_id
}

/// Multi-engine ratings of the counted games, with a note when they use a
/// prior or cannot be computed.
fn rating_summary(
    table: &Crosstable,
    any: bool,
    notes: &mut Vec<String>,
) -> Option<RatingsSummary> {
    if !any {
        return None;
    }
    match ratings(table, &Anchor::Average) {
        Ok(r) => {
            if let crate::stats::Method::Prior { reason, .. } = &r.method {
                notes.push(format!("ratings use a prior of virtual draws: {reason}"));
            }
            if r.los.is_empty() && r.engines.len() > 1 {
                notes.push(format!(
                    "no LOS matrix (ratings' los is empty): {} engines, more than the {} it is given for",
                    r.engines.len(),
                    crate::stats::LOS_MAX_ENGINES
                ));
            }
            Some(RatingsSummary::new(&r))
        }
        Err(e) => {
            notes.push(format!("no ratings: {e}"));
            None
        }
    }
}

/// About the most bytes the results of a run of `engines` engines take
/// while it plays: its ratings ([`crate::stats::ratings::bytes_needed`],
/// `hubs` as it takes them) and, for each of the `meetings` pairs of
/// engines that meet and for each engine, its tallies and its rows in
/// `results.json`, `summary.md` and `report.html` (as built before they
/// are written). The games' records are not counted: they grow with the
/// games played, about 2 KiB each.
pub fn bytes_needed(engines: usize, hubs: usize, meetings: u64) -> u64 {
    /// A meeting's tallies (two), its result and its text in each file.
    const PER_MEETING: u64 = 1536;
    /// An engine's tallies, results, move costs, rating and their text.
    const PER_ENGINE: u64 = 3072;
    crate::stats::ratings::bytes_needed(engines, hubs, meetings)
        .saturating_add(meetings.saturating_mul(PER_MEETING))
        .saturating_add((engines as u64).saturating_mul(PER_ENGINE))
}

/// Recomputes the results of `games` (any order, duplicates dropped) of the
/// run `info` describes.
pub fn analyse(info: &TournamentInfo, games: &[GameRecord]) -> Results {
    analyse_counted(info, games, None)
}

/// As [`analyse`], given the SPRT pair counter a live run has fed with
/// exactly `games` (`live`): when every game is valid and there once, that
/// counter is the one [`analyse`] would build (a counter's state depends
/// only on the set of games it was given), so the LLR of every pair is not
/// computed again.
pub fn analyse_counted(
    info: &TournamentInfo,
    games: &[GameRecord],
    live: Option<&PairCounter>,
) -> Results {
    let index: BTreeMap<&str, usize> = info
        .engines
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let by_id = valid_games(&index, games);
    let built;
    let counter = match live {
        Some(c) if info.decides() && by_id.len() == games.len() => Some(c),
        _ => {
            built = sprt_counter(info, &by_id);
            built.as_ref()
        }
    };
    let counted: Vec<&GameRecord> = by_id
        .values()
        .copied()
        .filter(|g| counts(counter, g))
        .collect();
    let mut tallies = tallies_of(info, &index, &by_id, &counted, counter);
    let all: Vec<&GameRecord> = by_id.values().copied().collect();
    let (engine_moves, terminations) = engine_moves(info, &all);
    let trace = tallies.trace.take();
    let mut results = Results::assemble(
        info,
        Counts {
            tallies: &tallies,
            counted: counted.len() as u64,
            played: by_id.len() as u64,
            counter,
            ratings: None,
            rounds: rounds_view(info, by_id.values().copied()),
        },
        (engine_moves, terminations),
        super::tune::tune_summary(info, by_id.values().copied()),
    );
    results.counted_pairs = counter.map(|c| c.counted().to_vec());
    results.trace = trace;
    results
}

/// What [`Results::assemble`] makes results of: the counted games'
/// tallies, how many games count and how many were played, the SPRT's
/// counter (`None`: every game counts), and earlier results whose ratings
/// to keep rather than solve them again (`None`: solved).
pub(crate) struct Counts<'a> {
    pub(crate) tallies: &'a Tallies,
    pub(crate) counted: u64,
    pub(crate) played: u64,
    pub(crate) counter: Option<&'a PairCounter>,
    pub(crate) ratings: Option<&'a Results>,
    /// A knockout's or a Swiss's state (`None` for the other formats).
    pub(crate) rounds: Option<crate::records::rounds::RoundsView>,
}

/// A knockout's or a Swiss's state after `games` (`None` for the other
/// formats).
pub(crate) fn rounds_view<'a>(
    info: &TournamentInfo,
    games: impl Iterator<Item = &'a GameRecord>,
) -> Option<crate::records::rounds::RoundsView> {
    let mut rounds = crate::records::rounds::Rounds::of(&info.format, &info.engines)?;
    for g in games {
        rounds.absorb(std::slice::from_ref(g));
    }
    Some(rounds.view())
}

/// The pairs a shard (or the whole run) schedules.
pub(crate) fn scheduled_pairs(info: &TournamentInfo) -> u64 {
    let shard = info.shard();
    (0..info.total_pairs).filter(|&p| shard.owns(p)).count() as u64
}

impl Results {
    /// The results of the run `info` from its `counts`, its engines' move
    /// costs and ways of ending, and a tune's summary; the ratings are
    /// solved here (the one costly step: it does not depend on the games'
    /// number), or kept from earlier results with the notes their solving
    /// gave. No trace and no counted pairs: the caller adds them.
    pub(crate) fn assemble(
        info: &TournamentInfo,
        counts: Counts<'_>,
        (engine_moves, terminations): (Vec<EngineMoves>, BTreeMap<String, u64>),
        tune: Option<super::tune::TuneSummary>,
    ) -> Results {
        let Counts {
            tallies,
            counted,
            played,
            counter,
            ratings: kept,
            rounds,
        } = counts;
        let scheduled_pairs = scheduled_pairs(info);
        let mut notes = run_notes(info);
        let mut rating_notes = Vec::new();
        let ratings = match kept {
            Some(earlier) => {
                rating_notes.clone_from(&earlier.rating_notes);
                earlier.ratings.clone()
            }
            None => rating_summary(&tallies.table, counted > 0, &mut rating_notes),
        };
        notes.extend(rating_notes.iter().cloned());
        let head = head_to_head(info, tallies, counter);
        let verdict = counter.map(|c| c.state().map_or(Verdict::Continue, |s| s.verdict).name());
        let complete = match &rounds {
            Some(r) => r.complete,
            None => counter.is_some_and(PairCounter::decided) || played >= 2 * scheduled_pairs,
        };
        let (bracket, standings) = rounds.map_or((None, None), |r| (r.bracket, r.standings));
        let (status, status_note) = status_of(info, complete);
        Results {
            name: info.name.clone(),
            config_hash: info.config_hash.clone(),
            shard: info.shard.clone(),
            game: info.game,
            complete,
            status,
            status_note,
            games: counted,
            games_played: played,
            games_scheduled: 2 * scheduled_pairs,
            engines: engines_of(tallies, info),
            meetings: meetings_of(tallies, info),
            ratings,
            head_to_head: head.map(|(w, p, s)| {
                Summary::new(
                    &p.ptnml().estimate(),
                    Some(&w),
                    Some(&p.ptnml()),
                    s.as_ref(),
                )
            }),
            verdict,
            forfeits: tallies.forfeits,
            terminations,
            engine_moves,
            notes,
            tune,
            bracket,
            standings,
            head_to_head_wdl: head,
            counted_pairs: None,
            trace: None,
            rating_notes,
        }
    }
}

/// Each engine's results from tallies `t`, in the run's order.
fn engines_of(t: &Tallies, info: &TournamentInfo) -> Vec<EngineResult> {
    (0..info.engines.len())
        .map(|i| EngineResult {
            name: info.engines[i].clone(),
            games: t.wdl[i].games(),
            wins: t.wdl[i].wins,
            draws: t.wdl[i].draws,
            losses: t.wdl[i].losses,
            points: t.wdl[i].points(),
            pairs: t.pairs[i],
            avg_disc_diff: (t.discs[i].1 > 0).then(|| t.discs[i].0 as f64 / t.discs[i].1 as f64),
        })
        .collect()
}

/// Each meeting's results from tallies `t`, by engine indexes.
fn meetings_of(t: &Tallies, info: &TournamentInfo) -> Vec<MeetingResult> {
    t.meet
        .iter()
        .map(|(&(a, b), (w, p, d))| MeetingResult {
            a: info.engines[a].clone(),
            b: info.engines[b].clone(),
            games: w.games(),
            a_wins: w.wins,
            draws: w.draws,
            b_wins: w.losses,
            pairs: *p,
            avg_disc_diff: (w.games() > 0).then(|| *d as f64 / w.games() as f64),
        })
        .collect()
}

/// The tallies of the `counted` games (from `by_id`, the run's games by
/// id, engines by `index`), and of the pairs whose two games both count,
/// with the pairs' trace of a two-engine run.
fn tallies_of(
    info: &TournamentInfo,
    index: &BTreeMap<&str, usize>,
    by_id: &BTreeMap<u64, &GameRecord>,
    counted: &[&GameRecord],
    counter: Option<&PairCounter>,
) -> Tallies {
    let of = |g: &GameRecord| Counted::of(index[g.black.as_str()], index[g.white.as_str()], g);
    let mut tallies = Tallies::new(info, true);
    for g in counted {
        tallies.game(&of(g));
    }
    for g in counted.iter().filter(|g| g.game_id % 2 == 0) {
        if let Some(h) = by_id.get(&(g.game_id + 1)).filter(|h| counts(counter, h)) {
            tallies.pair(info, g.game_id / 2, &of(g), &of(h));
        }
    }
    if let (Some(trace), Some(c)) = (tallies.trace.as_mut(), counter) {
        // The counter's pairs are these pairs: complete, in schedule order.
        if c.llrs().len() == trace.pairs.len() {
            trace.llrs = c.llrs().to_vec();
            trace.sprt = Some(c.sprt());
        }
    }
    tallies
}

/// What results say of the run itself: a book that wraps, shards of mixed
/// builds merged, a resume by another build.
fn run_notes(info: &TournamentInfo) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(msg) = info.book_note() {
        notes.push(msg);
    }
    if let Some(differ) = &info.mixed_builds {
        notes.push(format!(
            "shards of mixed builds were merged (mixed builds allowed): {differ}"
        ));
    }
    if let Some(speed) = &info.speed {
        notes.push(speed.note("this machine"));
    }
    if let Some(differ) = &info.resumed_builds {
        notes.push(format!(
            "resumed by another build (mixed builds allowed): {differ}"
        ));
    }
    notes
}

/// The status of a run whose games are `complete` or not, with the reason
/// a shard or a partial merge gives no verdict.
fn status_of(info: &TournamentInfo, complete: bool) -> (Status, Option<String>) {
    let sprt = info.sprt().is_some();
    if let Some(missing) = &info.partial {
        let verdict = if sprt { "; no verdict" } else { "" };
        return (
            Status::Partial,
            Some(format!("partial: {missing}{verdict}")),
        );
    }
    let status = if complete {
        Status::Complete
    } else {
        Status::InProgress
    };
    let note = (sprt && !info.decides())
        .then(|| format!("shard {}: no verdict (arena merge decides)", info.shard));
    (status, note)
}

/// In an SPRT that may decide (not a shard, not a partial merge), the pair
/// counter fed with the run's games in game-id order (it stops where the
/// test decides); `None` otherwise: then every game counts.
fn sprt_counter(info: &TournamentInfo, by_id: &BTreeMap<u64, &GameRecord>) -> Option<PairCounter> {
    let mut counter = PairCounter::new(info).filter(|_| info.decides());
    if let Some(c) = counter.as_mut() {
        for g in by_id.values() {
            if c.add(g) {
                break;
            }
        }
    }
    counter
}

/// Whether game `g` counts: every game does, except in an SPRT, where only
/// the games of the pairs the `counter` counted do.
fn counts(counter: Option<&PairCounter>, g: &GameRecord) -> bool {
    counter.is_none_or(|c| c.counted().binary_search(&(g.game_id / 2)).is_ok())
}

/// The head-to-head tallies of a two-engine run from its first engine's
/// point of view, with the SPRT state of an SPRT (the empty tally's when
/// no pair counts yet).
fn head_to_head(
    info: &TournamentInfo,
    tallies: &Tallies,
    counter: Option<&PairCounter>,
) -> Option<(Wdl, PairTally, Option<SprtState>)> {
    let sprt_state = counter.map(|c| {
        c.state()
            .unwrap_or_else(|| c.sprt().evaluate_ptnml(&PairTally::default().ptnml()))
    });
    info.perspective()
        .map(|(me, _)| (tallies.wdl[me], tallies.pairs[me], sprt_state))
}

impl Results {
    /// The SPRT verdict, if any.
    pub fn verdict(&self) -> Option<Verdict> {
        self.head_to_head_wdl
            .and_then(|(_, _, s)| s.map(|s| s.verdict))
    }

    /// A two-engine run's pairs as they counted, in schedule order (`None`
    /// for more engines).
    pub fn trace(&self) -> Option<&PairTrace> {
        self.trace.as_ref()
    }

    /// The games these results count, in game-id order, from the run's
    /// `games` (any order; the first record of a game id wins): every game
    /// between two engines of the run, except in an SPRT, where only the
    /// games of the pairs it counted.
    pub fn counted_games<'a>(&self, games: &'a [GameRecord]) -> Vec<&'a GameRecord> {
        let index: BTreeMap<&str, usize> = self
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), i))
            .collect();
        let counted = |g: &GameRecord| {
            self.counted_pairs
                .as_ref()
                .is_none_or(|p| p.binary_search(&(g.game_id / 2)).is_ok())
        };
        valid_games(&index, games)
            .into_values()
            .filter(|g| counted(g))
            .collect()
    }

    /// The fastchess-shaped block of a head-to-head (`None` for more engines).
    pub fn block(&self) -> Option<String> {
        self.head_to_head_wdl.map(|(wdl, pairs, state)| {
            match_block(&wdl, &pairs, Basis::Pentanomial, state.as_ref())
        })
    }
}
