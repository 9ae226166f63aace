//! What the figures and tables of `report.html` show, computed from the
//! results and the counted games: the pairs of a head-to-head over time,
//! the disc-difference histogram and the openings by how one-sided they
//! were. Plain data, so it is tested without drawing.

use crate::game::GameKind;
use crate::records::GameRecord;
use crate::report::pairs::PairTrace;
use crate::stats::{Basis, EloEstimate};
use std::collections::BTreeMap;

/// Most points of a line over pairs: beyond this, every k-th pair is drawn
/// (and always the last), which keeps a 5,000-pair SPRT's page small.
pub const MAX_POINTS: usize = 600;

/// One point of a head-to-head over pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairPoint {
    /// Pairs counted so far (1 for the first).
    pub pairs: u64,
    /// The LLR after it (SPRTs that decide).
    pub llr: Option<f64>,
    /// Elo (logistic, from the pairs) and its 95% interval, when finite.
    pub elo: Option<(f64, f64, f64)>,
}

/// The points to draw of `trace` (at most about [`MAX_POINTS`], the last
/// one always).
pub fn pair_points(trace: &PairTrace) -> Vec<PairPoint> {
    let n = trace.tallies.len();
    let step = n.div_ceil(MAX_POINTS).max(1);
    let point = |i: usize| {
        let e = EloEstimate::from_frequencies(Basis::Pentanomial, &trace.tallies[i].ptnml().0);
        let finite = e.elo.is_finite() && e.elo_lower.is_finite() && e.elo_upper.is_finite();
        PairPoint {
            pairs: trace.at.get(i).copied().unwrap_or(i as u64 + 1),
            llr: trace.llrs.get(i).copied().filter(|l| l.is_finite()),
            elo: finite.then_some((e.elo, e.elo_lower, e.elo_upper)),
        }
    };
    let mut out: Vec<PairPoint> = (0..n).step_by(step).map(point).collect();
    if n > 0 && !(n - 1).is_multiple_of(step) {
        out.push(point(n - 1));
    }
    out
}

/// A histogram of final disc differences (Othello) or scores (tic-tac-toe).
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// Centre of the first bin.
    pub first: i32,
    /// Width of each bin.
    pub width: i32,
    /// Games per bin.
    pub counts: Vec<u64>,
    /// Games in all.
    pub games: u64,
}

impl Histogram {
    /// No games yet.
    pub fn new(game: GameKind) -> Histogram {
        // Othello's differences are even: bins of 4 centred on -64, -60, .., 64.
        let (first, width, bins) = match game {
            GameKind::Othello => (-64, 4, 33),
            GameKind::TicTacToe => (-10, 1, 21),
        };
        Histogram {
            first,
            width,
            counts: vec![0; bins],
            games: 0,
        }
    }

    /// Counts one game whose difference is `d` from the histogram's view.
    fn add(&mut self, d: i32) {
        let last = self.counts.len() - 1;
        let bin =
            usize::try_from((d - self.first + self.width / 2).div_euclid(self.width)).unwrap_or(0);
        self.counts[bin.min(last)] += 1;
        self.games += 1;
    }
}

/// One opening's games.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningRow {
    /// Index in the book.
    pub id: usize,
    /// Its moves (`c4 c3 d3`), or the start position when the opening is
    /// one.
    pub opening: String,
    /// Games counted on it.
    pub games: u64,
    /// Black's points.
    pub black_points: f64,
    /// Sum of black-minus-white disc differences.
    pub disc_sum: i64,
    /// A head-to-head's first side: its points and the sum of its disc
    /// differences (own minus opponent's).
    pub side: Option<(f64, i64)>,
}

impl OpeningRow {
    /// Black's score, 0 to 1.
    pub fn black_score(&self) -> f64 {
        self.black_points / self.games as f64
    }

    /// Average black-minus-white disc difference.
    pub fn avg_disc_diff(&self) -> f64 {
        self.disc_sum as f64 / self.games as f64
    }

    /// The first side's score (0 to 1) and average disc difference.
    pub fn side_score(&self) -> Option<(f64, f64)> {
        let n = self.games as f64;
        self.side.map(|(p, d)| (p / n, d as f64 / n))
    }

    /// One colour won every game, both ways round (at least two games):
    /// the opening decides the game, not the engines (a book problem).
    pub fn one_colour_wins(&self) -> Option<&'static str> {
        let all = self.games as f64;
        if self.games < 2 {
            None
        } else if self.black_points == all {
            Some("black")
        } else if self.black_points == 0.0 {
            Some("white")
        } else {
            None
        }
    }

    /// The first side won (`Some(true)`) or lost (`Some(false)`) every
    /// game on it, both ways round.
    pub fn one_side_wins(&self) -> Option<bool> {
        let (points, _) = self.side.filter(|_| self.games >= 2)?;
        if points == self.games as f64 {
            Some(true)
        } else if points == 0.0 {
            Some(false)
        } else {
            None
        }
    }
}

/// Where a head-to-head's first side sat in a game (`Neither` when the
/// report takes black's view, or the side did not play it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The side played black.
    Black,
    /// The side played white.
    White,
    /// No side, or not its game.
    Neither,
}

/// One counted game as the report draws it: its opening, black's result
/// and disc difference, and where the first side sat.
#[derive(Clone, Copy, Debug)]
pub struct DrawnGame {
    /// Its opening's index in the book.
    pub opening_id: usize,
    /// Black's points.
    pub result: f64,
    /// Black's discs minus white's.
    pub disc_diff: i32,
    /// Where the first side sat.
    pub seat: Seat,
}

impl DrawnGame {
    /// Game `g` seen from engine `side` (black's view: `None`).
    pub fn of(g: &GameRecord, side: Option<&str>) -> DrawnGame {
        let seat = match side {
            Some(name) if g.black == name => Seat::Black,
            Some(name) if g.white == name => Seat::White,
            Some(_) | None => Seat::Neither,
        };
        DrawnGame {
            opening_id: g.opening_id,
            result: g.result,
            disc_diff: g.disc_diff,
            seat,
        }
    }
}

/// What the report draws of the counted games, kept game by game: the
/// histogram of their results and their openings. `report.html` builds it
/// from a journal's games at once; `arena watch` as they count, keeping
/// no game (its memory grows with the openings played, not the games).
#[derive(Clone, Debug)]
pub struct Drawn {
    histogram: Histogram,
    /// Each opening seen, by index (named before any of its games
    /// counts; those with no game counted are not listed).
    rows: BTreeMap<usize, OpeningRow>,
    /// Whether there is a first side (a head-to-head).
    side: bool,
}

impl Drawn {
    /// No games yet; `side`: a head-to-head's, whose view the figures take.
    pub fn new(game: GameKind, side: bool) -> Drawn {
        Drawn {
            histogram: Histogram::new(game),
            rows: BTreeMap::new(),
            side,
        }
    }

    /// The counted `games` seen from engine `side` (black's: `None`).
    pub fn of(game: GameKind, games: &[&GameRecord], side: Option<&str>) -> Drawn {
        let mut drawn = Drawn::new(game, side.is_some());
        for g in games {
            drawn.name_opening(g);
            drawn.add(DrawnGame::of(g, side));
        }
        drawn
    }

    /// Notes the opening of game `g` (its text is in the record only),
    /// whether or not the game comes to count.
    pub fn name_opening(&mut self, g: &GameRecord) {
        let side = self.side;
        self.rows.entry(g.opening_id).or_insert_with(|| OpeningRow {
            id: g.opening_id,
            opening: opening_text(g),
            games: 0,
            black_points: 0.0,
            disc_sum: 0,
            side: side.then_some((0.0, 0)),
        });
    }

    /// Counts one game (its opening named before, or it shows without
    /// its moves).
    pub fn add(&mut self, g: DrawnGame) {
        let d = g.disc_diff;
        self.histogram
            .add(if g.seat == Seat::White { -d } else { d });
        let side = self.side;
        let row = self.rows.entry(g.opening_id).or_insert_with(|| OpeningRow {
            id: g.opening_id,
            opening: String::new(),
            games: 0,
            black_points: 0.0,
            disc_sum: 0,
            side: side.then_some((0.0, 0)),
        });
        row.games += 1;
        row.black_points += g.result;
        row.disc_sum += i64::from(d);
        if let Some((points, discs)) = row.side.as_mut() {
            *points += match g.seat {
                Seat::Black => g.result,
                Seat::White => 1.0 - g.result,
                Seat::Neither => 0.5,
            };
            *discs += if g.seat == Seat::White { -1 } else { 1 } * i64::from(d);
        }
    }

    /// The histogram of the counted games.
    pub fn histogram(&self) -> &Histogram {
        &self.histogram
    }

    /// The openings of the counted games, in book order.
    pub fn openings(&self) -> Vec<OpeningRow> {
        self.rows
            .values()
            .filter(|r| r.games > 0)
            .cloned()
            .collect()
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.histogram.games
    }
}

/// Sorts `rows` most one-sided by colour first: by how far black's score
/// is from 50%, then by the size of the average disc difference, then by
/// book index.
pub fn by_colour(rows: &mut [OpeningRow]) {
    let key = |r: &OpeningRow| ((r.black_score() - 0.5).abs(), r.avg_disc_diff().abs());
    rows.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.0.total_cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(a.id.cmp(&b.id))
    });
}

/// Sorts `rows` most one-sided between the engines first: by how far the
/// first side's score is from 50%, then by the size of its average disc
/// difference, then by book index.
pub fn by_side(rows: &mut [OpeningRow]) {
    let key = |r: &OpeningRow| {
        r.side_score()
            .map_or((0.0, 0.0), |(s, d)| ((s - 0.5).abs(), d.abs()))
    };
    rows.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.0.total_cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(a.id.cmp(&b.id))
    });
}

/// A game's opening: its start position, or the moves of the book, a
/// space between moves.
fn opening_text(g: &GameRecord) -> String {
    if let Some(position) = &g.start {
        return position.clone();
    }
    let book = g.moves.get(..2 * g.opening_plies).unwrap_or(&g.moves);
    let moves: Vec<&str> = (0..book.len() / 2)
        .filter_map(|k| book.get(2 * k..2 * k + 2))
        .collect();
    moves.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Outcome, PairTally};

    fn game(
        id: u64,
        opening: usize,
        black: &str,
        white: &str,
        result: f64,
        disc: i32,
    ) -> GameRecord {
        GameRecord {
            tune: None,
            pair_id: id / 2,
            game_id: id,
            round: 0,
            opening_id: opening,
            black: black.into(),
            white: white.into(),
            start: None,
            opening_plies: 2,
            moves: "f5d6c3".into(),
            result,
            disc_diff: disc,
            reason: "game over".into(),
            nodes: vec![],
            times_ms: vec![],
            depths: vec![],
            scores: vec![],
        }
    }

    #[test]
    fn long_traces_are_thinned_and_keep_their_last_pair() {
        let mut trace = PairTrace::default();
        let mut tally = PairTally::default();
        for i in 0..1999u64 {
            let o = if i % 3 == 0 {
                Outcome::Win
            } else {
                Outcome::Draw
            };
            tally.add(o, Outcome::Draw);
            trace.pairs.push(i);
            trace.tallies.push(tally);
        }
        let points = pair_points(&trace);
        assert!(points.len() <= MAX_POINTS + 1, "{}", points.len());
        assert_eq!(points.last().unwrap().pairs, 1999);
        assert!(points.iter().all(|p| p.llr.is_none()));
        // The first pair (a win and a draw) has no finite interval yet;
        // the last one has.
        let (elo, lo, hi) = points.last().unwrap().elo.unwrap();
        assert!(lo < elo && elo < hi && elo > 0.0);
        assert!(pair_points(&PairTrace::default()).is_empty());
    }

    #[test]
    fn the_histogram_takes_the_side_of_the_named_engine() {
        let a = game(0, 0, "a", "b", 1.0, 10);
        let b = game(1, 0, "b", "a", 1.0, 64);
        let h = Drawn::of(GameKind::Othello, &[&a, &b], Some("a")).histogram;
        assert_eq!(h.games, 2);
        assert_eq!(h.counts.iter().sum::<u64>(), 2);
        let bin = |d: i32| ((d - h.first + h.width / 2) / h.width) as usize;
        assert_eq!(h.counts[bin(10)], 1);
        assert_eq!(h.counts[bin(-64)], 1);
        let black = Drawn::of(GameKind::Othello, &[&a, &b], None).histogram;
        assert_eq!(black.counts[bin(64)], 1, "+64 has a bin of its own");
    }

    #[test]
    fn openings_sort_by_colour_or_by_engine_and_flag_one_sided_ones() {
        let games = [
            game(0, 7, "a", "b", 1.0, 20),
            game(1, 7, "b", "a", 1.0, 30),
            game(2, 3, "a", "b", 1.0, 2),
            game(3, 3, "b", "a", 0.0, -4),
            game(4, 5, "a", "b", 0.0, -8),
            game(5, 5, "b", "a", 0.5, 0),
        ];
        let refs: Vec<&GameRecord> = games.iter().collect();
        let mut rows = Drawn::of(GameKind::Othello, &refs, Some("a")).openings();
        by_colour(&mut rows);
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [7, 5, 3]);
        assert_eq!(rows[0].one_colour_wins(), Some("black"));
        assert_eq!(rows[0].side_score(), Some((0.5, -5.0)));
        assert_eq!(rows[0].one_side_wins(), None);
        assert_eq!(rows[0].opening, "f5 d6");
        assert_eq!(
            rows[2].side_score(),
            Some((1.0, 3.0)),
            "a won both ways round"
        );
        assert_eq!(rows[2].one_side_wins(), Some(true));
        assert_eq!(rows[2].one_colour_wins(), None);
        by_side(&mut rows);
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [3, 5, 7]);
    }
}
