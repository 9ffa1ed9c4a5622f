//! A load generator: `games` pairs of real WebSocket clients play reversi against each
//! other on a server of this machine (loopback only) for a bounded time, each thinking a
//! random time before each move, and report how long the server took to acknowledge
//! moves and whether anything went wrong.
//!
//! Checks made on every message: an `error` counts in `errors`; an acknowledged version
//! other than the one after the mover's view is a `mismatch`; a gap in a client's event
//! versions counts the versions `lost`, a version received twice is `duplicated`.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// The server, `ws://127.0.0.1:PORT/` (loopback only).
    pub url: String,
    /// Games played at once.
    pub games: usize,
    /// How long to play.
    pub duration: Duration,
    /// The shortest and longest think time before a move, in milliseconds.
    pub think_ms: (u64, u64),
}

/// What was measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadReport {
    /// Games started.
    pub games: u64,
    /// Moves acknowledged.
    pub actions: u64,
    /// The median time from sending a move to its acknowledgement, in ms.
    pub p50_ms: f64,
    /// The 99th percentile of that time, in ms.
    pub p99_ms: f64,
    /// Errors received, and connections that failed.
    pub errors: u64,
    /// Acknowledged versions other than expected.
    pub mismatches: u64,
    /// Event versions never received.
    pub lost: u64,
    /// Event versions received twice.
    pub duplicated: u64,
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "loadtest: games {} · actions {} · p50 {:.1} ms · p99 {:.1} ms · errors {} · \
             mismatches {} · lost {} · duplicated {}",
            self.games,
            self.actions,
            self.p50_ms,
            self.p99_ms,
            self.errors,
            self.mismatches,
            self.lost,
            self.duplicated
        )
    }
}

#[derive(Default)]
struct Counters {
    games: AtomicU64,
    errors: AtomicU64,
    mismatches: AtomicU64,
    lost: AtomicU64,
    duplicated: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
}

/// Whether a `ws://` URL names this machine (127.0.0.0/8, `localhost` or `::1`).
pub fn is_loopback(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("ws://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Runs the load; fails only for a URL off this machine or bad limits.
pub async fn run(config: LoadConfig) -> Result<LoadReport, String> {
    if !is_loopback(&config.url) {
        return Err("the load generator only targets this machine (ws://127.0.0.1:PORT/)".into());
    }
    if config.games == 0 || config.games > 5000 {
        return Err("games: 1 to 5000".into());
    }
    if config.duration > Duration::from_secs(600) {
        return Err("seconds: at most 600".into());
    }
    let counters = Arc::new(Counters::default());
    let deadline = Instant::now() + config.duration;
    let mut tasks = Vec::new();
    for pair in 0..config.games {
        let (url, counters) = (config.url.clone(), counters.clone());
        let think = config.think_ms;
        tasks.push(tokio::spawn(async move {
            if play_pair(&url, pair as u64, think, deadline, &counters)
                .await
                .is_err()
            {
                counters.errors.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    let mut latencies = counters.latencies_us.lock().await.clone();
    latencies.sort_unstable();
    let pct = |p: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[i] as f64 / 1000.0
    };
    Ok(LoadReport {
        games: counters.games.load(Ordering::Relaxed),
        actions: latencies.len() as u64,
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
        errors: counters.errors.load(Ordering::Relaxed),
        mismatches: counters.mismatches.load(Ordering::Relaxed),
        lost: counters.lost.load(Ordering::Relaxed),
        duplicated: counters.duplicated.load(Ordering::Relaxed),
    })
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Player {
    ws: Ws,
    next_id: u64,
}

impl Player {
    async fn connect(url: &str) -> Result<Player, ()> {
        // No Nagle: small frames go at once (else delayed ACKs add 40 ms a move).
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
            .await
            .map_err(|_| ())?;
        let mut player = Player { ws, next_id: 0 };
        player.send(json!({"type": "hello", "protocol": 1})).await?;
        player.until(|m| m["type"] == "welcome").await?;
        Ok(player)
    }

    async fn send(&mut self, mut message: Value) -> Result<String, ()> {
        self.next_id += 1;
        let id = format!("l{}", self.next_id);
        if message["type"] != "hello" {
            message["id"] = json!(id);
        }
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .map_err(|_| ())?;
        Ok(id)
    }

    async fn recv(&mut self) -> Result<Value, ()> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(text))) => {
                    return serde_json::from_str(&text).map_err(|_| ());
                }
                Some(Ok(_)) => continue,
                _ => return Err(()),
            }
        }
    }

    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Result<Value, ()> {
        loop {
            let m = self.recv().await?;
            if m["type"] == "error" {
                return Err(());
            }
            if pred(&m) {
                return Ok(m);
            }
        }
    }
}

/// One pair of players: game after game until the deadline.
async fn play_pair(
    url: &str,
    pair: u64,
    think: (u64, u64),
    deadline: Instant,
    counters: &Arc<Counters>,
) -> Result<(), ()> {
    let mut a = Player::connect(url).await?;
    let mut b = Player::connect(url).await?;
    let mut rng = ChaCha8Rng::seed_from_u64(pair);
    while Instant::now() < deadline {
        a.send(json!({"type": "create", "game": "reversi", "seats": ["me", "open"]}))
            .await?;
        let created = a.until(|m| m["type"] == "created").await?;
        let table = created["table"].as_str().ok_or(())?.to_owned();
        b.send(json!({"type": "join", "invite": created["invite"]}))
            .await?;
        b.until(|m| m["type"] == "joined").await?;
        counters.games.fetch_add(1, Ordering::Relaxed);
        let seeds = (rng.random::<u64>(), rng.random::<u64>());
        let (ra, rb) = tokio::join!(
            play(&mut a, &table, seeds.0, think, deadline, counters),
            play(&mut b, &table, seeds.1, think, deadline, counters),
        );
        ra?;
        rb?;
    }
    Ok(())
}

/// One player's side of one game: follows the table and moves when it is its turn.
async fn play(
    player: &mut Player,
    table: &str,
    seed: u64,
    think: (u64, u64),
    deadline: Instant,
    counters: &Counters,
) -> Result<(), ()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    player.send(json!({"type": "open", "table": table})).await?;
    let opened = player.until(|m| m["type"] == "opened").await?;
    let seat = opened["seat"].as_u64().ok_or(())?;
    let mut last_version: Option<u64> = None;
    let mut pending: Option<(String, u64, Instant)> = None;
    let mut view: Option<Value> = None;
    let mut moved_at: Option<u64> = None;
    loop {
        // After the deadline the other player stops moving: a quiet second ends the game.
        let patience = if Instant::now() >= deadline {
            Duration::from_secs(1)
        } else {
            deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(10)
        };
        let Ok(m) = tokio::time::timeout(patience, player.recv()).await else {
            return if Instant::now() >= deadline {
                Ok(())
            } else {
                Err(())
            };
        };
        let m = m?;
        match m["type"].as_str().unwrap_or("") {
            "error" => {
                counters.errors.fetch_add(1, Ordering::Relaxed);
            }
            "events" => {
                let first = m["events"][0]["version"].as_u64().unwrap_or(0);
                let last = m["version"].as_u64().unwrap_or(0);
                if let Some(seen) = last_version {
                    if first <= seen {
                        counters.duplicated.fetch_add(1, Ordering::Relaxed);
                    } else if first > seen + 1 {
                        counters.lost.fetch_add(first - seen - 1, Ordering::Relaxed);
                    }
                }
                last_version = Some(last.max(last_version.unwrap_or(0)));
            }
            "acked" => {
                if let Some((id, expected, sent)) = pending.take() {
                    if m["id"] != id.as_str() {
                        counters.errors.fetch_add(1, Ordering::Relaxed);
                    } else if m["version"].as_u64() != Some(expected) {
                        counters.mismatches.fetch_add(1, Ordering::Relaxed);
                    }
                    let us = sent.elapsed().as_micros() as u64;
                    counters.latencies_us.lock().await.push(us);
                }
            }
            "view" => {
                let version = m["view"]["version"].as_u64().unwrap_or(0);
                if last_version.is_none() {
                    last_version = Some(version);
                }
                if !m["view"]["ending"].is_null() || Instant::now() >= deadline {
                    return Ok(());
                }
                view = Some(m);
            }
            _ => {}
        }
        // Move when the newest view says so and the last move is acknowledged (after a
        // forced pass of the other side the view comes before that acknowledgement).
        let Some(current) = view.as_ref().map(|m| &m["view"]) else {
            continue;
        };
        let version = current["version"].as_u64().unwrap_or(0);
        if current["to_act"].as_u64() != Some(seat)
            || pending.is_some()
            || moved_at >= Some(version)
        {
            continue;
        }
        let legal = current["state"]["legal"].as_array().ok_or(())?;
        if legal.is_empty() {
            continue;
        }
        let mv = legal[rng.random_range(0..legal.len())].clone();
        let wait = rng.random_range(think.0..=think.1.max(think.0));
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let sent = Instant::now();
        let id = player
            .send(json!({"type": "act", "table": table, "action": {"play": mv}}))
            .await?;
        pending = Some((id, version + 1, sent));
        moved_at = Some(version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_machine_is_a_target() {
        assert!(is_loopback("ws://127.0.0.1:8080/"));
        assert!(is_loopback("ws://127.3.2.1:1"));
        assert!(is_loopback("ws://localhost:9/"));
        assert!(is_loopback("ws://[::1]:8080/"));
        assert!(!is_loopback("ws://10.0.0.1:8080/"));
        assert!(!is_loopback("ws://example.org/"));
        assert!(!is_loopback("wss://127.0.0.1/"));
        let line = LoadReport {
            games: 2,
            actions: 3,
            p50_ms: 3.06,
            p99_ms: 21.0,
            ..LoadReport::default()
        }
        .to_string();
        assert_eq!(
            line,
            "loadtest: games 2 · actions 3 · p50 3.1 ms · p99 21.0 ms · errors 0 · \
             mismatches 0 · lost 0 · duplicated 0"
        );
    }
}
