//! Checking a nardy table's dice proof ([`DiceProof`]): that SHA-256 of the revealed server
//! seed is the commitment, that the game seed is the formula's, and that every roll of the
//! game is the one `Game::new(rules, game seed)` throws when its turns are replayed. The
//! one check of every frontend: `tabletop nardy verify` reads the proof from a save, the
//! browser page from the server's messages at the end of a game.

use alloc::format;
use alloc::string::{String, ToString};

use nardy_core::{Dice, Game, RollOff, Rules, TurnRecord};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::proof::DiceProof;

/// SHA-256 of the server's seed: the commitment it publishes when the table is made.
pub fn commitment_of(server_seed: &[u8; 32]) -> [u8; 32] {
    Sha256::digest(server_seed).into()
}

/// The game seed: the first 8 bytes, little-endian, of
/// SHA-256(server seed ‖ seed of seat 0 ‖ seed of seat 1).
pub fn game_seed(server_seed: &[u8; 32], seeds: &[[u8; 32]; 2]) -> u64 {
    let mut hasher = Sha256::new();
    hasher.update(server_seed);
    hasher.update(seeds[0]);
    hasher.update(seeds[1]);
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// The rolls a game showed, to check against a seed.
#[derive(Debug, Clone, Copy)]
pub struct Played<'a> {
    /// The rules the game was played under.
    pub rules: &'a Rules,
    /// The roll-off, when known (`None`: not known, as in a view, which does not show it;
    /// `Some(None)`: the game had none).
    pub roll_off: Option<Option<&'a RollOff>>,
    /// The turns played, each with its colour and dice.
    pub history: &'a [TurnRecord],
    /// The dice of the turn in progress, while the game goes on.
    pub pending: Option<Dice>,
}

impl<'a> Played<'a> {
    /// Everything `game` rolled.
    pub fn of_game(game: &'a Game) -> Played<'a> {
        Played {
            rules: game.rules(),
            roll_off: Some(game.roll_off()),
            history: game.history(),
            pending: game.outcome().is_none().then(|| game.dice()),
        }
    }
}

/// The first roll that is not the one the seed gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The turn (1 = the first turn played; 0 = the roll-off that picked the first mover).
    pub turn: usize,
    /// What the game rolled.
    pub rolled: String,
    /// What the seed gives.
    pub expected: String,
}

/// What checking a proof found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiceCheck {
    /// Whether SHA-256 of the server seed is the proof's commitment (and the one expected).
    pub commitment_ok: bool,
    /// Whether the proof's game seed is the formula's result.
    pub game_seed_ok: bool,
    /// The turns played.
    pub turns: usize,
    /// Rolls checked: the roll-off (when known), each turn's dice, the dice in progress.
    pub rolls_checked: usize,
    /// The first roll that differs, if any.
    pub first_mismatch: Option<Mismatch>,
}

impl DiceCheck {
    /// Whether every check passed.
    pub fn verified(&self) -> bool {
        self.commitment_ok && self.game_seed_ok && self.first_mismatch.is_none()
    }
}

/// Checks `proof` (and that its commitment is `expected_commitment`, when given: the one
/// published when the table was made) against the rolls of `played`.
pub fn check(
    proof: &DiceProof,
    expected_commitment: Option<&[u8; 32]>,
    played: Played<'_>,
) -> DiceCheck {
    let commitment_ok = commitment_of(&proof.server_seed) == proof.commitment
        && expected_commitment.is_none_or(|c| *c == proof.commitment);
    let game_seed_ok = game_seed(&proof.server_seed, &proof.seeds) == proof.game_seed;
    let (rolls_checked, first_mismatch) = replay(&played, proof.game_seed);
    DiceCheck {
        commitment_ok,
        game_seed_ok,
        turns: played.history.len(),
        rolls_checked,
        first_mismatch,
    }
}

/// Replays the turns played on a new game from `seed`, comparing every roll (and who
/// threw it); returns how many rolls matched before the first mismatch.
fn replay(played: &Played<'_>, seed: u64) -> (usize, Option<Mismatch>) {
    let mut fresh = Game::new(*played.rules, seed);
    let mut checked = 0;
    if let Some(roll_off) = played.roll_off {
        if fresh.roll_off() != roll_off {
            let text = |r: Option<&RollOff>| r.map_or_else(|| "none".into(), |r| format!("{r:?}"));
            let mismatch = Mismatch {
                turn: 0,
                rolled: text(roll_off),
                expected: text(fresh.roll_off()),
            };
            return (0, Some(mismatch));
        }
        checked += 1;
    }
    for (i, record) in played.history.iter().enumerate() {
        let side = fresh.side_to_move();
        if fresh.dice() != record.dice || side != record.color {
            let (rolled, expected) = if side == record.color {
                (record.dice.to_string(), fresh.dice().to_string())
            } else {
                (
                    format!("{} for {}", record.dice, record.color),
                    format!("{} for {}", fresh.dice(), side),
                )
            };
            let mismatch = Mismatch {
                turn: i + 1,
                rolled,
                expected,
            };
            return (checked, Some(mismatch));
        }
        checked += 1;
        if fresh.play(&record.mv).is_err() {
            // A turn the rules refuse with these dice: the game was not this seed's.
            let mismatch = Mismatch {
                turn: i + 1,
                rolled: format!("{} with the move {}", record.dice, record.mv),
                expected: "a legal move of those dice".into(),
            };
            return (checked, Some(mismatch));
        }
    }
    if let Some(dice) = played.pending {
        if fresh.dice() != dice {
            let mismatch = Mismatch {
                turn: played.history.len() + 1,
                rolled: dice.to_string(),
                expected: fresh.dice().to_string(),
            };
            return (checked, Some(mismatch));
        }
        checked += 1;
    }
    (checked, None)
}
