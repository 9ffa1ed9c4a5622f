//! Saves: the shared Tabletop format (magic `TTNA`, version 2), and the format-1 saves
//! (`NARDY\x1a`, one version byte) of earlier releases, which still load.
//!
//! A loaded game is rebuilt by replaying its turns through the rules, and the dice of every
//! turn after the first are checked against the saved generator, so a save can only hold a
//! game the rules and the dice allow.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use tabletop_common::{Format, LoadError, decode_body};

use crate::dice::{Dice, RollOff};
use crate::game::{Game, TurnRecord};
use crate::movegen::Move;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::rules::{Opening, Rules};

/// The save format of Long Nardy games: magic `TTNA`, version 2.
pub const SAVE_FORMAT: Format = Format::new(*b"TTNA", 2, "Long Nardy");

/// The header of format-1 saves: these six bytes, then the version byte 1.
const V1_MAGIC: [u8; 6] = *b"NARDY\x1a";

/// The body of a version-2 save, as written.
#[derive(Serialize)]
struct SaveRef<'a> {
    rules: &'a Rules,
    roll_off: &'a Option<RollOff>,
    initial: &'a Position,
    base_turns: u64,
    base_rng: &'a ChaCha8Rng,
    base_dice: Dice,
    history: &'a [TurnRecord],
    redo: &'a [Move],
}

/// The body of a version-2 save, as read: the current position, dice, generator and
/// result follow from replaying `history`.
#[derive(Deserialize)]
struct SaveV2 {
    rules: Rules,
    roll_off: Option<RollOff>,
    initial: Position,
    base_turns: u64,
    base_rng: ChaCha8Rng,
    base_dice: Dice,
    history: Vec<TurnRecord>,
    redo: Vec<Move>,
}

/// The body of a format-1 save.
#[derive(Deserialize)]
struct SaveV1 {
    rules: Rules,
    roll_off: Option<RollOff>,
    initial: Position,
    position: Position,
    dice: Dice,
    rng: ChaCha8Rng,
    history: Vec<TurnRecord>,
    outcome: Option<Outcome>,
}

/// What a game is rebuilt from.
struct Parts {
    rules: Rules,
    roll_off: Option<RollOff>,
    initial: Position,
    base_turns: usize,
    base_rng: ChaCha8Rng,
    base_dice: Dice,
    history: Vec<TurnRecord>,
}

impl Game {
    /// The game as a save in [`SAVE_FORMAT`]: the rules, the start, the generator and the
    /// turns (including those taken back that [`Game::redo`] can replay).
    pub fn to_bytes(&self) -> Vec<u8> {
        let base_dice = self
            .history
            .get(self.base_turns)
            .map_or(self.dice, |r| r.dice);
        SAVE_FORMAT.encode(&SaveRef {
            rules: &self.rules,
            roll_off: &self.roll_off,
            initial: &self.initial,
            base_turns: self.base_turns as u64,
            base_rng: &self.base_rng,
            base_dice,
            history: &self.history,
            redo: &self.redo,
        })
    }

    /// Loads a save written by [`Game::to_bytes`], or by an earlier release in format 1.
    /// Bad, truncated, over-long, inconsistent or newer-version data is an error, never a
    /// panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        if let Some(rest) = bytes.strip_prefix(&V1_MAGIC) {
            return match rest.split_first() {
                Some((1, body)) => load_v1(decode_body(body)?),
                Some((&v, _)) if v > 1 => Err(LoadError::NewerVersion {
                    game: SAVE_FORMAT.game(),
                    found: u16::from(v),
                    supported: SAVE_FORMAT.version(),
                }),
                _ => Err(LoadError::Corrupt),
            };
        }
        let (_version, save): (u16, SaveV2) = SAVE_FORMAT.decode(bytes)?;
        let base_turns = usize::try_from(save.base_turns).map_err(|_| LoadError::Corrupt)?;
        let mut game = rebuild(Parts {
            rules: save.rules,
            roll_off: save.roll_off,
            initial: save.initial,
            base_turns,
            base_rng: save.base_rng,
            base_dice: save.base_dice,
            history: save.history,
        })
        .map_err(LoadError::Illegal)?;
        let mut check = game.clone();
        for mv in save.redo.iter().rev() {
            check
                .apply(mv, true)
                .map_err(|e| LoadError::Illegal(format!("a turn to redo is illegal: {e}")))?;
        }
        game.redo = save.redo;
        Ok(game)
    }
}

/// A format-1 save. It holds only the generator's current state; a game started with
/// [`Game::new`] or [`Game::from_position`] began at the generator's word 0, so replaying
/// from there recovers the generator of every turn and the game can be undone to its
/// start. Otherwise the saved turns are final.
fn load_v1(save: SaveV1) -> Result<Game, LoadError> {
    let traced = trace_from_word_zero(&save).and_then(|(base_rng, base_dice)| {
        let game = rebuild(Parts {
            rules: save.rules,
            roll_off: save.roll_off.clone(),
            initial: save.initial,
            base_turns: 0,
            base_rng,
            base_dice,
            history: save.history.clone(),
        })
        .ok()?;
        (game.rng == save.rng && game.dice == save.dice).then_some(game)
    });
    let game = match traced {
        Some(game) => game,
        None => rebuild(Parts {
            rules: save.rules,
            roll_off: save.roll_off,
            initial: save.initial,
            base_turns: save.history.len(),
            base_rng: save.rng,
            base_dice: save.dice,
            history: save.history,
        })
        .map_err(LoadError::Illegal)?,
    };
    if game.position != save.position {
        return Err(LoadError::Illegal(
            "the position does not follow from the history".into(),
        ));
    }
    if game.outcome != save.outcome {
        return Err(LoadError::Illegal(
            "the result does not follow from the history".into(),
        ));
    }
    Ok(game)
}

/// The generator and first dice of a format-1 game, if it began at word 0 of its
/// generator (the roll-off, then the first dice, as [`Game::with_rng`] and
/// [`Game::from_position`] throw them).
fn trace_from_word_zero(save: &SaveV1) -> Option<(ChaCha8Rng, Dice)> {
    let mut rng = save.rng.clone();
    rng.set_word_pos(0);
    let dice = match &save.roll_off {
        Some(saved) => {
            if RollOff::roll(&mut rng) != *saved {
                return None;
            }
            match save.rules.opening {
                Opening::RollOff => saved.dice(),
                Opening::Reroll => Dice::roll(&mut rng),
            }
        }
        None => Dice::roll(&mut rng),
    };
    Some((rng, dice))
}

/// Replays `parts.history` from the start; the reason in words when it breaks the rules
/// or the dice.
fn rebuild(parts: Parts) -> Result<Game, String> {
    if let Some(roll_off) = &parts.roll_off {
        let Some(&(w, b)) = roll_off.throws.last() else {
            return Err("the roll-off has no throw".into());
        };
        let valid_die = |d: u8| (1..=6).contains(&d);
        let ties = &roll_off.throws[..roll_off.throws.len() - 1];
        if roll_off
            .throws
            .iter()
            .any(|&(x, y)| !valid_die(x) || !valid_die(y))
            || ties.iter().any(|&(x, y)| x != y)
            || w == b
        {
            return Err("the roll-off is not a series of ties ended by a decisive throw".into());
        }
        if parts.initial != Position::start().with_side_to_move(roll_off.winner()) {
            return Err("a game with a roll-off starts from the start position".into());
        }
    }
    if parts.initial.finished().is_some() {
        return Err("the game starts finished".into());
    }
    if parts.base_turns > parts.history.len() {
        return Err("more turns marked final than turns played".into());
    }
    let roll_off_dice = parts
        .roll_off
        .as_ref()
        .filter(|_| parts.rules.opening == Opening::RollOff)
        .map(RollOff::dice);
    let first_dice = parts.history.first().map_or(parts.base_dice, |r| r.dice);
    if roll_off_dice.is_some_and(|d| d != first_dice) {
        return Err("the first dice differ from the roll-off".into());
    }
    let mut game = Game::starting(
        parts.rules,
        parts.roll_off,
        parts.initial,
        first_dice,
        parts.base_rng.clone(),
    );
    for (i, record) in parts.history.iter().enumerate() {
        let n = i + 1;
        if game.outcome.is_some() {
            return Err(format!("turn {n} is played after the end of the game"));
        }
        if record.color != game.position.side_to_move() {
            return Err(format!("turn {n} is played by the wrong side"));
        }
        if i < parts.base_turns {
            game.dice = record.dice;
        } else if i == parts.base_turns {
            if record.dice != parts.base_dice {
                return Err(format!("the dice of turn {n} differ from the saved dice"));
            }
            game.dice = record.dice;
            game.rng = parts.base_rng.clone();
        } else if record.dice != game.dice {
            return Err(format!(
                "the dice of turn {n} are not the ones the generator throws"
            ));
        }
        game.apply(&record.mv, i >= parts.base_turns)
            .map_err(|e| format!("turn {n} ({}) is illegal: {e}", record.mv))?;
    }
    if parts.history.len() == parts.base_turns {
        game.dice = parts.base_dice;
        game.rng = parts.base_rng.clone();
    }
    game.base_turns = parts.base_turns;
    game.base_rng = parts.base_rng;
    Ok(game)
}
