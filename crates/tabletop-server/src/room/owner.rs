//! Who holds each seat of a table, and a table's status, as the database stores them.

use serde_json::Value;

use crate::store::status;

/// Who holds a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// Nobody yet.
    Open,
    /// A player.
    Player(String),
    /// A bot of this level.
    Bot(u8),
}

impl Owner {
    /// From a stored seat.
    pub fn from_row(player: Option<String>, bot: Option<i64>) -> Owner {
        match (player, bot) {
            (Some(p), _) => Owner::Player(p),
            (None, Some(level)) => Owner::Bot(level.clamp(0, 255) as u8),
            (None, None) => Owner::Open,
        }
    }

    /// The seat as the protocol shows it.
    pub(super) fn json(&self) -> Value {
        match self {
            Owner::Open => "open".into(),
            Owner::Player(_) => "person".into(),
            Owner::Bot(level) => serde_json::json!({ "bot": level }),
        }
    }
}

/// Which seats are bots' (they contribute no seed to the dice).
pub fn bots_of(seats: &[Owner]) -> Vec<bool> {
    seats.iter().map(|o| matches!(o, Owner::Bot(_))).collect()
}

/// A status string from the database.
pub fn status_of(text: &str) -> &'static str {
    match text {
        status::OPEN => status::OPEN,
        status::PLAYING => status::PLAYING,
        _ => status::FINISHED,
    }
}
