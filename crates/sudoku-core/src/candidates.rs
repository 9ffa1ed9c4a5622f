//! Pencil marks: the symbols each empty cell may still take, for every grid size.

use alloc::vec::Vec;
use core::fmt;

use crate::grid::{Grid, Size, symbol_char, unit_cell};

/// A set of symbols `1..=25`, as the pencil marks of one cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Marks(u32);

impl Marks {
    /// No symbol.
    pub const EMPTY: Marks = Marks(0);

    /// Every symbol of `size`.
    pub const fn all(size: Size) -> Marks {
        Marks((1 << size.side()) - 1)
    }

    /// The set holding only `symbol` (`1..=25`; anything else gives the empty set).
    pub const fn single(symbol: u8) -> Marks {
        if symbol >= 1 && symbol <= 25 {
            Marks(1 << (symbol - 1))
        } else {
            Marks::EMPTY
        }
    }

    /// Whether `symbol` is in the set.
    pub const fn contains(self, symbol: u8) -> bool {
        symbol >= 1 && symbol <= 25 && self.0 >> (symbol - 1) & 1 == 1
    }

    /// The number of symbols in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The symbol when the set holds exactly one.
    pub const fn only(self) -> Option<u8> {
        if self.0.count_ones() == 1 {
            Some(self.0.trailing_zeros() as u8 + 1)
        } else {
            None
        }
    }

    /// The symbols of both sets.
    pub const fn union(self, other: Marks) -> Marks {
        Marks(self.0 | other.0)
    }

    /// The symbols of `self` that are not in `other`.
    pub const fn minus(self, other: Marks) -> Marks {
        Marks(self.0 & !other.0)
    }

    /// The symbols in both sets.
    pub const fn intersection(self, other: Marks) -> Marks {
        Marks(self.0 & other.0)
    }

    /// The symbols, smallest first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (1..=25u8).filter(move |&v| self.contains(v))
    }
}

impl fmt::Debug for Marks {
    /// The symbols in the line notation's characters, e.g. `{1 5 A}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", symbol_char(v))?;
        }
        f.write_str("}")
    }
}

/// The pencil marks of a whole grid: for every empty cell the symbols it may still take.
/// Filled cells have no marks.
///
/// ```
/// use sudoku_core::{Candidates, Grid};
/// let g: Grid = "1.3.3.1.2.4.4.2.".parse().unwrap();
/// let c = Candidates::of(&g);
/// assert_eq!(format!("{:?}", c.get(0, 1)), "{2 4}");
/// assert!(c.get(0, 0).is_empty());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Candidates {
    size: Size,
    marks: Vec<Marks>,
}

impl Candidates {
    /// The marks a grid allows: for each empty cell, every symbol that no cell of its row,
    /// column or box holds.
    pub fn of(grid: &Grid) -> Candidates {
        let size = grid.size();
        let n = size.side();
        let cells = grid.cells();
        let mut used = [[Marks::EMPTY; 25]; 3];
        for (kind, used) in used.iter_mut().enumerate() {
            for (unit, seen) in used.iter_mut().enumerate().take(n) {
                for k in 0..n {
                    let (r, c) = unit_cell(size, kind, unit, k);
                    *seen = seen.union(Marks::single(cells[r * n + c]));
                }
            }
        }
        let marks = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                if cells[i] != 0 {
                    return Marks::EMPTY;
                }
                Marks::all(size)
                    .minus(used[0][r])
                    .minus(used[1][c])
                    .minus(used[2][size.box_of(r, c)])
            })
            .collect();
        Candidates { size, marks }
    }

    /// The grid size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The marks of the cell at `row`, `col` (0-based); empty outside the grid.
    pub fn get(&self, row: usize, col: usize) -> Marks {
        let n = self.size.side();
        if row < n && col < n {
            self.marks[row * n + col]
        } else {
            Marks::EMPTY
        }
    }

    /// Removes `symbol` from the marks of a cell; whether it was there (`false` outside
    /// the grid).
    pub fn remove(&mut self, row: usize, col: usize, symbol: u8) -> bool {
        let n = self.size.side();
        if row >= n || col >= n || !self.marks[row * n + col].contains(symbol) {
            return false;
        }
        let m = &mut self.marks[row * n + col];
        *m = m.minus(Marks::single(symbol));
        true
    }

    /// Records that `symbol` was placed at `row`, `col`: the cell loses its marks and its
    /// row, column and box lose `symbol`. Nothing happens outside the grid.
    pub fn place(&mut self, row: usize, col: usize, symbol: u8) {
        let n = self.size.side();
        if row >= n || col >= n {
            return;
        }
        self.marks[row * n + col] = Marks::EMPTY;
        let b = self.size.box_of(row, col);
        for (kind, unit) in [(0, row), (1, col), (2, b)] {
            for k in 0..n {
                let (r, c) = unit_cell(self.size, kind, unit, k);
                self.remove(r, c, symbol);
            }
        }
    }
}
