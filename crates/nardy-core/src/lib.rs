//! # nardy-core
//!
//! The Long Nardy (Russian long backgammon, «длинные нарды») rules engine of
//! [Tabletop](https://example.invalid/tabletop).
//!
//! This crate will hold, as its issue fills it in:
//!
//! - `Rules` with every variant of the federation rules (opening roll-off, head exception,
//!   block check, scoring), `Rules::default()` being the federation set;
//! - a validated `Position` with the project's text notation (`FromStr`/`Display`);
//! - dice and seeded rolling;
//! - exact move generation: every distinct legal turn for a position and a roll, plus
//!   step-by-step play for frontends;
//! - a `Game` with history, RNG state and versioned postcard saves;
//! - `perft` counting and bots in an `ai` module.
//!
//! The crate is `no_std` + `alloc`, has no I/O and no global state.

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
