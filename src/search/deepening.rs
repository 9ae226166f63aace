//! The search driver: one fixed-depth search, or iterative deepening (depth
//! 1, 2, … with the previous iteration's best move searched first and,
//! optionally, an aspiration window around its score) until the limit says
//! stop. Completed iterations give the score and the principal variation;
//! of an iteration aborted by the limit, only a root move proven better
//! than the previous best (alpha-beta, PVS and MTD(f)) is kept, as the
//! move to play.

use super::limits::{budget, ClockState, Stop, StopReason, TimeUse};
use super::searcher::Searcher;
use super::{Evaluator, Fail, Limit, SearchGame, SearchStats, Variant, INFINITY, MAX_PLY};
use serde::Serialize;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// How to search: the algorithm and how long.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    /// The algorithm.
    pub variant: Variant,
    /// Iterative deepening (required by every limit but `Depth`).
    pub deepening: bool,
    /// Half-width of the aspiration window around the previous iteration's
    /// score, in evaluation units (alpha-beta and PVS under deepening only).
    pub aspiration: Option<i32>,
    /// The limit.
    pub limit: Limit,
    /// How a clock is spent (`Clock` limits only).
    pub time: TimeUse,
}

/// One completed iteration.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Iteration {
    /// Depth searched.
    pub depth: u32,
    /// Its score.
    pub score: i32,
    /// Nodes of the whole search so far.
    pub nodes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchOutcome<M> {
    /// The move to play (`None` only when the game is over).
    pub best_move: Option<M>,
    /// Its score for the side to move, in evaluation units: the last
    /// completed iteration's, or, when a cut-short iteration proved another
    /// move better, what that iteration found for it (a lower bound when
    /// the move failed high).
    pub score: i32,
    /// Depth of the last completed iteration (a move a cut-short
    /// iteration proved better was searched one ply deeper).
    pub depth: u32,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// Counters of the whole search (aborted iteration included).
    pub stats: SearchStats,
    /// Wall time.
    pub elapsed: Duration,
    /// Why it stopped.
    pub stop: StopReason,
    /// Every completed iteration.
    pub iterations: Vec<Iteration>,
}

impl<M> SearchOutcome<M> {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.stats.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// Deepest iteration the driver starts (more than any game here needs).
const MAX_DEPTH: u32 = 64;

/// Searches `pos` with `settings`; `clock` is the side to move's clock for
/// [`Limit::Clock`], `moves_left` its estimate of its own moves still to play.
pub fn search<G: SearchGame, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    pos: &G,
    settings: &SearchSettings,
    clock: Option<ClockState>,
    moves_left: u32,
) -> SearchOutcome<G::Move> {
    let start = Instant::now();
    s.stats = SearchStats::default();
    s.root_first = None;
    // A helper shares the main search's table, whose generation the main
    // search alone advances.
    if let (Some(tt), None) = (&s.tt, &s.helper_of) {
        tt.new_search();
    }
    let budget = Budget::new(settings, clock, moves_left);
    let mut out = SearchOutcome {
        best_move: None,
        score: 0,
        depth: 0,
        pv: Vec::new(),
        stats: SearchStats::default(),
        elapsed: Duration::ZERO,
        stop: StopReason::Depth,
        iterations: Vec::new(),
    };
    if pos.is_over() {
        s.stop = Stop::none();
        s.stats.nodes = 1;
        out.score = s.terminal(pos);
    } else {
        deepen(s, pos, settings, &budget, start, &mut out);
    }
    out.stats = s.stats;
    out.elapsed = start.elapsed();
    s.stop = Stop::none();
    out
}

/// What a [`Limit`] means to the driver.
struct Budget {
    /// Deepest iteration to start.
    max_depth: u32,
    /// Node budget (`u64::MAX` for none).
    node_limit: u64,
    /// No new iteration starts after this much time.
    soft: Option<Duration>,
    /// An iteration running at this much time is aborted.
    hard: Option<Duration>,
}

impl Budget {
    /// The budget of `limit`, with the side to move's `clock` (or the
    /// limit's own base and increment) for [`Limit::Clock`].
    fn new(settings: &SearchSettings, clock: Option<ClockState>, moves_left: u32) -> Budget {
        let (max_depth, node_limit, soft, hard) = match settings.limit {
            Limit::Depth(d) => (d, u64::MAX, None, None),
            Limit::Nodes(n) => (MAX_DEPTH, n, None, None),
            // A move's time cannot be saved for later: iterations go on
            // until it is used up (the last one aborted, and kept for
            // what it proved).
            Limit::MoveTime(ms) => {
                let t = Duration::from_millis(ms);
                (MAX_DEPTH, u64::MAX, Some(t), Some(t))
            }
            Limit::Clock(base, inc) => {
                let c = clock.unwrap_or(ClockState {
                    remaining: Duration::from_millis(base),
                    increment: Duration::from_millis(inc),
                });
                let b = budget(c, moves_left, &settings.time);
                (
                    MAX_DEPTH,
                    u64::MAX,
                    Some(settings.time.start_until(b)),
                    Some(b.hard),
                )
            }
        };
        Budget {
            max_depth,
            node_limit,
            soft,
            hard,
        }
    }

    /// The stop control of an iteration at `depth`: none for the first
    /// iteration (so there is always a move) or without nodes or time to
    /// enforce.
    fn stop(&self, depth: u32, first_depth: u32, start: Instant) -> Stop {
        let limited = self.node_limit != u64::MAX || self.hard.is_some();
        if depth == first_depth || !limited {
            Stop::none()
        } else {
            Stop::new(self.node_limit, self.hard.map(|h| start + h))
        }
    }
}

/// Iterations from depth 1 (or straight at the limit's depth without
/// deepening) of a game that is not over, each completed one recorded in
/// `out`, until the budget or the game's end says stop.
fn deepen<G: SearchGame, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    pos: &G,
    settings: &SearchSettings,
    budget: &Budget,
    start: Instant,
    out: &mut SearchOutcome<G::Move>,
) {
    let first_depth = if settings.deepening {
        1
    } else {
        budget.max_depth.max(1)
    };
    let mut depth = first_depth;
    loop {
        let stop = budget.stop(depth, first_depth, start);
        s.stop = match s.helper_of.as_ref().or(s.interrupt.as_ref()) {
            Some(flag) => stop.watching(flag),
            None => stop,
        };
        let prev = out.iterations.last().map(|it| it.score);
        s.root_proven = None;
        let score = run_iteration(s, pos, settings, depth, prev);
        if s.stop.aborted() {
            keep_proven_move(s, out);
            out.stop = if s.stop.out_of_nodes(s.stats.nodes) {
                StopReason::Nodes
            } else {
                StopReason::Time
            };
            return;
        }
        record(s, pos, settings.variant, depth, score, start, out);
        if let ControlFlow::Break(reason) = next_depth(s, pos, settings, budget, start, depth) {
            out.stop = reason;
            return;
        }
        depth += 1;
    }
}

/// After an aborted iteration: a root move that it searched in full and
/// found better than every move before it (the previous iteration's best
/// is searched first) becomes the move to play, with its score, though
/// the depth stays the last completed one's.
fn keep_proven_move<G: SearchGame, E: Evaluator<G>>(
    s: &Searcher<G, E>,
    out: &mut SearchOutcome<G::Move>,
) {
    let Some((mv, score)) = s.root_proven else {
        return;
    };
    if out.best_move.is_some() && out.best_move != Some(mv) {
        out.best_move = Some(mv);
        out.score = score;
        out.pv = vec![mv];
    }
}

/// Keeps a completed iteration at `depth`: its score, move and PV become
/// the outcome, and its move is searched first by the next iteration.
fn record<G: SearchGame, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    pos: &G,
    variant: Variant,
    depth: u32,
    score: i32,
    start: Instant,
    out: &mut SearchOutcome<G::Move>,
) {
    out.score = score;
    out.depth = depth;
    out.best_move = s.root_best();
    out.pv = principal_variation(s, pos, variant, depth);
    out.iterations.push(Iteration {
        depth,
        score,
        nodes: s.stats.nodes,
        seconds: start.elapsed().as_secs_f64(),
    });
    s.root_first = out.best_move;
}

/// After a completed iteration at `depth`: go on to the next, or break
/// with the reason to stop (depth reached, nodes or soft time used up,
/// every line already at its end).
fn next_depth<G: SearchGame, E: Evaluator<G>>(
    s: &Searcher<G, E>,
    pos: &G,
    settings: &SearchSettings,
    budget: &Budget,
    start: Instant,
    depth: u32,
) -> ControlFlow<StopReason> {
    if !settings.deepening || depth >= budget.max_depth {
        return ControlFlow::Break(StopReason::Depth);
    }
    if budget.node_limit != u64::MAX && s.stats.nodes >= budget.node_limit {
        return ControlFlow::Break(StopReason::Nodes);
    }
    if budget.soft.is_some_and(|t| start.elapsed() >= t) {
        return ControlFlow::Break(StopReason::Time);
    }
    if resolved(pos, depth) {
        return ControlFlow::Break(StopReason::Depth);
    }
    ControlFlow::Continue(())
}

/// True when a search to `depth` already reached the end of every line
/// (Othello: no more empty squares than plies searched), so deeper
/// iterations cannot change anything.
fn resolved<G: SearchGame>(pos: &G, depth: u32) -> bool {
    depth as usize >= MAX_PLY - 4 || pos.max_plies_left().is_some_and(|n| depth >= n)
}

/// One iteration at `depth`, with an aspiration window when configured.
fn run_iteration<G: SearchGame, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    pos: &G,
    settings: &SearchSettings,
    depth: u32,
    prev: Option<i32>,
) -> i32 {
    let aspiration = settings.aspiration;
    match settings.variant {
        Variant::Minimax => s.minimax(pos, depth),
        Variant::Negamax => s.negamax(pos, depth),
        Variant::MtdF => s.mtdf(pos, depth, prev.unwrap_or(0)),
        Variant::AlphaBeta { fail: Fail::Hard } => aspirate(s, aspiration, prev, |s, a, b| {
            s.alphabeta_hard(pos, a, b, depth, 0)
        }),
        Variant::AlphaBeta { fail: Fail::Soft } => aspirate(s, aspiration, prev, |s, a, b| {
            s.alphabeta_soft(pos, a, b, depth, 0)
        }),
        Variant::Pvs => aspirate(s, aspiration, prev, |s, a, b| s.pvs(pos, a, b, depth, 0)),
    }
}

/// A windowed search (`window(s, alpha, beta)`) inside an aspiration window
/// of half-width `aspiration` around the previous iteration's value,
/// widened fourfold on the failing side until the value falls inside; the
/// full window without an aspiration or a previous value.
fn aspirate<G: SearchGame, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    aspiration: Option<i32>,
    prev: Option<i32>,
    mut window: impl FnMut(&mut Searcher<G, E>, i32, i32) -> i32,
) -> i32 {
    match (aspiration, prev) {
        (Some(w), Some(p)) if w > 0 => {
            let (mut lo, mut hi) = (w, w);
            loop {
                let alpha = p.saturating_sub(lo).max(-INFINITY);
                let beta = p.saturating_add(hi).min(INFINITY);
                let v = window(s, alpha, beta);
                if s.stop.aborted() {
                    return 0;
                }
                if v <= alpha && alpha > -INFINITY {
                    lo = lo.saturating_mul(4);
                } else if v >= beta && beta < INFINITY {
                    hi = hi.saturating_mul(4);
                } else {
                    return v;
                }
                s.stats.researches += 1;
            }
        }
        _ => window(s, -INFINITY, INFINITY),
    }
}

/// The principal variation of the last iteration: the PV table for the
/// variants that keep one, the transposition table for MTD(f).
fn principal_variation<G: SearchGame, E: Evaluator<G>>(
    s: &Searcher<G, E>,
    pos: &G,
    variant: Variant,
    depth: u32,
) -> Vec<G::Move> {
    let mut pv: Vec<G::Move> = if variant == Variant::MtdF {
        pv_from_table(s, pos, depth)
    } else {
        s.pv().to_vec()
    };
    // The root's best move leads, even when the table's line is empty or
    // (fail-hard, every move failing low) the PV table kept nothing.
    if let Some(b) = s.root_best() {
        if pv.first() != Some(&b) {
            pv = vec![b];
        }
    }
    pv
}

/// Follows the table's best moves from `pos`, at most `depth` plies (and
/// passes), checking each is legal.
fn pv_from_table<G: SearchGame, E: Evaluator<G>>(
    s: &Searcher<G, E>,
    pos: &G,
    depth: u32,
) -> Vec<G::Move> {
    let mut pv = Vec::new();
    let Some(tt) = &s.tt else { return pv };
    let mut p = pos.clone();
    let mut moves = crate::game::MoveList::new();
    let mut left = depth;
    while left > 0 && pv.len() < MAX_PLY {
        let Some(e) = tt.probe(p.hash()) else { break };
        let best = G::move_from_slot(usize::from(e.best));
        moves.clear();
        p.generate_moves(&mut moves);
        if moves.position(best).is_none() {
            break;
        }
        pv.push(best);
        if !G::is_pass(best) {
            left -= 1;
        }
        p = p.play(best);
    }
    if let Some(b) = s.root_best() {
        if pv.first() != Some(&b) {
            pv = vec![b];
        }
    }
    pv
}
