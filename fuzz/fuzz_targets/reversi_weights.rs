//! Pattern weights files: loading arbitrary bytes never panics, and whatever loads saves
//! back to bytes that load to the same weights.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::ai::pattern::PatternWeights;

fuzz_target!(|data: &[u8]| {
    // Half of the inputs get a valid header (magic, version 1) so the fuzzer reaches the
    // tables.
    let mut framed = Vec::with_capacity(data.len() + 9);
    if data.first().is_some_and(|b| b & 1 == 1) {
        framed.extend_from_slice(b"TTRVPAT\0\x01");
        framed.extend_from_slice(&data[1..]);
    } else {
        framed.extend_from_slice(data);
    }
    let Ok(weights) = PatternWeights::from_bytes(&framed) else {
        return;
    };
    assert_eq!(PatternWeights::from_bytes(&weights.to_bytes()), Ok(weights));
});
