//! A table save of any game: loading arbitrary bytes never panics, and a table that loads
//! saves to bytes that load into an equal table.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabletop_play::battleship::Battleship;
use tabletop_play::nardy::Nardy;
use tabletop_play::reversi::Reversi;
use tabletop_play::sudoku::Sudoku;
use tabletop_play::{Table, TableGame};

fn round_trip<G: TableGame>(data: &[u8]) {
    if let Ok(table) = Table::<G>::from_bytes(data) {
        let again = Table::<G>::from_bytes(&table.to_bytes()).expect("a saved table loads");
        assert_eq!(again, table);
    }
}

fuzz_target!(|data: &[u8]| {
    // Behind a valid header too, so the fuzzer reaches the log's decoder and replay quickly.
    let format = tabletop_play::SAVE_FORMAT;
    let mut framed = Vec::from(format.magic());
    framed.extend_from_slice(&format.version().to_le_bytes());
    framed.extend_from_slice(data);
    for bytes in [data, &framed[..]] {
        round_trip::<Nardy>(bytes);
        round_trip::<Reversi>(bytes);
        round_trip::<Battleship>(bytes);
        round_trip::<Sudoku>(bytes);
    }
});
