//! # nardy-core
//!
//! The Long Nardy (Russian long backgammon, «длинные нарды») rules engine of Tabletop.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod ai;
mod dice;
mod game;
mod movegen;
mod perft;
mod position;
mod rules;
mod steps;

pub use dice::{Dice, ParseDiceError, RollOff, roll_die};
pub use game::{Game, LoadError, Outcome, SAVE_MAGIC, SAVE_VERSION, TurnRecord, WinKind, score};
pub use movegen::{Generator, MAX_TURNS, MoveList, ParseTurnError, Step, Turn};
pub use perft::{perft, perft_divide};
pub use position::{CHECKERS, Color, ParsePositionError, Position, path_coordinate};
pub use rules::{BlockCheck, HeadException, Opening, Rules, Scoring};
pub use steps::{PlayError, TurnBuilder};
