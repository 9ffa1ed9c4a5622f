//! Locked candidates: pointing (box → line) and claiming (line → box).

use alloc::format;
use alloc::vec::Vec;

use super::{Step, Technique, eliminations_text, elims_of, step, unit_of};
use crate::candidates::{Candidates, CellSet};
use crate::symbol_char;

/// In a box, a digit confined to one row or column: it leaves the rest of that line.
pub(crate) fn pointing(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for b in 2 * n..3 * n {
        for d in 1..=n as u8 {
            let here = *state.cells_with(d) & geo.unit_sets[b];
            if here.len() < 2 {
                continue;
            }
            let first = here.first().expect("cells");
            for line in [geo.row(first), n + geo.col(first)] {
                if (here - geo.unit_sets[line]).is_empty() {
                    let elim = (*state.cells_with(d) & geo.unit_sets[line]) - geo.unit_sets[b];
                    if !elim.is_empty() {
                        return Some(locked(state, Technique::Pointing, d, b, line, here, elim));
                    }
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
    for line in 0..2 * n {
        for d in 1..=n as u8 {
            let here = *state.cells_with(d) & geo.unit_sets[line];
            if here.len() < 2 {
                continue;
            }
            let b = 2 * n + geo.boxi(here.first().expect("cells"));
            if (here - geo.unit_sets[b]).is_empty() {
                let elim = (*state.cells_with(d) & geo.unit_sets[b]) - geo.unit_sets[line];
                if !elim.is_empty() {
                    return Some(locked(state, Technique::Claiming, d, line, b, here, elim));
                }
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
