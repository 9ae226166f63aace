//! Search limits (one enum) and the stop control that enforces them inside
//! the search: node budgets exactly, time by looking at the clock every few
//! thousand nodes.

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// Search to exactly this depth (plies; passes are free).
    Depth(u32),
    /// Deepen until this many nodes have been visited; the last completed
    /// iteration's move is played, or a move the cut-short iteration after
    /// it proved better. Deterministic.
    Nodes(u64),
    /// Deepen for this many milliseconds per move (all of them: a move's
    /// time cannot be saved for later).
    MoveTime(u64),
    /// A game clock: base milliseconds for the whole game and an increment
    /// per move; time management decides how much of it each move uses.
    Clock(u64, u64),
}

/// Deepest fixed depth a search accepts, in plies: an Othello game lasts
/// at most 60 moves (passes are free), so a deeper search finds nothing
/// more and, without deepening, would search the whole game tree.
pub const MAX_DEPTH: u32 = 60;

/// Largest node budget: 10^12 nodes, about a day of search at ten million
/// nodes a second.
pub const MAX_NODES: u64 = 1_000_000_000_000;

/// Longest time a limit may give (`MoveTime`, and a `Clock`'s base and its
/// increment each): 24 hours, in milliseconds. Longer ones cannot be meant,
/// and times near `u64::MAX` ms would overflow the deadline arithmetic.
pub const MAX_TIME_MS: u64 = 24 * 60 * 60 * 1000;

impl Limit {
    /// This limit with its times (a move time, a clock's base and
    /// increment) multiplied by `factor` and rounded, at least 1 ms; a
    /// depth or node limit as it is.
    #[must_use]
    pub fn scaled(self, factor: f64) -> Limit {
        let ms = |t: u64| ((t as f64 * factor).round() as u64).max(1);
        match self {
            Limit::Depth(_) | Limit::Nodes(_) => self,
            Limit::MoveTime(t) => Limit::MoveTime(ms(t)),
            Limit::Clock(base, inc) => Limit::Clock(ms(base), if inc == 0 { 0 } else { ms(inc) }),
        }
    }

    /// True for a move time or a clock: a limit of time, which a
    /// machine's speed changes.
    pub fn is_timed(self) -> bool {
        matches!(self, Limit::MoveTime(_) | Limit::Clock(..))
    }

    /// What is wrong with this limit, if anything: nothing to search (a
    /// zero), or more than the caps ([`MAX_DEPTH`], [`MAX_NODES`],
    /// [`MAX_TIME_MS`]).
    pub fn problem(self) -> Option<String> {
        let zero = match self {
            Limit::Depth(0) => Some("Depth(0) searches nothing; the depth must be at least 1"),
            Limit::Nodes(0) => Some("Nodes(0): the node budget must be at least 1"),
            Limit::MoveTime(0) => Some("MoveTime(0): the time must be at least 1 ms"),
            Limit::Clock(0, 0) => Some("Clock(0, 0): the clock needs time"),
            Limit::Depth(_) | Limit::Nodes(_) | Limit::MoveTime(_) | Limit::Clock(..) => None,
        };
        if let Some(z) = zero {
            return Some(z.to_string());
        }
        match self {
            Limit::Depth(d) if d > MAX_DEPTH => Some(format!(
                "Depth({d}) is deeper than the game: at most Depth({MAX_DEPTH}) (an Othello game has 60 moves)"
            )),
            Limit::Nodes(n) if n > MAX_NODES => Some(format!(
                "Nodes({n}) is more than the {MAX_NODES} nodes allowed (about a day of search)"
            )),
            Limit::MoveTime(ms) if ms > MAX_TIME_MS => Some(format!(
                "MoveTime({ms}) is more than the {MAX_TIME_MS} ms (24 hours) allowed"
            )),
            Limit::Clock(base, inc) if base > MAX_TIME_MS || inc > MAX_TIME_MS => Some(format!(
                "Clock({base}, {inc}): the base and the increment are each at most {MAX_TIME_MS} ms (24 hours)"
            )),
            Limit::Depth(_) | Limit::Nodes(_) | Limit::MoveTime(_) | Limit::Clock(..) => None,
        }
    }
}

/// The clock of the side to move, in a game played with [`Limit::Clock`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// Time left, including nothing of this move's increment.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// Time budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration past this.
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
}

/// How a searching engine spends its clock (`Clock` limits only): the
/// numbers of [`budget`], an engine file's `time` field. The defaults are
/// the numbers the engines have always played with; a file that leaves
/// `time` out (or states the defaults) hashes as before.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeUse {
    /// Own moves assumed left beyond the estimate (half the empties): a
    /// move's share is what is usable over (moves left + this).
    #[serde(default = "default_moves_extra")]
    pub moves_extra: f64,
    /// The share of the increment added to a move's share.
    #[serde(default = "default_increment_share")]
    pub increment_share: f64,
    /// Most of what is usable one move may take.
    #[serde(default = "default_most")]
    pub most: f64,
    /// Deepening starts no iteration after this share of the move's share.
    #[serde(default = "default_start_until")]
    pub start_until: f64,
    /// An iteration still running at this many times the move's share is
    /// aborted (never past `most`).
    #[serde(default = "default_abort_at")]
    pub abort_at: f64,
}

fn default_moves_extra() -> f64 {
    2.0
}
fn default_increment_share() -> f64 {
    0.75
}
fn default_most() -> f64 {
    0.25
}
fn default_start_until() -> f64 {
    0.5
}
fn default_abort_at() -> f64 {
    3.0
}

impl Default for TimeUse {
    fn default() -> TimeUse {
        TimeUse {
            moves_extra: default_moves_extra(),
            increment_share: default_increment_share(),
            most: default_most(),
            start_until: default_start_until(),
            abort_at: default_abort_at(),
        }
    }
}

impl TimeUse {
    /// True for the defaults (left out of config hashes).
    pub fn is_default(&self) -> bool {
        *self == TimeUse::default()
    }

    /// What is wrong with these numbers: the field and why (`None`: they
    /// are fine).
    pub fn problem(&self) -> Option<(&'static str, String)> {
        let ranges = [
            ("moves_extra", self.moves_extra, 0.1, 60.0),
            ("increment_share", self.increment_share, 0.0, 1.0),
            ("most", self.most, 0.01, 1.0),
            ("start_until", self.start_until, 0.01, 1.0),
            ("abort_at", self.abort_at, 1.0, 100.0),
        ];
        ranges.into_iter().find_map(|(field, v, lo, hi)| {
            (!(v >= lo && v <= hi))
                .then(|| (field, format!("time.{field} is {v}: give {lo} to {hi}")))
        })
    }

    /// The time after which deepening starts no iteration, of a budget.
    pub fn start_until(&self, b: TimeBudget) -> Duration {
        b.soft.mul_f64(self.start_until)
    }
}

/// Share of one move's time in a game with `clock`, when the side to move
/// has about `moves_left` moves still to play, spent as `t` says.
///
/// With the defaults, the base share is `remaining / (moves_left + 2) +
/// 3/4 · increment`; deepening stops starting iterations at half that share
/// and aborts at 3x it, but never spends more than a quarter of what is
/// left, and keeps a 20 ms reserve (plus 5%) for the rest of the game so
/// that the default settings never lose on time.
pub fn budget(clock: ClockState, moves_left: u32, t: &TimeUse) -> TimeBudget {
    let reserve = Duration::from_millis(20) + clock.remaining / 20;
    let usable = clock.remaining.saturating_sub(reserve);
    let share = usable.div_f64(f64::from(moves_left) + t.moves_extra)
        + clock.increment.mul_f64(t.increment_share);
    let cap = usable.mul_f64(t.most) + clock.increment / 2;
    let soft = share.min(cap);
    TimeBudget {
        soft,
        hard: soft.mul_f64(t.abort_at).min(cap.max(soft)),
    }
}

/// Enforces a node budget and a deadline inside a search.
#[derive(Clone, Debug)]
pub struct Stop {
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set by another thread to stop this search (the helpers of a parallel search).
    flag: Option<Arc<AtomicBool>>,
    next_check: u64,
    aborted: bool,
}

/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 2048;

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StopReason {
    /// The depth limit (or the end of the game) was reached.
    Depth,
    /// The node budget ran out.
    Nodes,
    /// Time ran out.
    Time,
}

impl Stop {
    /// No limit.
    pub fn none() -> Stop {
        Stop::new(u64::MAX, None)
    }

    /// At most `node_limit` nodes, and no later than `deadline`.
    pub fn new(node_limit: u64, deadline: Option<Instant>) -> Stop {
        let mut s = Stop {
            node_limit,
            deadline,
            flag: None,
            next_check: 0,
            aborted: false,
        };
        s.schedule(0);
        s
    }

    /// This stop, and also when `flag` is set (looked at as often as the
    /// clock).
    pub fn watching(mut self, flag: &Arc<AtomicBool>) -> Stop {
        self.flag = Some(Arc::clone(flag));
        self.schedule(0);
        self
    }

    fn schedule(&mut self, nodes: u64) {
        self.next_check = if self.deadline.is_some() || self.flag.is_some() {
            (nodes + CLOCK_INTERVAL).min(self.node_limit)
        } else {
            self.node_limit
        };
    }

    /// True once the search must stop; call with the node count after
    /// counting a node. Cheap when nothing is due.
    #[inline(always)]
    pub fn check(&mut self, nodes: u64) -> bool {
        if nodes >= self.next_check && !self.aborted {
            self.slow_check(nodes);
        }
        self.aborted
    }

    #[cold]
    fn slow_check(&mut self, nodes: u64) {
        if nodes >= self.node_limit
            || self.flag.as_ref().is_some_and(|f| f.load(Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        } else {
            self.schedule(nodes);
        }
    }

    /// True when a limit was hit.
    #[inline(always)]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// True when the node budget is used up (as opposed to time).
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        nodes >= self.node_limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_never_spends_the_whole_clock() {
        for ms in [1u64, 10, 50, 100, 1000, 60_000] {
            for inc in [0u64, 10, 100] {
                for moves in [0u32, 1, 10, 30] {
                    let c = ClockState {
                        remaining: Duration::from_millis(ms),
                        increment: Duration::from_millis(inc),
                    };
                    let b = budget(c, moves, &TimeUse::default());
                    assert!(b.soft <= b.hard);
                    assert!(
                        b.hard < c.remaining + c.increment / 2 || ms <= 20,
                        "{ms} {inc} {moves}"
                    );
                }
            }
        }
    }

    #[test]
    fn limits_within_the_caps_are_fine_and_beyond_them_say_why() {
        for ok in [
            Limit::Depth(1),
            Limit::Depth(MAX_DEPTH),
            Limit::Nodes(MAX_NODES),
            Limit::MoveTime(MAX_TIME_MS),
            Limit::Clock(MAX_TIME_MS, MAX_TIME_MS),
            Limit::Clock(0, 10),
        ] {
            assert_eq!(ok.problem(), None, "{ok:?}");
        }
        for (bad, says) in [
            (Limit::Depth(0), "at least 1"),
            (Limit::Depth(61), "at most Depth(60)"),
            (Limit::Nodes(MAX_NODES + 1), "1000000000000 nodes"),
            (Limit::MoveTime(u64::MAX), "24 hours"),
            (Limit::Clock(u64::MAX, 0), "24 hours"),
            (Limit::Clock(1000, MAX_TIME_MS + 1), "24 hours"),
        ] {
            let p = bad.problem().unwrap_or_default();
            assert!(p.contains(says), "{bad:?}: {p}");
        }
    }

    #[test]
    fn node_limit_is_exact() {
        let mut s = Stop::new(100, None);
        assert!(!s.check(99));
        assert!(s.check(100));
    }
}
