//! Computer players: shooters with levels, and placement strategies for their own fleet.
//!
//! Every shooter decides from a [`Tracking`] alone — the results of its own shots — so it
//! cannot see the opponent's ships.
//!
//! | level | idea |
//! |---|---|
//! | [`Level::Random`] | a random cell not shot yet, like the original program |
//! | [`Level::Hunt`] | hunt on a parity lattice spaced by the longest ship afloat; after a hit, target its neighbours and then its line |
//! | [`Level::Density`] | count, for every ship afloat, its placements consistent with what is known; shoot the cell covered most often |
//! | [`Level::Posterior`] | reason over whole fleets: keep a population of complete fleets consistent with every miss, hit and sunk ship, moved by Gibbs steps (one ship, or two ships sharing the cover of a hit, redrawn from their exact conditional law, so the stationary law is the uniform posterior); estimate each cell's probability by Rao–Blackwellisation and shoot the most likely cell |
//! | [`Level::Lookahead`] | the same reasoning, faster and sharper: a larger population moved by bitboard Gibbs steps, exact cell probabilities from the counting programme once few cells are open, and in the hunt the likeliest cells compared by the expected hits of the next two shots ([`Lookahead`]) |
//!
//! ```
//! use battleship_core::ai::{Bot, Level};
//! use battleship_core::{Game, Rules, UniformFleets};
//! use rand::SeedableRng;
//! let rules = Rules::russian();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
//! let fleets = UniformFleets::new(&rules);
//! let mut game = Game::new(rules.clone(), fleets.sample(&mut rng), fleets.sample(&mut rng)).unwrap();
//! let mut bot = Level::Hunt.shooter(&rules);
//! while !game.is_over() {
//!     let view = game.view(game.to_move());
//!     let cell = bot.choose(view.tracking(), &mut rng).unwrap();
//!     game.shoot(cell).unwrap();
//! }
//! ```

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::coord::{Cells, Coord, Geometry};
use crate::fleet::Fleet;
use crate::game::{Outcome, Tracking, outcome_of};
use crate::rules::Rules;
use crate::sampler::Constraints;
use crate::uniform::{UniformFleets, positions};

mod lookahead;
pub use lookahead::Lookahead;

/// A shooter: picks the next cell to shoot from what it knows.
pub trait Bot {
    /// The cell to shoot next (`None` only when no cell is left to shoot).
    fn choose<R: Rng + ?Sized>(&mut self, tracking: &Tracking, rng: &mut R) -> Option<Coord>;
}

/// The shooter levels, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Level {
    /// Random cells not shot yet.
    Random,
    /// Hunt on a parity lattice, then target around hits.
    Hunt,
    /// Probability density of single-ship placements.
    Density,
    /// Posterior over whole consistent fleets, shooting the most likely cell.
    Posterior,
    /// Posterior over whole consistent fleets with a two-shot lookahead (the strongest).
    Lookahead,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Hunt,
        Level::Density,
        Level::Posterior,
        Level::Lookahead,
    ];
    /// The strongest level.
    pub const BEST: Level = Level::Lookahead;

    /// The level's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Hunt => "hunt",
            Level::Density => "density",
            Level::Posterior => "posterior",
            Level::Lookahead => "lookahead",
        }
    }

    /// A fresh shooter of this level for a game under `rules`.
    pub fn shooter(self, rules: &Rules) -> Shooter {
        let kind = match self {
            Level::Random => Kind::Random,
            Level::Hunt => Kind::Hunt,
            Level::Density => Kind::Density,
            Level::Posterior => Kind::Posterior(Posterior::new(rules)),
            Level::Lookahead => Kind::Lookahead(Lookahead::new(rules)),
        };
        Shooter { level: self, kind }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown shooter or placement name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown name '{0}' (shooters: random, hunt, density, posterior, lookahead, best; placements: uniform, border)"
)]
pub struct UnknownName(pub alloc::string::String);

impl FromStr for Level {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Level, UnknownName> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Level::Random),
            "hunt" | "parity" => Ok(Level::Hunt),
            "density" => Ok(Level::Density),
            "posterior" => Ok(Level::Posterior),
            "lookahead" | "best" => Ok(Level::Lookahead),
            _ => Err(UnknownName(s.into())),
        }
    }
}

/// A shooter of some level (build one with [`Level::shooter`]; one per game).
#[derive(Debug, Clone)]
pub struct Shooter {
    level: Level,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Random,
    Hunt,
    Density,
    Posterior(Posterior),
    Lookahead(Lookahead),
}

impl Shooter {
    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }
}

impl Bot for Posterior {
    fn choose<R: Rng + ?Sized>(&mut self, tracking: &Tracking, rng: &mut R) -> Option<Coord> {
        let w = tracking.rules().width();
        Posterior::choose(self, tracking, rng).map(|i| Coord::from_index(i, w))
    }
}

impl Bot for Lookahead {
    fn choose<R: Rng + ?Sized>(&mut self, tracking: &Tracking, rng: &mut R) -> Option<Coord> {
        let w = tracking.rules().width();
        Lookahead::choose(self, tracking, rng).map(|i| Coord::from_index(i, w))
    }
}

impl Bot for Shooter {
    fn choose<R: Rng + ?Sized>(&mut self, tracking: &Tracking, rng: &mut R) -> Option<Coord> {
        let w = tracking.rules().width();
        let cell = match &mut self.kind {
            Kind::Random => random_cell(tracking.unshot(), rng),
            Kind::Hunt => hunt(tracking, rng),
            Kind::Density => argmax(&density(tracking), tracking.unknown(), rng),
            Kind::Posterior(p) => p.choose(tracking, rng),
            Kind::Lookahead(p) => p.choose(tracking, rng),
        }?;
        Some(Coord::from_index(cell, w))
    }
}

fn random_cell<R: Rng + ?Sized>(cells: Cells, rng: &mut R) -> Option<usize> {
    let n = cells.len();
    if n == 0 {
        return None;
    }
    cells.indices().nth(rng.random_range(0..n as usize))
}

/// The index of the highest score among `allowed` cells, ties broken at random.
fn argmax<R: Rng + ?Sized>(scores: &[f64], allowed: Cells, rng: &mut R) -> Option<usize> {
    let mut best = f64::NEG_INFINITY;
    let mut ties = 0u32;
    let mut pick = None;
    for i in allowed.indices() {
        let s = scores.get(i).copied().unwrap_or(0.0);
        if s > best {
            best = s;
            ties = 1;
            pick = Some(i);
        } else if s == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                pick = Some(i);
            }
        }
    }
    pick
}

/// Cells no afloat ship can use: known or deduced water, the sunk ships and, when ships
/// may not touch, the cells around them.
fn blocked(t: &Tracking) -> u128 {
    let sunk = sunk_cells(t);
    let zone = if t.rules().ships_may_touch() {
        sunk
    } else {
        Geometry::of(t.rules()).dilate(sunk)
    };
    known_water(t) | zone
}

/// What `tracking` tells about the opponent's fleet, as constraints for the exact counter:
/// `FleetSampler::with_fleet(rules, &tracking.afloat(), constraints(tracking), limit)`
/// counts and samples exactly the fleets consistent with every shot so far.
pub fn constraints(tracking: &Tracking) -> Constraints {
    Constraints {
        water: Cells(blocked(tracking)),
        ship: tracking.open_hits(),
    }
}

/// Cells known or deduced to be water: misses, revealed cells, and — when ships may not
/// touch — the cells around sunk ships and the diagonal neighbours of hits.
fn known_water(t: &Tracking) -> u128 {
    let rules = t.rules();
    let geo = Geometry::of(rules);
    let w = rules.width();
    let mut water = t.water().0;
    if !rules.ships_may_touch() {
        for s in t.sunk() {
            let m = s.mask(w).0;
            water |= geo.dilate(m) & !m;
        }
        let hits = t.hits().0;
        water |= (geo.dilate(hits) & !geo.dilate4(hits)) & !hits;
    }
    water & geo.all
}

fn sunk_cells(t: &Tracking) -> u128 {
    let w = t.rules().width();
    t.sunk().iter().fold(0, |m, s| m | s.mask(w).0)
}

/// Cells to try next around open hits: the ends of a line of hits, or the orthogonal
/// neighbours of a lone hit.
fn target_cells(t: &Tracking) -> u128 {
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

fn hunt<R: Rng + ?Sized>(t: &Tracking, rng: &mut R) -> Option<usize> {
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
fn density(t: &Tracking) -> Vec<f64> {
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

/// The whole-fleet shooter: a population of fleets kept consistent with every
/// observation by Gibbs moves (one ship redrawn at a time from its exact conditional law).
#[derive(Debug, Clone)]
pub struct Posterior {
    rules: Rules,
    /// Positions of each length: `(cells, zone)`.
    table: Vec<(u8, Vec<(u128, u128)>)>,
    particles: Vec<Particle>,
    /// The observations the particles were last made consistent with.
    seen_shots: u32,
    sweeps: usize,
    size: usize,
}

#[derive(Debug, Clone)]
struct Particle {
    /// `(length, cells, zone)` of each afloat ship.
    ships: Vec<(u8, u128, u128)>,
}

/// The number of fleets the posterior shooter keeps.
const PARTICLES: usize = 24;

/// Positions of one length: `(length, allowed positions, those covering an open hit)`.
type Allowed = (u8, Vec<(u128, u128)>, Vec<(u128, u128)>);

/// What a consistent fleet must respect.
struct Obs {
    blocked: u128,
    open: u128,
    /// Positions allowed for each length (not blocked), and among them those covering an
    /// open hit.
    allowed: Vec<Allowed>,
}

impl Posterior {
    /// A posterior shooter for `rules`.
    pub fn new(rules: &Rules) -> Posterior {
        let mut lens = rules.fleet().to_vec();
        lens.dedup();
        let table = lens
            .iter()
            .map(|&l| {
                (
                    l,
                    positions(rules, l)
                        .into_iter()
                        .map(|(c, z, _)| (c, z))
                        .collect(),
                )
            })
            .collect();
        Posterior {
            rules: rules.clone(),
            table,
            particles: Vec::new(),
            seen_shots: u32::MAX,
            sweeps: 2,
            size: PARTICLES,
        }
    }

    /// The same shooter with `particles` fleets and `sweeps` Gibbs sweeps per decision
    /// (more is stronger and slower; the default is 24 and 2).
    pub fn with_effort(mut self, particles: usize, sweeps: usize) -> Posterior {
        self.size = particles.max(1);
        self.sweeps = sweeps.max(1);
        self
    }

    fn observations(&self, t: &Tracking) -> Obs {
        let blocked = blocked(t);
        let open = t.open_hits().0;
        let touch = self.rules.ships_may_touch();
        let allowed = self
            .table
            .iter()
            .map(|(l, list)| {
                let ok: Vec<(u128, u128)> = list
                    .iter()
                    .copied()
                    .filter(|&(c, z)| c & blocked == 0 && (touch || (z & !c) & open == 0))
                    .collect();
                let cover = ok.iter().copied().filter(|&(c, _)| c & open != 0).collect();
                (*l, ok, cover)
            })
            .collect();
        Obs {
            blocked,
            open,
            allowed,
        }
    }

    fn consistent(p: &Particle, obs: &Obs) -> bool {
        let mut cells = 0u128;
        for (k, &(_, c, z)) in p.ships.iter().enumerate() {
            if c & obs.blocked != 0 {
                return false;
            }
            for &(_, c2, _) in &p.ships[k + 1..] {
                if c2 & z != 0 {
                    return false;
                }
            }
            cells |= c;
        }
        obs.open & !cells == 0
    }

    /// A consistent fleet by randomised depth-first search (longest ship first), keeping
    /// `keep` ships of `start` when they are consistent. `None` if none is found within a
    /// node budget.
    fn build<R: Rng + ?Sized>(obs: &Obs, afloat: &[u8], rng: &mut R) -> Option<Particle> {
        let mut budget = 20_000u32;
        let mut ships = Vec::with_capacity(afloat.len());
        #[allow(clippy::too_many_arguments)]
        fn go<R: Rng + ?Sized>(
            obs: &Obs,
            afloat: &[u8],
            k: usize,
            taken: u128,
            cells: u128,
            ships: &mut Vec<(u8, u128, u128)>,
            budget: &mut u32,
            rng: &mut R,
        ) -> bool {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let uncovered = obs.open & !cells;
            if k == afloat.len() {
                return uncovered == 0;
            }
            let left: u32 = afloat[k..].iter().map(|&l| u32::from(l)).sum();
            if uncovered.count_ones() > left {
                return false;
            }
            let len = afloat[k];
            let Some((_, ok, cover)) = obs.allowed.iter().find(|(l, _, _)| *l == len) else {
                return false;
            };
            // prefer positions covering uncovered hits
            let list = if uncovered != 0 && !cover.is_empty() && rng.random_range(0..4) != 0 {
                cover
            } else {
                ok
            };
            if list.is_empty() {
                return false;
            }
            let start = rng.random_range(0..list.len());
            let tries = list.len().min(24);
            for t in 0..tries {
                let (c, z) = list[(start + t * 7919) % list.len()];
                if c & taken != 0 {
                    continue;
                }
                ships.push((len, c, z));
                if go(obs, afloat, k + 1, taken | z, cells | c, ships, budget, rng) {
                    return true;
                }
                ships.pop();
            }
            false
        }
        if go(obs, afloat, 0, 0, 0, &mut ships, &mut budget, rng) {
            Some(Particle { ships })
        } else {
            None
        }
    }

    /// One Gibbs sweep over a particle: each ship in turn is redrawn uniformly among the
    /// positions consistent with the other ships and the observations (its exact
    /// conditional law, so the uniform posterior is preserved). On the way the exact
    /// conditional occupancy of each step is added to `acc` (a Rao–Blackwellised estimate
    /// of the posterior probability that each cell holds a ship).
    fn gibbs<R: Rng + ?Sized>(p: &mut Particle, obs: &Obs, acc: &mut [f64], rng: &mut R) {
        let n = p.ships.len();
        let mut valid: Vec<(u128, u128)> = Vec::with_capacity(200);
        for j in 0..n {
            let (len, _, _) = p.ships[j];
            let Some((_, ok, _)) = obs.allowed.iter().find(|(l, _, _)| *l == len) else {
                continue;
            };
            let mut others_zone = 0u128;
            let mut others_cells = 0u128;
            for (k, &(_, oc, oz)) in p.ships.iter().enumerate() {
                if k != j {
                    others_zone |= oz;
                    others_cells |= oc;
                }
            }
            let need = obs.open & !others_cells;
            valid.clear();
            valid.extend(
                ok.iter()
                    .copied()
                    .filter(|&(c, _)| c & others_zone == 0 && need & !c == 0),
            );
            if valid.is_empty() {
                continue;
            }
            let share = 1.0 / valid.len() as f64;
            for &(c, _) in &valid {
                for i in Cells(c).indices() {
                    acc[i] += share;
                }
            }
            let (c, z) = valid[rng.random_range(0..valid.len())];
            p.ships[j] = (len, c, z);
        }
    }

    /// A joint move of two ships of different lengths that between them must cover an
    /// open hit: both are redrawn uniformly among the pairs of positions consistent with the rest of
    /// the fleet. Single-ship moves can never change which ship covers a hit; this move
    /// can, so the population reaches every consistent fleet.
    fn swap_cover<R: Rng + ?Sized>(p: &mut Particle, obs: &Obs, rng: &mut R) {
        // The pair is chosen independently of the state, and the move only happens when
        // the hits left to the pair (which the move does not change) are not empty, so the
        // move is a block Gibbs step and keeps the uniform posterior.
        let n = p.ships.len();
        if n < 2 {
            return;
        }
        let j = rng.random_range(0..n);
        let k = rng.random_range(0..n);
        if k == j || p.ships[k].0 == p.ships[j].0 {
            return;
        }
        let (lj, lk) = (p.ships[j].0, p.ships[k].0);
        let allowed = |len: u8| obs.allowed.iter().find(|(l, _, _)| *l == len).map(|a| &a.1);
        let (Some(aj), Some(ak)) = (allowed(lj), allowed(lk)) else {
            return;
        };
        let mut zone = 0u128;
        let mut cells = 0u128;
        for (x, &(_, c, z)) in p.ships.iter().enumerate() {
            if x != j && x != k {
                zone |= z;
                cells |= c;
            }
        }
        let need = obs.open & !cells;
        if need == 0 {
            return;
        }
        let h = 1u128 << need.trailing_zeros();
        let free = |c: u128| c & zone == 0;
        let mut pairs: Vec<((u128, u128), (u128, u128))> = Vec::new();
        // j's length covers h
        for &a in aj.iter().filter(|a| a.0 & h != 0 && free(a.0)) {
            for &b in ak.iter().filter(|b| free(b.0)) {
                if b.0 & a.1 == 0 && need & !(a.0 | b.0) == 0 {
                    pairs.push((a, b));
                }
            }
        }
        // k's length covers h
        for &b in ak.iter().filter(|b| b.0 & h != 0 && free(b.0)) {
            for &a in aj.iter().filter(|a| free(a.0)) {
                if a.0 & b.1 == 0 && need & !(a.0 | b.0) == 0 {
                    pairs.push((a, b));
                }
            }
        }
        if pairs.is_empty() {
            return;
        }
        let (a, b) = pairs[rng.random_range(0..pairs.len())];
        p.ships[j] = (lj, a.0, a.1);
        p.ships[k] = (lk, b.0, b.1);
    }

    /// Makes `p` consistent with `obs` and the ships afloat, changing as few ships as it
    /// can: ships on known water or of sunk lengths are taken out and redrawn among the
    /// positions that fit, then uncovered hits are covered by redrawing one ship. Returns
    /// whether it succeeded.
    fn repair<R: Rng + ?Sized>(p: &mut Particle, obs: &Obs, afloat: &[u8], rng: &mut R) -> bool {
        let mut want: Vec<u8> = afloat.to_vec();
        let mut ships: Vec<(u8, u128, u128)> = Vec::with_capacity(afloat.len());
        for &(l, c, z) in &p.ships {
            if c & obs.blocked != 0 {
                continue;
            }
            if let Some(k) = want.iter().position(|&x| x == l) {
                want.remove(k);
                ships.push((l, c, z));
            }
        }
        let allowed = |len: u8| obs.allowed.iter().find(|(l, _, _)| *l == len);
        let mut valid: Vec<(u128, u128)> = Vec::with_capacity(200);
        for len in want {
            let Some((_, ok, _)) = allowed(len) else {
                return false;
            };
            let zone = ships.iter().fold(0u128, |m, &(_, _, z)| m | z);
            let cells = ships.iter().fold(0u128, |m, &(_, c, _)| m | c);
            let uncovered = obs.open & !cells;
            valid.clear();
            valid.extend(
                ok.iter()
                    .copied()
                    .filter(|&(c, _)| c & zone == 0 && c & uncovered != 0),
            );
            if valid.is_empty() {
                valid.extend(ok.iter().copied().filter(|&(c, _)| c & zone == 0));
            }
            if valid.is_empty() {
                return false;
            }
            let (c, z) = valid[rng.random_range(0..valid.len())];
            ships.push((len, c, z));
        }
        for _ in 0..4 {
            let cells = ships.iter().fold(0u128, |m, &(_, c, _)| m | c);
            let uncovered = obs.open & !cells;
            if uncovered == 0 {
                break;
            }
            let n = ships.len();
            let start = rng.random_range(0..n.max(1));
            let mut fixed = false;
            for t in 0..n {
                let j = (start + t) % n;
                let (len, _, _) = ships[j];
                let Some((_, ok, _)) = allowed(len) else {
                    continue;
                };
                let mut others_zone = 0u128;
                let mut others_cells = 0u128;
                for (k, &(_, oc, oz)) in ships.iter().enumerate() {
                    if k != j {
                        others_zone |= oz;
                        others_cells |= oc;
                    }
                }
                let need = obs.open & !others_cells;
                let first = Cells(uncovered).indices().next().unwrap_or(0);
                valid.clear();
                valid.extend(ok.iter().copied().filter(|&(c, _)| {
                    c & others_zone == 0 && (c >> first) & 1 == 1 && need & !c & !uncovered == 0
                }));
                if !valid.is_empty() {
                    let (c, z) = valid[rng.random_range(0..valid.len())];
                    ships[j] = (len, c, z);
                    fixed = true;
                    break;
                }
            }
            if !fixed {
                return false;
            }
        }
        p.ships = ships;
        Posterior::consistent(p, obs)
    }

    /// The index of the cell to shoot.
    fn choose<R: Rng + ?Sized>(&mut self, t: &Tracking, rng: &mut R) -> Option<usize> {
        let unknown = t.unknown().0;
        if unknown == 0 {
            return None;
        }
        let Some(counts) = self.estimate(t, rng) else {
            return argmax(&density(t), Cells(unknown), rng);
        };
        // A wounded ship is finished first (the most likely of the cells next to its
        // hits): sinking it settles the cells around it.
        let near = target_cells(t);
        if let Some(i) = argmax(&counts, Cells(near), rng)
            && counts[i] > 0.0
        {
            return Some(i);
        }
        argmax(&counts, Cells(unknown & !known_water(t)), rng)
            .or_else(|| argmax(&counts, Cells(unknown), rng))
    }

    /// The estimated probability that each cell (index `row * width + col`) holds a ship
    /// afloat, given everything in `t` (cells already hit count as occupied). Updates the
    /// population as [`Bot::choose`] does. `None` if no consistent fleet was found.
    pub fn probabilities<R: Rng + ?Sized>(
        &mut self,
        t: &Tracking,
        rng: &mut R,
    ) -> Option<Vec<f64>> {
        let steps = (self.size * self.sweeps).max(1) as f64;
        let mut p = self.estimate(t, rng)?;
        for x in &mut p {
            *x /= steps;
        }
        Some(p)
    }

    fn estimate<R: Rng + ?Sized>(&mut self, t: &Tracking, rng: &mut R) -> Option<Vec<f64>> {
        let afloat = t.afloat();
        let obs = self.observations(t);
        let fresh = t.shots_fired() < self.seen_shots;
        self.seen_shots = t.shots_fired();
        if fresh {
            self.particles.clear();
        }
        // Repair the particles that the new observation contradicts (redraw the offending
        // ships from their conditional law), then top the population up.
        let mut kept = Vec::with_capacity(self.size);
        for mut p in core::mem::take(&mut self.particles) {
            if Posterior::repair(&mut p, &obs, &afloat, rng) {
                kept.push(p);
            }
        }
        while kept.len() < self.size {
            // clone a consistent particle when there is one (then decorrelate by moves),
            // else search for a consistent fleet
            if !kept.is_empty() && rng.random_range(0..3) != 0 {
                let k = rng.random_range(0..kept.len());
                kept.push(kept[k].clone());
            } else if let Some(p) = Posterior::build(&obs, &afloat, rng) {
                kept.push(p);
            } else if kept.is_empty() {
                return None;
            } else {
                let k = rng.random_range(0..kept.len());
                kept.push(kept[k].clone());
            }
        }
        let mut counts = vec![0.0f64; self.rules.cells()];
        for p in &mut kept {
            for _ in 0..self.sweeps {
                if obs.open != 0 {
                    for _ in 0..p.ships.len() {
                        Posterior::swap_cover(p, &obs, rng);
                    }
                }
                Posterior::gibbs(p, &obs, &mut counts[..], rng);
            }
        }
        self.particles = kept;
        Some(counts)
    }
}

/// How a computer player lays out its own fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlacementStrategy {
    /// Exactly uniform over all valid fleets.
    Uniform,
    /// Favours the border: the fleet with the most cells on the edge among several uniform
    /// draws (exploits shooters that expect uniform fleets).
    Border,
}

impl PlacementStrategy {
    /// The strategy's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlacementStrategy::Uniform => "uniform",
            PlacementStrategy::Border => "border",
        }
    }

    /// Draws a fleet with `sampler` (built for the same rules).
    pub fn place<R: Rng + ?Sized>(
        self,
        rules: &Rules,
        sampler: &UniformFleets,
        rng: &mut R,
    ) -> Fleet {
        match self {
            PlacementStrategy::Uniform => sampler.sample(rng),
            PlacementStrategy::Border => {
                let geo = Geometry::of(rules);
                let w = rules.width();
                let inner = {
                    let all = geo.all;
                    // cells whose 4 neighbours are all on the grid
                    let mut m = 0u128;
                    for i in Cells(all).indices() {
                        let c = Coord::from_index(i, w);
                        if c.col() > 0
                            && c.row() > 0
                            && c.col() + 1 < w
                            && c.row() + 1 < rules.height()
                        {
                            m |= 1u128 << i;
                        }
                    }
                    m
                };
                let mut best = sampler.sample(rng);
                let score = |f: &Fleet| (f.mask(w).0 & !inner).count_ones();
                let mut best_score = score(&best);
                for _ in 0..15 {
                    let f = sampler.sample(rng);
                    let s = score(&f);
                    if s > best_score {
                        best = f;
                        best_score = s;
                    }
                }
                best
            }
        }
    }
}

impl FromStr for PlacementStrategy {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<PlacementStrategy, UnknownName> {
        match s.trim().to_ascii_lowercase().as_str() {
            "uniform" | "random" => Ok(PlacementStrategy::Uniform),
            "border" | "edge" => Ok(PlacementStrategy::Border),
            _ => Err(UnknownName(s.into())),
        }
    }
}

impl fmt::Display for PlacementStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Lets `bot` shoot at `fleet` alone until it is sunk; returns the number of shots.
///
/// This is how `tabletop battleship sim` measures shooters: shots to sink a whole fleet.
pub fn shots_to_sink<B: Bot, R: Rng + ?Sized>(
    bot: &mut B,
    rules: &Rules,
    fleet: &Fleet,
    rng: &mut R,
) -> u32 {
    let mut tracking = Tracking::new(rules.clone());
    loop {
        let Some(cell) = bot.choose(&tracking, rng) else {
            return tracking.shots_fired();
        };
        if !tracking.can_shoot(cell) {
            // a bot bug must not loop forever: count it and shoot the first unknown cell
            let Some(i) = tracking.unshot().indices().next() else {
                return tracking.shots_fired();
            };
            let c = Coord::from_index(i, rules.width());
            let o = outcome_of(fleet, &tracking, c);
            tracking.record(c, o);
            continue;
        }
        let outcome = outcome_of(fleet, &tracking, cell);
        tracking.record(cell, outcome);
        if let Outcome::GameOver(_) = outcome {
            return tracking.shots_fired();
        }
    }
}
