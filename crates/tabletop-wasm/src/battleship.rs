//! Battleship: the person (seat 0, the first shooter) places a fleet by hand with the
//! engine's placement checks or at random, then shoots at the bot's grid; the view shows
//! both grids as the person may know them, and the enemy fleet at the end.

use std::sync::{Mutex, OnceLock};

use battleship_core::ai::Level;
use battleship_core::{
    Coord, Fleet, Mark, Orientation, Placement, Rules, Ship, ShotResult, Tracking, UniformFleets,
};
use serde_json::{Map, Value, json};
use tabletop_play::battleship::{self, Battleship, Input};
use tabletop_play::{Action, Player, Seat, Table, Viewer};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::table::{person_act, players, rng, table_methods};

/// A battleship table for the page, with the person's fleet being placed.
#[wasm_bindgen]
pub struct BattleshipTable {
    table: Table<Battleship>,
    placement: Placement,
}

table_methods!(BattleshipTable, Battleship);

/// A uniform random fleet under `rules`; the sampler of each rule set is built once.
pub(crate) fn random_fleet(rules: &Rules, seed: u64) -> Fleet {
    type Samplers = Vec<(Rules, std::sync::Arc<UniformFleets>)>;
    static CACHE: OnceLock<Mutex<Samplers>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let sampler = {
        let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
        match cache.iter().find(|(r, _)| r == rules) {
            Some((_, s)) => s.clone(),
            None => {
                let s = std::sync::Arc::new(UniformFleets::new(rules));
                cache.push((rules.clone(), s.clone()));
                s
            }
        }
    };
    sampler.sample(&mut rng(seed))
}

/// The lookahead bot's heat map of `tracking` (the probability of a ship afloat in each
/// cell) and the cell it would shoot, as the page's hint.
pub(crate) fn shot_hint(tracking: &Tracking, rules: &Rules, seed: u64) -> Result<Value, String> {
    use battleship_core::ai::{Bot, Lookahead};
    let mut bot = Lookahead::new(rules);
    let mut rng = rng(seed);
    let probabilities = bot
        .probabilities(tracking, &mut rng)
        .ok_or("no fleet fits the shots so far")?;
    let cell = bot
        .choose_move(tracking, &mut rng)
        .ok_or("no cell is left to shoot")?;
    let chance = probabilities
        .get(cell.index(rules.width()))
        .copied()
        .unwrap_or(0.0);
    // three decimals are plenty for a picture and keep the JSON short
    let rounded: Vec<f64> = probabilities
        .iter()
        .map(|p| (p * 1000.0).round() / 1000.0)
        .collect();
    Ok(json!({
        "cell": [cell.col(), cell.row()],
        "chance": chance,
        "probabilities": rounded,
        // the board labels its columns in capitals
        "text": format!("{} ({:.0}% a ship)", cell.to_string().to_uppercase(), chance * 100.0),
    }))
}

pub(crate) fn coord(col: u8, row: u8) -> Result<Coord, String> {
    Coord::new(col, row).ok_or_else(|| "no such cell".into())
}

pub(crate) fn ship_json(ship: &Ship) -> Value {
    json!({
        "col": ship.bow().col(),
        "row": ship.bow().row(),
        "len": ship.len(),
        "vertical": ship.orientation() == Orientation::Vertical,
        "cells": ship.cells().map(|c| [c.col(), c.row()]).collect::<Vec<_>>(),
    })
}

pub(crate) fn marks(tracking: &Tracking, rules: &Rules) -> String {
    let mut out = String::new();
    for row in 0..rules.height() {
        for col in 0..rules.width() {
            let mark = Coord::new(col, row).map_or(Mark::Unknown, |c| tracking.mark(c));
            out.push(match mark {
                Mark::Unknown => '.',
                Mark::Miss => 'o',
                Mark::Water => '~',
                Mark::Hit => 'x',
                Mark::Sunk => '#',
            });
        }
    }
    out
}

#[wasm_bindgen]
impl BattleshipTable {
    /// A new game: the person shoots first against a bot of `level` (1–5) under the
    /// `rules` named `russian` or `classic`.
    #[wasm_bindgen(constructor)]
    pub fn new(level: u8, rules: &str) -> Result<BattleshipTable, String> {
        Level::new(level).ok_or(format!("there is no battleship level {level} (1 to 5)"))?;
        let rules = match rules {
            "classic" => Rules::classic(),
            "russian" | "" => Rules::russian(),
            other => return Err(format!("unknown battleship rules '{other}'")),
        };
        let p = players(&[0, level]);
        Ok(BattleshipTable::wrap(battleship::new_table(
            rules,
            [p[0], p[1]],
        )))
    }

    /// Places a ship of `len` with its bow (top or left cell) at `col`, `row`; the
    /// engine's words when it may not go there.
    pub fn place_ship(&mut self, col: u8, row: u8, vertical: bool, len: u8) -> Result<(), String> {
        let orientation = if vertical {
            Orientation::Vertical
        } else {
            Orientation::Horizontal
        };
        let ship = Ship::new(coord(col, row)?, orientation, len);
        self.placement.place(ship).map_err(|e| e.to_string())?;
        self.keep_draft()
    }

    /// Takes away the placed ship covering a cell (false if none does).
    pub fn remove_ship(&mut self, col: u8, row: u8) -> Result<bool, String> {
        let removed = self.placement.remove(coord(col, row)?).is_some();
        if removed {
            self.keep_draft()?;
        }
        Ok(removed)
    }

    /// Turns the placed ship covering a cell about its bow, when the turned ship fits.
    pub fn rotate_ship(&mut self, col: u8, row: u8) -> Result<(), String> {
        self.placement
            .rotate(coord(col, row)?)
            .map_err(|e| e.to_string())?;
        self.keep_draft()
    }

    /// Replaces the placed ships with a uniformly random valid fleet from `seed`.
    pub fn auto_place(&mut self, seed: u64) {
        let rules = self.table.game().rules().clone();
        let fleet = random_fleet(&rules, seed);
        self.placement = Placement::from_fleet(rules, &fleet);
        // a fresh fleet from the rules' own sampler: the table always takes it
        let _ = self.keep_draft();
    }

    /// Takes every placed ship away.
    pub fn clear_ships(&mut self) {
        self.placement.clear();
        let _ = self.keep_draft();
    }

    /// Puts the placed fleet to sea: the table checks it and the battle starts once the
    /// bot's fleet is there too.
    pub fn confirm_fleet(&mut self) -> Result<(), String> {
        let fleet = self.placement.finish().map_err(|e| e.to_string())?;
        person_act(&mut self.table, Action::Play(Input::Place(fleet)))
    }

    /// The hint for the person's shot, as JSON: the strongest bot's estimate that each
    /// cell of the enemy grid holds a ship afloat (`probabilities`, row by row: the heat
    /// map), the cell it would shoot (`cell`: `[col, row]`), its `chance` and a `text`.
    /// It samples fleets consistent with the person's own shots only, never the enemy
    /// fleet. Slow: the page asks its worker.
    pub fn hints(&self, seed: u64) -> Result<String, String> {
        let state = self.table.game();
        if state.game().is_none() || self.table.ending().is_some() {
            return Err("a hint is for the battle".into());
        }
        shot_hint(&state.tracking(Seat(0)), state.rules(), seed).map(|v| v.to_string())
    }

    /// Shoots at the enemy's cell `col`, `row`.
    pub fn shoot(&mut self, col: u8, row: u8) -> Result<(), String> {
        person_act(
            &mut self.table,
            Action::Play(Input::Shoot(coord(col, row)?)),
        )
    }
}

impl BattleshipTable {
    fn wrap(table: Table<Battleship>) -> BattleshipTable {
        let rules = table.game().rules().clone();
        // the person's fleet, or the ships placed so far (the table's draft)
        let placement = match table.game().fleet(Seat(0)) {
            Some(fleet) => Placement::from_fleet(rules, fleet),
            None => table
                .game()
                .placement(Seat(0))
                .unwrap_or_else(|| Placement::new(rules)),
        };
        BattleshipTable { table, placement }
    }

    /// Keeps the ships placed so far at the table (its draft for the person's seat), so
    /// that a reload or a downloaded save resumes the placement.
    fn keep_draft(&mut self) -> Result<(), String> {
        let ships = self.placement.ships().to_vec();
        person_act(&mut self.table, Action::Play(Input::Arrange(ships)))
    }

    fn bot_choice(
        &self,
        seat: Seat,
        level: u8,
        seed: u64,
    ) -> Result<Option<Action<Input>>, String> {
        let state = self.table.game();
        if !state.placed(seat) {
            let fleet = random_fleet(state.rules(), seed);
            return Ok(Some(Action::Play(Input::Place(fleet))));
        }
        let Some(level) = Level::new(level) else {
            return Ok(None);
        };
        let mut bot = level.bot(state.rules());
        Ok(battleship::bot_shot(state, bot.as_mut(), &mut rng(seed)))
    }

    fn describe(&self, map: &mut Map<String, Value>) {
        let state = self.table.game();
        let rules = state.rules();
        let me = Seat(0);
        let view = self.table.view(Viewer::Seat(me));
        let phase = if self.table.ending().is_some() {
            "over"
        } else if state.game().is_some() {
            "battle"
        } else {
            "placing"
        };
        let own: Vec<Value> = match state.fleet(me) {
            Some(fleet) => fleet.ships().iter().map(ship_json).collect(),
            None => self.placement.ships().iter().map(ship_json).collect(),
        };
        let enemy: Vec<Value> = view.state.fleets[1]
            .as_ref()
            .map(|f| f.ships().iter().map(ship_json).collect())
            .unwrap_or_default();
        let sunk: Vec<Value> = view.state.tracking[0]
            .sunk()
            .iter()
            .map(ship_json)
            .collect();
        let last = view.state.shots.last().map(|(seat, c, result)| {
            json!({
                "seat": seat.0,
                "cell": [c.col(), c.row()],
                "result": match result {
                    ShotResult::Miss => "miss",
                    ShotResult::Hit => "hit",
                    ShotResult::Sunk(_) => "sunk",
                    ShotResult::GameOver(_) => "won",
                },
            })
        });
        map.insert("width".into(), rules.width().into());
        map.insert("height".into(), rules.height().into());
        map.insert("fleet".into(), json!(rules.fleet()));
        map.insert("phase".into(), phase.into());
        map.insert("missing".into(), json!(self.placement.missing()));
        map.insert("own".into(), json!(own));
        map.insert("enemy_fleet".into(), json!(enemy));
        map.insert("sunk".into(), json!(sunk));
        map.insert("afloat".into(), json!(view.state.tracking[0].afloat()));
        map.insert("my_afloat".into(), json!(view.state.tracking[1].afloat()));
        map.insert("shots".into(), json!(view.state.tracking[0].shots_fired()));
        map.insert(
            "enemy_marks".into(),
            marks(&view.state.tracking[0], rules).into(),
        );
        map.insert(
            "own_marks".into(),
            marks(&view.state.tracking[1], rules).into(),
        );
        map.insert("last".into(), json!(last));
        if let Some(e) = self.table.ending() {
            map.insert(
                "result".into(),
                json!(format!(
                    "{} won after {} shots",
                    if e.winner == Some(me) {
                        "You"
                    } else {
                        "The bot"
                    },
                    e.score.shots
                )),
            );
        }
        if self.table.players().get(1) == Some(&Player::Human) {
            map.insert("hotseat".into(), true.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(t: &BattleshipTable) -> Value {
        serde_json::from_str(&t.view()).unwrap()
    }

    #[test]
    fn place_by_hand_and_at_random_then_shoot_until_the_end() {
        let mut t = BattleshipTable::new(1, "russian").unwrap();
        t.place_ship(0, 0, false, 4).unwrap();
        assert!(t.place_ship(0, 1, false, 3).is_err(), "touching is refused");
        assert_eq!(view(&t)["missing"], json!([3, 3, 2, 2, 2, 1, 1, 1, 1]));
        // the ships placed so far are kept in the save
        let copy = BattleshipTable::load(&t.to_bytes()).unwrap();
        assert_eq!(view(&copy)["missing"], json!([3, 3, 2, 2, 2, 1, 1, 1, 1]));
        t.auto_place(5);
        assert_eq!(view(&t)["missing"], json!([]));
        t.confirm_fleet().unwrap();
        let mut seed = 0;
        while view(&t)["ending"].is_null() {
            seed += 1;
            if let Some(bot) = t.bot_action(seed).unwrap() {
                let bot: Value = serde_json::from_str(&bot).unwrap();
                t.act(1, bot["action"].as_str().unwrap()).unwrap();
                continue;
            }
            let marks = view(&t)["enemy_marks"].as_str().unwrap().to_string();
            let i = marks.find('.').unwrap() as u8;
            t.shoot(i % 10, i / 10).unwrap();
        }
        let v = view(&t);
        assert_eq!(v["phase"], "over");
        assert_eq!(v["enemy_fleet"].as_array().unwrap().len(), 10);
        let copy = BattleshipTable::load(&t.to_bytes()).unwrap();
        assert_eq!(copy.view(), t.view());
    }
}
