#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod ai;
mod coord;
mod fleet;
mod game;
mod rules;
mod sampler;
mod tracking;
mod uniform;

pub use coord::{Cells, Coord, ParseCoordError};
pub use fleet::{
    Fleet, FleetError, Orientation, ParseOrientationError, ParseShipError, Placement, Problem, Ship,
};
pub use game::{Game, MoveList, Outcome, PlayError, Player, SAVE_FORMAT, ShotResult, View};
pub use rules::{MAX_SHIP_LEN, MAX_SHIPS, MAX_SIDE, Rules, RulesError};
pub use sampler::{Constraints, FleetSampler, TooLarge, count_fleets, count_placements};
pub use tabletop_common::LoadError;
pub use tracking::{Mark, RecordError, Tracking};
pub use uniform::UniformFleets;
