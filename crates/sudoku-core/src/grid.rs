//! Grid sizes, the grid type, the line notation and validation.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

/// A supported grid size; the box shape follows from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    /// 4×4 with 2×2 boxes.
    Four,
    /// 6×6 with boxes of 2 rows × 3 columns.
    Six,
    /// The classic 9×9 with 3×3 boxes.
    Nine,
    /// 16×16 with 4×4 boxes.
    Sixteen,
    /// 25×25 with 5×5 boxes.
    TwentyFive,
}

impl Size {
    /// Every supported size, smallest first.
    pub const ALL: [Size; 5] = [
        Size::Four,
        Size::Six,
        Size::Nine,
        Size::Sixteen,
        Size::TwentyFive,
    ];

    /// The side length N (also the number of symbols).
    pub const fn side(self) -> usize {
        match self {
            Size::Four => 4,
            Size::Six => 6,
            Size::Nine => 9,
            Size::Sixteen => 16,
            Size::TwentyFive => 25,
        }
    }

    /// The number of rows of a box.
    pub const fn box_rows(self) -> usize {
        match self {
            Size::Four => 2,
            Size::Six => 2,
            Size::Nine => 3,
            Size::Sixteen => 4,
            Size::TwentyFive => 5,
        }
    }

    /// The number of columns of a box.
    pub const fn box_cols(self) -> usize {
        match self {
            Size::Four => 2,
            Size::Six => 3,
            Size::Nine => 3,
            Size::Sixteen => 4,
            Size::TwentyFive => 5,
        }
    }

    /// The number of cells, N².
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The size whose side is `side`, if supported.
    pub const fn from_side(side: usize) -> Option<Size> {
        match side {
            4 => Some(Size::Four),
            6 => Some(Size::Six),
            9 => Some(Size::Nine),
            16 => Some(Size::Sixteen),
            25 => Some(Size::TwentyFive),
            _ => None,
        }
    }

    /// The size with `cells` cells (16, 36, 81, 256 or 625), if supported.
    pub const fn from_cells(cells: usize) -> Option<Size> {
        match cells {
            16 => Some(Size::Four),
            36 => Some(Size::Six),
            81 => Some(Size::Nine),
            256 => Some(Size::Sixteen),
            625 => Some(Size::TwentyFive),
            _ => None,
        }
    }

    /// The box (0-based, row-major over boxes) holding the cell at `row`, `col`.
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        (row / self.box_rows()) * (self.side() / self.box_cols()) + col / self.box_cols()
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}", self.side(), self.side())
    }
}

/// The character of symbol `value` (1..=25) in the line notation: `1`–`9`, then `A`–`P`.
pub const fn symbol_char(value: u8) -> char {
    match value {
        1..=9 => (b'0' + value) as char,
        10..=25 => (b'A' + value - 10) as char,
        _ => '.',
    }
}

/// The symbol value (1..=25) of a character, `0` for an empty cell (`.` or `0`), `None`
/// for any other character. Letters are case-insensitive.
const fn char_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

/// Why a line is not a grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseGridError {
    /// The line has a number of cells no supported size has.
    #[error(
        "a grid line needs 16, 36, 81, 256 or 625 cells (4×4, 6×6, 9×9, 16×16 or 25×25), this one has {0}"
    )]
    WrongLength(usize),
    /// A character that is neither a symbol nor an empty cell.
    #[error(
        "row {row}, column {col}: {ch:?} is not a cell (use 1-9, A-P for 10-25, or '.' for an empty cell)"
    )]
    InvalidChar {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The offending character.
        ch: char,
    },
    /// A symbol larger than the grid's side, e.g. `7` in a 6×6 grid.
    #[error("row {row}, column {col}: {ch:?} is too large for a {size} grid")]
    SymbolTooLarge {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The offending character.
        ch: char,
        /// The grid's size.
        size: Size,
    },
    /// `0` used as an empty cell in a grid larger than 9×9, where it is ambiguous.
    #[error("row {row}, column {col}: '0' is not an empty cell in a {size} grid, use '.'")]
    ZeroInLargeGrid {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// The grid's size.
        size: Size,
    },
}

/// Why cell values do not make a grid, or a cell cannot be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// A cell outside the grid.
    #[error("row {row}, column {col} (0-based) is outside a {size} grid")]
    OutsideGrid {
        /// The 0-based row asked for.
        row: usize,
        /// The 0-based column asked for.
        col: usize,
        /// The grid's size.
        size: Size,
    },
    /// The number of values does not match the size.
    #[error("a {size} grid has {expected} cells, got {got}")]
    WrongCellCount {
        /// The grid's size.
        size: Size,
        /// N².
        expected: usize,
        /// The number of values given.
        got: usize,
    },
    /// A value that is not a symbol of the size: above N in a list of cells, or `0` or
    /// above N given to [`Grid::set`].
    #[error("cell {index}: {value} is not a symbol of a {size} grid")]
    BadValue {
        /// 0-based cell index.
        index: usize,
        /// The value.
        value: u8,
        /// The grid's size.
        size: Size,
    },
}

/// A Sudoku grid of any supported size: a puzzle, a partly filled grid or a solution.
///
/// Cells hold `0` (empty) or a symbol `1..=N`. The line notation ([`FromStr`] and
/// [`Display`](fmt::Display)) writes the cells row by row; [`Grid::pretty`] draws the grid.
/// The grid may contain conflicts (see [`Grid::conflicts`]); the solvers report such grids
/// as unsolvable.
///
/// ```
/// use sudoku_core::{Grid, Size};
/// let grid: Grid = "1.3.3.1.2.4.4.2.".parse().unwrap();
/// assert_eq!(grid.size(), Size::Four);
/// assert_eq!(grid.get(0, 2), Some(3));
/// assert_eq!(grid.get(0, 1), None);
/// assert_eq!(grid.to_string(), "1.3.3.1.2.4.4.2.");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Grid {
    size: Size,
    cells: Vec<u8>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(size: Size) -> Grid {
        Grid {
            size,
            cells: vec![0; size.cells()],
        }
    }

    /// A grid from its cell values, row by row (`0` = empty).
    pub fn from_cells(size: Size, cells: &[u8]) -> Result<Grid, GridError> {
        if cells.len() != size.cells() {
            return Err(GridError::WrongCellCount {
                size,
                expected: size.cells(),
                got: cells.len(),
            });
        }
        if let Some((index, &value)) = cells
            .iter()
            .enumerate()
            .find(|&(_, &v)| usize::from(v) > size.side())
        {
            return Err(GridError::BadValue { index, value, size });
        }
        Ok(Grid {
            size,
            cells: cells.to_vec(),
        })
    }

    /// The grid's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The cell values row by row, `0` for an empty cell.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The symbol at `row`, `col` (0-based); `None` when the cell is empty or outside the
    /// grid (as [`slice::get`] does for an index past the end).
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        let n = self.size.side();
        if row >= n || col >= n {
            return None;
        }
        match self.cells[row * n + col] {
            0 => None,
            v => Some(v),
        }
    }

    /// Sets the cell at `row`, `col` (0-based) to a symbol `1..=N`, or empties it with
    /// `None`. A cell outside the grid or a value that is not a symbol of its size is an
    /// error, and the grid is left unchanged.
    ///
    /// ```
    /// use sudoku_core::{Grid, GridError, Size};
    /// let mut g = Grid::empty(Size::Four);
    /// g.set(0, 1, Some(3)).unwrap();
    /// assert_eq!(g.to_string(), ".3..............");
    /// assert!(matches!(g.set(4, 0, Some(1)), Err(GridError::OutsideGrid { .. })));
    /// assert!(matches!(g.set(0, 0, Some(5)), Err(GridError::BadValue { .. })));
    /// assert_eq!(g.to_string(), ".3..............");
    /// ```
    pub fn set(&mut self, row: usize, col: usize, value: Option<u8>) -> Result<(), GridError> {
        let size = self.size;
        let n = size.side();
        if row >= n || col >= n {
            return Err(GridError::OutsideGrid { row, col, size });
        }
        let index = row * n + col;
        let v = match value {
            None => 0,
            Some(v) if (1..=n).contains(&usize::from(v)) => v,
            Some(value) => return Err(GridError::BadValue { index, value, size }),
        };
        self.cells[index] = v;
        Ok(())
    }

    /// The number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Whether no row, column or box holds a symbol twice.
    pub fn is_consistent(&self) -> bool {
        self.conflicts().is_empty()
    }

    /// Whether this grid is a full, conflict-free grid that keeps every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.size == puzzle.size
            && self.is_full()
            && self.is_consistent()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// Every clash: a symbol that appears more than once in a row, column or box, with the
    /// cells holding it. Rows come first, then columns, then boxes.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let n = self.size.side();
        let mut out = Vec::new();
        for kind in 0..3 {
            for unit in 0..n {
                let cells: Vec<(usize, usize)> = (0..n)
                    .map(|k| unit_cell(self.size, kind, unit, k))
                    .collect();
                for symbol in 1..=n as u8 {
                    let holding: Vec<(usize, usize)> = cells
                        .iter()
                        .copied()
                        .filter(|&(r, c)| self.cells[r * n + c] == symbol)
                        .collect();
                    if holding.len() > 1 {
                        let unit = match kind {
                            0 => Unit::Row(unit),
                            1 => Unit::Column(unit),
                            _ => Unit::Box(unit),
                        };
                        out.push(Conflict {
                            unit,
                            symbol,
                            cells: holding,
                        });
                    }
                }
            }
        }
        out
    }

    /// A multi-line drawing of the grid with box separators, for people.
    ///
    /// ```
    /// use sudoku_core::Grid;
    /// let g: Grid = "1234341221434321".parse().unwrap();
    /// assert_eq!(g.pretty().to_string(), "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n");
    /// ```
    pub fn pretty(&self) -> Pretty<'_> {
        Pretty(self)
    }
}

/// The cell (row, col) at position `k` of unit `unit` of kind 0 = row, 1 = column, 2 = box.
pub(crate) fn unit_cell(size: Size, kind: usize, unit: usize, k: usize) -> (usize, usize) {
    let (br, bc) = (size.box_rows(), size.box_cols());
    match kind {
        0 => (unit, k),
        1 => (k, unit),
        _ => {
            let stacks = size.side() / bc;
            ((unit / stacks) * br + k / bc, (unit % stacks) * bc + k % bc)
        }
    }
}

/// A row, column or box of a grid (0-based index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unit {
    /// A row, top to bottom.
    Row(usize),
    /// A column, left to right.
    Column(usize),
    /// A box, row-major over the boxes.
    Box(usize),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// A symbol that appears more than once in a unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conflict {
    /// Where the clash is.
    pub unit: Unit,
    /// The repeated symbol.
    pub symbol: u8,
    /// The cells (row, column, 0-based) holding it, at least two.
    pub cells: Vec<(usize, usize)>,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} appears in {} at",
            symbol_char(self.symbol),
            self.unit
        )?;
        for (i, (r, c)) in self.cells.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}r{}c{}", r + 1, c + 1)?;
        }
        Ok(())
    }
}

impl FromStr for Grid {
    type Err = ParseGridError;

    /// Parses the line notation: N² characters row by row, symbols `1`–`9` then `A`–`P`
    /// (any case), empty cells `.` (or `0` up to 9×9). Surrounding whitespace and a
    /// Windows line end are ignored.
    fn from_str(s: &str) -> Result<Grid, ParseGridError> {
        let s = s.trim();
        if s.is_ascii() {
            return parse_ascii(s.as_bytes());
        }
        let len = s.chars().count();
        let size = Size::from_cells(len).ok_or(ParseGridError::WrongLength(len))?;
        let n = size.side();
        let mut cells = Vec::with_capacity(len);
        for (i, ch) in s.chars().enumerate() {
            let (row, col) = (i / n + 1, i % n + 1);
            let v = char_value(ch).ok_or(ParseGridError::InvalidChar { row, col, ch })?;
            if usize::from(v) > n {
                return Err(ParseGridError::SymbolTooLarge { row, col, ch, size });
            }
            if ch == '0' && n > 9 {
                return Err(ParseGridError::ZeroInLargeGrid { row, col, size });
            }
            cells.push(v);
        }
        Ok(Grid { size, cells })
    }
}

/// The value of each byte in the line notation as [`char_value`] gives it, `INVALID`
/// for any other byte (a table: on a file of puzzles the branches of the `match` are
/// mispredicted a good part of the time).
const BYTE_VALUE: [u8; 256] = {
    let mut t = [INVALID; 256];
    let mut b = 0;
    while b < 128 {
        if let Some(v) = char_value(b as u8 as char) {
            t[b] = v;
        }
        b += 1;
    }
    t
};

/// Not a value in [`BYTE_VALUE`].
const INVALID: u8 = u8::MAX;

/// [`Grid::from_str`] of an ASCII line (one character a byte), with the same errors.
fn parse_ascii(s: &[u8]) -> Result<Grid, ParseGridError> {
    let len = s.len();
    let size = Size::from_cells(len).ok_or(ParseGridError::WrongLength(len))?;
    let n = size.side();
    let cells: Vec<u8> = s.iter().map(|&b| BYTE_VALUE[usize::from(b)]).collect();
    // Checked after the conversion, so the loop above has no branch; the first bad
    // cell gives the error, as in the character loop.
    let bad = |v: u8, b: u8| usize::from(v) > n || (b == b'0' && n > 9);
    if let Some(i) = cells.iter().zip(s).position(|(&v, &b)| bad(v, b)) {
        let (row, col, ch) = (i / n + 1, i % n + 1, char::from(s[i]));
        return Err(if cells[i] == INVALID {
            ParseGridError::InvalidChar { row, col, ch }
        } else if usize::from(cells[i]) > n {
            ParseGridError::SymbolTooLarge { row, col, ch, size }
        } else {
            ParseGridError::ZeroInLargeGrid { row, col, size }
        });
    }
    Ok(Grid { size, cells })
}

impl fmt::Display for Grid {
    /// The line notation, `.` for empty cells.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::with_capacity(self.cells.len());
        line.extend(self.cells.iter().map(|&v| symbol_char(v)));
        f.write_str(&line)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl From<Grid> for String {
    fn from(grid: Grid) -> String {
        alloc::format!("{grid}")
    }
}

impl TryFrom<String> for Grid {
    type Error = ParseGridError;
    fn try_from(s: String) -> Result<Grid, ParseGridError> {
        s.parse()
    }
}

/// The drawing of a grid returned by [`Grid::pretty`].
pub struct Pretty<'a>(&'a Grid);

impl fmt::Display for Pretty<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.0;
        let n = g.size.side();
        let (br, bc) = (g.size.box_rows(), g.size.box_cols());
        let stacks = n / bc;
        for r in 0..n {
            if r > 0 && r % br == 0 {
                for s in 0..stacks {
                    if s > 0 {
                        f.write_str("+")?;
                    }
                    let width = 2 * bc + usize::from(s > 0) - usize::from(s + 1 == stacks);
                    for _ in 0..width {
                        f.write_str("-")?;
                    }
                }
                f.write_str("\n")?;
            }
            for c in 0..n {
                if c > 0 {
                    f.write_str(if c % bc == 0 { " | " } else { " " })?;
                }
                write!(f, "{}", symbol_char(g.cells[r * n + c]))?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// One line of a puzzle file: a grid, or why it is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleLine {
    /// 1-based line number in the text.
    pub line: usize,
    /// The parsed grid or the parse error.
    pub grid: Result<Grid, ParseGridError>,
}

/// The puzzles of a text in the line format, skipping blank lines and `#` comments.
///
/// ```
/// use sudoku_core::puzzle_lines;
/// let text = "# two puzzles\n1.3.\n\n................\r\n";
/// let lines: Vec<_> = puzzle_lines(text).collect();
/// assert_eq!(lines.len(), 2);
/// assert!(lines[0].grid.is_err());
/// assert_eq!(lines[1].line, 4);
/// ```
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = PuzzleLine> + '_ {
    text.lines().enumerate().filter_map(|(i, line)| {
        let t = line.trim();
        if is_comment(t) {
            None
        } else {
            Some(PuzzleLine {
                line: i + 1,
                grid: t.parse(),
            })
        }
    })
}

/// Whether a line of a puzzle file is a comment or blank (skipped by readers).
pub fn is_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}
