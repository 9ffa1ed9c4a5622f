//! Singles: full house, naked single, hidden single.

use alloc::vec;

use super::{Step, Technique, units};
use crate::candidates::{Candidates, Marks};
use crate::grid::Grid;

/// A unit with one empty cell left: it takes the one symbol the unit misses.
pub fn full_house(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    let size = grid.size();
    units(size).find_map(|(unit, cells)| {
        let mut empty = cells.iter().filter(|&&(r, c)| grid.get(r, c).is_none());
        let &(r, c) = empty.next()?;
        if empty.next().is_some() {
            return None;
        }
        let present = cells
            .iter()
            .filter_map(|&(r, c)| grid.get(r, c))
            .fold(Marks::EMPTY, |m, v| m.union(Marks::single(v)));
        let v = Marks::all(size).minus(present).only()?;
        candidates.get(r, c).contains(v).then(|| Step {
            technique: Technique::FullHouse,
            unit: Some(unit),
            cells: vec![(r, c)],
            symbols: vec![v],
            placements: vec![(r, c, v)],
            eliminations: vec![],
        })
    })
}

/// An empty cell with one candidate left.
pub fn naked_single(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    let n = grid.size().side();
    (0..n * n).find_map(|i| {
        let (r, c) = (i / n, i % n);
        let v = candidates.get(r, c).only()?;
        Some(Step {
            technique: Technique::NakedSingle,
            unit: None,
            cells: vec![(r, c)],
            symbols: vec![v],
            placements: vec![(r, c, v)],
            eliminations: vec![],
        })
    })
}

/// A symbol missing from a unit with one candidate cell left in it.
pub fn hidden_single(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    let size = grid.size();
    units(size).find_map(|(unit, cells)| {
        (1..=size.side() as u8).find_map(|v| {
            if cells.iter().any(|&(r, c)| grid.get(r, c) == Some(v)) {
                return None;
            }
            let mut places = cells
                .iter()
                .filter(|&&(r, c)| candidates.get(r, c).contains(v));
            let &(r, c) = places.next()?;
            if places.next().is_some() {
                return None;
            }
            Some(Step {
                technique: Technique::HiddenSingle,
                unit: Some(unit),
                cells: vec![(r, c)],
                symbols: vec![v],
                placements: vec![(r, c, v)],
                eliminations: vec![],
            })
        })
    })
}
