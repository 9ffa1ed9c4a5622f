#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod battleship;
mod nardy;
mod nardy_weights;
mod online;
mod online_battleship;
mod reversi;
mod reversi_weights;
mod sudoku;
mod table;
mod verify;

pub use battleship::BattleshipTable;
pub use nardy::NardyTable;
pub use nardy_weights::{load_nardy_weights, nardy_level_needs_network, nardy_weights_loaded};
pub use online::{
    online_game, online_nardy_step, online_reversi_place, online_sudoku_action, online_view,
};
pub use online_battleship::{
    online_battleship_action, online_battleship_hint, online_battleship_rules,
};
pub use reversi::ReversiTable;
pub use reversi_weights::{load_reversi_weights, reversi_weights_loaded};
pub use sudoku::SudokuTable;
pub use verify::{online_fleet_verify, online_nardy_verify};

use wasm_bindgen::prelude::wasm_bindgen;

/// The version of the bindings (the crate's version), for the page's footer and bug
/// reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// The game a save holds (`"nardy"`, `"reversi"`, `"battleship"` or `"sudoku"`), found
/// by loading it as each game's table in turn; a message for a person when it is none of
/// them: not a save at all, or a save that is damaged.
#[wasm_bindgen]
pub fn save_game(bytes: &[u8]) -> Result<String, String> {
    use tabletop_play::Table;
    let mut reasons: Vec<String> = Vec::new();
    macro_rules! attempt {
        ($game:ty, $name:literal) => {
            match Table::<$game>::from_bytes(bytes) {
                Ok(_) => return Ok($name.into()),
                Err(e) => reasons.push(e.to_string()),
            }
        };
    }
    attempt!(tabletop_play::nardy::Nardy, "nardy");
    attempt!(tabletop_play::reversi::Reversi, "reversi");
    attempt!(tabletop_play::battleship::Battleship, "battleship");
    attempt!(tabletop_play::sudoku::Sudoku, "sudoku");
    // The formats this file is not are no news; what went wrong in the one it is, is.
    let mut known: Vec<String> = reasons
        .into_iter()
        .filter(|r| !r.starts_with("this is not a Tabletop"))
        .collect();
    known.dedup();
    if known.is_empty() {
        return Err(
            "this file is not a Tabletop save (a table save, TTPL, or a game's own save)".into(),
        );
    }
    Err(format!("this save cannot be read: {}", known.join("; ")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_foreign_or_damaged_file_gets_one_clear_message() {
        let reversi = crate::ReversiTable::new(&[0, 0], false).unwrap();
        assert_eq!(crate::save_game(&reversi.to_bytes()).unwrap(), "reversi");
        assert_eq!(
            crate::save_game(b"hello").unwrap_err(),
            "this file is not a Tabletop save (a table save, TTPL, or a game's own save)"
        );
        let bytes = reversi.to_bytes();
        let err = crate::save_game(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(err.starts_with("this save cannot be read: "), "{err}");
        assert!(!err.contains(';'), "one reason: {err}");
    }
}
