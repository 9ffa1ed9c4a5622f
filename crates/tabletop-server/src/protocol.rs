//! The messages of protocol v1 (see `docs/protocol.md`): JSON text frames over one
//! WebSocket per client, each an object whose `type` names the message.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::accounts::Password;
use crate::dice::DiceInfo;
use crate::games::{ClockSpec, GameKind};

/// The version of the protocol this server speaks.
pub const PROTOCOL: u32 = 1;

/// The longest client command id, in bytes.
pub const MAX_ID_LEN: usize = 64;

/// Who sits in a seat of a new table, as the creator asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatSpec {
    /// The creator.
    Me,
    /// Free for someone who joins with the invite code (or from the list).
    Open,
    /// A bot of the server, of this level.
    Bot(u8),
}

/// What a client sends.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the protocol version and the client's token, if it has one,
    /// or an account's name and password.
    Hello {
        /// The protocol version the client speaks.
        protocol: u32,
        /// The token of an earlier `welcome`; none for a new guest.
        #[serde(default)]
        token: Option<String>,
        /// An account's name (with `password`).
        #[serde(default)]
        name: Option<String>,
        /// The account's password.
        #[serde(default)]
        password: Option<Password>,
    },
    /// Give your player a name and a password, to log in with them anywhere.
    Register {
        /// The client's command id.
        id: String,
        /// The name: 3 to 32 letters, digits, `_` or `-`.
        name: String,
        /// The password: 8 to 256 characters.
        password: Password,
    },
    /// Make a table.
    Create {
        /// The client's command id.
        id: String,
        /// The game.
        game: GameKind,
        /// The rule variant (the engine's rules in JSON; sudoku `{"size": 9}`).
        #[serde(default)]
        rules: Value,
        /// Who sits where, in seat order.
        seats: Vec<SeatSpec>,
        /// A clock, if any.
        #[serde(default)]
        clock: Option<ClockSpec>,
        /// Whether the table is listed for anyone to join.
        #[serde(default)]
        public: bool,
    },
    /// Take the open seat of a table: by its invite code, or by its id when it is public.
    Join {
        /// The client's command id.
        id: String,
        /// The invite code.
        #[serde(default)]
        invite: Option<String>,
        /// A public table's id.
        #[serde(default)]
        table: Option<String>,
    },
    /// The public tables with an open seat.
    List {
        /// The client's command id.
        id: String,
    },
    /// Follow a table: as the player of your seat, or as a spectator.
    Open {
        /// The client's command id.
        id: String,
        /// The table.
        table: String,
        /// The last version the client has: it gets the events after it (or the view
        /// when that is shorter). None: the view.
        #[serde(default)]
        since: Option<u64>,
        /// Whether to get the viewer's view after each batch of events (default true).
        #[serde(default = "yes")]
        views: bool,
    },
    /// An action at a table for your seat.
    Act {
        /// The client's command id: a resent command with the same id is applied once.
        id: String,
        /// The table.
        table: String,
        /// The game's action (`{"play": INPUT}` or `"resign"`).
        action: Value,
        /// The seat, when you hold both seats of the table.
        #[serde(default)]
        seat: Option<u8>,
    },
    /// Claim the game from an opponent who has been away longer than the grace period.
    Claim {
        /// The client's command id: a resent command with the same id is applied once.
        id: String,
        /// The table.
        table: String,
    },
    /// A person's seat's contribution to a nardy table's dice, before the first roll.
    Seed {
        /// The client's command id.
        id: String,
        /// The table.
        table: String,
        /// 32 bytes as 64 hex digits.
        seed: String,
        /// The seat, when you hold both seats of the table.
        #[serde(default)]
        seat: Option<u8>,
    },
    /// Stop following a table.
    Close {
        /// The client's command id.
        id: String,
        /// The table.
        table: String,
    },
    /// A rematch of a finished game you played, with the sides swapped.
    Rematch {
        /// The client's command id.
        id: String,
        /// The finished table.
        table: String,
    },
    /// Your finished games.
    History {
        /// The client's command id.
        id: String,
    },
    /// The save of a finished game (for `tabletop GAME --load`).
    Download {
        /// The client's command id.
        id: String,
        /// The table.
        table: String,
    },
}

fn yes() -> bool {
    true
}

impl ClientMessage {
    /// Every message type a client may send.
    pub const TYPES: [&'static str; 13] = [
        "hello", "register", "create", "join", "list", "open", "act", "claim", "seed", "close",
        "rematch", "history", "download",
    ];

    /// The client's command id, if the message has one.
    pub fn id(&self) -> Option<&str> {
        match self {
            ClientMessage::Hello { .. } => None,
            ClientMessage::Create { id, .. }
            | ClientMessage::Register { id, .. }
            | ClientMessage::Join { id, .. }
            | ClientMessage::List { id }
            | ClientMessage::Open { id, .. }
            | ClientMessage::Act { id, .. }
            | ClientMessage::Claim { id, .. }
            | ClientMessage::Seed { id, .. }
            | ClientMessage::Close { id, .. }
            | ClientMessage::Rematch { id, .. }
            | ClientMessage::History { id }
            | ClientMessage::Download { id, .. } => Some(id),
        }
    }
}

/// A public table with an open seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The table's id.
    pub table: String,
    /// The game.
    pub game: GameKind,
    /// The rule variant.
    pub rules: Value,
    /// The clock.
    pub clock: Option<ClockSpec>,
    /// Who sits where: `"open"`, `"person"` or `{"bot": level}`.
    pub seats: Vec<Value>,
}

/// A finished game of the player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The table's id.
    pub table: String,
    /// The game.
    pub game: GameKind,
    /// The player's seat.
    pub seat: u8,
    /// The result (the table's `Ending`).
    pub ending: Value,
    /// When it ended (ms since the Unix epoch).
    pub ended_ms: i64,
}

/// What the server sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// The protocol version.
        protocol: u32,
        /// The player's id (public).
        player: String,
        /// A new guest's token: the only time the server sends it. Keep it secret.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        token: Option<String>,
    },
    /// Your player has this name now.
    Registered {
        /// The command id.
        id: String,
        /// The name.
        name: String,
    },
    /// A table was made.
    Created {
        /// The command id.
        id: String,
        /// The table.
        table: String,
        /// The invite code for the open seats.
        invite: String,
        /// The creator's seats.
        seats: Vec<u8>,
    },
    /// You took a seat.
    Joined {
        /// The command id.
        id: String,
        /// The table.
        table: String,
        /// Your seat.
        seat: u8,
    },
    /// The public tables with an open seat.
    Tables {
        /// The command id.
        id: String,
        /// The tables.
        tables: Vec<TableInfo>,
    },
    /// You follow a table; its events and views follow.
    Opened {
        /// The command id.
        id: String,
        /// The table.
        table: String,
        /// Your seat, or none as a spectator.
        seat: Option<u8>,
    },
    /// Who holds the seats of a table and its status (`open`: waiting for players,
    /// `playing`, `finished`); sent on `open` and whenever it changes.
    Table {
        /// The table.
        table: String,
        /// Its status.
        status: String,
        /// Each seat: `"open"`, `"person"` or `{"bot": level}`.
        seats: Vec<Value>,
        /// Battleship: each seat's fleet commitment (SHA-256 hex of its salt and its
        /// fleet), once placed.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        commitments: Option<Vec<Option<String>>>,
        /// Battleship, once the game is over: each seat's salt (hex), to check the
        /// commitments against the fleets of the final view.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        salts: Option<Vec<String>>,
        /// While the game goes on: for each seat, how long (ms) its player has been away
        /// (no connection following the table), or null.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        away: Option<Vec<Option<u64>>>,
        /// How long a player may be away before the opponent may claim the game, in ms.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        grace_ms: Option<u64>,
        /// Nardy: the commitment to the server's dice seed, the seats' seeds as received,
        /// and the server's seed once the game is over.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        dice: Option<DiceInfo>,
    },
    /// Events of a table, in order, each with its version.
    Events {
        /// The table.
        table: String,
        /// The table's version after these events.
        version: u64,
        /// The events (`tabletop_play::Event` in JSON).
        events: Vec<Value>,
    },
    /// What the viewer sees of a table now.
    View {
        /// The table.
        table: String,
        /// The view (`tabletop_play::TableView` in JSON).
        view: Value,
    },
    /// An action was applied (and stored).
    Acked {
        /// The command id.
        id: String,
        /// The table.
        table: String,
        /// The version the action made.
        version: u64,
        /// Whether this id had been applied already (a resent command).
        duplicate: bool,
    },
    /// Your seat's seed was stored (a resent `seed` with the same seed gets this again).
    Seeded {
        /// The command id.
        id: String,
        /// The table.
        table: String,
        /// The seat.
        seat: u8,
    },
    /// You no longer follow a table.
    Closed {
        /// The command id.
        id: String,
        /// The table.
        table: String,
    },
    /// A finished table's rematch was made (sent to its followers).
    Rematch {
        /// The finished table.
        table: String,
        /// The rematch: open it to play.
        next: String,
    },
    /// Your finished games, newest first.
    History {
        /// The command id.
        id: String,
        /// The games.
        games: Vec<GameRecord>,
    },
    /// The save of a finished game, hex-encoded.
    Save {
        /// The command id.
        id: String,
        /// The table.
        table: String,
        /// The game.
        game: GameKind,
        /// The save's bytes in hex (`TTPL`, as `tabletop GAME --load` reads).
        hex: String,
    },
    /// A command failed; nothing changed.
    Error {
        /// The command id, when the message had one.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        id: Option<String>,
        /// A stable code (`bad_message`, `not_your_seat`, `not_your_turn`, …).
        code: String,
        /// Words for a person.
        message: String,
    },
}

impl ServerMessage {
    /// An error.
    pub fn error(id: Option<&str>, code: &str, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            id: id.map(str::to_owned),
            code: code.into(),
            message: message.into(),
        }
    }

    /// The message as a JSON text.
    pub fn to_text(&self) -> String {
        // The messages hold JSON values and plain types: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Reads a client's text frame: malformed JSON, an unknown type and a bad field are told
/// apart, with the command id when it can be read.
// The error is the message sent back for a bad frame, made only then; the largest
// message (`table`) sets its size, which a box would add to every frame parsed.
#[allow(clippy::result_large_err)]
pub fn parse(text: &str) -> Result<ClientMessage, ServerMessage> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ServerMessage::error(None, "bad_json", format!("not JSON: {e}")))?;
    let id = value
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| id.len() <= MAX_ID_LEN)
        .map(str::to_owned);
    let Some(kind) = value.get("type").and_then(Value::as_str).map(str::to_owned) else {
        return Err(ServerMessage::error(
            id.as_deref(),
            "bad_message",
            "a message is an object with a \"type\"",
        ));
    };
    if !ClientMessage::TYPES.contains(&kind.as_str()) {
        return Err(ServerMessage::error(
            id.as_deref(),
            "unknown_type",
            format!("no message type {kind:?} in protocol v{PROTOCOL}"),
        ));
    }
    let message: ClientMessage = serde_json::from_value(value)
        .map_err(|e| ServerMessage::error(id.as_deref(), "bad_message", format!("{kind}: {e}")))?;
    if let Some(id) = message.id()
        && (id.is_empty() || id.len() > MAX_ID_LEN)
    {
        return Err(ServerMessage::error(
            None,
            "bad_message",
            format!("a command id has 1 to {MAX_ID_LEN} bytes"),
        ));
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_tells_errors_apart() {
        let code = |text: &str| match parse(text) {
            Err(ServerMessage::Error { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        assert_eq!(code("{"), "bad_json");
        assert_eq!(code("[1]"), "bad_message");
        assert_eq!(code(r#"{"type":"dance","id":"1"}"#), "unknown_type");
        assert_eq!(code(r#"{"type":"act","id":"1"}"#), "bad_message");
        assert_eq!(code(r#"{"type":"list","id":""}"#), "bad_message");
        let long = "x".repeat(65);
        assert_eq!(
            code(&format!(r#"{{"type":"list","id":"{long}"}}"#)),
            "bad_message"
        );
        assert!(matches!(
            parse(r#"{"type":"hello","protocol":1}"#),
            Ok(ClientMessage::Hello { token: None, .. })
        ));
        // Every type is known: a message with only a type and an id fails on its
        // fields (or passes), never as an unknown type.
        for kind in ClientMessage::TYPES {
            let text = format!(r#"{{"type":"{kind}","id":"1"}}"#);
            assert_ne!(
                parse(&text).err().map(|e| code_of(&e)),
                Some("unknown_type".into())
            );
        }
    }

    fn code_of(e: &ServerMessage) -> String {
        match e {
            ServerMessage::Error { code, .. } => code.clone(),
            _ => String::new(),
        }
    }

    #[test]
    fn messages_round_trip() {
        let m = ClientMessage::Create {
            id: "c1".into(),
            game: GameKind::Reversi,
            rules: Value::Null,
            seats: vec![SeatSpec::Me, SeatSpec::Bot(3)],
            clock: Some(ClockSpec {
                minutes: 5,
                seconds: 0,
                increment_s: 2,
            }),
            public: true,
        };
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.contains(r#""type":"create""#), "{text}");
        assert_eq!(parse(&text).unwrap(), m);
    }
}
