//! The `seed` command of a nardy table: a person's seat contributes to the dice, once and
//! before the first roll; the last contribution makes the game (see [`crate::dice`]).

use axum::extract::ws::Utf8Bytes;

use super::{Conn, Room};
use crate::dice::{Dice, parse_seed};
use crate::identity::hex;
use crate::protocol::ServerMessage;

impl Room {
    /// Stores `conn`'s seed for its seat; when it was the last one missing, the table's
    /// game becomes the one the seeds give, and every follower gets the new `table`
    /// message and its view (the first dice). Refused, changing nothing, otherwise.
    pub(super) async fn seed(&mut self, conn: Conn, id: String, seed: String, seat: Option<u8>) {
        let Some(dice) = &self.dice else {
            return conn.error(
                &id,
                "no_dice",
                "this table has no dice to seed (only nardy tables do)",
            );
        };
        let mine = self.seats_of(&conn.player);
        let seat = match (seat, mine.as_slice()) {
            (_, []) => return conn.error(&id, "not_your_seat", "you hold no seat at this table"),
            (Some(s), _) if !mine.iter().any(|m| m.0 == s) => {
                return conn.error(&id, "not_your_seat", format!("seat {s} is not yours"));
            }
            (Some(s), _) => s,
            (None, [only]) => only.0,
            (None, _) => return conn.error(&id, "seat_needed", "you hold several seats: name one"),
        };
        let bytes = match parse_seed(&seed) {
            Ok(bytes) => bytes,
            Err(why) => return conn.error(&id, "bad_seed", why),
        };
        let slot = dice.seeds.get(usize::from(seat)).copied().flatten();
        if slot == Some(bytes) {
            // A resent command (after a dropped connection, say): the same answer.
            return conn.send(&ServerMessage::Seeded {
                id,
                table: self.id.clone(),
                seat,
            });
        }
        if dice.complete() {
            return conn.error(
                &id,
                "already_rolled",
                "the dice exist already: seeds are taken before the first roll",
            );
        }
        if slot.is_some() {
            return conn.error(&id, "already_seeded", "this seat has sent its seed already");
        }
        let mut next: Dice = dice.clone();
        next.seeds[usize::from(seat)] = Some(bytes);
        let live = if next.complete() {
            match next.table(&self.setup, &self.live.players()) {
                Ok(live) => Some(live),
                Err(e) => {
                    tracing::error!(table = %self.id, "making the seeded game: {e}");
                    return conn.error(&id, "bad_rules", "these rules made no game");
                }
            }
        } else {
            None
        };
        if let Err(e) = self.store.add_seed(&self.id, seat, &hex(&bytes)).await {
            tracing::error!(table = %self.id, "storing a seed: {e}");
            return conn.error(
                &id,
                "not_stored",
                "the server could not store that; nothing changed",
            );
        }
        self.dice = Some(next);
        self.subs.retain(|s| !s.conn.tx.is_closed());
        let table: Utf8Bytes = self.status_message().to_text().into();
        for sub in &self.subs {
            sub.conn.send_text(table.clone());
        }
        if let Some(live) = live {
            // The first dice exist from now on: each follower sees them in its view.
            self.live = live;
            for sub in &self.subs {
                if sub.views {
                    sub.conn.send_text(self.view_text(sub.viewer));
                }
            }
        }
        // Answered last, like `acked`: the seeder has its new view when it reads this.
        conn.send(&ServerMessage::Seeded {
            id,
            table: self.id.clone(),
            seat,
        });
    }
}
