//! Network weights and training checkpoints: arbitrary bytes never panic; weights that
//! load evaluate a position to consistent probabilities and save back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::Position;
use nardy_core::ai::{Evaluator, Network, WEIGHTS_FORMAT};

fuzz_target!(|data: &[u8]| {
    // Behind a valid header too, so the fuzzer reaches the decoder quickly.
    let mut framed = Vec::from(WEIGHTS_FORMAT.magic());
    framed.extend_from_slice(&WEIGHTS_FORMAT.version().to_le_bytes());
    framed.extend_from_slice(data);
    for bytes in [data, &framed[..]] {
        if let Ok(net) = Network::from_bytes(bytes) {
            assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net.clone()));
            let p = net.evaluate(&Position::start());
            let sum: f32 = p.exclusive().iter().sum();
            assert!((sum - 1.0).abs() < 1e-4);
        }
    }
});
