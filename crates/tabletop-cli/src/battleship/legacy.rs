//! The CLI's own battleship saves of before the tables (`TTBC`, versions 1 and 2), read
//! only: new saves are the table's (`TTPL`). Both line mode and the full screen wrote
//! these files; [`decode`] turns one into what a game goes on from.

use battleship_core::ai::Level;
use battleship_core::{Game, Placement, Rules, Ship};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use tabletop_play::battleship::{Battleship, new_table};
use tabletop_play::{Player, Table};

use crate::common::{CliError, CliResult};

/// The magic of the old saves.
pub(crate) const MAGIC: &[u8; 4] = b"TTBC";

/// What version 1 wrote: the engine's save plus the session around it.
#[derive(Deserialize)]
struct SaveFileV1 {
    game: Vec<u8>,
    /// The computer's level, counted from 0 (`Level::get() - 1`).
    bot: u32,
    rng: ChaCha8Rng,
}

/// What version 2 wrote.
#[derive(Deserialize)]
struct SaveFileV2 {
    state: SavedStateRepr,
    bot: Level,
    rng: ChaCha8Rng,
}

/// The game in a version 2 save.
#[derive(Deserialize)]
enum SavedStateRepr {
    /// The engine's save of the battle.
    Battle(Vec<u8>),
    /// The ships placed so far.
    Placing { rules: Rules, ships: Vec<Ship> },
}

/// An old save as a table: you in seat 0, the computer of `level` in seat 1.
pub(crate) struct Legacy {
    /// The battle, or a table where nobody has placed a fleet yet.
    pub(crate) table: Table<Battleship>,
    pub(crate) level: Level,
    /// The generator the computer went on with.
    pub(crate) rng: ChaCha8Rng,
    /// Your hand placement under way, when the save was made during it.
    pub(crate) placing: Option<Placement>,
}

/// Whether `bytes` are an old save.
pub(crate) fn is_legacy(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn corrupt() -> CliError {
    CliError::new("the save file is corrupt or truncated")
}

/// A postcard body that must use every byte.
fn strict<T: serde::de::DeserializeOwned>(body: &[u8]) -> CliResult<T> {
    match postcard::take_from_bytes(body) {
        Ok((value, [])) => Ok(value),
        _ => Err(corrupt()),
    }
}

fn players(level: Level) -> [Player; 2] {
    [Player::Human, Player::Bot(level.get())]
}

/// An old save, checked, as a table.
pub(crate) fn decode(bytes: &[u8]) -> CliResult<Legacy> {
    if bytes.len() < 6 || !is_legacy(bytes) {
        return Err(CliError::new("not a Battleship save file"));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    let body = &bytes[6..];
    let (state, level, rng) = match version {
        1 => {
            let save: SaveFileV1 = strict(body)?;
            let level = u8::try_from(save.bot)
                .ok()
                .and_then(|n| Level::new(n.checked_add(1)?))
                .ok_or_else(corrupt)?;
            (SavedStateRepr::Battle(save.game), level, save.rng)
        }
        2 => {
            let save: SaveFileV2 = strict(body)?;
            (save.state, save.bot, save.rng)
        }
        0 => return Err(corrupt()),
        _ => {
            return Err(CliError::new(format!(
                "save file version {version} is newer than this program understands"
            )));
        }
    };
    let (table, placing) = match state {
        SavedStateRepr::Battle(game) => {
            let game = Game::from_bytes(&game)?;
            let table = Table::new(Battleship::from_game(game), &players(level));
            (table, None)
        }
        SavedStateRepr::Placing { rules, ships } => {
            let mut placement = Placement::new(rules.clone());
            for ship in ships {
                placement.place(ship).map_err(|e| {
                    CliError::new(format!("the save holds an impossible placement: {e}"))
                })?;
            }
            (new_table(rules, players(level)), Some(placement))
        }
    };
    Ok(Legacy {
        table,
        level,
        rng,
        placing,
    })
}
