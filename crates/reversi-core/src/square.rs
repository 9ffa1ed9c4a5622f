//! Board squares and their names (`a1` … `h8`).

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the 64 squares, `a1` (top-left in the usual diagram) to `h8`.
///
/// The index runs row by row from `a1` = 0, `b1` = 1, … `h1` = 7, `a2` = 8 … `h8` = 63,
/// which is also the bit of the square in a bitboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square(u8);

impl Square {
    /// All 64 squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (0 = `a1`, 63 = `h8`), or `None` past 63.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at column `file` (0 = `a`) and row `rank` (0 = row `1`), or `None`
    /// off the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The index of the square, 0 to 63.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The column, 0 (`a`) to 7 (`h`).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The row, 0 (row `1`) to 7 (row `8`).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The bitboard with only this square set.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl From<Square> for u8 {
    fn from(sq: Square) -> u8 {
        sq.0
    }
}

impl TryFrom<u8> for Square {
    type Error = ParseSquareError;

    fn try_from(index: u8) -> Result<Square, ParseSquareError> {
        Square::new(index).ok_or(ParseSquareError::IndexOutOfRange(index))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquareError {
    /// The text is not two characters long.
    #[error("a square is a column letter a-h and a row digit 1-8, like f5")]
    BadLength,
    /// The column letter is not `a`–`h`.
    #[error("'{0}' is not a column: columns are a to h")]
    BadFile(char),
    /// The row digit is not `1`–`8`.
    #[error("'{0}' is not a row: rows are 1 to 8")]
    BadRank(char),
    /// A numeric square index past 63.
    #[error("square index {0} is off the board (0-63)")]
    IndexOutOfRange(u8),
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads a square name, case-insensitively (`f5`, `F5`).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError::BadLength);
        };
        let f = match file.to_ascii_lowercase() {
            c @ 'a'..='h' => c as u8 - b'a',
            _ => return Err(ParseSquareError::BadFile(file)),
        };
        let r = match rank {
            c @ '1'..='8' => c as u8 - b'1',
            _ => return Err(ParseSquareError::BadRank(rank)),
        };
        Ok(Square(r * 8 + f))
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn every_square_round_trips() {
        for sq in Square::ALL {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn corners_and_layout() {
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a2".parse::<Square>().unwrap().index(), 8);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
    }

    #[test]
    fn bad_names_are_rejected_precisely() {
        assert_eq!("".parse::<Square>(), Err(ParseSquareError::BadLength));
        assert_eq!("a10".parse::<Square>(), Err(ParseSquareError::BadLength));
        assert_eq!("i5".parse::<Square>(), Err(ParseSquareError::BadFile('i')));
        assert_eq!("a9".parse::<Square>(), Err(ParseSquareError::BadRank('9')));
        assert_eq!("é1".parse::<Square>(), Err(ParseSquareError::BadFile('é')));
        assert_eq!(
            Square::try_from(64),
            Err(ParseSquareError::IndexOutOfRange(64))
        );
    }
}
