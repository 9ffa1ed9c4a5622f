//! Save loading: arbitrary bytes never panic; whatever loads saves and loads back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::{Game, SAVE_FORMAT};

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = Game::from_bytes(data) {
        assert_eq!(Game::from_bytes(&g.to_bytes()), Ok(g.clone()));
        let _ = g.legal_moves();
        // Undo and redo never panic and come back to the same game.
        let mut h = g.clone();
        let mut undone = 0;
        while h.undo().is_some() {
            undone += 1;
        }
        for _ in 0..undone {
            assert!(h.redo().is_some());
        }
        assert_eq!(h, g);
    }
    // Also behind a valid header, so the fuzzer reaches the decoder quickly.
    let mut framed = Vec::from(SAVE_FORMAT.magic());
    framed.extend_from_slice(&SAVE_FORMAT.version().to_le_bytes());
    framed.extend_from_slice(data);
    if let Ok(g) = Game::from_bytes(&framed) {
        assert_eq!(Game::from_bytes(&g.to_bytes()), Ok(g));
    }
});
