//! A person's commands at a room: take a seat, act, claim the game of an opponent
//! away past the grace period — each applied once per command id, stored before it is
//! answered.

use serde_json::Value;
use tabletop_play::Seat;

use super::{Conn, Owner, Room};
use crate::games::{ActError, Input, Live};
use crate::protocol::ServerMessage;
use crate::store::{now_ms, status};

impl Room {
    pub(super) async fn join(&mut self, conn: Conn, id: String) {
        if let Some(seat) = self.seats_of(&conn.player).first() {
            conn.send(&ServerMessage::Joined {
                id,
                table: self.id.clone(),
                seat: seat.0,
            });
            return;
        }
        let Some(seat) = self.seats.iter().position(|o| *o == Owner::Open) else {
            conn.error(&id, "table_full", "every seat of this table is taken");
            return;
        };
        let full = self.seats.iter().filter(|o| **o == Owner::Open).count() == 1;
        let status = if full { status::PLAYING } else { status::OPEN };
        match self
            .store
            .take_seat(&self.id, seat as u8, &conn.player, status)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                conn.error(&id, "table_full", "the seat was taken meanwhile");
                return;
            }
            Err(e) => {
                tracing::error!(table = %self.id, "storing a join: {e}");
                conn.error(
                    &id,
                    "not_stored",
                    "the server could not store that; try again",
                );
                return;
            }
        }
        self.seats[seat] = Owner::Player(conn.player.clone());
        let here = self.subs.iter().any(|s| s.conn.player == conn.player);
        self.away_since[seat] = (!here).then(now_ms);
        self.presence_dirty = self.node.is_some();
        self.status = status;
        conn.send(&ServerMessage::Joined {
            id,
            table: self.id.clone(),
            seat: seat as u8,
        });
        self.send_status();
    }

    pub(super) async fn act(&mut self, conn: Conn, id: String, action: Value, seat: Option<u8>) {
        if self.answered_before(&conn, &id) {
            return;
        }
        let mut tried = self.try_act(&conn.player, &action, seat);
        if tried.is_err() && self.store.shared_url().is_some() {
            // Another server may have moved the table on (a join, the other's move):
            // catch up, and judge the action again.
            self.refresh().await;
            if self.answered_before(&conn, &id) {
                return;
            }
            tried = self.try_act(&conn.player, &action, seat);
        }
        match tried {
            Ok((next, events, input)) => {
                self.commit_command(&conn, id, next, &events, &input).await;
            }
            Err((code, message)) => conn.error(&id, code, message),
        }
    }

    /// The table after `player`'s action for `seat` (or their only seat), its events and
    /// input; or the error code and message of a refusal.
    fn try_act(
        &self,
        player: &str,
        action: &Value,
        seat: Option<u8>,
    ) -> Result<(Live, Vec<Value>, Input), (&'static str, String)> {
        let mine = self.seats_of(player);
        let seat = match (seat, mine.as_slice()) {
            (_, []) => return Err(("not_your_seat", "you hold no seat at this table".into())),
            (Some(s), _) if !mine.contains(&Seat(s)) => {
                return Err(("not_your_seat", format!("seat {s} is not yours")));
            }
            (Some(s), _) => Seat(s),
            (None, [only]) => *only,
            (None, _) => return Err(("seat_needed", "you hold several seats: name one".into())),
        };
        if self.status == status::OPEN {
            let why = "the game begins when every seat is taken";
            return Err(("waiting", why.into()));
        }
        if self.seeds_pending() {
            let why = "the dice begin when every person's seat has sent its seed";
            return Err(("seed_needed", why.into()));
        }
        let mut next = self.live.clone();
        let at = now_ms();
        let events = match next.apply(seat, action, at) {
            Ok(events) => events,
            Err(ActError::Malformed(message)) => return Err(("bad_action", message)),
            Err(ActError::Refused(refusal)) => return Err((refusal.code(), refusal.to_string())),
        };
        let input = Input::Act {
            seat: seat.0,
            action: action.clone(),
            at,
        };
        Ok((next, events, input))
    }

    /// The claimant wins the game of an opponent away longer than the grace period.
    pub(super) async fn claim(&mut self, conn: Conn, id: String) {
        if self.answered_before(&conn, &id) {
            return;
        }
        let mine = self.seats_of(&conn.player);
        if mine.is_empty() {
            return conn.error(&id, "not_your_seat", "you hold no seat at this table");
        }
        if self.status != status::PLAYING {
            let (code, why) = if self.status == status::OPEN {
                ("waiting", "the game has not begun")
            } else {
                ("game_over", "the game is over")
            };
            return conn.error(&id, code, why);
        }
        // With other servers, the opponent may follow the table through one of them.
        self.read_presence().await;
        let now = now_ms();
        // The opponent away the longest.
        let away = self.away();
        let away = (0..self.seats.len())
            .filter(|&s| !mine.contains(&Seat(s as u8)))
            .filter_map(|s| away[s].map(|since| (since, s)))
            .min();
        let Some((since, seat)) = away else {
            return conn.error(&id, "not_away", "your opponent is here");
        };
        let gone = now.saturating_sub(since);
        if gone < self.grace_ms {
            let wait = (self.grace_ms - gone).div_ceil(1000);
            return conn.error(
                &id,
                "too_soon",
                format!(
                    "your opponent left {} s ago: you may claim the game in {wait} s",
                    gone / 1000
                ),
            );
        }
        let mut next = self.live.clone();
        let events = match next.abandon(Seat(seat as u8), now) {
            Ok(events) => events,
            Err(refusal) => return conn.error(&id, refusal.code(), refusal.to_string()),
        };
        let input = Input::Abandon {
            seat: seat as u8,
            at: now,
        };
        self.commit_command(&conn, id, next, &events, &input).await;
    }

    /// Answers a command applied already (resent after a reconnect) as the first time,
    /// with `duplicate`; false if it is new.
    pub(super) fn answered_before(&self, conn: &Conn, id: &str) -> bool {
        let Some(&version) = self.commands.get(&(conn.player.clone(), id.to_owned())) else {
            return false;
        };
        conn.send(&ServerMessage::Acked {
            id: id.to_owned(),
            table: self.id.clone(),
            version,
            duplicate: true,
        });
        true
    }

    /// Stores a person's command (the table after it, its events and input) and answers
    /// `acked`, or `not_stored` when storing failed (nothing changed).
    async fn commit_command(
        &mut self,
        conn: &Conn,
        id: String,
        next: Live,
        events: &[Value],
        input: &Input,
    ) {
        if self
            .commit(next, events, input, Some((&conn.player, &id)))
            .await
        {
            let version = self.live.version();
            self.commands
                .insert((conn.player.clone(), id.clone()), version);
            conn.send(&ServerMessage::Acked {
                id,
                table: self.id.clone(),
                version,
                duplicate: false,
            });
        } else {
            conn.error(
                &id,
                "not_stored",
                "the server could not store that; nothing changed",
            );
        }
    }
}
