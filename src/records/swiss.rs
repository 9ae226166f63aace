//! A Swiss system, replayed from a run's games (docs/tournaments.md has the
//! rules and a worked example). Each pairing is `pairs` game pairs; its
//! winner (more than half the points) scores 1, a tie 0.5 each, a bye 1.
//! Each round ranks the engines by score, then by their place in the
//! config; gives a bye (an odd count) to the lowest-ranked engine without
//! one; then pairs from the top: each engine the highest-ranked one it
//! has not met (so within its score group, floating down when it must),
//! taking a partner only when the engines left can still all be paired
//! without a repeat, which a maximum matching over the pairs allowed
//! decides (petgraph's). So a pairing is found whenever one exists; when
//! none does, the rounds end there.
//!
//! Round `r`'s board `b` plays the pair numbers
//! `(r * boards + b) * pairs` onwards (`boards` = engines / 2).

use super::played::{Played, Slot};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A rule that orders engines level on score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreak {
    /// The sum of the opponents' scores.
    Buchholz,
    /// Buchholz less the lowest opponent's score.
    BuchholzCut1,
    /// The sum, over pairings, of the score made times the opponent's score.
    SonnebornBerger,
    /// The score against the engines level on everything before, when
    /// every two of them met.
    DirectEncounter,
}

impl TieBreak {
    /// Its name in standings.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "Buchholz",
            TieBreak::BuchholzCut1 => "Buchholz cut-1",
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::DirectEncounter => "direct encounter",
        }
    }
}

/// The tie-breaks of a Swiss that names none.
pub fn default_tiebreaks() -> Vec<TieBreak> {
    vec![
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
    ]
}

/// One round's pairings: (higher ranked, lower ranked) board by board.
#[derive(Clone, Debug, PartialEq)]
struct Round {
    boards: Vec<(usize, usize)>,
    bye: Option<usize>,
}

/// A Swiss's state: its rounds paired so far and the results.
#[derive(Clone, Debug)]
pub struct Swiss {
    /// The results so far.
    pub played: Played,
    names: Vec<String>,
    rounds: u64,
    pairs: u64,
    tiebreaks: Vec<TieBreak>,
    paired: Vec<Round>,
    /// The first round no pairing without a repeat allows.
    ended: Option<u64>,
}

/// One engine's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The engine.
    pub engine: String,
    /// Its score: 1 a pairing won or a bye, 0.5 a pairing tied.
    pub score: f64,
    /// Pairings won, tied, lost.
    pub wins: u64,
    /// Pairings tied.
    pub draws: u64,
    /// Pairings lost.
    pub losses: u64,
    /// Byes.
    pub byes: u64,
    /// Its tie-break values, in the order of `Standings::tiebreaks`.
    pub tiebreaks: Vec<f64>,
}

/// A Swiss's standings, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// Rounds whose every pairing is decided.
    pub rounds_played: u64,
    /// Rounds the config asks for.
    pub rounds: u64,
    /// The tie-breaks, in the order they apply.
    pub tiebreaks: Vec<TieBreak>,
    /// The engines, best first.
    pub rows: Vec<Standing>,
    /// Why fewer rounds were played than asked, if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What the decided pairings say of each engine.
#[derive(Clone, Debug, Default)]
struct Tally {
    score: f64,
    /// (opponent, score made against it) per pairing.
    met: Vec<(usize, f64)>,
    byes: u64,
}

impl Swiss {
    /// The Swiss of `engines` (by name) over `(rounds, pairs)`, ranked in
    /// the end by `tiebreaks`.
    pub fn new((rounds, pairs): (u64, u64), tiebreaks: &[TieBreak], engines: &[String]) -> Swiss {
        Swiss {
            played: Played::new(engines),
            names: engines.to_vec(),
            rounds,
            pairs: pairs.max(1),
            tiebreaks: tiebreaks.to_vec(),
            paired: Vec::new(),
            ended: None,
        }
    }

    /// Boards a round has.
    fn boards(&self) -> u64 {
        self.names.len() as u64 / 2
    }

    /// The engines' names, in the run's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Pair numbers reserved in all.
    pub fn reserved(&self) -> u64 {
        self.rounds
            .saturating_mul(self.boards())
            .saturating_mul(self.pairs)
    }

    /// What pair `pair` is now.
    pub fn slot(&mut self, pair: u64) -> Slot {
        let per_round = self.boards().saturating_mul(self.pairs);
        if per_round == 0 || pair >= self.reserved() {
            return Slot::Skip;
        }
        let r = pair / per_round;
        while self.paired.len() as u64 <= r {
            if self.ended.is_some() {
                return Slot::Skip;
            }
            if !self.paired.is_empty() && !self.decided(self.paired.len() - 1) {
                return Slot::Wait;
            }
            match self.pair_round() {
                Some(round) => self.paired.push(round),
                None => {
                    self.ended = Some(self.paired.len() as u64);
                    return Slot::Skip;
                }
            }
        }
        let board = (pair / self.pairs) % self.boards();
        match self.paired[r as usize].boards.get(board as usize) {
            Some(&(first, second)) => Slot::Play {
                first,
                second,
                round: r,
            },
            None => Slot::Skip,
        }
    }

    /// The pair numbers of round `r`'s board `b`.
    fn pair_numbers(&self, r: usize, b: usize) -> std::ops::Range<u64> {
        let start = (r as u64 * self.boards() + b as u64) * self.pairs;
        start..start + self.pairs
    }

    /// The score `first` made on a board, once all its pairs are in: 1, 0.5 or 0.
    fn board_score(&self, r: usize, b: usize, first: usize) -> Option<f64> {
        let mut points = 0.0;
        for p in self.pair_numbers(r, b) {
            let res = self.played.pair(p)?;
            points += if res.first == first {
                res.points
            } else {
                2.0 - res.points
            };
        }
        let half = self.pairs as f64;
        Some(if points > half {
            1.0
        } else if points < half {
            0.0
        } else {
            0.5
        })
    }

    /// True when every board of round `r` is decided.
    fn decided(&self, r: usize) -> bool {
        let boards = &self.paired[r].boards;
        (0..boards.len()).all(|b| self.board_score(r, b, boards[b].0).is_some())
    }

    /// Each engine's tally over the decided pairings (and the byes).
    fn tallies(&self) -> Vec<Tally> {
        let mut t = vec![Tally::default(); self.names.len()];
        for (r, round) in self.paired.iter().enumerate() {
            if let Some(e) = round.bye {
                t[e].score += 1.0;
                t[e].byes += 1;
            }
            for (b, &(x, y)) in round.boards.iter().enumerate() {
                if let Some(s) = self.board_score(r, b, x) {
                    t[x].score += s;
                    t[y].score += 1.0 - s;
                    t[x].met.push((y, s));
                    t[y].met.push((x, 1.0 - s));
                }
            }
        }
        t
    }

    /// The next round's pairings, `None` when no pairing without a repeat
    /// exists.
    fn pair_round(&self) -> Option<Round> {
        let t = self.tallies();
        let mut rank: Vec<usize> = (0..self.names.len()).collect();
        rank.sort_by(|&a, &b| t[b].score.total_cmp(&t[a].score).then(a.cmp(&b)));
        let met: HashSet<(usize, usize)> = t
            .iter()
            .enumerate()
            .flat_map(|(e, x)| x.met.iter().map(move |&(o, _)| (e.min(o), e.max(o))))
            .collect();
        let allowed = |a: usize, b: usize| a != b && !met.contains(&(a.min(b), a.max(b)));
        let had_bye: Vec<bool> = t.iter().map(|x| x.byes > 0).collect();
        pairings(rank, &had_bye, &allowed)
    }

    /// The standings so far.
    pub fn standings(&self) -> Standings {
        let t = self.tallies();
        let mut rows: Vec<(usize, Vec<f64>)> = (0..self.names.len())
            .map(|e| (e, Vec::with_capacity(self.tiebreaks.len())))
            .collect();
        for (k, &rule) in self.tiebreaks.iter().enumerate() {
            for i in 0..rows.len() {
                let e = rows[i].0;
                let v = match rule {
                    TieBreak::Buchholz => buchholz(&t, e, false),
                    TieBreak::BuchholzCut1 => buchholz(&t, e, true),
                    TieBreak::SonnebornBerger => {
                        t[e].met.iter().map(|&(o, s)| s * t[o].score).sum()
                    }
                    TieBreak::DirectEncounter => direct(&t, &rows, e, k),
                };
                rows[i].1.push(v);
            }
        }
        rows.sort_by(|(a, x), (b, y)| {
            t[*b]
                .score
                .total_cmp(&t[*a].score)
                .then_with(|| {
                    y.iter()
                        .zip(x)
                        .map(|(q, p)| q.total_cmp(p))
                        .find(|o| o.is_ne())
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .then(a.cmp(b))
        });
        let rounds_played = self
            .paired
            .iter()
            .enumerate()
            .take_while(|(r, _)| self.decided(*r))
            .count() as u64;
        Standings {
            rounds_played,
            rounds: self.rounds,
            tiebreaks: self.tiebreaks.clone(),
            rows: rows
                .into_iter()
                .map(|(e, tiebreaks)| {
                    let count = |s: f64| t[e].met.iter().filter(|m| m.1 == s).count() as u64;
                    Standing {
                        engine: self.names[e].clone(),
                        score: t[e].score,
                        wins: count(1.0),
                        draws: count(0.5),
                        losses: count(0.0),
                        byes: t[e].byes,
                        tiebreaks,
                    }
                })
                .collect(),
            note: self.ended.map(|r| {
                format!(
                    "no pairing without a repeat exists for round {}: the run ended after round {r}",
                    r + 1
                )
            }),
        }
    }
}

/// One round's pairings of the engines in `rank` (best first): a bye for
/// an odd count (the lowest-ranked engine without one that leaves the rest
/// able to pair), then from the top each engine with the highest-ranked
/// one `allowed` that leaves the rest able to pair; `None` when no pairing
/// exists.
fn pairings(
    mut rank: Vec<usize>,
    had_bye: &[bool],
    allowed: &dyn Fn(usize, usize) -> bool,
) -> Option<Round> {
    let mut bye = None;
    if rank.len() % 2 == 1 {
        let c = rank.iter().rev().copied().find(|&c| {
            !had_bye[c] && {
                let rest: Vec<usize> = rank.iter().copied().filter(|&e| e != c).collect();
                perfect(&rest, allowed)
            }
        })?;
        rank.retain(|&e| e != c);
        bye = Some(c);
    }
    if !perfect(&rank, allowed) {
        return None;
    }
    let mut boards = Vec::new();
    while let Some((&a, rest)) = rank.split_first() {
        let b = rest.iter().copied().find(|&b| {
            allowed(a, b) && {
                let left: Vec<usize> = rest.iter().copied().filter(|&e| e != b).collect();
                perfect(&left, allowed)
            }
        })?;
        boards.push((a, b));
        rank.retain(|&e| e != a && e != b);
    }
    Some(Round { boards, bye })
}

/// Buchholz of engine `e`: its opponents' scores (less the lowest with
/// `cut`).
fn buchholz(t: &[Tally], e: usize, cut: bool) -> f64 {
    let scores: Vec<f64> = t[e].met.iter().map(|&(o, _)| t[o].score).collect();
    let sum: f64 = scores.iter().sum();
    let lowest = scores.iter().copied().fold(f64::INFINITY, f64::min);
    if cut && !scores.is_empty() {
        sum - lowest
    } else {
        sum
    }
}

/// Direct encounter of engine `e` (the `k`-th tie-break): its score
/// against the engines level with it on score and the `k` tie-breaks
/// before, when every two of them met; 0 otherwise.
fn direct(t: &[Tally], rows: &[(usize, Vec<f64>)], e: usize, k: usize) -> f64 {
    let before = |x: usize| rows.iter().find(|r| r.0 == x).map(|r| &r.1[..k]);
    let level: Vec<usize> = rows
        .iter()
        .map(|r| r.0)
        .filter(|&x| t[x].score == t[e].score && before(x) == before(e))
        .collect();
    let met = |a: usize, b: usize| t[a].met.iter().any(|m| m.0 == b);
    let all_met = level
        .iter()
        .all(|&a| level.iter().all(|&b| a == b || met(a, b)));
    if level.len() < 2 || !all_met {
        return 0.0;
    }
    t[e].met
        .iter()
        .filter(|m| level.contains(&m.0))
        .map(|m| m.1)
        .sum()
}

/// True when `engines` can all be paired with pairs `allowed` allows: a
/// maximum matching of the graph of allowed pairs is perfect.
fn perfect(engines: &[usize], allowed: &dyn Fn(usize, usize) -> bool) -> bool {
    use petgraph::graph::UnGraph;
    if engines.len() % 2 == 1 {
        return false;
    }
    let mut g = UnGraph::<(), ()>::with_capacity(engines.len(), engines.len() * engines.len() / 2);
    let nodes: Vec<_> = engines.iter().map(|_| g.add_node(())).collect();
    for i in 0..engines.len() {
        for j in i + 1..engines.len() {
            if allowed(engines[i], engines[j]) {
                g.add_edge(nodes[i], nodes[j], ());
            }
        }
    }
    petgraph::algo::matching::maximum_matching(&g).is_perfect()
}

#[cfg(test)]
#[path = "swiss_tests.rs"]
mod tests;
