//! The integration tests of Long Nardy, one module per file, built into one test
//! binary: one link instead of one per file, and the shared dependencies' generic code
//! compiled once.

mod ai;
mod ai_decisions;
mod api;
mod game;
mod perft;
mod reference;
mod rollout;
mod rules;
