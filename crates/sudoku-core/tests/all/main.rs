//! The integration tests of Sudoku, one module per file, built into one test
//! binary: one link instead of one per file, and the shared dependencies' generic code
//! compiled once.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod canonical;
mod game;
mod generate;
mod grid;
mod logic;
mod logic_outline;
mod logic_techniques;
mod solve;
