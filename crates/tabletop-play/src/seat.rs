//! Who sits at a table: seats, the players in them, and who is looking.

use core::fmt;

use serde::{Deserialize, Serialize};

/// A place at a table, numbered from 0 in the order the game names its sides: nardy
/// White then Black, reversi Black then White, battleship the first shooter then the
/// second; sudoku has the one seat 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The first seat.
    pub const FIRST: Seat = Seat(0);
    /// The second seat.
    pub const SECOND: Seat = Seat(1);

    /// The seat's number as an index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The other seat of a two-seat table.
    pub fn other(self) -> Seat {
        Seat(1 - self.0.min(1))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// A person at this frontend.
    Human,
    /// A bot of the game's level with this number; the frontend runs it.
    Bot(u8),
    /// A person somewhere else (over a network): their actions arrive through the same
    /// `apply`, and nobody here may undo for them.
    Remote,
}

impl Player {
    /// Whether a person makes this seat's decisions (here or remotely).
    pub fn is_person(self) -> bool {
        !matches!(self, Player::Bot(_))
    }

    /// The bot's level number, for a bot seat.
    pub fn bot_level(self) -> Option<u8> {
        match self {
            Player::Bot(level) => Some(level),
            _ => None,
        }
    }
}

/// Who is looking at a table: one seat, or a spectator who sees no secret of either side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// The player of this seat.
    Seat(Seat),
    /// Someone watching.
    Spectator,
}

impl Viewer {
    /// The seat looking, if any.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }
}
