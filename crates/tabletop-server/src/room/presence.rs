//! Presence across servers: each server stores which seats' players follow a table
//! through it (and since when they left), so that who is away — shown to the players
//! and judged by a claim — counts every server's connections, not only this one's.

use super::{Owner, Room};
use crate::store::Presence;

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

    /// Stores this server's presence at the table (with other servers only).
    pub(super) async fn store_presence(&mut self) {
        self.presence_dirty = false;
        let Some(node) = &self.node else { return };
        let players: Vec<(String, Option<u64>)> = self
            .seats
            .iter()
            .zip(&self.away_since)
            .filter_map(|(owner, since)| match owner {
                Owner::Player(p) => Some((p.clone(), *since)),
                _ => None,
            })
            .collect();
        if let Err(e) = self
            .store
            .set_presence(&self.id, &node.name, &players)
            .await
        {
            tracing::error!(table = %self.id, "storing presence: {e}");
        }
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
