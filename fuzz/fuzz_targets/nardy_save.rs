//! Save loading: arbitrary bytes never panic; whatever loads saves and loads back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::{Game, SAVE_MAGIC, SAVE_VERSION};

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = Game::from_bytes(data) {
        assert_eq!(Game::from_bytes(&g.to_bytes()), Ok(g.clone()));
        let _ = g.legal_turns();
    }
    // Also behind a valid header, so the fuzzer reaches the decoder quickly.
    let mut framed = Vec::from(SAVE_MAGIC);
    framed.push(SAVE_VERSION);
    framed.extend_from_slice(data);
    if let Ok(g) = Game::from_bytes(&framed) {
        assert_eq!(Game::from_bytes(&g.to_bytes()), Ok(g));
    }
});
