//! Pencil marks: the candidates of every empty cell, for every size, as bitsets.
//!
//! [`Candidates`] keeps the digits of the filled cells, a [`Digits`] bitset per cell and,
//! for every digit, the [`CellSet`] of cells where it can still go, so the techniques of
//! [`logic`](crate::logic) read rows, columns and boxes with a few word operations.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

use crate::grid::{Grid, Size, Unit};

/// A set of digits `1..=25`, bit `d - 1` for digit `d`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Digits(u32);

impl Digits {
    /// No digit.
    pub const EMPTY: Digits = Digits(0);

    /// Every digit of a grid of side `n` (`1..=n`).
    pub const fn all(n: usize) -> Digits {
        Digits(((1u64 << n) - 1) as u32)
    }

    /// The set holding only `d`.
    ///
    /// # Panics
    /// When `d` is not in `1..=25`.
    pub const fn single(d: u8) -> Digits {
        assert!(d >= 1 && d <= 25, "digits are 1..=25");
        Digits(1 << (d - 1))
    }

    /// The set whose bit `d - 1` is set for each digit `d`.
    pub const fn from_bits(bits: u32) -> Digits {
        Digits(bits)
    }

    /// The raw bits (bit `d - 1` for digit `d`).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether `d` is in the set.
    pub const fn contains(self, d: u8) -> bool {
        d >= 1 && d <= 25 && self.0 & (1 << (d - 1)) != 0
    }

    /// Adds `d`.
    ///
    /// # Panics
    /// When `d` is not in `1..=25`.
    pub fn insert(&mut self, d: u8) {
        assert!((1..=25).contains(&d), "digits are 1..=25");
        self.0 |= 1 << (d - 1);
    }

    /// Removes `d` (nothing for a value outside `1..=25`).
    pub fn remove(&mut self, d: u8) {
        if (1..=25).contains(&d) {
            self.0 &= !(1 << (d - 1));
        }
    }

    /// The number of digits.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest digit, if any.
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8 + 1)
        }
    }

    /// The digit when the set holds exactly one.
    pub const fn only(self) -> Option<u8> {
        if self.0.count_ones() == 1 {
            self.first()
        } else {
            None
        }
    }

    /// The digits, smallest first.
    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }
}

impl BitOr for Digits {
    type Output = Digits;
    fn bitor(self, o: Digits) -> Digits {
        Digits(self.0 | o.0)
    }
}
impl BitOrAssign for Digits {
    fn bitor_assign(&mut self, o: Digits) {
        self.0 |= o.0;
    }
}
impl BitAnd for Digits {
    type Output = Digits;
    fn bitand(self, o: Digits) -> Digits {
        Digits(self.0 & o.0)
    }
}
impl BitAndAssign for Digits {
    fn bitand_assign(&mut self, o: Digits) {
        self.0 &= o.0;
    }
}
impl Sub for Digits {
    type Output = Digits;
    fn sub(self, o: Digits) -> Digits {
        Digits(self.0 & !o.0)
    }
}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The digits of a [`Digits`], smallest first.
#[derive(Debug, Clone)]
pub struct DigitIter(u32);

impl Iterator for DigitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as u8 + 1;
        self.0 &= self.0 - 1;
        Some(d)
    }
}

const WORDS: usize = 10;

/// A set of cells (row-major indices below 625), as a fixed bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// Whether `cell` is in the set.
    pub const fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// Adds `cell`.
    pub const fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Removes `cell`.
    pub const fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the two sets share a cell.
    pub fn intersects(&self, o: &CellSet) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }

    /// The smallest cell, if any.
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The cells, smallest first.
    pub fn iter(&self) -> CellIter {
        CellIter {
            words: self.0,
            word: 0,
        }
    }

    const fn union_const(mut self, o: &CellSet) -> CellSet {
        let mut i = 0;
        while i < WORDS {
            self.0[i] |= o.0[i];
            i += 1;
        }
        self
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

macro_rules! cellset_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tra for CellSet {
            fn $fa(&mut self, o: CellSet) {
                for i in 0..WORDS {
                    self.0[i] $op o.0[i];
                }
            }
        }
        impl $tr for CellSet {
            type Output = CellSet;
            fn $f(mut self, o: CellSet) -> CellSet {
                self $op o;
                self
            }
        }
    };
}
cellset_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
cellset_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);

impl Sub for CellSet {
    type Output = CellSet;
    fn sub(mut self, o: CellSet) -> CellSet {
        for i in 0..WORDS {
            self.0[i] &= !o.0[i];
        }
        self
    }
}
impl Not for CellSet {
    type Output = CellSet;
    fn not(mut self) -> CellSet {
        for w in &mut self.0 {
            *w = !*w;
        }
        self
    }
}

/// The cells of a [`CellSet`], smallest first.
#[derive(Debug, Clone)]
pub struct CellIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// The fixed structure of a size: the cells of each unit and the peers of each cell.
///
/// Units are numbered rows `0..n`, columns `n..2n`, boxes `2n..3n`.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub size: Size,
    pub n: usize,
    /// The cells of each unit in order (row-major inside a box).
    pub units: &'static [[u16; 25]],
    /// The cells of each unit as a set.
    pub unit_sets: &'static [CellSet],
    /// The cells sharing a unit with each cell, the cell itself excluded.
    pub peers: &'static [CellSet],
    /// The row, column and box unit of each cell.
    pub cell_units: &'static [[u8; 3]],
}

impl Geometry {
    pub fn row(&self, cell: usize) -> usize {
        usize::from(self.cell_units[cell][0])
    }
    pub fn col(&self, cell: usize) -> usize {
        usize::from(self.cell_units[cell][1]) - self.n
    }
    pub fn boxi(&self, cell: usize) -> usize {
        usize::from(self.cell_units[cell][2]) - 2 * self.n
    }
    /// The three units (row, column, box) of a cell.
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }
    /// Whether two distinct cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.peers[a].contains(b)
    }
}

const fn unit_cell_const(size: Size, unit: usize, k: usize) -> usize {
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    if unit < n {
        unit * n + k
    } else if unit < 2 * n {
        k * n + (unit - n)
    } else {
        let b = unit - 2 * n;
        let stacks = n / bc;
        let r = (b / stacks) * br + k / bc;
        let c = (b % stacks) * bc + k % bc;
        r * n + c
    }
}

const fn build_units<const U: usize>(size: Size) -> [[u16; 25]; U] {
    let mut out = [[0u16; 25]; U];
    let n = size.side();
    let mut u = 0;
    while u < U {
        let mut k = 0;
        while k < n {
            out[u][k] = unit_cell_const(size, u, k) as u16;
            k += 1;
        }
        u += 1;
    }
    out
}

const fn build_unit_sets<const U: usize>(size: Size) -> [CellSet; U] {
    let mut out = [CellSet::EMPTY; U];
    let n = size.side();
    let mut u = 0;
    while u < U {
        let mut k = 0;
        while k < n {
            out[u].insert(unit_cell_const(size, u, k));
            k += 1;
        }
        u += 1;
    }
    out
}

const fn build_peers<const C: usize, const U: usize>(size: Size) -> [CellSet; C] {
    let sets: [CellSet; U] = build_unit_sets(size);
    let n = size.side();
    let mut out = [CellSet::EMPTY; C];
    let mut cell = 0;
    while cell < C {
        let (r, c) = (cell / n, cell % n);
        let b = size.box_of(r, c);
        let mut s = sets[r].union_const(&sets[n + c]);
        s = s.union_const(&sets[2 * n + b]);
        s.remove(cell);
        out[cell] = s;
        cell += 1;
    }
    out
}

const fn build_cell_units<const C: usize>(size: Size) -> [[u8; 3]; C] {
    let n = size.side();
    let mut out = [[0u8; 3]; C];
    let mut cell = 0;
    while cell < C {
        let (r, c) = (cell / n, cell % n);
        out[cell] = [r as u8, (n + c) as u8, (2 * n + size.box_of(r, c)) as u8];
        cell += 1;
    }
    out
}

macro_rules! geometry_of {
    ($size:expr, $n:literal) => {{
        static UNITS: [[u16; 25]; 3 * $n] = build_units($size);
        static UNIT_SETS: [CellSet; 3 * $n] = build_unit_sets($size);
        static PEERS: [CellSet; $n * $n] = build_peers::<{ $n * $n }, { 3 * $n }>($size);
        static CELL_UNITS: [[u8; 3]; $n * $n] = build_cell_units($size);
        static GEOMETRY: Geometry = Geometry {
            size: $size,
            n: $n,
            units: &UNITS,
            unit_sets: &UNIT_SETS,
            peers: &PEERS,
            cell_units: &CELL_UNITS,
        };
        &GEOMETRY
    }};
}

/// The geometry of a size (built at compile time).
pub(crate) fn geometry(size: Size) -> &'static Geometry {
    match size {
        Size::Four => geometry_of!(Size::Four, 4),
        Size::Six => geometry_of!(Size::Six, 6),
        Size::Nine => geometry_of!(Size::Nine, 9),
        Size::Sixteen => geometry_of!(Size::Sixteen, 16),
        Size::TwentyFive => geometry_of!(Size::TwentyFive, 25),
    }
}

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
}

impl Candidates {
    /// The candidates of `grid`: for each empty cell, every digit that no filled peer holds.
    pub fn new(grid: &Grid) -> Candidates {
        let size = grid.size();
        let geo = geometry(size);
        let n = geo.n;
        let values = grid.cells().to_vec();
        // The digits each unit holds, then each empty cell gets what its units lack.
        let mut held = [Digits::EMPTY; 75];
        let mut unit_empty = alloc::vec![0u8; 3 * n];
        for (u, h) in held.iter_mut().enumerate().take(3 * n) {
            for &c in &geo.units[u][..n] {
                let v = values[usize::from(c)];
                if v != 0 {
                    h.insert(v);
                } else {
                    unit_empty[u] += 1;
                }
            }
        }
        let mut cands = alloc::vec![Digits::EMPTY; n * n];
        let mut places = alloc::vec![CellSet::EMPTY; n];
        for cell in 0..n * n {
            if values[cell] != 0 {
                continue;
            }
            let [r, c, b] = geo.units_of(cell);
            let d = Digits::all(n) - (held[r] | held[c] | held[b]);
            cands[cell] = d;
            for digit in d.iter() {
                places[usize::from(digit) - 1].insert(cell);
            }
        }
        Candidates {
            geo,
            values,
            cands,
            places,
            unit_empty,
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
    pub(crate) fn empty_in(&self, u: usize) -> usize {
        usize::from(self.unit_empty[u])
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.cands[cell].contains(digit)
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
        if self.values[cell] == 0 {
            for u in self.geo.units_of(cell) {
                self.unit_empty[u] -= 1;
            }
        }
        for d in self.cands[cell].iter() {
            self.places[usize::from(d) - 1].remove(cell);
        }
        self.cands[cell] = Digits::EMPTY;
        self.values[cell] = digit;
        let i = usize::from(digit) - 1;
        let hit = self.places[i] & self.geo.peers[cell];
        for p in hit.iter() {
            self.cands[p].remove(digit);
        }
        self.places[i] = self.places[i] - hit;
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
        true
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
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
        let geo = self.geo;
        let n = geo.n;
        if (0..n * n).any(|c| self.values[c] == 0 && self.cands[c].is_empty()) {
            return true;
        }
        for u in 0..3 * n {
            let mut placed = Digits::EMPTY;
            let mut possible = Digits::EMPTY;
            for &c in &geo.units[u][..n] {
                let c = usize::from(c);
                let v = self.values[c];
                if v != 0 {
                    if placed.contains(v) {
                        return true;
                    }
                    placed.insert(v);
                } else {
                    possible |= self.cands[c];
                }
            }
            if (placed | possible) != Digits::all(n) {
                return true;
            }
        }
        false
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
