//! Pattern weights and ProbCut table files: loading arbitrary bytes never panics, and
//! whatever loads saves back to bytes that load to the same weights.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::ai::pattern::{PatternWeights, Sample};
use reversi_core::ai::probcut;

fuzz_target!(|data: &[u8]| {
    if let Some(table) = probcut::parse(data) {
        assert_eq!(probcut::parse(&probcut::to_bytes(&table)), Some(table));
    }
    if let Some(samples) = Sample::read_all(data) {
        let mut bytes = Vec::new();
        for s in &samples {
            s.write(&mut bytes);
        }
        assert_eq!(bytes, data);
    }
    // Half of the inputs get a valid header (magic, version 2) so the fuzzer reaches the
    // tables.
    let mut framed = Vec::with_capacity(data.len() + 9);
    if data.first().is_some_and(|b| b & 1 == 1) {
        framed.extend_from_slice(b"TTRVPAT\0\x02");
        framed.extend_from_slice(&data[1..]);
    } else {
        framed.extend_from_slice(data);
    }
    let Ok(weights) = PatternWeights::from_bytes(&framed) else {
        return;
    };
    assert_eq!(PatternWeights::from_bytes(&weights.to_bytes()), Ok(weights));
});
