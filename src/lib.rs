//! # Tabletop
//!
//! Pure, deterministic rule engines for four games, re-exported under one roof:
//!
//! | module | engine crate | game |
//! |---|---|---|
//! | [`nardy`] | `nardy-core` | Long Nardy (Russian long backgammon) |
//! | [`sudoku`] | `sudoku-core` | Sudoku, 4×4 to 25×25 |
//! | [`battleship`] | `battleship-core` | Battleship, Russian and classic rules |
//! | [`reversi`] | `reversi-core` | Reversi / Othello on bitboards |
//! | [`play`] | `tabletop-play` | the match layer: tables, seats, actions, events, views, clocks, results |
//!
//! Every engine shares the same shape: a `Rules` value holding every variant switch, a
//! validated position or game type, `legal_moves()` and `play()`, text notations with
//! `FromStr`/`Display`, versioned binary saves, `perft`-style counting functions and bots
//! in an `ai` module. Randomness is always injected, so the same seed gives the same game.
//!
//! This crate also hosts the workspace's `examples/` and criterion `benches/`.

#![forbid(unsafe_code)]
#![no_std]

#[doc(inline)]
pub use battleship_core as battleship;

/// The Rust examples of the top-level README, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
#[doc(inline)]
pub use nardy_core as nardy;
#[doc(inline)]
pub use reversi_core as reversi;
#[doc(inline)]
pub use sudoku_core as sudoku;
#[doc(inline)]
pub use tabletop_play as play;
