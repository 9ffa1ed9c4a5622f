//! Computer players: shooters with levels, and placement strategies for their own fleet.
//!
//! [`ExactSearch`] computes, for grids small enough, the least expected number of shots of
//! perfect play and the exact value of the greedy shooter, to measure the levels against.
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
//! | [`Level::Lookahead`] | the same reasoning, faster and sharper: a larger population moved by bitboard Gibbs steps, and a score that looks one shot ahead: the chance to hit, less a share of the risk of wasting a shot on water next to a ship, plus the information the shot is expected to give (the entropy of miss, hit or sunk), a wounded ship's cells competing with the rest; exact cell probabilities from the counting programme once few cells are open ([`Lookahead`]) |
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

mod exact;
mod lookahead;
pub use exact::{ExactError, ExactSearch};
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
    /// Posterior over whole consistent fleets, scoring each shot by its chance to hit and
    /// the information it is expected to give (the strongest).
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
        Bot::choose(&mut self.0, tracking, rng)
    }
}

impl Bot for Lookahead {
    fn choose<R: Rng + ?Sized>(&mut self, tracking: &Tracking, rng: &mut R) -> Option<Coord> {
        let cell = Lookahead::choose(self, tracking, rng);
        cell_or_any(cell, tracking, rng)
    }
}

impl Bot for Shooter {
    fn choose<R: Rng + ?Sized>(&mut self, tracking: &Tracking, rng: &mut R) -> Option<Coord> {
        let cell = match &mut self.kind {
            Kind::Random => random_cell(tracking.unshot(), rng),
            Kind::Hunt => hunt(tracking, rng),
            Kind::Density => argmax(&density(tracking), tracking.unknown(), rng),
            Kind::Posterior(p) => p.0.choose(tracking, rng),
            Kind::Lookahead(p) => p.choose(tracking, rng),
        };
        cell_or_any(cell, tracking, rng)
    }
}

/// The chosen cell index as a coordinate; when nothing was chosen because nothing is left
/// that may hold a ship (a tracking no fleet fits), any cell not shot yet.
fn cell_or_any<R: Rng + ?Sized>(
    cell: Option<usize>,
    tracking: &Tracking,
    rng: &mut R,
) -> Option<Coord> {
    let w = tracking.rules().width();
    cell.or_else(|| random_cell(tracking.unshot(), rng))
        .map(|i| Coord::from_index(i, w))
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

/// Cells no afloat ship can use: known or deduced water (which includes the cells around
/// sunk ships when ships may not touch) and the sunk ships.
fn blocked(t: &Tracking) -> u128 {
    known_water(t) | sunk_cells(t)
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
    let mut water = t.forbidden().0;
    if !rules.ships_may_touch() {
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
/// observation by Gibbs moves, shooting the most likely cell (a wounded ship first).
///
/// It runs on the same bitboard machinery as [`Lookahead`], with a smaller population, no
/// lookahead and no exact counting: plain whole-fleet sampling.
///
/// ```
/// use battleship_core::ai::Posterior;
/// use battleship_core::{Rules, Tracking};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mut bot = Posterior::new(&rules);
/// let p = bot.probabilities(&Tracking::new(rules.clone()), &mut rng).unwrap();
/// let total: f64 = p.iter().sum();
/// assert!((total - 20.0).abs() < 1e-6);
/// ```
#[derive(Debug, Clone)]
pub struct Posterior(Lookahead);

/// The number of fleets the posterior shooter keeps.
const PARTICLES: usize = 24;

impl Posterior {
    /// A posterior shooter for `rules`.
    pub fn new(rules: &Rules) -> Posterior {
        Posterior(
            Lookahead::new(rules)
                .with_effort(PARTICLES, 2)
                .with_candidates(1)
                .with_exact_below(0)
                .with_halo_penalty(0.0)
                .with_information_weight(0.0),
        )
    }

    /// The same shooter with `particles` fleets and `sweeps` Gibbs sweeps per decision
    /// (more is stronger and slower; the default is 24 and 2).
    pub fn with_effort(self, particles: usize, sweeps: usize) -> Posterior {
        Posterior(self.0.with_effort(particles, sweeps))
    }

    /// The estimated probability that each cell (index `row * width + col`) holds a ship
    /// afloat, given everything in `t` (cells already hit count as occupied). Updates the
    /// population as [`Bot::choose`] does. `None` if no consistent fleet was found.
    pub fn probabilities<R: Rng + ?Sized>(
        &mut self,
        t: &Tracking,
        rng: &mut R,
    ) -> Option<Vec<f64>> {
        self.0.probabilities(t, rng)
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
            tracking.apply(c, o);
            continue;
        }
        let outcome = outcome_of(fleet, &tracking, cell);
        tracking.apply(cell, outcome);
        if let Outcome::GameOver(_) = outcome {
            return tracking.shots_fired();
        }
    }
}
