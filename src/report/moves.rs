//! What each move cost, per engine, from the journal's per-move data: moves
//! searched, average depth, nodes per second, time per move; and how games
//! ended (normally, or lost by time, crash or illegal move, by engine).

use crate::records::{GameRecord, TournamentInfo};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One engine's moves over the games of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EngineMoves {
    /// Name.
    pub name: String,
    /// Moves it chose (forced passes and opening moves not counted).
    pub moves: u64,
    /// Average depth reached per move, over the moves whose depth it
    /// reported (`None` when it reported none: a GTP engine).
    pub avg_depth: Option<f64>,
    /// Nodes searched in all, over the moves whose nodes it reported
    /// (`None` when it reported none).
    pub nodes: Option<u64>,
    /// Average milliseconds per move, as the runner timed it.
    pub avg_time_ms: Option<f64>,
    /// Nodes per second over the moves whose nodes it reported.
    pub nps: Option<f64>,
    /// Games it lost by forfeit, by kind (`time forfeit`, `crash`,
    /// `illegal move`).
    pub forfeits: BTreeMap<String, u64>,
}

/// Sums of one engine's moves. Depths and nodes are summed over the
/// moves that report them, each with its count (and, for nodes, the time
/// of those moves): a move whose figure is unknown (`null` in the journal)
/// is left out, never counted as 0. Journals written before unknown
/// figures were `null` hold 0 there, and are read as they were. Times are
/// summed in whole nanoseconds, so that the same games give the same sums
/// in any order (a run's live tallies and a report's analysis agree).
#[derive(Clone, Debug, Default)]
struct Sums {
    moves: u64,
    depth: u64,
    depth_moves: u64,
    nodes: u64,
    node_moves: u64,
    node_ns: u64,
    ns: u64,
    forfeits: BTreeMap<String, u64>,
}

/// The kind of a game's end (`game over`, `adjudicated` for a solve, the
/// whole reason of a resignation or draw by reported scores, or a
/// forfeit's kind: the reason up to its `:`), and for a forfeit the engine
/// that lost by it.
pub fn termination(reason: &str) -> (&str, Option<&str>) {
    if ["adjudicated: resign: ", "adjudicated: draw ("]
        .iter()
        .any(|p| reason.starts_with(p))
    {
        return (reason, None);
    }
    match reason.split_once(": ") {
        Some((kind @ ("time forfeit" | "crash" | "illegal move"), rest)) => {
            let name = rest.split(" (").next().unwrap_or(rest);
            (kind, Some(name))
        }
        Some((kind, _)) => (kind, None),
        None => (reason, None),
    }
}

/// Per-engine move statistics and the count of each way games ended.
pub fn engine_moves(
    info: &TournamentInfo,
    games: &[&GameRecord],
) -> (Vec<EngineMoves>, BTreeMap<String, u64>) {
    let mut sums = MoveSums::new(info);
    for g in games {
        sums.add(g);
    }
    sums.stats(info)
}

/// [`engine_moves`] kept up to date game by game: each game is added once,
/// and the statistics are read at any time at a cost of the engines' number.
#[derive(Clone, Debug)]
pub struct MoveSums {
    sums: Vec<Sums>,
    /// The first engine of a name, as a search from the start finds it.
    places: HashMap<String, usize>,
    endings: BTreeMap<String, u64>,
}

impl MoveSums {
    /// No games yet of the run `info`.
    pub fn new(info: &TournamentInfo) -> MoveSums {
        MoveSums {
            sums: info.engines.iter().map(|_| Sums::default()).collect(),
            places: info
                .engines
                .iter()
                .enumerate()
                .rev()
                .map(|(i, e)| (e.clone(), i))
                .collect(),
            endings: BTreeMap::new(),
        }
    }

    /// Adds game `g`'s moves and how it ended.
    pub fn add(&mut self, g: &GameRecord) {
        let places = &self.places;
        let index = |name: &str| places.get(name).copied();
        let (kind, loser) = termination(&g.reason);
        count(&mut self.endings, kind);
        if let Some(i) = loser.and_then(index) {
            count(&mut self.sums[i].forfeits, kind);
        }
        add_moves(g, &index, &mut self.sums);
    }

    /// Each engine's move statistics (in the run's order) and the count of
    /// each way the games ended.
    pub fn stats(&self, info: &TournamentInfo) -> (Vec<EngineMoves>, BTreeMap<String, u64>) {
        let stats = info
            .engines
            .iter()
            .zip(&self.sums)
            .map(|(name, s)| EngineMoves {
                name: name.clone(),
                moves: s.moves,
                avg_depth: (s.depth_moves > 0).then(|| s.depth as f64 / s.depth_moves as f64),
                nodes: (s.node_moves > 0).then_some(s.nodes),
                avg_time_ms: (s.moves > 0).then(|| s.ns as f64 / 1e6 / s.moves as f64),
                nps: (s.node_ns > 0 && s.nodes > 0)
                    .then(|| s.nodes as f64 / (s.node_ns as f64 / 1e9)),
                forfeits: s.forfeits.clone(),
            })
            .collect();
        (stats, self.endings.clone())
    }
}

/// One more of `kind` (a name made only the first time).
fn count(counts: &mut BTreeMap<String, u64>, kind: &str) {
    match counts.get_mut(kind) {
        Some(n) => *n += 1,
        None => {
            counts.insert(kind.to_string(), 1);
        }
    }
}

/// Adds a game's chosen moves to the sums of the engines that made them:
/// moves after the opening alternate between the sides (passes are moves
/// of the journal), and passes are not counted.
fn add_moves(g: &GameRecord, index: &dyn Fn(&str) -> Option<usize>, sums: &mut [Sums]) {
    let start_black = match &g.start {
        Some(p) => p.trim_end().ends_with('X') || p.trim_end().ends_with('x'),
        None => true,
    };
    let black_first = start_black == g.opening_plies.is_multiple_of(2);
    let sides = [index(&g.black), index(&g.white)];
    for (k, &ms) in g.times_ms.iter().enumerate() {
        // A list left out (an empty list) is as old journals wrote it: 0.
        let depth = g.depths.get(k).copied().unwrap_or(Some(0));
        let nodes = g.nodes.get(k).copied().unwrap_or(Some(0));
        let at = 2 * (g.opening_plies + k);
        let pass = g
            .moves
            .get(at..at + 2)
            .is_none_or(|m| m.eq_ignore_ascii_case("pa"));
        let Some(i) = sides[(k + usize::from(!black_first)) % 2] else {
            continue;
        };
        if pass {
            continue;
        }
        let s = &mut sums[i];
        // A journal's times are finite and not negative (checked when read).
        let ns = (ms * 1e6).round() as u64;
        s.moves += 1;
        s.ns = s.ns.saturating_add(ns);
        if let Some(d) = depth {
            s.depth += u64::from(d);
            s.depth_moves += 1;
        }
        if let Some(n) = nodes {
            s.nodes += n;
            s.node_moves += 1;
            s.node_ns = s.node_ns.saturating_add(ns);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{BookInfo, Format};

    fn info() -> TournamentInfo {
        TournamentInfo {
            book: BookInfo {
                openings: 1,
                ..TournamentInfo::example(&[], Format::RoundRobin { rounds: 1 }, 1).book
            },
            ..TournamentInfo::example(&["a", "b"], Format::RoundRobin { rounds: 1 }, 1)
        }
    }

    #[test]
    fn moves_go_to_the_side_that_made_them_and_passes_do_not_count() {
        let info = info();
        // One opening ply (black's f5), then white (b) d6, black (a) c3,
        // white passes, black c4; b then loses on time.
        let g = GameRecord {
            tune: None,
            pair_id: 0,
            game_id: 0,
            round: 0,
            opening_id: 0,
            black: "a".into(),
            white: "b".into(),
            start: None,
            opening_plies: 1,
            moves: "f5d6c3pac4".into(),
            result: 1.0,
            disc_diff: 64,
            reason: "time forfeit: b".into(),
            nodes: vec![Some(100), Some(300), Some(0), Some(500)],
            times_ms: vec![1.0, 2.0, 0.0, 2.0],
            depths: vec![Some(3), Some(4), Some(0), Some(6)],
            scores: vec![None; 4],
        };
        let (stats, endings) = engine_moves(&info, &[&g]);
        assert_eq!(stats[0].moves, 2);
        assert_eq!(stats[0].avg_depth, Some(5.0));
        assert_eq!(stats[0].nodes, Some(800));
        assert_eq!(stats[0].nps, Some(800.0 / 0.004));
        assert_eq!(stats[1].moves, 1);
        assert_eq!(stats[1].forfeits.get("time forfeit"), Some(&1));
        assert_eq!(endings.get("time forfeit"), Some(&1));
        assert_eq!(termination("crash: x (boom: y)"), ("crash", Some("x")));
        assert_eq!(termination("game over"), ("game over", None));
        assert_eq!(
            termination("adjudicated: solved at 18 empties"),
            ("adjudicated", None)
        );
    }

    #[test]
    fn figures_not_reported_are_left_out_never_counted_as_zero() {
        // a (black) reports depth and nodes on one move of two; b (a GTP
        // engine) on none.
        let g = GameRecord {
            tune: None,
            pair_id: 0,
            game_id: 0,
            round: 0,
            opening_id: 0,
            black: "a".into(),
            white: "b".into(),
            start: None,
            opening_plies: 0,
            moves: "f5d6c3d3".into(),
            result: 0.0,
            disc_diff: -64,
            reason: "crash: a (x)".into(),
            nodes: vec![Some(100), None, None, None],
            times_ms: vec![1.0, 2.0, 3.0, 4.0],
            depths: vec![Some(3), None, None, None],
            scores: vec![None; 4],
        };
        let (stats, _) = engine_moves(&info(), &[&g]);
        assert_eq!(stats[0].moves, 2);
        assert_eq!(stats[0].avg_depth, Some(3.0));
        assert_eq!(stats[0].nodes, Some(100));
        assert_eq!(stats[0].nps, Some(100.0 / 0.001));
        assert_eq!(stats[0].avg_time_ms, Some(2.0));
        assert_eq!(stats[1].moves, 2);
        assert_eq!(
            (stats[1].avg_depth, stats[1].nodes, stats[1].nps),
            (None, None, None)
        );
        assert_eq!(stats[1].avg_time_ms, Some(3.0));
        // Older journals wrote 0 for the same moves: read as before.
        let old = GameRecord {
            nodes: vec![Some(100), Some(0), Some(0), Some(0)],
            depths: vec![Some(3), Some(0), Some(0), Some(0)],
            ..g
        };
        let (stats, _) = engine_moves(&info(), &[&old]);
        assert_eq!(stats[0].avg_depth, Some(1.5));
        assert_eq!(stats[1].avg_depth, Some(0.0));
        assert_eq!(stats[1].nodes, Some(0));
        assert_eq!(stats[1].nps, None);
    }
}
