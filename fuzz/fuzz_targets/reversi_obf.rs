//! OBF board strings: parsing never panics; whatever parses prints to a canonical string
//! that parses back to the same position, and playing every legal move keeps the
//! bitboards disjoint.
//!
//! The input is tried twice: as raw text, and mapped onto a board-shaped string (each of
//! the first 64 bytes picks a square character, the next one the side to move, the rest
//! is appended) so that the fuzzer reaches valid boards quickly.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{Move, Position, Symmetry, perft};

fn check(text: &str) {
    let Ok(pos) = text.parse::<Position>() else {
        return;
    };
    let printed = pos.to_string();
    assert_eq!(printed.parse::<Position>(), Ok(pos));
    assert_eq!(pos.player() & pos.opponent(), 0);
    for sq in pos.legal_squares() {
        let mut next = pos;
        let flipped = next.play(Move::Place(sq)).expect("legal");
        assert!(!flipped.is_empty());
        assert_eq!(next.player() & next.opponent(), 0);
        assert_eq!(
            next.player().count_ones() + next.opponent().count_ones(),
            pos.player().count_ones() + pos.opponent().count_ones() + 1
        );
    }
    for s in Symmetry::ALL {
        assert_eq!(
            pos.transformed(s).legal_squares().bits(),
            s.apply(pos.legal_squares().bits())
        );
    }
    let _ = pos.outcome();
    let _ = pos.canonical();
    let _ = perft(&pos, 2);
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check(text);
    }
    if data.len() >= 65 {
        let mut text = String::with_capacity(data.len() + 1);
        for &b in &data[..64] {
            text.push(match b % 8 {
                0 | 1 => '-',
                2 => 'X',
                3 => 'O',
                4 => '*',
                5 => '.',
                6 => 'o',
                _ => char::from(b / 8 + b' '),
            });
        }
        text.push(' ');
        text.push(match data[64] % 5 {
            0 => 'X',
            1 => 'O',
            2 => 'x',
            3 => 'o',
            _ => '?',
        });
        text.push_str(&String::from_utf8_lossy(&data[65..]));
        check(&text);
    }
});
