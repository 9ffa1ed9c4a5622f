//! Exact counting and exactly uniform sampling of fleets.
//!
//! The grid is scanned cell by cell in reading order. At each cell a ship may start there
//! (its bow), horizontal or vertical, or the cell is left to water. The state after a cell is
//! the set of the next cells already taken (by a vertical ship in progress, or by the
//! no-touch halo of a placed ship) together with the ships still to place. Because the bow is
//! the first cell of a ship in reading order, every fleet corresponds to exactly one path
//! through these states; a ship of length 1 is only ever placed "vertically", so it is
//! counted once. Counting the paths from each state to the end (a dynamic programme over
//! the layered state graph) gives the exact number of fleets, and walking the graph while
//! choosing each edge with probability proportional to the number of completions behind it
//! draws a fleet exactly uniformly.
//!
//! The same machinery is used with observations (known water, cells known to hold a ship,
//! sunk ships removed): it counts exactly the fleets consistent with what a shooter knows,
//! and gives the exact probability that each cell holds a ship.

use alloc::vec;
use alloc::vec::Vec;

use rand::Rng;

use crate::coord::{Cells, Coord, Geometry};
use crate::fleet::{Fleet, Orientation, Ship};
use crate::rules::Rules;

/// Exact fleet counter and uniform sampler for one rule set (optionally conditioned on
/// observations). Build it once and draw as many fleets as needed.
///
/// ```
/// use battleship_core::{FleetSampler, Rules};
/// use rand::SeedableRng;
/// let rules = Rules::custom(4, 4, &[2, 1]).unwrap();
/// let sampler = FleetSampler::new(&rules, 1_000_000).unwrap();
/// assert_eq!(sampler.count(), 184);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let fleet = sampler.sample(&mut rng).unwrap();
/// assert!(fleet.validate(&rules).is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct FleetSampler {
    n: usize,
    /// Completions from each state, per layer.
    counts: Vec<Vec<u128>>,
    /// Edges of each layer in CSR form: `starts[s]..starts[s + 1]` index `edges`.
    starts: Vec<Vec<u32>>,
    /// `(child index in the next layer, ship option + 1 or 0)`.
    edges: Vec<Vec<(u32, u8)>>,
    /// The ship options of each cell, with their cells.
    ships: Vec<Vec<(Ship, u128)>>,
    states: usize,
}

/// What a shooter knows about a grid, as constraints on the fleet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Constraints {
    /// Cells known to be water (misses, revealed water, sunk ships and their halo).
    pub water: Cells,
    /// Cells known to hold a ship that is still afloat (hits not yet sunk): every one is
    /// covered by a ship, and no ship lies wholly on them (it would have been sunk).
    pub ship: Cells,
}

/// A ship option at one cell: its cells and the cells it blocks, relative to the cell.
#[derive(Debug, Clone, Copy)]
struct Opt {
    kind: u8,
    vertical: bool,
    cells: u128,
    block: u128,
}

/// The cell-by-cell machine shared by the counter and the sampler.
///
/// A state is `mask << 32 | remaining`: `mask` holds the cells from the current one on that
/// are already taken (by a placed ship or its no-touch halo); `remaining` the number of
/// ships of each length still to place (4 bits per length, longest first).
struct Machine {
    n: usize,
    lens: Vec<u8>,
    opts: Vec<Vec<Opt>>,
    full: u32,
    required: u128,
}

impl Machine {
    fn new(rules: &Rules, fleet: &[u8], constraints: Constraints) -> Machine {
        let geo = Geometry::of(rules);
        let (w, h) = (rules.width(), rules.height());
        let n = geo.n();
        let touch = rules.ships_may_touch();
        let mut lens: Vec<u8> = fleet.to_vec();
        lens.sort_unstable_by(|a, b| b.cmp(a));
        lens.dedup();
        lens.truncate(8);
        let mut full: u32 = 0;
        for (k, &l) in lens.iter().enumerate() {
            let c = fleet.iter().filter(|&&x| x == l).count() as u32;
            full |= c.min(15) << (4 * k);
        }
        let water = constraints.water.0 & geo.all;
        let required = constraints.ship.0 & geo.all & !water;
        let mut opts = vec![Vec::new(); n];
        for (i, cell_opts) in opts.iter_mut().enumerate() {
            let bow = Coord::from_index(i, w);
            for (k, &l) in lens.iter().enumerate() {
                for vertical in [true, false] {
                    // a ship of length 1 is placed once, as "vertical"
                    if !vertical && l == 1 {
                        continue;
                    }
                    let fits = if vertical {
                        bow.row() + l <= h
                    } else {
                        bow.col() + l <= w
                    };
                    if !fits {
                        continue;
                    }
                    let mut cells = 0u128;
                    for d in 0..usize::from(l) {
                        cells |= 1u128 << (i + if vertical { d * usize::from(w) } else { d });
                    }
                    // Clear of known water, and not lying wholly on afloat hits: a ship
                    // whose every cell was hit would have been sunk.
                    if cells & water != 0 || cells & !required == 0 {
                        continue;
                    }
                    let around = if touch { cells } else { geo.dilate(cells) };
                    if !touch && (around & !cells) & required != 0 {
                        continue;
                    }
                    cell_opts.push(Opt {
                        kind: k as u8,
                        vertical,
                        cells: cells >> i,
                        block: (around >> i) & !1,
                    });
                }
            }
        }
        Machine {
            n,
            lens,
            opts,
            full,
            required,
        }
    }

    fn cells_of(&self, rem: u32) -> usize {
        self.lens
            .iter()
            .enumerate()
            .map(|(k, &l)| ((rem >> (4 * k)) & 15) as usize * usize::from(l))
            .sum()
    }

    /// Children of `key` at cell `i`: `(child key, 0 for no ship or option + 1)`.
    fn children(&self, key: u128, i: usize, mut push: impl FnMut(u128, u8)) {
        let mask = key >> 32;
        let rem = key as u32;
        if mask & 1 == 1 {
            push((mask >> 1) << 32 | u128::from(rem), 0);
            return;
        }
        let left = self.n - i - 1;
        if (self.required >> i) & 1 == 0 && self.cells_of(rem) <= left {
            push((mask >> 1) << 32 | u128::from(rem), 0);
        }
        for (o, opt) in self.opts[i].iter().enumerate() {
            if (rem >> (4 * opt.kind)) & 15 == 0 || opt.cells & mask != 0 {
                continue;
            }
            let nrem = rem - (1 << (4 * opt.kind));
            if self.cells_of(nrem) > left {
                continue;
            }
            push(
                ((mask | opt.block) >> 1) << 32 | u128::from(nrem),
                o as u8 + 1,
            );
        }
    }
}

/// The exact number of placements of the ships `fleet` (lengths) on the grid of `rules`
/// respecting `constraints`, computed layer by layer with little memory.
pub fn count_placements(rules: &Rules, fleet: &[u8], constraints: Constraints) -> u128 {
    let m = Machine::new(rules, fleet, constraints);
    let mut layer: Vec<(u128, u128)> = vec![(u128::from(m.full), 1)];
    let mut next: Vec<(u128, u128)> = Vec::new();
    for i in 0..m.n {
        next.clear();
        for &(key, count) in &layer {
            m.children(key, i, |k, _| next.push((k, count)));
        }
        next.sort_unstable_by_key(|&(k, _)| k);
        layer.clear();
        for &(k, c) in &next {
            match layer.last_mut() {
                Some((lk, lc)) if *lk == k => *lc = lc.saturating_add(c),
                _ => layer.push((k, c)),
            }
        }
    }
    layer
        .iter()
        .filter(|&&(k, _)| k == 0)
        .fold(0u128, |t, &(_, c)| t.saturating_add(c))
}

/// Why an exact sampler was not built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the exact fleet graph would exceed {limit} states")]
pub struct TooLarge {
    /// The state budget that was exceeded.
    pub limit: usize,
}

impl FleetSampler {
    /// The exact sampler of all valid fleets of `rules`, if its graph stays within
    /// `limit` states (small grids, or heavily constrained ones; the full Russian grid
    /// needs about 21 million).
    pub fn new(rules: &Rules, limit: usize) -> Result<FleetSampler, TooLarge> {
        FleetSampler::with_fleet(rules, rules.fleet(), Constraints::default(), limit)
    }

    /// The exact sampler of the placements of the ships `fleet` (lengths) on the grid of
    /// `rules` (with its touching rule) that respect `constraints`, within `limit` states.
    pub fn with_fleet(
        rules: &Rules,
        fleet: &[u8],
        constraints: Constraints,
        limit: usize,
    ) -> Result<FleetSampler, TooLarge> {
        let m = Machine::new(rules, fleet, constraints);
        let n = m.n;
        let mut layers: Vec<Vec<u128>> = Vec::with_capacity(n + 1);
        layers.push(vec![u128::from(m.full)]);
        let mut starts_all = Vec::with_capacity(n);
        let mut edges_all = Vec::with_capacity(n);
        let mut pending: Vec<(u128, u8)> = Vec::new();
        let mut states = 1;
        for i in 0..n {
            let layer = &layers[i];
            let mut starts = Vec::with_capacity(layer.len() + 1);
            pending.clear();
            for &key in layer {
                starts.push(pending.len() as u32);
                m.children(key, i, |k, o| pending.push((k, o)));
            }
            starts.push(pending.len() as u32);
            let mut next: Vec<u128> = pending.iter().map(|&(k, _)| k).collect();
            next.sort_unstable();
            next.dedup();
            states += next.len();
            if states > limit {
                return Err(TooLarge { limit });
            }
            let edges: Vec<(u32, u8)> = pending
                .iter()
                .map(|&(k, o)| (next.binary_search(&k).unwrap_or(0) as u32, o))
                .collect();
            starts_all.push(starts);
            edges_all.push(edges);
            layers.push(next);
        }
        let mut counts: Vec<Vec<u128>> = vec![Vec::new(); n + 1];
        counts[n] = layers[n].iter().map(|&k| u128::from(k == 0)).collect();
        for i in (0..n).rev() {
            let starts = &starts_all[i];
            let edges = &edges_all[i];
            let next = &counts[i + 1];
            counts[i] = (0..layers[i].len())
                .map(|s| {
                    edges[starts[s] as usize..starts[s + 1] as usize]
                        .iter()
                        .fold(0u128, |t, &(child, _)| {
                            t.saturating_add(next[child as usize])
                        })
                })
                .collect();
        }
        let w = rules.width();
        let ships = m
            .opts
            .iter()
            .enumerate()
            .map(|(i, opts)| {
                opts.iter()
                    .map(|o| {
                        let orientation = if o.vertical {
                            Orientation::Vertical
                        } else {
                            Orientation::Horizontal
                        };
                        (
                            Ship::new(
                                Coord::from_index(i, w),
                                orientation,
                                m.lens[usize::from(o.kind)],
                            ),
                            o.cells << i,
                        )
                    })
                    .collect()
            })
            .collect();
        Ok(FleetSampler {
            n,
            counts,
            starts: starts_all,
            edges: edges_all,
            ships,
            states,
        })
    }

    /// The exact number of fleets (ships of the same length are interchangeable: a fleet is
    /// the set of its ships).
    pub fn count(&self) -> u128 {
        self.counts[0][0]
    }

    /// Number of states of the counting graph.
    pub fn states(&self) -> usize {
        self.states
    }

    /// Draws a fleet exactly uniformly among all the fleets counted; `None` when there are
    /// none.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Fleet> {
        let mut ships = Vec::with_capacity(16);
        self.sample_into(rng, &mut ships)?;
        Some(Fleet::from_valid(ships))
    }

    /// Draws the ships of a uniform fleet into `ships` (cleared first); `None` when there
    /// are no fleets.
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, ships: &mut Vec<Ship>) -> Option<()> {
        ships.clear();
        if self.count() == 0 {
            return None;
        }
        let mut s = 0usize;
        for i in 0..self.n {
            let starts = &self.starts[i];
            let edges = &self.edges[i][starts[s] as usize..starts[s + 1] as usize];
            let pick = if edges.len() == 1 {
                edges[0]
            } else {
                let next = &self.counts[i + 1];
                let mut r = below(rng, self.counts[i][s]);
                let mut chosen = edges[edges.len() - 1];
                for &e in edges {
                    let c = next[e.0 as usize];
                    if r < c {
                        chosen = e;
                        break;
                    }
                    r -= c;
                }
                chosen
            };
            if pick.1 != 0 {
                ships.push(self.ships[i][usize::from(pick.1 - 1)].0);
            }
            s = pick.0 as usize;
        }
        Some(())
    }

    /// For each cell (index `row * width + col`), the number of counted fleets with a ship
    /// on it. Divide by [`FleetSampler::count`] for the probability.
    pub fn occupancy(&self) -> Vec<u128> {
        let n = self.n;
        let mut occ = vec![0u128; n];
        let mut fwd: Vec<u128> = vec![1];
        for i in 0..n {
            let starts = &self.starts[i];
            let edges = &self.edges[i];
            let next_counts = &self.counts[i + 1];
            let mut nf = vec![0u128; next_counts.len()];
            for (s, &f) in fwd.iter().enumerate() {
                if f == 0 {
                    continue;
                }
                for &(child, o) in &edges[starts[s] as usize..starts[s + 1] as usize] {
                    nf[child as usize] = nf[child as usize].saturating_add(f);
                    if o != 0 {
                        let through = f.saturating_mul(next_counts[child as usize]);
                        if through != 0 {
                            for j in Cells(self.ships[i][usize::from(o - 1)].1).indices() {
                                occ[j] = occ[j].saturating_add(through);
                            }
                        }
                    }
                }
            }
            fwd = nf;
        }
        occ
    }
}

/// A uniform number in `0..bound` (`bound > 0`), without modulo bias.
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, bound: u128) -> u128 {
    if bound <= u128::from(u64::MAX) {
        let b = bound as u64;
        // Lemire-style rejection on 64 bits.
        let zone = u64::MAX - (u64::MAX - b + 1) % b;
        loop {
            let x = rng.next_u64();
            if x <= zone {
                return u128::from(x % b);
            }
        }
    }
    let zone = u128::MAX - (u128::MAX - bound + 1) % bound;
    loop {
        let x = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        if x <= zone {
            return x % bound;
        }
    }
}

/// The exact number of valid fleets of `rules` (a fleet is the set of its ships).
///
/// ```
/// use battleship_core::{count_fleets, Rules};
/// assert_eq!(count_fleets(&Rules::custom(6, 6, &[3, 2, 1]).unwrap()), 27_256);
/// ```
///
/// The full Russian grid has 1,855,545,978,831,780 fleets and classic rules 15,046,987,768
/// (about 4 s each on one core).
pub fn count_fleets(rules: &Rules) -> u128 {
    count_placements(rules, rules.fleet(), Constraints::default())
}
