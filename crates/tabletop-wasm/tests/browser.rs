//! The bindings as the page uses them, run in headless Chromium by `wasm-bindgen-test`
//! (`.ci/run`: `cargo test --target wasm32-unknown-unknown -p tabletop-wasm --test
//! browser` with `wasm-bindgen-test-runner` as the runner and Debian's chromedriver): a
//! real WebAssembly build, where what the native tests cannot see fails — a clock or a
//! thread the platform lacks, a lock, the JSON the page reads.
#![cfg(target_arch = "wasm32")]

use serde_json::{Value, json};
use tabletop_play::{Action, Player, Seat, Viewer};
use tabletop_wasm::{
    BattleshipTable, NardyTable, ReversiTable, SudokuTable, load_nardy_weights,
    load_reversi_weights, nardy_level_needs_network, nardy_weights_loaded, online_fleet_verify,
    online_nardy_verify, online_sudoku_action, online_view, reversi_weights_loaded, save_game,
};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[wasm_bindgen_test]
fn reversi_against_the_bot_saves_and_loads() {
    let mut t = ReversiTable::new(&[0, 3], false).unwrap();
    let v = json(&t.view());
    let square = v["legal"][0].as_u64().unwrap() as u8;
    t.play(square).unwrap();
    assert!(t.play(square).is_err(), "a refused move");
    // The weights are fetched by the page's worker: until they are loaded the bot and
    // the hints say so, and a file that is not the weights is refused with the reason.
    if !reversi_weights_loaded() {
        let err = t.bot_action(7).unwrap_err();
        assert!(err.contains("weights are not loaded"), "{err}");
        assert!(t.hints().is_err());
    }
    let file = include_bytes!("../../reversi-core/src/ai/patterns.bin");
    let err = load_reversi_weights(&file[..4096]).unwrap_err();
    assert_eq!(
        err,
        "the reversi bot's weights cannot be read: the pattern weights file is corrupt"
    );
    load_reversi_weights(file).unwrap();
    assert!(reversi_weights_loaded());
    let bot = json(&t.bot_action(7).unwrap().expect("the bot moves"));
    assert_eq!(bot["seat"], 1);
    t.act(1, bot["action"].as_str().unwrap()).unwrap();
    let hints = json(&t.hints().unwrap());
    assert!(!hints.as_array().unwrap().is_empty());
    let copy = ReversiTable::load(&t.to_bytes()).unwrap();
    assert_eq!(copy.view(), t.view());
    assert_eq!(save_game(&t.to_bytes()).unwrap(), "reversi");
    assert!(save_game(b"not a save").is_err());
}

#[wasm_bindgen_test]
fn nardy_steps_and_the_bot() {
    let mut t = NardyTable::new(&[0, 2], "", 11).unwrap();
    for _ in 0..6 {
        let v = json(&t.view());
        if v["ending"].is_object() {
            break;
        }
        match v["to_act"].as_u64() {
            Some(0) => {
                let step = &v["legal"][0];
                let (from, to) = (step[0].as_u64().unwrap(), step[1].as_u64().unwrap());
                t.step(from as u8, to as u8).unwrap();
            }
            Some(seat) => {
                let bot = json(&t.bot_action(3).unwrap().expect("the bot plays"));
                t.act(seat as u8, bot["action"].as_str().unwrap()).unwrap();
            }
            None => break,
        }
    }
    assert!(json(&t.view())["version"].as_u64().unwrap() > 0);
}

#[wasm_bindgen_test]
fn nardy_learned_levels_need_the_network_the_worker_loads() {
    assert!(!nardy_level_needs_network(3) && nardy_level_needs_network(4));
    // Level 4 plays White; the person plays Black's turns until the bot is to act.
    let mut t = NardyTable::new(&[4, 0], "", 5).unwrap();
    while json(&t.view())["bot"].is_null() {
        let step = json(&t.view())["legal"][0].clone();
        let (from, to) = (step[0].as_u64().unwrap(), step[1].as_u64().unwrap());
        t.step(from as u8, to as u8).unwrap();
    }
    if !nardy_weights_loaded() {
        let err = t.bot_action(7).unwrap_err();
        assert!(err.contains("network is not loaded"), "{err}");
        assert!(t.hints(4).is_err());
    }
    let file = include_bytes!("../../nardy-core/src/ai/weights.bin");
    let err = load_nardy_weights(&file[..4096]).unwrap_err();
    assert_eq!(
        err,
        "the nardy bot's network cannot be read: the save is damaged or truncated"
    );
    load_nardy_weights(file).unwrap();
    assert!(nardy_weights_loaded());
    let bot = json(&t.bot_action(7).unwrap().expect("the bot plays"));
    assert_eq!(bot["seat"], 0);
    t.act(0, bot["action"].as_str().unwrap()).unwrap();
    assert!(!json(&t.view())["history"].as_array().unwrap().is_empty());
}

#[wasm_bindgen_test]
fn a_small_sudoku_is_made_hinted_and_solved() {
    let mut t = SudokuTable::new(4, "easy", 5).unwrap();
    while json(&t.view())["ending"].is_null() {
        let hint = json(&t.hint().unwrap());
        if let Some(cell) = hint["wrong"].as_u64() {
            t.clear(cell as usize / 4, cell as usize % 4).unwrap();
        }
        for p in hint["placements"].as_array().unwrap() {
            let cell = p[0].as_u64().unwrap() as usize;
            t.enter(cell / 4, cell % 4, p[1].as_u64().unwrap() as u8)
                .unwrap();
        }
    }
    assert!(
        json(&t.view())["result"]
            .as_str()
            .unwrap()
            .starts_with("Solved")
    );
    assert!(json(&t.rating().unwrap())["rating"].is_string());
}

#[wasm_bindgen_test]
fn battleship_random_fleet_and_the_heat_map() {
    let mut t = BattleshipTable::new(1, "russian").unwrap();
    t.auto_place(3);
    t.confirm_fleet().unwrap();
    if let Some(bot) = t.bot_action(4).unwrap() {
        t.act(1, json(&bot)["action"].as_str().unwrap()).unwrap();
    }
    let hint = json(&t.hints(9).unwrap());
    let p = hint["probabilities"].as_array().unwrap();
    assert_eq!(p.len(), 100);
    let total: f64 = p.iter().map(|x| x.as_f64().unwrap()).sum();
    assert!((total - 20.0).abs() < 0.1, "{total}");
    t.shoot(0, 0).unwrap();
    assert!(t.shoot(0, 0).is_err() || json(&t.view())["to_act"] != 0);
}

#[wasm_bindgen_test]
fn online_views_actions_and_the_end_of_game_checks() {
    // A sudoku view from the server's JSON, and an edit as the protocol's action.
    let offline = SudokuTable::new(4, "easy", 2).unwrap();
    let mut table =
        tabletop_play::Table::<tabletop_play::sudoku::Sudoku>::from_bytes(&offline.to_bytes())
            .unwrap();
    table.set_player(Seat(0), Player::Remote).unwrap();
    let action = online_sudoku_action("fill_notes", 0, 0, 0, 0).unwrap();
    table
        .apply(Seat(0), serde_json::from_str::<Action<_>>(&action).unwrap())
        .unwrap();
    let message = json!({"type": "view", "view": table.view(Viewer::Seat(Seat(0)))});
    let page = json(&online_view(&message.to_string()).unwrap());
    assert_eq!(page["side"], 4);
    assert!(page["notes"].as_array().unwrap().iter().any(|n| n != 0));

    // Nardy dice from three seeds, checked at the end as the page does.
    let (server, seeds) = ([1u8; 32], [[2u8; 32], [0u8; 32]]);
    let seed = tabletop_play::nardy::game_seed(&server, &seeds);
    let mut nardy = tabletop_play::nardy::new_table(Default::default(), seed, [Player::Remote; 2]);
    for _ in 0..4 {
        let mv = nardy.game().game().legal_moves()[0].clone();
        let seat = nardy.to_act().unwrap();
        let input = tabletop_play::nardy::Input::Turn(mv);
        nardy.apply(seat, Action::Play(input)).unwrap();
    }
    nardy.apply(Seat(0), Action::Resign).unwrap();
    let view = json!({"view": nardy.view(Viewer::Seat(Seat(0)))}).to_string();
    let commitment = hex(&tabletop_play::nardy::commitment_of(&server));
    let dice = json!({"commitment": commitment, "seeds": [hex(&seeds[0]), hex(&seeds[1])],
                      "server_seed": hex(&server)});
    let verdict = json(
        &online_nardy_verify(
            &view,
            &dice.to_string(),
            &commitment,
            Some(0),
            &hex(&seeds[0]),
        )
        .unwrap(),
    );
    assert_eq!(verdict["verified"], true, "{verdict}");
    let wrong =
        json(&online_nardy_verify(&view, &dice.to_string(), &"ab".repeat(32), None, "").unwrap());
    assert_eq!(wrong["verified"], false);

    // A battleship game not over yet has no salts to check.
    let ships = tabletop_play::battleship::new_table(Default::default(), [Player::Remote; 2]);
    let view = json!({"view": ships.view(Viewer::Spectator)}).to_string();
    assert!(online_fleet_verify(&view, "{}", "null").is_err());
}
