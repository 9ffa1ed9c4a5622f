//! Nardy dice you can verify: the commitment, the seats' seeds, the refusals, a restart
//! between the seeds, and every byte a player receives holding no roll before its time.

use crate::support::{Client, TestServer, guest_pair, play_out, seed_of, table_of, temp_db};
use nardy_core::Game;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tabletop_play::nardy;

type NardyEvent = tabletop_play::Event<nardy::Event, nardy_core::Outcome>;

fn first_step(_seat: usize, view: &Value) -> Value {
    json!({"play": {"step": view["state"]["legal_steps"][0]}})
}

/// The latest `table` message of `table` this client received.
fn table_message(client: &Client, table: &str) -> Value {
    client
        .log
        .iter()
        .rev()
        .map(|t| serde_json::from_str::<Value>(t).unwrap())
        .find(|m| m["type"] == "table" && m["table"] == table)
        .expect("a table message")
}

/// The `table` message that told `client` the game at `table` is over.
async fn finished_table(client: &mut Client, table: &str) -> Value {
    let over = |m: &Value| m["type"] == "table" && m["table"] == table && m["status"] == "finished";
    let seen = client
        .log
        .iter()
        .map(|t| serde_json::from_str::<Value>(t).unwrap())
        .find(|m| over(m));
    match seen {
        Some(m) => m,
        None => client.until(over).await,
    }
}

/// Opens `table` again and reads until its view: the `table` message is then the new one.
async fn reopen(client: &mut Client, table: &str) -> Value {
    client.open(table, None).await;
    client
        .until(|m| m["type"] == "view" && m["table"] == table)
        .await["view"]
        .clone()
}

fn unhex32(text: &str) -> [u8; 32] {
    tabletop_server::identity::unhex(text)
        .unwrap()
        .try_into()
        .unwrap()
}

/// The documented formula: the first 8 bytes, little-endian, of
/// SHA-256(server seed ‖ seed 0 ‖ seed 1).
fn game_seed(server_seed: &[u8; 32], seeds: [&[u8; 32]; 2]) -> u64 {
    let digest = Sha256::digest([&server_seed[..], seeds[0], seeds[1]].concat());
    u64::from_le_bytes(digest[..8].try_into().unwrap())
}

/// Checks every roll `client` saw (the first view's dice, then each event) against a
/// game replayed from `seed`; returns how many rolls it checked.
fn check_rolls(client: &Client, table: &str, first_dice: &Value, seed: u64) -> usize {
    let mut game = Game::new(Default::default(), seed);
    assert_eq!(first_dice, &serde_json::to_value(game.dice()).unwrap());
    let mut rolls = 1;
    for e in &client.events[table] {
        let e: NardyEvent = serde_json::from_value(e.clone()).unwrap();
        match e.kind {
            tabletop_play::EventKind::Game(nardy::Event::Turn { dice, mv, .. }) => {
                assert_eq!(
                    dice,
                    game.dice(),
                    "the dice of a turn at version {}",
                    e.version
                );
                game.play(&mv).unwrap();
            }
            tabletop_play::EventKind::Game(nardy::Event::Rolled { dice, .. }) => {
                assert_eq!(dice, game.dice(), "a roll at version {}", e.version);
                rolls += 1;
            }
            _ => {}
        }
    }
    rolls
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nardy_dice_come_from_both_seeds_and_no_roll_is_sent_before_it_is_announced() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "nardy").await;
    let first = a.until(|m| m["type"] == "table").await;
    let commitment = first["dice"]["commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);
    assert_eq!(first["dice"]["seeds"], json!([null, null]));
    assert_eq!(first["dice"]["server_seed"], Value::Null);
    // Before the seeds: no dice, nobody to act, no action taken.
    let view = a.view_at_least(&table, 0).await;
    assert_eq!(
        (&view["state"]["dice"], &view["to_act"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(view["state"]["legal_steps"], json!([]));
    assert_eq!(a.act(&table, json!("resign")).await["code"], "seed_needed");
    assert_eq!(a.seed(&table, 0x11).await["type"], "seeded");
    assert_eq!(b.seed(&table, 0x22).await["type"], "seeded");
    let first_dice = b.rolled_view(&table).await["state"]["dice"].clone();
    assert_eq!(a.rolled_view(&table).await["state"]["dice"], first_dice);
    let end = play_out(&table, &mut [Some(&mut a), Some(&mut b)], first_step, 5000).await;
    assert!(end > 20);
    // The end reveals the server's seed: it is the commitment's, and with the two seeds
    // it gives every roll both players saw.
    let finished = finished_table(&mut a, &table).await;
    assert_eq!(finished["dice"]["commitment"], commitment.as_str());
    assert_eq!(
        finished["dice"]["seeds"],
        json!([seed_of(0x11), seed_of(0x22)])
    );
    let server_seed = finished["dice"]["server_seed"].as_str().unwrap().to_owned();
    assert_eq!(
        format!("{:x}", Sha256::digest(unhex32(&server_seed))),
        commitment
    );
    let seed = game_seed(&unhex32(&server_seed), [&[0x11; 32], &[0x22; 32]]);
    let rolls = check_rolls(&a, &table, &first_dice, seed);
    assert!(rolls > 20);
    assert_eq!(finished_table(&mut b, &table).await, finished);
    assert_eq!(check_rolls(&b, &table, &first_dice, seed), rolls);
    // Every byte each player received: no secret before the end, and no view shows dice
    // that no event (or, for the first dice, the first view after the seeds) announced.
    let secrets = [
        server_seed.clone(),
        seed.to_string(),
        format!("{:016x}", seed.swap_bytes()),
    ];
    for client in [&a, &b] {
        let mut announced: Option<Value> = None;
        let mut over = false;
        for text in &client.log {
            let m: Value = serde_json::from_str(text).unwrap();
            over |= m["type"] == "table" && m["status"] == "finished";
            if !over {
                for secret in &secrets {
                    assert!(!text.contains(secret.as_str()), "a secret in {text}");
                }
            }
            match m["type"].as_str() {
                Some("events") => {
                    for e in m["events"].as_array().unwrap() {
                        if let Some(rolled) = e["kind"]["game"].get("rolled") {
                            announced = Some(rolled["dice"].clone());
                        }
                    }
                }
                Some("view") if m["view"]["ending"].is_null() => {
                    let dice = &m["view"]["state"]["dice"];
                    match &announced {
                        None if dice.is_null() => {}
                        None => {
                            assert_eq!(dice, &first_dice);
                            announced = Some(dice.clone());
                        }
                        Some(roll) => assert_eq!(dice, roll, "a roll before its event"),
                    }
                }
                _ => {}
            }
        }
        assert!(over);
    }
    // The save holds the proof.
    let save = a.request(json!({"type": "download", "table": table})).await;
    let bytes = tabletop_server::identity::unhex(save["hex"].as_str().unwrap()).unwrap();
    let replayed = tabletop_play::Table::<nardy::Nardy>::from_bytes(&bytes).unwrap();
    let proof = nardy::DiceProof::from_bytes(replayed.provenance()).unwrap();
    assert_eq!(proof.game_seed, seed);
    assert_eq!(proof.server_seed, unhex32(&server_seed));
    // The rematch commits to a new secret seed, since this one is public now.
    let next = a.request(json!({"type": "rematch", "table": table})).await;
    let next = next["table"].as_str().unwrap().to_owned();
    a.open(&next, None).await;
    let fresh = a
        .until(|m| m["type"] == "table" && m["table"] == next)
        .await;
    assert_eq!(fresh["dice"]["seeds"], json!([null, null]));
    assert_ne!(fresh["dice"]["commitment"], commitment.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_seeds_are_refused_and_change_nothing() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "nardy").await;
    let mut watcher = Client::guest(&server.url()).await;
    watcher.open(&table, None).await;
    let code = |reply: Value| reply["code"].as_str().unwrap_or("none").to_owned();
    let seed_msg = |seed: &str| json!({"type": "seed", "table": table, "seed": seed});
    for bad in [
        "",
        "xyz",
        &"g0".repeat(32),
        &"ab".repeat(31),
        &"+1".repeat(32),
    ] {
        assert_eq!(code(a.request(seed_msg(bad)).await), "bad_seed", "{bad}");
    }
    let mut other_seat = seed_msg(&seed_of(1));
    other_seat["seat"] = json!(1);
    assert_eq!(code(a.request(other_seat).await), "not_your_seat");
    assert_eq!(code(watcher.seed(&table, 1).await), "not_your_seat");
    let reversi = table_of(
        &mut a,
        None,
        "reversi",
        Value::Null,
        json!(["me", {"bot": 1}]),
    )
    .await;
    assert_eq!(code(a.seed(&reversi, 1).await), "no_dice");
    assert_eq!(table_message(&a, &reversi).get("dice"), None);
    assert_eq!(
        table_message(&a, &table)["dice"]["seeds"],
        json!([null, null])
    );
    // Once per seat; the same seed again is a resent command and gets the same answer.
    assert_eq!(a.seed(&table, 0x11).await["type"], "seeded");
    assert_eq!(a.seed(&table, 0x11).await["type"], "seeded");
    assert_eq!(code(a.seed(&table, 0x12).await), "already_seeded");
    assert_eq!(code(b.act(&table, json!("resign")).await), "seed_needed");
    assert_eq!(code(a.act(&table, json!("resign")).await), "seed_needed");
    reopen(&mut a, &table).await;
    let before = table_message(&a, &table);
    assert_eq!(before["dice"]["seeds"], json!([seed_of(0x11), null]));
    // The last seed makes the dice; no seed is taken after that.
    assert_eq!(b.seed(&table, 0x22).await["type"], "seeded");
    let view = b.rolled_view(&table).await;
    assert_eq!(code(b.seed(&table, 0x23).await), "already_rolled");
    assert_eq!(code(a.seed(&table, 0x13).await), "already_rolled");
    assert_eq!(reopen(&mut b, &table).await, view);
    let after = table_message(&b, &table);
    assert_eq!(
        after["dice"]["seeds"],
        json!([seed_of(0x11), seed_of(0x22)])
    );
    assert_eq!(after["dice"]["commitment"], before["dice"]["commitment"]);
    assert_eq!(view["version"], 0);
    // The watcher saw the dice arrive too, and acting works now.
    assert_eq!(watcher.rolled_view(&table).await["state"], view["state"]);
    let seat = view["to_act"].as_u64().unwrap();
    let mover = if seat == 0 { &mut a } else { &mut b };
    assert_eq!(
        mover.act(&table, first_step(0, &view)).await["type"],
        "acked"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeds_and_the_commitment_survive_restarts() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let mut a = Client::guest(&server.url()).await;
    let created = a
        .request(json!({"type": "create", "game": "nardy", "seats": ["me", "open"]}))
        .await;
    let table = created["table"].as_str().unwrap().to_owned();
    let invite = created["invite"].as_str().unwrap().to_owned();
    reopen(&mut a, &table).await;
    let commitment = table_message(&a, &table)["dice"]["commitment"].clone();
    // The creator may seed while the seat is still open.
    assert_eq!(a.seed(&table, 0x31).await["type"], "seeded");
    let token = a.token.clone();
    server.kill();
    let server = TestServer::start(&db).await;
    let a = Client::connect(&server.url(), Some(&token)).await;
    let mut b = Client::guest(&server.url()).await;
    assert_eq!(
        b.request(json!({"type": "join", "invite": invite})).await["type"],
        "joined"
    );
    reopen(&mut b, &table).await;
    let kept = table_message(&b, &table);
    assert_eq!(kept["dice"]["commitment"], commitment);
    assert_eq!(kept["dice"]["seeds"], json!([seed_of(0x31), null]));
    assert!(b.view_at_least(&table, 0).await["state"]["dice"].is_null());
    assert_eq!(b.seed(&table, 0x32).await["type"], "seeded");
    let view = b.rolled_view(&table).await;
    // A restart between the seeds and the first roll played keeps the same dice.
    let tokens = [token, b.token.clone()];
    server.kill();
    let (_, _) = (a, b);
    let server = TestServer::start(&db).await;
    let mut a = Client::connect(&server.url(), Some(&tokens[0])).await;
    let mut b = Client::connect(&server.url(), Some(&tokens[1])).await;
    let again = reopen(&mut a, &table).await;
    reopen(&mut b, &table).await;
    assert_eq!(again["state"], view["state"]);
    assert_eq!(again["to_act"], view["to_act"]);
    assert_eq!(table_message(&a, &table)["dice"]["commitment"], commitment);
    let end = play_out(&table, &mut [Some(&mut a), Some(&mut b)], first_step, 5000).await;
    let finished = finished_table(&mut a, &table).await;
    let server_seed = unhex32(finished["dice"]["server_seed"].as_str().unwrap());
    let seed = game_seed(&server_seed, [&[0x31; 32], &[0x32; 32]]);
    assert!(check_rolls(&a, &table, &view["state"]["dice"], seed) > 10);
    assert!(end > 20);
}
