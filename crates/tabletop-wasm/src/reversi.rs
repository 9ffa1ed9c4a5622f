//! Reversi: a table of two seats (Black, White), the discs as 64 squares, legal moves,
//! the last move and its flips, passes, and hints scored by the engine's search.

use reversi_core::ai::{self, Level, Limits, Searcher};
use reversi_core::{Color, Move, Rules, Square, SquareSet};
use serde_json::{Map, Value, json};
use tabletop_play::reversi::{self, Reversi};
use tabletop_play::{Action, Seat, Table};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::reversi_weights::trained;
use crate::table::{person_act, players, rng, table_methods};

/// A reversi table for the page.
#[wasm_bindgen]
pub struct ReversiTable {
    table: Table<Reversi>,
}

table_methods!(ReversiTable, Reversi);

pub(crate) fn squares(set: SquareSet) -> Vec<u8> {
    (0..64u8).filter(|&i| set.bits() >> i & 1 == 1).collect()
}

#[wasm_bindgen]
impl ReversiTable {
    /// A new game: `levels[0]` plays Black, `levels[1]` White (0 a person, 1–10 a bot);
    /// `white_first` for the rule that lets White start.
    #[wasm_bindgen(constructor)]
    pub fn new(levels: &[u8], white_first: bool) -> Result<ReversiTable, String> {
        for &l in levels.iter().filter(|&&l| l != 0) {
            Level::new(l).ok_or(format!("there is no reversi level {l} (1 to 10)"))?;
        }
        let first = if white_first {
            Color::White
        } else {
            Color::Black
        };
        let p = players(levels);
        let p = [
            p.first().copied().unwrap_or(tabletop_play::Player::Human),
            p.get(1).copied().unwrap_or(tabletop_play::Player::Human),
        ];
        Ok(ReversiTable::wrap(reversi::new_table(
            Rules::with_first(first),
            p,
        )))
    }

    /// Plays a disc on square `index` (0 = a1, 7 = h1, 63 = h8) for the person.
    pub fn play(&mut self, index: u8) -> Result<(), String> {
        let square = Square::new(index).ok_or("no such square")?;
        person_act(&mut self.table, Action::Play(Move::Place(square)))
    }

    /// Every legal move scored by the search the terminal's hint uses (6 plies, exact
    /// from 14 empty squares), best first, as JSON: `[{"square", "name", "score",
    /// "exact", "text"}]`; an error when the weights are not loaded. Slow: the page asks
    /// its worker.
    pub fn hints(&self) -> Result<String, String> {
        let pos = *self.table.game().game().position();
        let mut searcher = Searcher::with_evaluator(trained()?);
        let ranked = ai::hints(&mut searcher, &pos, &Limits::depth(6, 14));
        let list: Vec<Value> = ranked
            .iter()
            .map(|m| {
                json!({
                    "square": m.square.index(),
                    "name": m.square.to_string(),
                    "score": m.score,
                    "exact": m.exact,
                    "text": m.score_text().to_string(),
                })
            })
            .collect();
        Ok(Value::Array(list).to_string())
    }
}

impl ReversiTable {
    fn wrap(table: Table<Reversi>) -> ReversiTable {
        ReversiTable { table }
    }

    /// The bot's action with the weights [`crate::load_reversi_weights`] loaded.
    fn bot_choice(
        &self,
        _seat: Seat,
        level: u8,
        seed: u64,
    ) -> Result<Option<Action<Move>>, String> {
        let Some(level) = Level::new(level) else {
            return Ok(None);
        };
        let game = self.table.game();
        let mut bot = level.bot_with(&game.game().rules(), trained()?);
        Ok(reversi::bot_action(game, bot.as_mut(), &mut rng(seed)))
    }

    fn describe(&self, map: &mut Map<String, Value>) {
        let game = self.table.game().game();
        let pos = game.position();
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        let last = game.moves().iter().rev().find_map(|m| m.square());
        let flipped = self.table.game().last_flipped();
        position_fields(map, pos);
        map.insert("legal".into(), json!(squares(pos.legal_squares())));
        map.insert("last".into(), json!(last.map(|s| s.index())));
        map.insert("flipped".into(), json!(squares(flipped)));
        map.insert("moves".into(), json!(moves));
        if let Some(e) = self.table.ending() {
            map.insert(
                "result".into(),
                json!(format!("Black {} – White {}", e.score.black, e.score.white)),
            );
        }
    }
}

/// What the page draws of a position, offline and online alike: the board (0 empty,
/// 1 black, 2 white by square), the disc counts and the side to move.
pub(crate) fn position_fields(map: &mut Map<String, Value>, pos: &reversi_core::Position) {
    let board: Vec<u8> = Square::ALL
        .iter()
        .map(|&sq| match pos.piece_at(sq) {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        })
        .collect();
    map.insert("board".into(), json!(board));
    map.insert(
        "counts".into(),
        json!([pos.count(Color::Black), pos.count(Color::White)]),
    );
    map.insert(
        "side".into(),
        json!(match pos.side_to_move() {
            Color::Black => 0,
            Color::White => 1,
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_plays_and_the_bot_answers_through_json() {
        crate::reversi_weights::tests::load();
        let mut t = ReversiTable::new(&[0, 1], false).unwrap();
        let v: Value = serde_json::from_str(&t.view()).unwrap();
        assert_eq!(v["legal"], json!([19, 26, 37, 44]));
        assert!(t.play(0).is_err(), "a1 is not legal at the start");
        t.play(37).unwrap();
        let bot: Value = serde_json::from_str(&t.bot_action(7).unwrap().unwrap()).unwrap();
        t.act(1, bot["action"].as_str().unwrap()).unwrap();
        let v: Value = serde_json::from_str(&t.view()).unwrap();
        assert_eq!(v["version"], 2);
        assert_eq!(v["can_undo"], true);
        t.undo().unwrap();
        let copy = ReversiTable::load(&t.to_bytes()).unwrap();
        assert_eq!(copy.view(), t.view());
        let hints: Value = serde_json::from_str(&t.hints().unwrap()).unwrap();
        assert_eq!(hints.as_array().unwrap().len(), 4);
    }
}
