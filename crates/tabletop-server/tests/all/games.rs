//! Whole games of the four kinds through real WebSocket clients against a real server on
//! 127.0.0.1:0 over a temporary SQLite file.

use crate::support::{Client, TestServer, guest_pair, play_out, table_of, temp_db};
use battleship_core::{Coord, Rules, UniformFleets};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn reversi_first_legal(_seat: usize, view: &Value) -> Value {
    json!({"play": view["state"]["legal"][0]})
}

fn nardy_first_step(_seat: usize, view: &Value) -> Value {
    json!({"play": {"step": view["state"]["legal_steps"][0]}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reversi_between_two_guests_with_a_spectator() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "reversi").await;
    let mut watcher = Client::guest(&server.url()).await;
    assert_eq!(watcher.open(&table, None).await["seat"], Value::Null);
    let end = play_out(
        &table,
        &mut [Some(&mut a), Some(&mut b)],
        reversi_first_legal,
        200,
    )
    .await;
    let last = watcher.view_at_least(&table, end).await;
    assert_eq!(
        last,
        b.view_at_least(&table, end)
            .await
            .as_object()
            .map(|v| {
                let mut v = v.clone();
                v.insert("viewer".into(), json!("spectator"));
                Value::Object(v)
            })
            .unwrap()
    );
    assert_eq!(last["ending"]["reason"], "rules");
    // Every version's events reached the spectator, numbered 1, 2, … in order.
    let versions: Vec<u64> = watcher.events[&table]
        .iter()
        .map(|e| e["version"].as_u64().unwrap())
        .collect();
    assert!(
        versions
            .windows(2)
            .all(|w| w[0] <= w[1] && w[1] - w[0] <= 1),
        "{versions:?}"
    );
    assert_eq!(versions.last(), Some(&end));
    // The finished game is in both players' history, and its save replays.
    let history = a.request(json!({"type": "history"})).await;
    assert_eq!(history["games"][0]["table"], table.as_str());
    let save = b.request(json!({"type": "download", "table": table})).await;
    let bytes = tabletop_server::identity::unhex(save["hex"].as_str().unwrap()).unwrap();
    let replayed =
        tabletop_play::Table::<tabletop_play::reversi::Reversi>::from_bytes(&bytes).unwrap();
    assert_eq!(replayed.version(), end);
    assert!(replayed.ending().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nardy_against_a_bot_shows_no_future_roll() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let mut a = Client::guest(&server.url()).await;
    let table = table_of(
        &mut a,
        None,
        "nardy",
        Value::Null,
        json!(["me", {"bot": 1}]),
    )
    .await;
    assert_eq!(a.seed(&table, 7).await["type"], "seeded");
    let end = play_out(&table, &mut [Some(&mut a), None], nardy_first_step, 2000).await;
    assert!(end > 20);
    // Replay the save: every roll of the game, by the version that made it.
    let save = a.request(json!({"type": "download", "table": table})).await;
    let bytes = tabletop_server::identity::unhex(save["hex"].as_str().unwrap()).unwrap();
    let replayed = tabletop_play::Table::<tabletop_play::nardy::Nardy>::from_bytes(&bytes).unwrap();
    assert_eq!(replayed.version(), end);
    // Each view the player got shows the dice of the turn in progress, never later ones:
    // the dice in a view at version v are those the events up to v rolled last.
    let mut rolled: Vec<(u64, Value)> = Vec::new();
    for e in replayed.events() {
        if let tabletop_play::EventKind::Game(tabletop_play::nardy::Event::Rolled {
            dice, ..
        }) = &e.kind
        {
            rolled.push((e.version, serde_json::to_value(dice).unwrap()));
        }
    }
    let mut views = 0;
    for text in &a.log {
        let m: Value = serde_json::from_str(text).unwrap();
        if m["type"] == "events" {
            let v = m["version"].as_u64().unwrap();
            for e in m["events"].as_array().unwrap() {
                assert!(
                    e["version"].as_u64().unwrap() <= v,
                    "an event from the future: {e}"
                );
            }
        }
        if m["type"] != "view" || !m["view"]["ending"].is_null() {
            continue;
        }
        let v = m["view"]["version"].as_u64().unwrap();
        let dice = &m["view"]["state"]["dice"];
        let current = rolled.iter().rev().find(|(rv, _)| *rv <= v).map(|(_, d)| d);
        if let Some(current) = current {
            assert_eq!(dice, current, "the view at version {v} shows other dice");
            views += 1;
        }
        assert!(
            !text.contains("rng") && !text.contains("server_seed\":\""),
            "{text}"
        );
    }
    assert!(views > 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn battleship_players_never_receive_the_other_fleet_before_the_end() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "battleship").await;
    let rules = Rules::default();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let fleets = [sampler.sample(&mut rng), sampler.sample(&mut rng)];
    // As the server writes it: through a JSON value, keys sorted.
    let fleet_json = fleets
        .clone()
        .map(|f| serde_json::to_value(&f).unwrap().to_string());
    let cells: Vec<Coord> = (0..rules.height())
        .flat_map(|r| (0..rules.width()).map(move |c| Coord::new(c, r).unwrap()))
        .collect();
    let mut next_cell = [0usize; 2];
    let end = play_out(
        &table,
        &mut [Some(&mut a), Some(&mut b)],
        |seat, view| {
            if !view["state"]["placed"][seat].as_bool().unwrap() {
                return json!({"play": {"place": fleets[seat]}});
            }
            let cell = cells[next_cell[seat]];
            next_cell[seat] += 1;
            json!({"play": {"shoot": cell}})
        },
        400,
    )
    .await;
    for client in [&mut a, &mut b] {
        let finished = |t: &String| t.contains(r#""status":"finished""#);
        if !client.log.iter().any(finished) {
            client
                .until(|m| m["type"] == "table" && m["status"] == "finished")
                .await;
        }
    }
    // Every byte before the end: no trace of the other side's fleet.
    for (client, other) in [(&a, 1), (&b, 0)] {
        let ended_at = client
            .log
            .iter()
            .position(|t| t.contains("\"ended\""))
            .expect("the end was announced");
        for text in &client.log[..ended_at] {
            assert!(
                !text.contains(&fleet_json[other]),
                "the other fleet leaked: {text}"
            );
            let m: Value = serde_json::from_str(text).unwrap();
            if m["type"] == "view" {
                assert!(m["view"]["state"]["fleets"][other].is_null(), "{text}");
            }
        }
        // After the end both fleets are shown: the scan above would have seen them.
        assert!(
            client.log[ended_at..]
                .iter()
                .any(|t| t.contains(&fleet_json[other]))
        );
        // The other fleet was committed to before the first shot, and the commitment
        // checks out with the salt revealed at the end.
        let statuses: Vec<Value> = client
            .log
            .iter()
            .map(|t| serde_json::from_str::<Value>(t).unwrap())
            .filter(|m| m["type"] == "table")
            .collect();
        let first_shot = client
            .log
            .iter()
            .position(|t| t.contains("\"shot\""))
            .unwrap();
        let committed = client.log[..first_shot]
            .iter()
            .map(|t| serde_json::from_str::<Value>(t).unwrap())
            .filter(|m| m["type"] == "table")
            .find_map(|m| m["commitments"][other].as_str().map(str::to_owned))
            .expect("a commitment before the battle");
        let last = statuses.last().unwrap();
        assert_eq!(last["status"], "finished");
        let salt =
            tabletop_server::identity::unhex(last["salts"][other].as_str().unwrap()).unwrap();
        let mut hasher = Sha256::new();
        hasher.update(&salt);
        hasher.update(fleet_json[other].as_bytes());
        assert_eq!(
            tabletop_server::identity::hex(&hasher.finalize()),
            committed
        );
        assert!(
            statuses[..statuses.len() - 1]
                .iter()
                .all(|m| m["salts"].is_null())
        );
    }
    assert!(end > 40);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sudoku_solved_over_the_network() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let mut a = Client::guest(&server.url()).await;
    let table = table_of(&mut a, None, "sudoku", json!({"size": 4}), json!(["me"])).await;
    let view = a.view_at_least(&table, 0).await;
    let puzzle: sudoku_core::Grid =
        serde_json::from_value(view["state"]["puzzle"].clone()).unwrap();
    // The client solves the puzzle itself: the server never sends the solution.
    let solution = sudoku_core::Game::new(puzzle.clone())
        .unwrap()
        .solution()
        .clone();
    assert!(!a.log.iter().any(|t| t.contains(&solution.to_string())));
    for row in 0..4 {
        for col in 0..4 {
            if puzzle.get(row, col).is_none() {
                let digit = solution.get(row, col).unwrap();
                let mv = sudoku_core::Move::Enter { row, col, digit };
                let reply = a.act(&table, json!({"play": {"move": mv}})).await;
                assert_eq!(reply["type"], "acked", "{reply}");
            }
        }
    }
    // The last view came before the last acknowledgement.
    let last = &a.views[&table];
    assert_eq!(last["ending"]["score"]["mistakes"], 0, "{last}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_the_sides_once() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "reversi").await;
    let early = b.request(json!({"type": "rematch", "table": table})).await;
    assert_eq!(early["code"], "not_finished");
    assert_eq!(a.act(&table, json!("resign")).await["type"], "acked");
    let next = b.request(json!({"type": "rematch", "table": table})).await;
    assert_eq!(next["type"], "created", "{next}");
    assert_eq!(
        next["seats"],
        json!([0]),
        "b played second and now plays first"
    );
    // a hears of it, and asking too gets the same table, in the other seat.
    let heard = a.until(|m| m["type"] == "rematch").await;
    assert_eq!(heard["next"], next["table"]);
    let mine = a.request(json!({"type": "rematch", "table": table})).await;
    assert_eq!(
        (&mine["table"], &mine["seats"]),
        (&next["table"], &json!([1]))
    );
    let mut watcher = Client::guest(&server.url()).await;
    let refused = watcher
        .request(json!({"type": "rematch", "table": table}))
        .await;
    assert_eq!(refused["code"], "not_your_seat");
    // The rematch is on: b (Black, seat 0) moves first.
    let next = next["table"].as_str().unwrap();
    b.open(next, None).await;
    let view = b.view_at_least(next, 0).await;
    assert_eq!(view["to_act"], 0);
    assert_eq!(
        b.act(next, reversi_first_legal(0, &view)).await["type"],
        "acked"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_runs_and_flags() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b) = (
        Client::guest(&server.url()).await,
        Client::guest(&server.url()).await,
    );
    let created = a
        .request(
            json!({"type": "create", "game": "reversi", "seats": ["me", "open"],
            "clock": {"seconds": 2, "increment_s": 1}}),
        )
        .await;
    let table = created["table"].as_str().unwrap().to_owned();
    b.request(json!({"type": "join", "invite": created["invite"]}))
        .await;
    b.open(&table, None).await;
    a.open(&table, None).await;
    let view = a.view_at_least(&table, 0).await;
    assert_eq!(view["clock_ms"], json!([2000, 2000]));
    // a moves (the clocks start with the first timed move: a's first move costs it
    // nothing); then b does not, and loses on time about two seconds later.
    assert_eq!(
        a.act(&table, reversi_first_legal(0, &view)).await["type"],
        "acked"
    );
    let view = a.view_at_least(&table, 1).await;
    assert_eq!(view["clock_ms"][0], 2000);
    let started = std::time::Instant::now();
    let flagged = a.view_at_least(&table, 2).await;
    assert_eq!(flagged["ending"]["reason"], "timeout", "{flagged}");
    assert_eq!(flagged["ending"]["winner"], 0);
    let waited = started.elapsed().as_millis();
    assert!((1500..6000).contains(&waited), "flagged after {waited} ms");
    // Too long or too short a clock is refused.
    let bad = a
        .request(
            json!({"type": "create", "game": "reversi", "seats": ["me", "open"],
            "clock": {"minutes": 2000}}),
        )
        .await;
    assert_eq!(bad["code"], "bad_clock");
}
