//! Long Nardy's trained network, given at run time: the bindings are built without
//! `nardy-core`'s `shipped-weights`, so the players of the other games do not download
//! it, and the page's worker fetches the file (`pkg/nardy-weights.bin`) the first time a
//! bot or hint of a learned level (4 to 6) needs it, then hands it to
//! [`load_nardy_weights`]. Levels 1 to 3 (random and the hand-made evaluation) need no
//! network and play without it.

use std::cell::RefCell;

use nardy_core::ai::{Level, Network, Resources};
use wasm_bindgen::prelude::wasm_bindgen;

thread_local! {
    /// The bear-off database and the loaded network of the learned levels (the worker is
    /// one thread); the database is built on its first use.
    static RESOURCES: RefCell<Option<Resources>> = const { RefCell::new(None) };
}

/// Reads Long Nardy's network file (`nardy-weights.bin`, the engine's `weights.bin`) for
/// the learned levels' bots and hints of every nardy table from now on; a message for a
/// person when the bytes are not that file (an error page, a truncated download), and
/// the network loaded before, if any, stays.
#[wasm_bindgen]
pub fn load_nardy_weights(bytes: &[u8]) -> Result<(), String> {
    let network = Network::from_bytes(bytes)
        .map_err(|e| format!("the nardy bot's network cannot be read: {e}"))?;
    RESOURCES.with(|r| *r.borrow_mut() = Some(Resources::with_network(network)));
    Ok(())
}

/// Whether [`load_nardy_weights`] has loaded the network.
#[wasm_bindgen]
pub fn nardy_weights_loaded() -> bool {
    RESOURCES.with(|r| r.borrow().is_some())
}

/// Whether nardy level `level` (its bots and its hints) needs the network, so the worker
/// fetches the file only then; `false` for a level that does not exist.
#[wasm_bindgen]
pub fn nardy_level_needs_network(level: u8) -> bool {
    Level::new(level).is_some_and(Level::needs_resources)
}

/// The learned levels' resources (a clone shares the database and the network), or the
/// message a bot or hint of those levels gives when the network was never loaded.
pub(crate) fn resources() -> Result<Resources, String> {
    RESOURCES.with(|r| r.borrow().clone()).ok_or_else(|| {
        "the nardy bot's network is not loaded (load_nardy_weights first)".to_string()
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The file the build puts next to the wasm (the engine's `weights.bin`).
    pub(crate) const FILE: &[u8] = include_bytes!("../../nardy-core/src/ai/weights.bin");

    #[test]
    fn a_corrupt_file_is_refused_with_a_clear_message_and_changes_nothing() {
        assert!(!nardy_weights_loaded());
        assert!(resources().unwrap_err().contains("not loaded"));
        assert_eq!(
            load_nardy_weights(b"<!doctype html><title>404</title>").unwrap_err(),
            "the nardy bot's network cannot be read: \
             this is not a Tabletop Long Nardy network weights save"
        );
        assert_eq!(
            load_nardy_weights(&FILE[..FILE.len() / 2]).unwrap_err(),
            "the nardy bot's network cannot be read: the save is damaged or truncated"
        );
        assert!(!nardy_weights_loaded());
        load_nardy_weights(FILE).unwrap();
        assert!(nardy_weights_loaded());
        assert!(load_nardy_weights(&[]).is_err());
        assert!(
            nardy_weights_loaded(),
            "a bad file keeps the loaded network"
        );
        assert_eq!(
            (1..=7).map(nardy_level_needs_network).collect::<Vec<_>>(),
            [false, false, false, true, true, true, false]
        );
    }
}
