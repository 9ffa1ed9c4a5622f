//! Binary saves: loading arbitrary bytes never panics; a loaded game saves to bytes that
//! load back to the same game, and undo/redo on it stay consistent.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{Game, SAVE_FORMAT};

fuzz_target!(|data: &[u8]| {
    // Half of the inputs get a valid header so the fuzzer reaches the postcard body.
    let mut framed = Vec::with_capacity(data.len() + 6);
    if data.first().is_some_and(|b| b & 1 == 1) {
        framed.extend_from_slice(&SAVE_FORMAT.magic());
        framed.extend_from_slice(&SAVE_FORMAT.version().to_le_bytes());
        framed.extend_from_slice(&data[1..]);
    } else {
        framed.extend_from_slice(data);
    }
    let Ok(mut game) = Game::from_bytes(&framed) else {
        return;
    };
    let bytes = game.to_bytes();
    assert_eq!(Game::from_bytes(&bytes).as_ref(), Ok(&game));
    while game.undo().is_some() {}
    while game.redo().is_some() {}
    assert_eq!(Game::from_bytes(&game.to_bytes()).as_ref(), Ok(&game));
});
