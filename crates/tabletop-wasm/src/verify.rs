//! The checks a player runs at the end of an online game, from the server's own messages:
//! nardy's dice (the match layer's one check, `tabletop_play::nardy::check`, which
//! `tabletop nardy verify` runs on a save) and battleship's fleet commitments (that
//! SHA-256 of each seat's salt and final fleet is what the server published before the
//! first shot). Each answers `{"verified": bool, "text": "…"}` for the page to show.

use serde_json::{Value, json};
use tabletop_play::battleship::{Battleship, FleetCheck, check_fleets};
use tabletop_play::nardy::{self, DiceProof, Nardy, Played};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::online::parse;

/// 32 bytes from 64 hex digits, or what is wrong with `what`.
fn bytes32(text: &str, what: &str) -> Result<[u8; 32], String> {
    let bad = || format!("{what} is not 64 hex digits: {text:?}");
    if text.len() != 64 || !text.is_ascii() {
        return Err(bad());
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// The view inside a `view` message (or the view itself).
fn view_of(message: &str) -> Result<Value, String> {
    let message: Value =
        serde_json::from_str(message).map_err(|e| format!("not a view message: {e}"))?;
    Ok(message.get("view").cloned().unwrap_or(message))
}

fn answer(verified: bool, text: String) -> String {
    json!({"verified": verified, "text": text}).to_string()
}

/// Checks the dice of a finished online nardy game: `view` is the last `view` message
/// (its turns and their rolls), `dice` the `dice` of the last `table` message (with the
/// server's seed revealed), `commitment` the commitment the page saw when it opened the
/// table (hex; empty when it saw none), `seat` and `seed` the page's seat and the seed it
/// sent (`seed` empty when it sent none).
#[wasm_bindgen]
pub fn online_nardy_verify(
    view: &str,
    dice: &str,
    commitment: &str,
    seat: Option<u8>,
    seed: &str,
) -> Result<String, String> {
    let v = parse::<Nardy>(view_of(view)?)?;
    if v.ending.is_none() {
        return Err("the game is not over: the server's seed is still secret".into());
    }
    let dice: Value = serde_json::from_str(dice).map_err(|e| format!("not the dice: {e}"))?;
    let Some(server_seed) = dice["server_seed"].as_str() else {
        return Err("the server has not revealed its seed".into());
    };
    let server_seed = bytes32(server_seed, "the server's seed")?;
    let published = bytes32(
        dice["commitment"].as_str().unwrap_or_default(),
        "the commitment",
    )?;
    let mut seeds = [[0u8; 32]; 2];
    for (i, slot) in seeds.iter_mut().enumerate() {
        let text = dice["seeds"][i]
            .as_str()
            .ok_or(format!("seat {i} sent no seed"))?;
        *slot = bytes32(text, &format!("seat {i}'s seed"))?;
    }
    let proof = DiceProof {
        commitment: published,
        server_seed,
        seeds,
        game_seed: nardy::game_seed(&server_seed, &seeds),
    };
    let first = if commitment.is_empty() {
        None
    } else {
        Some(bytes32(commitment, "the commitment seen first")?)
    };
    if let (Some(seat), false) = (seat, seed.is_empty()) {
        let sent = bytes32(seed, "the seed sent")?;
        if seeds.get(usize::from(seat)) != Some(&sent) {
            return Ok(answer(
                false,
                "Dice NOT verified: the seed the server used for your seat is not the one you sent"
                    .into(),
            ));
        }
    }
    let s = &v.state;
    let played = Played {
        rules: &s.rules,
        roll_off: None,
        history: &s.history,
        pending: None,
    };
    let found = nardy::check(&proof, first.as_ref(), played);
    let text = if found.verified() {
        format!(
            "Dice verified: SHA-256 of the server's seed is the commitment published when the table was made, and all {} rolls of the {} turns follow from the server's and the players' seeds.",
            found.rolls_checked, found.turns
        )
    } else if !found.commitment_ok {
        "Dice NOT verified: SHA-256 of the server's revealed seed is not the commitment it published when the table was made.".into()
    } else if let Some(m) = &found.first_mismatch {
        format!(
            "Dice NOT verified: turn {} rolled {} but the seeds give {}.",
            m.turn, m.rolled, m.expected
        )
    } else {
        "Dice NOT verified: the game seed is not the formula's.".into()
    };
    Ok(answer(found.verified(), text))
}

/// Checks the fleets of a finished online battleship game with `tabletop-play`'s check:
/// `view` is the last `view` message (both fleets, shown at the end), `table` the last
/// `table` message (its `commitments` and `salts`), `first` the `commitments` the page saw
/// before the first shot (JSON; `null` when it saw none).
#[wasm_bindgen]
pub fn online_fleet_verify(view: &str, table: &str, first: &str) -> Result<String, String> {
    let v = parse::<Battleship>(view_of(view)?)?;
    if v.ending.is_none() {
        return Err("the game is not over: the salts are still secret".into());
    }
    let table: Value =
        serde_json::from_str(table).map_err(|e| format!("not a table message: {e}"))?;
    let first: Value = serde_json::from_str(first).unwrap_or(Value::Null);
    let hashes = |v: &Value, what: &str| -> Result<[Option<[u8; 32]>; 2], String> {
        let read = |seat: usize| v[seat].as_str().map(|h| bytes32(h, what)).transpose();
        Ok([read(0)?, read(1)?])
    };
    let check = check_fleets(
        &v.state.fleets,
        &hashes(&table["commitments"], "a fleet commitment")?,
        &hashes(&table["salts"], "a salt")?,
        &hashes(&first, "a fleet commitment")?,
    );
    let text = match check {
        FleetCheck::Verified { fleets: 1 } => "Fleets verified: 1 fleet at the end is the one the server committed to before the first shot.".to_owned(),
        FleetCheck::Verified { fleets } => format!("Fleets verified: {fleets} fleets at the end are the ones the server committed to before the first shot."),
        FleetCheck::NothingToCheck => "Fleets verified: 0 fleets at the end are the ones the server committed to before the first shot.".to_owned(),
        FleetCheck::NoSalt { .. } => return Err("the server has not revealed the salts".into()),
        FleetCheck::NotCommitted { seat } => format!(
            "Fleets NOT verified: seat {seat}'s fleet at the end is not the one the server committed to."
        ),
        FleetCheck::Changed { seat } => format!(
            "Fleets NOT verified: seat {seat}'s commitment changed after the page first saw it."
        ),
    };
    Ok(answer(check.verified(), text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop_play::battleship::Input as ShipInput;
    use tabletop_play::{Action, Player, Seat, Viewer};

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn a_fair_nardy_game_checks_out_and_any_change_is_named() {
        let (server, seeds) = ([9u8; 32], [[1u8; 32], [2u8; 32]]);
        let game_seed = nardy::game_seed(&server, &seeds);
        let mut table = nardy::new_table(Default::default(), game_seed, [Player::Remote; 2]);
        for _ in 0..10 {
            let seat = table.to_act().unwrap();
            let mv = table.game().game().legal_moves()[0].clone();
            table
                .apply(seat, Action::Play(nardy::Input::Turn(mv)))
                .unwrap();
        }
        table
            .apply(table.to_act().unwrap(), Action::Resign)
            .unwrap();
        let view = json!({"view": table.view(Viewer::Seat(Seat(0)))}).to_string();
        let commitment = hex(&nardy::commitment_of(&server));
        let dice = |server: &[u8; 32]| {
            json!({"commitment": commitment, "seeds": [hex(&seeds[0]), hex(&seeds[1])],
                   "server_seed": hex(server)})
            .to_string()
        };
        let run = |dice: &str, first: &str, seed: &str| -> Value {
            serde_json::from_str(&online_nardy_verify(&view, dice, first, Some(0), seed).unwrap())
                .unwrap()
        };
        let ok = run(&dice(&server), &commitment, &hex(&seeds[0]));
        assert_eq!(ok["verified"], true, "{ok}");
        assert!(
            ok["text"]
                .as_str()
                .unwrap()
                .contains("all 10 rolls of the 10 turns")
        );
        let other = run(&dice(&[8; 32]), &commitment, "");
        assert_eq!(other["verified"], false);
        assert!(
            other["text"]
                .as_str()
                .unwrap()
                .contains("not the commitment"),
            "{other}"
        );
        let mine = run(&dice(&server), "", &hex(&[7; 32]));
        assert!(
            mine["text"]
                .as_str()
                .unwrap()
                .contains("not the one you sent")
        );
        // Rolls of another game: named at the first turn that differs.
        let mut other_table = nardy::new_table(Default::default(), 1, [Player::Remote; 2]);
        other_table.apply(Seat(0), Action::Resign).unwrap();
        let mut v = table.view(Viewer::Spectator);
        let first = other_table.game().game().dice();
        v.state.history[0].dice = first;
        if first != table.game().game().history()[0].dice {
            let view = json!({"view": v}).to_string();
            let bad: Value = serde_json::from_str(
                &online_nardy_verify(&view, &dice(&server), "", None, "").unwrap(),
            )
            .unwrap();
            assert!(
                bad["text"].as_str().unwrap().contains("turn 1 rolled"),
                "{bad}"
            );
        }
        assert!(online_nardy_verify(&view, "{}", "", None, "").is_err());
    }

    #[test]
    fn fleets_are_checked_against_their_commitments() {
        let rules = battleship_core::Rules::default();
        let mut table = tabletop_play::battleship::new_table(rules.clone(), [Player::Remote; 2]);
        let salts = [[5u8; 32], [6u8; 32]];
        for s in 0..2u8 {
            let fleet = crate::battleship::random_fleet(&rules, u64::from(s));
            let input = ShipInput::Place(fleet);
            table.apply(Seat(s), Action::Play(input)).unwrap();
        }
        let commitments: Vec<String> = (0..2)
            .map(|s| {
                let fleet = table.game().fleet(Seat(s as u8)).unwrap();
                hex(&tabletop_play::battleship::fleet_commitment(
                    &salts[s], fleet,
                ))
            })
            .collect();
        table.apply(Seat(0), Action::Resign).unwrap();
        let view = json!({"view": table.view(Viewer::Spectator)}).to_string();
        let message =
            json!({"commitments": commitments, "salts": [hex(&salts[0]), hex(&salts[1])]});
        let first = json!(commitments).to_string();
        let ok: Value = serde_json::from_str(
            &online_fleet_verify(&view, &message.to_string(), &first).unwrap(),
        )
        .unwrap();
        assert_eq!(ok["verified"], true, "{ok}");
        let moved = json!({"commitments": commitments, "salts": [hex(&salts[1]), hex(&salts[1])]});
        let bad: Value =
            serde_json::from_str(&online_fleet_verify(&view, &moved.to_string(), "null").unwrap())
                .unwrap();
        assert_eq!(bad["verified"], false);
        assert!(bad["text"].as_str().unwrap().contains("seat 0"), "{bad}");
    }
}
