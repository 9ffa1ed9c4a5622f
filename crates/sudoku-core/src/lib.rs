//! # sudoku-core
//!
//! The Sudoku engine of [Tabletop](https://example.invalid/tabletop), for grids of size
//! 4×4, 6×6, 9×9, 16×16 and 25×25.
//!
//! - [`Grid`]: every size, the line notation ([`FromStr`](core::str::FromStr) /
//!   [`Display`](core::fmt::Display), precise [`ParseGridError`]s), a drawing
//!   ([`Grid::pretty`]) and validation ([`Grid::conflicts`]);
//! - solving: [`Grid::solve_one`], [`Grid::count_solutions`], [`Grid::solutions`],
//!   [`Grid::solve_unique`], and [`Solver`] for a node limit or the engine choice. 9×9
//!   grids use a dedicated bit-parallel solver, other sizes a general one;
//! - generation ([`generate`]): random solved grids (exactly uniform for 4×4, 6×6 and
//!   9×9), proper puzzles, minimal puzzles, symmetries and a target clue count;
//! - [`transform`]: the validity-preserving transformations and a canonical form.
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state; randomness comes from a
//! caller-supplied generator.
//!
//! ```
//! use sudoku_core::{Grid, SolveError};
//!
//! let puzzle: Grid =
//!     "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
//!         .parse()
//!         .unwrap();
//! let solution = puzzle.solve_unique().unwrap();
//! assert!(solution.is_solution_of(&puzzle));
//! assert_eq!(puzzle.count_solutions(2), 1);
//!
//! // A clash is reported, and such a grid has no solution.
//! let bad: Grid = "11..............".parse().unwrap();
//! assert_eq!(bad.conflicts().len(), 2); // in row 1 and in box 1
//! assert_eq!(bad.solve_unique(), Err(SolveError::NoSolution));
//! ```

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

mod candidates;
mod fast9;
mod general;
pub mod generate;
mod grid;
pub mod logic;
mod solve;
pub mod transform;

pub use candidates::{Candidates, CellIter, CellName, CellSet, DigitIter, Digits, cell_name};
pub use generate::{GenerateOptions, Symmetry};
pub use grid::{
    Conflict, Grid, GridError, ParseGridError, Pretty, PuzzleLine, Size, Unit, is_comment,
    puzzle_lines, symbol_char,
};
pub use solve::{Engine, SearchAborted, SolveError, Solver};
