#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod battleship;
mod clock;
mod fleets;
pub mod nardy;
mod proof;
mod refusal;
pub mod reversi;
mod seat;
pub mod sudoku;
mod table;
mod verify;

pub use clock::{Clocks, TimeControl};
pub use refusal::Refusal;
pub use seat::{Player, Seat, Viewer};
pub use table::{
    Action, EndReason, Ending, Entry, Event, EventKind, Events, Settings, Table, TableGame,
    TableView,
};
pub use tabletop_common::LoadError;

/// The save format of every table: magic `TTPL`, version 2 (reading 1 and 2). The body
/// names the game and holds the origin (the engine's own save of the state the table
/// started from), the players, the settings and the log of actions; loading replays the
/// log through the rules. Version 2 appends the table's provenance
/// ([`Table::provenance`]) and is written only when there is one, so a table without
/// one saves exactly as in version 1.
pub const SAVE_FORMAT: tabletop_common::Format = tabletop_common::Format::new(*b"TTPL", 2, "table");

/// Version 1 of [`SAVE_FORMAT`], written for tables without a provenance.
const SAVE_FORMAT_V1: tabletop_common::Format = tabletop_common::Format::new(*b"TTPL", 1, "table");
