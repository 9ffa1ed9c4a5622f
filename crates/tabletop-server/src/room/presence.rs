//! Presence across servers: each server stores which seats' players follow a table
//! through it (and since when they left), so that who is away — shown to the players
//! and judged by a claim — counts every server's connections, not only this one's.

use tokio::sync::watch;

use super::{Owner, Room};
use crate::store::Presence;

/// Each seat's player at a table, with since when it left this server (`None`: here).
pub(super) type Players = Vec<(String, Option<u64>)>;

impl Room {
    /// For each seat, since when its player has followed the table on no connection of
    /// any server (`None` while one does, and for bots and open seats).
    pub(super) fn away(&self) -> Vec<Option<u64>> {
        (0..self.seats.len()).map(|s| self.away_of(s)).collect()
    }

    fn away_of(&self, seat: usize) -> Option<u64> {
        let here = self.away_since[seat]?;
        let Owner::Player(player) = &self.seats[seat] else {
            return Some(here);
        };
        match self.elsewhere.get(player) {
            Some(Presence::Here) => None,
            // The latest departure counts: the player left the game then.
            Some(Presence::Left(there)) => Some(here.max(*there)),
            None => Some(here),
        }
    }

    /// Stores this server's presence at the table (with other servers only), on a task
    /// of the room's own: the room does not wait, and only the latest presence is
    /// written when it changes faster than the database takes it.
    pub(super) fn store_presence(&mut self) {
        self.presence_dirty = false;
        let Some(node) = &self.node else { return };
        if !node.others.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let players: Players = self
            .seats
            .iter()
            .zip(&self.away_since)
            .filter_map(|(owner, since)| match owner {
                Owner::Player(p) => Some((p.clone(), *since)),
                _ => None,
            })
            .collect();
        if let Some(writer) = &self.presence_writer {
            let _ = writer.send(players);
            return;
        }
        let (writer, mut latest) = watch::channel(players);
        let (store, table, node) = (self.store.clone(), self.id.clone(), node.name.clone());
        tokio::spawn(async move {
            loop {
                let players = latest.borrow_and_update().clone();
                if let Err(e) = store.set_presence(&table, &node, &players).await {
                    tracing::error!(table, "storing presence: {e}");
                }
                // Ends with the room.
                if latest.changed().await.is_err() {
                    break;
                }
            }
        });
        self.presence_writer = Some(writer);
    }

    /// Reads where the other servers see the players (with other servers only), and
    /// tells the followers if who is away changed.
    pub(super) async fn read_presence(&mut self) {
        let Some(node) = &self.node else { return };
        match self.store.presence(&self.id, &node.name).await {
            Ok(elsewhere) => {
                let before = self.away();
                self.elsewhere = elsewhere;
                if self.away() != before && self.status == crate::store::status::PLAYING {
                    self.send_status();
                }
            }
            Err(e) => tracing::error!(table = %self.id, "reading presence: {e}"),
        }
    }
}
