//! The simple shooters' rules: hunting on a parity lattice, targeting around hits, and
//! single-ship placement density.

use alloc::vec;
use alloc::vec::Vec;

use rand::Rng;

use super::{known_water, random_cell, sunk_cells};
use crate::coord::{Cells, Coord, Geometry};
use crate::tracking::Tracking;
use crate::uniform::positions;

/// Cells to try next around open hits: the ends of a line of hits, or the orthogonal
/// neighbours of a lone hit.
pub(super) fn target_cells(t: &Tracking) -> u128 {
    let rules = t.rules();
    let geo = Geometry::of(rules);
    let w = u32::from(rules.width());
    let open = t.open_hits().0;
    if open == 0 {
        return 0;
    }
    let unknown = t.unknown().0 & !known_water(t);
    // lines: hits with a hit neighbour along a row or a column
    let mut line = 0u128;
    for i in Cells(open).indices() {
        let c = Coord::from_index(i, rules.width());
        let horiz = [
            (c.col() > 0).then(|| i - 1),
            (c.col() + 1 < rules.width()).then(|| i + 1),
        ];
        let vert = [
            i.checked_sub(w as usize),
            Some(i + w as usize).filter(|&j| j < geo.n()),
        ];
        let hh = horiz.iter().flatten().any(|&j| (open >> j) & 1 == 1);
        let vv = vert.iter().flatten().any(|&j| (open >> j) & 1 == 1);
        for (dir, nbrs) in [(hh, horiz), (vv, vert)] {
            if dir {
                for j in nbrs.into_iter().flatten() {
                    line |= 1u128 << j;
                }
            }
        }
    }
    let line = line & unknown;
    if line != 0 {
        return line;
    }
    geo.dilate4(open) & unknown
}

pub(super) fn hunt<R: Rng + ?Sized>(t: &Tracking, rng: &mut R) -> Option<usize> {
    let targets = target_cells(t);
    if targets != 0 {
        return random_cell(Cells(targets), rng);
    }
    let rules = t.rules();
    let unknown = t.unknown().0;
    let open = unknown & !known_water(t);
    let longest = t.afloat().first().copied().unwrap_or(1).max(1);
    let w = rules.width();
    let mut lattice = 0u128;
    for i in Cells(open).indices() {
        let c = Coord::from_index(i, w);
        if (c.col() + c.row()).is_multiple_of(longest) {
            lattice |= 1u128 << i;
        }
    }
    let pool = if lattice != 0 {
        lattice
    } else if open != 0 {
        open
    } else {
        unknown
    };
    random_cell(Cells(pool), rng)
}

/// Placement counts per cell: every placement of every ship afloat consistent with what is
/// known; around open hits only the placements through them count (weighted by the hits
/// they explain).
pub(super) fn density(t: &Tracking) -> Vec<f64> {
    let rules = t.rules();
    let n = rules.cells();
    let mut scores = vec![0.0; n];
    let blocked = known_water(t) | sunk_cells(t);
    let open = t.open_hits().0;
    let touch = rules.ships_may_touch();
    let mut lens = t.afloat();
    lens.dedup();
    let afloat = t.afloat();
    for len in lens {
        let copies = afloat.iter().filter(|&&l| l == len).count() as f64;
        for (cells, zone, _) in positions(rules, len) {
            if cells & blocked != 0 {
                continue;
            }
            if !touch && (zone & !cells) & open != 0 {
                continue;
            }
            let covered = (cells & open).count_ones();
            let weight = if open != 0 {
                if covered == 0 {
                    continue;
                }
                copies * f64::from(covered * covered)
            } else {
                copies
            };
            for i in Cells(cells & !open).indices() {
                scores[i] += weight;
            }
        }
    }
    scores
}
