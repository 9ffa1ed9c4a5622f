//! `tabletop serve` as a process: it listens, keeps a game through SIGKILL, and comes
//! back with it on the same database.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// Starts `tabletop serve` on a free loopback port over `db`; returns it and its URL.
fn serve(db: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(format!("sqlite://{}", db.display()))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tabletop serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("listening on ws://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    (child, format!("ws://{addr}/"))
}

struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    token: String,
}

impl Client {
    fn connect(url: &str, token: Option<&str>) -> Client {
        let (ws, _) = tungstenite::connect(url).expect("connects");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        let mut client = Client {
            ws,
            token: token.unwrap_or_default().into(),
        };
        let mut hello = json!({"type": "hello", "protocol": 1});
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        let welcome = client.ask(hello, |m| m["type"] == "welcome");
        if let Some(t) = welcome["token"].as_str() {
            client.token = t.into();
        }
        client
    }

    /// Sends `message` and reads until `until` holds.
    fn ask(&mut self, message: Value, until: impl Fn(&Value) -> bool) -> Value {
        self.ws.send(Message::text(message.to_string())).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Message::Text(text) = self.ws.read().expect("a message") {
                let m: Value = serde_json::from_str(&text).unwrap();
                if until(&m) {
                    return m;
                }
            }
        }
        panic!("no answer to {message}");
    }
}

#[test]
fn serve_keeps_a_game_through_sigkill() {
    let dir = tempfile_dir();
    let db = dir.join("server.sqlite");
    let (mut server, url) = serve(&db);
    let mut a = Client::connect(&url, None);
    let created = a.ask(
        json!({"type": "create", "id": "c1", "game": "reversi", "seats": ["me", {"bot": 1}]}),
        |m| m["id"] == "c1",
    );
    let table = created["table"].as_str().unwrap().to_owned();
    let view = a.ask(json!({"type": "open", "id": "c2", "table": table}), |m| {
        m["type"] == "view"
    });
    let mv = json!({"play": view["view"]["state"]["legal"][0]});
    let acked = a.ask(
        json!({"type": "act", "id": "c3", "table": table, "action": mv}),
        |m| m["id"] == "c3",
    );
    assert_eq!(acked["type"], "acked", "{acked}");
    // Wait for the bot's reply, then kill the server outright.
    a.ask(json!({"type": "list", "id": "c4"}), |m| {
        m["type"] == "view" && m["view"]["version"] == 2
    });
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut server, url) = serve(&db);
    let mut a = Client::connect(&url, Some(&a.token.clone()));
    let opened = a.ask(
        json!({"type": "open", "id": "c5", "table": table, "since": 1}),
        |m| m["type"] == "events",
    );
    assert_eq!(opened["version"], 2, "{opened}");
    assert_eq!(opened["events"][0]["version"], 2);
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// A fresh folder under the system's temporary folder.
fn tempfile_dir() -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("tabletop-serve-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
