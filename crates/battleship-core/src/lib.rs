//! # battleship-core
//!
//! The Battleship («Морской бой») engine of [Tabletop](https://example.invalid/tabletop):
//! Russian rules by default, the classic variant as a rule set. `no_std` + `alloc`, no I/O,
//! no global state; every random choice takes the caller's generator.
//!
//! - [`Rules`]: grid, fleet, touching, extra shot on hit, reveal around sunk ships
//!   ([`Rules::russian`] is the default, [`Rules::classic`] the variant);
//! - [`Coord`] (`e5`, `j10`, Russian column letters `а…к`), [`Ship`] (`a1 h 4`), [`Fleet`]
//!   with validation that names every problem, and the interactive [`Placement`];
//! - [`UniformFleets`]: exactly uniform random fleets; [`count_fleets`] and
//!   [`FleetSampler`]: exact counting (and exact sampling and cell marginals where the
//!   counting graph is small enough, e.g. under observations);
//! - [`Game`]: shots, outcomes, turns, versioned postcard saves; [`View`]: one player's
//!   hidden-information view;
//! - [`ai`]: shooters from random to whole-fleet posterior reasoning, and placement
//!   strategies.
//!
//! ```
//! use battleship_core::ai::{Bot, Level};
//! use battleship_core::{Game, Outcome, Player, Rules, UniformFleets};
//! use rand::SeedableRng;
//!
//! let rules = Rules::russian();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
//! let fleets = UniformFleets::new(&rules);
//! let mut game = Game::new(rules.clone(), fleets.sample(&mut rng), fleets.sample(&mut rng))?;
//!
//! // the first player shoots by hand…
//! let outcome = game.shoot("e5".parse()?)?;
//! println!("e5: {outcome}");
//! // …the computer answers from its own view only
//! let mut bot = Level::BEST.shooter(&rules);
//! while game.to_move() == Player::Second && !game.is_over() {
//!     let cell = bot.choose(game.view(Player::Second).tracking(), &mut rng).unwrap();
//!     game.shoot(cell)?;
//! }
//! // saves carry a header and replay every shot when loaded
//! let saved = game.to_bytes();
//! assert_eq!(Game::from_bytes(&saved)?, game);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! Counting: under Russian rules there are exactly 1,855,545,978,831,780 fleets (a fleet
//! is the set of its ships), under classic rules 15,046,987,768.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod ai;
mod coord;
mod fleet;
mod game;
mod rules;
mod sampler;
mod uniform;

pub use coord::{Cells, Coord, CoordError};
pub use fleet::{Fleet, FleetError, Orientation, Placement, Problem, Ship, ShipError};
pub use game::{
    Game, LoadError, Mark, MoveList, Outcome, Player, RecordError, SAVE_MAGIC, SAVE_VERSION,
    ShotError, Tracking, View,
};
pub use rules::{MAX_SHIP_LEN, MAX_SHIPS, MAX_SIDE, Rules, RulesError};
pub use sampler::{Constraints, FleetSampler, TooLarge, count_fleets, count_placements};
pub use uniform::UniformFleets;
