//! Logical solving, one human step at a time: each technique looks at a grid and its
//! pencil marks and returns a [`Step`] (what it places or rules out, and why) or nothing.
//!
//! ```
//! use sudoku_core::{Candidates, Grid, logic};
//! let g: Grid = "1234341221434.21".parse().unwrap();
//! let step = logic::next_step(&g, &Candidates::of(&g)).unwrap();
//! assert_eq!(step.technique, logic::Technique::FullHouse);
//! assert_eq!(step.placements, vec![(3, 1, 3)]);
//! assert_eq!(step.to_string(), "full house: r4c2 is the last empty cell of row 4, so it is 3");
//! ```

use alloc::vec::Vec;
use core::fmt;

use crate::candidates::Candidates;
use crate::grid::{Grid, Size, Unit, symbol_char, unit_cell};

mod intersections;
mod singles;
mod subsets;

pub use intersections::locked_candidates;
pub use singles::{full_house, hidden_single, naked_single};
pub use subsets::{hidden_subset, naked_subset};

/// A solving technique, in rough order of difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a unit takes the missing symbol.
    FullHouse,
    /// A cell with one candidate left takes it.
    NakedSingle,
    /// A symbol with one place left in a unit goes there.
    HiddenSingle,
    /// The candidates of a symbol in a box all lie in one row or column (pointing), or
    /// those of a row or column all lie in one box (claiming): the symbol leaves the rest
    /// of the other unit.
    LockedCandidates,
    /// `k` cells of a unit whose candidates together are `k` symbols (pair, triple, quad):
    /// those symbols leave the other cells of the unit.
    NakedSubset(u8),
    /// `k` symbols whose places in a unit are the same `k` cells: the other candidates
    /// leave those cells.
    HiddenSubset(u8),
}

impl Technique {
    /// The technique's name, as HoDoKu and Sudoku Explainer use it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::LockedCandidates => "locked candidates",
            Technique::NakedSubset(2) => "naked pair",
            Technique::NakedSubset(3) => "naked triple",
            Technique::NakedSubset(_) => "naked quad",
            Technique::HiddenSubset(2) => "hidden pair",
            Technique::HiddenSubset(3) => "hidden triple",
            Technique::HiddenSubset(_) => "hidden quad",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One logical step: the technique, the cells its reasoning rests on, what it places and
/// rules out, and a one-sentence explanation ([`Display`](fmt::Display)).
///
/// Cells are `(row, column)` and placements and eliminations `(row, column, symbol)`, all
/// 0-based; the explanation writes cells as `r1c1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// The unit the reasoning is about (`None` for a naked single, which is about one
    /// cell).
    pub unit: Option<Unit>,
    /// The cells the reasoning rests on.
    pub cells: Vec<(usize, usize)>,
    /// The symbols the reasoning is about.
    pub symbols: Vec<u8>,
    /// The symbols placed.
    pub placements: Vec<(usize, usize, u8)>,
    /// The candidates ruled out.
    pub eliminations: Vec<(usize, usize, u8)>,
}

impl Step {
    /// Applies the step: places its symbols in `grid` and removes its eliminations (and
    /// the placed symbols' peers) from `candidates`.
    pub fn apply(&self, grid: &mut Grid, candidates: &mut Candidates) {
        for &(r, c, v) in &self.placements {
            // A step's cells are inside the grid and its symbols are the grid's.
            let _ = grid.set(r, c, Some(v));
            candidates.place(r, c, v);
        }
        for &(r, c, v) in &self.eliminations {
            candidates.remove(r, c, v);
        }
    }
}

/// `r3c5, r3c6`.
struct CellList<'a>(&'a [(usize, usize)]);

impl fmt::Display for CellList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (r, c)) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}r{}c{}", r + 1, c + 1)?;
        }
        Ok(())
    }
}

/// `1, 5 and A`.
struct SymbolList<'a>(&'a [u8]);

impl fmt::Display for SymbolList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.0.len();
        for (i, &v) in self.0.iter().enumerate() {
            let sep = match i {
                0 => "",
                _ if i + 1 == k => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{}", symbol_char(v))?;
        }
        Ok(())
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (cells, symbols) = (CellList(&self.cells), SymbolList(&self.symbols));
        let unit = UnitName(self.unit);
        let ruled_out = self.eliminations.len();
        let name = self.technique.name();
        match self.technique {
            Technique::FullHouse => write!(
                f,
                "{name}: {cells} is the last empty cell of {unit}, so it is {symbols}"
            ),
            Technique::NakedSingle => {
                write!(f, "{name}: {symbols} is the only candidate left in {cells}")
            }
            Technique::HiddenSingle => write!(
                f,
                "{name}: {cells} is the only place left for {symbols} in {unit}"
            ),
            Technique::LockedCandidates => write!(
                f,
                "{name}: in {unit}, {symbols} can only be in {cells}, which rules out \
                 {ruled_out} candidate{} elsewhere",
                plural(ruled_out)
            ),
            Technique::NakedSubset(_) => write!(
                f,
                "{name}: {cells} in {unit} hold only {symbols} between them, which rules \
                 out {ruled_out} candidate{} in the rest of {unit}",
                plural(ruled_out)
            ),
            Technique::HiddenSubset(_) => write!(
                f,
                "{name}: in {unit}, {symbols} can only go in {cells}, which rules out \
                 {ruled_out} other candidate{} there",
                plural(ruled_out)
            ),
        }
    }
}

/// A step's unit in words; "the grid" when there is none.
struct UnitName(Option<Unit>);

impl fmt::Display for UnitName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(unit) => write!(f, "{unit}"),
            None => f.write_str("the grid"),
        }
    }
}

fn plural(k: usize) -> &'static str {
    if k == 1 { "" } else { "s" }
}

/// The first step found, trying the techniques in order of difficulty (subsets from pairs
/// to quads); `None` when none applies.
pub fn next_step(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    full_house(grid, candidates)
        .or_else(|| naked_single(grid, candidates))
        .or_else(|| hidden_single(grid, candidates))
        .or_else(|| locked_candidates(grid, candidates))
        .or_else(|| (2..=4).find_map(|k| naked_subset(grid, candidates, k)))
        .or_else(|| (2..=4).find_map(|k| hidden_subset(grid, candidates, k)))
}

/// Every unit of a size with its cells: rows, then columns, then boxes.
pub(crate) fn units(size: Size) -> impl Iterator<Item = (Unit, Vec<(usize, usize)>)> {
    let n = size.side();
    (0..3).flat_map(move |kind| {
        (0..n).map(move |u| {
            let unit = match kind {
                0 => Unit::Row(u),
                1 => Unit::Column(u),
                _ => Unit::Box(u),
            };
            (unit, (0..n).map(|k| unit_cell(size, kind, u, k)).collect())
        })
    })
}
