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
#[cfg_attr(test, derive(serde::Serialize))]
struct SaveFileV2 {
    state: SavedStateRepr,
    bot: Level,
    rng: ChaCha8Rng,
}

/// The game in a version 2 save.
#[derive(Deserialize)]
#[cfg_attr(test, derive(serde::Serialize))]
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

#[cfg(test)]
mod tests {
    use super::*;
    use battleship_core::UniformFleets;
    use rand::SeedableRng;
    use tabletop_play::Seat;

    /// A version 2 file as the old code wrote it.
    fn v2(state: SavedStateRepr, level: Level, rng: &ChaCha8Rng) -> Vec<u8> {
        let body = postcard::to_allocvec(&SaveFileV2 {
            state,
            bot: level,
            rng: rng.clone(),
        })
        .unwrap();
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&2u16.to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    #[test]
    fn a_version_2_placement_keeps_its_ships_and_the_computer() {
        let rules = Rules::russian();
        let rng = ChaCha8Rng::seed_from_u64(5);
        let ships: Vec<Ship> = ["a1 h 4", "a3 h 3"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let bytes = v2(
            SavedStateRepr::Placing {
                rules: rules.clone(),
                ships: ships.clone(),
            },
            Level::new(2).unwrap(),
            &rng,
        );
        let old = decode(&bytes).unwrap();
        assert_eq!(old.placing.unwrap().ships(), &ships[..]);
        assert_eq!(old.level, Level::new(2).unwrap());
        assert_eq!(old.rng, rng);
        assert!(!old.table.game().placed(Seat(0)) && !old.table.game().placed(Seat(1)));
        assert_eq!(old.table.players(), &[Player::Human, Player::Bot(2)]);
    }

    #[test]
    fn a_version_2_battle_becomes_a_table_at_the_same_shots() {
        let rules = Rules::russian();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let sampler = UniformFleets::new(&rules);
        let (a, b) = (sampler.sample(&mut rng), sampler.sample(&mut rng));
        let mut game = Game::new(rules, a, b).unwrap();
        game.play("e5".parse().unwrap()).unwrap();
        let bytes = v2(SavedStateRepr::Battle(game.to_bytes()), Level::MAX, &rng);
        let old = decode(&bytes).unwrap();
        assert!(old.placing.is_none());
        assert_eq!(old.table.game().game(), Some(&game));
        assert_eq!(old.table.players(), &[Player::Human, Player::Bot(5)]);
        // what is saved again is a table, which loads back equal
        let again = Table::<Battleship>::from_bytes(&old.table.to_bytes()).unwrap();
        assert_eq!(again, old.table);
        // junk is an error, never a panic
        assert!(decode(b"TTBC\x02\x00junk").is_err());
        assert!(decode(b"TTBC\x09\x00").is_err());
    }
}
