//! # battleship-core
//!
//! The Battleship («Морской бой») engine of [Tabletop](https://example.invalid/tabletop):
//! Russian rules by default, the classic variant as a rule set.

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
    Game, LoadError, Mark, MoveList, Outcome, Player, SAVE_MAGIC, SAVE_VERSION, ShotError,
    Tracking, View,
};
pub use rules::{MAX_SHIP_LEN, MAX_SHIPS, MAX_SIDE, Rules, RulesError};
pub use sampler::{Constraints, FleetSampler, TooLarge, count_fleets, count_placements};
pub use uniform::UniformFleets;
