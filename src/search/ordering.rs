//! Move ordering: a list of options, highest priority first. Each option
//! gives every move a key; moves are sorted by the first option's key, ties
//! broken by the next option's, and so on, and finally by board order
//! (generation order, a1 first). An empty list is plain board order.
//!
//! Ordering never changes the value a full-window search returns, only how
//! many nodes it takes to prove it.

use super::order_by::{OrderBy, MAX_ORDER};
use super::searcher::Searcher;
use super::{Evaluator, SearchGame, INFINITY, MAX_PLY};
use crate::game::cpu::Cpu;
use crate::game::othello::shape::FAST_KEY_RANGE;
use crate::game::MoveList;

/// The node whose moves are sorted, as the options need it: its distance
/// from the root, the plies left and the move its table entry names.
#[derive(Clone, Copy)]
struct SortAt<M> {
    ply: usize,
    depth: u32,
    hash_move: Option<M>,
}

/// Whether a node's moves after the first are in search order yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Rest {
    /// All the moves are in search order.
    Sorted,
    /// The first move is the table's; the others are in board order and
    /// must be sorted (by [`Searcher::sort_rest`]) before they are
    /// searched. Their keys are the ones they would have had before the
    /// first move was searched (see `OrderFlags::hash_first`), so the
    /// search is the same as with every move sorted at once, without the
    /// keys' cost at a node the table's move cuts (as Edax searches the
    /// table's move before it generates the others).
    Unsorted,
}

impl<G: SearchGame, E: Evaluator<G>> Searcher<G, E> {
    /// The legal moves of `pos` (which is not over), in search order, or
    /// (away from the root, under `OrderFlags::hash_first`) the table's
    /// move first and the rest [`Rest::Unsorted`].
    #[inline]
    pub(super) fn ordered_moves<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        moves: &mut MoveList<G::Move>,
        ply: usize,
        depth: u32,
        hash_move: Option<G::Move>,
    ) -> Rest {
        cpu.run(
            #[inline(always)]
            move || {
                moves.clear();
                pos.generate_moves(moves);
                let sorts = self.flags.any && moves.len() > 1;
                if sorts && ply > 0 && self.flags.hash_first {
                    if let Some(i) = hash_move.and_then(|h| moves.position(h)) {
                        moves.move_to_front(i);
                        return Rest::Unsorted;
                    }
                }
                if sorts {
                    let at = SortAt {
                        ply,
                        depth,
                        hash_move,
                    };
                    self.sort_moves(cpu, pos, moves, 0, at);
                }
                let first = if ply == 0 { self.root_first } else { None };
                if let Some(i) = first.and_then(|f| moves.position(f)) {
                    moves.move_to_front(i);
                }
                Rest::Sorted
            },
        )
    }

    /// Puts the moves after the first in search order, if `rest` says they
    /// are not yet (the table's move, first, keys them all as 0).
    #[inline(always)]
    pub(super) fn sort_rest<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        moves: &mut MoveList<G::Move>,
        rest: Rest,
        ply: usize,
        depth: u32,
    ) {
        if rest == Rest::Unsorted {
            let at = SortAt {
                ply,
                depth,
                hash_move: None,
            };
            self.sort_moves(cpu, pos, moves, 1, at);
        }
    }

    /// Sorts `moves` from the `from`-th on by the configured options (see
    /// the module docs); the moves before it stay where they are.
    fn sort_moves<C: Cpu>(
        &mut self,
        cpu: C,
        pos: &G,
        moves: &mut MoveList<G::Move>,
        from: usize,
        at: SortAt<G::Move>,
    ) {
        cpu.run(
            #[inline(always)]
            move || {
                let n = moves.len();
                let depth = at.depth;
                // Each move's keys, packed into one number in priority order (see
                // `packed`), so the sort compares one integer instead of a row of
                // keys: the same order as comparing the rows lexicographically.
                let mut keys = [0u128; crate::game::movelist::MAX_MOVES];
                let options = self.order.len().min(MAX_ORDER);
                // The children of a node of depth 2 or more probe the table
                // as they open: their buckets are asked for first, so that
                // the probes find them in the cache (a hint: the search is
                // the same without it).
                if let Some(tt) = self.tt.as_deref().filter(|_| depth >= 2) {
                    for i in from..n {
                        tt.prefetch(pos.hash_after(cpu, moves.get(i)));
                    }
                }
                for (i, key) in keys.iter_mut().enumerate().take(n).skip(from) {
                    let mv = moves.get(i);
                    for k in 0..options {
                        let opt = self.order[k];
                        *key = push(*key, opt, self.order_key(cpu, opt, pos, mv, at));
                    }
                }
                // Insertion sort, stable: ties keep board order.
                let list = moves.as_mut_slice();
                for i in from + 1..n {
                    let (mv, key) = (list[i], keys[i]);
                    let mut j = i;
                    while j > from && keys[j - 1] < key {
                        list[j] = list[j - 1];
                        keys[j] = keys[j - 1];
                        j -= 1;
                    }
                    list[j] = mv;
                    keys[j] = key;
                }
            },
        )
    }

    /// The key option `opt` gives `mv` (higher is searched first).
    #[inline]
    fn order_key<C: Cpu>(
        &mut self,
        cpu: C,
        opt: OrderBy,
        pos: &G,
        mv: G::Move,
        SortAt {
            ply,
            depth,
            hash_move,
        }: SortAt<G::Move>,
    ) -> i32 {
        match opt {
            OrderBy::SquareWeights => G::square_weight(mv),
            OrderBy::HashMove => i32::from(hash_move == Some(mv)),
            OrderBy::Killers => {
                let killers = self.killers[ply.min(MAX_PLY - 1)];
                if killers[0] == Some(mv) {
                    2
                } else {
                    i32::from(killers[1] == Some(mv))
                }
            }
            OrderBy::History => {
                let side = usize::from(pos.first_player_to_move());
                self.history[side][G::move_slot(mv)].min(i32::MAX as u32) as i32
            }
            OrderBy::FastestFirst => -(pos.replies_after(cpu, mv) as i32),
            OrderBy::ShallowSearch if depth >= 3 => {
                let child = pos.play_on(cpu, mv);
                -self.alphabeta_soft_on(cpu, &child, -INFINITY, INFINITY, (depth - 1) / 3, ply + 1)
            }
            OrderBy::ShallowSearch => 0,
            OrderBy::EdaxFast => pos.edax_fast_key(cpu, mv),
        }
    }
}

/// `packed` keys so far with option `opt`'s `key` appended as the least
/// significant field.
#[inline(always)]
fn push(packed_keys: u128, opt: OrderBy, key: i32) -> u128 {
    let (bits, field) = packed(opt, key);
    packed_keys << bits | field
}

/// Option `opt`'s key as an unsigned field of the packed key: its width in
/// bits and its value, mapped so that the fields compare as the keys do.
/// The widths add up to 127 bits for all seven options, within a `u128`.
#[inline(always)]
fn packed(opt: OrderBy, key: i32) -> (u32, u128) {
    // FastestFirst's 7 bits hold 0 to 64 moves.
    const _: () = assert!(crate::game::movelist::MAX_MOVES <= 64);
    let (bits, field) = match opt {
        // 0 or 1.
        OrderBy::HashMove => (1, key as u128),
        // 0 to 2.
        OrderBy::Killers => (2, key as u128),
        // 0 to i32::MAX (the history is capped there).
        OrderBy::History => (31, key as u128),
        // Minus a move count, at most MAX_MOVES (64): 0 to 64 upwards.
        OrderBy::FastestFirst => (7, (key + 64) as u128),
        // Any i32, its sign bit flipped: the unsigned order is the signed one.
        OrderBy::SquareWeights | OrderBy::ShallowSearch => (32, u128::from(key as u32 ^ 1 << 31)),
        // Edax's key, within `FAST_KEY_RANGE` (2,131,875 values), from its
        // least: 0 to under 2^22 upwards.
        OrderBy::EdaxFast => (22, (i64::from(key) - i64::from(FAST_KEY_RANGE.0)) as u128),
    };
    debug_assert!(field >> bits == 0, "{opt:?} key {key} out of its range");
    (bits, field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::{random_game, Mobility};
    use crate::search::{search, Fail, Limit, SearchSettings, Variant};
    use proptest::prelude::*;

    /// A row of keys as `order_key` can give them for [`OrderBy::ALL`],
    /// in range.
    fn row() -> impl Strategy<Value = [i32; MAX_ORDER]> {
        (
            any::<i32>(),
            0..=1i32,
            0..=2i32,
            0..=i32::MAX,
            -64..=0i32,
            any::<i32>(),
            FAST_KEY_RANGE.0..=FAST_KEY_RANGE.1,
        )
            .prop_map(|(sq, h, k, hist, ff, sh, ef)| [sq, h, k, hist, ff, sh, ef])
    }

    fn pack(order: &[usize], keys: &[i32; MAX_ORDER]) -> u128 {
        order.iter().fold(0, |acc, &k| {
            let (opt, key) = (OrderBy::ALL[k], keys[k]);
            let (bits, field) = packed(opt, key);
            assert!(field >> bits == 0, "{opt:?} {key} fits {bits} bits");
            push(acc, opt, key)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 8 } else { 64 }))]

        /// Sorting a node's other moves only once its table move has not
        /// cut (`Rest::Unsorted`) is the same search as sorting them all
        /// before it: the same nodes, counters, score, move and PV, for
        /// every alpha-beta variant, with the orders that allow it.
        #[test]
        fn sorting_after_the_table_move_is_the_same_search(
            seed in any::<u64>(),
            plies in 0u32..58,
            depth in 1u32..=7,
            which in 0usize..3,
            aspiration in proptest::option::of(20i32..80),
        ) {
            let orders = [
                vec![OrderBy::HashMove, OrderBy::FastestFirst, OrderBy::Killers],
                vec![OrderBy::HashMove, OrderBy::Killers, OrderBy::SquareWeights],
                vec![OrderBy::HashMove, OrderBy::EdaxFast],
            ];
            let pos = random_game(seed, |_, n| n >= plies);
            for variant in [Variant::Pvs, Variant::AlphaBeta { fail: Fail::Soft }, Variant::AlphaBeta { fail: Fail::Hard }, Variant::MtdF] {
                let settings = SearchSettings {
                    time: crate::search::limits::TimeUse::default(),
                    variant,
                    deepening: true,
                    aspiration,
                    limit: Limit::Depth(depth),
                };
                let mut late = Searcher::new(Mobility, 1, orders[which].clone());
                prop_assert!(late.flags.hash_first);
                let mut at_once = Searcher::new(Mobility, 1, orders[which].clone());
                at_once.flags.hash_first = false;
                let a = search(&mut late, &pos, &settings, None, 30);
                let b = search(&mut at_once, &pos, &settings, None, 30);
                prop_assert_eq!(a.stats, b.stats, "{:?}", variant);
                prop_assert_eq!((a.score, a.best_move, &a.pv), (b.score, b.best_move, &b.pv));
            }
        }

        /// Packed keys compare as the rows of keys do, lexicographically,
        /// for any priority order of the options (and so sort the same).
        #[test]
        fn packed_keys_compare_as_rows_of_keys(
            a in row(),
            b in row(),
            order in Just((0..MAX_ORDER).collect::<Vec<_>>()).prop_shuffle(),
            same in any::<[bool; MAX_ORDER]>(),
        ) {
            // Many equal fields, so that later options decide.
            let b: [i32; MAX_ORDER] = std::array::from_fn(|k| if same[k] { a[k] } else { b[k] });
            let rows = |x: &[i32; MAX_ORDER]| order.iter().map(|&k| x[k]).collect::<Vec<_>>();
            prop_assert_eq!(pack(&order, &a).cmp(&pack(&order, &b)), rows(&a).cmp(&rows(&b)));
        }
    }
}
