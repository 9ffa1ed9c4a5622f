//! Forwarding (several servers on one PostgreSQL database): a client's action or claim
//! that reaches a server not owning the table goes to the owner through the database
//! (the `forwarded` table and a notification); the owner applies it with its table as
//! its own clients' commands, and its answer — `acked`, or the table's refusal — comes
//! back the same way to the client. If no answer comes because the owner died, its lease
//! runs out and the first server takes the table over and applies the command itself.
//! A command applied already (sent twice, say after a reconnect) is answered as the
//! first time: command ids are kept in the database with the actions.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};

use crate::cluster::Node;
use crate::identity::new_id;
use crate::protocol::ServerMessage;
use crate::room::{Conn, RoomMsg};
use crate::store::Store;

/// A command that the owner of a table applies.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Command {
    /// An action for a seat.
    Act {
        /// The client's command id.
        id: String,
        /// The game's action.
        action: Value,
        /// The seat, when the player holds several.
        seat: Option<u8>,
    },
    /// A claim of the game of an opponent away past the grace period.
    Claim {
        /// The client's command id.
        id: String,
    },
}

impl Command {
    /// The client's command id.
    pub fn id(&self) -> &str {
        match self {
            Command::Act { id, .. } | Command::Claim { id } => id,
        }
    }

    /// The room message of this command from `conn`.
    pub fn into_msg(self, conn: Conn) -> RoomMsg {
        match self {
            Command::Act { id, action, seat } => RoomMsg::Act {
                conn,
                id,
                action,
                seat,
            },
            Command::Claim { id } => RoomMsg::Claim { conn, id },
        }
    }
}

/// Sends `command` of `conn` at `table` to the table's owner and the answer to `conn`.
/// When the owner's lease runs out first, this server takes it, and `room` (the table's
/// room here) applies the command.
pub async fn send(
    node: Arc<Node>,
    store: Store,
    table: String,
    conn: Conn,
    command: Command,
    room: mpsc::WeakSender<RoomMsg>,
) {
    let fid = new_id("f");
    let (tx, mut rx) = oneshot::channel();
    if let Ok(mut pending) = node.pending.lock() {
        pending.insert(fid.clone(), tx);
    }
    let body = serde_json::to_string(&command).unwrap_or_default();
    let mut stored = store
        .forward(&fid, &table, &conn.player, &body, false)
        .await
        .inspect_err(|e| tracing::error!(table, "forwarding a command: {e}"))
        .unwrap_or(true);
    // Asked again every third of a lease (at most a second: a dead owner's leases are
    // free once its connections are gone), for three leases.
    let every = (node.lease_ms / 3).clamp(100, 1000);
    let tries = (3 * node.lease_ms).div_ceil(every);
    let every = Duration::from_millis(every);
    let mut answer = None;
    for _ in 0..tries {
        if let Ok(Ok(text)) = tokio::time::timeout(every, &mut rx).await {
            answer = Some(text);
            break;
        }
        // No answer heard: it may be stored (its notification missed), or the owner
        // may be dead.
        if let Ok(Some(row)) = store.forwarded(&fid).await {
            stored = true;
            if row.answer.is_some() {
                answer = row.answer;
                break;
            }
        }
        if store
            .lease(&table, &node.name, node.lease_ms)
            .await
            .unwrap_or(false)
        {
            forget(&node, &store, &fid, stored);
            if let Some(room) = room.upgrade() {
                let _ = room.send(RoomMsg::Lease(true)).await;
                let _ = room.send(command.into_msg(conn)).await;
            }
            return;
        }
        if rx.is_terminated() {
            // The answer's notification came without it and it could not be read: wait
            // for the row.
            let (tx, again) = oneshot::channel();
            if let Ok(mut pending) = node.pending.lock() {
                pending.insert(fid.clone(), tx);
            }
            rx = again;
        }
        if let Ok(true) = store.forward(&fid, &table, &conn.player, &body, true).await {
            stored = true;
        }
    }
    match answer {
        // Through the room, which sends it after the events it acknowledges.
        Some(text) => match room.upgrade() {
            Some(room) => {
                if let Err(unsent) = room.send(RoomMsg::Answer { conn, text }).await
                    && let RoomMsg::Answer { conn, text } = unsent.0
                {
                    conn.send_text(text.into());
                }
            }
            None => conn.send_text(text.into()),
        },
        None => conn.send(&ServerMessage::error(
            Some(command.id()),
            "not_stored",
            "the server owning this game did not answer; try again",
        )),
    }
    forget(&node, &store, &fid, stored);
}

/// Stops waiting for the forwarded command `fid` and deletes its row if one was
/// `stored` (on a task of its own).
fn forget(node: &Node, store: &Store, fid: &str, stored: bool) {
    if let Ok(mut pending) = node.pending.lock() {
        pending.remove(fid);
    }
    if !stored {
        return;
    }
    let (store, fid) = (store.clone(), fid.to_owned());
    tokio::spawn(async move {
        if let Err(e) = store.forget_forwarded(&fid).await {
            tracing::error!("forgetting a forwarded command: {e}");
        }
    });
}

/// A connection standing for the sender of the forwarded command `fid` at its owner:
/// the first message the room sends it — the command's answer — is stored for the
/// sender's server.
pub fn answering(store: Store, fid: String, table: String, player: String) -> Conn {
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(4);
    tokio::spawn(async move {
        if let Some(text) = rx.recv().await
            && let Err(e) = store.answer_forwarded(&fid, &table, text.as_str()).await
        {
            tracing::error!("answering a forwarded command: {e}");
        }
    });
    Conn {
        id: crate::session::next_conn_id(),
        player,
        tx,
        kick: Arc::new(Notify::new()),
    }
}
