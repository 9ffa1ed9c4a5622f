//! The hub: every room of the process by table id, making new tables and bringing stored
//! ones back (at start for unfinished tables, on demand for finished ones).

use std::collections::HashMap;
use std::sync::Arc;

use tabletop_play::Player;
use tokio::sync::{Mutex, OnceCell, mpsc};

use crate::bots::BotPool;
use crate::cluster::Node;
use crate::dice::Dice;
use crate::games::{ClockSpec, GameKind, Input, Live, Setup};
use crate::identity::{hex, new_id, new_invite, new_seed, random_bytes, unhex};
use crate::protocol::{SeatSpec, ServerMessage};
use crate::room::{Owner, Room, RoomMsg, bots_of, status_of};
use crate::store::{Store, StoreError, StoredTable, status};

/// What a client asked to create.
#[derive(Debug, Clone)]
pub struct NewTable {
    /// The game.
    pub game: GameKind,
    /// The rule variant.
    pub rules: serde_json::Value,
    /// The seats.
    pub seats: Vec<SeatSpec>,
    /// The clock.
    pub clock: Option<ClockSpec>,
    /// Whether it is listed.
    pub public: bool,
}

/// Why a table could not be made or found.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// The request is wrong; the message says why.
    #[error("{1}")]
    Bad(&'static str, String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl HubError {
    /// The error as a message to the client.
    pub fn message(&self, id: &str) -> ServerMessage {
        match self {
            HubError::Bad(code, message) => ServerMessage::error(Some(id), code, message.clone()),
            HubError::Store(e) => {
                tracing::error!("database: {e}");
                ServerMessage::error(Some(id), "not_stored", "the server could not do that now")
            }
        }
    }
}

/// A room once loaded.
type Slot = Arc<OnceCell<mpsc::Sender<RoomMsg>>>;

/// The rooms of the process.
#[derive(Debug)]
pub struct Hub {
    /// The database.
    pub store: Store,
    /// Where bots think.
    pub bots: BotPool,
    /// Each room, or a room being loaded: whoever asks for it meanwhile waits for the
    /// whole table (and only that table's askers wait).
    rooms: Mutex<HashMap<String, Slot>>,
    grace_ms: u64,
    /// With other servers on the database: this server among them.
    pub cluster: Option<Arc<Node>>,
}

impl Hub {
    /// A hub with no room yet, whose players may stay away `grace_ms` before their
    /// opponents may claim their games.
    pub fn new(store: Store, bots: BotPool, grace_ms: u64) -> Hub {
        Hub {
            store,
            bots,
            rooms: Mutex::new(HashMap::new()),
            grace_ms,
            cluster: None,
        }
    }

    /// This server among those sharing the database.
    fn node(&self) -> Option<Arc<Node>> {
        self.cluster.clone()
    }

    /// Every room now, with its table's id.
    pub async fn rooms(&self) -> Vec<(String, mpsc::Sender<RoomMsg>)> {
        let rooms = self.rooms.lock().await;
        rooms
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.get()?.clone())))
            .collect()
    }

    /// A notification from a server: a command forwarded to a table's owner (`fwd TABLE
    /// ID [COMMAND]`), the owner's answer to one forwarded from here (`ans ID [TEXT]`),
    /// a server's players at a table (`pre TABLE NODE`), or a table
    /// changed (`TABLE [VERSION]`, the version an action made): its room here, if any,
    /// catches up.
    pub async fn changed(&self, payload: &str) {
        if let Some(answer) = payload.strip_prefix("ans ") {
            return self.answered(answer).await;
        }
        if let Some(presence) = payload.strip_prefix("pre ") {
            let Some((table, node)) = presence.split_once(' ') else {
                return;
            };
            if self.cluster.as_ref().is_some_and(|me| me.name == node) {
                return;
            }
            let room = self.rooms.lock().await.get(table).cloned();
            if let Some(room) = room.as_ref().and_then(|r| r.get()) {
                let _ = room.send(RoomMsg::Presence).await;
            }
            return;
        }
        let (table, message) = match payload.strip_prefix("fwd ") {
            Some(rest) => {
                let mut parts = rest.splitn(3, ' ');
                let (Some(table), Some(fid)) = (parts.next(), parts.next()) else {
                    return;
                };
                let fid = fid.to_owned();
                (
                    table,
                    RoomMsg::Forwarded(fid, parts.next().map(str::to_owned)),
                )
            }
            None => match payload.split_once(' ') {
                Some((table, v)) => (table, RoomMsg::Refresh(v.parse().ok())),
                None => (payload, RoomMsg::Refresh(None)),
            },
        };
        let room = self.rooms.lock().await.get(table).cloned();
        if let Some(room) = room.as_ref().and_then(|r| r.get()) {
            let _ = room.send(message).await;
        }
    }

    /// The owner's answer to a command forwarded from here (`ID TEXT`, or `ID` alone
    /// when the text was too long to carry: then it is read from the database).
    async fn answered(&self, answer: &str) {
        let Some(node) = &self.cluster else { return };
        let (id, text) = match answer.split_once(' ') {
            Some((id, text)) => (id, Some(text.to_owned())),
            None => (answer, None),
        };
        let Some(waiting) = node.pending.lock().ok().and_then(|mut p| p.remove(id)) else {
            return;
        };
        let text = match text {
            Some(text) => Some(text),
            None => {
                let row = self.store.forwarded(id).await.ok().flatten();
                let _ = self.store.forget_forwarded(id).await;
                row.and_then(|r| r.answer)
            }
        };
        if let Some(text) = text {
            let _ = waiting.send(text);
        }
    }

    /// A new room takes its table's lease at once if it can (so that it owns the table
    /// from the start, its bots need not wait for the next round of leases); true if
    /// this server owns the table (always, alone on its database).
    async fn lease_now(&self, table: &str) -> bool {
        let Some(node) = &self.cluster else {
            return true;
        };
        self.store
            .lease(table, &node.name, node.lease_ms)
            .await
            .inspect_err(|e| tracing::error!(table, "taking a lease: {e}"))
            .unwrap_or(false)
    }

    /// Brings back every unfinished table from the database; returns how many. A server
    /// runs this after it listens: a client asking for a table meanwhile waits for that
    /// table alone.
    pub async fn restore(&self) -> Result<usize, HubError> {
        let ids = self.store.unfinished_tables().await?;
        for id in &ids {
            self.room(id).await?;
        }
        Ok(ids.len())
    }

    /// The room of a table, loading it from the database if needed.
    pub async fn room(&self, id: &str) -> Result<Option<mpsc::Sender<RoomMsg>>, HubError> {
        let slot = self
            .rooms
            .lock()
            .await
            .entry(id.to_owned())
            .or_default()
            .clone();
        if let Some(room) = slot.get() {
            return Ok(Some(room.clone()));
        }
        let loaded = slot
            .get_or_try_init(|| async {
                let stored = self.store.table(id).await?.ok_or(Missing)?;
                let inputs = self.store.inputs_after(id, stored.version).await?;
                let room = self
                    .with_commands(self.load(stored, &inputs).await?)
                    .await?;
                let owner = self.lease_now(id).await;
                Ok::<_, Loading>(room.owning(owner).spawn())
            })
            .await;
        match loaded {
            Ok(room) => Ok(Some(room.clone())),
            Err(e) => {
                // No room: forget the slot (unless another asker filled it since).
                let mut rooms = self.rooms.lock().await;
                if rooms.get(id).is_some_and(|s| s.get().is_none()) {
                    rooms.remove(id);
                }
                match e {
                    Loading::Missing => Ok(None),
                    Loading::Failed(e) => Err(e),
                }
            }
        }
    }

    /// A room for a stored table: its snapshot (a nardy table still waiting for its
    /// dice seeds is made anew from those stored), then the inputs stored after it.
    async fn load(&self, stored: StoredTable, inputs: &[(u64, String)]) -> Result<Room, HubError> {
        let corrupt = |what: String| HubError::Store(StoreError::Corrupt(what));
        let setup: Setup = serde_json::from_str(&stored.setup)
            .map_err(|e| corrupt(format!("setup of {}: {e}", stored.id)))?;
        let save = unhex(&stored.save).ok_or_else(|| corrupt(format!("save of {}", stored.id)))?;
        let mut live = Live::from_bytes(setup.game, &save)
            .map_err(|e| corrupt(format!("save of {}: {e}", stored.id)))?;
        if live.version() != stored.version {
            return Err(corrupt(format!(
                "save of {} is at version {}, not {}",
                stored.id,
                live.version(),
                stored.version
            )));
        }
        let seats: Vec<Owner> = stored
            .seats
            .into_iter()
            .map(|(p, b)| Owner::from_row(p, b))
            .collect();
        let dice = match setup.server_seed {
            Some(_) => {
                let seeds = self.store.seeds_of(&stored.id).await?;
                Dice::of_setup(&setup, &bots_of(&seats), &seeds)
                    .map_err(|e| corrupt(format!("dice of {}: {e}", stored.id)))?
            }
            None => None,
        };
        if let Some(dice) = &dice
            && live.version() == 0
        {
            // Before the first action the stored save is the placeholder: the seeds
            // stored since decide the game.
            live = dice
                .table(&setup, &live.players())
                .map_err(|e| corrupt(format!("dice of {}: {e}", stored.id)))?;
        }
        for (version, text) in inputs {
            let input: Input = serde_json::from_str(text)
                .map_err(|e| corrupt(format!("input {version} of {}: {e}", stored.id)))?;
            live.replay(&input)
                .map_err(|e| corrupt(format!("input {version} of {}: {e}", stored.id)))?;
            if live.version() != *version {
                return Err(corrupt(format!(
                    "input {version} of {} made version {}",
                    stored.id,
                    live.version()
                )));
            }
        }
        tracing::info!(table = %stored.id, version = live.version(), "table loaded");
        let mut room = Room::new(
            stored.id,
            setup,
            status_of(&stored.status),
            live,
            seats,
            self.store.clone(),
            self.bots.clone(),
        )
        .with_grace(self.grace_ms, self.node());
        room.dice = dice;
        Ok(room)
    }

    /// Loads the command ids of a table into its room (done once when it is loaded).
    async fn with_commands(&self, mut room: Room) -> Result<Room, HubError> {
        for (player, client, version) in self.store.commands_of(&room.id).await? {
            room.commands.insert((player, client), version);
        }
        Ok(room)
    }

    /// Makes a table for `player` (command `client_id`); a resent create returns the
    /// table the first one made. Returns the table, its invite code and the creator's
    /// seats.
    pub async fn create(
        &self,
        player: &str,
        client_id: &str,
        new: NewTable,
    ) -> Result<(String, String, Vec<u8>), HubError> {
        if let Some((table, _)) = self.store.command(player, client_id).await? {
            return self.existing(&table, player).await;
        }
        let game = new.game;
        if new.seats.len() != game.seats() {
            return Err(HubError::Bad(
                "bad_seats",
                format!("{} has {} seat(s)", game.name(), game.seats()),
            ));
        }
        if !new.seats.contains(&SeatSpec::Me) {
            return Err(HubError::Bad("bad_seats", "take at least one seat".into()));
        }
        for seat in &new.seats {
            if let SeatSpec::Bot(level) = seat {
                match game.bot_levels() {
                    Some(levels) if levels.contains(level) => {}
                    Some(levels) => {
                        return Err(HubError::Bad(
                            "bad_seats",
                            format!(
                                "{} bots have levels {} to {}",
                                game.name(),
                                levels.start(),
                                levels.end()
                            ),
                        ));
                    }
                    None => {
                        return Err(HubError::Bad(
                            "bad_seats",
                            format!("{} has no bots", game.name()),
                        ));
                    }
                }
            }
        }
        if let Some(clock) = new.clock
            && !((1000..=24 * 3600 * 1000).contains(&clock.initial_ms())
                && clock.increment_s <= 3600)
        {
            return Err(HubError::Bad(
                "bad_clock",
                "a clock has 1 s to 24 h and at most 3600 s of increment".into(),
            ));
        }
        let setup = Setup {
            game,
            rules: new.rules,
            seed: new_seed(),
            clock: new.clock,
            server_seed: new_server_seed(game),
        };
        let seats: Vec<Owner> = new
            .seats
            .iter()
            .map(|s| match s {
                SeatSpec::Me => Owner::Player(player.to_owned()),
                SeatSpec::Open => Owner::Open,
                SeatSpec::Bot(level) => Owner::Bot(*level),
            })
            .collect();
        let made = self
            .make(player, client_id, setup, seats, new.public, None)
            .await?;
        made.ok_or_else(|| HubError::Bad("duplicate_id", "this id was used".into()))
    }

    /// Makes and stores a table and starts its room; `None` if it was a rematch of a
    /// table that has its rematch already.
    async fn make(
        &self,
        player: &str,
        client_id: &str,
        setup: Setup,
        seats: Vec<Owner>,
        public: bool,
        rematch_of: Option<&str>,
    ) -> Result<Option<(String, String, Vec<u8>)>, HubError> {
        let players: Vec<Player> = seats
            .iter()
            .map(|s| match s {
                Owner::Bot(level) => Player::Bot(*level),
                _ => Player::Remote,
            })
            .collect();
        let dice = match &setup.server_seed {
            Some(_) => Dice::of_setup(&setup, &bots_of(&seats), &[])
                .map_err(|e| HubError::Bad("bad_rules", e))?,
            None => None,
        };
        // Making a sudoku puzzle is CPU work: it runs on the bot pool. A nardy table
        // with dice starts as the placeholder until the seeds are in.
        let made = {
            let (setup, dice) = (setup.clone(), dice.clone());
            self.bots
                .run(move || match dice {
                    Some(dice) => dice.table(&setup, &players),
                    None => Live::new(&setup, &players),
                })
                .await
        };
        let live = made
            .ok_or_else(|| HubError::Bad("bad_rules", "these rules made no game".into()))?
            .map_err(|e| HubError::Bad("bad_rules", e))?;
        let status = if seats.contains(&Owner::Open) {
            status::OPEN
        } else {
            status::PLAYING
        };
        let game = setup.game;
        let stored = StoredTable {
            id: new_id("t"),
            game: game.name().into(),
            setup: serde_json::to_string(&setup).unwrap_or_default(),
            invite: new_invite(),
            public,
            status: status.into(),
            save: hex(&live.to_bytes()),
            version: live.version(),
            seats: seats
                .iter()
                .map(|o| match o {
                    Owner::Player(p) => (Some(p.clone()), None),
                    Owner::Bot(level) => (None, Some(i64::from(*level))),
                    Owner::Open => (None, None),
                })
                .collect(),
            rematch: None,
        };
        if !self
            .store
            .create_table(&stored, player, client_id, rematch_of)
            .await?
        {
            return Ok(None);
        }
        let mine = seats_of(&stored, player);
        let mut room = Room::new(
            stored.id.clone(),
            setup,
            status,
            live,
            seats,
            self.store.clone(),
            self.bots.clone(),
        )
        .with_grace(self.grace_ms, self.node());
        room.dice = dice;
        let owner = self.lease_now(&stored.id).await;
        let room = self.with_commands(room).await?.owning(owner).spawn();
        self.rooms.lock().await.insert(
            stored.id.clone(),
            Arc::new(OnceCell::new_with(Some(room.clone()))),
        );
        tracing::info!(table = %stored.id, game = game.name(), "table created");
        Ok(Some((stored.id, stored.invite, mine)))
    }

    /// The rematch of a finished table, with the sides swapped: made by the first of its
    /// players who asks; the others asking get the same table. Returns the new table, its
    /// invite code and the player's seats there.
    pub async fn rematch(
        &self,
        player: &str,
        client_id: &str,
        table: &str,
    ) -> Result<(String, String, Vec<u8>), HubError> {
        if let Some((made, _)) = self.store.command(player, client_id).await? {
            return self.existing(&made, player).await;
        }
        let no_table = || HubError::Bad("no_such_table", "no such table".into());
        let old = self.store.table(table).await?.ok_or_else(no_table)?;
        if seats_of(&old, player).is_empty() {
            return Err(HubError::Bad(
                "not_your_seat",
                "you did not play at this table".into(),
            ));
        }
        if old.status != status::FINISHED {
            return Err(HubError::Bad(
                "not_finished",
                "a rematch follows a finished game".into(),
            ));
        }
        if let Some(next) = &old.rematch {
            return self.existing(next, player).await;
        }
        let mut setup: Setup = serde_json::from_str(&old.setup)
            .map_err(|e| HubError::Store(StoreError::Corrupt(format!("setup of {table}: {e}"))))?;
        setup.seed = new_seed();
        // A fresh dice commitment: the old table's server seed is public by now.
        setup.server_seed = new_server_seed(setup.game);
        let seats: Vec<Owner> = old
            .seats
            .iter()
            .rev()
            .map(|(p, b)| Owner::from_row(p.clone(), *b))
            .collect();
        match self
            .make(player, client_id, setup, seats, false, Some(table))
            .await?
        {
            Some(made) => {
                if let Some(room) = self.room(table).await? {
                    let _ = room
                        .send(RoomMsg::Rematched {
                            next: made.0.clone(),
                        })
                        .await;
                }
                Ok(made)
            }
            // Another player asked first: theirs is the rematch.
            None => {
                let old = self.store.table(table).await?.ok_or_else(no_table)?;
                let next = old.rematch.ok_or_else(no_table)?;
                self.existing(&next, player).await
            }
        }
    }

    async fn existing(
        &self,
        table: &str,
        player: &str,
    ) -> Result<(String, String, Vec<u8>), HubError> {
        let stored = self
            .store
            .table(table)
            .await?
            .ok_or_else(|| HubError::Bad("duplicate_id", "this id was used".into()))?;
        let mine = seats_of(&stored, player);
        Ok((stored.id, stored.invite, mine))
    }
}

/// Why a room was not loaded.
enum Loading {
    /// No such table.
    Missing,
    /// The database failed, or what it holds is wrong.
    Failed(HubError),
}

/// The marker of a missing table while loading.
struct Missing;

impl From<Missing> for Loading {
    fn from(_: Missing) -> Loading {
        Loading::Missing
    }
}

impl<E: Into<HubError>> From<E> for Loading {
    fn from(e: E) -> Loading {
        Loading::Failed(e.into())
    }
}

/// A fresh secret dice seed (hex) for a nardy table; `None` for the other games.
fn new_server_seed(game: GameKind) -> Option<String> {
    (game == GameKind::Nardy).then(|| hex(&random_bytes::<32>()))
}

fn seats_of(stored: &StoredTable, player: &str) -> Vec<u8> {
    (0..stored.seats.len())
        .filter(|&i| stored.seats[i].0.as_deref() == Some(player))
        .map(|i| i as u8)
        .collect()
}
