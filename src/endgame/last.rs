//! The last empty square, scored without computing any flips (Edax's
//! `count_last_flip`): with one empty square left, every other square is
//! someone's, so the discs a move there flips depend on the mover's discs
//! alone. Each of the four lines through the square is read as one byte
//! (a shift, or a multiplication that gathers a column or a diagonal into
//! one byte) and a table gives the discs flipped along it. The same plain
//! integer code runs on both code paths. Here too, the score of a game
//! that has ended ([`final_score`]).

/// Final score for the side to move with discs `p` against `o`.
#[inline(always)]
pub(super) fn final_score(p: u64, o: u64) -> i32 {
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = 64 - pc - oc;
    match pc.cmp(&oc) {
        std::cmp::Ordering::Greater => pc - oc + e,
        std::cmp::Ordering::Less => pc - oc - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// `FLIPPED[pos][line]`: the discs a move on square `pos` of a line of
/// eight flips when the mover owns the squares of `line` (a byte) and the
/// opponent every other square. A square beyond a short line (a diagonal)
/// reads as the opponent's, and a run of the opponent's discs that reaches
/// the end of the byte without an own disc flips nothing, so those squares
/// never count.
static FLIPPED: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Toward the low bits, then toward the high bits.
            let mut i = pos as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                n += pos as i32 - i - 1;
            }
            let mut j = pos + 1;
            while j < 8 && line >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                n += (j - pos - 1) as i32;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// Where a square's four lines are: masks of its diagonals, its row and
/// column, and its place in each line's byte.
#[derive(Clone, Copy)]
struct Lines {
    /// The a1-h8 direction diagonal through the square.
    diag: u64,
    /// The a8-h1 direction diagonal through the square.
    anti: u64,
    /// Column (0-7), which is the square's place in its row's byte and in
    /// both diagonals' bytes.
    col: u8,
    /// Row (0-7), the square's place in its column's byte.
    row: u8,
}

static LINES: [Lines; 64] = {
    let mut t = [Lines {
        diag: 0,
        anti: 0,
        col: 0,
        row: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let (mut diag, mut anti) = (0u64, 0u64);
        let mut k = 0;
        while k < 64 {
            let (kr, kc) = (k / 8, k % 8);
            if kc - kr == c - r {
                diag |= 1 << k;
            }
            if kc + kr == c + r {
                anti |= 1 << k;
            }
            k += 1;
        }
        t[sq] = Lines {
            diag,
            anti,
            col: c as u8,
            row: r as u8,
        };
        sq += 1;
    }
    t
};

/// Byte `i` of every row's byte summed: a mask whose squares lie in
/// distinct columns (a diagonal) gathered into one byte, bit = column.
#[inline(always)]
fn by_column(bits: u64) -> usize {
    (bits.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Column `col` of `bits` gathered into one byte, bit = row.
#[inline(always)]
fn column(bits: u64, col: u8) -> usize {
    ((bits >> col & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// The discs `player` flips by playing on `sq` when every other square is
/// taken (the opponent has all those that are not `player`'s).
#[inline(always)]
pub(super) fn last_flips(sq: usize, player: u64) -> i32 {
    let l = LINES[sq];
    let (c, r) = (usize::from(l.col), usize::from(l.row));
    let row = (player >> (sq & 56)) as usize & 0xff;
    i32::from(FLIPPED[c][row])
        + i32::from(FLIPPED[r][column(player, l.col)])
        + i32::from(FLIPPED[c][by_column(player & l.diag)])
        + i32::from(FLIPPED[c][by_column(player & l.anti)])
}

/// The exact score with one empty square `sq` left, side to move `p`
/// (the opponent has every other square).
#[inline(always)]
pub(super) fn last_empty(p: u64, sq: usize) -> i32 {
    let diff = 2 * p.count_ones() as i32 - 63;
    let f = last_flips(sq, p);
    if f != 0 {
        return diff + 2 * f + 1;
    }
    let g = last_flips(sq, !p & !(1u64 << sq));
    if g != 0 {
        return diff - 2 * g - 1;
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
    use crate::game::othello::bitboard::flips_rays;

    #[test]
    fn counts_what_the_flip_code_flips_on_full_boards() {
        let mut rng = crate::rng::SplitMix64::new(40);
        for _ in 0..20_000 {
            let sq = rng.below(64) as usize;
            let p = rng.next_u64() & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            assert_eq!(
                last_flips(sq, p),
                flips_rays(sq, p, o).count_ones() as i32,
                "square {sq} player {p:#x}"
            );
        }
    }
}
