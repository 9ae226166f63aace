//! Which opening a tournament plays for each pair of games.
//!
//! The book's openings are put in an *order*: file order ([`Order::Sequential`])
//! or a shuffle seeded by the tournament seed ([`Order::Random`]); the order
//! is then rotated so that it begins at the start index. Pair `p` (0-based)
//! plays the opening at position `p mod len` of the rotated order, once with
//! each colour. When a tournament needs more pairs than the book has openings
//! the order starts again from the top; [`OpeningPick::wrapped`] and
//! [`wrap_notice`] let the tournament say so.
//!
//! The shuffle must give the same order on every machine forever, so it uses
//! a fixed, hand-written generator ([`SplitMix64`]) and a fixed algorithm
//! ([`SplitMix64::shuffle`]); tests pin both to exact values. Do not change
//! either: it would change which openings every existing config plays.

/// How a tournament walks through its book.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// File order, from the start index.
    Sequential,
    /// A shuffle seeded by the tournament seed, from the start index.
    Random,
}

/// SplitMix64 (Steele, Lea and Flood 2014; the generator of Java's
/// `SplittableRandom` and the usual seeder of xoshiro): a 64-bit state that
/// advances by the golden-ratio constant, and a mixing function. Small,
/// fast, and good enough for shuffles; not for cryptography.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is the mix of `seed + 0x9E3779B97F4A7C15`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`, without bias (Lemire's multiply-and-shift
    /// with rejection, 2019).
    ///
    /// # Panics
    /// Panics when `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// Shuffles `items` in place: Fisher-Yates from the end, `for i in
    /// (1..len).rev() { swap(i, below(i + 1)) }`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// A bad book order.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum OrderError {
    /// The book has no openings.
    #[error("the book has no openings")]
    EmptyBook,
    /// The start index is past the end of the book.
    #[error("start index {start} is out of range: the book has {len} openings (indexes 0 to {})", len - 1)]
    StartOutOfRange {
        /// The start index.
        start: usize,
        /// The book's length.
        len: usize,
    },
}

/// The opening of one pair.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OpeningPick {
    /// Index of the opening in the book (0-based, file order).
    pub index: usize,
    /// How many times the order had been used up before this pair (0 the
    /// first time through).
    pub cycle: u64,
    /// True when this pair repeats an opening because the tournament has
    /// more pairs than the book has openings (`cycle > 0`).
    pub wrapped: bool,
}

/// A book order, built once per tournament: pair index → opening index.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OpeningOrder {
    /// The opening index at each position of the order, before the rotation.
    permutation: Option<Vec<usize>>,
    len: usize,
    start: usize,
}

impl OpeningOrder {
    /// The order of a book of `len` openings.
    ///
    /// # Errors
    /// [`OrderError::EmptyBook`] when `len == 0`,
    /// [`OrderError::StartOutOfRange`] when `start >= len` (never wrapped
    /// silently: a start index past the end is a config mistake).
    pub fn new(
        len: usize,
        order: Order,
        seed: u64,
        start: usize,
    ) -> Result<OpeningOrder, OrderError> {
        if len == 0 {
            return Err(OrderError::EmptyBook);
        }
        if start >= len {
            return Err(OrderError::StartOutOfRange { start, len });
        }
        let permutation = match order {
            Order::Sequential => None,
            Order::Random => {
                let mut p: Vec<usize> = (0..len).collect();
                SplitMix64::new(seed).shuffle(&mut p);
                Some(p)
            }
        };
        Ok(OpeningOrder {
            permutation,
            len,
            start,
        })
    }

    /// Number of openings in the book.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false (an empty book is refused by [`OpeningOrder::new`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The opening of pair `pair` (0-based).
    pub fn pick(&self, pair: u64) -> OpeningPick {
        let len = self.len as u64;
        let cycle = pair / len;
        let position = ((self.start as u64 + pair % len) % len) as usize;
        let index = self.permutation.as_ref().map_or(position, |p| p[position]);
        OpeningPick {
            index,
            cycle,
            wrapped: cycle > 0,
        }
    }

    /// True when `pairs` pairs need some opening twice.
    pub fn wraps(&self, pairs: u64) -> bool {
        pairs > self.len as u64
    }
}

/// The opening of pair `pair` in a book of `len` openings: a pure function
/// of its arguments (see the module doc). Builds the order each call, so
/// costs O(`len`) for [`Order::Random`]; build an [`OpeningOrder`] once to
/// pick many.
///
/// # Errors
/// As [`OpeningOrder::new`].
pub fn opening_index(
    len: usize,
    order: Order,
    seed: u64,
    start: usize,
    pair: u64,
) -> Result<OpeningPick, OrderError> {
    Ok(OpeningOrder::new(len, order, seed, start)?.pick(pair))
}

/// The message a tournament prints when `pairs` pairs need more openings
/// than the book's `len`; `None` when the book is large enough.
pub fn wrap_notice(len: usize, pairs: u64) -> Option<String> {
    let len64 = len as u64;
    (pairs > len64 && len > 0).then(|| {
        let rounds = pairs.div_ceil(len64);
        format!(
            "the book has {len} openings but the tournament needs {pairs} pairs: \
             after pair {len} the openings start again from the top of the order \
             (each opening is played up to {rounds} times with each colour)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The first outputs for seed 0 and seed 1234567 of the reference
        // implementation (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        let mut r = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821
            ]
        );
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = SplitMix64::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn sequential_rotates_and_wraps() {
        let o = OpeningOrder::new(5, Order::Sequential, 99, 3).unwrap();
        let picks: Vec<(usize, bool)> = (0..7)
            .map(|p| (o.pick(p).index, o.pick(p).wrapped))
            .collect();
        assert_eq!(
            picks,
            [
                (3, false),
                (4, false),
                (0, false),
                (1, false),
                (2, false),
                (3, true),
                (4, true)
            ]
        );
        assert_eq!(o.pick(12).cycle, 2);
    }

    #[test]
    fn errors() {
        assert_eq!(
            OpeningOrder::new(0, Order::Random, 0, 0),
            Err(OrderError::EmptyBook)
        );
        let e = OpeningOrder::new(4, Order::Random, 0, 4).unwrap_err();
        assert_eq!(
            e.to_string(),
            "start index 4 is out of range: the book has 4 openings (indexes 0 to 3)"
        );
    }
}
