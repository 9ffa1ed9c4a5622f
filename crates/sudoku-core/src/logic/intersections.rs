//! Locked candidates: pointing (box → line) and claiming (line → box).

use alloc::format;
use alloc::vec::Vec;

use super::{Step, Technique, eliminations_text, elims_of, step, unit_of};
use crate::candidates::{Candidates, CellSet, Geometry};
use crate::symbol_char;

/// The positions inside a box of its row `r` (0-based inside the box), or with `row`
/// false of its column `r`.
fn box_part(geo: &Geometry, row: bool, r: usize) -> u32 {
    let (br, bc) = (geo.size.box_rows(), geo.size.box_cols());
    if row {
        ((1 << bc) - 1) << (bc * r)
    } else {
        (0..br).fold(0, |m, j| m | 1 << (j * bc + r))
    }
}

/// The positions inside a row (or with `row` false, a column) that box `b` (0-based)
/// covers.
fn line_part(geo: &Geometry, row: bool, b: usize) -> u32 {
    let (br, bc) = (geo.size.box_rows(), geo.size.box_cols());
    let stacks = geo.n / bc;
    if row {
        ((1 << bc) - 1) << (bc * (b % stacks))
    } else {
        ((1 << br) - 1) << (br * (b / stacks))
    }
}

/// In a box, a digit confined to one row or column: it leaves the rest of that line.
pub(crate) fn pointing(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let bc = geo.size.box_cols();
    for b in 2 * n..3 * n {
        for d in 1..=n as u8 {
            // Read from the unit positions the candidates keep; the cell sets are built
            // only for a step.
            let m = state.positions(b, d);
            if m.count_ones() < 2 {
                continue;
            }
            let k = m.trailing_zeros() as usize;
            let first = usize::from(geo.units[b][k]);
            for (line, row) in [(geo.row(first), true), (n + geo.col(first), false)] {
                let part = box_part(geo, row, if row { k / bc } else { k % bc });
                if m & !part == 0 && state.positions(line, d) & !line_part(geo, row, b - 2 * n) != 0
                {
                    let here = *state.cells_with(d) & geo.unit_sets[b];
                    let elim = (*state.cells_with(d) & geo.unit_sets[line]) - geo.unit_sets[b];
                    return Some(locked(state, Technique::Pointing, d, b, line, here, elim));
                }
            }
        }
    }
    None
}

/// In a row or column, a digit confined to one box: it leaves the rest of that box.
pub(crate) fn claiming(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let (br, bc) = (geo.size.box_rows(), geo.size.box_cols());
    for line in 0..2 * n {
        let row = line < n;
        for d in 1..=n as u8 {
            let m = state.positions(line, d);
            if m.count_ones() < 2 {
                continue;
            }
            let first = usize::from(geo.units[line][m.trailing_zeros() as usize]);
            let b = geo.boxi(first);
            let offset = if row { line % br } else { (line - n) % bc };
            if m & !line_part(geo, row, b) == 0
                && state.positions(2 * n + b, d) & !box_part(geo, row, offset) != 0
            {
                let here = *state.cells_with(d) & geo.unit_sets[line];
                let elim = (*state.cells_with(d) & geo.unit_sets[2 * n + b]) - geo.unit_sets[line];
                return Some(locked(
                    state,
                    Technique::Claiming,
                    d,
                    line,
                    2 * n + b,
                    here,
                    elim,
                ));
            }
        }
    }
    None
}

fn locked(
    state: &Candidates,
    technique: Technique,
    d: u8,
    from: usize,
    to: usize,
    here: CellSet,
    elim: CellSet,
) -> Step {
    let geo = state.geo();
    let eliminations = elims_of(d, &elim);
    let text = format!(
        "In {}, {} can only be in {}, so it is removed from the rest of {}: {}.",
        unit_of(geo, from),
        symbol_char(d),
        unit_of(geo, to),
        unit_of(geo, to),
        eliminations_text(geo.size, &eliminations)
    );
    step(
        technique,
        here.iter().collect(),
        here.iter().map(|c| (c, d)).collect::<Vec<_>>(),
        Vec::new(),
        eliminations,
        text,
    )
}
