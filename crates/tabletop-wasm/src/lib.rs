#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod battleship;
mod nardy;
mod reversi;
mod sudoku;
mod table;

pub use battleship::BattleshipTable;
pub use nardy::NardyTable;
pub use reversi::ReversiTable;
pub use sudoku::SudokuTable;

use wasm_bindgen::prelude::wasm_bindgen;

/// The version of the bindings (the crate's version), for the page's footer and bug
/// reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// The game a save holds (`"nardy"`, `"reversi"`, `"battleship"` or `"sudoku"`), found
/// by loading it as each game's table in turn; a message for a file that is none of them.
#[wasm_bindgen]
pub fn save_game(bytes: &[u8]) -> Result<String, String> {
    use tabletop_play::Table;
    let mut reasons = Vec::new();
    macro_rules! attempt {
        ($game:ty, $name:literal) => {
            match Table::<$game>::from_bytes(bytes) {
                Ok(_) => return Ok($name.into()),
                Err(e) => reasons.push(format!("{}: {e}", $name)),
            }
        };
    }
    attempt!(tabletop_play::nardy::Nardy, "nardy");
    attempt!(tabletop_play::reversi::Reversi, "reversi");
    attempt!(tabletop_play::battleship::Battleship, "battleship");
    attempt!(tabletop_play::sudoku::Sudoku, "sudoku");
    Err(format!(
        "this file is not a Tabletop save ({})",
        reasons.join("; ")
    ))
}
