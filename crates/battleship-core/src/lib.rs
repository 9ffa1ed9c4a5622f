//! # battleship-core
//!
//! The Battleship («Морской бой») engine of [Tabletop](https://example.invalid/tabletop):
//! Russian rules by default, the classic variant as a rule set.
//!
//! This crate will hold, as its issue fills it in:
//!
//! - `Rules` (grid, fleet, touching, extra shot on hit, reveal around sunk ships);
//! - coordinates and fleets with validation and an interactive placement API;
//! - random placement that is exactly uniform over all valid fleets, and exact fleet counts;
//! - a `Game` with shots and outcomes, hidden-information views for each player and
//!   versioned postcard saves;
//! - shooters with levels in an `ai` module, up to whole-fleet posterior reasoning.
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
