//! `tabletop nardy verify SAVE`: checks offline that a nardy game played on a server with
//! dice commitments had fair dice (docs/protocol.md, "Nardy dice commitments").
//!
//! It checks the dice proof kept in the save: that SHA-256 of the revealed server seed is
//! the commitment (and the one given with `--commitment`), that the game seed is
//! SHA-256(server seed ‖ seed 0 ‖ seed 1)'s first 8 bytes, little-endian, and that every
//! roll of the game (the roll-off, each turn's dice, the dice of the turn in progress) is
//! the one `Game::new(rules, game seed)` throws when the game's turns are replayed.

use std::path::Path;

use nardy_core::{Dice, Game};
use serde::Serialize;
use sha2::{Digest, Sha256};
use tabletop_play::Table;
use tabletop_play::nardy::{DiceProof, Nardy};

use crate::common::{CliError, CliResult, JsonArg, load_file};

/// Bytes as lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    let commitment: [u8; 32] = Sha256::digest(proof.server_seed).into();
    let commitment_ok = commitment == proof.commitment
        && expected_commitment.is_none_or(|c| c.eq_ignore_ascii_case(&hex(&proof.commitment)));
    let digest = Sha256::digest([proof.server_seed, proof.seeds[0], proof.seeds[1]].concat());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    let game_seed_ok = u64::from_le_bytes(first) == proof.game_seed;
    let played = table.game().game();
    let (rolls_checked, first_mismatch) = replay(played, proof.game_seed);
    Ok(Verdict {
        verified: commitment_ok && game_seed_ok && first_mismatch.is_none(),
        commitment: hex(&proof.commitment),
        server_seed: hex(&proof.server_seed),
        seeds: proof.seeds.map(|s| hex(&s)),
        game_seed: proof.game_seed,
        commitment_ok,
        game_seed_ok,
        turns: played.history().len(),
        rolls_checked,
        first_mismatch,
    })
}

/// Replays `played`'s turns on a new game from `seed`, comparing every roll; returns how
/// many rolls matched before the first mismatch (all of them if none).
fn replay(played: &Game, seed: u64) -> (usize, Option<Mismatch>) {
    let mut fresh = Game::new(*played.rules(), seed);
    let roll_off = |g: &Game| {
        g.roll_off()
            .map_or_else(|| "none".to_owned(), |r| format!("{r:?}"))
    };
    if fresh.roll_off() != played.roll_off() {
        let mismatch = Mismatch {
            turn: 0,
            rolled: roll_off(played),
            expected: roll_off(&fresh),
        };
        return (0, Some(mismatch));
    }
    let differs = |turn: usize, rolled: Dice, expected: Dice| Mismatch {
        turn,
        rolled: rolled.to_string(),
        expected: expected.to_string(),
    };
    let mut checked = 1;
    for (i, record) in played.history().iter().enumerate() {
        if fresh.dice() != record.dice {
            return (checked, Some(differs(i + 1, record.dice, fresh.dice())));
        }
        checked += 1;
        if fresh.play(&record.mv).is_err() {
            // Unreachable for a save that loaded: its turns were legal with these dice.
            return (checked, Some(differs(i + 1, record.dice, fresh.dice())));
        }
    }
    if played.outcome().is_none() {
        if fresh.dice() != played.dice() {
            let turn = played.history().len() + 1;
            return (checked, Some(differs(turn, played.dice(), fresh.dice())));
        }
        checked += 1;
    }
    (checked, None)
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
