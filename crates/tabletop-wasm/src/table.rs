//! What the four games' bindings share: loading, saving, acting for the person at this
//! page, undo and redo, and the table's part of every view. The rules stay in the match
//! layer and the engines: this module only forwards and describes.

use serde_json::{Map, Value, json};
use tabletop_play::{Action, EndReason, Player, Seat, Table, TableGame};

/// A table from a save (the TTPL format, or an engine's own save), with a message for a
/// person when the bytes are not a save of this game.
pub(crate) fn load<G: TableGame>(bytes: &[u8]) -> Result<Table<G>, String> {
    Table::<G>::from_bytes(bytes).map_err(|e| format!("cannot open this {} save: {e}", G::NAME))
}

/// The seat of the person at this page: the seat to act when a person plays it, else
/// the first seat a person plays.
pub(crate) fn person_seat<G: TableGame>(table: &Table<G>) -> Option<Seat> {
    let players = table.players();
    if let Some(seat) = table.to_act()
        && players.get(seat.index()) == Some(&Player::Human)
    {
        return Some(seat);
    }
    players
        .iter()
        .position(|p| *p == Player::Human)
        .map(|i| Seat(i as u8))
}

/// Applies `action` for the person's seat; the refusal's words on failure.
pub(crate) fn person_act<G: TableGame>(
    table: &mut Table<G>,
    action: Action<G::Input>,
) -> Result<(), String> {
    let seat = person_seat(table).ok_or("no person sits at this table")?;
    table
        .apply(seat, action)
        .map(drop)
        .map_err(|r| r.to_string())
}

/// Applies an action written as JSON (what [`bot_json`] returns, from the worker) for
/// `seat`.
pub(crate) fn act_json<G: TableGame>(
    table: &mut Table<G>,
    seat: u8,
    action: &str,
) -> Result<(), String> {
    let action: Action<G::Input> =
        serde_json::from_str(action).map_err(|e| format!("not an action: {e}"))?;
    table
        .apply(Seat(seat), action)
        .map(drop)
        .map_err(|r| r.to_string())
}

/// The action as JSON for [`act_json`].
pub(crate) fn action_json<I: serde::Serialize>(action: &Action<I>) -> String {
    serde_json::to_string(action).unwrap_or_default()
}

/// Whether the person's `action` (undo or redo) would be accepted now: asked of a copy.
fn would_accept<G: TableGame>(table: &Table<G>, action: Action<G::Input>) -> bool {
    let mut copy = table.clone();
    person_act(&mut copy, action).is_ok()
}

/// The table's part of a view: game, version, players, the seat to act, the bot to run,
/// the ending, whether undo and redo are possible.
pub(crate) fn common<G: TableGame>(table: &Table<G>) -> Map<String, Value> {
    let players: Vec<Value> = table
        .players()
        .iter()
        .map(|p| match p {
            Player::Human => json!({"kind": "human"}),
            Player::Bot(level) => json!({"kind": "bot", "level": level}),
            Player::Remote => json!({"kind": "remote"}),
        })
        .collect();
    let ending = table.ending().map(|e| {
        json!({
            "winner": e.winner.map(|s| s.0),
            "reason": reason_name(e.reason),
        })
    });
    let mut map = Map::new();
    map.insert("game".into(), G::NAME.into());
    map.insert("version".into(), table.version().into());
    map.insert("players".into(), players.into());
    map.insert("to_act".into(), json!(table.to_act().map(|s| s.0)));
    map.insert(
        "bot".into(),
        json!(
            table
                .bot_to_act()
                .map(|(seat, level)| json!({"seat": seat.0, "level": level}))
        ),
    );
    map.insert("person".into(), json!(person_seat(table).map(|s| s.0)));
    map.insert("ending".into(), json!(ending));
    map.insert("can_undo".into(), would_accept(table, Action::Undo).into());
    map.insert("can_redo".into(), would_accept(table, Action::Redo).into());
    map
}

/// Players from the page's settings: `0` for a person, a level for a bot.
pub(crate) fn players(levels: &[u8]) -> Vec<Player> {
    levels
        .iter()
        .map(|&l| {
            if l == 0 {
                Player::Human
            } else {
                Player::Bot(l)
            }
        })
        .collect()
}

/// A generator from the page's seed (drawn with `crypto.getRandomValues`).
pub(crate) fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand::SeedableRng::seed_from_u64(seed)
}

/// The methods every game's bindings have, written once: open a save, save, the view
/// as JSON, the worker's action, undo, redo, resign.
macro_rules! table_methods {
    ($name:ident, $game:ty) => {
        #[wasm_bindgen::prelude::wasm_bindgen]
        impl $name {
            /// Opens a save: a table save (`TTPL`, as the terminal `tabletop` writes it)
            /// or the engine's own save; a message for a person when it is neither.
            pub fn load(bytes: &[u8]) -> Result<$name, String> {
                Ok($name::wrap(crate::table::load::<$game>(bytes)?))
            }

            /// The table as a save (`TTPL`), which the terminal `tabletop` opens.
            pub fn to_bytes(&self) -> Vec<u8> {
                self.table.to_bytes()
            }

            /// What the person at this page sees, as JSON.
            pub fn view(&self) -> String {
                let mut map = crate::table::common(&self.table);
                self.describe(&mut map);
                serde_json::Value::Object(map).to_string()
            }

            /// Applies an action written as JSON (a bot's, from [`Self::bot_action`])
            /// for `seat`.
            pub fn act(&mut self, seat: u8, action: &str) -> Result<(), String> {
                crate::table::act_json(&mut self.table, seat, action)
            }

            /// Takes back to the person's last decision.
            pub fn undo(&mut self) -> Result<(), String> {
                crate::table::person_act(&mut self.table, tabletop_play::Action::Undo)
            }

            /// Plays again what undo took back.
            pub fn redo(&mut self) -> Result<(), String> {
                crate::table::person_act(&mut self.table, tabletop_play::Action::Redo)
            }

            /// The person gives the game up.
            pub fn resign(&mut self) -> Result<(), String> {
                crate::table::person_act(&mut self.table, tabletop_play::Action::Resign)
            }

            /// The action of the bot that must act now, as JSON for [`Self::act`]
            /// (with its seat: `{"seat": 1, "action": …}`), thought with randomness from
            /// `seed`; `None` when no bot is to act; an error when the bot cannot play
            /// (reversi's weights not loaded). The page runs this in its worker.
            pub fn bot_action(&self, seed: u64) -> Result<Option<String>, String> {
                let Some((seat, level)) = self.table.bot_to_act() else {
                    return Ok(None);
                };
                let Some(action) = self.bot_choice(seat, level, seed)? else {
                    return Ok(None);
                };
                Ok(Some(
                    serde_json::json!({
                        "seat": seat.0,
                        "action": crate::table::action_json(&action),
                    })
                    .to_string(),
                ))
            }
        }
    };
}

pub(crate) use table_methods;

/// How a game ended, as the page names it.
pub(crate) fn reason_name(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Rules => "rules",
        EndReason::Resigned => "resigned",
        EndReason::Timeout => "timeout",
        EndReason::Abandoned => "abandoned",
    }
}
