//! A load generator: `games` pairs of real WebSocket clients play the four games (pair
//! `k` plays reversi, nardy, battleship or sudoku by `k % 4`; a sudoku pair is two
//! players each at a table of their own) on a server of this machine (loopback only) for
//! a bounded time, each thinking a random time before each action, dropping its
//! connection now and then and coming back, and report how long the server took to
//! acknowledge actions and whether anything went wrong.
//!
//! Checks made on every message: an `error` counts in `errors`; an acknowledged version
//! other than the one after the actor's view is a `mismatch`, and so is a view whose
//! version is not that of the last event received; a gap in a client's event versions
//! counts the versions `lost`, a version received twice is `duplicated`. A client that
//! dropped its connection sends `open` with the last version it has and resends its
//! unacknowledged action with the same command id: the same checks hold across the drop.
//!
//! Given several servers (on one PostgreSQL database), the players connect to them in
//! turn: pair `k`'s first player to server `2k`, the second to `2k + 1` (modulo their
//! number), so with two servers every game has a player on each, and every action of one
//! of them goes through the other server's forwarding.

mod moves;
mod player;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use crate::games::GameKind;
use moves::{Memory, ROTATION, choose, may_act};
use player::{Gone, Player};

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// The servers, `ws://127.0.0.1:PORT/` (loopback only), one or more sharing a
    /// database; players are spread over them round-robin.
    pub urls: Vec<String>,
    /// Games played at once.
    pub games: usize,
    /// How long to play.
    pub duration: Duration,
    /// The shortest and longest think time before a move, in milliseconds.
    pub think_ms: (u64, u64),
    /// The chance, in percent, that a client drops its connection right after sending
    /// an action (it comes back, catches up and resends the action).
    pub drop_percent: f64,
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
    /// Connections dropped on purpose (and made again).
    pub drops: u64,
    /// The errors by kind: the server's error code, or what failed.
    pub error_kinds: Vec<(String, u64)>,
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
    drops: AtomicU64,
    error_kinds: Mutex<std::collections::BTreeMap<String, u64>>,
    latencies_us: Mutex<Vec<u64>>,
}

impl Counters {
    /// Counts an error of this kind (an error code, or what failed).
    async fn error(&self, kind: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        *self
            .error_kinds
            .lock()
            .await
            .entry(kind.to_owned())
            .or_default() += 1;
    }
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
    if config.urls.is_empty() {
        return Err("no server to load".into());
    }
    if let Some(url) = config.urls.iter().find(|u| !is_loopback(u)) {
        return Err(format!(
            "{url}: the load generator only targets this machine (ws://127.0.0.1:PORT/)"
        ));
    }
    if config.games == 0 || config.games > 5000 {
        return Err("games: 1 to 5000".into());
    }
    if config.duration > Duration::from_secs(600) {
        return Err("seconds: at most 600".into());
    }
    if !(0.0..=100.0).contains(&config.drop_percent) {
        return Err("drops: a percentage from 0 to 100".into());
    }
    let counters = Arc::new(Counters::default());
    let deadline = Instant::now() + config.duration;
    let mut tasks = Vec::new();
    for pair in 0..config.games {
        let (config, counters) = (config.clone(), counters.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(Gone(why)) = play_pair(&config, pair as u64, deadline, &counters).await {
                counters.error(&format!("a pair stopped: {why}")).await;
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
        drops: counters.drops.load(Ordering::Relaxed),
        error_kinds: counters
            .error_kinds
            .lock()
            .await
            .clone()
            .into_iter()
            .collect(),
    })
}

/// One pair of players: game after game until the deadline.
async fn play_pair(
    config: &LoadConfig,
    pair: u64,
    deadline: Instant,
    counters: &Arc<Counters>,
) -> Result<(), Gone> {
    let game = ROTATION[(pair % 4) as usize];
    let server = |player: u64| &config.urls[(2 * pair + player) as usize % config.urls.len()];
    let mut a = Player::connect(server(0)).await?;
    let mut b = Player::connect(server(1)).await?;
    let mut rng = ChaCha8Rng::seed_from_u64(pair);
    while Instant::now() < deadline {
        let seeds = (rng.random::<u64>(), rng.random::<u64>());
        let (ra, rb) = if game == GameKind::Sudoku {
            let (ta, _) = create(&mut a, game, json!(["me"]), counters).await?;
            let (tb, _) = create(&mut b, game, json!(["me"]), counters).await?;
            tokio::join!(
                play(&mut a, game, &ta, seeds.0, config, deadline, counters),
                play(&mut b, game, &tb, seeds.1, config, deadline, counters),
            )
        } else {
            let (table, invite) = create(&mut a, game, json!(["me", "open"]), counters).await?;
            b.request(json!({"type": "join", "invite": invite})).await?;
            tokio::join!(
                play(&mut a, game, &table, seeds.0, config, deadline, counters),
                play(&mut b, game, &table, seeds.1, config, deadline, counters),
            )
        };
        ra?;
        rb?;
    }
    Ok(())
}

/// Makes a table; returns its id and invite code.
async fn create(
    player: &mut Player,
    game: GameKind,
    seats: Value,
    counters: &Counters,
) -> Result<(String, String), Gone> {
    let created = player
        .request(json!({"type": "create", "game": game.name(), "seats": seats}))
        .await?;
    counters.games.fetch_add(1, Ordering::Relaxed);
    let id = created["table"]
        .as_str()
        .ok_or(Gone("a malformed answer"))?
        .to_owned();
    let invite = created["invite"]
        .as_str()
        .ok_or(Gone("a malformed answer"))?
        .to_owned();
    Ok((id, invite))
}

/// An action sent and not yet acknowledged.
struct Pending {
    id: String,
    message: Value,
    /// The version of the view it was chosen from.
    from: u64,
    sent: Instant,
    /// Resent after a drop: its time is not a server's answer time.
    resent: bool,
}

/// One player's side of one game: follows the table, acts when it may, drops its
/// connection at random and comes back.
async fn play(
    player: &mut Player,
    game: GameKind,
    table: &str,
    seed: u64,
    config: &LoadConfig,
    deadline: Instant,
    counters: &Counters,
) -> Result<(), Gone> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut memory = Memory::default();
    let opened = player
        .request(json!({"type": "open", "table": table}))
        .await?;
    let seat = opened["seat"].as_u64().ok_or(Gone("a malformed answer"))?;
    // The last event version received, and whether a reconnect's catch-up is under way
    // (it may end with a view past the last event: missed events sent as a view).
    let mut seen: Option<u64> = None;
    let mut catching_up = false;
    let mut pending: Option<Pending> = None;
    let mut view: Option<Value> = None;
    let mut moved_at: Option<u64> = None;
    let mut seeded = false;
    // The newest version acknowledged to this player: after coming back, a table behind
    // it lost acknowledged actions.
    let mut acked_max = 0;
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
                Err(Gone("the server fell silent"))
            };
        };
        let m = match m {
            Ok(m) => m,
            Err(Gone(_)) => {
                // The server went away (killed and restarted, say): come back.
                player.come_back().await?;
                resume(player, table, seen, pending.as_mut()).await?;
                catching_up = true;
                continue;
            }
        };
        match m["type"].as_str().unwrap_or("") {
            // "Could not store that; nothing changed": a server dying as it stored the
            // action says so. Send it again, as a person's client would.
            "error"
                if m["code"] == "not_stored"
                    && pending.as_ref().is_some_and(|p| m["id"] == p.id.as_str()) =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if let Some(p) = pending.as_mut() {
                    p.resent = true;
                    if player.say(p.message.clone()).await.is_err() {
                        player.come_back().await?;
                        resume(player, table, seen, Some(p)).await?;
                        catching_up = true;
                    }
                }
            }
            "error" => {
                let code = m["code"].as_str().unwrap_or("?");
                counters.error(code).await;
            }
            // Verified dice: a person's seat contributes a seed before the first roll.
            "table"
                if !seeded
                    && m["dice"].is_object()
                    && m["dice"]["seeds"][seat as usize].is_null() =>
            {
                let seed: [u8; 32] = rng.random();
                let seed = crate::identity::hex(&seed);
                player
                    .send(json!({"type": "seed", "table": table, "seed": seed}))
                    .await?;
                seeded = true;
            }
            // An empty catch-up (nothing was missed) says nothing.
            "events" if m["events"].as_array().is_some_and(|e| !e.is_empty()) => {
                let first = m["events"][0]["version"].as_u64().unwrap_or(0);
                let last = m["version"].as_u64().unwrap_or(0);
                if let Some(seen) = seen {
                    if first <= seen {
                        counters.duplicated.fetch_add(1, Ordering::Relaxed);
                    } else if first > seen + 1 {
                        counters.lost.fetch_add(first - seen - 1, Ordering::Relaxed);
                    }
                }
                seen = Some(last.max(seen.unwrap_or(0)));
            }
            "acked" => {
                if let Some(p) = pending.take_if(|p| m["id"] == p.id.as_str()) {
                    let version = m["version"].as_u64().unwrap_or(0);
                    acked_max = acked_max.max(version);
                    // Battleship fleets are placed at once: the other's may come between.
                    let exact = !(game == GameKind::Battleship
                        && p.message["action"]["play"]["place"].is_object());
                    if (exact && version != p.from + 1) || version <= p.from {
                        counters.mismatches.fetch_add(1, Ordering::Relaxed);
                    }
                    if !p.resent {
                        let us = p.sent.elapsed().as_micros() as u64;
                        counters.latencies_us.lock().await.push(us);
                    }
                }
            }
            "view" => {
                let version = m["view"]["version"].as_u64().unwrap_or(0);
                if version < acked_max {
                    counters
                        .lost
                        .fetch_add(acked_max - version, Ordering::Relaxed);
                    acked_max = version;
                }
                match seen {
                    Some(s) if s == version => {}
                    Some(s) if catching_up && version > s => seen = Some(version),
                    Some(_) => {
                        counters.mismatches.fetch_add(1, Ordering::Relaxed);
                        seen = Some(version);
                    }
                    None => seen = Some(version),
                }
                catching_up = false;
                if !m["view"]["ending"].is_null() || Instant::now() >= deadline {
                    return Ok(());
                }
                view = Some(m);
            }
            _ => {}
        }
        // Act when the newest view says so and the last action is acknowledged (after a
        // forced pass of the other side the view comes before that acknowledgement).
        let Some(current) = view.as_ref().map(|m| &m["view"]) else {
            continue;
        };
        let version = current["version"].as_u64().unwrap_or(0);
        if catching_up
            || pending.is_some()
            || moved_at >= Some(version)
            || !may_act(game, seat, current)
        {
            continue;
        }
        let Some(action) = choose(game, seat, current, &mut memory, &mut rng) else {
            continue;
        };
        let wait = rng.random_range(config.think_ms.0..=config.think_ms.1.max(config.think_ms.0));
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let id = player.new_id();
        let message = json!({"type": "act", "id": id, "table": table, "action": action});
        let sent = Instant::now();
        moved_at = Some(version);
        let mut p = Pending {
            id,
            message,
            from: version,
            sent,
            resent: false,
        };
        let dropped = rng.random_bool(config.drop_percent / 100.0);
        if player.say(p.message.clone()).await.is_err() || dropped {
            // A network loss right after sending (or while sending): come back, catch
            // up, send it again.
            if dropped {
                counters.drops.fetch_add(1, Ordering::Relaxed);
            }
            player.come_back().await?;
            resume(player, table, seen, Some(&mut p)).await?;
            catching_up = true;
        }
        pending = Some(p);
    }
}

/// After a new connection: follows the table again from the last version seen, and
/// resends the unacknowledged action under its id.
async fn resume(
    player: &mut Player,
    table: &str,
    seen: Option<u64>,
    pending: Option<&mut Pending>,
) -> Result<(), Gone> {
    let mut open = json!({"type": "open", "table": table});
    if let Some(s) = seen {
        open["since"] = json!(s);
    }
    player.send(open).await?;
    if let Some(p) = pending {
        player.say(p.message.clone()).await?;
        p.resent = true;
    }
    Ok(())
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
