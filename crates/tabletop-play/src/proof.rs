//! The proof that a nardy table's dice were fair: what the server committed to, what each
//! seat contributed, and the game seed made from them, kept in the table's save as its
//! provenance so that anyone can check every roll offline (`tabletop nardy verify`).
//!
//! This module only holds and encodes the proof; `verify.rs` checks it, once for every
//! frontend (`tabletop nardy verify`, the browser page).

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use tabletop_common::{Format, LoadError};

/// The encoding of a [`DiceProof`]: magic `TTDP`, version 1, then the proof in postcard.
pub const PROOF_FORMAT: Format = Format::new(*b"TTDP", 1, "dice proof");

/// A nardy table's dice proof. The formula the server follows (docs/protocol.md):
/// `commitment = SHA-256(server_seed)`, published when the table is made;
/// `game_seed` = the first 8 bytes, little-endian, of
/// `SHA-256(server_seed ‖ seeds[0] ‖ seeds[1])`; the dice are those of
/// `nardy_core::Game::new(rules, game_seed)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceProof {
    /// SHA-256 of `server_seed`, as the server published it.
    pub commitment: [u8; 32],
    /// The server's secret seed (revealed to players once the game is over).
    pub server_seed: [u8; 32],
    /// Each seat's contribution (32 zero bytes stand in for a bot's seat).
    pub seeds: [[u8; 32]; 2],
    /// The seed the game's dice come from.
    pub game_seed: u64,
}

impl DiceProof {
    /// The proof as bytes ([`PROOF_FORMAT`]), for [`crate::Table::set_provenance`].
    pub fn to_bytes(&self) -> Vec<u8> {
        PROOF_FORMAT.encode(self)
    }

    /// A proof from [`DiceProof::to_bytes`]; `NotASave` when the bytes are something else
    /// (a table without a dice proof has an empty provenance).
    pub fn from_bytes(bytes: &[u8]) -> Result<DiceProof, LoadError> {
        PROOF_FORMAT.decode(bytes).map(|(_, proof)| proof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_round_trips_and_junk_is_refused() {
        let proof = DiceProof {
            commitment: [1; 32],
            server_seed: [2; 32],
            seeds: [[3; 32], [0; 32]],
            game_seed: 0x0102_0304_0506_0708,
        };
        assert_eq!(DiceProof::from_bytes(&proof.to_bytes()), Ok(proof));
        assert!(DiceProof::from_bytes(b"").is_err());
        assert!(DiceProof::from_bytes(&proof.to_bytes()[..40]).is_err());
    }
}
