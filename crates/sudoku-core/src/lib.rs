//! # sudoku-core
//!
//! The Sudoku engine of [Tabletop](https://example.invalid/tabletop), for grids of size
//! 4×4, 6×6, 9×9, 16×16 and 25×25.
//!
//! This crate will hold, as its issue fills it in:
//!
//! - grid types with the line notation (`FromStr`/`Display`) and validation;
//! - a heavily optimised 9×9 solver and a general solver for the other sizes, solution
//!   counting and uniqueness checks;
//! - puzzle generation (unique, optionally minimal, with symmetry), the validity-preserving
//!   transformations and a canonical form;
//! - human-technique hints and difficulty grading.
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
