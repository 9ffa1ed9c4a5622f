//! Techniques that assume the puzzle has one solution: unique rectangles (types 1–4) and
//! BUG+1. Four cells on two rows, two columns and two boxes holding only x and y would let
//! the two digits swap, giving a second solution; so they never end up that way.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::{Step, Technique, cells_text, digits_text, eliminations_text, step, unit_of};
use crate::candidates::{Candidates, Digits};
use crate::symbol_char;

/// A unique rectangle of the given type (1, 2, 3 or 4).
pub(crate) fn rectangle(state: &Candidates, kind: u8) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    if cells.iter().any(|&c| state.value(c).is_some()) {
                        continue;
                    }
                    let mut boxes: Vec<usize> = cells.iter().map(|&c| geo.boxi(c)).collect();
                    boxes.sort_unstable();
                    boxes.dedup();
                    if boxes.len() != 2 {
                        continue;
                    }
                    let common = cells
                        .iter()
                        .fold(Digits::all(n), |a, &c| a & state.candidates(c));
                    if common.len() < 2 {
                        continue;
                    }
                    for x in common.iter() {
                        for y in common.iter().filter(|&y| y > x) {
                            let found = match kind {
                                1 => type1(state, cells, x, y),
                                2 => type2(state, cells, x, y),
                                3 => type3(state, cells, x, y),
                                _ => type4(state, cells, x, y),
                            };
                            if found.is_some() {
                                return found;
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

fn pair(x: u8, y: u8) -> Digits {
    Digits::single(x) | Digits::single(y)
}

fn ur_step(
    state: &Candidates,
    technique: Technique,
    cells: [usize; 4],
    x: u8,
    y: u8,
    eliminations: Vec<(usize, u8)>,
    why: &str,
) -> Step {
    let size = state.size();
    let text = format!(
        "{} would hold only {} and {} (a deadly pattern with two solutions); {}: {}.",
        cells_text(size, cells),
        symbol_char(x),
        symbol_char(y),
        why,
        eliminations_text(size, &eliminations)
    );
    let candidates = cells
        .iter()
        .flat_map(|&c| state.candidates(c).iter().map(move |d| (c, d)))
        .collect();
    step(
        technique,
        cells.to_vec(),
        candidates,
        Vec::new(),
        eliminations,
        text,
    )
}

/// Floor (exactly {x, y}) and roof cells; the floor must be two cells in one line.
fn split(state: &Candidates, cells: [usize; 4], x: u8, y: u8) -> (Vec<usize>, Vec<usize>) {
    let xy = pair(x, y);
    cells.iter().partition(|&&c| state.candidates(c) == xy)
}

fn type1(state: &Candidates, cells: [usize; 4], x: u8, y: u8) -> Option<Step> {
    let (floor, roof) = split(state, cells, x, y);
    if floor.len() != 3 {
        return None;
    }
    let r = roof[0];
    let elims = vec![(r, x), (r, y)];
    let why = format!(
        "so {} holds one of its other digits",
        cells_text(state.size(), [r])
    );
    Some(ur_step(
        state,
        Technique::UniqueRectangle1,
        cells,
        x,
        y,
        elims,
        &why,
    ))
}

/// The two roof cells when the floor is two cells of one row or column.
fn roof_pair(state: &Candidates, cells: [usize; 4], x: u8, y: u8) -> Option<(usize, usize)> {
    let geo = state.geo();
    let (floor, roof) = split(state, cells, x, y);
    if floor.len() != 2 {
        return None;
    }
    let (a, b) = (floor[0], floor[1]);
    if geo.row(a) != geo.row(b) && geo.col(a) != geo.col(b) {
        return None;
    }
    Some((roof[0], roof[1]))
}

fn type2(state: &Candidates, cells: [usize; 4], x: u8, y: u8) -> Option<Step> {
    let geo = state.geo();
    let (r1, r2) = roof_pair(state, cells, x, y)?;
    let xy = pair(x, y);
    let e1 = state.candidates(r1) - xy;
    if e1.len() != 1 || state.candidates(r2) - xy != e1 {
        return None;
    }
    let z = e1.first()?;
    let elim = (*state.cells_with(z) & geo.peers[r1]) & geo.peers[r2];
    if elim.is_empty() {
        return None;
    }
    let why = format!(
        "so {} or {} holds {}",
        cells_text(geo.size, [r1]),
        cells_text(geo.size, [r2]),
        symbol_char(z)
    );
    let elims = elim.iter().map(|c| (c, z)).collect();
    Some(ur_step(
        state,
        Technique::UniqueRectangle2,
        cells,
        x,
        y,
        elims,
        &why,
    ))
}

fn shared_units(state: &Candidates, a: usize, b: usize) -> Vec<usize> {
    let geo = state.geo();
    let ub = geo.units_of(b);
    geo.units_of(a)
        .into_iter()
        .filter(|u| ub.contains(u))
        .collect()
}

fn type3(state: &Candidates, cells: [usize; 4], x: u8, y: u8) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let (r1, r2) = roof_pair(state, cells, x, y)?;
    let xy = pair(x, y);
    let extra = (state.candidates(r1) | state.candidates(r2)) - xy;
    if extra.is_empty() {
        return None;
    }
    for u in shared_units(state, r1, r2) {
        let others: Vec<usize> = geo.units[u][..n]
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| c != r1 && c != r2 && state.value(c).is_none())
            .collect();
        // The roof acts as one cell holding the extras; item 0 is that virtual cell.
        let mut items = vec![extra.bits()];
        items.extend(others.iter().map(|&c| state.candidates(c).bits()));
        for k in 2..=4usize.min(others.len()) {
            let mut out = None;
            super::subsets::subsets(&items, k, &mut |chosen, union| {
                if chosen[0] != 0 {
                    return false;
                }
                let subset: Vec<usize> = chosen[1..].iter().map(|&i| others[i - 1]).collect();
                let digits = Digits::from_bits(union);
                let mut elims = Vec::new();
                for &c in &others {
                    if !subset.contains(&c) {
                        elims.extend((state.candidates(c) & digits).iter().map(|d| (c, d)));
                    }
                }
                if elims.is_empty() {
                    return false;
                }
                let why = format!(
                    "so {} or {} holds one of {}, which with {} makes a naked subset of {} in {}",
                    cells_text(geo.size, [r1]),
                    cells_text(geo.size, [r2]),
                    digits_text(extra),
                    cells_text(geo.size, subset.iter().copied()),
                    digits_text(digits),
                    unit_of(geo, u)
                );
                out = Some(ur_step(
                    state,
                    Technique::UniqueRectangle3,
                    cells,
                    x,
                    y,
                    elims,
                    &why,
                ));
                true
            });
            if out.is_some() {
                return out;
            }
        }
    }
    None
}

fn type4(state: &Candidates, cells: [usize; 4], x: u8, y: u8) -> Option<Step> {
    let geo = state.geo();
    let (r1, r2) = roof_pair(state, cells, x, y)?;
    for u in shared_units(state, r1, r2) {
        for (strong, other) in [(x, y), (y, x)] {
            let s = *state.cells_with(strong) & geo.unit_sets[u];
            if s.len() == 2 && s.contains(r1) && s.contains(r2) {
                let why = format!(
                    "{} must be in {} or {} ({}), so neither holds {}",
                    symbol_char(strong),
                    cells_text(geo.size, [r1]),
                    cells_text(geo.size, [r2]),
                    unit_of(geo, u),
                    symbol_char(other)
                );
                let elims = vec![(r1, other), (r2, other)];
                return Some(ur_step(
                    state,
                    Technique::UniqueRectangle4,
                    cells,
                    x,
                    y,
                    elims,
                    &why,
                ));
            }
        }
    }
    None
}

/// Every empty cell bivalue but one trivalue cell: that cell holds the digit appearing
/// three times in its units, otherwise the grid would have no or several solutions.
pub(crate) fn bug_plus_one(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let mut tri = None;
    for c in 0..n * n {
        match state.candidates(c).len() {
            0 | 2 => {}
            3 if tri.is_none() => tri = Some(c),
            _ => return None,
        }
    }
    let t = tri?;
    let digit = state.candidates(t).iter().find(|&d| {
        let u = geo.row(t);
        (*state.cells_with(d) & geo.unit_sets[u]).len() == 3
    })?;
    for u in 0..3 * n {
        for d in 1..=n as u8 {
            let k = (*state.cells_with(d) & geo.unit_sets[u]).len();
            let extra = d == digit && geo.unit_sets[u].contains(t);
            let ok = if extra { k == 3 } else { k == 0 || k == 2 };
            if !ok {
                return None;
            }
        }
    }
    let text = format!(
        "Every empty cell but {} has two candidates, and each digit appears twice in each unit except {} in the units of {}: without it the grid would not have one solution, so {} holds {}.",
        cells_text(geo.size, [t]),
        symbol_char(digit),
        cells_text(geo.size, [t]),
        cells_text(geo.size, [t]),
        symbol_char(digit)
    );
    let candidates = state.candidates(t).iter().map(|d| (t, d)).collect();
    Some(step(
        Technique::BugPlusOne,
        vec![t],
        candidates,
        vec![(t, digit)],
        Vec::new(),
        text,
    ))
}
