//! # nardy-core
//!
//! The Long Nardy (Russian long backgammon, «длинные нарды») rules engine of Tabletop:
//! the Russian nardy federation's competition rules and their common variants, exact move
//! generation, step-by-step play for frontends, games with seeded dice and versioned
//! saves, and perft counting.
//!
//! ```
//! use nardy_core::{Dice, Position, Rules};
//!
//! let rules = Rules::default(); // the federation rules
//! let start = Position::start();
//! assert_eq!(start.to_string(), "24:15/12:15 w");
//!
//! // Every distinct legal turn, one per resulting position.
//! let turns = start.legal_turns_with_results(Dice::new(3, 3)?, &rules);
//! let shown: Vec<String> = turns.iter().map(|(t, _)| t.to_string()).collect();
//! assert_eq!(shown, ["24/21 24/21 21/18 21/18", "24/21 24/21 21/18 18/15"]);
//!
//! // Playing a turn checks it; the result has the other side to move.
//! let next = start.play(Dice::new(6, 5)?, &"24/18 18/13".parse()?, &rules)?;
//! assert_eq!(next.to_string(), "24:14,13:1/12:15 b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What is where
//!
//! - [`Rules`] holds every variant switch ([`Opening`], [`HeadException`],
//!   [`BlockCheck`], [`Scoring`], `last_roll_tie`); `Rules::default()` is the federation
//!   set.
//! - [`Position`]: the 24 points, borne-off counts (15 minus the checkers on the board) and
//!   the side to move, with the notation `<white>/<black> <side>` (`24:15/12:15 w`).
//!   Parsing validates and reports a precise [`ParsePositionError`].
//! - [`Dice`] (`65`, `6-5`), [`Dice::roll`], [`RollOff`].
//! - Move generation: [`Position::legal_turns`] (a [`MoveList`], no heap),
//!   [`Position::legal_turns_with_results`], and a reusable [`Generator`] for hot loops. A
//!   [`Turn`] is a list of [`Step`]s (`24/18 18/13`, `3/off`); when reading, chains
//!   (`24/21/20`), repeats (`24/18(2)`) and moves over several dice (`24/18` with 3-3) are
//!   understood as well.
//! - [`TurnBuilder`]: step-by-step play — the legal next steps, the destinations of one
//!   checker, undo, and ending the turn only when it is a legal full turn.
//! - [`Game`]: roll-off, dice, the ChaCha8 generator state, history, [`Outcome`] and
//!   points; [`Game::to_bytes`]/[`Game::from_bytes`] save with a header ([`SAVE_MAGIC`],
//!   [`SAVE_VERSION`]) and check a loaded game by replaying it.
//! - [`perft`] and [`perft_divide`]; [`ai`] holds the [`ai::Bot`] trait.
//!
//! ## Rules decisions
//!
//! - Maximum dice: a turn plays the largest number of dice any legal sequence plays; a
//!   sequence that bears off the last checker counts as playing them all (the game ends at
//!   once). When only one die of a non-double can be played, the higher must be when it
//!   can.
//! - Head rule: at most one checker leaves the head per turn. On a side's first turn (all 15
//!   on its head) a qualifying double (6-6, 4-4, 3-3; any double under
//!   [`HeadException::AnyBlockedDouble`]) may take a second one — only when that lets more
//!   dice be played than with one checker.
//! - Six-point block: a run of six or more of the mover's points, counted along the
//!   opponent's route (so 3-2-1-24-23-22 counts against Black, 14..9 of White's does not),
//!   is forbidden unless an opposing checker is further along that route than the run or
//!   the opponent has borne a checker off. Under [`BlockCheck::EveryStep`] every
//!   intermediate position of the turn is checked; under [`BlockCheck::EndOfTurn`] only the
//!   final one, and a sequence ending in a forbidden block is not a legal sequence at all
//!   (so it does not count for the maximum-dice rule). A step that leaves an existing
//!   forbidden block in place (only possible in a set-up position) is also refused.
//! - Bearing off needs every checker of the side home, re-checked after every step; a die
//!   larger than a checker's distance bears off only from the highest occupied home point;
//!   bearing off is never compulsory.
//!
//! ## Representation
//!
//! Each side is kept in its own path coordinates (`q` = pips to bear off; head = 24,
//! home = 1..6): a nibble per point in a `u128` and a 24-bit occupancy mask. The opponent's
//! points are its mask rotated by 12, so closed points, bearing off and the block test
//! (six shifted ANDs and a trailing-zero count) are a few bit operations per step. Doubles
//! are expanded level by level with duplicates removed, so permutations of the same steps
//! are explored once.
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state.

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
pub use movegen::{Generator, MAX_TURNS, Move, MoveList, ParseTurnError, Step, Turn};
pub use perft::{perft, perft_divide};
pub use position::{CHECKERS, Color, ParsePositionError, Position, path_coordinate};
pub use rules::{BlockCheck, HeadException, Opening, Rules, Scoring};
pub use steps::{PlayError, TurnBuilder};
