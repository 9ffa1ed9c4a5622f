//! Move, step and dice notation: parsing never panics; a parsed turn prints and parses
//! back to itself; playing it in the start position never panics.

#![no_main]

use libfuzzer_sys::fuzz_target;
use nardy_core::{Dice, Position, Rules, Step, Move};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = text.parse::<Step>();
    if let Ok(d) = text.parse::<Dice>() {
        assert_eq!(d.to_string().parse::<Dice>(), Ok(d));
    }
    if let Ok(t) = text.parse::<Move>() {
        assert_eq!(t.to_string().parse::<Move>(), Ok(t.clone()));
        let start = Position::start();
        for dice in [Dice::ALL[0], Dice::ALL[7], Dice::ALL[20]] {
            let mut next = start;
            if next.play(dice, &t, &Rules::default()).is_ok() {
                let legal = start.legal_moves_with_results(dice, &Rules::default());
                assert!(legal.iter().any(|(_, r)| *r == next));
            }
        }
    }
});
