//! Fast exactly uniform fleets: sequential proposal with exact step-by-step rejection.

use alloc::vec;
use alloc::vec::Vec;

use rand::Rng;

use crate::coord::{Coord, Geometry};
use crate::fleet::{Fleet, Orientation, Ship};
use crate::rules::Rules;

/// Draws fleets exactly uniformly for any rule set.
///
/// The ships are placed one after the other, longest first. At step `i` the sampler
/// computes, with bitboards, the `n_i` positions where ship `i` still fits (inside the grid,
/// clear of the ships already placed and, without touching, of their halos), draws a number
/// `r` uniformly in `0..B_i` and either puts the ship on the `r`-th of those positions
/// (`r < n_i`) or throws the whole attempt away (`r >= n_i`, which includes `n_i = 0`).
///
/// `B_i` is a proven upper bound of `n_i` over every partial fleet the attempt can reach,
/// fixed when the sampler is built, so each ordered sequence of ship positions that forms a
/// valid fleet comes out with probability exactly `1 / (B_1 ⋯ B_k)`, the same for all.
/// Each fleet (a set of ships) is the same number of ordered sequences (the orderings of
/// its equal ships), so the fleets that come out are exactly uniform. Each bound is the
/// smallest of these proven values:
///
/// - an exhaustive maximum of `n_i` over all valid placements of the first ships (for the
///   first steps, while that enumeration stays small), or over all of them by branch and
///   bound (`n_i` only decreases as ships are added, so a partial fleet whose count, minus
///   the cells of the ships still to come for a single-cell target, is not above the best
///   found is cut; a search that exceeds its node budget is not used);
/// - `B_{i-1} − 1` when ship `i − 1` has the same length (its own position was free and is
///   now taken);
/// - a packing bound: without touching, the blocks `ship ⊕ 2×2` of distinct ships are
///   pairwise disjoint (overlapping blocks would make two ships touch), lie in the
///   forbidden zones, and every position of ship `i` whose bow is in one of them is lost,
///   so `n_i ≤ P_i − Σ_{j<i} m(ship j)` where `P_i` counts the positions on the empty grid
///   and `m` is the least number of such lost bows over all positions of ship `j`
///   (averaged over the four ways to anchor the 2×2 block; with touching allowed the
///   blocks are the ships' own cells).
///
/// Under Russian rules the bounds are 140, 140, 126, 134, 122, 112, 60, 59, 58, 57
/// (the single-cell ships' 60 is the exact maximum of free cells around the six larger
/// ships), so about one attempt in a hundred is kept; most attempts fail after a few ships,
/// and a fleet costs about 15–25 µs on a shared 2-core machine (short of 100,000 fleets
/// per second). Building the sampler runs the searches once (about half a second for
/// Russian rules). [`crate::FleetSampler`] gives the same distribution by
/// exact counting, and is used by the tests to check this one.
///
/// ```
/// use battleship_core::{Rules, UniformFleets};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let sampler = UniformFleets::new(&rules);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let fleet = sampler.sample(&mut rng);
/// assert!(fleet.validate(&rules).is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct UniformFleets {
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
    /// For each table entry, the position codes of its prefix ships (`prefix` bytes)
    /// followed by the bounds of the steps after the prefix (`steps.len() - prefix`
    /// bytes), side by side so that an attempt reads one place of memory.
    entries: Vec<u8>,
    /// Chooses a table entry with probability proportional to its weight.
    alias: Alias,
    /// The weights are the products of the suffix bounds divided by `2^shift`, rounded up.
    shift: u32,
}

/// Walker's alias table with integer weights: exact probabilities `w_i / total`.
#[derive(Debug, Clone, Default)]
struct Alias {
    /// Sum of the weights (`< 2^63`).
    total: u64,
    /// Bucket `b` keeps its own entry when a draw in `0..total` is below `buckets[b].0`,
    /// and gives entry `buckets[b].1` otherwise.
    buckets: Vec<(u64, u32)>,
}

impl Alias {
    /// The table for `weights` (each bucket holds `total` units: entry `i` owns
    /// `n * w_i` units spread over its own bucket and the buckets that alias to it).
    fn new(weights: &[u64]) -> Alias {
        let n = weights.len();
        let total: u64 = weights.iter().sum();
        let mut alias = Alias {
            total,
            buckets: (0..n as u32).map(|i| (total, i)).collect(),
        };
        if n == 0 || total == 0 {
            return alias;
        }
        let full = u128::from(total);
        let mut units: Vec<u128> = weights.iter().map(|&w| n as u128 * u128::from(w)).collect();
        let mut small: Vec<u32> = Vec::new();
        let mut large: Vec<u32> = Vec::new();
        for (i, &u) in units.iter().enumerate() {
            if u < full {
                small.push(i as u32);
            } else {
                large.push(i as u32);
            }
        }
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            let (s, l) = (s as usize, l as usize);
            alias.buckets[s] = (units[s] as u64, l as u32);
            units[l] -= full - units[s];
            if units[l] < full {
                large.pop();
                small.push(l as u32);
            }
        }
        // with exact integers every bucket left over holds exactly `total` units
        alias
    }

    /// An entry drawn with probability `w_i / total` (`total > 0`).
    #[inline]
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let b = below64(rng, self.buckets.len() as u64) as usize;
        let (threshold, alias) = self.buckets[b];
        if below64(rng, self.total) < threshold {
            b
        } else {
            alias as usize
        }
    }
}

/// A uniform number in `0..range` (`range > 0`), Lemire's multiply-and-reject method.
#[inline]
fn below64<R: Rng + ?Sized>(rng: &mut R, range: u64) -> u64 {
    let mut m = u128::from(rng.next_u64()) * u128::from(range);
    if (m as u64) < range {
        let threshold = range.wrapping_neg() % range;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(range);
        }
    }
    (m >> 64) as u64
}

/// The positions of ships of one length, as bitboards indexed by the bow cell.
#[derive(Debug, Clone)]
struct Kind {
    len: u8,
    /// Bow cells of the horizontal positions that fit in the grid.
    hbows: u128,
    /// Bow cells of the vertical positions (none for a ship of length 1).
    vbows: u128,
    /// Forbidden zone (the ship plus, without touching, its halo) of the horizontal ship
    /// with its bow on each cell.
    hzone: Vec<u128>,
    /// The same for vertical ships.
    vzone: Vec<u128>,
    /// Number of positions on the empty grid.
    total: u32,
    /// Every position by its code (horizontal ones by bow cell, then vertical ones):
    /// `(zone, bow cell, vertical)`.
    pos: Vec<(u128, u8, bool)>,
    /// The code of the horizontal and of the vertical position with its bow on each cell.
    hcode: Vec<u8>,
    /// See `hcode`.
    vcode: Vec<u8>,
}

impl Kind {
    fn new(rules: &Rules, geo: &Geometry, len: u8) -> Kind {
        let (w, h) = (rules.width(), rules.height());
        let n = geo.n();
        let mut kind = Kind {
            len,
            hbows: 0,
            vbows: 0,
            hzone: vec![0; n],
            vzone: vec![0; n],
            total: 0,
            pos: Vec::new(),
            hcode: vec![0; n],
            vcode: vec![0; n],
        };
        for i in 0..n {
            let bow = Coord::from_index(i, w);
            for o in [Orientation::Horizontal, Orientation::Vertical] {
                if len == 1 && o == Orientation::Vertical {
                    continue;
                }
                let ship = Ship::new(bow, o, len);
                if !ship.fits(rules) {
                    continue;
                }
                let cells = ship.mask(w).0;
                let zone = if rules.ships_may_touch() {
                    cells
                } else {
                    geo.dilate(cells)
                };
                if o == Orientation::Horizontal {
                    kind.hbows |= 1 << i;
                    kind.hzone[i] = zone;
                } else {
                    kind.vbows |= 1 << i;
                    kind.vzone[i] = zone;
                }
            }
        }
        debug_assert!(h > 0);
        kind.total = kind.hbows.count_ones() + kind.vbows.count_ones();
        for (bows, vertical) in [(kind.hbows, false), (kind.vbows, true)] {
            for i in crate::coord::Cells(bows).indices() {
                let code = kind.pos.len() as u8;
                if vertical {
                    kind.vcode[i] = code;
                    kind.pos.push((kind.vzone[i], i as u8, true));
                } else {
                    kind.hcode[i] = code;
                    kind.pos.push((kind.hzone[i], i as u8, false));
                }
            }
        }
        kind
    }

    /// The codes of the free positions (see [`Kind::free_bows`]), in increasing order.
    fn free_codes(&self, taken: u128, all: u128, w: u8, mut visit: impl FnMut(u8)) {
        let (h, v) = self.free_bows(taken, all, w);
        for i in crate::coord::Cells(h).indices() {
            visit(self.hcode[i]);
        }
        for i in crate::coord::Cells(v).indices() {
            visit(self.vcode[i]);
        }
    }

    /// The bows of the horizontal and vertical positions clear of `taken`.
    #[inline]
    fn free_bows(&self, taken: u128, all: u128, w: u8) -> (u128, u128) {
        let free = all & !taken;
        let mut h = free & self.hbows;
        let mut v = free & self.vbows;
        for d in 1..u32::from(self.len) {
            h &= free >> d;
            v &= free >> (d * u32::from(w));
        }
        (h, v)
    }

    /// The zone of the `r`-th free position (horizontal bows first) and the ship.
    #[inline]
    fn pick(&self, h: u128, v: u128, r: u32) -> (u128, usize, bool) {
        let nh = h.count_ones();
        if r < nh {
            let i = select(h, r);
            (self.hzone[i], i, false)
        } else {
            let i = select(v, r - nh);
            (self.vzone[i], i, true)
        }
    }
}

/// Index of the `k`-th set bit of `m` (`k < m.count_ones()`).
#[inline]
fn select(m: u128, mut k: u32) -> usize {
    let mut base = 0usize;
    let mut word = m as u64;
    let lo = word.count_ones();
    if k >= lo {
        k -= lo;
        word = (m >> 64) as u64;
        base = 64;
    }
    for shift in [32u32, 16, 8] {
        let low = word & ((1u64 << shift) - 1);
        let c = low.count_ones();
        if k >= c {
            k -= c;
            word >>= shift;
            base += shift as usize;
        } else {
            word = low;
        }
    }
    for _ in 0..k {
        word &= word - 1;
    }
    base + word.trailing_zeros() as usize
}

/// How many partial fleets the exhaustive maximum may enumerate per step when a sampler is
/// built (beyond it the packing bound alone is used).
const EXACT_BUDGET: usize = 300_000;

/// How many nodes the branch-and-bound maximum may visit per step when a sampler is built
/// (if it runs out, the packing bound is used).
const SEARCH_BUDGET: usize = 200_000;

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
            w: rules.width(),
            all: geo.all,
            kinds,
            steps: Vec::new(),
            empty: false,
            prefix: 0,
            prefix_fleets: 0,
            entries: Vec::new(),
            alias: Alias::default(),
            shift: 0,
        };
        let loss = packing_losses(rules, &geo, &distinct);
        let exact = sampler.exact_maxima(&order, EXACT_BUDGET);
        let mut previous: Option<(usize, u32)> = None;
        let mut searched = true;
        sampler.steps = order
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let lost: u32 = order[..i].iter().map(|&j| loss[k][j]).sum();
                let packing = (4 * sampler.kinds[k].total).saturating_sub(lost) / 4;
                let mut bound = match exact.get(i) {
                    Some(&e) => packing.min(e),
                    None => packing,
                };
                // the search runs for the first ship of each length, and for the next
                // ones while it keeps finishing within its budget
                let first_of_kind = previous.is_none_or(|(pk, _)| pk != k);
                if i >= exact.len() && (first_of_kind || searched) {
                    let mut budget = SEARCH_BUDGET;
                    let found = sampler.search_max(&order, i, &mut budget);
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
            .collect();
        sampler.empty = !sampler.exists();
        if !sampler.empty {
            sampler.build_table(&order, limit);
            // every prefix lacks room for some later ship: no fleet at all
            sampler.empty = sampler.alias.total == 0;
        }
        sampler
    }

    /// The bounds of the steps after the prefix for the partial fleet `taken` of the
    /// prefix ships, into `out`; returns their product (0 when some ship has no room).
    ///
    /// Each is the smallest of the global bound of the step and of what is left of the
    /// free positions of its ship after the prefix: a ship of length 1 loses at least
    /// the cells of the ships placed between the prefix and it (they were free cells and
    /// are taken), a longer ship at least the position of each ship of its own length
    /// placed in between (each was free and is taken).
    fn suffix_bounds(&self, taken: u128, out: &mut [u8]) -> u128 {
        let mut free = [0u32; crate::rules::MAX_SHIPS];
        for (k, kind) in self.kinds.iter().enumerate() {
            let (h, v) = kind.free_bows(taken, self.all, self.w);
            free[k] = h.count_ones() + v.count_ones();
        }
        let mut product = 1u128;
        let mut cells = 0u32;
        let mut same = [0u32; crate::rules::MAX_SHIPS];
        for (slot, &(k, cap)) in self.steps.iter().enumerate().skip(self.prefix) {
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

    /// Enumerates the partial fleets of the first ships (as sets: equal ships in
    /// increasing position code), as many ships as keep them within `limit`, and builds
    /// the alias table that draws one with probability proportional to the product of
    /// its suffix bounds.
    fn build_table(&mut self, order: &[usize], limit: usize) {
        let k = order.len();
        let mut taken: Vec<u128> = vec![0];
        let mut codes: Vec<u8> = Vec::new();
        let mut d = 0;
        while d < k {
            let kind = &self.kinds[order[d]];
            let same = d > 0 && order[d - 1] == order[d];
            let from = |e: usize| if same { codes[e * d + d - 1] + 1 } else { 0 };
            let mut count = 0usize;
            for (e, &t) in taken.iter().enumerate() {
                let from = from(e);
                kind.free_codes(t, self.all, self.w, |c| count += usize::from(c >= from));
            }
            if count > limit {
                break;
            }
            let mut next_taken = Vec::with_capacity(count);
            let mut next_codes = Vec::with_capacity(count * (d + 1));
            for (e, &t) in taken.iter().enumerate() {
                let from = from(e);
                let prefix = &codes[e * d..(e + 1) * d];
                kind.free_codes(t, self.all, self.w, |c| {
                    if c >= from {
                        next_taken.push(t | kind.pos[usize::from(c)].0);
                        next_codes.extend_from_slice(prefix);
                        next_codes.push(c);
                    }
                });
            }
            taken = next_taken;
            codes = next_codes;
            d += 1;
            if taken.is_empty() {
                break;
            }
        }
        self.prefix = d;
        self.prefix_fleets = taken.len();
        let rest = k - d;
        let mut bounds = [0u8; crate::rules::MAX_SHIPS];
        let mut weights: Vec<u128> = Vec::with_capacity(taken.len());
        let mut entries = Vec::with_capacity(taken.len() * k);
        for (e, &t) in taken.iter().enumerate() {
            let w = self.suffix_bounds(t, &mut bounds);
            if w > 0 {
                weights.push(w);
                entries.extend_from_slice(&codes[e * d..(e + 1) * d]);
                entries.extend_from_slice(&bounds[..rest]);
            }
        }
        drop(taken);
        drop(codes);
        // scale the weights down (rounding up) so that their sum stays below 2^63
        let max = weights.iter().copied().max().unwrap_or(0);
        let bits = |x: u128| 128 - x.leading_zeros();
        self.shift = (bits(max) + bits(weights.len() as u128)).saturating_sub(63);
        let scaled: Vec<u64> = weights
            .iter()
            .map(|&w| w.div_ceil(1u128 << self.shift) as u64)
            .collect();
        drop(weights);
        self.alias = Alias::new(&scaled);
        self.entries = entries;
    }

    /// For the first steps, the exact maximum of the number of free positions of the ship
    /// placed at that step, over every valid placement of the ships before it.
    fn exact_maxima(&self, order: &[usize], budget: usize) -> Vec<u32> {
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
    fn search_max(&self, order: &[usize], i: usize, budget: &mut usize) -> Option<u32> {
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

    /// The bounds `B_i` of the placement steps, in placement order (longest ship first):
    /// each is a proven upper bound of the number of free positions of that ship after any
    /// valid placement of the ships before it. An attempt succeeds with probability
    /// (number of valid fleets × orderings of equal ships) / (product of the bounds).
    pub fn bounds(&self) -> Vec<u32> {
        self.steps.iter().map(|&(_, b)| b).collect()
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

    /// The ships of one exactly uniform fleet, into `ships` (cleared first).
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, ships: &mut Vec<Ship>) {
        ships.clear();
        if self.empty {
            return;
        }
        let m = self.prefix;
        let rest = self.steps.len() - m;
        let mut bits = Bits16 { buf: 0, left: 0 };
        let mut picked = [(0u8, false); crate::rules::MAX_SHIPS];
        'attempt: loop {
            let e = self.alias.draw(rng);
            let entry = &self.entries[e * (m + rest)..(e + 1) * (m + rest)];
            let (codes, bounds) = entry.split_at(m);
            if self.shift > 0 {
                // the entry was drawn with its weight rounded up: keep it with
                // probability (exact weight) / (rounded weight)
                let exact = bounds.iter().fold(1u128, |p, &b| p * u128::from(b));
                let rounded = exact.div_ceil(1u128 << self.shift) << self.shift;
                if crate::sampler::below(rng, rounded) >= exact {
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
                if r >= h.count_ones() + v.count_ones() {
                    continue 'attempt;
                }
                let (zone, bow, vertical) = kind.pick(h, v, r);
                taken |= zone;
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
fn packing_losses(rules: &Rules, geo: &Geometry, lens: &[u8]) -> Vec<Vec<u32>> {
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

/// Exact uniform small integers from 16-bit chunks of the generator's output (Lemire's
/// multiply-and-reject method), so one 64-bit draw serves up to four choices.
struct Bits16 {
    buf: u64,
    left: u32,
}

impl Bits16 {
    fn next16<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.buf = rng.next_u64();
            self.left = 4;
        }
        let x = (self.buf & 0xFFFF) as u32;
        self.buf >>= 16;
        self.left -= 1;
        x
    }

    /// A uniform number in `0..range` (`0 < range <= 65536`).
    fn below<R: Rng + ?Sized>(&mut self, rng: &mut R, range: u32) -> u32 {
        let mut m = self.next16(rng) * range;
        let mut low = m & 0xFFFF;
        if low < range {
            let threshold = (65536 - range) % range;
            while low < threshold {
                m = self.next16(rng) * range;
                low = m & 0xFFFF;
            }
        }
        m >> 16
    }
}

/// Every position of a ship of length `len` on the grid of `rules`: its cells, the zone it
/// forbids to other ships (itself plus, without touching, its halo) and the ship.
pub(crate) fn positions(rules: &Rules, len: u8) -> Vec<(u128, u128, Ship)> {
    let geo = Geometry::of(rules);
    let w = rules.width();
    let mut list = Vec::new();
    for r in 0..rules.height() {
        for c in 0..w {
            let Some(bow) = Coord::new(c, r) else {
                continue;
            };
            for o in [Orientation::Horizontal, Orientation::Vertical] {
                if len == 1 && o == Orientation::Vertical {
                    continue;
                }
                let ship = Ship::new(bow, o, len);
                if ship.fits(rules) {
                    let cells = ship.mask(w).0;
                    let zone = if rules.ships_may_touch() {
                        cells
                    } else {
                        geo.dilate(cells)
                    };
                    list.push((cells, zone, ship));
                }
            }
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn select_finds_the_kth_bit() {
        let m: u128 = (1 << 3) | (1 << 40) | (1 << 64) | (1 << 99) | (1 << 127);
        let bits: alloc::vec::Vec<usize> = (0..5).map(|k| select(m, k)).collect();
        assert_eq!(bits, [3, 40, 64, 99, 127]);
    }
}
