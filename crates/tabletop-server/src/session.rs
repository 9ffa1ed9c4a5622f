//! One client's WebSocket: reads its commands, answers them or hands them to the rooms,
//! writes what the rooms send it, and closes it on a flood or an overflow.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::{SinkExt, StreamExt};
use governor::{Quota, RateLimiter};
use tokio::sync::{Notify, mpsc, oneshot};

use crate::accounts::{self, Password};
use crate::hub::{Hub, NewTable};
use crate::identity::{new_id, new_token, token_hash};
use crate::protocol::{ClientMessage, PROTOCOL, ServerMessage, parse};
use crate::room::{Conn, RoomMsg};

/// Messages waiting to be written to one client; more closes the connection.
const QUEUE: usize = 1024;

/// Wrong invite codes, table ids or passwords a connection may try before it is closed.
const MAX_BAD_GUESSES: u32 = 10;

/// The limits of a connection.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Messages per second.
    pub per_second: u32,
    /// Burst above that.
    pub burst: u32,
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A new connection number, unique in the process.
pub fn next_conn_id() -> u64 {
    NEXT_CONN.fetch_add(1, Ordering::Relaxed)
}

struct Session {
    hub: Arc<Hub>,
    conn: Option<Conn>,
    tx: mpsc::Sender<Utf8Bytes>,
    kick: Arc<Notify>,
    id: u64,
    rooms: HashMap<String, mpsc::Sender<RoomMsg>>,
    bad_guesses: u32,
}

/// Why the session ends on the server's side.
enum End {
    Flood,
    Overflow,
    Guessing,
}

/// Runs one client's connection to its end.
pub async fn run(socket: WebSocket, hub: Arc<Hub>, limits: Limits) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(QUEUE);
    let kick = Arc::new(Notify::new());
    let id = next_conn_id();
    let quota = Quota::per_second(NonZeroU32::new(limits.per_second).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(limits.burst).unwrap_or(NonZeroU32::MIN));
    let limiter = RateLimiter::direct(quota);
    let mut session = Session {
        hub,
        conn: None,
        tx,
        kick: kick.clone(),
        id,
        rooms: HashMap::new(),
        bad_guesses: 0,
    };
    tracing::debug!(conn = id, "connected");
    let end = loop {
        tokio::select! {
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        session.reply(&ServerMessage::error(None, "bad_message", "send JSON in text frames"));
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None => break None,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        tracing::debug!(conn = id, "read error: {e}");
                        let frame = CloseFrame { code: close_code::SIZE, reason: "message too big or broken".into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        break None;
                    }
                };
                if limiter.check().is_err() {
                    break Some(End::Flood);
                }
                if let Some(end) = session.handle(&text).await {
                    break Some(end);
                }
            }
            out = rx.recv() => {
                let Some(text) = out else { break None };
                if sink.send(Message::Text(text)).await.is_err() {
                    break None;
                }
            }
            () = kick.notified() => break Some(End::Overflow),
        }
    };
    if let Some(end) = end {
        // Flush what is queued (answers before the close), then close with a reason.
        while let Ok(text) = rx.try_recv() {
            if matches!(end, End::Overflow) || sink.send(Message::Text(text)).await.is_err() {
                break;
            }
        }
        let (code, reason) = match end {
            End::Flood => (close_code::POLICY, "too many messages"),
            End::Overflow => (
                close_code::AGAIN,
                "too slow to read: reconnect and catch up",
            ),
            End::Guessing => (close_code::POLICY, "too many wrong guesses"),
        };
        tracing::info!(conn = id, reason, "closing a connection");
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        let _ = sink.send(Message::Close(Some(frame))).await;
    }
    if let Some(conn) = &session.conn {
        for room in session.rooms.values() {
            let _ = room
                .send(RoomMsg::Close {
                    conn: conn.clone(),
                    id: None,
                })
                .await;
        }
    }
    tracing::debug!(conn = id, "disconnected");
}

impl Session {
    fn reply(&self, message: &ServerMessage) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.tx.try_send(message.to_text().into())
        {
            self.kick.notify_one();
        }
    }

    fn error(&self, id: Option<&str>, code: &str, message: impl Into<String>) {
        self.reply(&ServerMessage::error(id, code, message));
    }

    async fn handle(&mut self, text: &str) -> Option<End> {
        let message = match parse(text) {
            Ok(message) => message,
            Err(error) => {
                self.reply(&error);
                return None;
            }
        };
        if let ClientMessage::Hello {
            protocol,
            token,
            name,
            password,
        } = message
        {
            let login = match (name, password) {
                (Some(name), Some(password)) => Some((name, password)),
                (None, None) => None,
                _ => {
                    self.error(None, "bad_message", "log in with a name and a password");
                    return None;
                }
            };
            self.hello(protocol, token, login).await;
            return (self.bad_guesses >= MAX_BAD_GUESSES).then_some(End::Guessing);
        }
        let Some(conn) = self.conn.clone() else {
            self.error(message.id(), "hello_first", "say hello first");
            return None;
        };
        let hub = self.hub.clone();
        match message {
            ClientMessage::Hello { .. } => {}
            ClientMessage::Register { id, name, password } => {
                self.register(&conn.player, id, name, password).await;
            }
            ClientMessage::Create {
                id,
                game,
                rules,
                seats,
                clock,
                public,
            } => {
                let new = NewTable {
                    game,
                    rules,
                    seats,
                    clock,
                    public,
                };
                match hub.create(&conn.player, &id, new).await {
                    Ok((table, invite, seats)) => self.reply(&ServerMessage::Created {
                        id,
                        table,
                        invite,
                        seats,
                    }),
                    Err(e) => self.reply(&e.message(&id)),
                }
            }
            ClientMessage::Join { id, invite, table } => {
                let found = match (invite, table) {
                    (Some(invite), None) => hub.store.table_by_invite(&invite).await,
                    (None, Some(table)) => match hub.store.table(&table).await {
                        Ok(t) => Ok(t.filter(|t| t.public).map(|t| t.id)),
                        Err(e) => Err(e),
                    },
                    _ => {
                        self.error(Some(&id), "bad_message", "join with an invite or a table");
                        return None;
                    }
                };
                match found {
                    Ok(Some(table)) => {
                        if let Some(room) = self.room(&id, &table).await {
                            let _ = room.send(RoomMsg::Join { conn, id }).await;
                        }
                    }
                    Ok(None) => {
                        self.bad_guesses += 1;
                        self.error(Some(&id), "no_such_table", "no table has this invite code");
                        if self.bad_guesses >= MAX_BAD_GUESSES {
                            return Some(End::Guessing);
                        }
                    }
                    Err(e) => {
                        tracing::error!("database: {e}");
                        self.error(Some(&id), "not_stored", "the server could not do that now");
                    }
                }
            }
            ClientMessage::List { id } => self.list(id).await,
            ClientMessage::Open {
                id,
                table,
                since,
                views,
            } => {
                if let Some(room) = self.room(&id, &table).await {
                    self.rooms.insert(table, room.clone());
                    let _ = room
                        .send(RoomMsg::Open {
                            conn,
                            id,
                            since,
                            views,
                        })
                        .await;
                }
            }
            ClientMessage::Act {
                id,
                table,
                action,
                seat,
            } => {
                if let Some(room) = self.room(&id, &table).await {
                    let _ = room
                        .send(RoomMsg::Act {
                            conn,
                            id,
                            action,
                            seat,
                        })
                        .await;
                }
            }
            ClientMessage::Claim { id, table } => {
                if let Some(room) = self.room(&id, &table).await {
                    let _ = room.send(RoomMsg::Claim { conn, id }).await;
                }
            }
            ClientMessage::Seed {
                id,
                table,
                seed,
                seat,
            } => {
                if let Some(room) = self.room(&id, &table).await {
                    let _ = room
                        .send(RoomMsg::Seed {
                            conn,
                            id,
                            seed,
                            seat,
                        })
                        .await;
                }
            }
            ClientMessage::Close { id, table } => {
                if let Some(room) = self.rooms.remove(&table) {
                    let _ = room.send(RoomMsg::Close { conn, id: Some(id) }).await;
                } else {
                    self.error(Some(&id), "not_open", "you do not follow this table");
                }
            }
            ClientMessage::Rematch { id, table } => {
                match hub.rematch(&conn.player, &id, &table).await {
                    Ok((table, invite, seats)) => self.reply(&ServerMessage::Created {
                        id,
                        table,
                        invite,
                        seats,
                    }),
                    Err(e) => self.reply(&e.message(&id)),
                }
            }
            ClientMessage::History { id } => match hub.store.history(&conn.player).await {
                Ok(games) => self.reply(&ServerMessage::History { id, games }),
                Err(e) => {
                    tracing::error!("database: {e}");
                    self.error(Some(&id), "not_stored", "the server could not do that now");
                }
            },
            ClientMessage::Download { id, table } => {
                if let Some(room) = self.room(&id, &table).await {
                    let _ = room.send(RoomMsg::Download { conn, id }).await;
                }
            }
        }
        None
    }

    async fn register(&mut self, player: &str, id: String, name: String, password: Password) {
        if let Err(why) = accounts::check(&name, &password) {
            return self.error(Some(&id), "bad_account", why);
        }
        let Some(hash) = self
            .hub
            .bots
            .run(move || accounts::hash(&password))
            .await
            .flatten()
        else {
            return self.error(Some(&id), "bad_account", "this password cannot be hashed");
        };
        match self.hub.store.set_account(player, &name, &hash).await {
            Ok(true) => self.reply(&ServerMessage::Registered { id, name }),
            Ok(false) => self.error(
                Some(&id),
                "name_taken",
                "this name is taken, or your player has a name already",
            ),
            Err(e) => {
                tracing::error!("database: {e}");
                self.error(Some(&id), "not_stored", "the server could not do that now");
            }
        }
    }

    /// The player of an account, if the password matches.
    async fn login(&mut self, name: String, password: Password) -> Option<String> {
        let account = match self.hub.store.account(&name).await {
            Ok(account) => account,
            Err(e) => {
                tracing::error!("database: {e}");
                self.error(None, "not_stored", "the server could not do that now");
                return None;
            }
        };
        let (player, stored) = match account {
            Some((player, hash)) => (Some(player), Some(hash)),
            None => (None, None),
        };
        let ok = self
            .hub
            .bots
            .run(move || accounts::verify(&password, stored.as_deref()))
            .await
            .unwrap_or(false);
        if !ok {
            self.bad_guesses += 1;
            self.error(None, "bad_login", "wrong name or password");
            return None;
        }
        player
    }

    async fn hello(
        &mut self,
        protocol: u32,
        token: Option<String>,
        login: Option<(String, Password)>,
    ) {
        if protocol != PROTOCOL {
            return self.error(
                None,
                "bad_protocol",
                format!("this server speaks protocol {PROTOCOL}"),
            );
        }
        if self.conn.is_some() {
            return self.error(None, "bad_message", "hello once per connection");
        }
        if let Some((name, password)) = login {
            if let Some(player) = self.login(name, password).await {
                self.welcome(player, None);
            }
            return;
        }
        let store = &self.hub.store;
        let (player, new_token) = match token {
            Some(token) => match store.player_by_token(&token_hash(&token)).await {
                Ok(Some(player)) => (player, None),
                Ok(None) => {
                    return self.error(
                        None,
                        "bad_token",
                        "unknown token: say hello without one to be a new guest",
                    );
                }
                Err(e) => {
                    tracing::error!("database: {e}");
                    return self.error(None, "not_stored", "the server could not do that now");
                }
            },
            None => {
                let (player, token) = (new_id("p"), new_token());
                if let Err(e) = store.create_guest(&player, &token_hash(&token)).await {
                    tracing::error!("database: {e}");
                    return self.error(None, "not_stored", "the server could not do that now");
                }
                (player, Some(token))
            }
        };
        self.welcome(player, new_token);
    }

    fn welcome(&mut self, player: String, new_token: Option<String>) {
        tracing::debug!(conn = self.id, %player, "hello");
        self.conn = Some(Conn {
            id: self.id,
            player: player.clone(),
            tx: self.tx.clone(),
            kick: self.kick.clone(),
        });
        self.reply(&ServerMessage::Welcome {
            protocol: PROTOCOL,
            player,
            token: new_token,
        });
    }

    async fn room(&mut self, id: &str, table: &str) -> Option<mpsc::Sender<RoomMsg>> {
        if let Some(room) = self.rooms.get(table) {
            return Some(room.clone());
        }
        match self.hub.room(table).await {
            Ok(Some(room)) => Some(room),
            Ok(None) => {
                self.error(Some(id), "no_such_table", format!("no table {table:?}"));
                None
            }
            Err(e) => {
                self.reply(&e.message(id));
                None
            }
        }
    }

    async fn list(&mut self, id: String) {
        let ids = match self.hub.store.open_tables().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::error!("database: {e}");
                return self.error(Some(&id), "not_stored", "the server could not do that now");
            }
        };
        let mut tables = Vec::new();
        for table in ids {
            let Ok(Some(room)) = self.hub.room(&table).await else {
                continue;
            };
            let (reply, answer) = oneshot::channel();
            if room.send(RoomMsg::Info { reply }).await.is_ok()
                && let Ok(Some(info)) = answer.await
            {
                tables.push(info);
            }
        }
        self.reply(&ServerMessage::Tables { id, tables });
    }
}
