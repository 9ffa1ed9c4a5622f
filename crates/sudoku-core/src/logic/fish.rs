//! Fish on one digit: X-wing, swordfish, jellyfish, and their finned (and sashimi) forms.
//!
//! `k` base lines (rows, or columns) whose candidates for the digit lie in `k` cover
//! lines: the digit then fills each cover line inside the base lines, so it leaves the rest
//! of the cover lines. A finned fish has extra candidates (fins) in one box: either a fin
//! is true or the fish is, and both rule out the cover-line cells of that box.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use arrayvec::ArrayVec;

use super::subsets::subsets;
use super::{Step, Technique, cells_text, eliminations_text, step};
use crate::candidates::{Candidates, CellSet, Geometry};
use crate::symbol_char;

fn technique(k: usize, finned: bool) -> Technique {
    match (k, finned) {
        (2, false) => Technique::XWing,
        (3, false) => Technique::Swordfish,
        (_, false) => Technique::Jellyfish,
        (2, true) => Technique::FinnedXWing,
        (3, true) => Technique::FinnedSwordfish,
        (_, true) => Technique::FinnedJellyfish,
    }
}

/// The cell at base line `base`, cross position `cross`.
fn cell_at(n: usize, rows: bool, base: usize, cross: usize) -> usize {
    if rows {
        base * n + cross
    } else {
        cross * n + base
    }
}

/// The masks over cross positions of the digit's candidates in each base line.
fn line_masks(state: &Candidates, d: u8, rows: bool) -> ArrayVec<u32, 25> {
    let n = state.side();
    let mut masks = ArrayVec::new();
    // A row's positions are its columns and a column's its rows: the unit positions the
    // candidates keep.
    let first = if rows { 0 } else { n };
    for base in 0..n {
        masks.push(state.positions(first + base, d));
    }
    masks
}

fn lines_text(rows: bool, lines: impl IntoIterator<Item = usize>) -> String {
    let v: Vec<usize> = lines.into_iter().collect();
    let mut s = String::from(if rows { "rows " } else { "columns " });
    for (i, l) in v.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == v.len() { " and " } else { ", " });
        }
        s.push_str(&format!("{}", l + 1));
    }
    s
}

fn cells_of(n: usize, rows: bool, bases: &[usize], masks: &[u32]) -> CellSet {
    let mut s = CellSet::EMPTY;
    for &b in bases {
        for cross in 0..n {
            if masks[b] & (1 << cross) != 0 {
                s.insert(cell_at(n, rows, b, cross));
            }
        }
    }
    s
}

fn cover_set(geo: &Geometry, rows: bool, cover: u32) -> CellSet {
    let n = geo.n;
    let mut s = CellSet::EMPTY;
    for cross in 0..n {
        if cover & (1 << cross) != 0 {
            s |= geo.unit_sets[if rows { n + cross } else { cross }];
        }
    }
    s
}

/// A basic fish of size `k` (2 = X-wing, 3 = swordfish, 4 = jellyfish).
pub(crate) fn basic(state: &Candidates, k: usize) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for d in 1..=n as u8 {
        for rows in [true, false] {
            let masks = line_masks(state, d, rows);
            let lines: ArrayVec<usize, 25> = (0..n)
                .filter(|&b| (2..=k as u32).contains(&masks[b].count_ones()))
                .collect();
            let items: ArrayVec<u32, 25> = lines.iter().map(|&b| masks[b]).collect();
            let mut out = None;
            subsets(&items, k, &mut |chosen, cover| {
                let bases: ArrayVec<usize, 8> = chosen.iter().map(|&i| lines[i]).collect();
                let fish = cells_of(n, rows, &bases, &masks);
                let elim = (*state.cells_with(d) & cover_set(geo, rows, cover)) - fish;
                if elim.is_empty() {
                    return false;
                }
                let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, d)).collect();
                let covers = (0..n).filter(|&x| cover & (1 << x) != 0);
                let text = format!(
                    "In {}, {} can only be in {}, so it leaves the rest of those {}: {}.",
                    lines_text(rows, bases.iter().copied()),
                    symbol_char(d),
                    lines_text(!rows, covers),
                    if rows { "columns" } else { "rows" },
                    eliminations_text(geo.size, &eliminations)
                );
                out = Some(step(
                    technique(k, false),
                    fish.iter().collect(),
                    fish.iter().map(|c| (c, d)).collect(),
                    Vec::new(),
                    eliminations,
                    text,
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

/// A finned (or sashimi) fish of size `k`.
pub(crate) fn finned(state: &Candidates, k: usize) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for d in 1..=n as u8 {
        for rows in [true, false] {
            let masks = line_masks(state, d, rows);
            // Base lines come in bands of `base_w`, cross positions in groups of `cross_w`
            // (for rows: bands of box rows and stacks of box columns).
            let (base_w, cross_w) = if rows {
                (geo.size.box_rows(), geo.size.box_cols())
            } else {
                (geo.size.box_cols(), geo.size.box_rows())
            };
            let groups: ArrayVec<u32, 25> = (0..n / cross_w)
                .map(|g| ((1u32 << cross_w) - 1) << (g * cross_w))
                .collect();
            let lines: ArrayVec<usize, 25> = (0..n)
                .filter(|&b| masks[b] != 0 && masks[b].count_ones() as usize <= k + cross_w)
                .collect();
            let search = Finned {
                state,
                d,
                rows,
                k,
                masks: &masks,
                lines: &lines,
                groups: &groups,
                base_w,
            };
            let mut chosen = ArrayVec::new();
            if let Some(s) = search.go(0, &mut chosen, 0) {
                return Some(s);
            }
        }
    }
    None
}

/// The search for finned fish on one digit and orientation.
struct Finned<'a> {
    state: &'a Candidates,
    d: u8,
    rows: bool,
    k: usize,
    masks: &'a [u32],
    lines: &'a [usize],
    groups: &'a [u32],
    base_w: usize,
}

impl Finned<'_> {
    /// Whether a box (the band of a chosen line, a cross group) holding the fins leaves a
    /// body of at most `k` cover lines.
    fn fits(&self, chosen: &[usize]) -> bool {
        chosen.iter().any(|&first| {
            let band = first / self.base_w;
            self.groups.iter().any(|&g| {
                let body = chosen.iter().fold(0u32, |acc, &b| {
                    acc | if b / self.base_w == band {
                        self.masks[b] & !g
                    } else {
                        self.masks[b]
                    }
                });
                body.count_ones() as usize <= self.k
            })
        })
    }

    fn go(&self, start: usize, chosen: &mut ArrayVec<usize, 4>, union: u32) -> Option<Step> {
        if chosen.len() == self.k {
            if !self.fits(chosen) {
                return None;
            }
            return finned_on(self.state, self.d, self.rows, chosen, self.masks, self.k);
        }
        for i in start..self.lines.len() {
            let b = self.lines[i];
            let u = union | self.masks[b];
            chosen.push(b);
            // More lines only grow the body, so a choice that fits no box is dropped.
            if u.count_ones() as usize > self.k && !self.fits(chosen) {
                chosen.pop();
                continue;
            }
            if let Some(s) = self.go(i + 1, chosen, u) {
                return Some(s);
            }
            chosen.pop();
        }
        None
    }
}

fn finned_on(
    state: &Candidates,
    d: u8,
    rows: bool,
    bases: &[usize],
    masks: &[u32],
    k: usize,
) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let all = cells_of(n, rows, bases, masks);
    let mut base_set = CellSet::EMPTY;
    for &b in bases {
        base_set |= geo.unit_sets[if rows { b } else { n + b }];
    }
    let cross_of = |c: usize| if rows { geo.col(c) } else { geo.row(c) };
    let mut boxes_seen = 0u32;
    for c in all.iter() {
        let b = geo.boxi(c);
        if boxes_seen & (1 << b) != 0 {
            continue;
        }
        boxes_seen |= 1 << b;
        let bx = &geo.unit_sets[2 * n + b];
        let body = all - *bx;
        let mut cover = 0u32;
        for x in body.iter() {
            cover |= 1 << cross_of(x);
        }
        if cover.count_ones() as usize > k {
            continue;
        }
        // Cover lines through the fin box, taken while the size allows.
        let mut box_cross = 0u32;
        for x in bx.iter() {
            box_cross |= 1 << cross_of(x);
        }
        let mut elim = CellSet::EMPTY;
        for x in 0..n {
            if box_cross & (1 << x) == 0 {
                continue;
            }
            let line = &geo.unit_sets[if rows { n + x } else { x }];
            let e = ((*state.cells_with(d) & *line) & *bx) - base_set;
            if e.is_empty() {
                continue;
            }
            if cover & (1 << x) == 0 {
                if (cover.count_ones() as usize) < k {
                    cover |= 1 << x;
                } else {
                    continue;
                }
            }
            elim |= e;
        }
        let fins: CellSet = all
            .iter()
            .filter(|&c| cover & (1 << cross_of(c)) == 0)
            .collect();
        if elim.is_empty() || fins.is_empty() {
            continue;
        }
        let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, d)).collect();
        let covers = (0..n).filter(|&x| cover & (1 << x) != 0);
        let text = format!(
            "In {}, {} is either in {} or in the fin {} of box {}; both rule out {}.",
            lines_text(rows, bases.iter().copied()),
            symbol_char(d),
            lines_text(!rows, covers),
            cells_text(geo.size, fins.iter()),
            b + 1,
            eliminations_text(geo.size, &eliminations)
        );
        return Some(step(
            technique(k, true),
            all.iter().collect(),
            all.iter().map(|c| (c, d)).collect(),
            Vec::new(),
            eliminations,
            text,
        ));
    }
    None
}
