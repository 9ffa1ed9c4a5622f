//! Why a table refused an action. A refused action changes nothing.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// Why [`Table::apply`](crate::Table::apply) refused an action; the table is exactly as it
/// was. The message is written for the person who tried.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "code", content = "detail", rename_all = "snake_case")]
pub enum Refusal {
    /// The table has no such seat.
    #[error("this table has no {0}")]
    NoSuchSeat(Seat),
    /// Another seat is to act.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The rules forbid it; the engine's words say why.
    #[error("{0}")]
    Illegal(String),
    /// Undo or redo is switched off at this table (a game against a remote person, or
    /// the table's settings).
    #[error("undo is off at this table: {0}")]
    UndoOff(String),
    /// Only a person at this frontend may undo, redo or resign for a seat.
    #[error("only the person in a seat can do that")]
    NotAPerson,
    /// No decision of a person to go back to.
    #[error("nothing to undo")]
    NothingToUndo,
    /// Nothing was taken back.
    #[error("nothing to redo")]
    NothingToRedo,
    /// The seat's time has run out; [`Table::tick`](crate::Table::tick) records the loss.
    #[error("your time has run out")]
    OutOfTime,
    /// The action is one only the table itself records: a loss on time
    /// ([`Table::tick`](crate::Table::tick)) or a change of player
    /// ([`Table::set_player`](crate::Table::set_player)).
    #[error("only the table records a loss on time or a change of player")]
    TableOnly,
}

impl Refusal {
    /// A short stable name of the refusal (`not_your_turn`, `illegal`, …) for protocols.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NoSuchSeat(_) => "no_such_seat",
            Refusal::NotYourTurn => "not_your_turn",
            Refusal::GameOver => "game_over",
            Refusal::Illegal(_) => "illegal",
            Refusal::UndoOff(_) => "undo_off",
            Refusal::NotAPerson => "not_a_person",
            Refusal::NothingToUndo => "nothing_to_undo",
            Refusal::NothingToRedo => "nothing_to_redo",
            Refusal::OutOfTime => "out_of_time",
            Refusal::TableOnly => "table_only",
        }
    }

    /// An engine's error as an illegal action.
    pub fn illegal(err: impl core::fmt::Display) -> Refusal {
        Refusal::Illegal(alloc::format!("{err}"))
    }
}
