//! Naked and hidden pairs, triples and quads.
//!
//! Both are the same search on one unit: `k` items whose masks together cover exactly `k`
//! bits. Naked subsets take the empty cells with their candidates as masks; hidden subsets
//! take the missing digits with the unit positions where they can go.

use alloc::format;
use alloc::vec::Vec;

use arrayvec::ArrayVec;

use super::{Step, Technique, cells_text, digits_text, eliminations_text, step, unit_of};
use crate::candidates::{Candidates, Digits};

/// Calls `found` with each choice of `k` items (indices into `items`) whose masks cover
/// exactly `k` bits, until it returns `true`.
pub(crate) fn subsets(
    items: &[u32],
    k: usize,
    found: &mut dyn FnMut(&[usize], u32) -> bool,
) -> bool {
    fn go(
        items: &[u32],
        k: usize,
        start: usize,
        chosen: &mut ArrayVec<usize, 8>,
        union: u32,
        found: &mut dyn FnMut(&[usize], u32) -> bool,
    ) -> bool {
        if chosen.len() == k {
            return union.count_ones() as usize == k && found(chosen, union);
        }
        for i in start..items.len() {
            let u = union | items[i];
            if u.count_ones() as usize > k {
                continue;
            }
            chosen.push(i);
            if go(items, k, i + 1, chosen, u, found) {
                return true;
            }
            chosen.pop();
        }
        false
    }
    go(items, k, 0, &mut ArrayVec::new(), 0, found)
}

fn technique(naked: bool, k: usize) -> Technique {
    match (naked, k) {
        (true, 2) => Technique::NakedPair,
        (true, 3) => Technique::NakedTriple,
        (true, _) => Technique::NakedQuad,
        (false, 2) => Technique::HiddenPair,
        (false, 3) => Technique::HiddenTriple,
        (false, _) => Technique::HiddenQuad,
    }
}

/// `k` cells of a unit with `k` candidates between them: those digits leave the unit's
/// other cells.
pub(crate) fn naked(state: &Candidates, k: usize) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let mut out = None;
    for u in 0..3 * n {
        let mut cells: ArrayVec<usize, 25> = ArrayVec::new();
        let mut masks: ArrayVec<u32, 25> = ArrayVec::new();
        let mut empties = 0;
        for &c in &geo.units[u][..n] {
            let c = usize::from(c);
            let d = state.candidates(c);
            if state.value(c).is_none() {
                empties += 1;
            }
            if (2..=k).contains(&d.len()) {
                cells.push(c);
                masks.push(d.bits());
            }
        }
        if empties <= k {
            continue;
        }
        subsets(&masks, k, &mut |chosen, union| {
            let digits = Digits::from_bits(union);
            let subset: ArrayVec<usize, 8> = chosen.iter().map(|&i| cells[i]).collect();
            let mut elims = Vec::new();
            for &c in &geo.units[u][..n] {
                let c = usize::from(c);
                if !subset.contains(&c) {
                    elims.extend((state.candidates(c) & digits).iter().map(|d| (c, d)));
                }
            }
            if elims.is_empty() {
                return false;
            }
            let text = format!(
                "In {}, {} can only hold {} between them, so these digits leave the other cells of {}: {}.",
                unit_of(geo, u),
                cells_text(geo.size, subset.iter().copied()),
                digits_text(digits),
                unit_of(geo, u),
                eliminations_text(geo.size, &elims)
            );
            let candidates = subset
                .iter()
                .flat_map(|&c| state.candidates(c).iter().map(move |d| (c, d)))
                .collect();
            out = Some(step(
                technique(true, k),
                subset.to_vec(),
                candidates,
                Vec::new(),
                elims,
                text,
            ));
            true
        });
        if out.is_some() {
            return out;
        }
    }
    None
}

/// `k` digits of a unit confined to `k` cells: those cells lose their other candidates.
pub(crate) fn hidden(state: &Candidates, k: usize) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let mut out = None;
    for u in 0..3 * n {
        let unit = &geo.units[u][..n];
        let mut digits: ArrayVec<u8, 25> = ArrayVec::new();
        let mut masks: ArrayVec<u32, 25> = ArrayVec::new();
        let mut missing = 0;
        for d in 1..=n as u8 {
            // The unit positions where d can go, kept by the candidates.
            let m = state.positions(u, d);
            if m != 0 {
                missing += 1;
            }
            if (2..=k as u32).contains(&m.count_ones()) {
                digits.push(d);
                masks.push(m);
            }
        }
        if missing <= k {
            continue;
        }
        subsets(&masks, k, &mut |chosen, union| {
            let mut keep = Digits::EMPTY;
            for &i in chosen {
                keep.insert(digits[i]);
            }
            let cells: ArrayVec<usize, 8> = (0..n)
                .filter(|&i| union & (1 << i) != 0)
                .map(|i| usize::from(unit[i]))
                .collect();
            let mut elims = Vec::new();
            for &c in &cells {
                elims.extend((state.candidates(c) - keep).iter().map(|d| (c, d)));
            }
            if elims.is_empty() {
                return false;
            }
            let text = format!(
                "In {}, {} can only be in {}, so those cells hold no other digit: {}.",
                unit_of(geo, u),
                digits_text(keep),
                cells_text(geo.size, cells.iter().copied()),
                eliminations_text(geo.size, &elims)
            );
            let candidates = cells
                .iter()
                .flat_map(|&c| (state.candidates(c) & keep).iter().map(move |d| (c, d)))
                .collect();
            out = Some(step(
                technique(false, k),
                cells.to_vec(),
                candidates,
                Vec::new(),
                elims,
                text,
            ));
            true
        });
        if out.is_some() {
            return out;
        }
    }
    None
}
