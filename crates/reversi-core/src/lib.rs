//! # reversi-core
//!
//! The Reversi / Othello engine of [Tabletop](https://example.invalid/tabletop), built on
//! bitboards.
//!
//! - [`Rules`] holds the variant switch (who moves first; Black by default);
//! - [`Position`] is two `u64` bitboards (side to move, opponent) plus the colour to
//!   move, with [`Position::legal_moves`], [`Position::play`], [`Position::pass`],
//!   [`Position::is_game_over`], disc counts and both scoring conventions
//!   ([`GameResult`]);
//! - [`Game`] keeps the history with undo/redo, the move [`Record`] and versioned binary
//!   saves ([`Game::to_bytes`], [`Game::from_bytes`]);
//! - every notation is `FromStr` + `Display`: [`Square`] (`f5`), [`Move`] (`f5` or
//!   `pass`), [`Record`] (`f5d6c3d3c4`), [`Position`] as an OBF board string;
//! - [`perft`] and [`divide`] count move paths (Edax / OEIS A124004 convention);
//! - [`Symmetry`] gives the 8 board symmetries;
//! - [`bitboard`] has the raw move generator for search code;
//! - [`ai`] has the computer players.
//!
//! ```
//! use reversi_core::{Color, Game, Move, Position, Record, Rules, perft};
//!
//! // Replay a game record (passes are inferred) and look at the result.
//! let record: Record = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3c5".parse()?;
//! let game = Game::from_record(Rules::default(), &record)?;
//! let pos = game.position();
//! assert_eq!(pos.side_to_move(), Color::Black);
//! println!("{pos}"); // the OBF board string
//!
//! // Board strings round-trip.
//! let again: Position = pos.to_string().parse()?;
//! assert_eq!(&again, pos);
//!
//! // Perft from the start, Edax convention.
//! assert_eq!(perft(&Position::start(), 6), 8200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Squares are named `a1` (top-left in the usual diagram) to `h8`; square index `i` is
//! bit `i` of a bitboard (`a1` = 0, `h1` = 7, `h8` = 63).
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod ai;
pub mod bitboard;
mod color;
mod game;
mod perft;
mod position;
mod square;
mod symmetry;

pub use color::{Color, ParseColorError, Rules};
pub use game::{Game, LoadError, ParseRecordError, Record, ReplayError, SAVE_MAGIC, SAVE_VERSION};
pub use perft::{divide, perft};
pub use position::{
    GameResult, Move, MoveList, ParseBoardError, ParseMoveError, PlayError, Position,
    PositionError, SquareIter, SquareSet,
};
pub use square::{ParseSquareError, Square};
pub use symmetry::Symmetry;
