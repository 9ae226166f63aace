//! The solver's move ordering, written like Edax's: the table's move first,
//! then fewest opponent replies (corners counted twice), own corner
//! stability, fewest empties next to own discs, square value and parity;
//! from [`EVAL_SORT`](super::EVAL_SORT) empties, when the solver has an
//! evaluation, a shallow alpha-beta search of the position after each move.

use super::last::final_score;
use super::leaves::{with_leaves, Leaves, NoEval};
use super::{Discs, Solver, ETC_DEPTH, INF_CENTI, SMALL};
use crate::game::cpu::Cpu;
use crate::game::othello::bitboard::Bits;
use crate::game::othello::hash::mixed;
use crate::game::othello::shape::{fast_key, odd_quadrants, CORNERS};
use crate::game::othello::Ops;

/// Discs below alpha beyond which the ordering search does not tell moves
/// apart (Edax's sort window).
const SORT_DELTA: i32 = 8;

/// A node's moves in order: room for every empty square, so no position
/// overflows it, and nothing written before a move is (a list of 32
/// zeroed entries cost null-window nodes 4% of the solver's time).
pub(super) type Moves = arrayvec::ArrayVec<Scored, 64>;

/// A move and its ordering key.
#[derive(Clone, Copy, Default)]
pub(super) struct Scored {
    pub(super) sq: u8,
    pub(super) flips: u64,
    key: i32,
}

/// What ordering a node's moves needs to know of the node.
#[derive(Clone, Copy)]
pub(super) struct ToOrder {
    /// The position.
    pub(super) d: Discs,
    /// The moves to order.
    pub(super) moves: u64,
    /// Its empties.
    pub(super) n: u32,
    /// The move its table entry names, searched first.
    pub(super) hash_move: Option<u8>,
    /// Whether it is a PV node (deeper ordering searches).
    pub(super) pv: bool,
    /// Its alpha (moves refuted by far need no close order).
    pub(super) alpha: i32,
}

impl ToOrder {
    /// A PV node's moves: `moves` of `d` at `n` empties.
    #[inline(always)]
    pub(super) fn pv(d: Discs, moves: u64, n: u32, hash_move: Option<u8>, alpha: i32) -> ToOrder {
        ToOrder {
            d,
            moves,
            n,
            hash_move,
            pv: true,
            alpha,
        }
    }

    /// A null-window node's moves, as [`ToOrder::pv`].
    #[inline(always)]
    pub(super) fn null(d: Discs, moves: u64, n: u32, hash_move: Option<u8>, alpha: i32) -> ToOrder {
        ToOrder {
            pv: false,
            ..ToOrder::pv(d, moves, n, hash_move, alpha)
        }
    }
}

impl Solver {
    /// Fills `list` (empty) with the moves of `at`, best first.
    #[inline]
    pub(super) fn order<C: Cpu>(&mut self, cpu: C, at: ToOrder, list: &mut Moves) {
        let mut nodes = 0;
        let (Discs { p, o }, n) = (at.d, at.n);
        // The evaluation is chosen inside the code path's function, so
        // that the whole ordering, its state included, is compiled for it.
        cpu.run(
            #[inline(always)]
            || match self.eval.as_ref().filter(|_| n >= self.eval_from) {
                Some(eval) => with_leaves!(eval, p, o, |leaves, state| {
                    self.order_by(cpu, Some((leaves, state)), at, list, &mut nodes)
                }),
                None => self.order_by(cpu, None::<(&NoEval, ())>, at, list, &mut nodes),
            },
        );
        self.nodes += nodes;
    }

    /// [`Solver::order`] with `leaves` (the evaluation and the position's
    /// state for it) when the ordering searches run, counting their nodes
    /// in `nodes`.
    #[inline(always)]
    fn order_by<C: Cpu, L: Leaves>(
        &self,
        cpu: C,
        leaves: Option<(&L, L::State)>,
        at: ToOrder,
        list: &mut Moves,
        nodes: &mut u64,
    ) {
        let ToOrder {
            d: Discs { p, o },
            moves,
            n,
            hash_move,
            pv,
            alpha,
        } = at;
        let empty = !(p | o);
        let odd = odd_quadrants(empty);
        for sq in Bits(moves) {
            let f = cpu.flips(sq, p, o);
            let bit = 1u64 << sq;
            let (np, no) = (o ^ f, p ^ f ^ bit);
            let replies = cpu.legal_moves(np, no);
            // Below ETC_DEPTH nothing else asks for the children's
            // table buckets ahead of their probes: asked for here.
            if n > SMALL + 1 && n < ETC_DEPTH {
                self.table(n - 1).prefetch(mixed(np, no));
            }
            let mut key = fast_key(sq, replies, no, empty, odd);
            if hash_move == Some(sq as u8) {
                // First whatever the rest say: no ordering search.
                key = i32::MAX;
            } else if let Some((e, state)) = &leaves {
                // Edax's ordering at high empties: a shallow search of the
                // position after the move, one ply deeper every three
                // empties from 14 (two more at PV nodes, one less when the
                // table names a move to try first), scored by the
                // evaluation and worth a quarter (depth 0), half (1-2) or
                // one (3+) opponent reply per disc.
                let mut depth = (n.saturating_sub(14) / 3 + if pv { 2 } else { 0 }).min(8);
                if hash_move.is_some() {
                    depth = depth.saturating_sub(1);
                }
                let child = e.child(state, sq, f);
                key -= sort_bonus(cpu, *e, &child, nodes, (np, no, replies), depth, alpha);
            }
            // Insertion by key, stable.
            let new = Scored {
                sq: sq as u8,
                flips: f,
                key,
            };
            list.push(new);
            let list = list.as_mut_slice();
            let mut j = list.len() - 1;
            while j > 0 && list[j - 1].key < key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = new;
        }
    }

    /// Alpha-beta value (centidiscs, fail-soft) of `p` to move at `depth`
    /// with the ordering evaluation at the leaves: the move-ordering search.
    pub(super) fn shallow<C: Cpu>(
        &mut self,
        cpu: C,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut nodes = 0;
        let v = cpu.run(
            #[inline(always)]
            || {
                let moves = cpu.legal_moves(p, o);
                let at = (p, o, moves);
                let window = (depth, alpha, beta);
                match &self.eval {
                    Some(eval) => with_leaves!(eval, p, o, |leaves, state| {
                        shallow_by(cpu, leaves, &mut nodes, at, &state, window)
                    }),
                    None => shallow_by(cpu, &NoEval, &mut nodes, at, &(), window),
                }
            },
        );
        self.nodes += nodes;
        v
    }
}

/// What the ordering search takes off the key of the move to `(np, no)`
/// (`replies` the opponent's moves there, `state` its state for `leaves`):
/// its value at `depth`, worth a quarter (depth 0), half (1-2) or one (3+)
/// opponent reply per disc. At depth 0 the position is evaluated here,
/// with the replies already known (the same value and node count as
/// [`shallow_by`]).
#[inline(always)]
fn sort_bonus<C: Cpu, L: Leaves>(
    cpu: C,
    leaves: &L,
    state: &L::State,
    nodes: &mut u64,
    (np, no, replies): (u64, u64, u64),
    depth: u32,
    alpha: i32,
) -> i32 {
    let v = if depth == 0 && replies != 0 {
        *nodes += 1;
        leaves.value(cpu, state, np, no, replies, cpu.legal_moves(no, np))
    } else {
        // Only moves within SORT_DELTA discs of alpha need a close
        // order: a reply that refutes a move by more is a cutoff.
        let refuted = -(alpha - SORT_DELTA).max(-64) * 100;
        shallow_by(
            cpu,
            leaves,
            nodes,
            (np, no, replies),
            state,
            (depth, -INF_CENTI, refuted),
        )
    };
    let per_disc = match depth {
        0 => 1 << 13,
        1 | 2 => 1 << 14,
        _ => 1 << 15,
    };
    // Clamped to the range of real scores, so no key overflows.
    (i64::from(v.clamp(-6400, 6400)) * per_disc / 100) as i32
}

/// Alpha-beta value (centidiscs, fail-soft) of `p` to move against `o`,
/// whose moves are `moves` and state for `leaves` is `state`, at `depth`
/// in the window `(alpha, beta)`, counting its nodes in `nodes`. From
/// depth 2 the moves are tried fewest opponent replies first (as the
/// solver orders its own): in the cut model's null-window tests a move
/// that holds is found sooner, and one with few replies is the cheaper to
/// prove.
fn shallow_by<C: Cpu, L: Leaves>(
    cpu: C,
    leaves: &L,
    nodes: &mut u64,
    (p, o, moves): (u64, u64, u64),
    state: &L::State,
    (depth, mut alpha, beta): (u32, i32, i32),
) -> i32 {
    cpu.run(
        #[inline(always)]
        move || {
            *nodes += 1;
            if moves == 0 {
                let theirs = cpu.legal_moves(o, p);
                if theirs == 0 {
                    return final_score(p, o) * 100;
                }
                let passed = leaves.passed(state);
                return -shallow_by(
                    cpu,
                    leaves,
                    nodes,
                    (o, p, theirs),
                    &passed,
                    (depth, -beta, -alpha),
                );
            }
            if depth == 0 {
                return leaves.value(cpu, state, p, o, moves, cpu.legal_moves(o, p));
            }
            let mut best = -INF_CENTI;
            if depth == 1 || moves & (moves - 1) == 0 {
                for sq in Bits(moves) {
                    let f = cpu.flips(sq, p, o);
                    let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                    let replies = cpu.legal_moves(np, no);
                    let child = leaves.child(state, sq, f);
                    let at = (np, no, replies);
                    let v = -shallow_by(cpu, leaves, nodes, at, &child, (depth - 1, -beta, -alpha));
                    if raise(&mut best, &mut alpha, v, beta) {
                        break;
                    }
                }
                return best;
            }
            for &(_, sq, np, no, replies) in &by_fewest_replies(cpu, p, o, moves) {
                // The flips are what changed on the opponent's side.
                let child = leaves.child(state, sq, np ^ o);
                let at = (np, no, replies);
                let v = -shallow_by(cpu, leaves, nodes, at, &child, (depth - 1, -beta, -alpha));
                if raise(&mut best, &mut alpha, v, beta) {
                    break;
                }
            }
            best
        },
    )
}

/// The moves `moves` of `p` against `o`, each as (key, square, child discs,
/// its moves), fewest weighted replies (corners counted twice) first, and
/// in square order among equals.
#[inline(always)]
fn by_fewest_replies<C: Cpu>(
    cpu: C,
    p: u64,
    o: u64,
    moves: u64,
) -> arrayvec::ArrayVec<(u32, usize, u64, u64, u64), 64> {
    let mut list = arrayvec::ArrayVec::<(u32, usize, u64, u64, u64), 64>::new();
    for sq in Bits(moves) {
        let f = cpu.flips(sq, p, o);
        let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
        let replies = cpu.legal_moves(np, no);
        let key = replies.count_ones() + (replies & CORNERS).count_ones();
        let new = (key, sq, np, no, replies);
        list.push(new);
        let list = list.as_mut_slice();
        let mut j = list.len() - 1;
        while j > 0 && list[j - 1].0 > key {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = new;
    }
    list
}

/// A child's value `v` in a fail-soft alpha-beta loop: raises the best
/// value and alpha; true when it reaches `beta` (a cutoff).
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, v: i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain negamax with the evaluation at the leaves (no pruning, moves
    /// by square), as the value the ordered alpha-beta must equal.
    fn negamax(e: &crate::eval::OthelloEval, p: u64, o: u64, depth: u32) -> i32 {
        use crate::game::othello::bitboard::legal_moves;
        use crate::game::othello::ops::flips;
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            return -negamax(e, o, p, depth);
        }
        if depth == 0 {
            return e.evaluate_moves_on(crate::game::cpu::Baseline, p, o, moves, legal_moves(o, p));
        }
        Bits(moves)
            .map(|sq| {
                let f = flips(sq, p, o);
                -negamax(e, o ^ f, p ^ f ^ (1u64 << sq), depth - 1)
            })
            .max()
            .unwrap()
    }

    #[test]
    fn the_shallow_search_is_negamax_at_any_window() {
        let eval = crate::endgame::builtin::order_eval();
        let mut solver = Solver::new(1, Some(eval.clone()));
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut checked = 0;
        while checked < 60 {
            let mut b = crate::game::othello::Board::start();
            let stop = 14 + rng.below(12) as u32;
            while b.empties() > stop && !crate::game::Game::is_over(&b) {
                let mut moves = crate::game::MoveList::new();
                crate::game::Game::generate_moves(&b, &mut moves);
                b = crate::game::Game::play(&b, moves.get(rng.below(moves.len() as u64) as usize));
            }
            let (p, o) = (b.player, b.opponent);
            let depth = checked % 4;
            let want = negamax(&eval, p, o, depth);
            let cpu = crate::game::cpu::Baseline;
            assert_eq!(
                solver.shallow(cpu, p, o, depth, -INF_CENTI, INF_CENTI),
                want
            );
            let crate::eval::OthelloEval::Patterns(patterns) = &eval else {
                panic!("the built-in evaluation is a pattern evaluation");
            };
            for bound in [want - 37, want, want + 1, want + 250] {
                let before = solver.nodes;
                let v = solver.shallow(cpu, p, o, depth, bound - 1, bound);
                assert_eq!(v >= bound, want >= bound, "depth {depth} bound {bound}");
                assert!(if v >= bound { want >= v } else { want <= v }, "fail-soft");
                // The readings carried to the leaves and the board read at
                // each: the same values, the same nodes.
                let moves = crate::game::othello::bitboard::legal_moves(p, o);
                let window = (depth, bound - 1, bound);
                let mut nodes = (0, 0);
                let carried = patterns.root(p, o);
                let by_configs =
                    shallow_by(cpu, patterns, &mut nodes.0, (p, o, moves), &carried, window);
                let by_board = shallow_by(cpu, &eval, &mut nodes.1, (p, o, moves), &(), window);
                assert_eq!((by_configs, nodes.0), (v, solver.nodes - before));
                assert_eq!((by_board, nodes.1), (v, solver.nodes - before));
            }
            checked += 1;
        }
    }
}
