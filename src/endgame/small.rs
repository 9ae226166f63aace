//! The solver's small-position code, at [`SMALL`](super::SMALL) empties or
//! fewer: no table, no sorting, moves into odd-parity quadrants first
//! (corners first in each), at three empties the empty squares tried
//! directly (no move generation), two empties solved inline and the last
//! empty square counted directly (`last.rs`).

use super::last::final_score;
use super::last::last_empty;
use super::{Discs, Solver};
use crate::game::cpu::{Avx2, Cpu};
use crate::game::othello::bitboard::Bits;
use crate::game::othello::shape::{odd_quadrants, quadrant_of, CORNERS};
use crate::game::othello::Ops;

impl Solver {
    /// Few empties: no table, no sorting; odd-parity quadrants first; the
    /// stability cutoff as above.
    /// `odd` is `odd_quadrants` of the empty squares, kept up to date from
    /// move to move (a move toggles its own quadrant).
    #[inline]
    pub(super) fn small<C: Cpu>(
        &mut self,
        cpu: C,
        d: Discs,
        alpha: i32,
        beta: i32,
        n: u32,
        odd: u64,
    ) -> i32 {
        match cpu.avx2() {
            // SAFETY: an `Avx2` token exists only where the processor has
            // the features `small_avx2` is compiled for.
            #[allow(unused_unsafe)]
            Some(avx2) => unsafe { self.small_avx2(avx2, d, alpha, beta, n, odd) },
            None => self.small_body(cpu, d, alpha, beta, n, odd),
        }
    }

    /// [`Solver::small`] compiled for AVX2: the recursion calls it
    /// straight, its arguments in registers (see [`crate::game::cpu`]).
    #[cfg_attr(
        target_arch = "x86_64",
        target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")
    )]
    fn small_avx2(&mut self, cpu: Avx2, d: Discs, alpha: i32, beta: i32, n: u32, odd: u64) -> i32 {
        self.small_body(cpu, d, alpha, beta, n, odd)
    }

    /// The body of [`Solver::small`], inlined into each path's function.
    #[inline(always)]
    fn small_body<C: Cpu>(
        &mut self,
        cpu: C,
        Discs { p, o }: Discs,
        mut alpha: i32,
        beta: i32,
        n: u32,
        odd: u64,
    ) -> i32 {
        let empty = !(p | o);
        if n == 2 {
            return self.two_empties(cpu, p, o, alpha, beta, empty);
        }
        self.nodes += 1;
        if n == 1 {
            return last_empty(p, empty.trailing_zeros() as usize);
        }
        // The stability cutoff pays here too (from 4 empties, where the
        // threshold first lets it try): FFO #40-#49 visit 27% fewer nodes.
        if let Some(v) = Self::stability_cut(cpu, p, o, alpha, n) {
            return v;
        }
        // From MOVEGEN_FROM empties the legal moves are generated once and
        // only they are played. With three empties the empty squares
        // themselves are tried (a move is legal when it flips something):
        // with so few that is cheaper, as in Edax; a square next to no
        // opponent disc flips nothing and is skipped at once. Either way
        // the order is odd quadrants first and, in each, corners first,
        // then by square. Corners first is the head of Edax's presorted
        // square order: FFO #40-#49 visit 3.6% fewer nodes. The rest of
        // Edax's order (centre-side squares next, C- and X-squares last),
        // written as a rank look-up, visited 1.4% fewer nodes still but
        // took 1.04x the time; C- and X-squares last as a third group
        // saved nothing.
        let mut best = -65;
        let mut moved = false;
        let candidates = if n >= MOVEGEN_FROM {
            cpu.legal_moves(p, o)
        } else {
            empty
        };
        let (good, rest) = (candidates & CORNERS, candidates & !CORNERS);
        for group in [good & odd, rest & odd, good & !odd, rest & !odd] {
            for sq in Bits(group) {
                if n < MOVEGEN_FROM && NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let f = cpu.flips(sq, p, o);
                if n < MOVEGEN_FROM && f == 0 {
                    continue;
                }
                moved = true;
                let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                let child = Discs::new(np, no);
                let v = if n == 3 {
                    // The child has two empties: solved here, without a call.
                    -self.two_empties(cpu, np, no, -beta, -alpha, empty ^ (1u64 << sq))
                } else {
                    -self.small(cpu, child, -beta, -alpha, n - 1, odd ^ quadrant_of(sq))
                };
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
        if moved {
            return best;
        }
        if cpu.legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        -self.small(cpu, Discs::new(o, p), -beta, -alpha, n, odd)
    }

    /// The value of `p` to move with the two empty squares of `empty`
    /// (window `(alpha, beta)`, fail-soft), without loops or calls: the
    /// lower square first (with two empties both quadrants' parities
    /// agree, so this is the small code's order), each move's reply on
    /// the last square counted directly.
    #[inline(always)]
    fn two_empties<C: Cpu>(
        &mut self,
        cpu: C,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empty: u64,
    ) -> i32 {
        self.nodes += 1;
        let x1 = empty.trailing_zeros() as usize;
        let x2 = 63 - empty.leading_zeros() as usize;
        let mut best = -65;
        if NEIGHBOURS[x1] & o != 0 {
            let f = cpu.flips(x1, p, o);
            if f != 0 {
                self.nodes += 1;
                best = -last_empty(o ^ f, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = cpu.flips(x2, p, o);
            if f != 0 {
                self.nodes += 1;
                return best.max(-last_empty(o ^ f, x1));
            }
        }
        if best > -65 {
            return best;
        }
        if cpu.legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        // The opponent moves again (a node of its own, as every pass).
        -self.small(
            cpu,
            Discs::new(o, p),
            -beta,
            -alpha,
            2,
            odd_quadrants(empty),
        )
    }
}

/// From this many empties the small code generates the legal moves
/// rather than try every empty square: the same moves in the same order,
/// so the same tree. Paired on FFO #40-#49 against trying the squares
/// everywhere: 0.993 from 4 empties (10 rounds), 1.006 from 5 (4 rounds),
/// 1.07 from 3 (4 rounds; one generation costs about as much as the
/// two or three flip tests it replaces).
const MOVEGEN_FROM: u32 = 4;

/// The squares around each square (not the square itself).
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
};
