//! Game results between several engines: for every pair of engines that
//! met, the games they played and the points each scored. The input of the
//! multi-engine ratings; read from a results file (one game per line:
//! `A B result`) or filled by the tournament game by game.
//!
//! Kept by the pairs that met, not as an engines-by-engines table: a
//! gauntlet of 8,000 engines holds its 8,000 meetings, not 64 million
//! cells. Each engine's totals are kept as games come, so they cost nothing
//! to read.

use std::collections::{BTreeMap, HashMap};

/// A bad line in a results file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RatingsFileError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Games, and the points one side scored in them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    games: f64,
    points: f64,
}

/// Games and points between every pair of engines that met.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Crosstable {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// `against[i][&j]`: engine `i`'s games against engine `j` and the
    /// points `i` scored in them (absent: they never met).
    against: Vec<BTreeMap<usize, Tally>>,
    /// `totals[i]`: all games of engine `i` and all its points.
    totals: Vec<Tally>,
}

impl Crosstable {
    /// An empty table without engines.
    pub fn new() -> Crosstable {
        Crosstable::default()
    }

    /// The index of engine `name`, adding the engine if it is new.
    pub fn engine(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        self.against.push(BTreeMap::new());
        self.totals.push(Tally::default());
        i
    }

    /// The index of engine `name`, if it is in the table.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The engines' names, in index order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of engines.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no engines.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Records one game between engines `i` and `j` (indices from
    /// [`Crosstable::engine`]) in which `i` scored `points_i` (1, 0.5 or 0;
    /// `j` scored the rest).
    ///
    /// # Panics
    /// If `i == j`, or an index is out of range.
    pub fn add_game(&mut self, i: usize, j: usize, points_i: f64) {
        assert_ne!(i, j, "an engine does not play itself");
        assert!(j < self.len(), "engine {j} is not in the table");
        for (me, other, points) in [(i, j, points_i), (j, i, 1.0 - points_i)] {
            let tally = self.against[me].entry(other).or_default();
            tally.games += 1.0;
            tally.points += points;
            self.totals[me].games += 1.0;
            self.totals[me].points += points;
        }
    }

    /// Games between engines `i` and `j`.
    pub fn games_between(&self, i: usize, j: usize) -> f64 {
        self.against[i].get(&j).map_or(0.0, |t| t.games)
    }

    /// Points engine `i` scored against engine `j`.
    pub fn points_against(&self, i: usize, j: usize) -> f64 {
        self.against[i].get(&j).map_or(0.0, |t| t.points)
    }

    /// The engines `i` met, lowest index first, each with the games they
    /// played and the points `i` scored in them.
    pub fn opponents(&self, i: usize) -> impl Iterator<Item = (usize, f64, f64)> + '_ {
        self.against[i].iter().map(|(&j, t)| (j, t.games, t.points))
    }

    /// How many pairs of engines met (each pair once).
    pub fn meetings(&self) -> usize {
        self.against.iter().map(BTreeMap::len).sum::<usize>() / 2
    }

    /// All games of engine `i`.
    pub fn games_of(&self, i: usize) -> f64 {
        self.totals[i].games
    }

    /// All points of engine `i`.
    pub fn points_of(&self, i: usize) -> f64 {
        self.totals[i].points
    }

    /// All games in the table.
    pub fn total_games(&self) -> f64 {
        (0..self.len()).map(|i| self.games_of(i)).sum::<f64>() / 2.0
    }

    /// Reads a results file: one game per line as `A B result`, with the
    /// engine names (no spaces) and the result for `A`: `1`, `0.5` (or
    /// `1/2`) or `0`. Blank lines and everything after `#` are skipped.
    ///
    /// # Errors
    /// [`RatingsFileError`] with the line number for a line that is not
    /// three fields, a result that is not 1, 0.5 or 0, or an engine playing
    /// itself.
    pub fn parse(text: &str) -> Result<Crosstable, RatingsFileError> {
        let mut table = Crosstable::new();
        for (number, line) in text.lines().enumerate() {
            let line_no = number + 1;
            let content = line.split('#').next().unwrap_or_default();
            let fields: Vec<&str> = content.split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            let error = |message: String| RatingsFileError {
                line: line_no,
                message,
            };
            let [a, b, result] = fields[..] else {
                return Err(error(format!(
                    "expected `A B result` (3 fields), found {} field{}",
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" }
                )));
            };
            let points = match result {
                "1/2" | "½" => 0.5,
                other => match other.parse::<f64>() {
                    Ok(v) if v == 0.0 || v == 0.5 || v == 1.0 => v,
                    _ => {
                        return Err(error(format!(
                            "bad result `{other}`: expected 1, 0.5 or 0 (points for {a})"
                        )))
                    }
                },
            };
            if a == b {
                return Err(error(format!("`{a}` cannot play itself")));
            }
            let i = table.engine(a);
            let j = table.engine(b);
            table.add_game(i, j, points);
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_games_and_skips_comments() {
        let table =
            Crosstable::parse("# results\nA B 1\n\nB A 0.5  # a draw\nA C 1/2\nC B 0\n").unwrap();
        assert_eq!(table.names(), ["A", "B", "C"]);
        assert_eq!(table.games_between(0, 1), 2.0);
        assert_eq!(table.points_against(0, 1), 1.5);
        assert_eq!(table.points_against(1, 0), 0.5);
        assert_eq!(table.points_of(2), 0.5);
        assert_eq!(table.total_games(), 4.0);
        // Only the pairs that met are kept.
        assert_eq!(table.meetings(), 3);
        let of_a: Vec<_> = table.opponents(0).collect();
        assert_eq!(of_a, [(1, 2.0, 1.5), (2, 1.0, 0.5)]);
        assert_eq!(table.games_of(1), 3.0);
        assert_eq!(table.points_of(1), 1.5);
    }

    #[test]
    fn errors_name_the_line() {
        let e = Crosstable::parse("A B 1\nA B 2\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(
            e.to_string(),
            "line 2: bad result `2`: expected 1, 0.5 or 0 (points for A)"
        );
        let e = Crosstable::parse("A B\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: expected `A B result` (3 fields), found 2 fields"
        );
        let e = Crosstable::parse("\n\nA A 1\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: `A` cannot play itself");
        assert!(Crosstable::parse("A B nan").is_err());
    }
}
