//! Cell and ship notation: parsing never panics, and whatever parses prints back to the
//! same value; a parsed ship dropped into a placement is checked without panicking.

#![no_main]

use battleship_core::{Coord, Placement, Rules, Ship};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cell) = text.parse::<Coord>() {
        assert_eq!(cell.to_string().parse::<Coord>(), Ok(cell));
    }
    if let Ok(ship) = text.parse::<Ship>() {
        assert_eq!(ship.to_string().parse::<Ship>(), Ok(ship));
        for rules in [Rules::russian(), Rules::classic()] {
            let mut p = Placement::new(rules);
            let problems = p.problems_if(&ship);
            assert_eq!(p.place(ship).is_ok(), problems.is_empty());
        }
    }
});
