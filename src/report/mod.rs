//! Results of a tournament, recomputed from its games alone (the journal):
//! per-engine and per-meeting tallies, ratings, the head-to-head block and
//! the SPRT decision, written as `results.json`, `summary.md` and
//! `games.ggf`. `arena run`, `arena report` and `arena merge` all call
//! [`analyse`], so the same games always give the same results.
//!
//! Which games count: every finished game, except in an SPRT, where pairs
//! count in schedule order only while they and every earlier pair of the
//! run (its shard) are complete, and counting stops at the pair where the
//! LLR first crosses a bound. Games played past that point stay in the
//! journal but not in the results, so the verdict never depends on thread
//! timing.

use crate::error::Result;
use crate::records::{ggf, GameRecord, TournamentInfo};
use crate::stats::format::{fixed, match_block};
use crate::stats::{
    ratings, Anchor, Basis, Crosstable, Outcome, PairTally, RatingsSummary, SprtState, Summary,
    Verdict, Wdl,
};
use crate::util::write_atomic;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

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

/// Everything `results.json` holds.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    /// Tournament name.
    pub name: String,
    /// Config hash.
    pub config_hash: String,
    /// Shard (`K/N`) or `merged`.
    pub shard: String,
    /// True when every game of the run is in (or the SPRT has decided).
    pub complete: bool,
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
    /// Notes (a book that wrapped, a rating prior used, ...).
    pub notes: Vec<String>,
    #[serde(skip)]
    head_to_head_wdl: Option<(Wdl, PairTally, Option<SprtState>)>,
}

/// Recomputes the results of `games` (any order, duplicates dropped) of the
/// run `info` describes.
pub fn analyse(info: &TournamentInfo, games: &[GameRecord]) -> Results {
    let index: BTreeMap<&str, usize> = info
        .engines
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut by_id: BTreeMap<u64, &GameRecord> = BTreeMap::new();
    for g in games {
        if g.black != g.white
            && index.contains_key(g.black.as_str())
            && index.contains_key(g.white.as_str())
        {
            by_id.entry(g.game_id).or_insert(g);
        }
    }
    let shard = info.shard();
    let scheduled_pairs: u64 = (0..info.total_pairs).filter(|&p| shard.owns(p)).count() as u64;
    let sprt = info.sprt();
    let perspective = info.perspective();

    // Which pairs count.
    let mut counted_pairs: Vec<u64> = Vec::new();
    let mut verdict_state: Option<SprtState> = None;
    if let (Some(sprt), Some((me, _))) = (sprt, perspective) {
        let mut tally = PairTally::default();
        for p in (0..info.total_pairs).filter(|&p| shard.owns(p)) {
            let (Some(g0), Some(g1)) = (by_id.get(&(2 * p)), by_id.get(&(2 * p + 1))) else {
                break;
            };
            counted_pairs.push(p);
            tally.add(
                outcome(g0, &info.engines[me]),
                outcome(g1, &info.engines[me]),
            );
            let state = sprt.evaluate_ptnml(&tally.ptnml());
            verdict_state = Some(state);
            if state.verdict != Verdict::Continue {
                break;
            }
        }
    }
    let counts = |g: &GameRecord| -> bool {
        sprt.is_none() || counted_pairs.binary_search(&(g.game_id / 2)).is_ok()
    };
    let counted: Vec<&GameRecord> = by_id.values().copied().filter(|g| counts(g)).collect();

    // Per engine and per meeting.
    let n = info.engines.len();
    let mut wdl = vec![Wdl::default(); n];
    let mut discs = vec![(0i64, 0u64); n];
    let mut meet: BTreeMap<(usize, usize), (Wdl, PairTally, i64)> = BTreeMap::new();
    let mut table = Crosstable::new();
    for name in &info.engines {
        table.engine(name);
    }
    let mut forfeits = 0;
    for g in &counted {
        let (b, w) = (index[g.black.as_str()], index[g.white.as_str()]);
        let black = Outcome::from_points(g.result).unwrap_or(Outcome::Draw);
        wdl[b].add(black);
        wdl[w].add(black.reversed());
        discs[b].0 += i64::from(g.disc_diff);
        discs[w].0 -= i64::from(g.disc_diff);
        discs[b].1 += 1;
        discs[w].1 += 1;
        table.add_game(b, w, g.result);
        let (a, o) = (b.min(w), b.max(w));
        let entry = meet.entry((a, o)).or_default();
        let for_a = if a == b { black } else { black.reversed() };
        entry.0.add(for_a);
        entry.2 += if a == b {
            i64::from(g.disc_diff)
        } else {
            -i64::from(g.disc_diff)
        };
        if g.reason != "game over" {
            forfeits += 1;
        }
    }
    let mut pairs = vec![PairTally::default(); n];
    for g in counted.iter().filter(|g| g.game_id % 2 == 0) {
        let Some(h) = by_id.get(&(g.game_id + 1)).filter(|h| counts(h)) else {
            continue;
        };
        let (x, y) = (index[g.black.as_str()], index[g.white.as_str()]);
        for (me, _) in [(x, y), (y, x)] {
            let name = &info.engines[me];
            pairs[me].add(outcome(g, name), outcome(h, name));
        }
        let a = x.min(y);
        meet.entry((a, x.max(y)))
            .or_default()
            .1
            .add(outcome(g, &info.engines[a]), outcome(h, &info.engines[a]));
    }
    let engines: Vec<EngineResult> = (0..n)
        .map(|i| EngineResult {
            name: info.engines[i].clone(),
            games: wdl[i].games(),
            wins: wdl[i].wins,
            draws: wdl[i].draws,
            losses: wdl[i].losses,
            points: wdl[i].points(),
            pairs: pairs[i],
            avg_disc_diff: (discs[i].1 > 0).then(|| discs[i].0 as f64 / discs[i].1 as f64),
        })
        .collect();
    let meetings: Vec<MeetingResult> = meet
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
        .collect();

    let mut notes = Vec::new();
    if let Some(msg) = crate::book::wrap_notice(info.book.openings, info.total_pairs) {
        notes.push(msg);
    }
    let ratings = if counted.is_empty() {
        None
    } else {
        match ratings(&table, &Anchor::Average) {
            Ok(r) => {
                if let crate::stats::Method::Prior { reason, .. } = &r.method {
                    notes.push(format!("ratings use a prior of virtual draws: {reason}"));
                }
                Some(RatingsSummary::new(&r))
            }
            Err(e) => {
                notes.push(format!("no ratings: {e}"));
                None
            }
        }
    };
    let head = perspective.map(|(me, _)| {
        let state = match (sprt, verdict_state) {
            (Some(_), Some(s)) => Some(s),
            (Some(s), None) => Some(s.evaluate_ptnml(&PairTally::default().ptnml())),
            _ => None,
        };
        (wdl[me], pairs[me], state)
    });
    let verdict = sprt.map(|_| {
        verdict_state
            .map_or(Verdict::Continue, |s| s.verdict)
            .name()
    });
    let decided = verdict.is_some_and(|v| v != "continue");
    let played = by_id.len() as u64;
    Results {
        name: info.name.clone(),
        config_hash: info.config_hash.clone(),
        shard: info.shard.clone(),
        complete: decided || played >= 2 * scheduled_pairs,
        games: counted.len() as u64,
        games_played: played,
        games_scheduled: 2 * scheduled_pairs,
        engines,
        meetings,
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
        forfeits,
        notes,
        head_to_head_wdl: head,
    }
}

fn outcome(g: &GameRecord, engine: &str) -> Outcome {
    Outcome::from_points(g.points_of(engine).unwrap_or(0.5)).unwrap_or(Outcome::Draw)
}

impl Results {
    /// The SPRT verdict, if any.
    pub fn verdict(&self) -> Option<Verdict> {
        self.head_to_head_wdl
            .and_then(|(_, _, s)| s.map(|s| s.verdict))
    }

    /// The fastchess-shaped block of a head-to-head (`None` for more engines).
    pub fn block(&self) -> Option<String> {
        self.head_to_head_wdl.map(|(wdl, pairs, state)| {
            match_block(&wdl, &pairs, Basis::Pentanomial, state.as_ref())
        })
    }

    /// The rating table: `Rank Name Elo +/- nElo +/- Games Score Draw Ptnml(0-2)`.
    pub fn rating_table(&self) -> String {
        let width = self
            .engines
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "{:>4}  {:<width$}  {:>8} {:>7}  {:>8} {:>7}  {:>6}  {:>7}  {:>6}  Ptnml(0-2)",
            "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
        );
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        let rating = |name: &str| {
            self.ratings
                .as_ref()
                .and_then(|r| r.engines.iter().find(|e| e.name == name))
                .map(|e| (e.elo, e.error))
        };
        order.sort_by(|&a, &b| {
            let ra = rating(&self.engines[a].name).map_or(f64::NEG_INFINITY, |r| r.0);
            let rb = rating(&self.engines[b].name).map_or(f64::NEG_INFINITY, |r| r.0);
            rb.total_cmp(&ra).then(a.cmp(&b))
        });
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.engines[i];
            let (elo, err) = rating(&e.name).map_or(("-".into(), "-".into()), |(x, y)| {
                (fixed(x, 1), fixed(y, 1))
            });
            let est = e.pairs.ptnml().estimate();
            let (nelo, nerr) =
                if e.pairs.pairs() > 0 && est.nelo.is_finite() && est.nelo_error.is_finite() {
                    (fixed(est.nelo, 1), fixed(est.nelo_error, 1))
                } else {
                    ("-".into(), "-".into())
                };
            let score = if e.games > 0 {
                100.0 * e.points / e.games as f64
            } else {
                0.0
            };
            let draw = if e.games > 0 {
                100.0 * e.draws as f64 / e.games as f64
            } else {
                0.0
            };
            let p = e.pairs.ptnml().0;
            let _ = write!(
                out,
                "\n{:>4}  {:<width$}  {:>8} {:>7}  {:>8} {:>7}  {:>6}  {:>6.1}%  {:>5.1}%  [{}, {}, {}, {}, {}]",
                rank + 1,
                e.name,
                elo,
                err,
                nelo,
                nerr,
                e.games,
                score,
                draw,
                p[0],
                p[1],
                p[2],
                p[3],
                p[4]
            );
        }
        out
    }

    /// `summary.md`: the state of the run, the rating table, the crosstable
    /// with average disc differences, the head-to-head block and the SPRT.
    pub fn markdown(&self) -> String {
        let mut md = format!("# {}\n\n", self.name);
        let _ = writeln!(
            md,
            "Games counted: {} of {} scheduled ({} played){}; shard {}; config {}.\n",
            self.games,
            self.games_scheduled,
            self.games_played,
            if self.complete {
                ", complete"
            } else {
                ", in progress"
            },
            self.shard,
            self.config_hash
        );
        if let Some(v) = self.verdict {
            let _ = writeln!(md, "**SPRT verdict: {v}**\n");
        }
        if let Some(block) = self.block() {
            let _ = writeln!(md, "```\n{block}\n```\n");
        }
        let _ = writeln!(md, "## Ratings\n\n```\n{}\n```\n", self.rating_table());
        let _ = writeln!(md, "## Crosstable\n");
        let _ = writeln!(
            md,
            "| engine | opponent | games | wins | draws | losses | score | avg disc diff |"
        );
        let _ = writeln!(
            md,
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
        );
        for m in &self.meetings {
            let score = if m.games > 0 {
                100.0 * (m.a_wins as f64 + 0.5 * m.draws as f64) / m.games as f64
            } else {
                0.0
            };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {:.1}% | {} |",
                m.a,
                m.b,
                m.games,
                m.a_wins,
                m.draws,
                m.b_wins,
                score,
                m.avg_disc_diff.map_or("-".into(), |d| format!("{d:+.2}"))
            );
        }
        if self.forfeits > 0 {
            let _ = writeln!(
                md,
                "\n{} games ended by forfeit (time, crash or illegal move); see journal.jsonl.",
                self.forfeits
            );
        }
        for n in &self.notes {
            let _ = writeln!(md, "\nNote: {n}");
        }
        md
    }
}

/// Writes `results.json`, `summary.md` and `games.ggf` (games in game_id
/// order) into `dir`, each atomically.
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_outputs(dir: &Path, results: &Results, games: &[GameRecord]) -> Result<()> {
    let json = serde_json::to_string_pretty(results).expect("results serialize");
    write_atomic(&dir.join("results.json"), &(json + "\n"))?;
    write_atomic(&dir.join("summary.md"), &results.markdown())?;
    let mut sorted: Vec<&GameRecord> = games.iter().collect();
    sorted.sort_by_key(|g| g.game_id);
    sorted.dedup_by_key(|g| g.game_id);
    let mut ggf_text = String::new();
    for g in sorted {
        ggf_text.push_str(&ggf(g, &results.name));
        ggf_text.push('\n');
    }
    write_atomic(&dir.join("games.ggf"), &ggf_text)
}
