//! Full house, hidden singles and naked singles.

use alloc::format;
use alloc::vec;

use super::{Step, Technique, step, unit_of};
use crate::candidates::{Candidates, cell_name};
use crate::symbol_char;

/// A unit with one empty cell whose only candidate is the missing digit.
pub(crate) fn full_house(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for u in (2 * n..3 * n).chain(0..2 * n) {
        if state.empty_in(u) != 1 {
            continue;
        }
        let Some(cell) = geo.units[u][..n]
            .iter()
            .map(|&c| usize::from(c))
            .find(|&c| state.value(c).is_none())
        else {
            continue;
        };
        if let Some(d) = state.candidates(cell).only() {
            return Some(step(
                Technique::FullHouse,
                vec![cell],
                vec![(cell, d)],
                vec![(cell, d)],
                vec![],
                format!(
                    "{} is the last empty cell of {}, so it holds {}.",
                    cell_name(geo.size, cell),
                    unit_of(geo, u),
                    symbol_char(d)
                ),
            ));
        }
    }
    None
}

/// A digit with a single place in a box (`boxes`) or in a row or column.
pub(crate) fn hidden_single(state: &Candidates, boxes: bool) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let units = if boxes { 2 * n..3 * n } else { 0..2 * n };
    let technique = if boxes {
        Technique::HiddenSingleBox
    } else {
        Technique::HiddenSingleLine
    };
    for u in units {
        // Digits seen once and more than once among the unit's candidates.
        let (mut once, mut twice) = (0u32, 0u32);
        for &c in &geo.units[u][..n] {
            let m = state.candidates(usize::from(c)).bits();
            twice |= once & m;
            once |= m;
        }
        let single = once & !twice;
        if single != 0 {
            let d = single.trailing_zeros() as u8 + 1;
            let here = *state.cells_with(d) & geo.unit_sets[u];
            {
                let cell = here.first().expect("one cell");
                return Some(step(
                    technique,
                    vec![cell],
                    vec![(cell, d)],
                    vec![(cell, d)],
                    vec![],
                    format!(
                        "In {}, only {} can hold {}.",
                        unit_of(geo, u),
                        cell_name(geo.size, cell),
                        symbol_char(d)
                    ),
                ));
            }
        }
    }
    None
}

/// A cell with one candidate.
pub(crate) fn naked_single(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    (0..geo.n * geo.n).find_map(|cell| {
        let d = state.candidates(cell).only()?;
        Some(step(
            Technique::NakedSingle,
            vec![cell],
            vec![(cell, d)],
            vec![(cell, d)],
            vec![],
            format!(
                "{} can only hold {}: its row, column and box hold every other digit or rule it out.",
                cell_name(geo.size, cell),
                symbol_char(d)
            ),
        ))
    })
}
