//! A room whose table other servers change too (several servers on one PostgreSQL
//! database): when told of a change, it reads what they stored — seats, status, the
//! inputs after its version and their command ids — replays the inputs through the
//! table, and tells its own followers as if it had made the change itself.

use super::{Owner, Room, bots_of, status_of};
use crate::dice::Dice;
use crate::games::Input;
use crate::store::StoreError;

impl Room {
    /// Catches up with the database.
    pub(super) async fn refresh(&mut self) {
        if let Err(e) = self.try_refresh().await {
            tracing::error!(table = %self.id, "catching up with the database: {e}");
        }
    }

    async fn try_refresh(&mut self) -> Result<(), StoreError> {
        let Some(stored) = self.store.table(&self.id).await? else {
            return Ok(());
        };
        let seats: Vec<Owner> = stored
            .seats
            .into_iter()
            .map(|(p, b)| Owner::from_row(p, b))
            .collect();
        let seeded = self.refresh_seeds(&seats).await?;
        let from = self.live.version();
        let mut events = Vec::new();
        for (version, text) in self.store.inputs_after(&self.id, from).await? {
            let input: Input = serde_json::from_str(&text)
                .map_err(|e| StoreError::Corrupt(format!("input {version}: {e}")))?;
            let mut next = self.live.clone();
            let made = next
                .replay(&input)
                .map_err(|e| StoreError::Corrupt(format!("input {version}: {e}")))?;
            if next.version() != version {
                return Err(StoreError::Corrupt(format!("input {version} made another")));
            }
            self.live = next;
            events.extend(made);
        }
        for (player, client, version) in self.store.commands_after(&self.id, from).await? {
            self.commands.insert((player, client), version);
        }
        let status = status_of(&stored.status);
        let changed = seeded || seats != self.seats || status != self.status;
        if seats.len() == self.seats.len() {
            self.seats = seats;
        }
        self.status = status;
        if !events.is_empty() || seeded {
            self.broadcast(events);
        }
        if changed {
            self.note_presence(None);
            self.send_status();
        }
        Ok(())
    }

    /// A nardy table waiting for seeds takes those stored by other servers, and its
    /// game once they are all in; true if that changed anything.
    async fn refresh_seeds(&mut self, seats: &[Owner]) -> Result<bool, StoreError> {
        if self.dice.as_ref().is_none_or(|d| d.complete()) {
            return Ok(false);
        }
        let seeds = self.store.seeds_of(&self.id).await?;
        let dice = Dice::of_setup(&self.setup, &bots_of(seats), &seeds)
            .map_err(|e| StoreError::Corrupt(format!("dice: {e}")))?;
        if dice.as_ref().map(|d| &d.seeds) == self.dice.as_ref().map(|d| &d.seeds) {
            return Ok(false);
        }
        if let Some(dice) = &dice
            && dice.complete()
            && self.live.version() == 0
        {
            self.live = dice
                .table(&self.setup, &self.live.players())
                .map_err(|e| StoreError::Corrupt(format!("dice: {e}")))?;
        }
        self.dice = dice;
        Ok(true)
    }
}
