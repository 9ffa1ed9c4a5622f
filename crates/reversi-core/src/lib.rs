#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod ai;
pub mod bitboard;
mod color;
mod game;
mod moves;
mod outcome;
mod perft;
mod position;
mod square;
mod square_set;
mod symmetry;

pub use color::{Color, ParseColorError, Rules};
pub use game::{Game, ParseRecordError, Record, ReplayError, SAVE_FORMAT};
pub use moves::{Move, MoveList, ParseMoveError, PlayError};
pub use outcome::Outcome;
pub use perft::{perft, perft_divide};
pub use position::{ParseBoardError, Position, PositionError};
pub use square::{ParseSquareError, Square};
pub use square_set::{SquareIter, SquareSet};
pub use symmetry::Symmetry;
pub use tabletop_common::LoadError;
