//! `tabletop serve` as a process: it listens, keeps a game through SIGKILL, and comes
//! back with it on the same database.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

use crate::support::temp_dir;

/// Starts `tabletop serve` on a free loopback port over `db`; returns it and its URL.
fn serve(db: &std::path::Path) -> (KillOnDrop, String) {
    let database = format!("sqlite://{}", db.display());
    let (child, addr) = start_serve(&["--listen", "127.0.0.1:0", "--database", &database]);
    (KillOnDrop(child), format!("ws://{addr}/"))
}

/// Starts `tabletop serve ARGS…` and returns it with the `HOST:PORT` it listens on (read
/// from its first line).
pub fn start_serve(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .arg("serve")
        .args(args)
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
    (child, addr)
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
        self.wait(until)
    }

    /// Reads until `until` holds; an error message fails the test.
    fn wait(&mut self, until: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Message::Text(text) = self.ws.read().expect("a message") {
                let m: Value = serde_json::from_str(&text).unwrap();
                if until(&m) {
                    return m;
                }
                assert_ne!(m["type"], "error", "{m}");
            }
        }
        panic!("no answer in time");
    }
}

#[test]
fn serve_keeps_a_game_through_sigkill() {
    let tmp = temp_dir("serve");
    let db = tmp.path().join("server.sqlite");
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
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let (mut server, url) = serve(&db);
    let mut a = Client::connect(&url, Some(&a.token.clone()));
    let opened = a.ask(
        json!({"type": "open", "id": "c5", "table": table, "since": 1}),
        |m| m["type"] == "events",
    );
    assert_eq!(opened["version"], 2, "{opened}");
    assert_eq!(opened["events"][0]["version"], 2);
    server.0.kill().unwrap();
    server.0.wait().unwrap();
}

/// A server process killed when the test ends, even by a failed assertion. Bound after
/// the test's temporary folder, it is dropped first: the server stops before its
/// database's folder goes.
pub(crate) struct KillOnDrop(pub(crate) Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `tabletop ARGS` with `stdin`.
fn tabletop(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_server_nardy_game_passes_verify_and_a_tampered_save_fails() {
    let tmp = temp_dir("serve");
    let dir = tmp.path();
    let (mut server, url) = serve(&dir.join("server.sqlite"));
    let mut a = Client::connect(&url, None);
    let created = a.ask(
        json!({"type": "create", "id": "c1", "game": "nardy", "seats": ["me", {"bot": 1}]}),
        |m| m["id"] == "c1",
    );
    let table = created["table"].as_str().unwrap().to_owned();
    let first = a.ask(json!({"type": "open", "id": "c2", "table": table}), |m| {
        m["type"] == "table"
    });
    let commitment = first["dice"]["commitment"].as_str().unwrap().to_owned();
    let seed = json!({"type": "seed", "id": "c3", "table": table, "seed": "ab".repeat(32)});
    let mut view = a.ask(seed, |m| {
        m["type"] == "view" && !m["view"]["state"]["dice"].is_null()
    })["view"]
        .clone();
    // Play the first legal step whenever it is seat 0's turn (slower than the server's
    // limit of 20 messages a second), then resign: a finished game with some turns.
    for n in 0.. {
        if !view["ending"].is_null() {
            break;
        }
        let version = view["version"].as_u64().unwrap();
        let newer = move |m: &Value| {
            m["type"] == "view" && m["view"]["version"].as_u64().unwrap() > version
        };
        let next = if n >= 40 || view["to_act"] == 0 {
            std::thread::sleep(Duration::from_millis(60));
            let action = if n >= 40 {
                json!("resign")
            } else {
                json!({"play": {"step": view["state"]["legal_steps"][0]}})
            };
            let act =
                json!({"type": "act", "id": format!("a{n}"), "table": table, "action": action});
            if n >= 40 {
                // The bot's move may come between: wait for the end itself.
                a.ask(act, |m| {
                    m["type"] == "view" && !m["view"]["ending"].is_null()
                })
            } else {
                a.ask(act, newer)
            }
        } else {
            a.wait(newer)
        };
        view = next["view"].clone();
    }
    let save = a.ask(
        json!({"type": "download", "id": "d", "table": table}),
        |m| m["id"] == "d",
    );
    let bytes: Vec<u8> = (0..save["hex"].as_str().unwrap().len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&save["hex"].as_str().unwrap()[i..i + 2], 16).unwrap())
        .collect();
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let file = dir.join("game.ttpl");
    let path = file.to_str().unwrap();
    std::fs::write(&file, &bytes).unwrap();
    let out = tabletop(&["nardy", "verify", path], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("verdict: the dice check out"), "{text}");
    let out = tabletop(
        &[
            "nardy",
            "verify",
            path,
            "--commitment",
            &commitment,
            "--json",
        ],
        "",
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["verified"].clone(), out.status.code()),
        (json!(true), Some(0))
    );
    assert_eq!(v["seeds"][0], "ab".repeat(32));
    assert_eq!(v["seeds"][1], "0".repeat(64), "a bot's seat: zeros");
    // The save still opens to play.
    let out = tabletop(&["nardy", "--load", path], "quit\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Another commitment than the one published, a changed seed, a changed server seed.
    let other = "0".repeat(64);
    let out = tabletop(&["nardy", "verify", path, "--commitment", &other], "");
    assert_eq!(out.status.code(), Some(1));
    let proof = bytes.windows(4).position(|w| w == b"TTDP").unwrap() + 6;
    for (at, failed) in [(proof + 64, "game_seed_ok"), (proof + 32, "commitment_ok")] {
        let mut tampered = bytes.clone();
        tampered[at] ^= 1;
        std::fs::write(&file, &tampered).unwrap();
        let out = tabletop(&["nardy", "verify", path, "--json"], "");
        assert_eq!(out.status.code(), Some(1));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((&v["verified"], &v[failed]), (&json!(false), &json!(false)));
        let out = tabletop(&["nardy", "verify", path], "");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("do NOT check out"), "{text}");
    }
}
