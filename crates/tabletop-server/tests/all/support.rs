//! What the integration tests share: a real server on 127.0.0.1:0 over a temporary
//! SQLite file, run on its own runtime so a test can kill it at any await; and a real
//! WebSocket client that records every byte it receives.
//!
//! With `TABLETOP_TEST_POSTGRES` set to a PostgreSQL URL, every test's database is a new
//! PostgreSQL database made on that server instead (named after the test's temporary
//! path, so a restarted server finds the same one): the whole suite runs on both.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabletop_server::{Config, Server};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

/// How long a test waits for one message before failing.
pub const WAIT: Duration = Duration::from_secs(20);

/// A server on its own runtime.
pub struct TestServer {
    rt: Option<tokio::runtime::Runtime>,
    pub addr: SocketAddr,
}

impl TestServer {
    /// Starts a server over the SQLite file `db` on a free loopback port.
    pub async fn start(db: &Path) -> TestServer {
        TestServer::start_with(db, |_| {}).await
    }

    /// Starts one with changed settings.
    pub async fn start_with(db: &Path, change: impl FnOnce(&mut Config)) -> TestServer {
        let mut config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            database: database_url(db).await,
            bot_threads: 2,
            // The test clients play as fast as the server answers, far above a person.
            messages_per_second: 1000,
            message_burst: 1000,
            ..Config::default()
        };
        change(&mut config);
        TestServer::start_config(config).await
    }

    /// Starts one over a database URL.
    pub async fn start_url(url: String) -> TestServer {
        TestServer::start_config(Config {
            database: url,
            ..TestServer::config()
        })
        .await
    }

    /// The tests' settings: a free loopback port, two bot threads, no message limit
    /// a test client would reach.
    pub fn config() -> Config {
        Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            bot_threads: 2,
            messages_per_second: 1000,
            message_burst: 1000,
            ..Config::default()
        }
    }

    /// Starts one with these settings.
    pub async fn start_config(config: Config) -> TestServer {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = rt
            .spawn(async move {
                let server = Server::start(config).await.expect("the server starts");
                let addr = server.local_addr();
                // The server runs until its runtime is shut down.
                std::mem::forget(server);
                addr
            })
            .await
            .unwrap();
        TestServer {
            rt: Some(rt),
            addr: server,
        }
    }

    /// Kills the server: every task stops at its next await, as a killed process would
    /// (a transaction in progress is rolled back by SQLite).
    pub fn kill(mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }

    /// The server's URL.
    pub fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

/// The database of the temporary path `db`: the SQLite file itself or, with
/// `TABLETOP_TEST_POSTGRES` set, a PostgreSQL database made for it on first use.
pub async fn database_url(db: &Path) -> String {
    let Ok(admin) = std::env::var("TABLETOP_TEST_POSTGRES") else {
        return format!("sqlite://{}", db.display());
    };
    use sha2::Digest;
    let digest = sha2::Sha256::digest(db.display().to_string().as_bytes());
    let name: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("tabletop_test_{name}");
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin)
        .await
        .expect("the PostgreSQL of TABLETOP_TEST_POSTGRES answers");
    let exists = sqlx::query("SELECT 1 FROM pg_database WHERE datname = $1")
        .bind(&name)
        .fetch_optional(&mut conn)
        .await
        .unwrap()
        .is_some();
    if !exists {
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
    format!("{base}/{name}")
}

/// A temporary folder with a database path in it.
pub fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("server.sqlite");
    (dir, path)
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A client over a real WebSocket.
pub struct Client {
    ws: Ws,
    /// The player's id.
    pub player: String,
    /// The player's token.
    pub token: String,
    /// Every text frame received, in order.
    pub log: Vec<String>,
    /// The latest view of each table.
    pub views: HashMap<String, Value>,
    /// Every event received per table, in order.
    pub events: HashMap<String, Vec<Value>>,
    next: u64,
}

impl Client {
    /// Connects as a new guest.
    pub async fn guest(url: &str) -> Client {
        Client::connect(url, None).await
    }

    /// Connects, says hello (with a token to come back as the same player).
    pub async fn connect(url: &str, token: Option<&str>) -> Client {
        let (ws, _) = connect_async(url).await.expect("connects");
        let mut client = Client {
            ws,
            player: String::new(),
            token: token.unwrap_or_default().to_owned(),
            log: Vec::new(),
            views: HashMap::new(),
            events: HashMap::new(),
            next: 0,
        };
        let hello = match token {
            Some(t) => json!({"type": "hello", "protocol": 1, "token": t}),
            None => json!({"type": "hello", "protocol": 1}),
        };
        client.send(&hello).await;
        let welcome = client.until(|m| m["type"] == "welcome").await;
        client.player = welcome["player"].as_str().unwrap().to_owned();
        if let Some(t) = welcome["token"].as_str() {
            client.token = t.to_owned();
        }
        client
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &Value) {
        self.send_text(message.to_string()).await;
    }

    /// Sends a raw text frame.
    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.expect("sends");
    }

    /// Sends a raw frame, reporting failure.
    pub async fn try_send(&mut self, message: Message) -> bool {
        self.ws.send(message).await.is_ok()
    }

    /// The next message, or `None` when the server closed (with the close frame's code).
    pub async fn next_frame(&mut self) -> Result<Value, Option<u16>> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(&text).expect("JSON from the server");
                    self.log.push(text.to_string());
                    self.note(&value);
                    return Ok(value);
                }
                Some(Ok(Message::Close(frame))) => return Err(frame.map(|f| u16::from(f.code))),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Err(None),
            }
        }
    }

    fn note(&mut self, value: &Value) {
        let table = value["table"].as_str().unwrap_or_default().to_owned();
        match value["type"].as_str() {
            Some("view") => {
                self.views.insert(table, value["view"].clone());
            }
            Some("events") => self
                .events
                .entry(table)
                .or_default()
                .extend(value["events"].as_array().cloned().unwrap_or_default()),
            _ => {}
        }
    }

    /// The next message.
    pub async fn recv(&mut self) -> Value {
        self.next_frame().await.expect("the connection stays open")
    }

    /// Reads until a message matches.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// A fresh command id.
    pub fn id(&mut self) -> String {
        self.next += 1;
        format!("c{}", self.next)
    }

    /// Sends a command with a fresh id and returns the reply to it (or its error).
    pub async fn request(&mut self, mut message: Value) -> Value {
        let id = self.id();
        message["id"] = json!(id);
        self.request_as(message).await
    }

    /// Sends a command whose id is set and returns the reply to it.
    pub async fn request_as(&mut self, message: Value) -> Value {
        let id = message["id"].clone();
        self.send(&message).await;
        self.until(|m| m["id"] == id).await
    }

    /// Follows a table (views after events), from `since` if given; returns the reply.
    pub async fn open(&mut self, table: &str, since: Option<u64>) -> Value {
        let mut m = json!({"type": "open", "table": table});
        if let Some(v) = since {
            m["since"] = json!(v);
        }
        self.request(m).await
    }

    /// Reads until this client's view of `table` has at least `version`.
    pub async fn view_at_least(&mut self, table: &str, version: u64) -> Value {
        loop {
            if let Some(v) = self.views.get(table)
                && v["version"].as_u64().unwrap() >= version
            {
                return v.clone();
            }
            self.recv().await;
        }
    }

    /// Acts at a table; returns the reply (`acked` or `error`).
    pub async fn act(&mut self, table: &str, action: Value) -> Value {
        self.request(json!({"type": "act", "table": table, "action": action}))
            .await
    }
}

/// A seed of 32 bytes `byte` (64 hex digits).
pub fn seed_of(byte: u8) -> String {
    format!("{byte:02x}").repeat(32)
}

impl Client {
    /// Sends this client's seat's seed (32 bytes `byte`) to a nardy table; returns the
    /// reply (`seeded` or `error`).
    pub async fn seed(&mut self, table: &str, byte: u8) -> Value {
        self.request(json!({"type": "seed", "table": table, "seed": seed_of(byte)}))
            .await
    }

    /// Reads until this client's view of `table` shows dice (every seed is in).
    pub async fn rolled_view(&mut self, table: &str) -> Value {
        loop {
            if let Some(v) = self.views.get(table)
                && !v["state"]["dice"].is_null()
            {
                return v.clone();
            }
            self.recv().await;
        }
    }
}

/// Creates a table by `creator` with `seats` and, when a seat is open, seats `joiner`
/// with the invite code; both follow it. Returns the table id.
pub async fn table_of(
    creator: &mut Client,
    joiner: Option<&mut Client>,
    game: &str,
    rules: Value,
    seats: Value,
) -> String {
    let created = creator
        .request(json!({"type": "create", "game": game, "rules": rules, "seats": seats}))
        .await;
    assert_eq!(created["type"], "created", "{created}");
    let table = created["table"].as_str().unwrap().to_owned();
    if let Some(joiner) = joiner {
        let invite = created["invite"].as_str().unwrap();
        let joined = joiner
            .request(json!({"type": "join", "invite": invite}))
            .await;
        assert_eq!(joined["type"], "joined", "{joined}");
        let opened = joiner.open(&table, None).await;
        assert_eq!(opened["type"], "opened");
    }
    let opened = creator.open(&table, None).await;
    assert_eq!(opened["type"], "opened");
    table
}

/// Two guests at a new table of `game` (default rules) on `server`: the first (seat 0)
/// created it, the second (seat 1) joined with the invite code; both follow it.
pub async fn guest_pair(server: &TestServer, game: &str) -> (Client, Client, String) {
    let (mut a, mut b) = (
        Client::guest(&server.url()).await,
        Client::guest(&server.url()).await,
    );
    let table = table_of(
        &mut a,
        Some(&mut b),
        game,
        Value::Null,
        json!(["me", "open"]),
    )
    .await;
    (a, b, table)
}

/// The seat a view says must act, if the game goes on.
pub fn to_act(view: &Value) -> Option<usize> {
    view["to_act"].as_u64().map(|s| s as usize)
}

/// Plays a table to its end: `clients[i]` holds seat `i` (`None`: a bot's seat), and
/// `choose` picks the action of seat `i` from its view. Returns the final version.
pub async fn play_out(
    table: &str,
    clients: &mut [Option<&mut Client>],
    mut choose: impl FnMut(usize, &Value) -> Value,
    max_actions: usize,
) -> u64 {
    let mut version = 0;
    for _ in 0..max_actions {
        // Any person's client tells whose turn it is at the newest version it knows.
        let watcher = clients.iter_mut().flatten().next().expect("a person");
        let view = watcher.view_at_least(table, version).await;
        if !view["ending"].is_null() {
            return view["version"].as_u64().unwrap();
        }
        let seat = to_act(&view).expect("someone must act");
        let Some(client) = clients[seat].as_mut() else {
            // A bot's turn: wait for its action.
            version = view["version"].as_u64().unwrap() + 1;
            continue;
        };
        let view = client
            .view_at_least(table, view["version"].as_u64().unwrap())
            .await;
        let action = choose(seat, &view);
        let reply = client.act(table, action).await;
        assert_eq!(reply["type"], "acked", "{reply}");
        version = reply["version"].as_u64().unwrap();
    }
    panic!("the game did not end within {max_actions} actions");
}
