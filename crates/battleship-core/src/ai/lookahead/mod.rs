//! The lookahead shooter: a large population of whole fleets kept consistent with every
//! observation by the [`GibbsSampler`]'s bitboard moves, and a score on that population
//! that looks one shot ahead: the chance to hit, the risk of wasted water and the
//! information a shot gives.

use alloc::vec;
use alloc::vec::Vec;

use arrayvec::ArrayVec;
use rand::{Rng, RngExt};

use super::particles::{GibbsSampler, Obs, Particle};
use super::{Bot, cell_or_any, constraints, known_water};
use crate::coord::{Cells, Coord};
use crate::rules::{MAX_SHIPS, Rules};
use crate::sampler::FleetSampler;
use crate::tracking::Tracking;

/// The whole-fleet shooter that looks one shot ahead (level 5 of [`super::Level`]).
///
/// It keeps a population of complete fleets consistent with every miss, hit and sunk ship,
/// moved by bitboard Gibbs steps (each ship, and pairs of ships sharing the cover of a
/// hit, redrawn from their exact conditional law), and estimates each cell's probability
/// by Rao–Blackwellisation. A cell scores its chance to hit, less (where ships may not
/// touch) a quarter of its chance to be water next to a ship afloat, water that sinking
/// the ship would settle for free (see [`Lookahead::with_halo_penalty`]), plus 1.5 times
/// the information the shot is expected to give: the entropy, in nats, of its outcome
/// (miss, hit or sunk; see [`Lookahead::with_information_weight`]). The cells of a wounded
/// ship compete with the rest of the grid by the same score. Once few cells are left open
/// the exact counting programme of [`crate::FleetSampler`] replaces the estimate, and the
/// likeliest cell is shot.
///
/// ```
/// use battleship_core::ai::Lookahead;
/// use battleship_core::{Rules, Tracking};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mut bot = Lookahead::new(&rules);
/// let p = bot.probabilities(&Tracking::new(rules.clone()), &mut rng).unwrap();
/// // 20 ship cells among 100: the probabilities add up to about 20
/// let total: f64 = p.iter().sum();
/// assert!((total - 20.0).abs() < 1e-6);
/// ```
#[derive(Debug, Clone)]
pub struct Lookahead {
    sampler: GibbsSampler,
    rules: Rules,
    particles: Vec<Particle>,
    /// Fleet masks sampled at the last decision.
    samples: Vec<u128>,
    /// For each sampled fleet, the cells where a shot would sink a ship (the last cell of
    /// a ship not yet hit); only kept while the information term is on.
    sinks: Vec<u128>,
    /// Rao–Blackwellised bow weights per length table and orientation.
    acc: Vec<f64>,
    rb_steps: usize,
    seen_shots: u32,
    size: usize,
    sweeps: usize,
    candidates: usize,
    exact_below: usize,
    halo_penalty: f64,
    information: f64,
}

/// `-x ln x`, the share of an outcome of chance `x` in the entropy (0 at 0).
fn nats(x: f64) -> f64 {
    if x > 0.0 { -x * libm::log(x) } else { 0.0 }
}

/// Default population size.
const SIZE: usize = 100;
/// Default Gibbs sweeps per decision.
const SWEEPS: usize = 2;
/// Default number of cells compared by the two-shot lookahead (1: none).
const CANDIDATES: usize = 1;
/// Default number of open cells below which the marginals are counted exactly.
const EXACT_BELOW: usize = 28;
/// Default weight of the chance that a hunting shot lands next to a ship afloat.
const HALO_PENALTY: f64 = 0.25;
/// Default weight of the information a shot is expected to give (nats).
const INFORMATION: f64 = 1.5;
/// State budget of the exact counting programme.
const EXACT_STATES: usize = 40_000;
/// Independent searches that seed a population built from scratch.
const SEEDS: usize = 8;
/// Extra sweeps of a population built from scratch.
const BURN_IN: usize = 6;

impl Lookahead {
    /// A lookahead shooter for `rules`.
    pub fn new(rules: &Rules) -> Lookahead {
        Lookahead {
            sampler: GibbsSampler::new(rules),
            rules: rules.clone(),
            particles: Vec::new(),
            samples: Vec::new(),
            sinks: Vec::new(),
            acc: Vec::new(),
            rb_steps: 0,
            seen_shots: u32::MAX,
            size: SIZE,
            sweeps: SWEEPS,
            candidates: CANDIDATES,
            exact_below: EXACT_BELOW,
            // where ships may touch, water next to a sunk ship is not known for free
            halo_penalty: if rules.ships_may_touch() {
                0.0
            } else {
                HALO_PENALTY
            },
            information: INFORMATION,
        }
    }

    /// The same shooter with `particles` fleets and `sweeps` Gibbs sweeps per decision
    /// (more is more accurate and slower; the default is 100 and 2).
    pub fn with_effort(mut self, particles: usize, sweeps: usize) -> Lookahead {
        self.size = particles.max(1);
        self.sweeps = sweeps.max(1);
        self
    }

    /// The same shooter comparing the `candidates` best-scoring cells by the expected hits
    /// of the next two shots (0 or 1: always the best-scoring cell, the default). It is
    /// off unless asked for: it costs time and made no measurable difference (see
    /// `docs/research/battleship-code-notes.md`).
    pub fn with_candidates(mut self, candidates: usize) -> Lookahead {
        self.candidates = candidates;
        self
    }

    /// The same shooter counting the probabilities exactly once at most `cells` cells may
    /// still hold a ship (0: never; the default is 28).
    pub fn with_exact_below(mut self, cells: usize) -> Lookahead {
        self.exact_below = cells;
        self
    }

    /// The same shooter scoring a hunting shot by its chance to hit minus `weight` times
    /// its chance to be water next to a ship afloat (0: the plain chance to hit). Where
    /// ships may not touch, such water is known for free once that ship sinks, so a shot
    /// there is wasted in hindsight; the default is 0.25 under those rules and 0 where
    /// ships may touch (there it costs shots).
    pub fn with_halo_penalty(mut self, weight: f64) -> Lookahead {
        self.halo_penalty = if weight.is_finite() { weight } else { 0.0 };
        self
    }

    /// The same shooter adding to the score of a shot `weight` times the information it is
    /// expected to give: the entropy, in nats, of its outcome (miss, hit or sunk), the
    /// chances taken from the sampled fleets. Under the uniform posterior the logarithm of
    /// the number of consistent fleets falls by that much on average, so a shot that
    /// splits them evenly is worth more than its chance to hit alone. With a weight other
    /// than 0 a wounded ship is not finished first: its cells compete with the rest of the
    /// grid by the same score, which often prefers a shot elsewhere that settles where the
    /// ship lies. The term needs the sampled fleets, so it is not used once the chances
    /// are counted exactly (see [`Lookahead::with_exact_below`]). The default is 1.5; 0
    /// turns it off, and a wounded ship is then finished first while the chances are
    /// estimated.
    pub fn with_information_weight(mut self, weight: f64) -> Lookahead {
        self.information = if weight.is_finite() { weight } else { 0.0 };
        self
    }

    /// For every cell of `cand`, the share of the fleets sampled at the last decision where
    /// a shot there would sink a ship; 0 elsewhere.
    fn sink_shares(&self, cand: u128) -> Vec<f64> {
        self.shares(self.sinks.iter().map(|&m| m & cand))
    }

    /// For every cell of `cand`, the share of the fleets sampled at the last decision whose
    /// halo (cells next to a ship, not on one) covers it; 0 elsewhere.
    fn halo_shares(&self, cand: u128) -> Vec<f64> {
        let geo = &self.sampler.geo;
        self.shares(self.samples.iter().map(|&m| geo.dilate(m) & !m & cand))
    }

    /// For every cell, the share of `masks` (one per fleet sampled at the last decision)
    /// that hold it.
    fn shares(&self, masks: impl ExactSizeIterator<Item = u128>) -> Vec<f64> {
        let ns = masks.len().max(1) as f64;
        let mut counts = vec![0u32; self.rules.cells()];
        for m in masks {
            for j in Cells(m).indices() {
                counts[j] += 1;
            }
        }
        counts.iter().map(|&c| f64::from(c) / ns).collect()
    }

    fn observations(&self, t: &Tracking) -> Obs {
        let c = constraints(t);
        Obs {
            blocked: c.water.0,
            open: c.ship.0,
        }
    }

    /// Brings the population up to date with `t`, accumulating the Rao–Blackwellised
    /// weights and sampling fleet masks. Returns `false` if no consistent fleet was found.
    fn update<R: Rng + ?Sized>(&mut self, t: &Tracking, rng: &mut R) -> bool {
        let afloat: ArrayVec<u8, MAX_SHIPS> = t
            .afloat()
            .iter()
            .filter_map(|&l| self.sampler.table_of(l))
            .collect();
        let obs = self.observations(t);
        let shots = t.shots_fired();
        if shots < self.seen_shots {
            // a new game (or an earlier position): start again
            self.particles.clear();
        }
        self.seen_shots = shots;
        let mut kept = Vec::with_capacity(self.size);
        for mut p in core::mem::take(&mut self.particles) {
            if self.sampler.repair(&mut p, obs, &afloat, rng) {
                kept.push(p);
            }
        }
        let fresh = kept.is_empty();
        if fresh {
            for _ in 0..SEEDS.min(self.size) {
                if let Some(p) = self.sampler.build(obs, &afloat, rng) {
                    kept.push(p);
                }
            }
            if kept.is_empty() {
                return false;
            }
        }
        // the population is topped up with copies of consistent fleets, which the sweeps
        // then move apart
        while kept.len() < self.size {
            let k = rng.random_range(0..kept.len());
            kept.push(kept[k].clone());
        }
        let burn = if fresh { BURN_IN } else { 0 };
        self.samples.clear();
        self.sinks.clear();
        self.acc.clear();
        self.acc.resize(self.sampler.tables.len() * 2 * 128, 0.0);
        self.rb_steps = 0;
        for p in &mut kept {
            for s in 0..self.sweeps + burn {
                self.sampler.pair_move(p, obs, rng);
                let record = s >= burn;
                if record {
                    self.rb_steps += 1;
                }
                self.sampler
                    .sweep(p, obs, record.then_some(&mut self.acc[..]), rng);
                if record {
                    self.samples.push(p.cells());
                    if self.information != 0.0 {
                        self.sinks.push(p.ships.iter().fold(0, |m, s| {
                            let rest = s.1 & !obs.open;
                            if rest.count_ones() == 1 { m | rest } else { m }
                        }));
                    }
                }
            }
        }
        self.particles = kept;
        true
    }

    /// The estimated probability that each cell (index `row * width + col`) holds a ship
    /// afloat, given everything in `t` (cells already hit count as occupied). Updates the
    /// population as a decision does. `None` if no consistent fleet was found.
    pub fn probabilities<R: Rng + ?Sized>(
        &mut self,
        t: &Tracking,
        rng: &mut R,
    ) -> Option<Vec<f64>> {
        if !self.update(t, rng) {
            return None;
        }
        Some(self.rb_marginals(t.open_hits().0))
    }

    /// Rao–Blackwellised marginals: each ship's conditional law at every recorded step,
    /// spread over its cells; open hits count as occupied.
    fn rb_marginals(&self, open: u128) -> Vec<f64> {
        let n = self.rules.cells();
        let mut p = vec![0.0f64; n];
        let w = self.sampler.w as usize;
        for (li, t) in self.sampler.tables.iter().enumerate() {
            let l = usize::from(t.len);
            for (o, step) in [(0usize, 1usize), (128, w)] {
                let base = li * 2 * 128 + o;
                for s in 0..n {
                    let a = self.acc[base + s];
                    if a != 0.0 {
                        for d in 0..l {
                            p[s + d * step] += a;
                        }
                    }
                }
            }
        }
        let k = self.rb_steps.max(1) as f64;
        for (i, x) in p.iter_mut().enumerate() {
            *x = if (open >> i) & 1 == 1 { 1.0 } else { *x / k };
        }
        p
    }

    /// Exact marginals by the counting programme, if its graph is small enough.
    fn exact(&self, t: &Tracking) -> Option<Vec<f64>> {
        let dp = FleetSampler::with_fleet(&self.rules, &t.afloat(), constraints(t), EXACT_STATES)
            .ok()?;
        let total = dp.count();
        if total == 0 {
            return None;
        }
        let tf = total as f64;
        Some(dp.occupancy().iter().map(|&x| x as f64 / tf).collect())
    }

    /// The index of the cell to shoot.
    pub(super) fn choose_index<R: Rng + ?Sized>(
        &mut self,
        t: &Tracking,
        rng: &mut R,
    ) -> Option<usize> {
        let unknown = t.unknown().0;
        if unknown == 0 {
            return None;
        }
        let cand = unknown & !known_water(t);
        if cand == 0 {
            return super::argmax(&super::density(t), Cells(unknown), rng);
        }
        let exact = if (cand.count_ones() as usize) < self.exact_below {
            self.exact(t)
        } else {
            None
        };
        // `sampled`: the fleets sampled for this decision are at hand (a successful update
        // records at least one per particle), so the joint law can be read from them
        let (p, sampled) = match exact {
            Some(p) => (p, false),
            None => {
                if !self.update(t, rng) {
                    return super::argmax(&super::density(t), Cells(unknown), rng);
                }
                (self.rb_marginals(t.open_hits().0), true)
            }
        };
        // With the information term off, a wounded ship is finished first while the chances
        // are estimated (the most likely cell next to its hits): sinking it settles the
        // cells around it. Once they are exact, the likeliest cell anywhere is shot: perfect
        // play often leaves a wounded ship for a while, and finishing first costs shots
        // (exact small-grid figures in docs/research/battleship-code-notes.md).
        if sampled
            && self.information == 0.0
            && let Some(i) = super::argmax(&p, Cells(super::target_cells(t) & cand), rng)
            && p[i] > 0.0
        {
            return Some(i);
        }
        // Water next to a ship afloat is a wasted shot (sinking the ship reveals it): the
        // score of a cell is its chance to hit less a share of that risk (the weight's
        // tuning is in docs/research/battleship-code-notes.md).
        let mut score: Vec<f64> = if self.halo_penalty != 0.0 && sampled {
            // (a cell no sampled fleet covers stays out of reach of a penalised one)
            let halo = self.halo_shares(cand);
            p.iter()
                .zip(&halo)
                .map(|(&x, &h)| {
                    if x > 0.0 {
                        x - self.halo_penalty * h
                    } else {
                        f64::NEG_INFINITY
                    }
                })
                .collect()
        } else {
            p.clone()
        };
        // The information term: the entropy of the outcome, miss (1 - p), sunk (s) or hit
        // (p - s), weighted as tuned in docs/research/battleship-code-notes.md.
        if self.information != 0.0 && sampled {
            let sink = self.sink_shares(cand);
            for i in Cells(cand).indices() {
                if score[i] > f64::NEG_INFINITY {
                    let s = sink[i].min(p[i]);
                    score[i] += self.information * (nats(1.0 - p[i]) + nats(s) + nats(p[i] - s));
                }
            }
        }
        if self.candidates <= 1 || cand.count_ones() == 1 || !sampled {
            return super::argmax(&score, Cells(cand), rng);
        }
        let mut top: ArrayVec<(f64, usize), 128> =
            Cells(cand).indices().map(|i| (score[i], i)).collect();
        top.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        top.truncate(self.candidates);
        // the score of this shot plus the expected hits of the best next one after either
        // outcome: max P(c and c') + max (P(c') - P(c and c')), the joint law from the
        // sampled fleets
        let ns = self.samples.len() as f64;
        let mut joint = vec![0u32; self.rules.cells()];
        let mut best = f64::NEG_INFINITY;
        let mut pick = top[0].1;
        for &(pc, c) in &top {
            joint.iter_mut().for_each(|x| *x = 0);
            let bit = 1u128 << c;
            for &m in &self.samples {
                if m & bit != 0 {
                    for j in Cells(m & cand & !bit).indices() {
                        joint[j] += 1;
                    }
                }
            }
            let mut hit_next = 0.0f64;
            let mut miss_next = 0.0f64;
            for j in Cells(cand & !bit).indices() {
                let pj = f64::from(joint[j]) / ns;
                hit_next = hit_next.max(pj);
                miss_next = miss_next.max(p[j] - pj);
            }
            let v = pc + hit_next + miss_next;
            if v > best {
                best = v;
                pick = c;
            }
        }
        Some(pick)
    }

    /// Forgets the sampled fleets: the next decision starts a new population.
    pub(super) fn new_game(&mut self) {
        self.particles.clear();
        self.seen_shots = u32::MAX;
    }
}

impl Bot for Lookahead {
    fn choose_move(&mut self, tracking: &Tracking, rng: &mut dyn Rng) -> Option<Coord> {
        let cell = self.choose_index(tracking, rng);
        cell_or_any(cell, tracking, rng)
    }

    fn new_game(&mut self) {
        Lookahead::new_game(self);
    }
}

#[cfg(test)]
mod tests;
