//! A player who leaves a game in progress: the others see it, the player may come back
//! within the grace period, and after it the opponent may claim the game.

use crate::support::{Client, TestServer, guest_pair, table_of, temp_db};
use serde_json::{Value, json};

fn code(reply: &Value) -> &str {
    reply["code"].as_str().unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opponent_away_past_the_grace_period_loses_the_game_by_claim() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, |c| c.grace_ms = 600).await;
    let (mut a, b, table) = guest_pair(&server, "reversi").await;
    let claim = json!({"type": "claim", "table": table});
    assert_eq!(code(&a.request(claim.clone()).await), "not_away");
    // B's connection drops: A hears that B is away.
    let token = b.token.clone();
    drop(b);
    let away = a
        .until(|m| m["type"] == "table" && m["away"][1].is_u64())
        .await;
    assert_eq!(away["grace_ms"], 600);
    assert!(away["away"][0].is_null(), "{away}");
    let early = a.request(claim.clone()).await;
    assert_eq!(code(&early), "too_soon", "{early}");
    // B comes back within the grace period: nothing to claim.
    let mut b = Client::connect(&server.url(), Some(&token)).await;
    b.open(&table, None).await;
    a.until(|m| m["type"] == "table" && m["away"][1].is_null())
        .await;
    assert_eq!(code(&a.request(claim.clone()).await), "not_away");
    // B goes again and stays away past the grace: A claims the game, once.
    drop(b);
    a.until(|m| m["type"] == "table" && m["away"][1].is_u64())
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let mut with_id = claim.clone();
    with_id["id"] = json!("claim-1");
    let won = a.request_as(with_id.clone()).await;
    assert_eq!(won["type"], "acked", "{won}");
    let again = a.request_as(with_id).await;
    assert_eq!(
        (again["type"].as_str(), again["duplicate"].as_bool()),
        (Some("acked"), Some(true))
    );
    assert_eq!(again["version"], won["version"]);
    let view = a
        .view_at_least(&table, won["version"].as_u64().unwrap())
        .await;
    assert_eq!(view["ending"]["reason"], "abandoned", "{view}");
    assert_eq!(view["ending"]["winner"], 0);
    assert_eq!(code(&a.request(claim.clone()).await), "game_over");
    // B, back later, finds the game lost; so it stays after a restart.
    server.kill();
    let server = TestServer::start(&db).await;
    let mut b = Client::connect(&server.url(), Some(&token)).await;
    b.open(&table, None).await;
    let view = b.view_at_least(&table, 0).await;
    assert_eq!(view["ending"]["reason"], "abandoned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_and_spectators_are_not_claimed_from_and_cannot_claim() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, |c| c.grace_ms = 1).await;
    let mut a = Client::guest(&server.url()).await;
    let table = table_of(
        &mut a,
        None,
        "reversi",
        Value::Null,
        json!(["me", {"bot": 1}]),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let claim = json!({"type": "claim", "table": table});
    assert_eq!(code(&a.request(claim.clone()).await), "not_away");
    let mut watcher = Client::guest(&server.url()).await;
    watcher.open(&table, None).await;
    assert_eq!(code(&watcher.request(claim).await), "not_your_seat");
    // A table still waiting for its second player has no game to claim.
    let mut c = Client::guest(&server.url()).await;
    let open = c
        .request(json!({"type": "create", "game": "reversi", "seats": ["me", "open"]}))
        .await;
    let reply = c
        .request(json!({"type": "claim", "table": open["table"]}))
        .await;
    assert_eq!(code(&reply), "waiting");
}
