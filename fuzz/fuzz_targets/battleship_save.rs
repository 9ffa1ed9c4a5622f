//! Save loading: any bytes give a game or an error, never a panic; a loaded game saves
//! back to bytes that load to the same game. A stored `Tracking` (postcard) likewise loads
//! or is refused, and every bot picks a cell it may shoot from a loaded one.

#![no_main]

use battleship_core::ai::{Bot, Level};
use battleship_core::{Game, Tracking};
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;

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
    if let Ok(t) = postcard::from_bytes::<Tracking>(data) {
        let bytes = postcard::to_allocvec(&t).expect("a tracking serialises");
        assert_eq!(
            postcard::from_bytes::<Tracking>(&bytes).expect("and loads"),
            t
        );
        if !t.unshot().is_empty() && t.rules().cells() <= 64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
            for level in Level::ALL {
                let cell = level.shooter(t.rules()).choose_move(&t, &mut rng);
                assert!(cell.is_some_and(|c| t.can_shoot(c)), "{level}");
            }
        }
    }
});
