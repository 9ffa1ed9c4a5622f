//! Pencil marks: the candidates of every empty cell, for every size, as bitsets.
//!
//! [`Candidates`] keeps the digits of the filled cells, a [`Digits`] bitset per cell and,
//! for every digit, the [`CellSet`] of cells where it can still go, so the techniques of
//! [`logic`](crate::logic) read rows, columns and boxes with a few word operations.

use alloc::vec::Vec;
use core::fmt;

use crate::grid::{Grid, Size, Unit};

mod bits;
mod geometry;

pub use bits::{CellIter, CellSet, DigitIter, Digits};
pub(crate) use geometry::{Geometry, geometry};

/// The name of a cell in the `r4c6` notation (1-based row and column).
pub fn cell_name(size: Size, cell: usize) -> CellName {
    CellName {
        row: cell / size.side() + 1,
        col: cell % size.side() + 1,
    }
}

/// A cell written `r4c6`, from [`cell_name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellName {
    /// 1-based row.
    pub row: usize,
    /// 1-based column.
    pub col: usize,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}

/// The candidates (pencil marks) of a grid: a digit or a set of candidates per cell.
///
/// Built from a grid by [`Candidates::new`] (every digit a cell's peers do not hold), then
/// narrowed by [`Candidates::place`] and [`Candidates::eliminate`]. Cells are row-major
/// indices (`row * N + col`, 0-based); the methods that take a cell panic when it is not
/// below N² (see [`cell_name`] to show one).
///
/// ```
/// use sudoku_core::{Candidates, Grid};
/// let grid: Grid = "1.3.3.1.2.4.4.2.".parse().unwrap();
/// let c = Candidates::new(&grid);
/// assert_eq!(c.value(0), Some(1));
/// assert_eq!(c.candidates(1).iter().collect::<Vec<_>>(), [2, 4]);
/// ```
#[derive(Clone)]
pub struct Candidates {
    geo: &'static Geometry,
    values: Vec<u8>,
    cands: Vec<Digits>,
    /// For digit `d`, index `d - 1`: the empty cells where it is a candidate.
    places: Vec<CellSet>,
    /// The number of empty cells of each unit.
    unit_empty: Vec<u8>,
    /// The number of empty cells.
    empty: usize,
    /// The units with exactly one empty cell (bit `u`), where a full house may be.
    last_empty: u128,
    /// The digits placed in each unit.
    held: Vec<u32>,
    /// Whether some unit holds a digit twice.
    twice: bool,
    /// The empty cells without a candidate.
    dead_cells: usize,
    /// For unit `u` and digit `d`, index `u * N + d - 1`: the positions inside the unit
    /// (bit `k` for `units[u][k]`) where `d` is a candidate.
    pos: Vec<u32>,
    /// For each unit, the digits with exactly one place in it (bit `d - 1`): the hidden
    /// singles, kept up to date so that finding one is a scan of 3N words.
    ones: Vec<u32>,
}

impl Candidates {
    /// The candidates of `grid`: for each empty cell, every digit that no filled peer holds.
    pub fn new(grid: &Grid) -> Candidates {
        let size = grid.size();
        let geo = geometry(size);
        let n = geo.n;
        let values = grid.cells().to_vec();
        // The digits each unit holds, then each empty cell gets what its units lack.
        let mut held = alloc::vec![0u32; 3 * n];
        let mut twice = false;
        let mut unit_empty = alloc::vec![0u8; 3 * n];
        for (cell, &v) in values.iter().enumerate() {
            let units = geo.cell_units[cell].map(usize::from);
            if v != 0 {
                for u in units {
                    twice |= held[u] & 1 << (v - 1) != 0;
                    held[u] |= 1 << (v - 1);
                }
            } else {
                for u in units {
                    unit_empty[u] += 1;
                }
            }
        }
        let all = Digits::all(n).bits();
        let mut cands = alloc::vec![Digits::EMPTY; n * n];
        let mut places = alloc::vec![CellSet::EMPTY; n];
        let mut pos = alloc::vec![0u32; 3 * n * n];
        let mut empty = 0;
        let mut dead_cells = 0;
        for (cell, &v) in values.iter().enumerate() {
            if v != 0 {
                continue;
            }
            empty += 1;
            let [r, c, b] = geo.cell_units[cell].map(usize::from);
            let mut d = all & !(held[r] | held[c] | held[b]);
            dead_cells += usize::from(d == 0);
            cands[cell] = Digits::from_bits(d);
            let [kr, kc, kb] = geo.cell_pos[cell];
            let (w, bit) = (cell / 64, 1u64 << (cell % 64));
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                d &= d - 1;
                places[i].words_mut()[w] |= bit;
                pos[r * n + i] |= 1 << kr;
                pos[c * n + i] |= 1 << kc;
                pos[b * n + i] |= 1 << kb;
            }
        }
        let mut last_empty = 0u128;
        let mut ones = alloc::vec![0u32; 3 * n];
        for u in 0..3 * n {
            last_empty |= u128::from(unit_empty[u] == 1) << u;
            for (i, m) in pos[u * n..(u + 1) * n].iter().enumerate() {
                ones[u] |= u32::from(m.is_power_of_two()) << i;
            }
        }
        Candidates {
            geo,
            values,
            cands,
            places,
            unit_empty,
            empty,
            last_empty,
            held,
            twice,
            dead_cells,
            pos,
            ones,
        }
    }

    /// The candidates of `grid` narrowed to `marks` (one set per cell, ignored for filled
    /// cells): pencil marks a player has edited. A mark that a filled peer rules out is
    /// dropped.
    ///
    /// # Panics
    /// When `marks` does not have one entry per cell.
    pub fn with_marks(grid: &Grid, marks: &[Digits]) -> Candidates {
        let mut c = Candidates::new(grid);
        assert_eq!(marks.len(), c.cands.len(), "one set of marks per cell");
        for (cell, &m) in marks.iter().enumerate() {
            for d in (c.cands[cell] - m).iter() {
                c.eliminate(cell, d);
            }
        }
        c
    }

    pub(crate) fn geo(&self) -> &'static Geometry {
        self.geo
    }

    /// The grid size.
    pub fn size(&self) -> Size {
        self.geo.size
    }

    /// The side N.
    pub fn side(&self) -> usize {
        self.geo.n
    }

    /// The digit of a filled cell.
    pub fn value(&self, cell: usize) -> Option<u8> {
        match self.values[cell] {
            0 => None,
            v => Some(v),
        }
    }

    /// The candidates of a cell (empty for a filled cell).
    pub fn candidates(&self, cell: usize) -> Digits {
        self.cands[cell]
    }

    /// The empty cells where `digit` is still a candidate.
    ///
    /// # Panics
    /// When `digit` is not in `1..=N`.
    pub fn cells_with(&self, digit: u8) -> &CellSet {
        &self.places[usize::from(digit) - 1]
    }

    /// The cells of a unit as a set.
    pub fn unit_cells(&self, unit: Unit) -> &CellSet {
        &self.geo.unit_sets[self.unit_index(unit)]
    }

    fn unit_index(&self, unit: Unit) -> usize {
        let n = self.geo.n;
        match unit {
            Unit::Row(i) => i,
            Unit::Column(i) => n + i,
            Unit::Box(i) => 2 * n + i,
        }
    }

    /// The number of empty cells of unit `u` (rows `0..n`, columns `n..2n`, boxes
    /// `2n..3n`).
    #[cfg(test)]
    pub(crate) fn empty_in(&self, u: usize) -> usize {
        usize::from(self.unit_empty[u])
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.cands[cell].contains(digit)
    }

    /// The units with exactly one empty cell, bit `u` for unit `u`.
    pub(crate) fn units_with_one_empty(&self) -> u128 {
        self.last_empty
    }

    /// The digits with exactly one place in unit `u` (rows `0..n`, columns `n..2n`, boxes
    /// `2n..3n`).
    pub(crate) fn hidden_in(&self, u: usize) -> Digits {
        Digits::from_bits(self.ones[u])
    }

    /// The positions inside unit `u` (bit `k` for the unit's `k`-th cell) where `digit`
    /// is a candidate.
    pub(crate) fn positions(&self, u: usize, digit: u8) -> u32 {
        self.pos[u * self.geo.n + usize::from(digit) - 1]
    }

    /// Takes `digit` out of the unit positions of `cell` (the candidate is going).
    #[inline(always)]
    fn drop_positions(&mut self, cell: usize, digit: u8) {
        let n = self.geo.n;
        let i = usize::from(digit) - 1;
        let units = self.geo.cell_units[cell];
        let ks = self.geo.cell_pos[cell];
        for j in 0..3 {
            let u = usize::from(units[j]);
            let m = self.pos[u * n + i] & !(1 << ks[j]);
            self.pos[u * n + i] = m;
            let one = u32::from(m.is_power_of_two());
            self.ones[u] = (self.ones[u] & !(1 << i)) | (one << i);
        }
    }

    /// Recomputes the placed digits of each unit, `twice` and the empty cells without a
    /// candidate from the cells (after a filled cell is overwritten, the one change they do
    /// not follow).
    fn recount(&mut self) {
        let geo = self.geo;
        self.held.iter_mut().for_each(|h| *h = 0);
        self.twice = false;
        self.dead_cells = 0;
        for (cell, &v) in self.values.iter().enumerate() {
            if v == 0 {
                self.dead_cells += usize::from(self.cands[cell].is_empty());
                continue;
            }
            for u in geo.cell_units[cell].map(usize::from) {
                self.twice |= self.held[u] & 1 << (v - 1) != 0;
                self.held[u] |= 1 << (v - 1);
            }
        }
    }

    /// Fills `cell` with `digit` and removes `digit` from the candidates of its peers.
    ///
    /// # Panics
    /// When `cell` is not below N² or `digit` not in `1..=N`.
    pub fn place(&mut self, cell: usize, digit: u8) {
        assert!(
            (1..=self.geo.n).contains(&usize::from(digit)),
            "digit {digit} outside 1..={}",
            self.geo.n
        );
        let overwrite = self.values[cell] != 0;
        if !overwrite {
            self.dead_cells -= usize::from(self.cands[cell].is_empty());
            for u in self.geo.units_of(cell) {
                self.unit_empty[u] -= 1;
                match self.unit_empty[u] {
                    1 => self.last_empty |= 1 << u,
                    0 => self.last_empty &= !(1 << u),
                    _ => {}
                }
            }
            self.empty -= 1;
        }
        let i = usize::from(digit) - 1;
        for d in (self.cands[cell] - Digits::single(digit)).iter() {
            self.places[usize::from(d) - 1].remove(cell);
            self.drop_positions(cell, d);
        }
        self.places[i].remove(cell);
        self.cands[cell] = Digits::EMPTY;
        self.values[cell] = digit;
        // The digit leaves every cell of the three units, so it has no place left there.
        let n = self.geo.n;
        let units = self.geo.cell_units[cell].map(usize::from);
        for u in units {
            if !overwrite {
                self.twice |= self.held[u] & 1 << i != 0;
                self.held[u] |= 1 << i;
            }
            self.pos[u * n + i] = 0;
            self.ones[u] &= !(1 << i);
        }
        // The peers that lose the digit, a word at a time over the words the size uses; only
        // their units other than the three change.
        let peers = self.geo.peers[cell].words();
        for (w, &peer_word) in peers.iter().enumerate().take(self.geo.words) {
            let mut hit = self.places[i].words()[w] & peer_word;
            self.places[i].words_mut()[w] &= !hit;
            while hit != 0 {
                let p = 64 * w + hit.trailing_zeros() as usize;
                hit &= hit - 1;
                self.cands[p].remove(digit);
                if self.cands[p].is_empty() {
                    self.dead_cells += 1;
                }
                let ks = self.geo.cell_pos[p];
                for (j, &u) in self.geo.cell_units[p].iter().enumerate() {
                    let u = usize::from(u);
                    if units.contains(&u) {
                        continue;
                    }
                    let m = self.pos[u * n + i] & !(1 << ks[j]);
                    self.pos[u * n + i] = m;
                    let one = u32::from(m.is_power_of_two());
                    self.ones[u] = (self.ones[u] & !(1 << i)) | (one << i);
                }
            }
        }
        if overwrite {
            self.recount();
        }
    }

    /// Removes `digit` from the candidates of `cell`; whether it was one.
    ///
    /// # Panics
    /// When `cell` is not below N².
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        if !self.cands[cell].contains(digit) {
            return false;
        }
        self.cands[cell].remove(digit);
        self.places[usize::from(digit) - 1].remove(cell);
        self.drop_positions(cell, digit);
        self.dead_cells += usize::from(self.cands[cell].is_empty());
        true
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// The number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.empty
    }

    /// The filled cells as a grid.
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.geo.size, &self.values).expect("values in range")
    }

    /// The candidates of every cell, row by row (empty sets for filled cells).
    pub fn marks(&self) -> &[Digits] {
        &self.cands
    }

    /// Whether the state is visibly impossible: an empty cell without candidates, a digit
    /// twice in a unit, or a unit where a missing digit has no place left.
    pub fn is_broken(&self) -> bool {
        if self.dead_cells > 0 || self.twice {
            return true;
        }
        // A unit lacking a digit that has no place left in it.
        let n = self.geo.n;
        let all = Digits::all(n).bits();
        self.pos
            .chunks_exact(n)
            .zip(&self.held)
            .any(|(pos, &held)| {
                let possible = pos
                    .iter()
                    .enumerate()
                    .fold(0u32, |a, (i, &m)| a | u32::from(m != 0) << i);
                held | possible != all
            })
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Candidates({})", self.to_grid())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;

    #[test]
    fn geometry_matches_the_grid_units() {
        for size in Size::ALL {
            let g = geometry(size);
            let n = size.side();
            for u in 0..3 * n {
                let kind = u / n;
                for k in 0..n {
                    let (r, c) = crate::grid::unit_cell(size, kind, u % n, k);
                    assert_eq!(usize::from(g.units[u][k]), r * n + c);
                }
                assert_eq!(g.unit_sets[u].len(), n);
            }
            let peers = (n - 1) * 2 + n - size.box_rows() - size.box_cols() + 1;
            assert!(g.peers.iter().all(|p| p.len() == peers), "{size}");
        }
    }

    /// `is_broken` from the cells alone, as it was computed before the counts.
    fn broken_by_scan(c: &Candidates) -> bool {
        let geo = c.geo;
        let n = geo.n;
        if (0..n * n).any(|x| c.values[x] == 0 && c.cands[x].is_empty()) {
            return true;
        }
        for u in 0..3 * n {
            let mut placed = Digits::EMPTY;
            let mut possible = Digits::EMPTY;
            for &x in &geo.units[u][..n] {
                let x = usize::from(x);
                let v = c.values[x];
                if v != 0 {
                    if placed.contains(v) {
                        return true;
                    }
                    placed.insert(v);
                } else {
                    possible |= c.cands[x];
                }
            }
            if (placed | possible) != Digits::all(n) {
                return true;
            }
        }
        false
    }

    /// The incremental fields recomputed from the candidates.
    fn assert_consistent(c: &Candidates) {
        let geo = c.geo;
        let n = geo.n;
        assert_eq!(c.empty, c.values.iter().filter(|&&v| v == 0).count());
        let last = (0..3 * n)
            .filter(|&u| c.empty_in(u) == 1)
            .fold(0u128, |a, u| a | 1 << u);
        assert_eq!(c.units_with_one_empty(), last);
        assert_eq!(c.is_broken(), broken_by_scan(c));
        for u in 0..3 * n {
            let mut ones = 0u32;
            for d in 1..=n as u8 {
                let mut m = 0u32;
                for (k, &cell) in geo.units[u][..n].iter().enumerate() {
                    if c.has(usize::from(cell), d) {
                        m |= 1 << k;
                    }
                }
                assert_eq!(c.positions(u, d), m, "unit {u} digit {d}");
                if m.count_ones() == 1 {
                    ones |= 1 << (d - 1);
                }
            }
            assert_eq!(c.hidden_in(u).bits(), ones, "unit {u}");
        }
        for d in 1..=n as u8 {
            let cells: CellSet = (0..n * n).filter(|&x| c.has(x, d)).collect();
            assert_eq!(*c.cells_with(d), cells);
        }
    }

    #[test]
    fn unit_positions_and_hidden_singles_follow_every_change() {
        let puzzles = [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .to_owned(),
            "1.3.3.1.2.4.4.2.".to_owned(),
            "1..4......2...3.....5....6..1...2...".to_owned(),
            alloc::format!("12{}", ".".repeat(254)),
        ];
        let mut broken = 0;
        for text in &puzzles {
            let grid: Grid = text.parse().unwrap();
            let mut c = Candidates::new(&grid);
            assert_consistent(&c);
            let n = c.side();
            // A fixed walk of eliminations and placements, checked after each.
            let mut k = 7usize;
            for _ in 0..40 {
                k = (k * 31 + 17) % (n * n);
                let cands: alloc::vec::Vec<u8> = c.candidates(k).iter().collect();
                if cands.is_empty() {
                    continue;
                }
                let d = cands[k % cands.len()];
                if k % 7 == 1 {
                    // Any digit, a candidate or not, on a cell filled or not.
                    c.place((k * 13) % (n * n), (k % n) as u8 + 1);
                } else if k.is_multiple_of(3) {
                    c.place(k, d);
                } else {
                    assert!(c.eliminate(k, d));
                }
                assert_consistent(&c);
                broken += usize::from(c.is_broken());
            }
        }
        assert!(broken > 0, "the walk reaches broken states too");
    }

    #[test]
    fn place_and_eliminate_keep_both_views_in_step() {
        let grid: Grid = ".".repeat(81).parse().unwrap();
        let mut c = Candidates::new(&grid);
        c.place(0, 5);
        assert!(!c.has(1, 5) && !c.has(9, 5) && !c.has(10, 5) && c.has(40, 5));
        assert_eq!(c.cells_with(5).len(), 81 - 1 - 20);
        assert!(c.eliminate(40, 3));
        assert!(!c.eliminate(40, 3));
        assert!(!c.cells_with(3).contains(40));
        assert!(!c.is_broken());
    }
}
