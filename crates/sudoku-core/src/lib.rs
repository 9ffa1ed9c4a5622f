#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

mod candidates;
mod fast9;
mod game;
mod general;
pub mod generate;
mod grid;
pub mod logic;
mod solve;
pub mod transform;

pub use candidates::{Candidates, CellIter, CellName, CellSet, DigitIter, Digits, cell_name};
pub use game::{
    Check, Game, Move, Outcome, ParseGameError, ParseMoveError, PlayError, SAVE_FORMAT, Verdict,
};
pub use generate::{GenerateOptions, Symmetry};
pub use grid::{
    Conflict, Grid, GridError, ParseGridError, Pretty, PuzzleLine, Size, Unit, is_comment,
    puzzle_lines, symbol_char,
};
pub use solve::{Backend, SearchAborted, SolveError, Solver};
pub use tabletop_common::LoadError;
