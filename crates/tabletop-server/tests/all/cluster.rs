//! Two servers on one PostgreSQL database (`TABLETOP_TEST_POSTGRES`; without it these
//! tests say why they skip): players on either play each other, and when the server
//! running a game's bot dies, the other takes the game over.

use crate::support::{Client, TestServer, database_url, play_out, table_of, temp_db};
use serde_json::{Value, json};
use tabletop_server::Config;

async fn two_servers() -> Option<(tempfile::TempDir, TestServer, TestServer)> {
    if std::env::var("TABLETOP_TEST_POSTGRES").is_err() {
        println!("skipped: set TABLETOP_TEST_POSTGRES=postgres://… to run two servers");
        return None;
    }
    let (dir, db) = temp_db();
    let url = database_url(&db).await;
    let start = |url: String| {
        TestServer::start_config(Config {
            database: url,
            lease_ms: 600,
            ..TestServer::config()
        })
    };
    let one = start(url.clone()).await;
    let two = start(url).await;
    Some((dir, one, two))
}

fn first_legal(_seat: usize, view: &Value) -> Value {
    json!({"play": view["state"]["legal"][0]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_servers_play_each_other() {
    let Some((_dir, one, two)) = two_servers().await else {
        return;
    };
    let mut a = Client::guest(&one.url()).await;
    let mut b = Client::guest(&two.url()).await;
    let table = table_of(
        &mut a,
        Some(&mut b),
        "reversi",
        Value::Null,
        json!(["me", "open"]),
    )
    .await;
    // Every move reaches the other player through the other server.
    let end = play_out(&table, &mut [Some(&mut a), Some(&mut b)], first_legal, 200).await;
    let seen_by_b = b.view_at_least(&table, end).await;
    assert!(!seen_by_b["ending"].is_null());
    // Both heard every version once, in order (a version may hold several events: a
    // move and the other side's forced pass).
    assert_eq!(a.events[&table], b.events[&table]);
    let mut versions: Vec<u64> = a.events[&table]
        .iter()
        .map(|e| e["version"].as_u64().unwrap())
        .collect();
    assert!(versions.is_sorted());
    versions.dedup();
    assert_eq!(versions, (1..=end).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_a_server_dies_the_other_takes_its_games_over() {
    let Some((_dir, one, two)) = two_servers().await else {
        return;
    };
    // A game against a bot made on server one: one holds its lease and runs the bot.
    let mut a = Client::guest(&one.url()).await;
    let table = table_of(
        &mut a,
        None,
        "reversi",
        Value::Null,
        json!(["me", {"bot": 1}]),
    )
    .await;
    let mut version = 0;
    for _ in 0..3 {
        let view = a.view_at_least(&table, version).await;
        let reply = a.act(&table, first_legal(0, &view)).await;
        assert_eq!(reply["type"], "acked", "{reply}");
        // The bot answers.
        version = reply["version"].as_u64().unwrap() + 1;
    }
    let view = a.view_at_least(&table, version).await;
    let token = a.token.clone();
    one.kill();
    // The player comes back through server two, which takes the bot over once the
    // dead server's lease runs out.
    let mut a = Client::connect(&two.url(), Some(&token)).await;
    a.open(&table, Some(view["version"].as_u64().unwrap()))
        .await;
    let end = play_out(&table, &mut [Some(&mut a), None], first_legal, 200).await;
    assert!(end > version);
}
