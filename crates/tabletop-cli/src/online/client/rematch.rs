//! The rematch of a finished game (the protocol's `rematch`): offered once the game is
//! over, the other player's request said when it comes, and the new table (same game,
//! rules and clock, sides swapped) opened in place of the old one, so the same screen or
//! line loop plays it.

use serde_json::{Value, json};

use super::{Client, DiceCheck, Out, text};
use crate::common::{CliError, CliResult, Style};
use crate::online::remote::Remote;

impl<R: Remote> Client<R> {
    /// Whether this client may ask for a rematch of the game it played: a seat at a
    /// finished game for two (a sudoku table has one seat: nothing to swap).
    pub(crate) fn can_rematch(&self) -> bool {
        let over = self.view.as_ref().is_some_and(|v| v.ending.is_some());
        over && self.seat.is_some() && self.table.is_some() && R::GAME != "sudoku"
    }

    /// Whether a rematch was asked for and not answered yet.
    pub(crate) fn rematch_asked(&self) -> bool {
        self.rematch.is_some()
    }

    /// How to ask for a rematch here: a typed word, or a key of the full screen.
    fn rematch_how(&self) -> &'static str {
        match self.out {
            Out::Print => "type rematch",
            Out::Keep(_) => "press n",
        }
    }

    /// Says once, when the game is over, how to play again.
    pub(crate) fn offer_rematch(&mut self) {
        if self.offered || !self.can_rematch() || self.rematch.is_some() {
            return;
        }
        self.offered = true;
        let how = self.rematch_how();
        if self.next.is_none() {
            self.say(format!(
                "Rematch? {how} to play again with the sides swapped, or quit."
            ));
        }
    }

    /// Asks the server for the rematch of the finished game (the other player's, if
    /// they asked first).
    pub(crate) fn ask_rematch(&mut self) -> CliResult {
        if self.rematch.is_some() {
            return Err(CliError::new("the rematch is on its way"));
        }
        if !self.can_rematch() {
            return Err(CliError::new(
                "a rematch is for a finished game you played against someone",
            ));
        }
        let Some(table) = self.table.clone() else {
            return Ok(());
        };
        let id = self.new_id();
        let rematch = json!({"type": "rematch", "id": id, "table": table});
        self.send(&rematch);
        self.rematch = Some(rematch);
        self.say("Asking for a rematch…");
        Ok(())
    }

    /// Handles the messages of a rematch: the other player's request, the answer to
    /// ours. `true` when `message` was one of them.
    pub(super) fn rematch_message(&mut self, message: &Value) -> bool {
        let answers_ours = Self::answers(message, self.rematch.as_ref());
        match text(message, "type") {
            "rematch" if self.table.as_deref() == Some(text(message, "table")) => {
                let next = text(message, "next").to_owned();
                if self.next.as_deref() != Some(&next) && self.rematch.is_none() {
                    let how = self.rematch_how();
                    let line = self.paint(
                        &format!(
                            "The other player asks for a rematch (table {next}): {how} to \
                             play it, sides swapped."
                        ),
                        Style::Bold,
                    );
                    self.say(line);
                }
                self.next = Some(next);
                true
            }
            "created" if answers_ours => {
                let table = text(message, "table").to_owned();
                let invite = text(message, "invite").to_owned();
                self.switch_to(table, invite);
                true
            }
            "error" if answers_ours => {
                self.rematch = None;
                let words = text(message, "message").to_owned();
                self.warn(CliError::new(format!("no rematch: {words}")));
                true
            }
            _ => false,
        }
    }

    /// Leaves the finished table for the rematch's: everything learnt of the old one is
    /// dropped, and the new one is opened like a table just made.
    fn switch_to(&mut self, table: String, invite: String) {
        self.say(format!(
            "Rematch: table {table}, sides swapped. Come back to it with: tabletop {} \
             --connect {} --table {table}",
            R::GAME,
            self.url
        ));
        self.seed = None;
        self.start = None;
        self.seat = None;
        self.status.clear();
        self.version = None;
        self.view = None;
        self.shown = None;
        self.pending = None;
        self.queue.clear();
        self.info = Value::Null;
        self.commitment = None;
        self.dice_check = DiceCheck::None;
        self.end_check = None;
        self.rematch = None;
        self.next = None;
        self.offered = false;
        self.invite = Some(invite).filter(|i| !i.is_empty());
        self.table = Some(table.clone());
        let open = self.open_command(&table, None);
        self.send(&open);
    }
}
