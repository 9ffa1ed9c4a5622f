//! Cells of the grid, their notation and sets of cells.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::rules::{MAX_SIDE, Rules};

/// A cell of the grid: column `a`…`j` (left to right), row `1`…`10` (top to bottom); `a1` is
/// the top-left cell.
///
/// Parsing accepts Latin letters in either case and the Russian column letters
/// `а б в г д е ж з и к` (the traditional board skips `й`):
///
/// ```
/// use battleship_core::Coord;
/// let e5: Coord = "e5".parse().unwrap();
/// assert_eq!((e5.col(), e5.row()), (4, 4));
/// assert_eq!("д5".parse::<Coord>().unwrap(), e5);
/// assert_eq!("J10".parse::<Coord>().unwrap().to_string(), "j10");
/// assert!("k1".parse::<Coord>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "(u8, u8)", into = "(u8, u8)")]
pub struct Coord {
    col: u8,
    row: u8,
}

impl TryFrom<(u8, u8)> for Coord {
    type Error = ParseCoordError;
    fn try_from((col, row): (u8, u8)) -> Result<Coord, ParseCoordError> {
        Coord::new(col, row).ok_or(ParseCoordError::Empty)
    }
}

impl From<Coord> for (u8, u8) {
    fn from(c: Coord) -> (u8, u8) {
        (c.col, c.row)
    }
}

/// Why a cell name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCoordError {
    /// Nothing was given.
    #[error("no cell given (expected a letter and a number, like e5)")]
    Empty,
    /// The first character is not a column letter.
    #[error("'{0}' is not a column: use a letter a…j (or а…к)")]
    BadColumn(char),
    /// The row is missing or not a number from 1 to 10.
    #[error("'{0}' is not a row: use a number from 1 to 10")]
    BadRow(alloc::string::String),
}

const RUSSIAN_COLUMNS: [char; 10] = ['а', 'б', 'в', 'г', 'д', 'е', 'ж', 'з', 'и', 'к'];

impl Coord {
    /// The cell at column `col` and row `row` (both counted from 0), if both are below 10.
    pub const fn new(col: u8, row: u8) -> Option<Coord> {
        if col < MAX_SIDE && row < MAX_SIDE {
            Some(Coord { col, row })
        } else {
            None
        }
    }

    /// The column, from 0 (`a`).
    pub const fn col(self) -> u8 {
        self.col
    }

    /// The row, from 0 (row `1`).
    pub const fn row(self) -> u8 {
        self.row
    }

    /// Whether the cell lies on a grid of these rules.
    pub fn is_on(self, rules: &Rules) -> bool {
        self.col < rules.width() && self.row < rules.height()
    }

    /// The index of the cell in a grid of `width` columns (`row * width + col`).
    pub const fn index(self, width: u8) -> usize {
        self.row as usize * width as usize + self.col as usize
    }

    /// The cell of index `index` in a grid of `width` columns.
    pub fn from_index(index: usize, width: u8) -> Coord {
        let w = usize::from(width.max(1));
        Coord {
            col: (index % w) as u8,
            row: (index / w) as u8,
        }
    }

    /// The column letter (`a`…`j`).
    pub fn column_letter(self) -> char {
        char::from(b'a' + self.col)
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row + 1)
    }
}

impl FromStr for Coord {
    type Err = ParseCoordError;
    fn from_str(s: &str) -> Result<Coord, ParseCoordError> {
        let s = s.trim();
        let mut chars = s.chars();
        let first = chars.next().ok_or(ParseCoordError::Empty)?;
        let lower = first.to_lowercase().next().unwrap_or(first);
        let col = if lower.is_ascii_lowercase() && lower <= 'j' {
            lower as u8 - b'a'
        } else if let Some(i) = RUSSIAN_COLUMNS.iter().position(|&c| c == lower) {
            i as u8
        } else {
            return Err(ParseCoordError::BadColumn(first));
        };
        let rest = chars.as_str().trim();
        let row: u8 = match rest.parse::<u8>() {
            Ok(r) if (1..=MAX_SIDE).contains(&r) && rest.bytes().all(|b| b.is_ascii_digit()) => r,
            _ => return Err(ParseCoordError::BadRow(rest.into())),
        };
        Ok(Coord { col, row: row - 1 })
    }
}

/// A set of cells of one grid, as a bit set (`bit row * width + col`).
///
/// The set does not know the grid width: the functions that need it take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Cells(pub u128);

impl Cells {
    /// The empty set.
    pub const EMPTY: Cells = Cells(0);

    /// Whether the cell of index `i` is in the set.
    pub const fn has(self, i: usize) -> bool {
        i < 128 && (self.0 >> i) & 1 == 1
    }

    /// Adds the cell of index `i`.
    pub fn insert(&mut self, i: usize) {
        self.0 |= 1u128 << i;
    }

    /// Number of cells.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The indices of the cells, in increasing order.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        core::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(i)
            }
        })
    }

    /// The cells as coordinates of a grid `width` columns wide.
    pub fn coords(self, width: u8) -> impl Iterator<Item = Coord> {
        self.indices().map(move |i| Coord::from_index(i, width))
    }
}

impl core::ops::BitOr for Cells {
    type Output = Cells;
    fn bitor(self, rhs: Cells) -> Cells {
        Cells(self.0 | rhs.0)
    }
}

impl core::ops::BitAnd for Cells {
    type Output = Cells;
    fn bitand(self, rhs: Cells) -> Cells {
        Cells(self.0 & rhs.0)
    }
}

/// Precomputed masks of one grid size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub w: u8,
    pub h: u8,
    /// All cells of the grid.
    pub all: u128,
    /// Cells not in the first column.
    not_left: u128,
    /// Cells not in the last column.
    not_right: u128,
}

impl Geometry {
    pub fn new(w: u8, h: u8) -> Geometry {
        let n = usize::from(w) * usize::from(h);
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        let mut left = 0u128;
        let mut right = 0u128;
        for r in 0..usize::from(h) {
            left |= 1u128 << (r * usize::from(w));
            right |= 1u128 << (r * usize::from(w) + usize::from(w) - 1);
        }
        Geometry {
            w,
            h,
            all,
            not_left: all & !left,
            not_right: all & !right,
        }
    }

    pub fn of(rules: &Rules) -> Geometry {
        Geometry::new(rules.width(), rules.height())
    }

    pub fn n(&self) -> usize {
        usize::from(self.w) * usize::from(self.h)
    }

    /// The set grown by one cell in the 8 directions (includes the set itself).
    pub fn dilate(&self, m: u128) -> u128 {
        let w = u32::from(self.w);
        let horiz = m | ((m << 1) & self.not_left) | ((m >> 1) & self.not_right);
        (horiz | (horiz << w) | (horiz >> w)) & self.all
    }

    /// The set grown by one cell in the 4 orthogonal directions.
    pub fn dilate4(&self, m: u128) -> u128 {
        let w = u32::from(self.w);
        (m | ((m << 1) & self.not_left) | ((m >> 1) & self.not_right) | (m << w) | (m >> w))
            & self.all
    }
}
