//! Battleship online: the server's view seen from the page's seat (the page's module
//! draws "your fleet" and "enemy waters" as seat 0 does offline), and the placement and
//! shots written as the protocol's actions. The ships placed so far are kept at the
//! table as the seat's draft (`arrange`), which only that seat sees: a reload resumes
//! the placement, and the page keeps no state of its own.

use battleship_core::{Coord, Orientation, Placement, Rules, Ship, ShotResult};
use serde_json::{Map, Value, json};
use tabletop_play::battleship::{Battleship, Input};
use tabletop_play::{Action, Viewer};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::battleship::{coord, marks, random_fleet, ship_json};
use crate::online::View;

/// The rules named `russian` or `classic` as the JSON a `create` carries.
#[wasm_bindgen]
pub fn online_battleship_rules(name: &str) -> Result<String, String> {
    let rules = match name {
        "classic" => Rules::classic(),
        "russian" | "" => Rules::russian(),
        other => return Err(format!("unknown battleship rules '{other}'")),
    };
    serde_json::to_string(&rules).map_err(|e| e.to_string())
}

/// The protocol's action for `op` of the page's seat, from the server's `view` message
/// `message`: `place` a ship of `len` with its bow at `col`, `row` (`vertical` or not),
/// `remove` the ship on that cell, `auto` (a random fleet from `seed`), `clear`, `confirm`
/// (put the fleet to sea), `shoot` at that cell.
#[wasm_bindgen]
pub fn online_battleship_action(
    message: &str,
    op: &str,
    col: u8,
    row: u8,
    vertical: bool,
    len: u8,
    seed: u64,
) -> Result<String, String> {
    let v = read(message)?;
    let mut placement = draft(&v)?;
    let input = match op {
        "shoot" => Input::Shoot(coord(col, row)?),
        "confirm" => Input::Place(placement.finish().map_err(|e| e.to_string())?),
        _ => {
            match op {
                "place" => {
                    let orientation = if vertical {
                        Orientation::Vertical
                    } else {
                        Orientation::Horizontal
                    };
                    let ship = Ship::new(coord(col, row)?, orientation, len);
                    placement.place(ship).map_err(|e| e.to_string())?;
                }
                "remove" => {
                    placement.remove(coord(col, row)?);
                }
                "auto" => {
                    placement = Placement::from_fleet(
                        v.state.rules.clone(),
                        &random_fleet(&v.state.rules, seed),
                    )
                }
                "clear" => placement.clear(),
                other => return Err(format!("no battleship action '{other}'")),
            }
            Input::Arrange(placement.ships().to_vec())
        }
    };
    Ok(crate::table::action_json(&Action::Play(input)))
}

/// The hint for the page's next shot online, as `BattleshipTable::hints` gives it
/// offline: the strongest bot's heat map of the enemy grid from what the seat's own shots
/// revealed (its `tracking` in the view), and the cell it would shoot. Slow: the page asks
/// its worker.
#[wasm_bindgen]
pub fn online_battleship_hint(message: &str, seed: u64) -> Result<String, String> {
    let v = read(message)?;
    let Viewer::Seat(seat) = v.viewer else {
        return Err("a spectator has no shot to be hinted".into());
    };
    if v.ending.is_some() || !v.state.placed.iter().all(|&p| p) {
        return Err("a hint is for the battle".into());
    }
    let tracking = v.state.tracking.get(seat.index()).ok_or("no such seat")?;
    crate::battleship::shot_hint(tracking, &v.state.rules, seed).map(|h| h.to_string())
}

pub(crate) fn read(message: &str) -> Result<View<Battleship>, String> {
    let message: Value =
        serde_json::from_str(message).map_err(|e| format!("not a view message: {e}"))?;
    let view = message.get("view").cloned().unwrap_or(message);
    serde_json::from_value(view).map_err(|e| format!("not a battleship view: {e}"))
}

/// The ships the seat has placed so far (its draft at the table), as a placement.
fn draft(v: &View<Battleship>) -> Result<Placement, String> {
    let mut placement = Placement::new(v.state.rules.clone());
    for ship in &v.state.draft {
        placement.place(*ship).map_err(|e| e.to_string())?;
    }
    Ok(placement)
}

/// The page's view: seat 0 of the offline view is the page's seat (or the first seat
/// for a spectator); `to_act` is 0 when the page's seat may act, else 1.
pub(crate) fn describe(v: View<Battleship>, mut map: Map<String, Value>) -> Map<String, Value> {
    let me = match v.viewer {
        Viewer::Seat(s) => s.index().min(1),
        Viewer::Spectator => 0,
    };
    let other = 1 - me;
    let s = &v.state;
    let rules = &s.rules;
    let placing = !s.placed.iter().all(|&p| p);
    let phase = if v.ending.is_some() {
        "over"
    } else if placing {
        "placing"
    } else {
        "battle"
    };
    let mine = match v.viewer {
        Viewer::Seat(seat) if placing => !s.placed[me] && v.ending.is_none() && seat.index() < 2,
        Viewer::Seat(seat) => v.to_act == Some(seat),
        Viewer::Spectator => false,
    };
    let placement = draft(&v).unwrap_or_else(|_| Placement::new(rules.clone()));
    let own: Vec<Value> = match &s.fleets[me] {
        Some(fleet) => fleet.ships().iter().map(ship_json).collect(),
        None if !s.placed[me] => placement.ships().iter().map(ship_json).collect(),
        None => Vec::new(),
    };
    let enemy: Vec<Value> = s.fleets[other]
        .as_ref()
        .map(|f| f.ships().iter().map(ship_json).collect())
        .unwrap_or_default();
    let last = s.shots.last().map(|(seat, c, result): &(_, Coord, _)| {
        json!({
            "seat": if seat.index() == me { 0 } else { 1 },
            "cell": [c.col(), c.row()],
            "result": match result {
                ShotResult::Miss => "miss",
                ShotResult::Hit => "hit",
                ShotResult::Sunk(_) => "sunk",
                ShotResult::GameOver(_) => "won",
            },
        })
    });
    let players = map.get("players").cloned().unwrap_or_default();
    let relative = |i: usize| players.get(i).cloned().unwrap_or(Value::Null);
    map.insert("players".into(), json!([relative(me), relative(other)]));
    map.insert("to_act".into(), json!(if mine { 0 } else { 1 }));
    map.insert("mine".into(), mine.into());
    if !matches!(v.viewer, Viewer::Seat(_)) {
        map.insert("person".into(), Value::Null);
    }
    map.insert("width".into(), rules.width().into());
    map.insert("height".into(), rules.height().into());
    map.insert("fleet".into(), json!(rules.fleet()));
    map.insert("phase".into(), phase.into());
    map.insert(
        "missing".into(),
        json!(if s.placed[me] {
            Vec::new()
        } else {
            placement.missing()
        }),
    );
    map.insert("own".into(), json!(own));
    map.insert("enemy_fleet".into(), json!(enemy));
    map.insert(
        "sunk".into(),
        json!(
            s.tracking[me]
                .sunk()
                .iter()
                .map(ship_json)
                .collect::<Vec<_>>()
        ),
    );
    map.insert("afloat".into(), json!(s.tracking[me].afloat()));
    map.insert("my_afloat".into(), json!(s.tracking[other].afloat()));
    map.insert("shots".into(), json!(s.tracking[me].shots_fired()));
    map.insert("enemy_marks".into(), marks(&s.tracking[me], rules).into());
    map.insert("own_marks".into(), marks(&s.tracking[other], rules).into());
    map.insert("last".into(), json!(last));
    map.insert("placed".into(), json!([s.placed[me], s.placed[other]]));
    if let Some(e) = &v.ending {
        let who = match (v.viewer, e.winner) {
            (Viewer::Seat(seat), Some(w)) if seat == w => "You",
            (Viewer::Seat(_), Some(_)) => "The enemy",
            (_, Some(w)) if w.index() == 0 => "The first shooter",
            _ => "The second shooter",
        };
        map.insert(
            "result".into(),
            json!(format!("{who} won after {} shots", e.score.shots)),
        );
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop_play::battleship::new_table;
    use tabletop_play::{Player, Seat, Table};

    fn page(table: &Table<Battleship>, seat: u8) -> (String, Value) {
        let message =
            json!({"type": "view", "view": table.view(Viewer::Seat(Seat(seat)))}).to_string();
        let page = crate::online_view(&message).unwrap();
        (message, serde_json::from_str(&page).unwrap())
    }

    fn act(table: &mut Table<Battleship>, seat: u8, action: &str) {
        let action: Action<Input> = serde_json::from_str(action).unwrap();
        table.apply(Seat(seat), action).unwrap();
    }

    #[test]
    fn the_second_seat_places_by_drafts_and_shoots_from_its_own_side() {
        let mut table = new_table(Rules::russian(), [Player::Remote, Player::Remote]);
        // Seat 1 may place while seat 0 has not: its page offers it.
        let (message, v) = page(&table, 1);
        assert_eq!(
            (v["phase"].as_str(), v["to_act"].as_u64()),
            (Some("placing"), Some(0))
        );
        let place = online_battleship_action(&message, "place", 0, 0, false, 4, 0).unwrap();
        act(&mut table, 1, &place);
        let (message, v) = page(&table, 1);
        assert_eq!(
            v["own"].as_array().unwrap().len(),
            1,
            "the draft is kept at the table"
        );
        assert_eq!(v["missing"], json!([3, 3, 2, 2, 2, 1, 1, 1, 1]));
        assert!(
            online_battleship_action(&message, "place", 1, 1, false, 3, 0).is_err(),
            "touching"
        );
        assert!(
            online_battleship_action(&message, "confirm", 0, 0, false, 0, 0).is_err(),
            "not all placed"
        );
        let auto = online_battleship_action(&message, "auto", 0, 0, false, 0, 7).unwrap();
        act(&mut table, 1, &auto);
        let (message, _) = page(&table, 1);
        act(
            &mut table,
            1,
            &online_battleship_action(&message, "confirm", 0, 0, false, 0, 0).unwrap(),
        );
        let (message, _) = page(&table, 0);
        act(
            &mut table,
            0,
            &online_battleship_action(&message, "auto", 0, 0, false, 0, 8).unwrap(),
        );
        let (message, _) = page(&table, 0);
        act(
            &mut table,
            0,
            &online_battleship_action(&message, "confirm", 0, 0, false, 0, 0).unwrap(),
        );
        // The battle: seat 0 shoots first; seat 1's page waits and sees its own fleet only.
        let (message, v0) = page(&table, 0);
        let (_, v1) = page(&table, 1);
        assert_eq!(
            (
                v0["phase"].as_str(),
                v0["to_act"].as_u64(),
                v1["to_act"].as_u64()
            ),
            (Some("battle"), Some(0), Some(1))
        );
        assert_eq!(v1["own"].as_array().unwrap().len(), 10);
        assert_eq!(v1["enemy_fleet"], json!([]), "no secret of the other seat");
        act(
            &mut table,
            0,
            &online_battleship_action(&message, "shoot", 4, 4, false, 0, 0).unwrap(),
        );
        let (_, v1) = page(&table, 1);
        assert_eq!(
            v1["last"]["seat"], 1,
            "the enemy's shot, from seat 1's side"
        );
        assert_ne!(v1["own_marks"].as_str().unwrap().chars().nth(44), Some('.'));
    }
}
