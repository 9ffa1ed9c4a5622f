//! The integration tests of Battleship, one module per file, built into one test
//! binary: one link instead of one per file, and the shared dependencies' generic code
//! compiled once.

mod api;
mod counting;
mod game;
mod tracking;
