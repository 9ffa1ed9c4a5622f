//! A room: the one task that owns a live table. Every change of the table goes through
//! it, one message at a time, so no two actions race; every change is stored (one
//! transaction) before anyone hears of it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use tabletop_play::{Seat, Viewer};
use tokio::sync::{Notify, mpsc, oneshot};

mod commands;
mod forwarding;
mod owner;
mod presence;
mod replica;

use crate::bots::BotPool;
use crate::cluster::Node;
use crate::dice::{Dice, hide_dice};
use crate::forward::Command;
use crate::games::{Input, Live, Setup, fleet_salt};
use crate::identity::hex;
use crate::protocol::{ServerMessage, TableInfo};
use crate::store::{Commit, Presence, Store, now_ms, status};

mod seeding;

pub use owner::{Owner, bots_of, status_of};

/// Catch-up longer than this many events is sent as a view (when that is shorter).
const MAX_CATCH_UP: usize = 512;

/// A table's save is stored again every this many versions (and when its status
/// changes), so a rebuild replays at most this many inputs.
const SNAPSHOT_EVERY: u64 = 100;

/// A client's connection as rooms see it: who it is and where its messages go.
#[derive(Debug, Clone)]
pub struct Conn {
    /// The connection's number (unique in the process).
    pub id: u64,
    /// The player.
    pub player: String,
    /// Its outgoing queue (bounded).
    pub tx: mpsc::Sender<Utf8Bytes>,
    /// Rung when the queue overflowed: the connection closes (the client reconnects and
    /// catches up from its last version).
    pub kick: Arc<Notify>,
}

impl Conn {
    /// Queues a message; a full queue kicks the connection.
    pub fn send(&self, message: &ServerMessage) {
        self.send_text(message.to_text().into());
    }

    /// Queues a text.
    pub fn send_text(&self, text: Utf8Bytes) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.tx.try_send(text) {
            self.kick.notify_one();
        }
    }

    fn error(&self, id: &str, code: &str, message: impl Into<String>) {
        self.send(&ServerMessage::error(Some(id), code, message));
    }
}

/// What a room is asked.
#[derive(Debug)]
pub enum RoomMsg {
    /// Follow the table (as its seat's player, or a spectator).
    Open {
        /// Who.
        conn: Conn,
        /// The command id.
        id: String,
        /// The last version the client has.
        since: Option<u64>,
        /// Whether to send views after events.
        views: bool,
    },
    /// Take an open seat.
    Join {
        /// Who.
        conn: Conn,
        /// The command id.
        id: String,
    },
    /// Act for a seat.
    Act {
        /// Who.
        conn: Conn,
        /// The command id.
        id: String,
        /// The game's action.
        action: Value,
        /// The seat, when the player holds several.
        seat: Option<u8>,
    },
    /// Claim the game from an opponent away past the grace period.
    Claim {
        /// Who.
        conn: Conn,
        /// The command id.
        id: String,
    },
    /// A seat's contribution to the dice (nardy).
    Seed {
        /// Who.
        conn: Conn,
        /// The command id.
        id: String,
        /// The seed as the client sent it (64 hex digits).
        seed: String,
        /// The seat, when the player holds several.
        seat: Option<u8>,
    },
    /// Stop following (`id` is `None` when the connection ended).
    Close {
        /// Who.
        conn: Conn,
        /// The command id, when the client asked.
        id: Option<String>,
    },
    /// The save, once the game is over.
    Download {
        /// Who.
        conn: Conn,
        /// The command id.
        id: String,
    },
    /// The table for the list of open tables.
    Info {
        /// Where the answer goes (`None` once the table is full).
        reply: oneshot::Sender<Option<TableInfo>>,
    },
    /// The rematch of this (finished) table was made: tell the followers.
    Rematched {
        /// The new table.
        next: String,
    },
    /// A server changed the table (an action made this version, if given): read what
    /// it stored, unless the room has that version already (its own change).
    Refresh(Option<u64>),
    /// Another server's players at the table changed: read where they are.
    Presence,
    /// Another server came: store this server's presence at the table.
    SharePresence,
    /// Whether this server holds the table's lease (applies its actions, runs its bots
    /// and clock).
    Lease(bool),
    /// A command forwarded to this server as the table's owner: its id, and the
    /// player and command (JSON) when the notification carried them (else they are
    /// stored under the id).
    Forwarded(String, Option<String>),
    /// The owner's answer to a command this server forwarded for `conn`: it goes out
    /// after the events it acknowledges (see [`Room::answer_forwarded`]).
    Answer {
        /// Who asked.
        conn: Conn,
        /// The answer as the owner sent it.
        text: String,
    },
    /// A bot's action, computed at `version`.
    Bot {
        /// The version the bot saw.
        version: u64,
        /// Its action (`None`: it found none, or failed).
        action: Option<Value>,
    },
}

struct Sub {
    conn: Conn,
    viewer: Viewer,
    views: bool,
}

/// A table's state in its room.
pub struct Room {
    /// The table's id.
    pub id: String,
    /// What made it.
    pub setup: Setup,
    /// Its status (`open`, `playing`, `finished`).
    pub status: &'static str,
    /// The table.
    pub live: Live,
    /// Who holds each seat.
    pub seats: Vec<Owner>,
    /// Command ids applied here: (player, id) → version.
    pub commands: HashMap<(String, String), u64>,
    /// The database.
    pub store: Store,
    /// Where bots think.
    pub bots: BotPool,
    /// Nardy: the dice commitment and the seats' seeds (`None`: another game, or a table
    /// made before dice commitments).
    pub dice: Option<Dice>,
    subs: Vec<Sub>,
    bot_pending: bool,
    /// How long a player may be away before the opponent may claim the game (ms).
    grace_ms: u64,
    /// Whether this server applies the table's actions and runs its bots and clock:
    /// always alone on a database; with others, while it holds the table's lease.
    owner: bool,
    /// This server, when several may share the database.
    node: Option<Arc<Node>>,
    /// For each seat, since when (ms) its player has followed the table on no
    /// connection here; `None` while it does (and for bots and open seats).
    away_since: Vec<Option<u64>>,
    /// With other servers: where the players are according to them.
    elsewhere: HashMap<String, Presence>,
    /// With other servers: this server's presence changed and is not stored yet.
    presence_dirty: bool,
    /// With other servers: where this server's presence goes to be stored.
    presence_writer: Option<tokio::sync::watch::Sender<presence::Players>>,
    /// Where the room's own messages go (commands it forwarded come back when it takes
    /// the table over).
    me: Option<mpsc::WeakSender<RoomMsg>>,
}

impl Room {
    /// A room for a table; [`Room::spawn`] runs it.
    pub fn new(
        id: String,
        setup: Setup,
        status: &'static str,
        live: Live,
        seats: Vec<Owner>,
        store: Store,
        bots: BotPool,
    ) -> Room {
        // Nobody follows a new room: every person's seat is away from now on.
        let away_since = seats
            .iter()
            .map(|s| matches!(s, Owner::Player(_)).then(now_ms))
            .collect();
        let owner = store.shared_url().is_none();
        Room {
            id,
            setup,
            status,
            live,
            seats,
            commands: HashMap::new(),
            store,
            bots,
            dice: None,
            subs: Vec::new(),
            bot_pending: false,
            grace_ms: crate::Config::default().grace_ms,
            owner,
            node: None,
            away_since,
            elsewhere: HashMap::new(),
            presence_dirty: false,
            presence_writer: None,
            me: None,
        }
    }

    /// The same room, its players allowed `grace_ms` away before a claim, on the server
    /// named `node` when several share the database.
    pub fn with_grace(mut self, grace_ms: u64, node: Option<Arc<Node>>) -> Room {
        self.grace_ms = grace_ms;
        self.node = node;
        self
    }

    /// The same room, owning its table or not (see [`RoomMsg::Lease`]).
    pub fn owning(mut self, owner: bool) -> Room {
        self.owner = owner;
        self
    }

    /// Runs the room on its own task; returns where to send it messages.
    pub fn spawn(self) -> mpsc::Sender<RoomMsg> {
        let (tx, rx) = mpsc::channel(256);
        tokio::spawn(self.run(rx, tx.downgrade()));
        tx
    }

    async fn run(mut self, mut rx: mpsc::Receiver<RoomMsg>, me: mpsc::WeakSender<RoomMsg>) {
        self.me = Some(me.clone());
        loop {
            if self.presence_dirty {
                self.store_presence();
            }
            self.start_bot(&me);
            let flag_at = (self.owner && self.status == status::PLAYING)
                .then(|| self.live.flag_at(now_ms()))
                .flatten();
            let sleep = async {
                match flag_at {
                    Some(at) => {
                        tokio::time::sleep(Duration::from_millis(at.saturating_sub(now_ms()) + 1))
                            .await
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                () = sleep => self.tick().await,
            }
        }
    }

    async fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Open {
                conn,
                id,
                since,
                views,
            } => self.open(conn, id, since, views),
            RoomMsg::Join { conn, id } => self.join(conn, id).await,
            RoomMsg::Act {
                conn,
                id,
                action,
                seat,
            } if self.forwards() => self.forward(conn, Command::Act { id, action, seat }),
            RoomMsg::Act {
                conn,
                id,
                action,
                seat,
            } => self.act(conn, id, action, seat).await,
            RoomMsg::Claim { conn, id } if self.forwards() => {
                self.forward(conn, Command::Claim { id });
            }
            RoomMsg::Claim { conn, id } => self.claim(conn, id).await,
            RoomMsg::Seed {
                conn,
                id,
                seed,
                seat,
            } => self.seed(conn, id, seed, seat).await,
            RoomMsg::Close { conn, id } => {
                self.subs.retain(|s| s.conn.id != conn.id);
                self.note_presence(None);
                if let Some(id) = id {
                    conn.send(&ServerMessage::Closed {
                        id,
                        table: self.id.clone(),
                    });
                }
            }
            RoomMsg::Download { conn, id } => {
                if self.status != status::FINISHED {
                    conn.error(&id, "not_finished", "a save is given once the game is over");
                } else {
                    conn.send(&ServerMessage::Save {
                        id,
                        table: self.id.clone(),
                        game: self.setup.game,
                        hex: hex(&self.live.to_bytes()),
                    });
                }
            }
            RoomMsg::Info { reply } => {
                let open = self.status == status::OPEN;
                let _ = reply.send(open.then(|| TableInfo {
                    table: self.id.clone(),
                    game: self.setup.game,
                    rules: self.setup.rules.clone(),
                    clock: self.setup.clock,
                    seats: self.seats.iter().map(Owner::json).collect(),
                }));
            }
            RoomMsg::Rematched { next } => {
                let text: Utf8Bytes = ServerMessage::Rematch {
                    table: self.id.clone(),
                    next,
                }
                .to_text()
                .into();
                for sub in &self.subs {
                    sub.conn.send_text(text.clone());
                }
            }
            RoomMsg::Bot { version, action } => self.bot_moved(version, action).await,
            RoomMsg::Refresh(Some(version)) if version <= self.live.version() => {}
            RoomMsg::Refresh(Some(_)) => self.refresh().await,
            // Joins and seeds: no action.
            RoomMsg::Refresh(None) => self.refresh().await,
            RoomMsg::Presence => self.read_presence().await,
            RoomMsg::SharePresence => self.presence_dirty = self.node.is_some(),
            RoomMsg::Lease(owner) => {
                let gained = owner && !self.owner;
                self.owner = owner;
                if gained {
                    // The last owner may have stored actions not heard of yet.
                    self.refresh().await;
                }
            }
            RoomMsg::Forwarded(fid, inline) => self.forwarded(fid, inline).await,
            RoomMsg::Answer { conn, text } => self.answer_forwarded(conn, text).await,
        }
    }

    /// The seats `player` holds.
    fn seats_of(&self, player: &str) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&i| matches!(&self.seats[i], Owner::Player(p) if p == player))
            .map(|i| Seat(i as u8))
            .collect()
    }

    fn status_message(&self) -> ServerMessage {
        let commitments = self.live.fleet_commitments(self.setup.seed);
        let salts = (commitments.is_some() && self.status == status::FINISHED).then(|| {
            (0..self.seats.len())
                .map(|s| hex(&fleet_salt(self.setup.seed, Seat(s as u8))))
                .collect()
        });
        ServerMessage::Table {
            table: self.id.clone(),
            status: self.status.into(),
            seats: self.seats.iter().map(Owner::json).collect(),
            commitments,
            salts,
            dice: self
                .dice
                .as_ref()
                .map(|d| d.info(self.status == status::FINISHED)),
            away: (self.status == status::PLAYING).then(|| {
                let now = now_ms();
                self.away()
                    .iter()
                    .map(|since| since.map(|t| now.saturating_sub(t)))
                    .collect()
            }),
            grace_ms: (self.status == status::PLAYING).then_some(self.grace_ms),
        }
    }

    /// Tells every follower who holds the seats and the status.
    fn send_status(&self) {
        let text: Utf8Bytes = self.status_message().to_text().into();
        for sub in &self.subs {
            sub.conn.send_text(text.clone());
        }
    }

    /// Notes which seats' players follow the table on no connection here now, and tells
    /// the followers (but `quiet`, which is told otherwise) when who is away changed.
    fn note_presence(&mut self, quiet: Option<u64>) {
        self.subs.retain(|s| !s.conn.tx.is_closed());
        let before = self.away();
        let now = now_ms();
        for (seat, owner) in self.seats.iter().enumerate() {
            let here = match owner {
                Owner::Player(p) => self.subs.iter().any(|s| &s.conn.player == p),
                _ => true,
            };
            let since = &mut self.away_since[seat];
            if here != since.is_none() {
                *since = (!here).then_some(now);
                // Other servers learn it from the database.
                self.presence_dirty = self.node.is_some();
            }
        }
        if self.away() != before && self.status == status::PLAYING {
            let text: Utf8Bytes = self.status_message().to_text().into();
            for sub in self.subs.iter().filter(|s| Some(s.conn.id) != quiet) {
                sub.conn.send_text(text.clone());
            }
        }
    }

    fn open(&mut self, conn: Conn, id: String, since: Option<u64>, views: bool) {
        let seat = self.seats_of(&conn.player).first().copied();
        let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
        self.subs.retain(|s| s.conn.id != conn.id);
        self.subs.push(Sub {
            conn: conn.clone(),
            viewer,
            views,
        });
        self.note_presence(Some(conn.id));
        conn.send(&ServerMessage::Opened {
            id: id.clone(),
            table: self.id.clone(),
            seat: seat.map(|s| s.0),
        });
        conn.send(&self.status_message());
        let version = self.live.version();
        let view = self.view_text(viewer);
        match since {
            Some(v) if v > version => {
                conn.error(
                    &id,
                    "stale_version",
                    format!("the table is at version {version}, not {v}: here is its view"),
                );
                conn.send_text(view);
            }
            Some(v) => {
                let missed = self.live.events_since(v);
                let events = (missed.len() <= MAX_CATCH_UP).then(|| {
                    Utf8Bytes::from(
                        ServerMessage::Events {
                            table: self.id.clone(),
                            version,
                            events: missed,
                        }
                        .to_text(),
                    )
                });
                match events {
                    Some(events) if events.len() <= view.len() || views => {
                        conn.send_text(events);
                        if views {
                            conn.send_text(view);
                        }
                    }
                    _ => conn.send_text(view),
                }
            }
            None => conn.send_text(view),
        }
    }

    /// Whether the table waits for seeds: no dice exist yet.
    fn seeds_pending(&self) -> bool {
        self.dice.as_ref().is_some_and(|d| !d.complete())
    }

    fn view_text(&self, viewer: Viewer) -> Utf8Bytes {
        let view = self.live.view(viewer, now_ms());
        ServerMessage::View {
            table: self.id.clone(),
            view: if self.seeds_pending() {
                hide_dice(view)
            } else {
                view
            },
        }
        .to_text()
        .into()
    }

    /// Stores `input` and the events it made, then makes `next` (the table after it)
    /// the table and tells every follower. Returns false (changing nothing) if storing
    /// failed.
    async fn commit(
        &mut self,
        next: Live,
        events: &[Value],
        input: &Input,
        command: Option<(&str, &str)>,
    ) -> bool {
        let ending = next.ending_json();
        let status = if ending.is_some() {
            status::FINISHED
        } else {
            self.status
        };
        let version = next.version();
        let changed = status != self.status;
        let commit = Commit {
            table: self.id.clone(),
            version,
            input: serde_json::to_string(input).unwrap_or_default(),
            status: changed.then(|| (status, ending.as_ref().map(Value::to_string))),
            snapshot: (changed || version.is_multiple_of(SNAPSHOT_EVERY))
                .then(|| hex(&next.to_bytes())),
            events: serde_json::to_string(events).unwrap_or_default(),
            command: command.map(|(p, c)| (p.to_owned(), c.to_owned())),
        };
        if let Err(e) = self.store.commit(commit).await {
            tracing::error!(table = %self.id, "storing an action: {e}");
            // Another server on the database may have stored this version first.
            if self.store.shared_url().is_some() {
                self.refresh().await;
            }
            return false;
        }
        let committed = self.live.fleet_commitments(self.setup.seed);
        self.live = next;
        let status_changed =
            self.status != status || committed != self.live.fleet_commitments(self.setup.seed);
        self.status = status;
        self.broadcast(events.to_vec());
        if status_changed {
            self.send_status();
        }
        true
    }

    /// Sends new events to every follower, and each its view when it asked for views.
    fn broadcast(&mut self, events: Vec<Value>) {
        self.subs.retain(|s| !s.conn.tx.is_closed());
        let events: Utf8Bytes = ServerMessage::Events {
            table: self.id.clone(),
            version: self.live.version(),
            events,
        }
        .to_text()
        .into();
        let mut views: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        for sub in &self.subs {
            sub.conn.send_text(events.clone());
            if sub.views {
                let view = views
                    .entry(sub.viewer)
                    .or_insert_with(|| self.view_text(sub.viewer))
                    .clone();
                sub.conn.send_text(view);
            }
        }
    }

    fn start_bot(&mut self, me: &mpsc::WeakSender<RoomMsg>) {
        if !self.owner || self.bot_pending || self.status != status::PLAYING || self.seeds_pending()
        {
            return;
        }
        let version = self.live.version();
        // The bot's randomness: fixed by the table's seed and version, so a restart
        // replays the same choice.
        let seed = self.setup.seed ^ version.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let Some(job) = self.live.bot_job(seed) else {
            return;
        };
        let Some(me) = me.upgrade() else {
            return;
        };
        self.bot_pending = true;
        let bots = self.bots.clone();
        tokio::spawn(async move {
            let action = bots.run(job).await.flatten();
            let _ = me.send(RoomMsg::Bot { version, action }).await;
        });
    }

    async fn bot_moved(&mut self, version: u64, action: Option<Value>) {
        self.bot_pending = false;
        if version != self.live.version() {
            return;
        }
        let (Some(action), Some((seat, _))) = (action, self.live.bot_to_act()) else {
            tracing::error!(table = %self.id, version, "the bot found no action");
            // Do not ask it again at this version: the table waits (a person may resign).
            self.bot_pending = true;
            return;
        };
        let mut next = self.live.clone();
        let at = now_ms();
        match next.apply(seat, &action, at) {
            Ok(events) => {
                let input = Input::Act {
                    seat: seat.0,
                    action,
                    at,
                };
                if !self.commit(next, &events, &input, None).await {
                    // Let the room try again at its next message.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
            Err(e) => {
                tracing::error!(table = %self.id, version, "the table refused a bot's action: {e:?}");
                self.bot_pending = true;
            }
        }
    }

    async fn tick(&mut self) {
        let mut next = self.live.clone();
        let at = now_ms();
        let events = next.tick(at);
        if !events.is_empty() && !self.commit(next, &events, &Input::Tick { at }, None).await {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
