//! Reversi's trained pattern weights, given at run time: they are 2.7 MB, more than half
//! of this module, so the bindings are built without `reversi-core`'s `shipped-weights`
//! and the page's worker fetches the file (`pkg/reversi-patterns.bin`) the first time a
//! reversi bot or hint needs it, then hands it to [`load_reversi_weights`]. The other
//! games never download it.

use std::cell::RefCell;

use reversi_core::ai::Evaluator;
use reversi_core::ai::pattern::PatternWeights;
use wasm_bindgen::prelude::wasm_bindgen;

thread_local! {
    /// The evaluation built from the loaded weights (the worker is one thread).
    static TRAINED: RefCell<Option<Evaluator>> = const { RefCell::new(None) };
}

/// Reads reversi's pattern weights file (`reversi-patterns.bin`, the shipped
/// `patterns.bin`) for the bots and hints of every reversi table from now on; a message
/// for a person when the bytes are not that file (an error page, a truncated download),
/// and the weights loaded before, if any, stay.
#[wasm_bindgen]
pub fn load_reversi_weights(bytes: &[u8]) -> Result<(), String> {
    let weights = PatternWeights::from_bytes(bytes)
        .map_err(|e| format!("the reversi bot's weights cannot be read: {e}"))?;
    let eval = Evaluator::with_patterns(weights);
    TRAINED.with(|t| *t.borrow_mut() = Some(eval));
    Ok(())
}

/// Whether [`load_reversi_weights`] has loaded the weights.
#[wasm_bindgen]
pub fn reversi_weights_loaded() -> bool {
    TRAINED.with(|t| t.borrow().is_some())
}

/// The trained evaluation (a clone shares the weights), or the message a reversi bot or
/// hint gives when the weights were never loaded.
pub(crate) fn trained() -> Result<Evaluator, String> {
    TRAINED.with(|t| t.borrow().clone()).ok_or_else(|| {
        "the reversi bot's weights are not loaded (load_reversi_weights first)".to_string()
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Loads the file the build puts next to the wasm (the engine's `patterns.bin`).
    pub(crate) fn load() {
        load_reversi_weights(include_bytes!("../../reversi-core/src/ai/patterns.bin")).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_refused_with_a_clear_message_and_changes_nothing() {
        assert!(!reversi_weights_loaded());
        assert!(trained().unwrap_err().contains("not loaded"));
        let file = include_bytes!("../../reversi-core/src/ai/patterns.bin");
        assert_eq!(
            load_reversi_weights(b"<!doctype html><title>404</title>").unwrap_err(),
            "the reversi bot's weights cannot be read: not a reversi pattern weights file"
        );
        assert_eq!(
            load_reversi_weights(&file[..file.len() / 2]).unwrap_err(),
            "the reversi bot's weights cannot be read: the pattern weights file is corrupt"
        );
        assert!(!reversi_weights_loaded());
        load();
        assert!(reversi_weights_loaded());
        assert!(load_reversi_weights(&[]).is_err());
        assert!(
            reversi_weights_loaded(),
            "a bad file keeps the loaded weights"
        );
    }
}
