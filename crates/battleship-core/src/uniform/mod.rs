//! Fast exactly uniform fleets: a weighted table of the first ships, then sequential
//! proposal with exact step-by-step rejection.
//!
//! The sampler is here; the alias table of the first ships is in `table`, the proven
//! bounds of each step in `bounds`, the position bitboards of each ship length in `kind`
//! and the bit tricks (k-th set bit, 16-bit draws) in `bits`.

use alloc::vec::Vec;

use rand::Rng;

use crate::coord::{Coord, Geometry};
use crate::fleet::{Fleet, Orientation, Ship};
use crate::rules::Rules;

mod bits;
mod bounds;
mod kind;
mod table;

pub(crate) use bits::select;
use bits::{Bits16, select64};
use kind::Kind;
pub(crate) use kind::positions;
use table::below64;

/// Draws fleets exactly uniformly for any rule set.
///
/// **Method.** The ships are placed one after the other, longest first. The first `m`
/// ships (the *prefix*; as many as keep the table below a million entries: the 4, 3 and 3
/// under Russian rules) come from a table that lists every valid partial fleet `X` of
/// them, each once (equal ships as a set). The table draws `X` with probability
/// `W(X) / ΣW` (Walker's alias method with integer weights, so the probabilities are exact
/// rationals). The other ships follow in turn: at step `i` the sampler computes, with
/// bitboards, the `n_i` positions where ship `i` still fits (inside the grid, clear of the
/// ships already placed and, without touching, of their halos), draws `r` uniformly in
/// `0..B_i(X)` and either puts the ship on the `r`-th of those positions (`r < n_i`) or
/// throws the whole attempt away (`r >= n_i`). The weight of an entry is the product of its
/// step bounds, `W(X) = B_{m+1}(X) ⋯ B_k(X)`.
///
/// **Exactness.** An attempt that draws `X` and then a valid sequence of positions for
/// the other ships has probability `W(X) / ΣW × 1 / (B_{m+1}(X) ⋯ B_k(X)) = 1 / ΣW`, the
/// same for every such pair; every fleet is the same number of pairs (the ways its equal
/// ships can be split between the prefix set and the ordered steps), so the fleets that
/// come out are exactly uniform. This needs each `B_i(X)` to be at least `n_i` after
/// every valid placement of the ships before step `i` that extends `X`. Each is the
/// smallest of these proven values:
///
/// - the free positions of ship `i` right after `X`, which only decrease as ships are
///   added; minus one for each ship of the same length placed since `X` (its own position
///   was free and is taken); for a ship of length 1, minus the cells of every ship placed
///   since `X` (they were free cells and are taken);
/// - a global bound `B_i` valid after any partial fleet: a packing bound (without
///   touching, the blocks `ship ⊕ 2×2` of distinct ships are pairwise disjoint, lie in the
///   forbidden zones, and every position of ship `i` whose bow is in one of them is lost,
///   so `n_i ≤ P_i − Σ_{j<i} m(ship j)` where `P_i` counts the positions on the empty grid
///   and `m` is the least number of such lost bows over all positions of ship `j`,
///   averaged over the four ways to anchor the 2×2 block; with touching allowed the blocks
///   are the ships' own cells), the exhaustive maximum of `n_i` for the first steps while
///   that enumeration stays small, and `B_{i-1} − 1` after a ship of the same length.
///
/// Entries whose weight is 0 (some later ship has no room at all) are dropped; when none
/// is left there is no valid fleet. With many ships the weights are divided by a power of
/// two (rounded up) to keep their sum below 2^63, and a drawn entry is then kept with
/// probability `W(X) / rounded W(X)`, which restores the exact weights. Among the orders
/// of the groups of equal ships after the prefix, the one with the smallest `ΣW` is used
/// (longest first under Russian rules).
///
/// **Speed.** Under Russian rules the table holds the 786,968 partial fleets of the
/// 4, 3 and 3 (17 MB), and about one attempt in 20.6 is kept (against one in 100 for the
/// plain sequential method with the bounds of [`UniformFleets::bounds`]); classic rules
/// keep two attempts in five. Timings and the methods measured and rejected are in
/// `docs/research/battleship-code-notes.md`. [`crate::FleetSampler`] gives the same
/// distribution by exact counting on small grids, and is used by the tests to check this
/// one.
///
/// The same seed always gives the same fleets; the sequence differs from the one of
/// earlier versions of this crate (which drew every ship with rejection).
///
/// ```
/// use battleship_core::{Rules, UniformFleets};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let sampler = UniformFleets::new(&rules);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let fleet = sampler.sample(&mut rng);
/// assert!(fleet.validate(&rules).is_ok());
/// assert_eq!(sampler.sample_seeded(3), sampler.sample_seeded(3));
/// ```
#[derive(Debug, Clone)]
pub struct UniformFleets {
    rules: Rules,
    w: u8,
    all: u128,
    /// One entry per distinct ship length (longest first).
    kinds: Vec<Kind>,
    /// The ships in placement order: `(kind, bound B_i)`.
    steps: Vec<(usize, u32)>,
    /// Whether a search proved that no valid fleet exists.
    empty: bool,
    /// How many ships (the first ones in placement order) are drawn from the table.
    prefix: usize,
    /// Number of partial fleets of the prefix ships (including those with no completion).
    prefix_fleets: usize,
    /// The table: for each entry, its alias bucket (threshold, 8 bytes, and alias, 4
    /// bytes, little-endian), the position codes of its prefix ships (`prefix` bytes) and
    /// the bounds of the steps after the prefix (`steps.len() - prefix` bytes), side by
    /// side so that an attempt mostly reads one place of memory.
    table: Vec<u8>,
    /// Bytes per table entry.
    stride: usize,
    /// Number of table entries.
    entries: usize,
    /// Sum of the (scaled) weights of the entries; 0 when there is no fleet.
    total: u64,
    /// The weights are the products of the suffix bounds divided by `2^shift`, rounded up.
    shift: u32,
}

/// How many partial fleets the exhaustive maximum may enumerate per step when a sampler is
/// built (beyond it the packing bound alone is used).
const EXACT_BUDGET: usize = 300_000;

/// How many nodes the branch-and-bound maximum may visit per step when a sampler is built
/// (if it runs out, the packing bound is used).
const SEARCH_BUDGET: usize = 200_000;

/// The budget of the exhaustive maxima when a sampler is built (the table makes the
/// first steps exact anyway).
const FAST_EXACT_BUDGET: usize = 20_000;

/// The most partial fleets the table of first ships may hold.
const TABLE_LIMIT: usize = 1_000_000;
impl UniformFleets {
    /// The sampler for `rules`.
    pub fn new(rules: &Rules) -> UniformFleets {
        UniformFleets::with_table_limit(rules, TABLE_LIMIT)
    }

    /// The sampler for `rules` whose table of first ships holds at most `limit` partial
    /// fleets (with `limit` 0 or 1 no ship comes from the table and the sampler is the
    /// plain sequential one, with the same bounds).
    pub(crate) fn with_table_limit(rules: &Rules, limit: usize) -> UniformFleets {
        UniformFleets::build(rules, limit, 0)
    }

    /// The sampler with a table of at most `limit` partial fleets whose weights are
    /// divided by at least `2^min_shift` (the tests use it to exercise the rounding).
    fn build(rules: &Rules, limit: usize, min_shift: u32) -> UniformFleets {
        let geo = Geometry::of(rules);
        let mut lens: Vec<u8> = rules.fleet().to_vec();
        lens.sort_unstable_by(|a, b| b.cmp(a));
        let mut distinct = lens.clone();
        distinct.dedup();
        let kinds: Vec<Kind> = distinct
            .iter()
            .map(|&len| Kind::new(rules, &geo, len))
            .collect();
        let order: Vec<usize> = lens
            .iter()
            .map(|l| distinct.iter().position(|x| x == l).unwrap_or(0))
            .collect();
        let mut sampler = UniformFleets {
            rules: rules.clone(),
            w: rules.width(),
            all: geo.all,
            kinds,
            steps: Vec::new(),
            empty: false,
            prefix: 0,
            prefix_fleets: 0,
            table: Vec::new(),
            stride: 0,
            entries: 0,
            total: 0,
            shift: 0,
        };
        sampler.steps = sampler.step_bounds(rules, &order, false);
        sampler.empty = !sampler.exists();
        if !sampler.empty {
            sampler.build_table(&order, limit, min_shift);
            // every prefix lacks room for some later ship: no fleet at all
            sampler.empty = sampler.total == 0;
        }
        sampler
    }

    /// The bounds `B_i` of the placement steps, in placement order (longest ship first):
    /// each is a proven upper bound of the number of free positions of that ship after any
    /// valid placement of the ships before it. An attempt succeeds with probability
    /// (number of valid fleets × orderings of equal ships) / (product of the bounds).
    ///
    /// These are the bounds of the plain sequential method (every ship drawn with
    /// rejection, no table), computed on call with the exhaustive and branch-and-bound
    /// searches (about half a second for Russian rules); the sampler itself uses cheaper
    /// global bounds, refined for each entry of its table.
    pub fn bounds(&self) -> Vec<u32> {
        // kinds are numbered longest first
        let mut order: Vec<usize> = self.steps.iter().map(|&(k, _)| k).collect();
        order.sort_unstable();
        self.step_bounds(&self.rules, &order, true)
            .iter()
            .map(|&(_, b)| b)
            .collect()
    }

    /// Whether the rules admit no valid fleet at all (then [`UniformFleets::sample`]
    /// returns a fleet without ships, which no game accepts).
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Depth-first search for one valid fleet. `true` if one is found or the search budget
    /// runs out first.
    fn exists(&self) -> bool {
        fn go(s: &UniformFleets, slot: usize, taken: u128, budget: &mut u32) -> bool {
            if slot == s.steps.len() || *budget == 0 {
                return true;
            }
            *budget -= 1;
            let kind = &s.kinds[s.steps[slot].0];
            let (mut h, mut v) = kind.free_bows(taken, s.all, s.w);
            while h != 0 {
                let i = h.trailing_zeros() as usize;
                if go(s, slot + 1, taken | kind.hzone[i], budget) {
                    return true;
                }
                h &= h - 1;
            }
            while v != 0 {
                let i = v.trailing_zeros() as usize;
                if go(s, slot + 1, taken | kind.vzone[i], budget) {
                    return true;
                }
                v &= v - 1;
            }
            false
        }
        let mut budget = 200_000;
        go(self, 0, 0, &mut budget)
    }

    /// One exactly uniform fleet drawn with `ChaCha8Rng::seed_from_u64(seed)`.
    pub fn sample_seeded(&self, seed: u64) -> Fleet {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        self.sample(&mut rng)
    }

    /// One exactly uniform fleet.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Fleet {
        let mut ships = Vec::with_capacity(self.steps.len());
        self.sample_into(rng, &mut ships);
        Fleet::from_valid(ships)
    }

    /// A table entry drawn with probability proportional to its weight (Walker's alias
    /// method: a uniform bucket, which keeps its own entry or gives its alias).
    #[inline]
    fn draw_entry<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let b = below64(rng, self.entries as u64) as usize;
        let row = &self.table[b * self.stride..b * self.stride + 12];
        let mut threshold = [0u8; 8];
        threshold.copy_from_slice(&row[..8]);
        if below64(rng, self.total) < u64::from_le_bytes(threshold) {
            b
        } else {
            let mut alias = [0u8; 4];
            alias.copy_from_slice(&row[8..]);
            u32::from_le_bytes(alias) as usize
        }
    }

    /// The ships of one exactly uniform fleet, into `ships` (cleared first).
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, ships: &mut Vec<Ship>) {
        ships.clear();
        if self.empty {
            return;
        }
        let m = self.prefix;
        let mut bits = Bits16 { buf: 0, left: 0 };
        let mut picked = [(0u8, false); crate::rules::MAX_SHIPS];
        let mut next = self.draw_entry(rng);
        'attempt: loop {
            let e = next;
            let entry = &self.table[e * self.stride + 12..(e + 1) * self.stride];
            // the entry of the next attempt is drawn now, so that its memory is read
            // while this attempt runs
            next = self.draw_entry(rng);
            let (codes, bounds) = entry.split_at(m);
            if self.shift > 0 {
                // the entry was drawn with its weight rounded up: keep it with
                // probability (exact weight) / (rounded weight)
                let exact = bounds.iter().fold(1u128, |p, &b| p * u128::from(b));
                let rounded = (exact + (1u128 << self.shift) - 1) >> self.shift << self.shift;
                if rounded != exact && crate::sampler::below(rng, rounded) >= exact {
                    continue 'attempt;
                }
            }
            let mut taken = 0u128;
            for (slot, &c) in codes.iter().enumerate() {
                let (zone, bow, vertical) = self.kinds[self.steps[slot].0].pos[usize::from(c)];
                taken |= zone;
                picked[slot] = (bow, vertical);
            }
            for (slot, &bound) in (m..).zip(bounds) {
                let kind = &self.kinds[self.steps[slot].0];
                let (h, v) = kind.free_bows(taken, self.all, self.w);
                let r = bits.below(rng, u32::from(bound));
                // counts by 64-bit half, so that the draw is located without counting again
                let (hl, hh) = ((h as u64).count_ones(), ((h >> 64) as u64).count_ones());
                let (vl, vh) = if v == 0 {
                    (0, 0)
                } else {
                    ((v as u64).count_ones(), ((v >> 64) as u64).count_ones())
                };
                let nh = hl + hh;
                if r >= nh + vl + vh {
                    continue 'attempt;
                }
                let (bows, low, r, vertical) = if r < nh {
                    (h, hl, r, false)
                } else {
                    (v, vl, r - nh, true)
                };
                let bow = if r < low {
                    select64(bows as u64, r)
                } else {
                    64 + select64((bows >> 64) as u64, r - low)
                };
                taken |= if vertical {
                    kind.vzone[bow]
                } else {
                    kind.hzone[bow]
                };
                picked[slot] = (bow as u8, vertical);
            }
            break;
        }
        for (slot, &(k, _)) in self.steps.iter().enumerate() {
            let (bow, vertical) = picked[slot];
            let orientation = if vertical {
                Orientation::Vertical
            } else {
                Orientation::Horizontal
            };
            ships.push(Ship::new(
                Coord::from_index(usize::from(bow), self.w),
                orientation,
                self.kinds[k].len,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bounds::packing_losses;
    use super::*;
    extern crate std;
    use crate::sampler::{Constraints, count_fleets, count_placements};
    use std::collections::BTreeMap;
    use std::format;

    /// The entries of the table: the cells taken by their prefix ships and their bounds.
    fn entries(s: &UniformFleets) -> Vec<(u128, Vec<u8>)> {
        s.table
            .chunks_exact(s.stride)
            .map(|row| {
                let (codes, bounds) = row[12..].split_at(s.prefix);
                let taken = codes.iter().enumerate().fold(0u128, |t, (slot, &c)| {
                    t | s.kinds[s.steps[slot].0].pos[usize::from(c)].0
                });
                (taken, bounds.to_vec())
            })
            .collect()
    }

    /// Counts the ordered placements of the steps from `slot` on after `taken`, checking
    /// on the way that the number of free positions never exceeds the bound of its step.
    fn completions(s: &UniformFleets, bounds: &[u8], slot: usize, taken: u128) -> u64 {
        if slot == s.steps.len() {
            return 1;
        }
        let kind = &s.kinds[s.steps[slot].0];
        let (h, v) = kind.free_bows(taken, s.all, s.w);
        let n = h.count_ones() + v.count_ones();
        assert!(
            n <= u32::from(bounds[slot - s.prefix]),
            "step {slot}: {n} free"
        );
        let mut total = 0;
        for (bows, zones) in [(h, &kind.hzone), (v, &kind.vzone)] {
            for i in crate::coord::Cells(bows).indices() {
                total += completions(s, bounds, slot + 1, taken | zones[i]);
            }
        }
        total
    }

    /// How many (prefix set, ordered rest) pairs make each fleet.
    fn representations(s: &UniformFleets) -> u64 {
        let mut r = 1u64;
        for k in 0..s.kinds.len() {
            let a = s.steps[..s.prefix].iter().filter(|x| x.0 == k).count() as u64;
            let b = s.steps[s.prefix..].iter().filter(|x| x.0 == k).count() as u64;
            // C(a + b, a) · b!
            let mut ways = 1u64;
            for i in 0..b {
                ways *= a + b - i;
            }
            r *= ways;
        }
        r
    }

    fn small_rule_sets() -> Vec<Rules> {
        let mut sets = Vec::new();
        for (w, h, fleet) in [
            (5u8, 4u8, &[3u8, 2, 1][..]),
            (4, 4, &[2, 2, 1, 1]),
            (5, 5, &[3, 2, 2, 1]),
            (4, 3, &[2, 1, 1]),
        ] {
            let base = Rules::custom(w, h, fleet).unwrap();
            sets.push(base.clone());
            sets.push(base.with_ships_may_touch(true));
        }
        sets
    }

    #[test]
    fn the_table_lists_every_partial_fleet_of_the_first_ships() {
        let russian = UniformFleets::new(&Rules::russian());
        assert_eq!(russian.prefix, 3);
        assert_eq!(russian.prefix_fleets, 786_968);
        assert_eq!(
            count_placements(&Rules::russian(), &[4, 3, 3], Constraints::default()),
            786_968
        );
        for rules in [Rules::classic()].into_iter().chain(small_rule_sets()) {
            for limit in [0, 30, 500, TABLE_LIMIT] {
                let s = UniformFleets::with_table_limit(&rules, limit);
                let lens: Vec<u8> = s.steps[..s.prefix]
                    .iter()
                    .map(|&(k, _)| s.kinds[k].len)
                    .collect();
                let expected = count_placements(&rules, &lens, Constraints::default());
                assert_eq!(s.prefix_fleets as u128, expected, "{rules}, limit {limit}");
                assert!(s.prefix_fleets <= limit.max(1), "{rules}, limit {limit}");
            }
        }
    }

    /// Exhaustively, on small grids and with tables of every size: every step bound of
    /// every table entry holds on every continuation, and the live entries carry every
    /// fleet exactly the expected number of times (so no entry with a completion was
    /// dropped as dead).
    #[test]
    fn table_bounds_hold_on_every_continuation() {
        for rules in small_rule_sets() {
            for limit in [0, 1, 30, 500, TABLE_LIMIT] {
                let s = UniformFleets::with_table_limit(&rules, limit);
                let pairs: u64 = entries(&s)
                    .iter()
                    .map(|(taken, bounds)| completions(&s, bounds, s.prefix, *taken))
                    .sum();
                let fleets = count_fleets(&rules) as u64;
                assert_eq!(
                    pairs,
                    fleets * representations(&s),
                    "{rules}, limit {limit}"
                );
            }
        }
    }

    /// Per-fleet frequencies against the uniform distribution (chi-squared, fixed seeds),
    /// with the table holding no ship, part of a group of equal ships, or more.
    #[test]
    fn every_fleet_is_equally_likely_whatever_the_table_holds() {
        for (rules, limits) in [
            (
                Rules::custom(4, 4, &[2, 2, 1]).unwrap(),
                &[0usize, 30, 500][..],
            ),
            (
                Rules::custom(4, 3, &[2, 1, 1])
                    .unwrap()
                    .with_ships_may_touch(true),
                &[0, 20, 1000],
            ),
        ] {
            let total = count_fleets(&rules) as usize;
            for (seed, &limit) in limits.iter().enumerate() {
                let s = UniformFleets::with_table_limit(&rules, limit);
                let mut rng =
                    <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed as u64);
                let draws = 40 * total;
                let mut seen: BTreeMap<Vec<Ship>, usize> = BTreeMap::new();
                for _ in 0..draws {
                    let f = s.sample(&mut rng);
                    assert!(f.validate(&rules).is_ok());
                    *seen.entry(f.ships().to_vec()).or_default() += 1;
                }
                assert_eq!(seen.len(), total, "{rules}, limit {limit}");
                assert_uniform(&seen, draws, &format!("{rules}, limit {limit}"));
            }
        }
    }

    /// Chi-squared test of `draws` draws spread over the fleets of `seen` (each seen at
    /// least once), far beyond the 0.1% critical value (about df + 3.1·sqrt(2·df)).
    fn assert_uniform(seen: &BTreeMap<Vec<Ship>, usize>, draws: usize, what: &str) {
        let e = draws as f64 / seen.len() as f64;
        let chi2: f64 = seen.values().map(|&o| (o as f64 - e).powi(2) / e).sum();
        let df = (seen.len() - 1) as f64;
        assert!(
            chi2 < df + 4.0 * (2.0 * df).sqrt(),
            "{what}: chi2 {chi2} with {df} degrees of freedom"
        );
    }

    /// Weights rounded up to coarse units: the correction step keeps the draws exact.
    #[test]
    fn rounded_weights_stay_exact() {
        let rules = Rules::custom(4, 4, &[2, 2, 1]).unwrap();
        let total = count_fleets(&rules) as usize;
        for (limit, shift) in [(0usize, 3u32), (30, 4), (500, 2)] {
            let s = UniformFleets::build(&rules, limit, shift);
            assert_eq!(s.shift, shift);
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(77);
            let draws = 40 * total;
            let mut seen: BTreeMap<Vec<Ship>, usize> = BTreeMap::new();
            for _ in 0..draws {
                *seen.entry(s.sample(&mut rng).ships().to_vec()).or_default() += 1;
            }
            assert_eq!(seen.len(), total);
            assert_uniform(&seen, draws, &format!("shift {shift}"));
        }
        // many ships: the weights outgrow 63 bits and are scaled down by themselves
        let many = Rules::custom(10, 10, &[1; 15])
            .unwrap()
            .with_ships_may_touch(true);
        let s = UniformFleets::new(&many);
        assert!(s.shift > 0);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(78);
        for _ in 0..50 {
            assert!(s.sample(&mut rng).validate(&many).is_ok());
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_fleets() {
        let rules = Rules::russian();
        let (a, b) = (UniformFleets::new(&rules), UniformFleets::new(&rules));
        let mut ra = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
        let mut rb = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
        for _ in 0..200 {
            let f = a.sample(&mut ra);
            assert!(f.validate(&rules).is_ok());
            assert_eq!(f, b.sample(&mut rb));
        }
    }

    /// Each kind of bound on its own, against exhaustive maxima over every partial fleet:
    /// the packing bound is never below them, and the branch and bound finds them exactly.
    fn check(rules: &Rules) {
        let s = UniformFleets::new(rules);
        let order: Vec<usize> = s.steps.iter().map(|&(k, _)| k).collect();
        let exact = s.exact_maxima(&order, usize::MAX);
        assert_eq!(exact.len(), order.len());
        let lens: Vec<u8> = s.kinds.iter().map(|k| k.len).collect();
        let loss = packing_losses(rules, &Geometry::of(rules), &lens);
        for (i, &k) in order.iter().enumerate() {
            let lost: u32 = order[..i].iter().map(|&j| loss[k][j]).sum();
            let packing = (4 * s.kinds[k].total).saturating_sub(lost) / 4;
            assert!(packing >= exact[i], "{rules}: step {i}");
            let mut budget = usize::MAX;
            assert_eq!(s.search_max(&order, i, &mut budget), Some(exact[i]));
            assert!(s.steps[i].1 >= exact[i]);
            if i > 0 && order[i - 1] == k {
                assert!(exact[i] < exact[i - 1].max(1), "{rules}: step {i}");
            }
        }
    }

    #[test]
    fn every_bound_is_at_least_the_exhaustive_maximum() {
        for (w, h, fleet) in [
            (5u8, 5u8, &[3u8, 2, 2, 1, 1][..]),
            (6, 5, &[3, 2, 1, 1]),
            (5, 4, &[4, 2, 1]),
            (4, 4, &[2, 2, 2]),
        ] {
            let base = Rules::custom(w, h, fleet).unwrap();
            check(&base);
            check(&base.with_ships_may_touch(true));
        }
    }

    #[test]
    fn select64_agrees_with_clearing_bits() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = x & (x >> 3);
            for k in 0..m.count_ones() {
                let mut w = m;
                for _ in 0..k {
                    w &= w - 1;
                }
                assert_eq!(select64(m, k), w.trailing_zeros() as usize);
            }
        }
        assert_eq!(select64(u64::MAX, 63), 63);
        assert_eq!(select64(1 << 63, 0), 63);
    }

    #[test]
    fn select_finds_the_kth_bit() {
        let m: u128 = (1 << 3) | (1 << 40) | (1 << 64) | (1 << 99) | (1 << 127);
        let bits: alloc::vec::Vec<usize> = (0..5).map(|k| select(m, k)).collect();
        assert_eq!(bits, [3, 40, 64, 99, 127]);
    }
}
