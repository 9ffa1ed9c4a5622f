//! Game records: parsing and replaying never panic; a replayed game prints a record that
//! replays to the same game.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{Color, Game, Move, Record, Rules};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(record) = text.parse::<Record>() else {
        return;
    };
    let rules = Rules::with_first(if first & 1 == 0 {
        Color::Black
    } else {
        Color::White
    });
    let Ok(game) = Game::from_record(rules, &record) else {
        return;
    };
    let printed = game.record().to_string();
    let again = Game::from_record(rules, &printed.parse().expect("printed records parse"))
        .expect("printed records replay");
    let mut game_moves = game.moves().to_vec();
    if game_moves.last() == Some(&Move::Pass) {
        game_moves.pop();
    }
    let mut again_moves = again.moves().to_vec();
    if again_moves.last() == Some(&Move::Pass) {
        again_moves.pop();
    }
    assert_eq!(game_moves, again_moves);
});
