//! Locked candidates: the intersection of a box with a row or column.

use alloc::vec;
use alloc::vec::Vec;

use super::{Step, Technique, units};
use crate::candidates::Candidates;
use crate::grid::{Grid, Unit};

/// A symbol whose candidates in one unit all lie in a second unit that crosses it (a box
/// and a row or column): the symbol is ruled out in the rest of the second unit. Pointing
/// (from a box) is tried before claiming (from a row or column).
pub fn locked_candidates(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    let size = grid.size();
    let n = size.side();
    let all: Vec<(Unit, Vec<(usize, usize)>)> = units(size).collect();
    let (lines, boxes) = all.split_at(2 * n);
    let ordered = boxes
        .iter()
        .map(|b| (b, lines))
        .chain(lines.iter().map(|l| (l, boxes)));
    for ((unit, cells), others) in ordered {
        for v in 1..=n as u8 {
            let places: Vec<(usize, usize)> = cells
                .iter()
                .copied()
                .filter(|&(r, c)| candidates.get(r, c).contains(v))
                .collect();
            if places.len() < 2 {
                continue;
            }
            for (_, other_cells) in others {
                if !places.iter().all(|p| other_cells.contains(p)) {
                    continue;
                }
                let eliminations: Vec<(usize, usize, u8)> = other_cells
                    .iter()
                    .filter(|p| !cells.contains(p) && candidates.get(p.0, p.1).contains(v))
                    .map(|&(r, c)| (r, c, v))
                    .collect();
                if !eliminations.is_empty() {
                    return Some(Step {
                        technique: Technique::LockedCandidates,
                        unit: Some(*unit),
                        cells: places,
                        symbols: vec![v],
                        placements: vec![],
                        eliminations,
                    });
                }
            }
        }
    }
    None
}
