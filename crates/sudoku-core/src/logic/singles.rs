//! Full house, hidden singles and naked singles.
//!
//! Each is found by an allocation-free search (`find_*`, the cell, digit and unit) that
//! both the step builders and the solver's fast path ([`fill_singles`]) use, so both take
//! the same singles in the same order.

use alloc::format;
use alloc::vec;

use super::{Step, Technique, Techniques, step, unit_of};
use crate::candidates::{Candidates, cell_name};
use crate::symbol_char;

/// A single: the technique, the cell, the digit and the unit it was found in.
pub(crate) type Single = (Technique, usize, u8, usize);

/// A unit with one empty cell whose only candidate is the missing digit.
fn find_full_house(state: &Candidates) -> Option<Single> {
    let geo = state.geo();
    let n = geo.n;
    // Boxes first, then rows and columns: the units with one empty cell, in that order.
    let one = state.units_with_one_empty();
    let lines = (1u128 << (2 * n)) - 1;
    for (mut m, base) in [(one >> (2 * n), 2 * n), (one & lines, 0)] {
        while m != 0 {
            let u = base + m.trailing_zeros() as usize;
            m &= m - 1;
            let Some(cell) = geo.units[u][..n]
                .iter()
                .map(|&c| usize::from(c))
                .find(|&c| state.value(c).is_none())
            else {
                continue;
            };
            if let Some(d) = state.candidates(cell).only() {
                return Some((Technique::FullHouse, cell, d, u));
            }
        }
    }
    None
}

/// A digit with a single place in a box (`boxes`) or in a row or column.
fn find_hidden_single(state: &Candidates, boxes: bool) -> Option<Single> {
    let geo = state.geo();
    let n = geo.n;
    let units = if boxes { 2 * n..3 * n } else { 0..2 * n };
    let technique = if boxes {
        Technique::HiddenSingleBox
    } else {
        Technique::HiddenSingleLine
    };
    for u in units {
        // The digits with one place in the unit, kept by the candidates.
        let single = state.hidden_in(u).bits();
        if single != 0 {
            let d = single.trailing_zeros() as u8 + 1;
            let k = state.positions(u, d).trailing_zeros() as usize;
            return Some((technique, usize::from(geo.units[u][k]), d, u));
        }
    }
    None
}

/// A cell with one candidate.
fn find_naked_single(state: &Candidates) -> Option<Single> {
    let n = state.side();
    (0..n * n).find_map(|cell| {
        let d = state.candidates(cell).only()?;
        Some((Technique::NakedSingle, cell, d, 0))
    })
}

/// The simplest single among `allowed`, in the solver's order.
fn find_single(state: &Candidates, allowed: Techniques) -> Option<Single> {
    [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
    ]
    .into_iter()
    .filter(|&t| allowed.contains(t))
    .find_map(|t| find_single_of(state, t))
}

fn find_single_of(state: &Candidates, t: Technique) -> Option<Single> {
    match t {
        Technique::FullHouse => find_full_house(state),
        Technique::HiddenSingleBox => find_hidden_single(state, true),
        Technique::HiddenSingleLine => find_hidden_single(state, false),
        _ => find_naked_single(state),
    }
}

/// Places singles (of the `allowed` kinds) while there are any, the simplest first: the
/// steps the solver would take, without building them. Returns how many were placed and
/// the hardest kind used.
pub(crate) fn fill_singles(
    state: &mut Candidates,
    allowed: Techniques,
) -> (usize, Option<Technique>) {
    let mut count = 0;
    let mut hardest = None;
    while let Some((t, cell, d, _)) = find_single(state, allowed) {
        state.place(cell, d);
        count += 1;
        hardest = hardest.max(Some(t));
    }
    (count, hardest)
}

/// The step of the first single of technique `t`.
pub(crate) fn single_step(state: &Candidates, t: Technique) -> Option<Step> {
    let (t, cell, d, u) = find_single_of(state, t)?;
    let geo = state.geo();
    let (name, digit) = (cell_name(geo.size, cell), symbol_char(d));
    let text = match t {
        Technique::FullHouse => format!(
            "{name} is the last empty cell of {}, so it holds {digit}.",
            unit_of(geo, u)
        ),
        Technique::NakedSingle => format!(
            "{name} can only hold {digit}: its row, column and box hold every other digit or rule it out."
        ),
        _ => format!("In {}, only {name} can hold {digit}.", unit_of(geo, u)),
    };
    Some(step(
        t,
        vec![cell],
        vec![(cell, d)],
        vec![(cell, d)],
        vec![],
        text,
    ))
}
