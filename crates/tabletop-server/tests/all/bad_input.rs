//! Bad input: a clear error (or a close with the right code), and nothing else changes.

use crate::support::{Client, TestServer, guest_pair, temp_db};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

fn code(reply: &Value) -> &str {
    assert_eq!(reply["type"], "error", "{reply}");
    reply["code"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_commands_get_errors_and_change_nothing() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let (mut a, mut b, table) = guest_pair(&server, "reversi").await;
    let view = a.view_at_least(&table, 0).await;
    let legal = json!({"play": view["state"]["legal"][0]});

    a.send_text("{not json".into()).await;
    assert_eq!(code(&a.until(|m| m["type"] == "error").await), "bad_json");
    a.send_text(r#"{"type":"teleport","id":"x1"}"#.into()).await;
    let reply = a.until(|m| m["type"] == "error").await;
    assert_eq!((code(&reply), &reply["id"]), ("unknown_type", &json!("x1")));
    let reply = a.request(json!({"type": "act", "table": table})).await;
    assert_eq!(code(&reply), "bad_message");
    assert_eq!(
        code(&a.act(&table, json!({"play": "z9"})).await),
        "bad_action"
    );
    // Undo is off against a remote person (the table says so).
    assert_eq!(code(&a.act(&table, json!("undo")).await), "not_a_person");
    assert_eq!(code(&a.act(&table, json!("timeout")).await), "table_only");
    // Seat 1 (b's) may not be played by a; b may not move on a's turn.
    let reply = a
        .request(json!({"type": "act", "table": table, "action": legal, "seat": 1}))
        .await;
    assert_eq!(code(&reply), "not_your_seat");
    assert_eq!(code(&b.act(&table, legal.clone()).await), "not_your_turn");
    let illegal = json!({"play": {"Place": 0}});
    assert_eq!(code(&a.act(&table, illegal).await), "illegal");
    // A spectator holds no seat.
    let mut watcher = Client::guest(&server.url()).await;
    watcher.open(&table, None).await;
    assert_eq!(
        code(&watcher.act(&table, legal.clone()).await),
        "not_your_seat"
    );
    assert_eq!(
        code(&watcher.act("t0000", legal.clone()).await),
        "no_such_table"
    );
    // A version from the future: an error, then the view.
    let reply = watcher.open(&table, Some(99)).await;
    assert_eq!(reply["type"], "opened");
    assert_eq!(
        code(&watcher.until(|m| m["type"] == "error").await),
        "stale_version"
    );
    let view = watcher.until(|m| m["type"] == "view").await;
    assert_eq!(view["view"]["version"], 0, "nothing changed");
    assert_eq!(
        code(&a.request(json!({"type": "download", "table": table})).await),
        "not_finished"
    );

    // The game goes on: a resigns; after that, nothing more is accepted.
    assert_eq!(a.act(&table, json!("resign")).await["type"], "acked");
    assert_eq!(code(&b.act(&table, legal.clone()).await), "game_over");
    let view = watcher.view_at_least(&table, 1).await;
    assert_eq!(view["version"], 1);
    assert_eq!(view["ending"]["reason"], "resigned");
    assert_eq!(view["ending"]["winner"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identity_and_tables_refuse_forgeries() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let url = server.url();
    // Commands before hello, a wrong protocol, a forged token.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    let say = async |ws: &mut tokio_tungstenite::WebSocketStream<_>, text: &str| -> Value {
        ws.send(Message::text(text.to_owned())).await.unwrap();
        let reply = ws.next().await.unwrap().unwrap();
        serde_json::from_str(reply.to_text().unwrap()).unwrap()
    };
    assert_eq!(
        code(&say(&mut ws, r#"{"type":"list","id":"1"}"#).await),
        "hello_first"
    );
    assert_eq!(
        code(&say(&mut ws, r#"{"type":"hello","protocol":2}"#).await),
        "bad_protocol"
    );
    let forged = format!(
        r#"{{"type":"hello","protocol":1,"token":"{}"}}"#,
        "ab".repeat(32)
    );
    assert_eq!(code(&say(&mut ws, &forged).await), "bad_token");
    let welcome = say(&mut ws, r#"{"type":"hello","protocol":1}"#).await;
    assert_eq!(welcome["type"], "welcome");
    assert_eq!(welcome["token"].as_str().unwrap().len(), 64);

    let mut a = Client::guest(&url).await;
    // Bad tables.
    for (create, expected) in [
        (json!({"game": "reversi", "seats": ["me"]}), "bad_seats"),
        (
            json!({"game": "reversi", "seats": ["open", "open"]}),
            "bad_seats",
        ),
        (
            json!({"game": "reversi", "seats": ["me", {"bot": 11}]}),
            "bad_seats",
        ),
        (
            json!({"game": "sudoku", "seats": [{"bot": 1}]}),
            "bad_seats",
        ),
        (
            json!({"game": "sudoku", "seats": ["me"], "rules": {"size": 5}}),
            "bad_rules",
        ),
        (
            json!({"game": "reversi", "seats": ["me", "open"], "clock": {"minutes": 0}}),
            "bad_clock",
        ),
    ] {
        let mut m = create;
        m["type"] = json!("create");
        assert_eq!(code(&a.request(m).await), expected);
    }
    let reply = a
        .request(json!({"type": "create", "game": "go", "seats": ["me"]}))
        .await;
    assert_eq!(code(&reply), "bad_message");
    // A public table is listed until it is full; a private one never.
    let public = a
        .request(json!({"type": "create", "game": "battleship", "seats": ["open", "me"], "public": true}))
        .await;
    let private = a
        .request(json!({"type": "create", "game": "reversi", "seats": ["me", "open"]}))
        .await;
    let mut b = Client::guest(&url).await;
    let list = b.request(json!({"type": "list"})).await;
    let listed: Vec<&Value> = list["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["table"])
        .collect();
    assert!(
        listed.contains(&&public["table"]) && !listed.contains(&&private["table"]),
        "{list}"
    );
    assert_eq!(
        code(
            &b.request(json!({"type": "join", "table": private["table"]}))
                .await
        ),
        "no_such_table"
    );
    let joined = b
        .request(json!({"type": "join", "table": public["table"]}))
        .await;
    assert_eq!(joined["seat"], 0);
    let mut c = Client::guest(&url).await;
    assert_eq!(
        code(
            &c.request(json!({"type": "join", "table": public["table"]}))
                .await
        ),
        "table_full"
    );
    let list = c.request(json!({"type": "list"})).await;
    assert!(list["tables"].as_array().unwrap().is_empty(), "{list}");
    // Guessing invite codes: an error each, and the connection is closed after ten.
    for i in 0..9 {
        let reply = c
            .request(json!({"type": "join", "invite": format!("GUESS{i}")}))
            .await;
        assert_eq!(code(&reply), "no_such_table");
    }
    c.send(&json!({"type": "join", "id": "last", "invite": "GUESS9"}))
        .await;
    loop {
        match c.next_frame().await {
            Ok(_) => continue,
            Err(close) => {
                assert_eq!(close, Some(1008));
                break;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_and_oversized_frames_close_the_connection() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(&db, |c| {
        c.messages_per_second = 5;
        c.message_burst = 10;
        c.max_message_bytes = 4096;
    })
    .await;
    let mut a = Client::guest(&server.url()).await;
    for i in 0..40 {
        if !a
            .try_send(Message::text(format!(r#"{{"type":"list","id":"f{i}"}}"#)))
            .await
        {
            break;
        }
    }
    let close = loop {
        match a.next_frame().await {
            Ok(_) => continue,
            Err(close) => break close,
        }
    };
    assert_eq!(close, Some(1008), "a flood closes with 'policy violation'");

    let mut b = Client::guest(&server.url()).await;
    let big = format!(r#"{{"type":"list","id":"{}"}}"#, "x".repeat(8000));
    b.try_send(Message::text(big)).await;
    let close = loop {
        match b.next_frame().await {
            Ok(_) => continue,
            Err(close) => break close,
        }
    };
    assert!(matches!(close, Some(1009) | None), "{close:?}");
    // The server is still there for others.
    let mut c = Client::guest(&server.url()).await;
    assert_eq!(c.request(json!({"type": "list"})).await["type"], "tables");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_log_in_with_argon2id_passwords() {
    let (_dir, db) = temp_db();
    let server = TestServer::start(&db).await;
    let url = server.url();
    let mut ann = Client::guest(&url).await;
    let register = json!({"type": "register", "name": "ann_1", "password": "correct horse"});
    let reply = ann.request(register.clone()).await;
    assert_eq!(reply["type"], "registered", "{reply}");
    let created = ann
        .request(json!({"type": "create", "game": "reversi", "seats": ["me", {"bot": 1}]}))
        .await;
    // The name is taken; a short password is refused.
    let mut bob = Client::guest(&url).await;
    assert_eq!(code(&bob.request(register).await), "name_taken");
    let short = json!({"type": "register", "name": "bob", "password": "short"});
    assert_eq!(code(&bob.request(short).await), "bad_account");
    // Logging in from elsewhere: the same player, who holds her seat; no token is sent.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    let mut frames = Vec::new();
    for password in ["wrong horse", "correct horse"] {
        let hello = json!({"type": "hello", "protocol": 1, "name": "ann_1", "password": password});
        ws.send(Message::text(hello.to_string())).await.unwrap();
        let reply = ws.next().await.unwrap().unwrap();
        frames.push(reply.to_text().unwrap().to_owned());
    }
    let wrong: Value = serde_json::from_str(&frames[0]).unwrap();
    assert_eq!(code(&wrong), "bad_login");
    let welcome: Value = serde_json::from_str(&frames[1]).unwrap();
    assert_eq!(welcome["type"], "welcome");
    assert_eq!(welcome["player"].as_str(), Some(ann.player.as_str()));
    assert!(welcome.get("token").is_none());
    let open = json!({"type": "open", "id": "o1", "table": created["table"]});
    ws.send(Message::text(open.to_string())).await.unwrap();
    let opened: Value =
        serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(opened["seat"], 0);
    // An unknown name is refused the same way.
    let mut other = Client::guest(&url).await;
    drop(other.request(json!({"type": "list"})).await);
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let hello =
        json!({"type": "hello", "protocol": 1, "name": "nobody", "password": "correct horse"});
    ws.send(Message::text(hello.to_string())).await.unwrap();
    let reply: Value =
        serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(code(&reply), "bad_login");
    // No frame the server sent holds a password.
    for text in ann.log.iter().chain(&bob.log).chain(&frames) {
        assert!(!text.contains("horse"), "{text}");
    }
}
