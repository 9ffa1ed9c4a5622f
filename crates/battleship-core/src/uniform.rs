//! Fast exactly uniform fleets by rejection of whole fleets.

use alloc::vec::Vec;

use rand::Rng;

use crate::coord::{Coord, Geometry};
use crate::fleet::{Fleet, Orientation, Ship};
use crate::rules::Rules;

/// Draws fleets exactly uniformly for any rule set.
///
/// Each attempt puts every ship (ships of equal length taken as distinct) on a uniformly
/// random position of the grid, independently, and the attempt is kept only if the fleet is
/// valid; otherwise it starts again from scratch. Every valid labelled fleet is drawn with
/// the same probability, and each fleet (a set of ships) corresponds to the same number of
/// labelled fleets, so the result is exactly uniform over fleets. An attempt stops at the
/// first conflict, which keeps attempts cheap (under Russian rules about one attempt in
/// 4,000 succeeds). [`crate::FleetSampler`] gives the same distribution by exact counting,
/// and is used by the tests to check this one.
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
    /// For each ship of the fleet (longest first): its positions as `(cells, zone)`, where
    /// `zone` is what the ship forbids to the others.
    positions: Vec<Vec<(u128, u128, Ship)>>,
    /// The same positions without the ship, compact for the hot loop.
    masks: Vec<Vec<(u128, u128)>>,
    /// Index into `positions` of each ship of the fleet.
    order: Vec<usize>,
    /// Whether a search proved that no valid fleet exists.
    empty: bool,
}

impl UniformFleets {
    /// The sampler for `rules`.
    pub fn new(rules: &Rules) -> UniformFleets {
        let mut lens: Vec<u8> = rules.fleet().to_vec();
        lens.dedup();
        let positions: Vec<Vec<(u128, u128, Ship)>> =
            lens.iter().map(|&len| positions(rules, len)).collect();
        let order = rules
            .fleet()
            .iter()
            .map(|l| lens.iter().position(|x| x == l).unwrap_or(0))
            .collect();
        let masks = positions
            .iter()
            .map(|list: &Vec<(u128, u128, Ship)>| list.iter().map(|&(c, z, _)| (c, z)).collect())
            .collect();
        let mut sampler = UniformFleets {
            positions,
            masks,
            order,
            empty: false,
        };
        sampler.empty = !sampler.exists();
        sampler
    }

    /// Whether the rules admit no valid fleet at all (then [`UniformFleets::sample`]
    /// returns a fleet without ships, which no game accepts).
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Depth-first search for one valid fleet (equal ships in increasing position order).
    /// `true` if one is found or the search budget runs out first.
    fn exists(&self) -> bool {
        fn go(s: &UniformFleets, slot: usize, from: usize, taken: u128, budget: &mut u32) -> bool {
            if slot == s.order.len() {
                return true;
            }
            if *budget == 0 {
                return true;
            }
            *budget -= 1;
            let k = s.order[slot];
            let start = if slot > 0 && s.order[slot - 1] == k {
                from
            } else {
                0
            };
            for (i, &(cells, zone)) in s.masks[k].iter().enumerate().skip(start) {
                if cells & taken == 0 && go(s, slot + 1, i + 1, taken | zone, budget) {
                    return true;
                }
            }
            false
        }
        let mut budget = 200_000;
        go(self, 0, 0, 0, &mut budget)
    }

    /// One exactly uniform fleet drawn with `ChaCha8Rng::seed_from_u64(seed)`.
    pub fn sample_seeded(&self, seed: u64) -> Fleet {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        self.sample(&mut rng)
    }

    /// One exactly uniform fleet.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Fleet {
        let mut ships = Vec::with_capacity(self.order.len());
        self.sample_into(rng, &mut ships);
        Fleet::from_valid(ships)
    }

    /// The ships of one exactly uniform fleet, into `ships` (cleared first).
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, ships: &mut Vec<Ship>) {
        if self.empty {
            ships.clear();
            return;
        }
        let mut bits = Bits16 { buf: 0, left: 0 };
        let mut picked = [0u16; crate::rules::MAX_SHIPS];
        'attempt: loop {
            let mut taken = 0u128;
            for (slot, &k) in self.order.iter().enumerate() {
                let list = &self.masks[k];
                let pick = bits.below(rng, list.len() as u32) as usize;
                let (cells, zone) = list[pick];
                if cells & taken != 0 {
                    continue 'attempt;
                }
                taken |= zone;
                picked[slot] = pick as u16;
            }
            break;
        }
        ships.clear();
        for (slot, &k) in self.order.iter().enumerate() {
            ships.push(self.positions[k][usize::from(picked[slot])].2);
        }
    }
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
