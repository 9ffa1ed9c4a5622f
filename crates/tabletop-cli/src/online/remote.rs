//! What each game gives the online client ([`Remote`]): how its views and events read,
//! how a typed command becomes the table's input, and how its table is made ([`Create`]).

use serde::de::DeserializeOwned;
use serde_json::Value;
use tabletop_play::{Ending, TableView};

use crate::common::{CliResult, Painter};

/// What the server's view of a game `R` is.
pub type View<R> = TableView<<R as Remote>::View, <R as Remote>::Score>;

/// One game as the online client plays it: how its views and events read and how a
/// typed move becomes the table's input. No rule is decided here: the server's table
/// refuses what is illegal.
pub trait Remote {
    /// The game's view (`tabletop_play::GAME::View`).
    type View: DeserializeOwned;
    /// The game's score.
    type Score: DeserializeOwned;
    /// The game's events.
    type Event: DeserializeOwned;
    /// The command's name (`reversi`, …).
    const GAME: &'static str;
    /// The help for the game's own commands.
    const HELP: &'static str;
    /// A seat's name, e.g. `Black (X)`.
    fn side(seat: u8) -> String;
    /// The board as `me` sees it (`None`: a spectator).
    fn board(&self, view: &View<Self>, me: Option<u8>, painter: Painter) -> String;
    /// Whether `me` has something to do now (battleship: both seats place at once).
    fn my_turn(&self, view: &View<Self>, me: u8) -> bool {
        view.to_act.map(|s| s.0) == Some(me)
    }
    /// Whether a turn is under way (nardy steps): the board waits for its end.
    fn mid_turn(&self, _view: &View<Self>) -> bool {
        false
    }
    /// One line that asks `me` to move, with what is legal now.
    fn your_turn(&self, view: &View<Self>, me: u8) -> String;
    /// A line for an event of the game, if it says something.
    fn narrate(&self, event: &Self::Event, me: Option<u8>) -> Option<String>;
    /// A typed game command: text to print, or inputs to send in order.
    fn command(
        &mut self,
        line: &str,
        view: &View<Self>,
        me: u8,
        painter: Painter,
    ) -> CliResult<Reply>;
    /// The result in words, for `me`.
    fn result(&self, ending: &Ending<Self::Score>, view: &View<Self>, me: Option<u8>) -> String;
    /// A check of the end against what the server published (battleship's fleet
    /// commitments), from the view and the last `table` message, called on each of them:
    /// whether it holds and the words, once it can be made.
    fn end_check(&self, _view: &View<Self>, _info: &Value) -> Option<(bool, String)> {
        None
    }
    /// Whether the table of this `table` message has an end check to wait for.
    fn has_end_check(&self, _info: &Value) -> bool {
        false
    }
}

/// What a game command asks for.
pub enum Reply {
    /// Print this.
    Text(String),
    /// Send these inputs (`{"play": INPUT}` is added), one after the other.
    Play(Vec<Value>),
}

/// How a game starts: a new table with these seats and rules, or one to join or open.
pub struct Create {
    /// The seats, as `create` takes them (`"me"`, `"open"`, `{"bot": N}`).
    pub seats: Vec<Value>,
    /// The rules in JSON (`null` for the defaults).
    pub rules: Value,
}
