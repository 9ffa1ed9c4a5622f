//! One load-test client: a WebSocket connection that keeps its guest token, so it can
//! drop the connection on purpose and come back as the same player.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A connection failed or the server closed it, or answered with an error: what
/// happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone(pub &'static str);

/// A client: its connection, identity and command counter.
pub struct Player {
    url: String,
    ws: Ws,
    token: String,
    next_id: u64,
}

async fn open_socket(url: &str) -> Result<Ws, Gone> {
    // No Nagle: small frames go at once (else delayed ACKs add 40 ms a move).
    let connect = tokio_tungstenite::connect_async_with_config(url, None, true);
    match tokio::time::timeout(Duration::from_secs(10), connect).await {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(_)) => Err(Gone("could not connect")),
        Err(_) => Err(Gone("connecting took over 10 s")),
    }
}

impl Player {
    /// Connects as a new guest.
    pub async fn connect(url: &str) -> Result<Player, Gone> {
        let ws = open_socket(url).await?;
        let mut player = Player {
            url: url.to_owned(),
            ws,
            token: String::new(),
            next_id: 0,
        };
        player.say(json!({"type": "hello", "protocol": 1})).await?;
        let welcome = player.until(|m| m["type"] == "welcome").await?;
        player.token = welcome["token"]
            .as_str()
            .ok_or(Gone("no token"))?
            .to_owned();
        Ok(player)
    }

    /// Drops the connection without a word (as a network loss does) and connects
    /// again as the same player.
    pub async fn reconnect(&mut self) -> Result<(), Gone> {
        self.ws = open_socket(&self.url).await?;
        let hello = json!({"type": "hello", "protocol": 1, "token": self.token});
        self.say(hello).await?;
        self.until(|m| m["type"] == "welcome").await?;
        Ok(())
    }

    /// Connects again until it works (the server may be restarting), for up to 30 s.
    pub async fn come_back(&mut self) -> Result<(), Gone> {
        let give_up = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            if self.reconnect().await.is_ok() {
                return Ok(());
            }
            if tokio::time::Instant::now() >= give_up {
                return Err(Gone("could not come back within 30 s"));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Sends a command and reads until its answer, sending it again under the same id
    /// after a lost connection (the server applies it once); an `error` answer fails.
    pub async fn request(&mut self, mut message: Value) -> Result<Value, Gone> {
        let id = self.new_id();
        message["id"] = json!(id);
        loop {
            let answer = match self.say(message.clone()).await {
                Ok(()) => self.until(|m| m["id"] == id.as_str()).await,
                Err(gone) => Err(gone),
            };
            match answer {
                Ok(m) if m["type"] == "error" => return Err(Gone("a command was refused")),
                Ok(m) => return Ok(m),
                Err(_) => self.come_back().await?,
            }
        }
    }

    /// A new command id.
    pub fn new_id(&mut self) -> String {
        self.next_id += 1;
        format!("l{}", self.next_id)
    }

    /// Sends a command with a new id; returns the id.
    pub async fn send(&mut self, mut message: Value) -> Result<String, Gone> {
        let id = self.new_id();
        message["id"] = json!(id);
        self.say(message).await?;
        Ok(id)
    }

    /// Sends a message as it is (a resent command keeps its id).
    pub async fn say(&mut self, message: Value) -> Result<(), Gone> {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .map_err(|_| Gone("sending failed"))
    }

    /// The next message.
    pub async fn recv(&mut self) -> Result<Value, Gone> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(text))) => {
                    return serde_json::from_str(&text).map_err(|_| Gone("not JSON"));
                }
                Some(Ok(_)) => continue,
                _ => return Err(Gone("the connection closed")),
            }
        }
    }

    /// Reads until a message matches; an `error` on the way fails (unless it matches).
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Result<Value, Gone> {
        loop {
            let m = self.recv().await?;
            if pred(&m) {
                return Ok(m);
            }
            if m["type"] == "error" {
                return Err(Gone("an error came"));
            }
        }
    }
}
