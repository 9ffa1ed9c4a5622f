//! Reconnecting, resending and restarting: nothing is lost, nothing is applied twice.

use crate::support::{Client, TestServer, guest_pair, play_out, seed_of, table_of, temp_db};
use serde_json::{Value, json};

fn first_legal(_seat: usize, view: &Value) -> Value {
    json!({"play": view["state"]["legal"][0]})
}

/// Plays `n` moves of reversi alternately, starting with whoever is to act.
async fn play_moves(table: &str, a: &mut Client, b: &mut Client, n: usize) -> u64 {
    let mut version = 0;
    for _ in 0..n {
        let view = a.view_at_least(table, version).await;
        let client = if view["to_act"] == 0 {
            &mut *a
        } else {
            &mut *b
        };
        let view = client.view_at_least(table, version).await;
        let reply = client.act(table, first_legal(0, &view)).await;
        assert_eq!(reply["type"], "acked", "{reply}");
        version = reply["version"].as_u64().unwrap();
    }
    version
}

/// A guest's nardy table against the level-1 bot, with the guest's dice seed `seed` in.
async fn nardy_against_a_bot(server: &TestServer, seed: u8) -> (Client, String) {
    let mut c = Client::guest(&server.url()).await;
    let table = table_of(
        &mut c,
        None,
        "nardy",
        Value::Null,
        json!(["me", {"bot": 1}]),
    )
    .await;
    assert_eq!(c.seed(&table, seed).await["type"], "seeded");
    (c, table)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reconnects_gets_exactly_the_events_it_missed() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "reversi").await;
    let seen = play_moves(&table, &mut a, &mut b, 4).await;
    a.view_at_least(&table, seen).await;
    let (token, player) = (a.token.clone(), a.player.clone());
    drop(a);
    // b plays on while a is away: b holds the other seat, so a's moves are needed too;
    // a second connection of a's player acts for a meanwhile.
    let mut a2 = Client::connect(&server.url(), Some(&token)).await;
    a2.open(&table, None).await;
    let now = play_moves(&table, &mut a2, &mut b, 6).await;
    drop(a2);
    // a comes back with the last version it had: it gets the events after it, no other.
    let mut a3 = Client::connect(&server.url(), Some(&token)).await;
    let opened = a3.open(&table, Some(seen)).await;
    assert_eq!(opened["seat"], 0);
    let events = a3.until(|m| m["type"] == "events").await;
    let versions: Vec<u64> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["version"].as_u64().unwrap())
        .collect();
    assert_eq!(versions.first(), Some(&(seen + 1)));
    assert_eq!(versions.last(), Some(&now));
    assert_eq!(events["version"], now);
    // The same token, the same player.
    assert_eq!(a3.player, player);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resent_command_is_applied_once() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, _b, table) = guest_pair(&server, "reversi").await;
    let view = a.view_at_least(&table, 0).await;
    let act =
        json!({"type": "act", "id": "move-1", "table": table, "action": first_legal(0, &view)});
    let first = a.request_as(act.clone()).await;
    assert_eq!(first["type"], "acked");
    assert_eq!(first["duplicate"], false);
    // The same command again, on a new connection of the same player (as after a
    // dropped connection): acknowledged with the same version, not applied again.
    let token = a.token.clone();
    let player = a.player.clone();
    drop(a);
    let mut a = Client::connect(&server.url(), Some(&token)).await;
    assert_eq!(a.player, player);
    let again = a.request_as(act.clone()).await;
    assert_eq!(again["type"], "acked", "{again}");
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["version"], first["version"]);
    let opened = a.open(&table, None).await;
    assert_eq!(opened["seat"], 0);
    let view = a.view_at_least(&table, 0).await;
    assert_eq!(view["version"], 1, "one move only");
    // A resent create makes no second table.
    let create =
        json!({"type": "create", "id": "new-1", "game": "reversi", "seats": ["me", "open"]});
    let t1 = a.request_as(create.clone()).await;
    let t2 = a.request_as(create).await;
    assert_eq!(t1["table"], t2["table"]);
    assert_eq!(t1["invite"], t2["invite"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_and_the_games_go_on() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "reversi").await;
    let before = play_moves(&table, &mut a, &mut b, 7).await;
    // A game against a bot, in progress too.
    let (mut c, bot_table) = nardy_against_a_bot(&server, 3).await;
    let view = c.rolled_view(&bot_table).await;
    let seat = view["to_act"].as_u64().unwrap();
    if seat == 0 {
        let reply = c
            .act(
                &bot_table,
                json!({"play": {"step": view["state"]["legal_steps"][0]}}),
            )
            .await;
        assert_eq!(reply["type"], "acked");
    }
    let tokens = [a.token.clone(), b.token.clone(), c.token.clone()];
    server.kill();
    let (_, _, _) = (a, b, c);
    // The same database, a new process: every unfinished table is back.
    let server = TestServer::start(&db).await;
    let mut a = Client::connect(&server.url(), Some(&tokens[0])).await;
    let mut b = Client::connect(&server.url(), Some(&tokens[1])).await;
    assert_eq!(a.open(&table, Some(before)).await["seat"], 0);
    assert_eq!(b.open(&table, Some(before)).await["seat"], 1);
    let view = a.view_at_least(&table, before).await;
    assert_eq!(
        view["version"], before,
        "the last acknowledged move is kept"
    );
    let end = play_out(&table, &mut [Some(&mut a), Some(&mut b)], first_legal, 200).await;
    assert!(end > before);
    let mut c = Client::connect(&server.url(), Some(&tokens[2])).await;
    c.open(&bot_table, None).await;
    let end = play_out(
        &bot_table,
        &mut [Some(&mut c), None],
        |_, v| json!({"play": {"step": v["state"]["legal_steps"][0]}}),
        2000,
    )
    .await;
    assert!(end > 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_finds_nothing_wrong() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let report = tabletop_server::loadtest::run(tabletop_server::loadtest::LoadConfig {
        urls: vec![server.url()],
        games: 8,
        duration: std::time::Duration::from_secs(3),
        think_ms: (5, 20),
        drop_percent: 10.0,
    })
    .await
    .unwrap();
    println!("{report}");
    // Eight pairs: two of each game (a sudoku pair plays two tables), some drops.
    assert!(report.games >= 10 && report.actions > 100, "{report}");
    assert!(report.drops > 0, "{report:?}");
    assert_eq!(
        (
            report.errors,
            report.mismatches,
            report.lost,
            report.duplicated
        ),
        (0, 0, 0, 0),
        "{report}"
    );
    let refused = tabletop_server::loadtest::run(tabletop_server::loadtest::LoadConfig {
        urls: vec![server.url(), "ws://192.0.2.1:8080/".into()],
        games: 1,
        duration: std::time::Duration::from_secs(1),
        think_ms: (5, 20),
        drop_percent: 0.0,
    })
    .await;
    assert!(refused.is_err());
}

/// The same games on PostgreSQL: `TABLETOP_TEST_POSTGRES` names an empty database
/// (`postgres://user:password@127.0.0.1/db`); without it the test says why it skips.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_plays_and_restarts_like_sqlite() {
    let Ok(url) = std::env::var("TABLETOP_TEST_POSTGRES") else {
        println!("skipped: set TABLETOP_TEST_POSTGRES=postgres://… to test PostgreSQL");
        return;
    };
    let start = |url: String| TestServer::start_url(url);
    let server = start(url.clone()).await;
    let (mut a, mut b, table) = guest_pair(&server, "reversi").await;
    let before = play_moves(&table, &mut a, &mut b, 5).await;
    // A nardy table whose seeds (migration 3) are in before the restart: one player holds
    // both seats, so nobody moves meanwhile.
    let mut c = Client::guest(&server.url()).await;
    let nardy = table_of(&mut c, None, "nardy", Value::Null, json!(["me", "me"])).await;
    for seat in [0, 1] {
        let seed =
            json!({"type": "seed", "table": nardy, "seat": seat, "seed": seed_of(0x41 + seat)});
        assert_eq!(c.request(seed).await["type"], "seeded");
    }
    let dice = c.rolled_view(&nardy).await;
    let tokens = [a.token.clone(), b.token.clone(), c.token.clone()];
    server.kill();
    let server = start(url).await;
    let mut a = Client::connect(&server.url(), Some(&tokens[0])).await;
    let mut b = Client::connect(&server.url(), Some(&tokens[1])).await;
    let mut c = Client::connect(&server.url(), Some(&tokens[2])).await;
    c.open(&nardy, None).await;
    let kept = c.until(|m| m["type"] == "table").await;
    assert_eq!(kept["dice"]["seeds"], json!([seed_of(0x41), seed_of(0x42)]));
    assert_eq!(c.rolled_view(&nardy).await, dice);
    a.open(&table, Some(before)).await;
    b.open(&table, Some(before)).await;
    let end = play_out(&table, &mut [Some(&mut a), Some(&mut b)], first_legal, 200).await;
    assert!(end > before);
    let history = a.request(json!({"type": "history"})).await;
    assert_eq!(history["games"][0]["table"], table.as_str());
}

/// A table is stored as a snapshot now and then plus the input of every version after
/// it: a server killed past a snapshot rebuilds the very same table (dice included).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_rebuilt_from_its_snapshot_and_the_inputs_after_it() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut c, table) = nardy_against_a_bot(&server, 7).await;
    c.rolled_view(&table).await;
    // Step by step against the bot until past the snapshot at version 100.
    let mut version = 0;
    let before = loop {
        let view = c.view_at_least(&table, version).await;
        let now = view["version"].as_u64().unwrap();
        assert!(view["ending"].is_null(), "the game ended at version {now}");
        let mine = crate::support::to_act(&view) == Some(0);
        // Stop on the person's turn: then nothing moves until the person does.
        if now >= 112 && mine {
            break view;
        }
        if mine {
            let step = json!({"play": {"step": view["state"]["legal_steps"][0]}});
            let reply = c.act(&table, step).await;
            assert_eq!(reply["type"], "acked", "{reply}");
            version = reply["version"].as_u64().unwrap();
        } else {
            version = now + 1;
        }
    };
    let token = c.token.clone();
    server.kill();
    let server = TestServer::start(&db).await;
    let mut c = Client::connect(&server.url(), Some(&token)).await;
    c.open(&table, None).await;
    let after = c.view_at_least(&table, 0).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["state"], before["state"], "the same board and dice");
}

/// The load generator's players come back when the server is killed and restarted, and
/// find every acknowledged action still there, none twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_loses_nothing_when_the_server_is_killed() {
    let (_dir, db) = temp_db();
    let mut server = TestServer::start(&db).await;
    let addr = server.addr;
    let load = tokio::spawn(tabletop_server::loadtest::run(
        tabletop_server::loadtest::LoadConfig {
            urls: vec![server.url()],
            games: 8,
            duration: std::time::Duration::from_secs(5),
            think_ms: (5, 20),
            drop_percent: 0.0,
        },
    ));
    for _ in 0..2 {
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        server.kill();
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        server = TestServer::start_with(&db, |c| c.listen = addr).await;
    }
    let report = load.await.unwrap().unwrap();
    println!("{report}");
    assert!(report.actions > 100, "{report}");
    assert_eq!(
        (report.mismatches, report.lost, report.duplicated),
        (0, 0, 0),
        "{report}"
    );
    assert_eq!(report.errors, 0, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_listens_before_its_tables_are_back_and_shows_none_in_part() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let mut a = Client::guest(&server.url()).await;
    // Many unfinished tables, each two moves in (the player holds both seats).
    let mut tables = Vec::new();
    for _ in 0..60 {
        let table = table_of(&mut a, None, "reversi", Value::Null, json!(["me", "me"])).await;
        for seat in 0..2 {
            let view = a.view_at_least(&table, seat).await;
            let reply = a
                .request(json!({"type": "act", "table": table, "seat": seat,
                    "action": first_legal(0, &view)}))
                .await;
            assert_eq!(reply["type"], "acked", "{reply}");
        }
        tables.push(table);
    }
    let token = a.token.clone();
    server.kill();
    drop(a);
    // The new process answers at once; the tables asked for first (the last made, which
    // the background restore reaches last) come whole, at their last version.
    let server = TestServer::start(&db).await;
    let mut a = Client::connect(&server.url(), Some(&token)).await;
    for table in tables.iter().rev().take(5).chain(tables.first()) {
        let opened = a.open(table, None).await;
        assert_eq!(opened["type"], "opened", "{opened}");
        let view = a.view_at_least(table, 0).await;
        assert_eq!(view["version"], 2, "{view}");
        // (Command ids are the player's: the first connection's are taken.)
        let reply = a
            .request_as(json!({"type": "act", "id": format!("after-{table}"),
                "table": table, "seat": 0, "action": first_legal(0, &view)}))
            .await;
        assert_eq!(reply["version"], 3, "{reply}");
    }
}
