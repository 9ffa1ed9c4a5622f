//! Patterns on one digit: skyscraper, 2-string kite, empty rectangle, simple colouring.
//! (The X-chain, the general single-digit chain, is in `chains.rs`.)
//!
//! A strong link is a unit where the digit has exactly two places: one of them holds it.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::{Step, Technique, cells_text, eliminations_text, step, unit_of};
use crate::candidates::{Candidates, CellSet};
use crate::symbol_char;

/// The strong links of `d` in units `units`: (unit, first cell, second cell).
fn strong_links(
    state: &Candidates,
    d: u8,
    units: core::ops::Range<usize>,
) -> Vec<(usize, usize, usize)> {
    let geo = state.geo();
    units
        .filter_map(|u| {
            let s = *state.cells_with(d) & geo.unit_sets[u];
            if s.len() != 2 {
                return None;
            }
            let mut it = s.iter();
            Some((u, it.next()?, it.next()?))
        })
        .collect()
}

/// Two strong links joined by a weak one: a skyscraper (two parallel lines, one end of
/// each in a common cross line) or a 2-string kite (a row and a column, one end of each in
/// a common box). Either far end holds the digit.
pub(crate) fn turbot(state: &Candidates, technique: Technique) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for d in 1..=n as u8 {
        let links = strong_links(state, d, 0..2 * n);
        for (i, &(u1, p1, q1)) in links.iter().enumerate() {
            for &(u2, p2, q2) in &links[i + 1..] {
                let parallel = (u1 < n) == (u2 < n);
                if (technique == Technique::Skyscraper) != parallel {
                    continue;
                }
                for (a1, b1) in [(p1, q1), (q1, p1)] {
                    for (a2, b2) in [(p2, q2), (q2, p2)] {
                        let cells = [a1, b1, a2, b2];
                        if (0..4).any(|i| (i + 1..4).any(|j| cells[i] == cells[j])) {
                            continue;
                        }
                        let joined = if parallel {
                            // The joined ends share a cross line, the far ends do not.
                            let cross = |c: usize| if u1 < n { geo.col(c) } else { geo.row(c) };
                            cross(a1) == cross(a2) && cross(b1) != cross(b2)
                        } else {
                            let bx = geo.boxi(a1);
                            geo.boxi(a2) == bx && geo.boxi(b1) != bx && geo.boxi(b2) != bx
                        };
                        if !joined {
                            continue;
                        }
                        let elim = (*state.cells_with(d) & geo.peers[b1]) & geo.peers[b2];
                        if elim.is_empty() {
                            continue;
                        }
                        let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, d)).collect();
                        let text = format!(
                            "{} is in {} or {} ({}), and in {} or {} ({}); {} and {} cannot both hold it, so {} or {} does, and {} goes from the cells seeing both: {}.",
                            symbol_char(d),
                            cells_text(geo.size, [a1]),
                            cells_text(geo.size, [b1]),
                            unit_of(geo, u1),
                            cells_text(geo.size, [a2]),
                            cells_text(geo.size, [b2]),
                            unit_of(geo, u2),
                            cells_text(geo.size, [a1]),
                            cells_text(geo.size, [a2]),
                            cells_text(geo.size, [b1]),
                            cells_text(geo.size, [b2]),
                            symbol_char(d),
                            eliminations_text(geo.size, &eliminations)
                        );
                        return Some(step(
                            technique,
                            cells.to_vec(),
                            cells.iter().map(|&c| (c, d)).collect(),
                            Vec::new(),
                            eliminations,
                            text,
                        ));
                    }
                }
            }
        }
    }
    None
}

/// A box where the digit lies on one row and one column of the box (a cross, not a
/// single line), and a strong link from that column (row) to a cell outside the box: the
/// cell where the link's far line meets the box's row (column) cannot hold the digit.
pub(crate) fn empty_rectangle(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let size = geo.size;
    let n = geo.n;
    let (br, bc) = (size.box_rows(), size.box_cols());
    for d in 1..=n as u8 {
        for b in 0..n {
            let inbox = *state.cells_with(d) & geo.unit_sets[2 * n + b];
            if inbox.len() < 2 {
                continue;
            }
            let (r0, c0) = ((b / (n / bc)) * br, (b % (n / bc)) * bc);
            for row in r0..r0 + br {
                for col in c0..c0 + bc {
                    let cross = geo.unit_sets[row] | geo.unit_sets[n + col];
                    if !(inbox - cross).is_empty()
                        || (inbox - geo.unit_sets[row]).is_empty()
                        || (inbox - geo.unit_sets[n + col]).is_empty()
                    {
                        continue;
                    }
                    // A strong link in a row outside the band, from the box's column to
                    // column y: (row, y) goes. And the same with rows and columns swapped.
                    for (rows, line, other) in [(true, col, row), (false, row, col)] {
                        for x in 0..n {
                            let outside = if rows {
                                x < r0 || x >= r0 + br
                            } else {
                                x < c0 || x >= c0 + bc
                            };
                            if !outside {
                                continue;
                            }
                            let unit = if rows { x } else { n + x };
                            let link = *state.cells_with(d) & geo.unit_sets[unit];
                            let near = if rows { x * n + line } else { line * n + x };
                            if link.len() != 2 || !link.contains(near) {
                                continue;
                            }
                            let far = (link - single(near)).first().expect("two");
                            let far_cross = if rows { geo.col(far) } else { geo.row(far) };
                            let in_box = if rows {
                                far_cross >= c0 && far_cross < c0 + bc
                            } else {
                                far_cross >= r0 && far_cross < r0 + br
                            };
                            if in_box {
                                continue;
                            }
                            let target = if rows {
                                other * n + far_cross
                            } else {
                                far_cross * n + other
                            };
                            if !state.has(target, d) {
                                continue;
                            }
                            let eliminations = vec![(target, d)];
                            let text = format!(
                                "In box {}, {} lies on {} or {}; with the strong link {}–{} in {}, {} there would leave the box without {}, so it goes: {}.",
                                b + 1,
                                symbol_char(d),
                                unit_of(geo, row),
                                unit_of(geo, n + col),
                                cells_text(size, [near]),
                                cells_text(size, [far]),
                                unit_of(geo, unit),
                                cells_text(size, [target]),
                                symbol_char(d),
                                eliminations_text(size, &eliminations)
                            );
                            let mut cells: Vec<usize> = inbox.iter().collect();
                            cells.extend([near, far]);
                            return Some(step(
                                Technique::EmptyRectangle,
                                cells.clone(),
                                cells.iter().map(|&c| (c, d)).collect(),
                                Vec::new(),
                                eliminations,
                                text,
                            ));
                        }
                    }
                }
            }
        }
    }
    None
}

fn single(cell: usize) -> CellSet {
    let mut s = CellSet::EMPTY;
    s.insert(cell);
    s
}

/// Colours the conjugate pairs of one digit in two colours: a colour with two cells in
/// one unit is false (wrap); a cell seeing both colours cannot hold the digit (trap).
pub(crate) fn simple_colouring(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let size = geo.size;
    let mut colour = vec![0u8; n * n];
    for d in 1..=n as u8 {
        colour.iter_mut().for_each(|c| *c = 0);
        let places = *state.cells_with(d);
        for start in places.iter() {
            if colour[start] != 0 || partners(state, d, start).is_empty() {
                continue;
            }
            // Colour the component of `start` with 1 and 2.
            let mut sets = [CellSet::EMPTY, CellSet::EMPTY];
            let mut stack = vec![start];
            colour[start] = 1;
            sets[0].insert(start);
            while let Some(c) = stack.pop() {
                let next = 3 - colour[c];
                for p in partners(state, d, c).iter() {
                    if colour[p] == 0 {
                        colour[p] = next;
                        sets[usize::from(next) - 1].insert(p);
                        stack.push(p);
                    }
                }
            }
            if sets[0].len() + sets[1].len() < 4 {
                continue;
            }
            let component = sets[0] | sets[1];
            let cells: Vec<usize> = component.iter().collect();
            let candidates: Vec<(usize, u8)> = cells.iter().map(|&c| (c, d)).collect();
            // Both eliminations of simple colouring, with the reason.
            let colouring = |elim: CellSet, why: &str| {
                let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, d)).collect();
                let text = format!(
                    "Colouring the strong links of {}: {why}: {}.",
                    symbol_char(d),
                    eliminations_text(size, &eliminations)
                );
                step(
                    Technique::SimpleColouring,
                    cells.clone(),
                    candidates.clone(),
                    Vec::new(),
                    eliminations,
                    text,
                )
            };
            // Wrap: two cells of one colour in a unit.
            for set in &sets {
                if set.iter().any(|c| geo.peers[c].intersects(set)) {
                    return Some(colouring(
                        *set,
                        "two cells of one colour share a unit, so that colour is false",
                    ));
                }
            }
            // Trap: an outside cell seeing both colours.
            let mut see = [CellSet::EMPTY, CellSet::EMPTY];
            for k in 0..2 {
                for c in sets[k].iter() {
                    see[k] |= geo.peers[c];
                }
            }
            let elim = ((places & see[0]) & see[1]) - component;
            if !elim.is_empty() {
                return Some(colouring(
                    elim,
                    "one colour is true, and these cells see both colours",
                ));
            }
        }
    }
    None
}

/// The cells joined to `cell` by a strong link on `d`.
pub(crate) fn partners(state: &Candidates, d: u8, cell: usize) -> CellSet {
    let geo = state.geo();
    let mut out = CellSet::EMPTY;
    for u in geo.units_of(cell) {
        let s = *state.cells_with(d) & geo.unit_sets[u];
        if s.len() == 2 {
            out |= s - single(cell);
        }
    }
    out
}
