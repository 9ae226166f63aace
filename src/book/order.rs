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
//! ([`SplitMix64::shuffle`], both in `util`); tests pin both to exact values. Do not change
//! either: it would change which openings every existing config plays.

use crate::rng::SplitMix64;

/// How a tournament walks through its book.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// File order, from the start index.
    Sequential,
    /// A shuffle seeded by the tournament seed, from the start index.
    Random,
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
