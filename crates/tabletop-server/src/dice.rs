//! Dice you can verify (nardy): the server commits to a secret seed when the table is
//! made, each person's seat contributes a seed before the first roll, and the game's dice
//! come from all of them; the server reveals its seed once the game is over.
//!
//! The formula (docs/protocol.md, "Nardy dice commitments"): the commitment is
//! SHA-256(server seed); the game seed is the first 8 bytes, little-endian, of
//! SHA-256(server seed ‖ seed of seat 0 ‖ seed of seat 1), a bot's seat standing in with
//! 32 zero bytes; the dice are those of `nardy_core::Game::new(rules, game seed)`.
//! Until every seed is in, the table holds a placeholder game whose dice nobody sees.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletop_play::Player;
use tabletop_play::nardy::DiceProof;

use crate::games::{Live, Setup};
use crate::identity::{hex, unhex};

/// The seed of the placeholder game a table holds until every seed is in: public and
/// meaningless, its dice are never shown nor played.
const PLACEHOLDER_SEED: u64 = 0;

/// What stands in for a bot's seat: 32 zero bytes.
pub const BOT_SEED: [u8; 32] = [0; 32];

/// The dice state of a nardy table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    /// The server's secret seed.
    pub server_seed: [u8; 32],
    /// Each seat's seed, once contributed (a bot's seat: [`BOT_SEED`] from the start).
    pub seeds: Vec<Option<[u8; 32]>>,
}

/// The `dice` of a nardy table's `table` message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceInfo {
    /// SHA-256 (hex) of the server's seed, published from the table's creation.
    pub commitment: String,
    /// Each seat's contribution (hex) as received; `null` until it is in.
    pub seeds: Vec<Option<String>>,
    /// The server's seed (hex), once the game is over.
    pub server_seed: Option<String>,
}

/// A 32-byte seed from 64 hex digits (either case), or why not.
pub fn parse_seed(text: &str) -> Result<[u8; 32], String> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("a seed is 64 hex digits (32 bytes)".into());
    }
    unhex(text)
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| "a seed is 64 hex digits (32 bytes)".into())
}

/// The game seed of a server seed and the two seats' seeds (the formula above, kept once
/// in the match layer beside the check every client runs).
pub fn game_seed(server_seed: &[u8; 32], seeds: &[[u8; 32]; 2]) -> u64 {
    tabletop_play::nardy::game_seed(server_seed, seeds)
}

impl Dice {
    /// A table's dice before any contribution: `bots[i]` says whether seat `i` is a
    /// bot's (whose seed is [`BOT_SEED`] at once).
    pub fn new(server_seed: [u8; 32], bots: &[bool]) -> Dice {
        Dice {
            server_seed,
            seeds: bots.iter().map(|&bot| bot.then_some(BOT_SEED)).collect(),
        }
    }

    /// The dice of a stored table: its setup's server seed (`None` for a table made
    /// before dice commitments, or of another game) and the stored contributions.
    pub fn of_setup(
        setup: &Setup,
        bots: &[bool],
        stored: &[(u8, String)],
    ) -> Result<Option<Dice>, String> {
        let Some(server_seed) = &setup.server_seed else {
            return Ok(None);
        };
        let mut dice = Dice::new(parse_seed(server_seed)?, bots);
        for (seat, seed) in stored {
            let slot = dice
                .seeds
                .get_mut(usize::from(*seat))
                .ok_or_else(|| format!("a seed for seat {seat}"))?;
            *slot = Some(parse_seed(seed)?);
        }
        Ok(Some(dice))
    }

    /// SHA-256 of the server's seed.
    pub fn commitment(&self) -> [u8; 32] {
        tabletop_play::nardy::commitment_of(&self.server_seed)
    }

    /// Every seat's seed, once all are in.
    fn all_seeds(&self) -> Option<[[u8; 32]; 2]> {
        match self.seeds.as_slice() {
            [Some(a), Some(b)] => Some([*a, *b]),
            _ => None,
        }
    }

    /// Whether every seed is in (the dice exist from then on).
    pub fn complete(&self) -> bool {
        self.all_seeds().is_some()
    }

    /// The proof, once every seed is in.
    pub fn proof(&self) -> Option<DiceProof> {
        let seeds = self.all_seeds()?;
        Some(DiceProof {
            commitment: self.commitment(),
            server_seed: self.server_seed,
            seeds,
            game_seed: game_seed(&self.server_seed, &seeds),
        })
    }

    /// The `dice` of the `table` message; the server's seed only when `reveal`.
    pub fn info(&self, reveal: bool) -> DiceInfo {
        DiceInfo {
            commitment: hex(&self.commitment()),
            seeds: self.seeds.iter().map(|s| s.map(|s| hex(&s))).collect(),
            server_seed: reveal.then(|| hex(&self.server_seed)),
        }
    }

    /// The table at its start: the real game with its proof attached once every seed is
    /// in, the placeholder before.
    pub fn table(&self, setup: &Setup, players: &[Player]) -> Result<Live, String> {
        let proof = self.proof();
        let setup = Setup {
            seed: proof.map_or(PLACEHOLDER_SEED, |p| p.game_seed),
            ..setup.clone()
        };
        let mut live = Live::new(&setup, players)?;
        if let (Some(proof), Live::Nardy(table)) = (proof, &mut live) {
            table.set_provenance(proof.to_bytes());
        }
        Ok(live)
    }
}

/// A view of the placeholder game, as sent before the dice exist: no dice, no legal
/// step, nobody to act (the roll-off that picks the first mover is not thrown yet).
pub fn hide_dice(mut view: Value) -> Value {
    view["to_act"] = Value::Null;
    if let Some(state) = view.get_mut("state").and_then(Value::as_object_mut) {
        state.insert("dice".into(), Value::Null);
        state.insert("dice_left".into(), Value::Array(Vec::new()));
        state.insert("legal_steps".into(), Value::Array(Vec::new()));
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use sha2::{Digest, Sha256};

    #[test]
    fn the_formula_and_the_proof() {
        let mut dice = Dice::new([5; 32], &[false, true]);
        assert!(!dice.complete() && dice.proof().is_none());
        assert_eq!(dice.seeds[1], Some(BOT_SEED));
        dice.seeds[0] = Some([6; 32]);
        let proof = dice.proof().unwrap();
        let digest: [u8; 32] = Sha256::digest([[5u8; 32], [6; 32], [0; 32]].concat()).into();
        assert_eq!(
            proof.game_seed,
            u64::from_le_bytes(digest[..8].try_into().unwrap())
        );
        assert_eq!(
            proof.commitment,
            <[u8; 32]>::from(Sha256::digest([5u8; 32]))
        );
        let info = dice.info(false);
        assert_eq!(info.server_seed, None);
        assert_eq!(info.seeds[1].as_deref(), Some(&*"0".repeat(64)));
        assert_eq!(dice.info(true).server_seed, Some("05".repeat(32)));
    }

    #[test]
    fn seeds_are_64_hex_digits() {
        assert_eq!(parse_seed(&"aB".repeat(32)), Ok([0xab; 32]));
        for bad in [
            "",
            "ab",
            &"g0".repeat(32),
            &"+1".repeat(32),
            &"ab".repeat(33),
        ] {
            assert!(parse_seed(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_table_is_the_placeholder_until_every_seed_is_in() {
        let setup = Setup {
            game: GameKind::Nardy,
            rules: Value::Null,
            seed: 1,
            clock: None,
            server_seed: Some(hex(&[9; 32])),
        };
        let players = [Player::Remote, Player::Bot(1)];
        let stored = [(0u8, hex(&[4; 32]))];
        let dice = Dice::of_setup(&setup, &[false, true], &stored[..0])
            .unwrap()
            .unwrap();
        let Live::Nardy(placeholder) = dice.table(&setup, &players).unwrap() else {
            panic!("nardy");
        };
        assert!(placeholder.provenance().is_empty());
        let dice = Dice::of_setup(&setup, &[false, true], &stored)
            .unwrap()
            .unwrap();
        let Live::Nardy(real) = dice.table(&setup, &players).unwrap() else {
            panic!("nardy");
        };
        let proof = DiceProof::from_bytes(real.provenance()).unwrap();
        let game = nardy_core::Game::new(Default::default(), proof.game_seed);
        assert_eq!(real.game().game(), &game);
    }
}
