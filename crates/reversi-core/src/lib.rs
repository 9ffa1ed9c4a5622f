//! # reversi-core
//!
//! The Reversi / Othello engine of [Tabletop](https://example.invalid/tabletop), built on
//! bitboards.
//!
//! This crate will hold, as its issue fills it in:
//!
//! - `Rules` (the first mover is a setting), a 16-byte bitboard `Position`, `legal_moves()`
//!   and `play()`, a `Game` with undo/redo;
//! - the notations: squares, moves, game records and OBF board strings;
//! - `perft` in the Edax/OEIS convention, board symmetries and versioned postcard saves;
//! - bots with levels and an exact endgame solver in an `ai` module.
//!
//! Squares are already here:
//!
//! ```
//! use reversi_core::Square;
//!
//! let sq: Square = "F5".parse()?;
//! assert_eq!(sq.to_string(), "f5");
//! assert_eq!((sq.file(), sq.rank()), (5, 4));
//! # Ok::<(), reversi_core::ParseSquareError>(())
//! ```
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod ai;
pub mod bitboard;
mod square;

pub use square::{ParseSquareError, Square};
