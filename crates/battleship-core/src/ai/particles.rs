//! The particle machinery of the whole-fleet shooters: complete fleets ("particles") on
//! bitboards, and the Gibbs moves that keep them consistent with every shot.

use alloc::vec;
use alloc::vec::Vec;

use arrayvec::ArrayVec;
use rand::{Rng, RngExt};

use crate::coord::Geometry;
use crate::rules::{MAX_SHIPS, Rules};
use crate::uniform::select;

/// Node budget of the depth-first search that builds a fleet from scratch.
const BUILD_BUDGET: u32 = 20_000;

/// The positions of the ships of one length, as bitboards.
#[derive(Debug, Clone)]
pub(super) struct LenTable {
    pub(super) len: u8,
    /// Cells where a horizontal ship of this length may start (its bow).
    hstart: u128,
    /// Cells where a vertical ship may start (none for length 1).
    vstart: u128,
    /// Cells and zone (cells plus no-touch halo) of the ship starting at each cell:
    /// horizontal at `[2 * s]`, vertical at `[2 * s + 1]`.
    pos: Vec<(u128, u128)>,
}

/// One ship of a particle fleet: index of its length table, cells, zone.
pub(super) type PShip = (u8, u128, u128);

/// A complete fleet of the ships afloat.
#[derive(Debug, Clone)]
pub(super) struct Particle {
    pub(super) ships: ArrayVec<PShip, MAX_SHIPS>,
}

impl Particle {
    pub(super) fn cells(&self) -> u128 {
        self.ships.iter().fold(0, |m, s| m | s.1)
    }
}

/// What a consistent fleet must respect.
#[derive(Debug, Clone, Copy)]
pub(super) struct Obs {
    /// Cells no ship afloat may occupy.
    pub(super) blocked: u128,
    /// Hits on ships afloat: every one must be covered.
    pub(super) open: u128,
}

/// A Gibbs sampler of fleets on bitboards: the positions of every ship length of the
/// rules, and the moves that keep a population of particle fleets consistent with what
/// is known (one-ship sweeps, pair moves, repair after a shot, a fresh build by search).
#[derive(Debug, Clone)]
pub(super) struct GibbsSampler {
    pub(super) geo: Geometry,
    pub(super) w: u32,
    pub(super) all: u128,
    pub(super) tables: Vec<LenTable>,
}

impl GibbsSampler {
    pub(super) fn new(rules: &Rules) -> GibbsSampler {
        let geo = Geometry::of(rules);
        let (w, h) = (usize::from(rules.width()), usize::from(rules.height()));
        let n = geo.n();
        let touch = rules.ships_may_touch();
        let mut lens = rules.fleet().to_vec();
        lens.sort_unstable_by(|a, b| b.cmp(a));
        lens.dedup();
        let tables = lens
            .iter()
            .map(|&len| {
                let l = usize::from(len);
                let mut hstart = 0u128;
                let mut vstart = 0u128;
                let mut pos = vec![(0u128, 0u128); 2 * n];
                for r in 0..h {
                    for c in 0..w {
                        let s = r * w + c;
                        if c + l <= w {
                            hstart |= 1u128 << s;
                            let cells = (0..l).fold(0u128, |m, d| m | 1u128 << (s + d));
                            let zone = if touch { cells } else { geo.dilate(cells) };
                            pos[2 * s] = (cells, zone);
                        }
                        if l > 1 && r + l <= h {
                            vstart |= 1u128 << s;
                            let cells = (0..l).fold(0u128, |m, d| m | 1u128 << (s + d * w));
                            let zone = if touch { cells } else { geo.dilate(cells) };
                            pos[2 * s + 1] = (cells, zone);
                        }
                    }
                }
                LenTable {
                    len,
                    hstart,
                    vstart,
                    pos,
                }
            })
            .collect();
        GibbsSampler {
            geo,
            w: w as u32,
            all: geo.all,
            tables,
        }
    }

    pub(super) fn table_of(&self, len: u8) -> Option<u8> {
        self.tables
            .iter()
            .position(|t| t.len == len)
            .map(|i| i as u8)
    }

    /// The bows of the positions of length table `li` inside `free` that cover every
    /// cell of `need` and do not lie wholly on `open` hits (such a ship would have been
    /// sunk): `(horizontal, vertical)`.
    #[inline]
    pub(super) fn starts(&self, li: u8, free: u128, need: u128, open: u128) -> (u128, u128) {
        let t = &self.tables[usize::from(li)];
        let l = u32::from(t.len);
        let w = self.w;
        let mut sh = free & t.hstart;
        let mut sv = free & t.vstart;
        let (mut oh, mut ov) = (open, open);
        for d in 1..l {
            sh &= free >> d;
            sv &= free >> (d * w);
            oh &= open >> d;
            ov &= open >> (d * w);
        }
        sh &= !oh;
        sv &= !ov;
        let mut rest = need;
        while rest != 0 && (sh | sv) != 0 {
            let b = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let (mut ch, mut cv) = (0u128, 0u128);
            for d in 0..l {
                ch |= b >> d;
                cv |= b >> (d * w);
            }
            sh &= ch;
            sv &= cv;
        }
        (sh, sv)
    }

    /// A uniform choice among the positions `(sh, sv)` (not both empty).
    #[inline]
    fn pick<R: Rng + ?Sized>(&self, li: u8, sh: u128, sv: u128, rng: &mut R) -> (u128, u128) {
        let ch = sh.count_ones();
        let total = ch + sv.count_ones();
        let k = rng.random_range(0..total);
        let t = &self.tables[usize::from(li)];
        if k < ch {
            t.pos[2 * select(sh, k)]
        } else {
            t.pos[2 * select(sv, k - ch) + 1]
        }
    }

    /// One Gibbs sweep: every ship in turn redrawn uniformly among the positions consistent
    /// with the other ships and the observations (its exact conditional law).
    pub(super) fn sweep<R: Rng + ?Sized>(
        &self,
        p: &mut Particle,
        obs: Obs,
        mut acc: Option<&mut [f64]>,
        rng: &mut R,
    ) {
        let n = p.ships.len();
        // zones and cells of the ships after each one (not moved yet in this sweep), and
        // of the ships before it (already moved)
        let mut after: [(u128, u128); MAX_SHIPS + 1] = [(0, 0); MAX_SHIPS + 1];
        for j in (0..n).rev() {
            after[j] = (after[j + 1].0 | p.ships[j].2, after[j + 1].1 | p.ships[j].1);
        }
        let (mut before_z, mut before_c) = (0u128, 0u128);
        for j in 0..n {
            let oz = before_z | after[j + 1].0;
            let oc = before_c | after[j + 1].1;
            let li = p.ships[j].0;
            let free = self.all & !(obs.blocked | oz);
            let need = obs.open & !oc;
            let (sh, sv) = self.starts(li, free, need, obs.open);
            if sh | sv == 0 {
                before_z |= p.ships[j].2;
                before_c |= p.ships[j].1;
                continue;
            }
            if let Some(acc) = acc.as_deref_mut() {
                // the exact conditional law of this ship: every bow it may take, equally
                // likely (accumulated per bow, spread over the cells later)
                let share = 1.0 / f64::from(sh.count_ones() + sv.count_ones());
                let base = usize::from(li) * 2 * 128;
                for (bits, o) in [(sh, 0usize), (sv, 128usize)] {
                    let mut b = bits;
                    while b != 0 {
                        acc[base + o + b.trailing_zeros() as usize] += share;
                        b &= b - 1;
                    }
                }
            }
            let (c, z) = self.pick(li, sh, sv, rng);
            p.ships[j] = (li, c, z);
            before_z |= z;
            before_c |= c;
        }
    }

    /// A joint move of two ships of different lengths that between them must cover an
    /// open hit, redrawn uniformly among the consistent pairs (a block Gibbs step: single
    /// ship moves can never change which ship covers a hit, this one can). One of the two
    /// covers an open hit, so every move can change something; none without open hits.
    pub(super) fn pair_move<R: Rng + ?Sized>(&self, p: &mut Particle, obs: Obs, rng: &mut R) {
        let n = p.ships.len();
        if n < 2 || obs.open == 0 {
            return;
        }
        // The pair: the ship covering a random open hit and a random other ship. Between
        // them the two cover the same open hits before and after the move (those the other
        // ships leave uncovered), so the pair is chosen with the same probability from
        // either side, and the move keeps the uniform posterior stationary.
        let r = rng.random_range(0..obs.open.count_ones());
        let picked = 1u128 << select(obs.open, r);
        let Some(j) = p.ships.iter().position(|s| s.1 & picked != 0) else {
            return;
        };
        let mut k = rng.random_range(0..n - 1);
        if k >= j {
            k += 1;
        }
        let (lj, lk) = (p.ships[j].0, p.ships[k].0);
        if lj == lk {
            return;
        }
        let mut oz = 0u128;
        let mut oc = 0u128;
        for (x, s) in p.ships.iter().enumerate() {
            if x != j && x != k {
                oz |= s.2;
                oc |= s.1;
            }
        }
        let need = obs.open & !oc;
        if need == 0 {
            return;
        }
        let h = need & need.wrapping_neg();
        let free = self.all & !(obs.blocked | oz);
        // (first ship's table, second's): the first covers h
        let mut cands: ArrayVec<(bool, u128, u128, u32), 16> = ArrayVec::new();
        let mut total = 0u32;
        for (swap, la, lb) in [(false, lj, lk), (true, lk, lj)] {
            let (ah, av) = self.starts(la, free, h, obs.open);
            let ta = &self.tables[usize::from(la)];
            for (bits, o) in [(ah, 0usize), (av, 1usize)] {
                let mut b = bits;
                while b != 0 {
                    let s = b.trailing_zeros() as usize;
                    b &= b - 1;
                    let (ac, az) = ta.pos[2 * s + o];
                    let (bh, bv) = self.starts(lb, free & !az, need & !ac, obs.open);
                    let c = bh.count_ones() + bv.count_ones();
                    if c > 0 && !cands.is_full() {
                        cands.push((swap, ac, az, c));
                        total += c;
                    }
                }
            }
        }
        if total == 0 {
            return;
        }
        let mut r = rng.random_range(0..total);
        for &(swap, ac, az, c) in &cands {
            if r < c {
                let (la, lb) = if swap { (lk, lj) } else { (lj, lk) };
                let (bh, bv) = self.starts(lb, free & !az, need & !ac, obs.open);
                let ch = bh.count_ones();
                let tb = &self.tables[usize::from(lb)];
                let (bc, bz) = if r < ch {
                    tb.pos[2 * select(bh, r)]
                } else {
                    tb.pos[2 * select(bv, r - ch) + 1]
                };
                let (ja, ka) = if swap { (k, j) } else { (j, k) };
                p.ships[ja] = (la, ac, az);
                p.ships[ka] = (lb, bc, bz);
                return;
            }
            r -= c;
        }
    }

    pub(super) fn consistent(&self, p: &Particle, obs: Obs) -> bool {
        let mut cells = 0u128;
        for (k, s) in p.ships.iter().enumerate() {
            if s.1 & obs.blocked != 0 {
                return false;
            }
            if s.1 & !obs.open == 0 {
                // wholly hit, so it would have been reported sunk
                return false;
            }
            for o in &p.ships[k + 1..] {
                if o.1 & s.2 != 0 {
                    return false;
                }
            }
            cells |= s.1;
        }
        obs.open & !cells == 0
    }

    /// Makes `p` consistent with `obs` and the ships afloat (`afloat`: length table
    /// indices) by redrawing the ships it lost (on water, or wholly hit), each covering an
    /// uncovered open hit where it can. Returns whether it succeeded: a fleet that still
    /// leaves an open hit uncovered is given up.
    pub(super) fn repair<R: Rng + ?Sized>(
        &self,
        p: &mut Particle,
        obs: Obs,
        afloat: &[u8],
        rng: &mut R,
    ) -> bool {
        let mut want: ArrayVec<u8, MAX_SHIPS> = afloat.iter().copied().collect();
        let mut ships: ArrayVec<PShip, MAX_SHIPS> = ArrayVec::new();
        for &s in &p.ships {
            if s.1 & obs.blocked != 0 || s.1 & !obs.open == 0 {
                continue;
            }
            if let Some(k) = want.iter().position(|&x| x == s.0) {
                want.remove(k);
                ships.push(s);
            }
        }
        for li in want {
            let zone = ships.iter().fold(0u128, |m, s| m | s.2);
            let cells = ships.iter().fold(0u128, |m, s| m | s.1);
            let free = self.all & !(obs.blocked | zone);
            let uncovered = obs.open & !cells;
            let (mut sh, mut sv) = (0, 0);
            if uncovered != 0 {
                let first = uncovered & uncovered.wrapping_neg();
                (sh, sv) = self.starts(li, free, first, obs.open);
            }
            if sh | sv == 0 {
                (sh, sv) = self.starts(li, free, 0, obs.open);
            }
            if sh | sv == 0 {
                return false;
            }
            let (c, z) = self.pick(li, sh, sv, rng);
            ships.push((li, c, z));
        }
        let cells = ships.iter().fold(0u128, |m, s| m | s.1);
        if obs.open & !cells != 0 {
            // An open hit no ship covers: the fleet is dropped, and a copy of a consistent
            // one takes its place (the sweeps move them apart); searching for the ships
            // near the hits again cost time and gained nothing (see
            // docs/research/battleship-code-notes.md).
            return false;
        }
        p.ships = ships;
        self.consistent(p, obs)
    }

    /// A consistent fleet of the ships afloat (`afloat`: length table indices, longest
    /// first) by randomised depth-first search, positions covering open hits tried first;
    /// `None` if none is found within the node budget.
    pub(super) fn build<R: Rng + ?Sized>(
        &self,
        obs: Obs,
        afloat: &[u8],
        rng: &mut R,
    ) -> Option<Particle> {
        struct Search<'a, R: Rng + ?Sized> {
            sampler: &'a GibbsSampler,
            obs: Obs,
            afloat: &'a [u8],
            budget: u32,
            ships: ArrayVec<PShip, MAX_SHIPS>,
            rng: &'a mut R,
        }
        impl<R: Rng + ?Sized> Search<'_, R> {
            fn go(&mut self, k: usize, taken: u128, cells: u128) -> bool {
                if self.budget == 0 {
                    return false;
                }
                self.budget -= 1;
                let uncovered = self.obs.open & !cells;
                if k == self.afloat.len() {
                    return uncovered == 0;
                }
                let e = self.sampler;
                let left: u32 = self.afloat[k..]
                    .iter()
                    .map(|&li| u32::from(e.tables[usize::from(li)].len))
                    .sum();
                if uncovered.count_ones() > left {
                    return false;
                }
                let li = self.afloat[k];
                let free = e.all & !(self.obs.blocked | taken);
                // positions covering the first uncovered hit first, then the others
                let first = uncovered & uncovered.wrapping_neg();
                let (ch, cv) = if first != 0 {
                    e.starts(li, free, first, self.obs.open)
                } else {
                    (0, 0)
                };
                let (ah, av) = e.starts(li, free, 0, self.obs.open);
                for (sh, sv, limit) in [(ch, cv, 12u32), (ah & !ch, av & !cv, 24)] {
                    let total = sh.count_ones() + sv.count_ones();
                    if total == 0 {
                        continue;
                    }
                    let nh = sh.count_ones();
                    let start = self.rng.random_range(0..total);
                    let t = &e.tables[usize::from(li)];
                    for x in 0..total.min(limit) {
                        let r = (start + x * 7919) % total;
                        let (c, z) = if r < nh {
                            t.pos[2 * select(sh, r)]
                        } else {
                            t.pos[2 * select(sv, r - nh) + 1]
                        };
                        self.ships.push((li, c, z));
                        if self.go(k + 1, taken | z, cells | c) {
                            return true;
                        }
                        self.ships.pop();
                    }
                }
                false
            }
        }
        let mut s = Search {
            sampler: self,
            obs,
            afloat,
            budget: BUILD_BUDGET,
            ships: ArrayVec::new(),
            rng,
        };
        if s.go(0, 0, 0) {
            Some(Particle { ships: s.ships })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn starts_are_exactly_the_free_positions_covering_the_need() {
        let rules = Rules::russian();
        let e = GibbsSampler::new(&rules);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..50 {
            let free = ((u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64()))
                | ((u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64()));
            let free = free & e.all;
            let need = if rng.random_range(0..2) == 0 {
                0
            } else {
                1u128 << rng.random_range(0..100)
            };
            // open hits: a short run of cells, sometimes covering a whole position
            let open = if rng.random_range(0..2) == 0 {
                0
            } else {
                let s = rng.random_range(0..100u32);
                let step = if rng.random_range(0..2) == 0 { 1 } else { 10 };
                (0..rng.random_range(1..4u32))
                    .map(|d| s + d * step)
                    .filter(|&c| c < 100)
                    .fold(0u128, |m, c| m | 1 << c)
            };
            for (li, t) in e.tables.iter().enumerate() {
                let (sh, sv) = e.starts(li as u8, free, need, open);
                for s in 0..100 {
                    for (o, bits, ok) in [(0, sh, t.hstart), (1, sv, t.vstart)] {
                        let want = (ok >> s) & 1 == 1 && {
                            let c = t.pos[2 * s + o].0;
                            c & !free == 0 && need & !c == 0 && c & !open != 0
                        };
                        assert_eq!((bits >> s) & 1 == 1, want, "len {} start {s}", t.len);
                    }
                }
            }
        }
    }
}
