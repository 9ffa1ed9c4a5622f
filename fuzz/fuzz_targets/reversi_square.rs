//! Square names: parsing never panics, and whatever parses prints back to the same
//! square.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::Square;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(square) = text.parse::<Square>() {
            let printed = square.to_string();
            assert_eq!(printed.parse::<Square>(), Ok(square));
            assert!(printed.eq_ignore_ascii_case(text));
        }
    }
});
