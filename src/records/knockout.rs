//! A knockout bracket, replayed from a run's games: seeds placed as
//! tournaments place them (seed 1 meets seed 2 in the final at the
//! earliest), byes to the top seeds when the engines are not a power of
//! two, and each match decided as the config says: points over its pairs,
//! further pairs one at a time while tied (up to `extra_pairs`), then
//! more pairs won (a pair scoring 1.5 or 2), then the sum of disc
//! differences, then the higher seed.
//!
//! Match `m` (round by round, top of the bracket first) owns the pair
//! numbers `m * (pairs + extra_pairs)` onwards, whether it needs them or
//! not, so every worker and every resume numbers its games alike.

use super::played::{Played, Slot};
use serde::{Deserialize, Serialize};

/// A knockout's state: its seeds and the results so far.
#[derive(Clone, Debug)]
pub struct Knockout {
    /// The results so far.
    pub played: Played,
    names: Vec<String>,
    pairs: u64,
    extra: u64,
    /// Engine index by seed (0: the top seed).
    seeds: Vec<usize>,
    /// The bracket's first round, top to bottom: engine indices, `None`
    /// for a bye.
    positions: Vec<Option<usize>>,
}

/// What a match is, as far as the results so far tell.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Match {
    /// Its engines are not known yet.
    Pending,
    /// One engine, through without games.
    Bye(usize),
    /// Two engines, `a` the higher seed.
    On { a: usize, b: usize },
}

/// How a decided match ended.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Decided {
    winner: usize,
    loser: usize,
    points: [f64; 2],
    pairs: u64,
    by: &'static str,
}

/// One match as the report shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchView {
    /// The round (1-based).
    pub round: u64,
    /// The higher seed, when known.
    pub a: Option<String>,
    /// The lower seed, when known (`None` with `a` known: a bye).
    pub b: Option<String>,
    /// Points of `a` and `b` so far.
    pub points: [f64; 2],
    /// Pairs played.
    pub pairs: u64,
    /// The winner, once decided.
    pub winner: Option<String>,
    /// What decided it: "points", "pairs won", "discs", "seed" or "bye".
    pub by: Option<String>,
}

/// A knockout's bracket and places, for results.json and the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bracket {
    /// Every match, round by round, top of the bracket first.
    pub matches: Vec<MatchView>,
    /// The engines by place once known, best first: (engine, place),
    /// places like "1", "2", "3-4", "5-8".
    pub places: Vec<(String, String)>,
}

impl Knockout {
    /// The bracket of `engines` (by name) seeded by `seeds` (names, best
    /// first; engines it leaves out follow in the run's order), `(pairs,
    /// extra_pairs)` a match. Names the config check has refused (unknown
    /// or twice) are passed over.
    pub fn new(
        (pairs, extra): (u64, u64),
        seeds: Option<&[String]>,
        engines: &[String],
    ) -> Knockout {
        let mut order: Vec<usize> = Vec::with_capacity(engines.len());
        for s in seeds.unwrap_or(&[]) {
            if let Some(i) = engines.iter().position(|e| e == s) {
                if !order.contains(&i) {
                    order.push(i);
                }
            }
        }
        let rest: Vec<usize> = (0..engines.len()).filter(|i| !order.contains(i)).collect();
        order.extend(rest);
        let size = engines.len().max(2).next_power_of_two();
        let positions = bracket_order(size)
            .into_iter()
            .map(|seed| order.get(seed).copied())
            .collect();
        Knockout {
            played: Played::new(engines),
            names: engines.to_vec(),
            pairs: pairs.max(1),
            extra,
            seeds: order,
            positions,
        }
    }

    /// Pair numbers one match owns (at least one: a hand-edited record
    /// cannot make it 0 or wrap).
    fn block(&self) -> u64 {
        self.pairs.saturating_add(self.extra).max(1)
    }

    /// Matches in all (the bracket's size less one).
    fn matches(&self) -> u64 {
        self.positions.len() as u64 - 1
    }

    /// The engines' names, in the run's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Pair numbers reserved in all.
    pub fn reserved(&self) -> u64 {
        self.matches().saturating_mul(self.block())
    }

    /// Rounds in all.
    fn rounds(&self) -> u32 {
        self.positions.len().trailing_zeros()
    }

    /// The round (0-based) and place in it of match `m`.
    fn locate(&self, m: u64) -> (u32, u64) {
        let size = self.positions.len() as u64;
        let mut first = 0;
        for r in 0..self.rounds() {
            let count = size >> (r + 1);
            if m < first + count {
                return (r, m - first);
            }
            first += count;
        }
        (self.rounds(), 0)
    }

    /// The match number of round `r`'s `i`-th match.
    fn number(&self, r: u32, i: u64) -> u64 {
        let size = self.positions.len() as u64;
        size - (size >> r) + i
    }

    /// The seed rank of engine `e` (0: the top).
    fn seed_of(&self, e: usize) -> usize {
        self.seeds
            .iter()
            .position(|&s| s == e)
            .unwrap_or(usize::MAX)
    }

    /// Match `m`'s engines.
    fn engines_of(&self, m: u64) -> Match {
        let (r, i) = self.locate(m);
        let sides = if r == 0 {
            let at = |j: u64| self.positions.get(j as usize).copied().flatten();
            (Some(at(2 * i)), Some(at(2 * i + 1)))
        } else {
            let prev = |j: u64| self.winner(self.number(r - 1, j));
            (prev(2 * i).map(Some), prev(2 * i + 1).map(Some))
        };
        match sides {
            (Some(Some(x)), Some(Some(y))) => {
                let (a, b) = if self.seed_of(x) <= self.seed_of(y) {
                    (x, y)
                } else {
                    (y, x)
                };
                Match::On { a, b }
            }
            (Some(Some(x)), Some(None)) | (Some(None), Some(Some(x))) => Match::Bye(x),
            _ => Match::Pending,
        }
    }

    /// The winner of match `m`, once decided.
    fn winner(&self, m: u64) -> Option<usize> {
        match self.engines_of(m) {
            Match::Pending => None,
            Match::Bye(x) => Some(x),
            Match::On { a, b } => self.decide(m, a, b).map(|d| d.winner),
        }
    }

    /// Match `m` of `a` (the higher seed) and `b`, once its pairs say who
    /// won; and the pairs played so far with their points when not.
    fn tally(&self, m: u64, a: usize, b: usize) -> (Option<Decided>, [f64; 2], u64) {
        let block = self.block();
        let base = m.saturating_mul(block);
        let (mut points, mut won, mut discs) = ([0.0f64; 2], [0u64; 2], 0i64);
        let mut k = 0;
        while k < block {
            if k >= self.pairs && points[0] != points[1] {
                break;
            }
            let Some(r) = self.played.pair(base + k) else {
                return (None, points, k);
            };
            let (pa, da) = if r.first == a {
                (r.points, r.discs)
            } else {
                (2.0 - r.points, -r.discs)
            };
            points[0] += pa;
            points[1] += 2.0 - pa;
            won[0] += u64::from(pa >= 1.5);
            won[1] += u64::from(pa <= 0.5);
            discs += da;
            k += 1;
        }
        let (a_wins, by) = if points[0] != points[1] {
            (points[0] > points[1], "points")
        } else if won[0] != won[1] {
            (won[0] > won[1], "pairs won")
        } else if discs != 0 {
            (discs > 0, "discs")
        } else {
            (true, "seed")
        };
        let (winner, loser) = if a_wins { (a, b) } else { (b, a) };
        let d = Decided {
            winner,
            loser,
            points,
            pairs: k,
            by,
        };
        (Some(d), points, k)
    }

    fn decide(&self, m: u64, a: usize, b: usize) -> Option<Decided> {
        self.tally(m, a, b).0
    }

    /// What pair `pair` is now.
    pub fn slot(&self, pair: u64) -> Slot {
        let (m, k) = (pair / self.block(), pair % self.block());
        if m >= self.matches() {
            return Slot::Skip;
        }
        match self.engines_of(m) {
            Match::Pending => Slot::Wait,
            Match::Bye(_) => Slot::Skip,
            Match::On { a, b } => {
                let play = Slot::Play {
                    first: a,
                    second: b,
                    round: u64::from(self.locate(m).0),
                };
                if k < self.pairs {
                    return play;
                }
                let (decided, _, played) = self.tally(m, a, b);
                match decided {
                    // Decided within the pairs before this one: not needed.
                    Some(d) if d.pairs <= k => Slot::Skip,
                    Some(_) => play,
                    None if played >= k => play,
                    None => Slot::Wait,
                }
            }
        }
    }

    /// The bracket as far as it is played.
    pub fn bracket(&self) -> Bracket {
        let mut matches = Vec::new();
        let mut out: Vec<(usize, u32)> = Vec::new();
        let name = |e: usize| self.names[e].clone();
        for m in 0..self.matches() {
            let round = u64::from(self.locate(m).0) + 1;
            let view = match self.engines_of(m) {
                Match::Pending => MatchView {
                    round,
                    a: None,
                    b: None,
                    points: [0.0; 2],
                    pairs: 0,
                    winner: None,
                    by: None,
                },
                Match::Bye(x) => MatchView {
                    round,
                    a: Some(name(x)),
                    b: None,
                    points: [0.0; 2],
                    pairs: 0,
                    winner: Some(name(x)),
                    by: Some("bye".into()),
                },
                Match::On { a, b } => {
                    let (d, points, pairs) = self.tally(m, a, b);
                    if let Some(d) = d {
                        out.push((d.loser, self.locate(m).0));
                        if m + 1 == self.matches() {
                            out.push((d.winner, self.rounds()));
                        }
                    }
                    MatchView {
                        round,
                        a: Some(name(a)),
                        b: Some(name(b)),
                        points,
                        pairs,
                        winner: d.map(|d| name(d.winner)),
                        by: d.map(|d| d.by.to_string()),
                    }
                }
            };
            matches.push(view);
        }
        Bracket {
            matches,
            places: self.places(out),
        }
    }

    /// Places of the engines out (and the champion), best first: an
    /// engine out in round `r` of `R` shares the places below those who
    /// went further.
    fn places(&self, mut out: Vec<(usize, u32)>) -> Vec<(String, String)> {
        out.sort_by_key(|&(e, r)| (std::cmp::Reverse(r), self.seed_of(e)));
        let total = self.rounds();
        out.into_iter()
            .map(|(e, r)| {
                let place = if r == total {
                    "1".to_string()
                } else {
                    let n = self.names.len() as u64;
                    let (hi, lo) = ((1u64 << (total - r - 1)) + 1, (1u64 << (total - r)).min(n));
                    if hi == lo {
                        hi.to_string()
                    } else {
                        format!("{hi}-{lo}")
                    }
                };
                (self.names[e].clone(), place)
            })
            .collect()
    }
}

/// Seed ranks (0-based) in bracket order for a bracket of `size` (a
/// power of two): 0 and 1 in different halves, 0 to 3 in different
/// quarters, ... and each first-round match seed `s` against `size - 1 - s`.
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0usize];
    while order.len() < size {
        let len = order.len();
        order = order.iter().flat_map(|&s| [s, 2 * len - 1 - s]).collect();
    }
    order
}

#[cfg(test)]
#[path = "knockout_tests.rs"]
mod tests;
