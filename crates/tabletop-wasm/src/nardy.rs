//! Long Nardy: a table of two seats (White, Black), the 24 points, the dice, the legal
//! next steps (each can be completed to a legal turn: the engine's turn builder says so),
//! pip counts, borne-off checkers, and hints ranked with equities.

use nardy_core::ai::Level;
use nardy_core::{Color, Rules, Step};
use serde_json::{Map, Value, json};
use tabletop_play::nardy::{self, Input, Nardy};
use tabletop_play::{Action, Seat, Table};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::nardy_weights::resources;
use crate::table::{person_act, players, rng, table_methods};

/// A Long Nardy table for the page.
#[wasm_bindgen]
pub struct NardyTable {
    table: Table<Nardy>,
}

table_methods!(NardyTable, Nardy);

fn level(n: u8) -> Result<Level, String> {
    Level::new(n).ok_or(format!("there is no nardy level {n} (1 to 6)"))
}

#[wasm_bindgen]
impl NardyTable {
    /// A new game: `levels[0]` plays White, `levels[1]` Black (0 a person, 1–6 a bot),
    /// under `rules` (JSON of the engine's rules, `{}` or `""` for the federation's), the
    /// dice thrown from `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(levels: &[u8], rules: &str, seed: u64) -> Result<NardyTable, String> {
        for &l in levels.iter().filter(|&&l| l != 0) {
            level(l)?;
        }
        let rules: Rules = if rules.trim().is_empty() {
            Rules::default()
        } else {
            serde_json::from_str(rules).map_err(|e| format!("not nardy rules: {e}"))?
        };
        let p = players(levels);
        let p = [
            p.first().copied().unwrap_or(tabletop_play::Player::Human),
            p.get(1).copied().unwrap_or(tabletop_play::Player::Human),
        ];
        Ok(NardyTable::wrap(nardy::new_table(rules, seed, p)))
    }

    /// Plays one step for the person: a checker from point `from` to point `to` (0 to
    /// bear off); the turn ends by itself when no die is left.
    pub fn step(&mut self, from: u8, to: u8) -> Result<(), String> {
        let step = Step::new(from, (to != 0).then_some(to)).map_err(|e| e.to_string())?;
        person_act(&mut self.table, Action::Play(Input::Step(step)))
    }

    /// Plays a whole turn written in the engine's notation (`24/18 18/13`, as the hints
    /// write it) for the person, from the start of the turn.
    pub fn play_turn(&mut self, turn: &str) -> Result<(), String> {
        let mv: nardy_core::Move = turn.parse().map_err(|e| format!("{e}"))?;
        person_act(&mut self.table, Action::Play(Input::Turn(mv)))
    }

    /// Every legal turn of the turn in progress (from its start) ranked by the search of
    /// `level` (1–3: the hand-made evaluation; 4–6: the learned one, 0 to 2 plies), best
    /// first, as JSON: `[{"turn", "equity", "loss", "win"}]`; from level 4 on, an error
    /// when the network is not loaded ([`crate::load_nardy_weights`]). Slow from level 4
    /// on: the page asks its worker.
    pub fn hints(&self, level_n: u8) -> Result<String, String> {
        let level = level(level_n)?;
        let game = self.table.game().game();
        if game.outcome().is_some() {
            return Ok("[]".into());
        }
        let mut search = match level.search_without_resources(game.rules()) {
            Some(search) => search,
            None => level.search(game.rules(), &resources()?),
        };
        let ranked = search.rank(game.position(), game.dice());
        let list: Vec<Value> = ranked
            .iter()
            .map(|r| {
                json!({
                    "turn": r.mv.to_string(),
                    "equity": r.equity,
                    "loss": r.loss,
                    "win": r.probabilities.win,
                })
            })
            .collect();
        Ok(Value::Array(list).to_string())
    }
}

pub(crate) fn color_index(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl NardyTable {
    fn wrap(table: Table<Nardy>) -> NardyTable {
        NardyTable { table }
    }

    /// The bot's action; a learned level's with the network
    /// [`crate::load_nardy_weights`] loaded.
    fn bot_choice(
        &self,
        _seat: Seat,
        level_n: u8,
        seed: u64,
    ) -> Result<Option<Action<Input>>, String> {
        let Some(level) = Level::new(level_n) else {
            return Ok(None);
        };
        let nardy = self.table.game();
        let rules = nardy.game().rules();
        let mut bot = match level.bot_without_resources(rules) {
            Some(bot) => bot,
            None => level.bot_with(rules, &resources()?),
        };
        Ok(nardy::bot_action(nardy, bot.as_mut(), &mut rng(seed)))
    }

    fn describe(&self, map: &mut Map<String, Value>) {
        let nardy = self.table.game();
        let game = nardy.game();
        let pos = nardy.position();
        let over = game.outcome().is_some();
        let builder = nardy.builder();
        let legal: Vec<[u8; 2]> = builder
            .as_ref()
            .map(|b| b.legal_steps().iter().map(step_pair).collect())
            .unwrap_or_default();
        let history = history_json(game.history());
        position_fields(map, &pos);
        map.insert(
            "dice".into(),
            json!((!over).then(|| [game.dice().high(), game.dice().low()])),
        );
        map.insert(
            "dice_left".into(),
            json!(
                builder
                    .as_ref()
                    .map(|b| b.remaining_dice())
                    .unwrap_or_default()
            ),
        );
        map.insert(
            "played".into(),
            json!(
                nardy
                    .played()
                    .iter()
                    .map(|s| [s.from(), s.to().unwrap_or(0)])
                    .collect::<Vec<_>>()
            ),
        );
        map.insert("legal".into(), json!(legal));
        map.insert("notation".into(), json!(game.position().to_string()));
        map.insert("side".into(), json!(color_index(game.side_to_move())));
        map.insert("history".into(), json!(history));
        if let Some(outcome) = game.outcome() {
            map.insert("result".into(), json!(outcome.to_string()));
        } else if let Some(e) = self.table.ending() {
            map.insert("result".into(), json!(e.score.to_string()));
        }
    }
}

/// What the page draws of a position, offline and online alike: each side's checkers by
/// point, checkers borne off and pip counts (White first).
pub(crate) fn position_fields(map: &mut Map<String, Value>, pos: &nardy_core::Position) {
    map.insert("white".into(), json!(pos.board(Color::White)));
    map.insert("black".into(), json!(pos.board(Color::Black)));
    map.insert(
        "off".into(),
        json!([pos.borne_off(Color::White), pos.borne_off(Color::Black)]),
    );
    map.insert(
        "pips".into(),
        json!([pos.pip_count(Color::White), pos.pip_count(Color::Black)]),
    );
}

/// The turns played, as the page lists them: side, dice, the turn and its steps.
pub(crate) fn history_json(history: &[nardy_core::TurnRecord]) -> Vec<Value> {
    history
        .iter()
        .map(|t| {
            json!({
                "color": color_index(t.color),
                "dice": [t.dice.high(), t.dice.low()],
                "turn": t.mv.to_string(),
                "steps": t.mv.steps().iter().map(step_pair).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// A step as the page reads it: from, to (0: off the board).
pub(crate) fn step_pair(s: &Step) -> [u8; 2] {
    [s.from(), s.to().unwrap_or(0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(t: &NardyTable) -> Value {
        serde_json::from_str(&t.view()).unwrap()
    }

    #[test]
    fn steps_from_the_view_play_a_turn_and_the_bot_answers() {
        let mut t = NardyTable::new(&[0, 2], "", 11).unwrap();
        // Let the bot play first if it won the roll-off.
        while let Some(bot) = t.bot_action(3).unwrap() {
            let bot: Value = serde_json::from_str(&bot).unwrap();
            let seat = bot["seat"].as_u64().unwrap() as u8;
            t.act(seat, bot["action"].as_str().unwrap()).unwrap();
        }
        let v = view(&t);
        assert_eq!(v["side"], 0, "White, the person, is to move");
        let before = v["version"].as_u64().unwrap();
        while view(&t)["side"] == 0 && view(&t)["ending"].is_null() {
            let step = view(&t)["legal"][0].clone();
            t.step(
                step[0].as_u64().unwrap() as u8,
                step[1].as_u64().unwrap() as u8,
            )
            .unwrap();
        }
        assert!(view(&t)["version"].as_u64().unwrap() > before);
        assert!(t.step(1, 30).is_err());
        assert!(t.play_turn("24/18 18/13").is_err(), "not White's turn");
        let hints: Value = serde_json::from_str(&t.hints(3).unwrap()).unwrap();
        assert!(view(&t)["bot"].is_object());
        assert!(!hints.as_array().unwrap().is_empty());
        t.undo().unwrap();
        let copy = NardyTable::load(&t.to_bytes()).unwrap();
        assert_eq!(copy.view(), t.view());
    }

    #[test]
    fn a_learned_level_needs_the_network_and_plays_once_it_is_loaded() {
        // The bot plays White, so it acts first (after the roll-off it may be Black's
        // turn: then the person steps until the bot is to act).
        let mut t = NardyTable::new(&[4, 0], "", 5).unwrap();
        while view(&t)["bot"].is_null() {
            let step = view(&t)["legal"][0].clone();
            let (from, to) = (step[0].as_u64().unwrap(), step[1].as_u64().unwrap());
            t.step(from as u8, to as u8).unwrap();
        }
        let before = view(&t);
        let err = t.bot_action(3).unwrap_err();
        assert_eq!(
            err,
            "the nardy bot's network is not loaded (load_nardy_weights first)"
        );
        assert!(t.hints(4).unwrap_err().contains("not loaded"));
        assert!(t.hints(3).is_ok(), "the hand-made hints need no network");
        assert_eq!(view(&t), before, "a failed bot changes nothing");
        crate::load_nardy_weights(crate::nardy_weights::tests::FILE).unwrap();
        let bot: Value = serde_json::from_str(&t.bot_action(3).unwrap().unwrap()).unwrap();
        t.act(
            bot["seat"].as_u64().unwrap() as u8,
            bot["action"].as_str().unwrap(),
        )
        .unwrap();
        assert!(view(&t)["version"].as_u64() > before["version"].as_u64());
        let hints: Value = serde_json::from_str(&t.hints(4).unwrap()).unwrap();
        assert!(hints.is_array());
    }
}
