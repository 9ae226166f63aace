//! Generating books: every position reachable from the start in exactly N
//! plies, optionally one per symmetry class, optionally filtered (balanced
//! books: `lab::balanced::Balance` keeps an opening when a search scores it
//! near 0) and optionally sampled with a seed.
//!
//! A filtered book is made in four steps: enumerate, optionally sample the
//! candidates a slow filter will see ([`GenerateOptions::candidates`]),
//! filter them on every core ([`filter_openings`]), then optionally sample
//! the kept ones ([`GenerateOptions::limit`]). [`generate`] runs them all;
//! [`candidates`], [`filter_openings`] and [`limit_kept`] are the same
//! steps for a caller that shows a progress bar sized to the candidates.
//!
//! Enumeration goes ply by ply and keeps one node per distinct position (or
//! symmetry class) at each ply, so it costs the number of distinct positions,
//! not the number of move lists. Each node's move list is the first in
//! lexicographic order (`c4c3` before `c4c5` before `d3c3`) of all the move
//! lists reaching it: parents are visited in lexicographic order of their
//! lists and each parent's moves in lexicographic order, so the first list to
//! reach a position (or class) is the smallest. Because children of
//! symmetric positions are symmetric, the same holds for classes: the
//! smallest list into a class extends the smallest list into one of the
//! classes before it.

use super::symmetry::canonical;
use crate::game::othello::bitboard::Bits;
use crate::game::othello::symmetry::transpose;
use crate::game::othello::{Board, Move, Square};
use crate::game::Game;
use crate::rng::SplitMix64;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The deepest book [`generate`] makes. Memory grows with the number of
/// distinct positions (about 32 bytes plus a hash entry each): a few
/// million at 10 plies.
pub const MAX_PLIES: u32 = 10;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Plies from the start position, 1 to [`MAX_PLIES`].
    pub plies: u32,
    /// Keep one opening per class of positions equal up to the 8 board
    /// symmetries (the first move list in lexicographic order).
    pub unique_by_symmetry: bool,
    /// Keep a sample of this many openings (all of them when there are not
    /// more); with a filter, a sample of the kept ones.
    pub limit: Option<usize>,
    /// With a filter, run it only on a sample of this many enumerated
    /// openings (all of them when there are not more), chosen with `seed`
    /// before filtering: a slow filter (a deep search per opening) then
    /// costs this many searches, not one per enumerated opening. Ignored
    /// without a filter.
    pub candidates: Option<usize>,
    /// Seed of the samples ([`SplitMix64`]; see [`sample`]): both the
    /// candidates and the limit use it.
    pub seed: u64,
    /// Threads for the filter; 0 means every available core.
    pub threads: usize,
}

impl GenerateOptions {
    /// Every opening of `plies` plies, no symmetry reduction, no sample.
    pub fn new(plies: u32) -> GenerateOptions {
        GenerateOptions {
            plies,
            unique_by_symmetry: false,
            limit: None,
            candidates: None,
            seed: 0,
            threads: 0,
        }
    }
}

/// A predicate on an enumerated opening (its position and its move list):
/// `true` keeps it. [`generate`] calls it from several threads at once, in
/// no particular order, once per candidate opening (every enumerated one
/// unless [`GenerateOptions::candidates`] samples them); a progress bar can be
/// ticked from inside it. A filter that needs mutable state per thread goes
/// through [`filter_openings`] instead.
pub type Filter<'a> = dyn Fn(&Board, &[Move]) -> bool + Sync + 'a;

/// One generated opening.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GeneratedOpening {
    /// The moves from the start position.
    pub moves: Vec<Move>,
    /// The position they reach.
    pub board: Board,
}

/// The result of [`generate`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Generated {
    /// Openings enumerated (distinct positions, or classes).
    pub enumerated: usize,
    /// Openings given to the filter: every enumerated one, or the sample of
    /// [`GenerateOptions::candidates`] (`enumerated` without a filter).
    pub candidates: usize,
    /// Openings the filter kept (`enumerated` without a filter).
    pub kept: usize,
    /// The openings written: the kept ones, or a sample of them, in
    /// lexicographic order of their move lists.
    pub openings: Vec<GeneratedOpening>,
}

/// A bad generation request.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GenerateError {
    /// Plies outside `1..=MAX_PLIES`.
    #[error("plies {plies} is out of range: give 1 to {MAX_PLIES}")]
    Plies {
        /// The value asked for.
        plies: u32,
    },
}

/// Generates a book: enumerates ([`enumerate`]), with a filter samples the
/// candidates ([`GenerateOptions::candidates`]) and filters them
/// ([`filter_openings`] on `opts.threads` threads), then samples the kept
/// ones ([`limit_kept`]). A caller that wants a progress bar sized to the
/// number of candidates, or a filter with per-thread state, calls
/// [`candidates`], [`filter_openings`] and [`limit_kept`] itself.
///
/// # Errors
/// [`GenerateError::Plies`] when `opts.plies` is 0 or above [`MAX_PLIES`].
pub fn generate(
    opts: &GenerateOptions,
    filter: Option<&Filter<'_>>,
) -> Result<Generated, GenerateError> {
    let Some(f) = filter else {
        let all = enumerate_checked(opts)?;
        let enumerated = all.len();
        return Ok(limit_kept(opts, enumerated, enumerated, all));
    };
    let (enumerated, candidates) = candidates(opts)?;
    let searched = candidates.len();
    let kept = filter_openings(candidates, || f, opts.threads);
    Ok(limit_kept(opts, enumerated, searched, kept))
}

fn enumerate_checked(opts: &GenerateOptions) -> Result<Vec<GeneratedOpening>, GenerateError> {
    if opts.plies == 0 || opts.plies > MAX_PLIES {
        return Err(GenerateError::Plies { plies: opts.plies });
    }
    Ok(enumerate(
        Board::start(),
        opts.plies,
        opts.unique_by_symmetry,
    ))
}

/// The first steps of a filtered [`generate`]: the number of enumerated
/// openings and the candidates for the filter, which are all of them, or
/// with `opts.candidates` a [`sample`] of that many chosen with
/// `opts.seed`, in lexicographic order of their move lists.
///
/// # Errors
/// [`GenerateError::Plies`] when `opts.plies` is 0 or above [`MAX_PLIES`].
pub fn candidates(opts: &GenerateOptions) -> Result<(usize, Vec<GeneratedOpening>), GenerateError> {
    let all = enumerate_checked(opts)?;
    let enumerated = all.len();
    let chosen = match opts.candidates {
        Some(m) if m < all.len() => sample(all, m, opts.seed),
        _ => all,
    };
    Ok((enumerated, chosen))
}

/// The last step of [`generate`]: the kept openings, or with `opts.limit`
/// a [`sample`] of that many chosen with `opts.seed`; `enumerated` and
/// `candidates` are recorded in the result as given.
pub fn limit_kept(
    opts: &GenerateOptions,
    enumerated: usize,
    candidates: usize,
    kept: Vec<GeneratedOpening>,
) -> Generated {
    let n_kept = kept.len();
    let openings = match opts.limit {
        Some(k) if k < kept.len() => sample(kept, k, opts.seed),
        _ => kept,
    };
    Generated {
        enumerated,
        candidates,
        kept: n_kept,
        openings,
    }
}

/// Keeps the openings a filter accepts, in their order, on `threads`
/// threads (0: every core). Each thread calls `make_filter` once and owns
/// the filter it returns, so a filter may hold mutable state (a search with
/// its transposition table); threads take the next opening as they finish
/// one, so slow openings do not leave a thread idle. The result does not
/// depend on the threads if the filter's verdict depends only on the
/// opening (clear a search's table between openings to make sure).
///
/// This is the slow step of a balanced book: tick a progress bar of
/// `all.len()` from inside the filter.
pub fn filter_openings<M, F>(
    all: Vec<GeneratedOpening>,
    make_filter: M,
    threads: usize,
) -> Vec<GeneratedOpening>
where
    M: Fn() -> F + Sync,
    F: FnMut(&Board, &[Move]) -> bool,
{
    let threads = crate::util::par::threads(threads);
    let keep = crate::util::par::parallel_map_with(&all, threads, make_filter, |filter, o| {
        filter(&o.board, &o.moves)
    });
    all.into_iter()
        .zip(keep)
        .filter_map(|(o, k)| k.then_some(o))
        .collect()
}

/// `k` of `openings` chosen by seed, in their original order: shuffle the
/// indexes `0..len` with [`SplitMix64::shuffle`] seeded by `seed`, take the
/// first `k`, sort them. Fixed forever, so a book's header command
/// regenerates it exactly.
pub fn sample(openings: Vec<GeneratedOpening>, k: usize, seed: u64) -> Vec<GeneratedOpening> {
    let mut idx: Vec<usize> = (0..openings.len()).collect();
    SplitMix64::new(seed).shuffle(&mut idx);
    let mut chosen = vec![false; openings.len()];
    for &i in idx.iter().take(k) {
        chosen[i] = true;
    }
    openings
        .into_iter()
        .zip(chosen)
        .filter_map(|(o, c)| c.then_some(o))
        .collect()
}

/// A node of the enumeration: a position, its parent at the previous ply and
/// the move from there.
#[derive(Clone, Copy)]
struct Node {
    board: Board,
    parent: u32,
    mv: Move,
}

/// A multiply-rotate hasher for boards (whose bits are already well spread);
/// much faster than SipHash here, and the sets are not exposed to input.
#[derive(Default)]
struct BoardHasher(u64);

impl Hasher for BoardHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(crate::rng::GOLDEN);
    }
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
}

type BoardSet = HashSet<Board, BuildHasherDefault<BoardHasher>>;

/// The children of `board` in lexicographic order of their move: squares
/// by column then row (`c3` < `c4` < `d3`), or the pass when the side to
/// move has no square; none when the game is over.
fn children(board: &Board, mut visit: impl FnMut(Move, Board)) {
    let moves = board.moves();
    if moves != 0 {
        // Transposed, bit index = column * 8 + row: lexicographic order.
        for t in Bits(transpose(moves)) {
            let mv = Move::square(Square::from_coords((t / 8) as u8, (t % 8) as u8));
            visit(mv, board.play_unchecked(mv));
        }
    } else if !board.is_over() {
        visit(Move::PASS, board.passed());
    }
}

/// Every position reachable from `start` in exactly `plies` plies (a pass
/// counts as a ply; finished games end their line), each with the first move
/// list in lexicographic order reaching it; with `unique_by_symmetry`, one
/// per class of positions equal up to the 8 board symmetries. The result is
/// in lexicographic order of the move lists.
pub fn enumerate(start: Board, plies: u32, unique_by_symmetry: bool) -> Vec<GeneratedOpening> {
    let mut levels: Vec<Vec<Node>> = vec![vec![Node {
        board: start,
        parent: 0,
        mv: Move::PASS,
    }]];
    for _ in 0..plies {
        let parents = levels.last().map_or(&[][..], Vec::as_slice);
        let mut seen = BoardSet::with_capacity_and_hasher(parents.len() * 4, Default::default());
        let mut next = Vec::with_capacity(parents.len() * 4);
        for (i, parent) in parents.iter().enumerate() {
            children(&parent.board, |mv, board| {
                let key = if unique_by_symmetry {
                    canonical(&board).0
                } else {
                    board
                };
                if seen.insert(key) {
                    next.push(Node {
                        board,
                        parent: i as u32,
                        mv,
                    });
                }
            });
        }
        levels.push(next);
    }
    let Some(last) = levels.last() else {
        return Vec::new();
    };
    last.iter()
        .map(|node| {
            let mut moves = vec![Move::PASS; plies as usize];
            let (mut n, mut depth) = (*node, plies as usize);
            while depth > 0 {
                moves[depth - 1] = n.mv;
                depth -= 1;
                n = levels[depth][n.parent as usize];
            }
            GeneratedOpening {
                moves,
                board: node.board,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::notation::move_list_string;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn counts_and_order() {
        let count = |p, s| enumerate(Board::start(), p, s).len();
        assert_eq!(
            (1..=4).map(|p| count(p, false)).collect::<Vec<_>>(),
            [4, 12, 54, 236]
        );
        assert_eq!(
            (1..=4).map(|p| count(p, true)).collect::<Vec<_>>(),
            [1, 3, 14, 60]
        );
        let two: Vec<String> = enumerate(Board::start(), 2, true)
            .iter()
            .map(|o| move_list_string(&o.moves))
            .collect();
        assert_eq!(two, ["c4c3", "c4c5", "c4e3"]);
        let lists: Vec<String> = enumerate(Board::start(), 5, false)
            .iter()
            .map(|o| move_list_string(&o.moves))
            .collect();
        assert!(lists.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn filter_and_sample() {
        let mut opts = GenerateOptions::new(3);
        let even = |b: &Board, _: &[Move]| b.player.count_ones().is_multiple_of(2);
        let g = generate(&opts, Some(&even)).unwrap();
        assert_eq!(g.enumerated, 54);
        assert!(g.kept < 54 && g.kept == g.openings.len());
        opts.limit = Some(10);
        opts.seed = 5;
        let a = generate(&opts, None).unwrap();
        assert_eq!((a.kept, a.openings.len()), (54, 10));
        assert_eq!(a, generate(&opts, None).unwrap());
        opts.seed = 6;
        assert_ne!(a.openings, generate(&opts, None).unwrap().openings);
        assert!(generate(&GenerateOptions::new(0), None).is_err());

        // Per-thread mutable state, any number of threads, same result.
        let all = enumerate(Board::start(), 4, false);
        let run = |threads| {
            let made = AtomicUsize::new(0);
            let kept = filter_openings(
                all.clone(),
                || {
                    made.fetch_add(1, Ordering::Relaxed);
                    let mut seen = HashSet::new();
                    move |b: &Board, _: &[Move]| {
                        assert!(seen.insert(*b), "each opening is filtered once");
                        b.opponent.count_ones() > 4
                    }
                },
                threads,
            );
            (kept, made.into_inner())
        };
        let (one, made1) = run(1);
        let (three, made3) = run(3);
        assert_eq!(one, three);
        assert_eq!((made1, made3), (1, 3));
        assert!(!one.is_empty() && one.len() < all.len());
    }

    #[test]
    fn candidates_are_sampled_before_the_filter() {
        let mut opts = GenerateOptions::new(4);
        opts.candidates = Some(30);
        opts.seed = 9;
        let seen = AtomicUsize::new(0);
        let every = |_: &Board, _: &[Move]| {
            seen.fetch_add(1, Ordering::Relaxed);
            true
        };
        let g = generate(&opts, Some(&every)).unwrap();
        assert_eq!(
            (g.enumerated, g.candidates, g.kept, g.openings.len()),
            (236, 30, 30, 30)
        );
        assert_eq!(seen.load(Ordering::Relaxed), 30);
        assert_eq!(
            g.openings,
            sample(enumerate(Board::start(), 4, false), 30, 9)
        );
        // Then the limit samples the kept ones.
        opts.limit = Some(7);
        let h = generate(&opts, Some(&every)).unwrap();
        assert_eq!((h.kept, h.openings), (30, sample(g.openings, 7, 9)));
        // Without a filter there is nothing to sample candidates for.
        opts.limit = None;
        let all = generate(&opts, None).unwrap();
        assert_eq!((all.candidates, all.openings.len()), (236, 236));
    }
}
