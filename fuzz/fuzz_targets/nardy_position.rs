//! Position notation: parsing never panics, and whatever parses prints in canonical form
//! and parses back to the same position.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::{Color, Position};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(p) = text.parse::<Position>()
    {
        let printed = p.to_string();
        assert_eq!(printed.parse::<Position>(), Ok(p));
        for c in Color::ALL {
            let on: u32 = p.board(c).iter().map(|&n| u32::from(n)).sum();
            assert_eq!(on + u32::from(p.borne_off(c)), 15);
        }
        for pt in 1..=24 {
            assert!(p.count(Color::White, pt) == 0 || p.count(Color::Black, pt) == 0);
        }
    }
});
