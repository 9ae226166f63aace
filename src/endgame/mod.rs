//! The exact Othello endgame solver: the final disc difference (empties to
//! the winner, the FFO rule) under perfect play, and a move that reaches it.
//!
//! What makes it fast, as in strong solvers (Edax):
//! - principal variation search: a full window on the first move, null
//!   windows on the rest, a re-search when one fails high;
//! - a transposition table above [`SMALL`] empties;
//! - move ordering: the table's move, then fewest opponent replies
//!   ("fastest first", corners counted twice), then parity (moves into
//!   regions with an odd number of empties); from [`EVAL_SORT`] empties,
//!   when the solver has an evaluation, a shallow alpha-beta search of the
//!   position after each move, scored by the evaluation, joins the key
//!   (Edax's scheme: depth (empties - 14) / 2, two more at PV nodes; a disc
//!   of estimate weighs a quarter to one opponent reply);
//! - with an evaluation, an aspiration window at the root: one disc either
//!   side of a depth-4 estimate, widened until the score falls inside;
//! - stability cutoffs: the opponent's stable discs bound the score from
//!   above, so a node fails low without search when that bound is at most
//!   alpha;
//! - at [`SMALL`] empties or fewer, no table and no sorting: moves in
//!   odd-parity quadrants first, and the last empty square counted directly.
//!
//! Nothing allocates during a solve: every list is on the stack.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

pub mod obf;

use crate::eval::OthelloEval;
use crate::game::othello::bitboard::{flips, legal_moves, neighbours, stable_discs, Bits};
use crate::game::othello::hash::hash;
use crate::game::othello::{Board, Move, Square};
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::Evaluator;
use std::time::{Duration, Instant};

/// At this many empties or fewer the solver uses its small-position code.
pub const SMALL: u32 = 6;
/// From this many empties null-window nodes try enhanced transposition
/// cutoffs.
pub const ETC_DEPTH: u32 = 12;
/// From this many empties the evaluation helps order moves (see the module
/// docs).
pub const EVAL_SORT: u32 = 14;

/// Beyond any score of a checked evaluation (weights are bounded so that
/// scores stay far inside `i32`), in centidiscs.
const INF_CENTI: i32 = 1 << 30;

/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 1 << 14;

const CORNERS: u64 = 0x8100_0000_0000_0081;
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Stability is checked only when alpha is at least this (by empties): below
/// it the bound cannot cut.
const STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [99; 65];
    let mut n = 4;
    while n <= 64 {
        let v = 2 * n as i32 - 4;
        t[n] = if v > 64 { 64 } else { v };
        n += 1;
    }
    t
};

/// Static square values for ordering ties (corners best, X-squares worst).
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// Own discs that are stable because they hang on an owned corner: the
/// corner and its owned neighbours along the two edges and the diagonal.
#[inline]
fn corner_stability(own: u64) -> u32 {
    const A1: u64 = 1;
    const H1: u64 = 1 << 7;
    const A8: u64 = 1 << 56;
    const H8: u64 = 1 << 63;
    let mut s = 0u64;
    for (corner, near) in [
        (A1, (1u64 << 1) | (1 << 8) | (1 << 9)),
        (H1, (1u64 << 6) | (1 << 15) | (1 << 14)),
        (A8, (1u64 << 48) | (1 << 57) | (1 << 49)),
        (H8, (1u64 << 55) | (1 << 62) | (1 << 54)),
    ] {
        if own & corner != 0 {
            s |= corner | (own & near);
        }
    }
    s.count_ones()
}

/// The squares of quadrants holding an odd number of empty squares.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    let mut m = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            m |= q;
        }
    }
    m
}

/// Final score for the side to move with discs `p` against `o`.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = 64 - pc - oc;
    match pc.cmp(&oc) {
        std::cmp::Ordering::Greater => pc - oc + e,
        std::cmp::Ordering::Less => pc - oc - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact final disc difference for the side to move.
    pub score: i32,
    /// A move reaching it (`None` when the game is over).
    pub best_move: Option<Move>,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// The solver, with its table (kept between solves of one game).
pub struct Solver {
    tt: TranspositionTable,
    nodes: u64,
    eval: Option<OthelloEval>,
    /// From this many empties `eval` helps order moves.
    pub eval_from: u32,
    deadline: Option<Instant>,
    /// Node count at which the deadline is next checked.
    next_check: u64,
    aborted: bool,
}

/// A move and its ordering key.
#[derive(Clone, Copy, Default)]
struct Scored {
    sq: u8,
    flips: u64,
    key: i32,
}

impl Solver {
    /// A solver with a table of `tt_mib` MiB, ordering moves with `eval` at
    /// high empties when one is given.
    pub fn new(tt_mib: usize, eval: Option<OthelloEval>) -> Solver {
        Solver {
            tt: TranspositionTable::new(tt_mib.max(1)),
            nodes: 0,
            eval,
            eval_from: EVAL_SORT,
            deadline: None,
            next_check: 0,
            aborted: false,
        }
    }

    /// Solves `b` exactly.
    pub fn solve(&mut self, b: &Board) -> Solution {
        self.solve_window(b, -64, 64)
    }

    /// Solves `b` within `(alpha, beta)`: exact when the value is inside,
    /// otherwise a bound (fail-soft). The move is the best one found.
    pub fn solve_window(&mut self, b: &Board, alpha: i32, beta: i32) -> Solution {
        self.deadline = None;
        self.solve_inner(b, alpha, beta)
    }

    /// Solves `b` exactly unless `deadline` passes first (`None` then).
    pub fn solve_until(&mut self, b: &Board, deadline: Instant) -> Option<Solution> {
        self.deadline = Some(deadline);
        let s = self.solve_inner(b, -64, 64);
        self.deadline = None;
        (!self.aborted).then_some(s)
    }

    fn solve_inner(&mut self, b: &Board, alpha: i32, beta: i32) -> Solution {
        let start = Instant::now();
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.aborted = false;
        self.tt.new_search();
        let n = b.empties();
        let (score, best_move) =
            if self.eval.is_some() && n >= self.eval_from && alpha == -64 && beta == 64 {
                // Aspiration: a window of one disc either side of the ordering
                // search's estimate (depth 4), widened by 4 discs on the failing
                // side until the score is inside.
                let guess = self.shallow(b.player, b.opponent, 4, -INF_CENTI, INF_CENTI) / 100;
                let w = 1;
                let (mut lo, mut hi) = ((guess - w).clamp(-64, 63), (guess + w).clamp(-63, 64));
                loop {
                    let (v, m) = self.root(b.player, b.opponent, lo, hi);
                    if self.aborted
                        || (v > lo && v < hi)
                        || (v <= lo && lo == -64)
                        || (v >= hi && hi == 64)
                    {
                        break (v, m);
                    }
                    if v <= lo {
                        lo = (lo - 4 * w).max(-64);
                    } else {
                        hi = (hi + 4 * w).min(64);
                    }
                }
            } else {
                self.root(b.player, b.opponent, alpha, beta)
            };
        Solution {
            score,
            best_move,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        self.nodes += 1;
        let n = (!(p | o)).count_ones();
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return (final_score(p, o), None);
            }
            let (v, _) = self.root(o, p, -beta, -alpha);
            return (-v, Some(Move::PASS));
        }
        let mut list = [Scored::default(); 32];
        let count = self.order(p, o, moves, n, None, true, &mut list);
        let (best, best_sq) = self.search_moves(p, o, &list[..count], alpha, beta, n);
        (best, Some(Move::square(Square::new(best_sq))))
    }

    /// Fills `list` with the moves of `moves`, best first; returns how many.
    #[inline]
    #[allow(clippy::too_many_arguments)] // the hot path: plain values, no struct to fill
    fn order(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        n: u32,
        hash_move: Option<u8>,
        pv: bool,
        list: &mut [Scored; 32],
    ) -> usize {
        let empty = !(p | o);
        let odd = odd_quadrants(empty);
        let mut count = 0;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let bit = 1u64 << sq;
            let (np, no) = (o ^ f, p ^ f ^ bit);
            let replies = legal_moves(np, no);
            // Edax-like fast ordering: fewest opponent replies (corners
            // count twice) first, then own corner stability, then fewest
            // empties next to own discs (the opponent's potential
            // mobility), then square value and parity.
            let weighted = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            let corner_stab = corner_stability(no) as i32;
            let potential = (neighbours(no) & empty & !bit).count_ones() as i32;
            let mut key = ((36 - weighted) << 15)
                + (corner_stab << 11)
                + ((36 - potential) << 5)
                + SQUARE_VALUE[sq];
            if odd & bit != 0 {
                key += 16;
            }
            if n >= self.eval_from && self.eval.is_some() {
                // Edax's ordering at high empties: a shallow search of the
                // position after the move, one ply deeper every two empties
                // from 14 (two more at PV nodes), scored by the evaluation
                // and worth a quarter (depth 0), half (1-2) or one (3+)
                // opponent reply per disc.
                let depth = (n.saturating_sub(14) / 2 + if pv { 2 } else { 0 }).min(8);
                let v = self.shallow(np, no, depth, -INF_CENTI, INF_CENTI);
                let per_disc = match depth {
                    0 => 1 << 13,
                    1 | 2 => 1 << 14,
                    _ => 1 << 15,
                };
                // Clamped to the range of real scores, so no key overflows.
                key -= (i64::from(v.clamp(-6400, 6400)) * per_disc / 100) as i32;
            }
            if hash_move == Some(sq as u8) {
                key = i32::MAX;
            }
            // Insertion by key, stable.
            let mut j = count;
            while j > 0 && list[j - 1].key < key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = Scored {
                sq: sq as u8,
                flips: f,
                key,
            };
            count += 1;
        }
        count
    }

    /// Alpha-beta value (centidiscs, fail-soft) of `p` to move at `depth`
    /// with the ordering evaluation at the leaves: the move-ordering search.
    fn shallow(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -self.shallow(o, p, depth, -beta, -alpha);
        }
        if depth == 0 {
            let Some(e) = &self.eval else { return 0 };
            return e.evaluate(&Board {
                player: p,
                opponent: o,
                side: crate::game::othello::Color::Black,
            });
        }
        let mut best = -INF_CENTI;
        for sq in Bits(moves) {
            let f = flips(sq, p, o);
            let v = -self.shallow(o ^ f, p ^ f ^ (1u64 << sq), depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Counts a node; true when the deadline has passed (checked every
    /// 16,384 nodes), after which every node returns at once.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Stability bound: the opponent's stable discs cap the score.
    #[inline]
    fn stability_cut(p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return Some(upper);
            }
        }
        None
    }

    /// Principal-variation node, window `(alpha, beta)`, fail-soft.
    fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n <= SMALL {
            return self.small(p, o, alpha, beta, n);
        }
        if self.tick() {
            return 0;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, n);
        }
        if let Some(v) = Self::stability_cut(p, o, alpha, n) {
            return v;
        }
        let key = hash(p, o);
        let mut hash_move = None;
        if let Some(e) = self.tt.probe(key) {
            hash_move = Some(e.best);
            if e.bound.cuts(e.score, alpha, beta) {
                return e.score;
            }
        }
        let mut list = [Scored::default(); 32];
        let count = self.order(p, o, moves, n, hash_move, true, &mut list);
        let alpha0 = alpha;
        let (best, best_sq) = self.search_moves(p, o, &list[..count], alpha, beta, n);
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, alpha0, beta);
        self.tt.store(key, n, bound, best, best_sq);
        best
    }

    /// The moves of `list` (ordered), PVS style: the first with the full
    /// window, the rest with null windows and a re-search on a fail high.
    /// Returns the best value (fail-soft) and its square; stops early on
    /// abort (the caller checks).
    fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        list: &[Scored],
        mut alpha: i32,
        beta: i32,
        n: u32,
    ) -> (i32, u8) {
        let mut best = -65;
        let mut best_sq = list[0].sq;
        for (i, m) in list.iter().enumerate() {
            let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
            let v = if i == 0 {
                -self.pvs(np, no, -beta, -alpha, n - 1)
            } else {
                let mut v = -self.nws(np, no, -alpha - 1, n - 1);
                if v > alpha && v < beta {
                    v = -self.pvs(np, no, -beta, -alpha, n - 1);
                }
                v
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_sq = m.sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// Null-window node: is the value above `alpha` (window `(alpha,
    /// alpha + 1)`)? Fail-soft.
    fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        if n <= SMALL {
            return self.small(p, o, alpha, alpha + 1, n);
        }
        if self.tick() {
            return 0;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, n);
        }
        if let Some(v) = Self::stability_cut(p, o, alpha, n) {
            return v;
        }
        let key = hash(p, o);
        let mut hash_move = None;
        if let Some(e) = self.tt.probe(key) {
            hash_move = Some(e.best);
            if e.bound.cuts(e.score, alpha, alpha + 1) {
                return e.score;
            }
        }
        let mut list = [Scored::default(); 32];
        let count = self.order(p, o, moves, n, hash_move, false, &mut list);
        // Enhanced transposition cutoff: a child the table already proves
        // at most -alpha - 1 for the opponent ends this node at once.
        if n >= ETC_DEPTH {
            for m in &list[..count] {
                let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                if let Some(e) = self.tt.probe(hash(np, no)) {
                    if matches!(e.bound, Bound::Upper | Bound::Exact) && -e.score > alpha {
                        self.tt.store(key, n, Bound::Lower, -e.score, m.sq);
                        return -e.score;
                    }
                }
            }
        }
        let mut best = -65;
        let mut best_sq = list[0].sq;
        for m in &list[..count] {
            let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
            let v = -self.nws(np, no, -alpha - 1, n - 1);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = m.sq;
                if v > alpha {
                    break;
                }
            }
        }
        let bound = if best > alpha {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(key, n, bound, best, best_sq);
        best
    }

    /// Few empties: no table, no sorting; odd-parity quadrants first.
    fn small(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        let empty = !(p | o);
        if n == 1 {
            return last_empty(p, o, empty.trailing_zeros() as usize);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.small(o, p, -beta, -alpha, n);
        }
        let odd = odd_quadrants(empty);
        let mut best = -65;
        for group in [moves & odd, moves & !odd] {
            for sq in Bits(group) {
                let f = flips(sq, p, o);
                let v = -self.small(o ^ f, p ^ f ^ (1u64 << sq), -beta, -alpha, n - 1);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        best
    }
}

/// The exact score with one empty square `sq` left, side to move `p`.
#[inline]
fn last_empty(p: u64, o: u64, sq: usize) -> i32 {
    let diff = 2 * p.count_ones() as i32 - 63;
    let f = flips(sq, p, o);
    if f != 0 {
        return diff + 2 * f.count_ones() as i32 + 1;
    }
    let g = flips(sq, o, p);
    if g != 0 {
        return diff - 2 * g.count_ones() as i32 - 1;
    }
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::parse_position;
    use crate::game::Game;
    use crate::search::{Searcher, ZeroEval, INFINITY};

    #[test]
    fn agrees_with_a_full_search_on_random_endgames() {
        let mut rng = crate::util::SplitMix64::new(11);
        for _ in 0..60 {
            let mut b = Board::start();
            let mut moves = crate::game::MoveList::new();
            let target = 6 + rng.below(7) as u32; // 6 to 12 empties
            while b.empties() > target && !b.is_over() {
                moves.clear();
                b.generate_moves(&mut moves);
                b = b.play(moves.get(rng.below(moves.len() as u64) as usize));
            }
            let mut s: Searcher<Board, ZeroEval> = Searcher::new(ZeroEval, 0, vec![]);
            let want = s.alphabeta_soft(&b, -INFINITY, INFINITY, 64, 0);
            let got = Solver::new(1, None).solve(&b);
            assert_eq!(
                got.score,
                want,
                "{}",
                crate::game::othello::board_string(&b)
            );
            if let Some(mv) = got.best_move {
                let after = b.play(mv);
                let v = -s.alphabeta_soft(&after, -INFINITY, INFINITY, 64, 0);
                assert_eq!(v, want, "the move reaches the value");
            }
        }
    }

    #[test]
    fn ffo_1_is_plus_18_with_g8() {
        let b =
            parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
                .unwrap();
        let s = Solver::new(16, None).solve(&b);
        assert_eq!(s.score, 18);
        assert_eq!(s.best_move.unwrap().to_string(), "g8");
    }
}
