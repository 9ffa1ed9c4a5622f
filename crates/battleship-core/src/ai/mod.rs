//! Computer players: shooters with levels, and placement strategies for their own fleet.
//!
//! Every shooter is a [`Bot`] and decides from a [`Tracking`] alone — the results of its
//! own shots — so it cannot see the opponent's ships. A move of Battleship is a shot, so
//! a bot's move is a [`Coord`]. [`Level`] names the five shooters and builds them:
//!
//! | level | name | idea |
//! |---|---|---|
//! | 1 | `random` | a random cell not shot yet, like the original program |
//! | 2 | `hunt` | hunt on a parity lattice spaced by the longest ship afloat; after a hit, target its neighbours and then its line |
//! | 3 | `density` | count, for every ship afloat, its placements consistent with what is known; shoot the cell covered most often |
//! | 4 | `posterior` | reason over whole fleets: keep a population of complete fleets consistent with every miss, hit and sunk ship, moved by Gibbs steps (one ship, or two ships sharing the cover of a hit, redrawn from their exact conditional law, so the stationary law is the uniform posterior); estimate each cell's probability by Rao–Blackwellisation and shoot the most likely cell ([`Posterior`]) |
//! | 5 | `lookahead` (`best`) | the same reasoning, faster and sharper: a larger population, and a score that looks one shot ahead: the chance to hit, less a share of the risk of wasting a shot on water next to a ship, plus the information the shot is expected to give (the entropy of miss, hit or sunk), a wounded ship's cells competing with the rest; exact cell probabilities from the counting programme once few cells are open ([`Lookahead`]) |
//!
//! [`PlacementStrategy`] lays out a computer player's own fleet. [`ExactSearch`] computes,
//! for grids small enough, the least expected number of shots of perfect play and the
//! exact value of the greedy shooter, to measure the levels against.
//!
//! ```
//! use battleship_core::ai::{Bot, Level};
//! use battleship_core::{Game, Rules, UniformFleets};
//! use rand::SeedableRng;
//! let rules = Rules::russian();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
//! let fleets = UniformFleets::new(&rules);
//! let mut game = Game::new(rules.clone(), fleets.sample(&mut rng), fleets.sample(&mut rng)).unwrap();
//! let mut bots: Vec<Box<dyn Bot>> = vec![Level::new(2).unwrap().bot(&rules), Level::MAX.bot(&rules)];
//! while !game.is_over() {
//!     let me = game.side_to_move();
//!     let cell = bots[me.index()].choose_move(game.view(me).tracking(), &mut rng).unwrap();
//!     game.play(cell).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! ```

use alloc::boxed::Box;
use core::fmt;
use core::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::coord::{Cells, Coord, Geometry};
use crate::fleet::Fleet;
use crate::game::{ShotResult, result_of};
use crate::rules::Rules;
use crate::sampler::Constraints;
use crate::tracking::Tracking;

mod exact;
mod heuristics;
mod lookahead;
mod particles;
mod placement;
mod posterior;
pub use exact::{ExactError, ExactSearch};
use heuristics::{density, hunt, target_cells};
pub use lookahead::Lookahead;
pub use placement::{ParsePlacementError, PlacementStrategy};
pub use posterior::Posterior;

/// A computer shooter: picks the next cell to shoot from what its own shots revealed.
///
/// Object-safe, so `Box<dyn Bot>` works (see [`Level::bot`]).
pub trait Bot {
    /// The cell to shoot next, one [`Tracking::can_shoot`] allows; `None` only when no
    /// cell is left to shoot. `rng` breaks ties, so the same seed gives the same choice.
    fn choose_move(&mut self, tracking: &Tracking, rng: &mut dyn Rng) -> Option<Coord>;

    /// Forgets what was learnt about the last game (the sampled fleets) before a new one.
    fn new_game(&mut self) {}
}

/// A shooter level, 1 (`random`) to 5 (`lookahead`, the strongest), ordered weakest
/// first. See the [module documentation](self) for what each level does; measured with
/// `tabletop battleship sim --games 2000 --seed 1` on uniform Russian fleets the levels
/// need on average 96.06, 57.82, 57.55, 55.78 and 55.75 shots to sink a whole fleet.
///
/// ```
/// use battleship_core::ai::Level;
/// let best: Level = "best".parse().unwrap();
/// assert_eq!(best, Level::MAX);
/// assert_eq!((best.get(), best.name(), best.to_string()), (5, "lookahead", "5".into()));
/// assert_eq!("Hunt".parse::<Level>().unwrap(), Level::new(2).unwrap());
/// assert!("uniform".parse::<Level>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Level(u8);

/// The names of the levels, weakest first.
const LEVELS: tabletop_common::LevelNames = tabletop_common::LevelNames::new(
    1,
    &["random", "hunt", "density", "posterior", "lookahead"],
    &[("best", 5), ("parity", 2)],
);

pub use tabletop_common::ParseLevelError;

/// A number outside 1..=5 where a stored level was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("shooter levels go from 1 to 5, not {0}")]
pub struct LevelOutOfRange(pub u8);

impl Level {
    /// The weakest level: random cells.
    pub const MIN: Level = Level(1);
    /// The strongest level: the lookahead shooter (`best` on the command line).
    pub const MAX: Level = Level(5);
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [Level(1), Level(2), Level(3), Level(4), Level(5)];

    /// The level `n`, if it is in 1..=5.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Level::MIN.0 && n <= Level::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The number of the level.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The level's name: `random`, `hunt`, `density`, `posterior` or `lookahead`.
    pub fn name(self) -> &'static str {
        LEVELS.name(self.0)
    }

    /// A fresh shooter of this level for a game under `rules`, behind the [`Bot`] trait.
    pub fn bot(self, rules: &Rules) -> Box<dyn Bot> {
        Box::new(self.shooter(rules))
    }

    /// A fresh shooter of this level for a game under `rules`, as the concrete type (for
    /// callers that keep many of them, or ask for its [`Shooter::level`]).
    pub fn shooter(self, rules: &Rules) -> Shooter {
        let kind = match self.0 {
            1 => Kind::Random,
            2 => Kind::Hunt,
            3 => Kind::Density,
            4 => Kind::Posterior(Posterior::new(rules)),
            _ => Kind::Lookahead(Lookahead::new(rules)),
        };
        Shooter { level: self, kind }
    }
}

impl TryFrom<u8> for Level {
    type Error = LevelOutOfRange;
    fn try_from(n: u8) -> Result<Level, LevelOutOfRange> {
        Level::new(n).ok_or(LevelOutOfRange(n))
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}

impl fmt::Display for Level {
    /// The number of the level (its [`Level::name`] is the word).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;
    /// The number or the name, any case; `best` is the strongest level and `parity` the
    /// hunting one.
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        LEVELS.parse(s).map(Level)
    }
}

/// A shooter of some level (build one with [`Level::shooter`] or [`Level::bot`]; one per
/// game, or call [`Bot::new_game`] between games).
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

impl Bot for Shooter {
    fn choose_move(&mut self, tracking: &Tracking, rng: &mut dyn Rng) -> Option<Coord> {
        let cell = match &mut self.kind {
            Kind::Random => random_cell(tracking.unshot(), rng),
            Kind::Hunt => hunt(tracking, rng),
            Kind::Density => argmax(&density(tracking), tracking.unknown(), rng),
            Kind::Posterior(p) => p.choose_index(tracking, rng),
            Kind::Lookahead(p) => p.choose_index(tracking, rng),
        };
        cell_or_any(cell, tracking, rng)
    }

    fn new_game(&mut self) {
        match &mut self.kind {
            Kind::Random | Kind::Hunt | Kind::Density => {}
            Kind::Posterior(p) => p.new_game(),
            Kind::Lookahead(p) => p.new_game(),
        }
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

/// Lets `bot` shoot at `fleet` alone until it is sunk; returns the number of shots.
///
/// This is how `tabletop battleship sim` measures shooters: shots to sink a whole fleet.
pub fn shots_to_sink(bot: &mut dyn Bot, rules: &Rules, fleet: &Fleet, rng: &mut dyn Rng) -> u32 {
    let mut tracking = Tracking::new(rules.clone());
    loop {
        let Some(cell) = bot.choose_move(&tracking, rng) else {
            return tracking.shots_fired();
        };
        if !tracking.can_shoot(cell) {
            // a bot bug must not loop forever: count it and shoot the first unknown cell
            let Some(i) = tracking.unshot().indices().next() else {
                return tracking.shots_fired();
            };
            let c = Coord::from_index(i, rules.width());
            let o = result_of(fleet, &tracking, c);
            tracking.apply(c, o);
            continue;
        }
        let result = result_of(fleet, &tracking, cell);
        tracking.apply(cell, result);
        if let ShotResult::GameOver(_) = result {
            return tracking.shots_fired();
        }
    }
}
