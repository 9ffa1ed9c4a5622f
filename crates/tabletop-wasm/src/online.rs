//! Online play: the server's views (`tabletop_play::TableView` JSON, from a `view`
//! message of the protocol) turned into the views the page's game modules draw, and the
//! actions of those modules written as the protocol's JSON (battleship's in
//! `online_battleship`). Read in Rust because the views hold 64-bit boards (reversi) that
//! JavaScript numbers cannot carry exactly.

use crate::nardy::step_pair;
use serde_json::{Map, Value, json};
use tabletop_play::nardy::{Input, Nardy};
use tabletop_play::reversi::Reversi;
use tabletop_play::sudoku::Sudoku;
use tabletop_play::{Action, Player, TableGame, TableView, Viewer};
use wasm_bindgen::prelude::wasm_bindgen;

/// The games the page plays online.
const GAMES: [&str; 4] = ["nardy", "reversi", "battleship", "sudoku"];

/// Whether the page can draw and play `game` online.
#[wasm_bindgen]
pub fn online_game(game: &str) -> bool {
    GAMES.contains(&game)
}

/// The page's view (as the offline tables give it: `game`, `version`, `players`,
/// `to_act`, `person`, `ending`, `result` and the game's fields) of the server's `view`
/// message `message` (its whole text), with `clock_ms` and `viewer` kept.
#[wasm_bindgen]
pub fn online_view(message: &str) -> Result<String, String> {
    let message: Value =
        serde_json::from_str(message).map_err(|e| format!("not a view message: {e}"))?;
    let view = message.get("view").cloned().unwrap_or(message);
    let map = match view["game"].as_str() {
        Some("nardy") => nardy(parse::<Nardy>(view)?),
        Some("reversi") => reversi(parse::<Reversi>(view)?),
        Some("battleship") => {
            let v = parse::<tabletop_play::battleship::Battleship>(view)?;
            let map = common(&v);
            crate::online_battleship::describe(v, map)
        }
        Some("sudoku") => sudoku(parse::<Sudoku>(view)?),
        Some(other) => return Err(format!("the page cannot draw {other} online yet")),
        None => return Err("a view without its game".into()),
    };
    Ok(Value::Object(map).to_string())
}

/// The protocol's action for one nardy step from `from` to `to` (0 bears off).
#[wasm_bindgen]
pub fn online_nardy_step(from: u8, to: u8) -> Result<String, String> {
    let step = nardy_core::Step::new(from, (to != 0).then_some(to)).map_err(|e| e.to_string())?;
    Ok(crate::table::action_json::<Input>(&Action::Play(
        Input::Step(step),
    )))
}

/// The protocol's action for a reversi disc on square `index` (0 = a1 … 63 = h8).
#[wasm_bindgen]
pub fn online_reversi_place(index: u8) -> Result<String, String> {
    let square = reversi_core::Square::new(index).ok_or("no such square")?;
    Ok(crate::table::action_json::<reversi_core::Move>(
        &Action::Play(reversi_core::Move::Place(square)),
    ))
}

/// The protocol's action for a sudoku edit: `op` is `enter` (`digit` in the cell at
/// `row`, `col`), `clear`, `note` (switch the pencil mark `digit`), `fill_notes`,
/// `reveal` (give up), or `time` (`ms` spent since the last report).
#[wasm_bindgen]
pub fn online_sudoku_action(
    op: &str,
    row: usize,
    col: usize,
    digit: u8,
    ms: u32,
) -> Result<String, String> {
    use sudoku_core::{Digits, Move};
    use tabletop_play::sudoku::Input as SudokuInput;
    let input = match op {
        "enter" => SudokuInput::Move(Move::Enter { row, col, digit }),
        "clear" => SudokuInput::Move(Move::Clear { row, col }),
        "note" if (1..=25).contains(&digit) => SudokuInput::Move(Move::ToggleNotes {
            row,
            col,
            digits: Digits::single(digit),
        }),
        "note" => return Err(format!("{digit} is not a digit of this grid")),
        "fill_notes" => SudokuInput::Move(Move::FillNotes),
        "reveal" => SudokuInput::Move(Move::Solve),
        "time" => SudokuInput::Time(u64::from(ms)),
        other => return Err(format!("no sudoku action {other}")),
    };
    Ok(crate::table::action_json(&Action::Play(input)))
}

pub(crate) type View<G> = TableView<<G as TableGame>::View, <G as TableGame>::Score>;

pub(crate) fn parse<G: TableGame>(view: Value) -> Result<View<G>, String> {
    serde_json::from_value(view).map_err(|e| format!("not a {} view: {e}", G::NAME))
}

/// The table's part: the viewer's seat is the person ("human"), the others are remote
/// people or the server's bots; the server runs its bots, so the page waits for none.
fn common<V, S>(v: &TableView<V, S>) -> Map<String, Value> {
    let me = match v.viewer {
        Viewer::Seat(seat) => Some(seat.0),
        Viewer::Spectator => None,
    };
    let players: Vec<Value> = v
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Player::Bot(level) => json!({"kind": "bot", "level": level}),
            _ if me == Some(i as u8) => json!({"kind": "human"}),
            _ => json!({"kind": "remote"}),
        })
        .collect();
    let ending = v.ending.as_ref().map(|e| {
        json!({
            "winner": e.winner.map(|s| s.0),
            "reason": crate::table::reason_name(e.reason),
        })
    });
    let mut map = Map::new();
    map.insert("game".into(), v.game.clone().into());
    map.insert("version".into(), v.version.into());
    map.insert("players".into(), players.into());
    map.insert("to_act".into(), json!(v.to_act.map(|s| s.0)));
    // The seat to act, and whether it is the page's (battleship renumbers `to_act`).
    map.insert("seat_to_act".into(), json!(v.to_act.map(|s| s.0)));
    map.insert(
        "mine".into(),
        json!(me.is_some() && v.to_act.map(|s| s.0) == me),
    );
    map.insert("bot".into(), Value::Null);
    map.insert("person".into(), json!(me));
    map.insert("viewer".into(), json!(me));
    map.insert("ending".into(), json!(ending));
    map.insert("clock_ms".into(), json!(v.clock_ms));
    map.insert("can_undo".into(), false.into());
    map.insert("can_redo".into(), false.into());
    map
}

fn nardy(v: View<Nardy>) -> Map<String, Value> {
    let mut map = common(&v);
    let s = &v.state;
    let pos = &s.position;
    let history = crate::nardy::history_json(&s.history);
    crate::nardy::position_fields(&mut map, pos);
    let over = v.ending.is_some();
    map.insert(
        "dice".into(),
        json!(s.dice.filter(|_| !over).map(|d| [d.high(), d.low()])),
    );
    map.insert("dice_left".into(), json!(s.dice_left));
    map.insert(
        "played".into(),
        json!(s.played.iter().map(step_pair).collect::<Vec<_>>()),
    );
    let legal: Vec<[u8; 2]> = if over {
        Vec::new()
    } else {
        s.legal_steps.iter().map(step_pair).collect()
    };
    map.insert("legal".into(), json!(legal));
    map.insert("notation".into(), json!(pos.to_string()));
    map.insert(
        "side".into(),
        json!(crate::nardy::color_index(pos.side_to_move())),
    );
    map.insert("history".into(), json!(history));
    if let Some(e) = &v.ending {
        map.insert("result".into(), json!(e.score.to_string()));
    }
    map
}

fn reversi(v: View<Reversi>) -> Map<String, Value> {
    let mut map = common(&v);
    let s = &v.state;
    crate::reversi::position_fields(&mut map, &s.position);
    let legal: Vec<u8> = s
        .legal
        .iter()
        .filter_map(|m| m.square())
        .map(|q| q.index())
        .collect();
    map.insert("legal".into(), json!(legal));
    map.insert(
        "last".into(),
        json!(
            s.moves
                .iter()
                .rev()
                .find_map(|m| m.square())
                .map(|q| q.index())
        ),
    );
    map.insert(
        "flipped".into(),
        json!(crate::reversi::squares(s.last_flipped)),
    );
    map.insert(
        "moves".into(),
        json!(s.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
    );
    if let Some(e) = &v.ending {
        map.insert(
            "result".into(),
            json!(format!("Black {} – White {}", e.score.black, e.score.white)),
        );
    }
    map
}

fn sudoku(v: View<Sudoku>) -> Map<String, Value> {
    let mut map = common(&v);
    let s = &v.state;
    crate::sudoku::grid_fields(
        &mut map,
        &s.puzzle,
        &s.grid,
        &s.notes,
        s.mistakes,
        s.elapsed_ms,
    );
    if let Some(e) = &v.ending {
        map.insert("result".into(), crate::sudoku::result_text(&e.score).into());
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop_play::{Seat, nardy as play_nardy, reversi as play_reversi};

    #[test]
    fn server_views_become_the_page_views_the_offline_tables_give() {
        // A reversi table whose boards use the high bits a JavaScript number would lose.
        let mut table = play_reversi::new_table(
            reversi_core::Rules::default(),
            [Player::Remote, Player::Remote],
        );
        for _ in 0..6 {
            let seat = table.to_act().unwrap();
            let mv = table.view(Viewer::Seat(seat)).state.legal[0];
            table.apply(seat, Action::Play(mv)).unwrap();
        }
        let message =
            json!({"type": "view", "table": "t1", "view": table.view(Viewer::Seat(Seat(1)))});
        let page: Value =
            serde_json::from_str(&online_view(&message.to_string()).unwrap()).unwrap();
        let offline = crate::ReversiTable::load(&table.to_bytes()).unwrap();
        let offline: Value = serde_json::from_str(&offline.view()).unwrap();
        for key in [
            "board", "legal", "last", "flipped", "moves", "counts", "side", "version",
        ] {
            assert_eq!(page[key], offline[key], "{key}");
        }
        assert_eq!(page["person"], 1);
        assert_eq!(page["players"][1]["kind"], "human");
        assert_eq!(page["players"][0]["kind"], "remote");
        let place = online_reversi_place(19).unwrap();
        assert_eq!(place, r#"{"play":{"Place":19}}"#);

        let mut table =
            play_nardy::new_table(Default::default(), 5, [Player::Remote, Player::Remote]);
        let seat = table.to_act().unwrap();
        let step = table.view(Viewer::Seat(seat)).state.legal_steps[0];
        table.apply(seat, Action::Play(Input::Step(step))).unwrap();
        let message = json!({"view": table.view(Viewer::Spectator)});
        let page: Value =
            serde_json::from_str(&online_view(&message.to_string()).unwrap()).unwrap();
        let offline = crate::NardyTable::load(&table.to_bytes()).unwrap();
        let offline: Value = serde_json::from_str(&offline.view()).unwrap();
        for key in [
            "white",
            "black",
            "off",
            "pips",
            "dice",
            "dice_left",
            "played",
            "legal",
            "side",
            "history",
        ] {
            assert_eq!(page[key], offline[key], "{key}");
        }
        assert_eq!(page["person"], Value::Null, "a spectator");
        let action: Value = serde_json::from_str(&online_nardy_step(24, 20).unwrap()).unwrap();
        assert_eq!(action, json!({"play": {"step": [24, 20]}}));
        assert!(online_view(r#"{"view":{"game":"chess"}}"#).is_err());
        assert!(online_view("nonsense").is_err());
    }

    #[test]
    fn a_sudoku_view_is_the_offline_one_and_edits_are_protocol_actions() {
        let offline = crate::SudokuTable::new(4, "easy", 7).unwrap();
        let mut table = tabletop_play::Table::<Sudoku>::from_bytes(&offline.to_bytes()).unwrap();
        table.set_player(Seat(0), Player::Remote).unwrap();
        let v: Value = serde_json::from_str(&offline.view()).unwrap();
        let empty = v["grid"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c == 0)
            .unwrap();
        for (op, digit) in [("enter", 3), ("clear", 0), ("note", 2), ("time", 0)] {
            let action = online_sudoku_action(op, empty / 4, empty % 4, digit, 1500).unwrap();
            let action: Action<tabletop_play::sudoku::Input> =
                serde_json::from_str(&action).unwrap();
            table.apply(Seat(0), action).unwrap();
        }
        let message = json!({"view": table.view(Viewer::Seat(Seat(0)))});
        let page: Value =
            serde_json::from_str(&online_view(&message.to_string()).unwrap()).unwrap();
        let offline = crate::SudokuTable::load(&table.to_bytes()).unwrap();
        let offline: Value = serde_json::from_str(&offline.view()).unwrap();
        for key in [
            "side",
            "box_rows",
            "box_cols",
            "symbols",
            "puzzle",
            "grid",
            "notes",
            "conflicts",
            "mistakes",
            "elapsed_ms",
        ] {
            assert_eq!(page[key], offline[key], "{key}");
        }
        assert_ne!(page["notes"][empty], 0, "the pencil mark is in");
        assert_eq!(page["elapsed_ms"], 1500);
        assert!(online_sudoku_action("note", 0, 0, 0, 0).is_err());
        assert!(online_sudoku_action("shuffle", 0, 0, 0, 0).is_err());
    }
}
