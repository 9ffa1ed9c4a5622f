//! A room's side of forwarding (several servers on one PostgreSQL database): a room
//! that does not own its table sends its clients' actions and claims to the owner, and
//! the owner's room applies those forwarded to it (see [`crate::forward`]).

use super::{Conn, Room};
use crate::forward::{self, Command};
use crate::protocol::ServerMessage;

impl Room {
    /// Whether this room's commands go to another server: it shares the database and
    /// does not hold the table's lease.
    pub(super) fn forwards(&self) -> bool {
        self.node.is_some() && !self.owner
    }

    /// Sends `conn`'s command to the table's owner (on a task of its own: the room goes
    /// on meanwhile, and hears the owner's change as any other).
    pub(super) fn forward(&mut self, conn: Conn, command: Command) {
        if self.answered_before(&conn, command.id()) {
            return;
        }
        let (Some(node), Some(me)) = (self.node.clone(), self.me.clone()) else {
            return;
        };
        tokio::spawn(forward::send(
            node,
            self.store.clone(),
            self.id.clone(),
            conn,
            command,
            me,
        ));
    }

    /// Applies the command forwarded as `fid` (carried `inline` as `{"player", "body"}`,
    /// or stored), if this server owns the table: its answer goes back through the
    /// database.
    pub(super) async fn forwarded(&mut self, fid: String, inline: Option<String>) {
        if !self.owner {
            // The sender takes the table over if the owner is gone.
            return;
        }
        let (player, body) = match inline {
            Some(text) => {
                let Ok(Inline { player, body }) = serde_json::from_str(&text) else {
                    return tracing::error!(table = %self.id, "a forwarded command unread");
                };
                (player, body)
            }
            None => match self.store.forwarded(&fid).await {
                Ok(Some(row)) if row.answer.is_none() && row.table == self.id => {
                    (row.player, row.body)
                }
                Ok(_) => return,
                Err(e) => {
                    return tracing::error!(table = %self.id, "reading a forwarded command: {e}");
                }
            },
        };
        let conn = forward::answering(self.store.clone(), fid, self.id.clone(), player);
        match serde_json::from_str::<Command>(&body) {
            Ok(Command::Act { id, action, seat }) => self.act(conn, id, action, seat).await,
            Ok(Command::Claim { id }) => self.claim(conn, id).await,
            Err(e) => conn.send(&ServerMessage::error(
                None,
                "bad_request",
                format!("a forwarded command could not be read: {e}"),
            )),
        }
    }
}

impl Room {
    /// Sends the owner's answer to a forwarded command after the events it acknowledges:
    /// an `acked` of a version this room has not reached yet waits for the room to read
    /// the owner's change (which tells the followers, the asker among them). Without it
    /// the answer could overtake the change's notification, and a client acting on its
    /// view after the answer would act on the state before its own action.
    pub(super) async fn answer_forwarded(&mut self, conn: Conn, text: String) {
        let acked = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .filter(|answer| answer["type"] == "acked")
            .and_then(|answer| answer["version"].as_u64());
        if acked.is_some_and(|version| version > self.live.version()) {
            self.refresh().await;
        }
        conn.send_text(text.into());
    }
}

/// A forwarded command as a notification carries it.
#[derive(serde::Deserialize)]
struct Inline {
    player: String,
    body: String,
}
