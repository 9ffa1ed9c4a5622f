//! Game records: parsing and replaying never panic; a replayed game prints a record that
//! replays to the same game.
//!
//! The input is tried as raw text, and mapped onto a record (each byte names a square,
//! some bytes a pass) so that the fuzzer reaches long legal games quickly.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{Color, Game, Move, Record, Rules, Square};

fn without_final_pass(game: &Game) -> Vec<Move> {
    let mut moves = game.moves().to_vec();
    if moves.last() == Some(&Move::Pass) {
        moves.pop();
    }
    moves
}

fn check(text: &str, rules: Rules) {
    let Ok(record) = text.parse::<Record>() else {
        return;
    };
    let Ok(game) = Game::from_record(rules, &record) else {
        return;
    };
    let printed = game.record().to_string();
    let again = Game::from_record(rules, &printed.parse().expect("printed records parse"))
        .expect("printed records replay");
    assert_eq!(without_final_pass(&game), without_final_pass(&again));
    assert_eq!(Game::from_bytes(&game.to_bytes()).as_ref(), Ok(&game));
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let rules = Rules::with_first(if first & 1 == 0 {
        Color::Black
    } else {
        Color::White
    });
    if let Ok(text) = std::str::from_utf8(rest) {
        check(text, rules);
    }
    let mut text = String::with_capacity(rest.len() * 2);
    for &b in rest {
        match Square::new(b % 68) {
            Some(sq) => text.push_str(&sq.to_string()),
            None => text.push_str(["pass", "--", "PA", "ps"][usize::from(b % 4)]),
        }
    }
    check(&text, rules);
});
