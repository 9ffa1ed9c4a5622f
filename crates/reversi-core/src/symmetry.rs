//! The 8 symmetries of the board (rotations and mirrors).

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Square;
use crate::bitboard::{flip_diagonal, flip_horizontal, flip_vertical};

/// One of the 8 symmetries of the square board. The start position is unchanged by
/// [`Symmetry::Identity`], [`Symmetry::Rotate180`], [`Symmetry::Diagonal`] and
/// [`Symmetry::AntiDiagonal`]; the other four swap the colours of its centre.
///
/// ```
/// use reversi_core::{Square, Symmetry};
///
/// let b1: Square = "b1".parse()?;
/// assert_eq!(Symmetry::Vertical.apply_square(b1).to_string(), "b8");
/// assert_eq!(Symmetry::Diagonal.apply_square(b1).to_string(), "a2");
/// for s in Symmetry::ALL {
///     assert_eq!(s.inverse().apply_square(s.apply_square(b1)), b1);
/// }
/// # Ok::<(), reversi_core::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Symmetry {
    /// Leaves the board as it is.
    Identity,
    /// Turns the board a quarter turn: square (column, row) goes to (7 - row, column).
    Rotate90,
    /// Turns the board a half turn: a1 ↔ h8.
    Rotate180,
    /// Turns the board three quarters: square (column, row) goes to (row, 7 - column).
    Rotate270,
    /// Mirrors top to bottom: row 1 ↔ row 8.
    Vertical,
    /// Mirrors left to right: column a ↔ column h.
    Horizontal,
    /// Mirrors in the a1–h8 diagonal: column ↔ row.
    Diagonal,
    /// Mirrors in the h1–a8 diagonal.
    AntiDiagonal,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::Vertical,
        Symmetry::Horizontal,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub const fn apply(self, bits: u64) -> u64 {
        match self {
            Symmetry::Identity => bits,
            Symmetry::Rotate90 => flip_horizontal(flip_diagonal(bits)),
            Symmetry::Rotate180 => bits.reverse_bits(),
            Symmetry::Rotate270 => flip_vertical(flip_diagonal(bits)),
            Symmetry::Vertical => flip_vertical(bits),
            Symmetry::Horizontal => flip_horizontal(bits),
            Symmetry::Diagonal => flip_diagonal(bits),
            Symmetry::AntiDiagonal => flip_diagonal(bits).reverse_bits(),
        }
    }

    /// Where `square` goes under the symmetry.
    pub const fn apply_square(self, square: Square) -> Square {
        let (f, r) = (square.file(), square.rank());
        let (f, r) = match self {
            Symmetry::Identity => (f, r),
            Symmetry::Rotate90 => (7 - r, f),
            Symmetry::Rotate180 => (7 - f, 7 - r),
            Symmetry::Rotate270 => (r, 7 - f),
            Symmetry::Vertical => (f, 7 - r),
            Symmetry::Horizontal => (7 - f, r),
            Symmetry::Diagonal => (r, f),
            Symmetry::AntiDiagonal => (7 - r, 7 - f),
        };
        match Square::from_coords(f, r) {
            Some(sq) => sq,
            None => unreachable!(),
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate 90",
            Symmetry::Rotate180 => "rotate 180",
            Symmetry::Rotate270 => "rotate 270",
            Symmetry::Vertical => "vertical mirror",
            Symmetry::Horizontal => "horizontal mirror",
            Symmetry::Diagonal => "a1-h8 mirror",
            Symmetry::AntiDiagonal => "h1-a8 mirror",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_and_square_forms_agree() {
        for s in Symmetry::ALL {
            for sq in Square::ALL {
                assert_eq!(s.apply(sq.bit()), s.apply_square(sq).bit(), "{s} {sq}");
            }
            assert_eq!(
                s.inverse().apply(s.apply(0x0123_4567_89AB_CDEF)),
                0x0123_4567_89AB_CDEF
            );
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct() {
        let b2 = Square::from_coords(1, 1).unwrap();
        let c1 = Square::from_coords(2, 0).unwrap();
        let images: alloc::vec::Vec<_> = Symmetry::ALL
            .iter()
            .map(|s| (s.apply_square(b2), s.apply_square(c1)))
            .collect();
        for (i, a) in images.iter().enumerate() {
            for b in &images[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
