//! Sets of squares as bitboards.

use serde::{Deserialize, Serialize};

use crate::Square;

/// A set of squares as a bitboard (bit `i` = square index `i`), iterable as [`Square`]s
/// in index order.
///
/// ```
/// use reversi_core::{Position, Square};
///
/// let moves = Position::start().legal_squares();
/// assert_eq!(moves.len(), 4);
/// let names: Vec<String> = moves.iter().map(|sq| sq.to_string()).collect();
/// assert_eq!(names, ["d3", "c4", "f5", "e6"]);
/// assert!(moves.contains("f5".parse::<Square>()?));
/// # Ok::<(), reversi_core::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SquareSet(pub u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The bitboard.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The number of squares.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// The squares in index order (`a1`, `b1`, … `h8`).
    #[inline]
    pub const fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareIter;

    fn into_iter(self) -> SquareIter {
        self.iter()
    }
}

/// The squares of a [`SquareSet`], in index order.
#[derive(Clone, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::new(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}
