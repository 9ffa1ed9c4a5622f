//! The proven bounds of the placement steps: packing bounds, exhaustive maxima of the
//! first steps and branch-and-bound maxima, and each table entry's own suffix bounds.

use alloc::vec;
use alloc::vec::Vec;

use crate::coord::{Coord, Geometry};
use crate::fleet::{Orientation, Ship};
use crate::rules::Rules;

use super::kind::Kind;
use super::{EXACT_BUDGET, FAST_EXACT_BUDGET, SEARCH_BUDGET, UniformFleets};

impl UniformFleets {
    /// The global bound of each step: `(kind, B_i)` in placement order. `thorough` runs
    /// the exhaustive maxima with the larger budget and the branch-and-bound searches
    /// (what [`UniformFleets::bounds`] reports); otherwise only the packing bounds, the
    /// same-length rule and exhaustive maxima of the first steps while they stay small,
    /// which is all the table needs and keeps building fast.
    pub(super) fn step_bounds(
        &self,
        rules: &Rules,
        order: &[usize],
        thorough: bool,
    ) -> Vec<(usize, u32)> {
        let lens: Vec<u8> = self.kinds.iter().map(|k| k.len).collect();
        let loss = packing_losses(rules, &Geometry::of(rules), &lens);
        let budget = if thorough {
            EXACT_BUDGET
        } else {
            FAST_EXACT_BUDGET
        };
        let exact = self.exact_maxima(order, budget);
        let mut previous: Option<(usize, u32)> = None;
        let mut searched = thorough;
        order
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let lost: u32 = order[..i].iter().map(|&j| loss[k][j]).sum();
                let packing = (4 * self.kinds[k].total).saturating_sub(lost) / 4;
                let mut bound = match exact.get(i) {
                    Some(&e) => packing.min(e),
                    None => packing,
                };
                // the search runs for the first ship of each length, and for the next
                // ones while it keeps finishing within its budget
                let first_of_kind = previous.is_none_or(|(pk, _)| pk != k);
                if thorough && i >= exact.len() && (first_of_kind || searched) {
                    let mut budget = SEARCH_BUDGET;
                    let found = self.search_max(order, i, &mut budget);
                    searched = found.is_some();
                    if let Some(m) = found {
                        bound = bound.min(m);
                    }
                }
                // a ship of the same kind as the one before loses at least that ship's
                // own position, which was free
                if let Some((pk, pb)) = previous
                    && pk == k
                {
                    bound = bound.min(pb.saturating_sub(1));
                }
                previous = Some((k, bound));
                (k, bound.max(1))
            })
            .collect()
    }

    /// The bounds of the steps after the prefix for the partial fleet `taken` of the
    /// prefix ships, into `out`; returns their product (0 when some ship has no room).
    ///
    /// Each is the smallest of the global bound of the step and of what is left of the
    /// free positions of its ship after the prefix: a ship of length 1 loses at least
    /// the cells of the ships placed between the prefix and it (they were free cells and
    /// are taken), a longer ship at least the position of each ship of its own length
    /// placed in between (each was free and is taken).
    pub(super) fn suffix_bounds(
        &self,
        steps: &[(usize, u32)],
        taken: u128,
        out: &mut [u8],
    ) -> u128 {
        let mut free = [0u32; crate::rules::MAX_SHIPS];
        for (k, kind) in self.kinds.iter().enumerate() {
            let (h, v) = kind.free_bows(taken, self.all, self.w);
            free[k] = h.count_ones() + v.count_ones();
        }
        let mut product = 1u128;
        let mut cells = 0u32;
        let mut same = [0u32; crate::rules::MAX_SHIPS];
        for (slot, &(k, cap)) in steps.iter().enumerate().skip(self.prefix) {
            let lost = if self.kinds[k].len == 1 {
                cells
            } else {
                same[k]
            };
            let bound = cap.min(free[k].saturating_sub(lost));
            out[slot - self.prefix] = bound as u8;
            product = product.saturating_mul(u128::from(bound));
            cells += u32::from(self.kinds[k].len);
            same[k] += 1;
        }
        product
    }

    /// The steps (with their global bounds) in the order that, after the prefix ships of
    /// `order`, places the groups of equal ships in the order with the smallest total
    /// weight over (a sample of) the table, hence the fewest rejected attempts: under
    /// Russian rules the single-cell ships go before the two-cell ones, because their
    /// free cells are counted much more tightly before the two-cell ships take theirs.
    /// Every permutation of the groups is tried when there are at most four groups.
    pub(super) fn suffix_order(&self, order: &[usize], taken: &[u128]) -> Vec<(usize, u32)> {
        let d = self.prefix;
        let mut groups: Vec<(usize, usize)> = Vec::new();
        for &k in &order[d..] {
            match groups.last_mut() {
                Some((g, c)) if *g == k => *c += 1,
                _ => groups.push((k, 1)),
            }
        }
        let mut candidates: Vec<Vec<(usize, usize)>> = Vec::new();
        if groups.len() <= 4 {
            permutations(&mut groups, 0, &mut candidates);
        } else {
            candidates.push(groups);
        }
        let every = (taken.len() / 4096).max(1);
        let mut bounds = [0u8; crate::rules::MAX_SHIPS];
        let mut best: Option<(u128, Vec<(usize, u32)>)> = None;
        for groups in candidates {
            let mut full = order[..d].to_vec();
            for &(k, c) in &groups {
                full.extend(core::iter::repeat_n(k, c));
            }
            let steps = self.step_bounds(&self.rules, &full, false);
            let sum = taken.iter().step_by(every).fold(0u128, |t, &x| {
                t.saturating_add(self.suffix_bounds(&steps, x, &mut bounds))
            });
            if best.as_ref().is_none_or(|(b, _)| sum < *b) {
                best = Some((sum, steps));
            }
        }
        best.map(|(_, steps)| steps).unwrap_or_default()
    }

    /// For the first steps, the exact maximum of the number of free positions of the ship
    /// placed at that step, over every valid placement of the ships before it.
    pub(super) fn exact_maxima(&self, order: &[usize], budget: usize) -> Vec<u32> {
        let mut maxima = Vec::new();
        let mut level: Vec<u128> = vec![0];
        for (d, &k) in order.iter().enumerate() {
            let kind = &self.kinds[k];
            let mut best = 0;
            let mut children = 0usize;
            for &taken in &level {
                let (h, v) = kind.free_bows(taken, self.all, self.w);
                let n = h.count_ones() + v.count_ones();
                best = best.max(n);
                children += n as usize;
            }
            maxima.push(best);
            if d + 1 == order.len() || children > budget || level.is_empty() {
                break;
            }
            let mut next = Vec::with_capacity(children);
            for &taken in &level {
                let (mut h, mut v) = kind.free_bows(taken, self.all, self.w);
                while h != 0 {
                    next.push(taken | kind.hzone[h.trailing_zeros() as usize]);
                    h &= h - 1;
                }
                while v != 0 {
                    next.push(taken | kind.vzone[v.trailing_zeros() as usize]);
                    v &= v - 1;
                }
            }
            next.sort_unstable();
            next.dedup();
            level = next;
        }
        maxima
    }

    /// The exact maximum of the number of free positions of ship `i` over every valid
    /// placement of the ships before it, by branch and bound (the count only decreases as
    /// ships are added, so a partial placement whose count is not above the best found is
    /// cut). `None` if the search needs more than `budget` nodes.
    pub(super) fn search_max(&self, order: &[usize], i: usize, budget: &mut usize) -> Option<u32> {
        struct Search<'a> {
            s: &'a UniformFleets,
            order: &'a [usize],
            target: &'a Kind,
            i: usize,
            best: u32,
            /// For a target of length 1: the cells of the ships from each step to `i`,
            /// which the target loses for sure (they are free when those ships go down).
            cells_after: Vec<u32>,
        }
        fn count(s: &Search, taken: u128) -> u32 {
            let (h, v) = s.target.free_bows(taken, s.s.all, s.s.w);
            h.count_ones() + v.count_ones()
        }
        fn go(s: &mut Search, d: usize, from: usize, taken: u128, budget: &mut usize) -> bool {
            if d == s.i {
                s.best = s.best.max(count(s, taken));
                return true;
            }
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let k = s.order[d];
            let kind = &s.s.kinds[k];
            let start = if d > 0 && s.order[d - 1] == k {
                from
            } else {
                0
            };
            let (h, v) = kind.free_bows(taken, s.s.all, s.s.w);
            let mut children: Vec<(u32, usize, u128)> = Vec::new();
            for (bows, zones, off) in [(h, &kind.hzone, 0), (v, &kind.vzone, 1)] {
                let mut b = bows;
                while b != 0 {
                    let cell = b.trailing_zeros() as usize;
                    b &= b - 1;
                    let index = 2 * cell + off;
                    if index < start {
                        continue;
                    }
                    let child = taken | zones[cell];
                    children.push((count(s, child), index, child));
                }
            }
            children.sort_unstable_by_key(|c| core::cmp::Reverse(c.0));
            let sure = s.cells_after[d + 1];
            for (n, index, child) in children {
                if n.saturating_sub(sure) <= s.best {
                    break;
                }
                if !go(s, d + 1, index + 1, child, budget) {
                    return false;
                }
            }
            true
        }
        let mut search = Search {
            s: self,
            order,
            target: &self.kinds[order[i]],
            i,
            best: 0,
            cells_after: (0..=i)
                .map(|d| {
                    if self.kinds[order[i]].len == 1 {
                        order[d..i]
                            .iter()
                            .map(|&k| u32::from(self.kinds[k].len))
                            .sum()
                    } else {
                        0
                    }
                })
                .collect(),
        };
        go(&mut search, 0, 0, 0, budget).then_some(search.best)
    }
}

/// Every ordering of `items[from..]` (after `items[..from]`), into `out`.
pub(super) fn permutations<T: Clone>(items: &mut [T], from: usize, out: &mut Vec<Vec<T>>) {
    if from + 1 >= items.len() {
        out.push(items.to_vec());
        return;
    }
    for i in from..items.len() {
        items.swap(from, i);
        permutations(items, from + 1, out);
        items.swap(from, i);
    }
}

/// `loss[i][j]`: four times the least number of positions of a ship of length
/// `lens[i]` that a ship of length `lens[j]` is guaranteed to remove on its own block (see
/// [`UniformFleets`]), over every position of that ship.
///
/// The block of a ship is its cells grown by a 2×2 square anchored at one of its four
/// corners (the same corner for every ship); with touching allowed it is the ship itself.
/// Blocks of distinct ships of a valid fleet are disjoint and lie in their forbidden
/// zones, so the bows they hold are lost positions, counted once. For each of the two
/// orientations of the removed ship the best anchor may differ, and the best is at least
/// the mean over the four anchors, which is what is summed (hence the factor 4).
pub(super) fn packing_losses(rules: &Rules, geo: &Geometry, lens: &[u8]) -> Vec<Vec<u32>> {
    let (w, h) = (i32::from(rules.width()), i32::from(rules.height()));
    let kinds: Vec<Kind> = lens.iter().map(|&l| Kind::new(rules, geo, l)).collect();
    let touch = rules.ships_may_touch();
    let anchors: &[(i32, i32)] = if touch {
        &[(0, 0)]
    } else {
        &[(0, 0), (-1, 0), (0, -1), (-1, -1)]
    };
    let block = |cells: u128, (ax, ay): (i32, i32)| -> u128 {
        let mut out = 0u128;
        let reach = if touch { 1 } else { 2 };
        for i in crate::coord::Cells(cells).indices() {
            let (c, r) = (i as i32 % w, i as i32 / w);
            for dy in 0..reach {
                for dx in 0..reach {
                    let (x, y) = (c + ax + dx, r + ay + dy);
                    if (0..w).contains(&x) && (0..h).contains(&y) {
                        out |= 1u128 << (y * w + x);
                    }
                }
            }
        }
        out
    };
    let scale = 4 / anchors.len() as u32;
    kinds
        .iter()
        .map(|target| {
            kinds
                .iter()
                .map(|placed| {
                    let mut least = u32::MAX;
                    for i in 0..geo.n() {
                        let bow = Coord::from_index(i, rules.width());
                        for (o, bows) in [
                            (Orientation::Horizontal, placed.hbows),
                            (Orientation::Vertical, placed.vbows),
                        ] {
                            if (bows >> i) & 1 == 0 {
                                continue;
                            }
                            let cells = Ship::new(bow, o, placed.len).mask(rules.width()).0;
                            let lost: u32 = anchors
                                .iter()
                                .map(|&a| {
                                    let b = block(cells, a);
                                    (b & target.hbows).count_ones()
                                        + (b & target.vbows).count_ones()
                                })
                                .sum();
                            least = least.min(lost * scale);
                        }
                    }
                    if least == u32::MAX { 0 } else { least }
                })
                .collect()
        })
        .collect()
}
