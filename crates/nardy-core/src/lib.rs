#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod ai;
mod dice;
mod game;
mod movegen;
mod outcome;
mod perft;
mod position;
mod rules;
mod save;
mod steps;

pub use dice::{Dice, ParseDiceError, RollOff, roll_die};
pub use game::{Game, TurnRecord};
pub use movegen::{Generator, MAX_MOVES, Move, MoveList, ParseMoveError, Step};
pub use outcome::{Outcome, WinKind, score};
pub use perft::{perft, perft_divide};
pub use position::{CHECKERS, Color, ParsePositionError, Position, path_coordinate};
pub use rules::{BlockCheck, HeadException, Opening, Rules, Scoring};
pub use save::SAVE_FORMAT;
pub use steps::{PlayError, TurnBuilder};
pub use tabletop_common::LoadError;
