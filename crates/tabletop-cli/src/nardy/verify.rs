//! `tabletop nardy verify SAVE`: checks offline that a nardy game played on a server with
//! dice commitments had fair dice (docs/protocol.md, "Nardy dice commitments").
//!
//! It checks the dice proof kept in the save: that SHA-256 of the revealed server seed is
//! the commitment (and the one given with `--commitment`), that the game seed is
//! SHA-256(server seed ‖ seed 0 ‖ seed 1)'s first 8 bytes, little-endian, and that every
//! roll of the game (the roll-off, each turn's dice, the dice of the turn in progress) is
//! the one `Game::new(rules, game seed)` throws when the game's turns are replayed.

use std::path::Path;

use serde::Serialize;
use tabletop_play::Table;
use tabletop_play::nardy::{self, DiceProof, Mismatch, Nardy, Played};

use crate::common::{CliError, CliResult, JsonArg, load_file};

/// Bytes as lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What `verify` found (its `--json` output).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether every check passed.
    pub verified: bool,
    /// The commitment in the proof (hex).
    pub commitment: String,
    /// The server's revealed seed (hex).
    pub server_seed: String,
    /// Each seat's seed (hex; all zeros for a bot's seat).
    pub seeds: [String; 2],
    /// The game seed in the proof.
    pub game_seed: u64,
    /// Whether SHA-256 of the server seed is the commitment (and `--commitment`).
    pub commitment_ok: bool,
    /// Whether the game seed is the formula's result.
    pub game_seed_ok: bool,
    /// The turns played.
    pub turns: usize,
    /// Rolls checked: the roll-off, each turn's dice, the dice of a turn in progress.
    pub rolls_checked: usize,
    /// The first roll that differs, if any.
    pub first_mismatch: Option<Mismatch>,
}

/// Checks the dice proof of a nardy save; `Err` when the save has none or does not load.
/// The check itself is the match layer's ([`tabletop_play::nardy::check`]).
pub fn check(bytes: &[u8], expected_commitment: Option<&str>) -> Result<Verdict, String> {
    let table = Table::<Nardy>::from_bytes(bytes).map_err(|e| e.to_string())?;
    if table.provenance().is_empty() {
        return Err(
            "this save has no dice proof: only games of a tabletop server with \
                    dice commitments (protocol v1 `seed`) carry one"
                .into(),
        );
    }
    let proof = DiceProof::from_bytes(table.provenance())
        .map_err(|e| format!("the save's dice proof does not read: {e}"))?;
    let given_ok =
        expected_commitment.is_none_or(|c| c.eq_ignore_ascii_case(&hex(&proof.commitment)));
    let found = nardy::check(&proof, None, Played::of_game(table.game().game()));
    Ok(Verdict {
        verified: given_ok && found.verified(),
        commitment: hex(&proof.commitment),
        server_seed: hex(&proof.server_seed),
        seeds: proof.seeds.map(|s| hex(&s)),
        game_seed: proof.game_seed,
        commitment_ok: given_ok && found.commitment_ok,
        game_seed_ok: found.game_seed_ok,
        turns: found.turns,
        rolls_checked: found.rolls_checked,
        first_mismatch: found.first_mismatch,
    })
}

/// Runs `tabletop nardy verify`.
pub fn run(path: &Path, commitment: Option<&str>, json: JsonArg) -> CliResult {
    let bytes = load_file(path)?;
    let verdict = match check(&bytes, commitment) {
        Ok(v) => v,
        Err(why) => return Err(CliError::new(why).context(path.display())),
    };
    if json.json {
        json.print(&verdict)?;
    } else {
        print_verdict(&verdict, commitment.is_some());
    }
    if verdict.verified {
        Ok(())
    } else {
        Err(CliError::new("the dice do NOT check out").context(path.display()))
    }
}

fn print_verdict(v: &Verdict, given: bool) {
    let mark = |ok: bool| if ok { "ok" } else { "FAILED" };
    let bot = |s: &str| {
        if s.bytes().all(|b| b == b'0') {
            " (a bot's seat)"
        } else {
            ""
        }
    };
    println!("commitment   {}", v.commitment);
    println!("server seed  {}", v.server_seed);
    println!("seed 0       {}{}", v.seeds[0], bot(&v.seeds[0]));
    println!("seed 1       {}{}", v.seeds[1], bot(&v.seeds[1]));
    println!("game seed    {}", v.game_seed);
    let against = if given {
        "the commitment published and the one given"
    } else {
        "the commitment"
    };
    println!(
        "{}: SHA-256 of the server seed is {against}",
        mark(v.commitment_ok)
    );
    println!(
        "{}: the game seed is SHA-256(server seed, seed 0, seed 1)",
        mark(v.game_seed_ok)
    );
    match &v.first_mismatch {
        None => println!(
            "ok: all {} rolls of {} turns are the ones the game seed gives",
            v.rolls_checked, v.turns
        ),
        Some(m) if m.turn == 0 => println!(
            "FAILED: the roll-off was {} but the game seed gives {}",
            m.rolled, m.expected
        ),
        Some(m) => println!(
            "FAILED: turn {} rolled {} but the game seed gives {}",
            m.turn, m.rolled, m.expected
        ),
    }
    if v.verified {
        println!("verdict: the dice check out");
    } else {
        println!("verdict: the dice do NOT check out");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};
    use tabletop_play::Player;
    use tabletop_play::nardy::new_table;

    /// A game of `turns` turns from `dice_seed` with a proof whose game seed is `seed`.
    fn save(dice_seed: u64, proof_seed: Option<u64>, turns: usize) -> Vec<u8> {
        let mut table = new_table(Default::default(), dice_seed, [Player::Human; 2]);
        for _ in 0..turns {
            let seat = table.to_act().unwrap();
            let mv = table.game().game().legal_moves()[0].clone();
            let input = tabletop_play::nardy::Input::Turn(mv);
            table
                .apply(seat, tabletop_play::Action::Play(input))
                .unwrap();
        }
        let server_seed = [3u8; 32];
        let seeds = [[4u8; 32], [0; 32]];
        let digest = Sha256::digest([server_seed, seeds[0], seeds[1]].concat());
        let game_seed = u64::from_le_bytes(digest[..8].try_into().unwrap());
        let proof = DiceProof {
            commitment: Sha256::digest(server_seed).into(),
            server_seed,
            seeds,
            game_seed: proof_seed.unwrap_or(game_seed),
        };
        table.set_provenance(proof.to_bytes());
        table.to_bytes()
    }

    fn formula_seed() -> u64 {
        let digest = Sha256::digest([[3u8; 32], [4; 32], [0; 32]].concat());
        u64::from_le_bytes(digest[..8].try_into().unwrap())
    }

    #[test]
    fn a_fair_game_checks_out() {
        let v = check(&save(formula_seed(), None, 12), None).unwrap();
        assert!(v.verified, "{v:?}");
        assert_eq!((v.turns, v.rolls_checked), (12, 14));
        let c = v.commitment.clone();
        assert!(
            check(&save(formula_seed(), None, 3), Some(&c))
                .unwrap()
                .verified
        );
        let other = "0".repeat(64);
        let v = check(&save(formula_seed(), None, 3), Some(&other)).unwrap();
        assert!(!v.verified && !v.commitment_ok);
    }

    #[test]
    fn dice_from_another_seed_fail_at_the_first_roll_that_differs() {
        let v = check(&save(77, None, 12), None).unwrap();
        assert!(!v.verified && v.game_seed_ok && v.commitment_ok);
        let m = v.first_mismatch.unwrap();
        assert!(m.turn <= 2, "{m:?}");
        let v = check(&save(formula_seed(), Some(5), 4), None).unwrap();
        assert!(!v.verified && !v.game_seed_ok);
    }

    #[test]
    fn a_save_without_a_proof_says_so() {
        let table = new_table(Default::default(), 1, [Player::Human; 2]);
        let err = check(&table.to_bytes(), None).unwrap_err();
        assert!(err.contains("no dice proof"), "{err}");
        assert!(check(b"junk", None).is_err());
    }
}
