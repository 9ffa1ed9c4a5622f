//! Turn, step and dice notation: parsing never panics; a parsed turn prints and parses
//! back to itself; playing it in the start position never panics.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::{Dice, Position, Rules, Step, Turn};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = text.parse::<Step>();
    if let Ok(d) = text.parse::<Dice>() {
        assert_eq!(d.to_string().parse::<Dice>(), Ok(d));
    }
    if let Ok(t) = text.parse::<Turn>() {
        assert_eq!(t.to_string().parse::<Turn>(), Ok(t.clone()));
        let start = Position::start();
        for dice in [Dice::ALL[0], Dice::ALL[7], Dice::ALL[20]] {
            if let Ok(next) = start.play(dice, &t, &Rules::default()) {
                let legal = start.legal_turns_with_results(dice, &Rules::default());
                assert!(legal.iter().any(|(_, r)| *r == next));
            }
        }
    }
});
