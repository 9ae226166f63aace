//! Instance readings carried from move to move: a search that knows a
//! position's [`Configs`] gets each child's from the move's square and
//! flips alone (a few vector additions), and its evaluation from them,
//! instead of reading the instances off the board again (Edax's
//! `eval_update`, Egaroucid's incremental features).
//!
//! Each instance's index is `own + 2 · theirs`, where `own` reads the side
//! to move's discs of the instance as base-3 digits of 1 and `theirs` the
//! opponent's (see the module docs of [`patterns`](super)); the two are
//! kept apart, so that passing the move to the other side is a swap.

use super::index::{digits, square_digits, INSTANCE_LIST};
use super::set::{FIRST_INSTANCES, FIRST_PATTERNS, INSTANCES, LANES, OFFSETS};
use crate::game::othello::bitboard::Bits;

/// What a disc on each square adds to each instance's reading.
static SQUARE_DIGITS: [[u16; LANES]; 64] = square_digits();

/// Where each instance's pattern table starts in a stage's weights.
const INSTANCE_OFFSET: [u32; INSTANCES] = {
    let mut out = [0u32; INSTANCES];
    let mut j = 0;
    while j < INSTANCES {
        out[j] = OFFSETS[INSTANCE_LIST[j].1] as u32;
        j += 1;
    }
    out
};

/// Every instance's reading of a position, for the side to move and the
/// opponent apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Configs {
    own: [u16; LANES],
    theirs: [u16; LANES],
}

impl Configs {
    /// The readings of `player` to move against `opponent`, read off the
    /// board, for an evaluation of the first `patterns` patterns
    /// ([`Patterns::configs_of`](super::Patterns::configs_of)): the later
    /// patterns' lanes are not read (they start at 0, and the moves after
    /// keep them meaningless), which spares an evaluation without them
    /// their gathers.
    #[inline(always)]
    pub fn of(player: u64, opponent: u64, patterns: usize) -> Configs {
        Configs {
            own: digits(player, patterns),
            theirs: digits(opponent, patterns),
        }
    }

    /// The readings of the position after the side to move plays `sq`,
    /// flipping `flips`, from the new side to move's view.
    #[inline(always)]
    // Plain index loops over whole arrays: the form the compiler turns
    // into vector instructions (measured: iterator forms were 3% slower
    // on the solver).
    #[allow(clippy::needless_range_loop)]
    pub fn after(&self, sq: usize, flips: u64) -> Configs {
        let mut f = [0u16; LANES];
        for s in Bits(flips) {
            let d = &SQUARE_DIGITS[s];
            for j in 0..LANES {
                f[j] = f[j].wrapping_add(d[j]);
            }
        }
        let placed = &SQUARE_DIGITS[sq];
        let mut out = Configs {
            own: [0; LANES],
            theirs: [0; LANES],
        };
        for j in 0..LANES {
            out.own[j] = self.theirs[j].wrapping_sub(f[j]);
            out.theirs[j] = self.own[j].wrapping_add(f[j]).wrapping_add(placed[j]);
        }
        out
    }

    /// The readings after a pass: the same discs, the other side to move.
    #[inline(always)]
    pub fn passed(&self) -> Configs {
        Configs {
            own: self.theirs,
            theirs: self.own,
        }
    }

    /// The sum of the weights in `tables` (a stage's, of the first
    /// `patterns` patterns) of every instance's configuration.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // as in `after`
    pub(super) fn table_sum(&self, tables: &[i16], patterns: usize) -> i32 {
        let mut index = [0u16; LANES];
        for j in 0..LANES {
            index[j] = self.own[j].wrapping_add(self.theirs[j].wrapping_mul(2));
        }
        let weight =
            |j: usize| i32::from(tables[INSTANCE_OFFSET[j] as usize + usize::from(index[j])]);
        let mut sum = 0i32;
        for j in 0..FIRST_INSTANCES {
            sum += weight(j);
        }
        if patterns > FIRST_PATTERNS {
            for j in FIRST_INSTANCES..INSTANCES {
                sum += weight(j);
            }
        }
        sum
    }
}
