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

use std::sync::OnceLock;

use nardy_core::ai::{Network, Resources};

/// The learned levels' database and network, shared by the tests: the shipped file read
/// as a frontend reads it at run time, so the tests pass with and without the
/// `shipped-weights` feature.
pub(crate) fn resources() -> &'static Resources {
    static R: OnceLock<Resources> = OnceLock::new();
    R.get_or_init(|| {
        let file = include_bytes!("../../src/ai/weights.bin");
        Resources::with_network(Network::from_bytes(file).expect("the shipped network"))
    })
}
