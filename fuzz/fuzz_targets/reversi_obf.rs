//! OBF board strings: parsing never panics; whatever parses prints to a canonical string
//! that parses back to the same position, and playing every legal move keeps the
//! bitboards disjoint.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{Position, perft};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = text.parse::<Position>() else {
        return;
    };
    let printed = pos.to_string();
    assert_eq!(printed.parse::<Position>(), Ok(pos));
    assert_eq!(pos.player() & pos.opponent(), 0);
    for sq in pos.legal_moves() {
        let mut next = pos;
        let flipped = next.play(sq).expect("legal");
        assert!(!flipped.is_empty());
        assert_eq!(next.player() & next.opponent(), 0);
        assert_eq!(
            next.player().count_ones() + next.opponent().count_ones(),
            pos.player().count_ones() + pos.opponent().count_ones() + 1
        );
    }
    let _ = pos.result();
    let _ = perft(&pos, 2);
});
