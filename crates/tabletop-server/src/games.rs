//! The four games behind one type: a [`Live`] table is a `tabletop_play::Table` of one of
//! the games, driven with JSON actions and answering with JSON events and views.
//!
//! The server decides no rule: every action goes through [`tabletop_play::Table`], which
//! validates it; this module only converts between JSON and the games' own types, builds
//! new tables from a [`Setup`] and asks the engines' bots for their actions.

use std::sync::{Arc, OnceLock};

use crate::identity::hex;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tabletop_play::{
    Action, LoadError, Player, Refusal, Seat, Settings, Table, TableGame, TimeControl, Viewer,
    battleship, nardy, reversi, sudoku,
};

/// The games a table can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Long Nardy.
    Nardy,
    /// Reversi (Othello).
    Reversi,
    /// Battleship.
    Battleship,
    /// Sudoku (one seat).
    Sudoku,
}

impl GameKind {
    /// The game's name in messages and in the database.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Nardy => "nardy",
            GameKind::Reversi => "reversi",
            GameKind::Battleship => "battleship",
            GameKind::Sudoku => "sudoku",
        }
    }

    /// The game of a name.
    pub fn from_name(name: &str) -> Option<GameKind> {
        [
            GameKind::Nardy,
            GameKind::Reversi,
            GameKind::Battleship,
            GameKind::Sudoku,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }

    /// How many seats a table of this game has.
    pub fn seats(self) -> usize {
        match self {
            GameKind::Sudoku => 1,
            _ => 2,
        }
    }

    /// The bot levels the server runs for this game (none for sudoku).
    pub fn bot_levels(self) -> Option<std::ops::RangeInclusive<u8>> {
        match self {
            GameKind::Nardy => Some(1..=nardy_core::ai::Level::MAX.get()),
            GameKind::Reversi => Some(1..=reversi_core::ai::Level::MAX.get()),
            GameKind::Battleship => Some(1..=battleship_core::ai::Level::MAX.get()),
            GameKind::Sudoku => None,
        }
    }
}

/// A time control as clients give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Minutes each seat starts with.
    #[serde(default)]
    pub minutes: u64,
    /// Seconds each seat starts with, added to the minutes (for short games).
    #[serde(default)]
    pub seconds: u64,
    /// Seconds added after each turn.
    #[serde(default)]
    pub increment_s: u64,
}

impl ClockSpec {
    /// Each seat's starting time, in milliseconds.
    pub fn initial_ms(self) -> u64 {
        self.minutes
            .saturating_mul(60)
            .saturating_add(self.seconds)
            .saturating_mul(1000)
    }
}

/// What a new table is made of: the game, its rule variant, the dice seed, the clock.
/// Stored with the table (the seed is a secret of the server until the game ends).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The game.
    pub game: GameKind,
    /// The rule variant as the engine's `Rules` in JSON (sudoku: `{"size": 9}`); `null`
    /// for the default.
    #[serde(default)]
    pub rules: Value,
    /// The seed of the table's randomness (nardy dice, the sudoku puzzle).
    pub seed: u64,
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// Nardy: the server's secret dice seed (hex, 32 bytes; see [`crate::dice`]); `None`
    /// for other games and for nardy tables made before dice commitments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
}

/// Sudoku's variant: the grid's side.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct SudokuRules {
    #[serde(default = "nine")]
    size: usize,
}

fn nine() -> usize {
    9
}

/// Why an action was not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActError {
    /// The action is not JSON of the game's actions.
    Malformed(String),
    /// The table refused it.
    Refused(Refusal),
}

/// What a version applied, as stored beside its events: replaying the inputs after a
/// snapshot rebuilds the table exactly (the tables are deterministic in their inputs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// A seat's action (a person's or a bot's) at `at` (ms).
    Act {
        /// The seat.
        seat: u8,
        /// The action, as the protocol has it.
        action: Value,
        /// When.
        at: u64,
    },
    /// The clock was looked at, at `at` (ms): a loss on time.
    Tick {
        /// When.
        at: u64,
    },
    /// The opponent claimed the game from `seat`, whose player stayed away past the
    /// grace period.
    Abandon {
        /// The seat that lost.
        seat: u8,
        /// When.
        at: u64,
    },
}

/// A table of one of the four games. Each room holds one, so the size of the largest
/// (nardy's, about 2 KB) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Live {
    /// Long Nardy.
    Nardy(Table<nardy::Nardy>),
    /// Reversi.
    Reversi(Table<reversi::Reversi>),
    /// Battleship.
    Battleship(Table<battleship::Battleship>),
    /// Sudoku.
    Sudoku(Table<sudoku::Sudoku>),
}

/// Runs `$body` with `$t` bound to the table inside, whatever the game.
macro_rules! each {
    ($live:expr, $t:ident => $body:expr) => {
        match $live {
            Live::Nardy($t) => $body,
            Live::Reversi($t) => $body,
            Live::Battleship($t) => $body,
            Live::Sudoku($t) => $body,
        }
    };
}

fn rules_of<R: serde::de::DeserializeOwned + Default>(value: &Value) -> Result<R, String> {
    if value.is_null() {
        return Ok(R::default());
    }
    serde_json::from_value(value.clone()).map_err(|e| format!("bad rules: {e}"))
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // The games' types serialize to JSON without fail (no maps with non-string keys).
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn apply_json<G: TableGame>(
    table: &mut Table<G>,
    seat: Seat,
    action: &Value,
    now: u64,
) -> Result<Vec<Value>, ActError> {
    let action: Action<G::Input> = serde_json::from_value(action.clone())
        .map_err(|e| ActError::Malformed(format!("not a {} action: {e}", G::NAME)))?;
    let events = table
        .apply_at(seat, action, now)
        .map_err(ActError::Refused)?;
    Ok(events.iter().map(to_json).collect())
}

impl Live {
    /// A new table for `setup` with `players` in its seats, checking the variant.
    pub fn new(setup: &Setup, players: &[Player]) -> Result<Live, String> {
        let settings = Settings {
            undo: false,
            clock: setup.clock.map(|c| TimeControl {
                initial_ms: c.initial_ms(),
                increment_ms: c.increment_s.saturating_mul(1000),
            }),
        };
        let players = players.to_vec();
        Ok(match setup.game {
            GameKind::Nardy => {
                let rules: nardy_core::Rules = rules_of(&setup.rules)?;
                let game = nardy::Nardy::new(nardy_core::Game::new(rules, setup.seed));
                Live::Nardy(Table::with_settings(game, players, settings))
            }
            GameKind::Reversi => {
                let rules: reversi_core::Rules = rules_of(&setup.rules)?;
                let game = reversi::Reversi::new(reversi_core::Game::new(rules));
                Live::Reversi(Table::with_settings(game, players, settings))
            }
            GameKind::Battleship => {
                let rules: battleship_core::Rules = rules_of(&setup.rules)?;
                let game = battleship::Battleship::new(rules);
                Live::Battleship(Table::with_settings(game, players, settings))
            }
            GameKind::Sudoku => {
                let rules: SudokuRules = if setup.rules.is_null() {
                    SudokuRules { size: 9 }
                } else {
                    serde_json::from_value(setup.rules.clone())
                        .map_err(|e| format!("bad rules: {e}"))?
                };
                let size = sudoku_core::Size::from_side(rules.size)
                    .filter(|s| s.side() <= 9)
                    .ok_or_else(|| format!("sudoku sizes are 4, 6 and 9, not {}", rules.size))?;
                let options = sudoku_core::GenerateOptions {
                    size,
                    ..Default::default()
                };
                let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
                let puzzle = sudoku_core::generate::puzzle(&options, &mut rng);
                let game = sudoku_core::Game::new(puzzle).map_err(|e| e.to_string())?;
                Live::Sudoku(Table::with_settings(
                    sudoku::Sudoku::new(game),
                    players,
                    settings,
                ))
            }
        })
    }

    /// The table of a save ([`Live::to_bytes`]), replayed through the rules.
    pub fn from_bytes(game: GameKind, bytes: &[u8]) -> Result<Live, LoadError> {
        Ok(match game {
            GameKind::Nardy => Live::Nardy(Table::from_bytes(bytes)?),
            GameKind::Reversi => Live::Reversi(Table::from_bytes(bytes)?),
            GameKind::Battleship => Live::Battleship(Table::from_bytes(bytes)?),
            GameKind::Sudoku => Live::Sudoku(Table::from_bytes(bytes)?),
        })
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        match self {
            Live::Nardy(_) => GameKind::Nardy,
            Live::Reversi(_) => GameKind::Reversi,
            Live::Battleship(_) => GameKind::Battleship,
            Live::Sudoku(_) => GameKind::Sudoku,
        }
    }

    /// The save (`TTPL`): holds every secret; never sent before the game ends.
    pub fn to_bytes(&self) -> Vec<u8> {
        each!(self, t => t.to_bytes())
    }

    /// Who plays each seat.
    pub fn players(&self) -> Vec<Player> {
        each!(self, t => t.players().to_vec())
    }

    /// The version (actions applied).
    pub fn version(&self) -> u64 {
        each!(self, t => t.version())
    }

    /// The seat to act, while the game goes on.
    pub fn to_act(&self) -> Option<Seat> {
        each!(self, t => t.to_act())
    }

    /// Whether `seat` may play an input now (battleship lets both seats place at once).
    pub fn may_act(&self, seat: Seat) -> bool {
        self.ending_json().is_none() && each!(self, t => t.game().may_act(seat))
    }

    /// The bot that must act now and its level.
    pub fn bot_to_act(&self) -> Option<(Seat, u8)> {
        each!(self, t => t.bot_to_act())
    }

    /// The result in JSON, once the game has ended.
    pub fn ending_json(&self) -> Option<Value> {
        each!(self, t => t.ending().map(to_json))
    }

    /// The winner, once the game has ended with one.
    pub fn winner(&self) -> Option<Seat> {
        each!(self, t => t.ending().and_then(|e| e.winner))
    }

    /// Applies a JSON action (`{"play": …}`, `"resign"`) for `seat` at `now` (ms).
    pub fn apply(&mut self, seat: Seat, action: &Value, now: u64) -> Result<Vec<Value>, ActError> {
        each!(self, t => apply_json(t, seat, action, now))
    }

    /// Applies a stored input again (rebuilding a table after a restart); an error if
    /// the table refuses it or it changes nothing, which only a corrupt log can cause.
    /// Returns the events it made.
    pub fn replay(&mut self, input: &Input) -> Result<Vec<Value>, String> {
        let before = self.version();
        let events = match input {
            Input::Act { seat, action, at } => self
                .apply(Seat(*seat), action, *at)
                .map_err(|e| format!("{e:?}"))?,
            Input::Tick { at } => self.tick(*at),
            Input::Abandon { seat, at } => self
                .abandon(Seat(*seat), *at)
                .map_err(|e| format!("{e:?}"))?,
        };
        if self.version() == before {
            return Err("the input changed nothing".into());
        }
        Ok(events)
    }

    /// Ends the game against `seat`, whose player left (the table refuses a bot's seat or
    /// a finished game).
    pub fn abandon(&mut self, seat: Seat, now: u64) -> Result<Vec<Value>, Refusal> {
        each!(self, t => t.abandon(seat, Some(now)).map(|events| events.iter().map(to_json).collect()))
    }

    /// Records a loss on time if the seat to act has run out at `now`.
    pub fn tick(&mut self, now: u64) -> Vec<Value> {
        each!(self, t => t.tick(now).iter().map(to_json).collect())
    }

    /// The moment (ms) the seat to act runs out of time if it does not act, on a clock.
    pub fn flag_at(&self, now: u64) -> Option<u64> {
        let seat = self.to_act()?;
        let clocks = each!(self, t => t.clocks().cloned())?;
        Some(now.saturating_add(clocks.left(seat, Some(now))))
    }

    /// What `viewer` sees, as JSON, with clocks at `now`.
    pub fn view(&self, viewer: Viewer, now: u64) -> Value {
        each!(self, t => to_json(&t.view_at(viewer, Some(now))))
    }

    /// The events after `version`, as JSON.
    pub fn events_since(&self, version: u64) -> Vec<Value> {
        each!(self, t => t.events_since(version).iter().map(to_json).collect())
    }

    /// Battleship: each seat's fleet commitment once it has placed its fleet, the
    /// SHA-256 (hex) of its salt ([`fleet_salt`]) followed by the fleet as compact
    /// JSON with sorted keys (as the final view shows it). `None` for the other games.
    pub fn fleet_commitments(&self, seed: u64) -> Option<Vec<Option<String>>> {
        let Live::Battleship(t) = self else {
            return None;
        };
        Some(
            (0..2u8)
                .map(|s| {
                    let fleet = t.game().fleet(Seat(s))?;
                    Some(hex(&tabletop_play::battleship::fleet_commitment(
                        &fleet_salt(seed, Seat(s)),
                        fleet,
                    )))
                })
                .collect(),
        )
    }

    /// A job that computes the action of the bot to act (`None` when no bot is to act):
    /// it runs on the bot pool, away from the event loop, on a copy of the game.
    pub fn bot_job(&self, seed: u64) -> Option<BotJob> {
        let (seat, level) = self.bot_to_act()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let job: BotJob = match self {
            Live::Nardy(t) => {
                let game = t.game().clone();
                Box::new(move || {
                    let rules = *game.game().rules();
                    let level = nardy_core::ai::Level::new(level)?;
                    let mut bot = if level.needs_resources() {
                        level.bot_with(&rules, nardy_resources())
                    } else {
                        level.bot(&rules)
                    };
                    nardy::bot_action(&game, bot.as_mut(), &mut rng).map(|a| to_json(&a))
                })
            }
            Live::Reversi(t) => {
                let game = t.game().clone();
                Box::new(move || {
                    let rules = game.game().rules();
                    let mut bot = reversi_core::ai::Level::new(level)?.bot(&rules);
                    reversi::bot_action(&game, bot.as_mut(), &mut rng).map(|a| to_json(&a))
                })
            }
            Live::Battleship(t) => {
                let game = t.game().clone();
                Box::new(move || {
                    let rules = game.rules().clone();
                    if !game.placed(seat) {
                        let fleet = battleship_core::UniformFleets::new(&rules).sample(&mut rng);
                        let action: Action<battleship::Input> =
                            Action::Play(battleship::Input::Place(fleet));
                        return Some(to_json(&action));
                    }
                    let mut bot = battleship_core::ai::Level::new(level)?.bot(&rules);
                    battleship::bot_shot(&game, bot.as_mut(), &mut rng).map(|a| to_json(&a))
                })
            }
            Live::Sudoku(_) => return None,
        };
        Some(job)
    }
}

/// The salt of a seat's fleet commitment: SHA-256 of `tabletop fleet salt`, the table's
/// secret seed (8 bytes, little-endian) and the seat number. Secret until the end, when
/// the server reveals it so anyone can check the commitments.
pub fn fleet_salt(seed: u64, seat: Seat) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"tabletop fleet salt");
    hasher.update(seed.to_le_bytes());
    hasher.update([seat.0]);
    hasher.finalize().into()
}

/// A bot's computation: returns its action as JSON.
pub type BotJob = Box<dyn FnOnce() -> Option<Value> + Send + 'static>;

/// The nardy bots' shared tables (bear-off database, network), built once.
fn nardy_resources() -> &'static nardy_core::ai::Resources {
    static RESOURCES: OnceLock<Arc<nardy_core::ai::Resources>> = OnceLock::new();
    RESOURCES.get_or_init(|| Arc::new(nardy_core::ai::Resources::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(game: GameKind) -> Setup {
        Setup {
            game,
            rules: Value::Null,
            seed: 3,
            clock: None,
            server_seed: None,
        }
    }

    #[test]
    fn every_game_builds_and_saves_and_refuses_junk() {
        for game in [
            GameKind::Nardy,
            GameKind::Reversi,
            GameKind::Battleship,
            GameKind::Sudoku,
        ] {
            let players = vec![Player::Remote; game.seats()];
            let mut live = Live::new(&setup(game), &players).unwrap();
            let copy = Live::from_bytes(game, &live.to_bytes()).unwrap();
            assert_eq!(copy, live);
            let junk = serde_json::json!({"play": {"nonsense": 1}});
            assert!(matches!(
                live.apply(Seat(0), &junk, 0),
                Err(ActError::Malformed(_))
            ));
            assert_eq!(copy, live);
            assert_eq!(GameKind::from_name(game.name()), Some(game));
        }
    }

    #[test]
    fn bad_variants_are_refused() {
        let mut s = setup(GameKind::Sudoku);
        s.rules = serde_json::json!({"size": 7});
        assert!(Live::new(&s, &[Player::Remote]).is_err());
        let mut s = setup(GameKind::Battleship);
        s.rules = serde_json::json!("nonsense");
        assert!(Live::new(&s, &[Player::Remote, Player::Remote]).is_err());
    }
}
