//! Naked and hidden subsets (pairs, triples, quads) inside one unit.

use alloc::vec;
use alloc::vec::Vec;

use super::{Step, Technique, units};
use crate::candidates::{Candidates, Marks};
use crate::grid::Grid;

/// Calls `visit` with every `k`-element subset of `0..len` (as indices, increasing) until
/// it returns something.
fn subsets<T>(len: usize, k: usize, visit: &mut dyn FnMut(&[usize]) -> Option<T>) -> Option<T> {
    fn go<T>(
        start: usize,
        len: usize,
        k: usize,
        chosen: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]) -> Option<T>,
    ) -> Option<T> {
        if chosen.len() == k {
            return visit(chosen);
        }
        for i in start..len {
            chosen.push(i);
            let found = go(i + 1, len, k, chosen, visit);
            chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    go(0, len, k, &mut Vec::with_capacity(k), visit)
}

/// `k` empty cells of a unit (2 to 4) whose candidates together are exactly `k` symbols:
/// those symbols are ruled out in the unit's other cells.
pub fn naked_subset(grid: &Grid, candidates: &Candidates, k: usize) -> Option<Step> {
    if !(2..=4).contains(&k) {
        return None;
    }
    units(grid.size()).find_map(|(unit, cells)| {
        let open: Vec<(usize, usize)> = cells
            .iter()
            .copied()
            .filter(|&(r, c)| !candidates.get(r, c).is_empty())
            .collect();
        if open.len() <= k {
            return None;
        }
        subsets(open.len(), k, &mut |chosen| {
            let union = chosen.iter().fold(Marks::EMPTY, |m, &i| {
                m.union(candidates.get(open[i].0, open[i].1))
            });
            if union.len() != k {
                return None;
            }
            let subset: Vec<(usize, usize)> = chosen.iter().map(|&i| open[i]).collect();
            let eliminations: Vec<(usize, usize, u8)> = open
                .iter()
                .filter(|p| !subset.contains(p))
                .flat_map(|&(r, c)| {
                    candidates
                        .get(r, c)
                        .intersection(union)
                        .iter()
                        .map(move |v| (r, c, v))
                })
                .collect();
            (!eliminations.is_empty()).then(|| Step {
                technique: Technique::NakedSubset(k as u8),
                unit: Some(unit),
                cells: subset,
                symbols: union.iter().collect(),
                placements: vec![],
                eliminations,
            })
        })
    })
}

/// `k` symbols (2 to 4) whose candidate cells in a unit are, together, exactly `k` cells:
/// every other candidate of those cells is ruled out.
pub fn hidden_subset(grid: &Grid, candidates: &Candidates, k: usize) -> Option<Step> {
    if !(2..=4).contains(&k) {
        return None;
    }
    let n = grid.size().side();
    units(grid.size()).find_map(|(unit, cells)| {
        // The symbols still to place in the unit, with the cells (indices) they may take.
        let open: Vec<(u8, Vec<usize>)> = (1..=n as u8)
            .filter_map(|v| {
                let places: Vec<usize> = (0..n)
                    .filter(|&i| candidates.get(cells[i].0, cells[i].1).contains(v))
                    .collect();
                (!places.is_empty()).then_some((v, places))
            })
            .collect();
        if open.len() <= k {
            return None;
        }
        subsets(open.len(), k, &mut |chosen| {
            let mut places: Vec<usize> = chosen
                .iter()
                .flat_map(|&i| open[i].1.iter().copied())
                .collect();
            places.sort_unstable();
            places.dedup();
            if places.len() != k {
                return None;
            }
            let symbols = chosen
                .iter()
                .fold(Marks::EMPTY, |m, &i| m.union(Marks::single(open[i].0)));
            let subset: Vec<(usize, usize)> = places.iter().map(|&i| cells[i]).collect();
            let eliminations: Vec<(usize, usize, u8)> = subset
                .iter()
                .flat_map(|&(r, c)| {
                    candidates
                        .get(r, c)
                        .minus(symbols)
                        .iter()
                        .map(move |v| (r, c, v))
                })
                .collect();
            (!eliminations.is_empty()).then(|| Step {
                technique: Technique::HiddenSubset(k as u8),
                unit: Some(unit),
                cells: subset,
                symbols: symbols.iter().collect(),
                placements: vec![],
                eliminations,
            })
        })
    })
}
