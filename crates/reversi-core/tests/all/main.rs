//! The integration tests of Reversi, one module per file, built into one test
//! binary: one link instead of one per file, and the shared dependencies' generic code
//! compiled once.

mod api;
mod invariants;
mod notation;
mod perft;
