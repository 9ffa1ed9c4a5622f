//! Save loading: any bytes give a game or an error, never a panic; a loaded game saves
//! back to bytes that load to the same game.

#![no_main]

use battleship_core::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // with and without a valid header in front
    let mut framed = b"TTBS\x01\x00".to_vec();
    framed.extend_from_slice(data);
    for bytes in [data, &framed[..]] {
        if let Ok(game) = Game::from_bytes(bytes) {
            let again = Game::from_bytes(&game.to_bytes()).expect("a saved game loads");
            assert_eq!(again, game);
        }
    }
});
