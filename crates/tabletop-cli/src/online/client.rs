//! The state of one online game, the same for the four games and for both frontends: it
//! starts or joins a table, follows the server's events and views, sends moves as `act`s
//! (one in flight, resent under its id after a drop), sends a nardy seat's dice seed, and
//! checks the dice once the server reveals its seed. Everything it knows comes from the
//! server's messages; the game files ([`Remote`]) only read them and parse moves.
//!
//! What it has to say (moves of the other seats, refusals, the connection dropping) goes
//! to its [`Out`]: printed with the board in line mode ([`super::lines`]), kept for the
//! status line of the full screen (`tui::online`), which draws the board itself.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};

use serde_json::{Value, json};
use tabletop_play::{EndReason, Event, EventKind};

use super::ConnectArgs;
use super::identity;
use super::link::{self, Note};
use super::remote::{Create, Remote, View};
use super::tls::{self, Tls};
use crate::common::{CliError, CliResult, Painter, Style, clock_seed};

/// Where the client's lines go.
pub enum Out {
    /// Printed, with the board after each view (line mode).
    Print,
    /// Kept for the full screen, which draws the board itself; errors start with `!`.
    Keep(Vec<String>),
}

/// The dice check of a finished nardy game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiceCheck {
    /// No dice to check (not a nardy table, or one without commitments), or not yet over.
    None,
    /// The server revealed its seed; the save with the proof is asked for (the `download`
    /// command).
    Asked(Value),
    /// The verdict, in words; `true` when every check passed.
    Done(bool, String),
}

/// One online game: see the module documentation.
pub struct Client<R: Remote> {
    pub(crate) game: R,
    pub(crate) url: String,
    /// The server's key in the identity file (the URL without a final `/`).
    key: String,
    identity_file: PathBuf,
    outgoing: Sender<Value>,
    pub(super) painter: Painter,
    /// Makes command ids unique between runs: the server applies an id once per player.
    id_prefix: String,
    next_id: u64,
    /// This seat's contribution to a nardy table's dice, once made.
    seed: Option<String>,
    /// The `create`, `join` or `open` that starts the game, resent after a drop until
    /// answered (the server applies a `create` once).
    start: Option<Value>,
    pub(crate) table: Option<String>,
    pub(crate) invite: Option<String>,
    pub(crate) seat: Option<u8>,
    /// The table's status (`open`, `playing`, `finished`).
    pub(crate) status: String,
    /// The last version seen, for `open` with `since` after a drop.
    version: Option<u64>,
    pub(crate) view: Option<View<R>>,
    /// The version (and seat to act) whose board was printed last.
    shown: Option<(u64, Option<u8>)>,
    /// The `act` sent and not yet acknowledged: resent with its id after a drop.
    pub(crate) pending: Option<Value>,
    /// Inputs still to send after the pending one (the steps of a nardy turn).
    pub(crate) queue: Vec<Value>,
    /// Typed lines not handled yet: each waits for the game's first view and for the
    /// answer to the move before it (a script may type ahead).
    pub(super) typed: Vec<String>,
    /// The input has ended: leave once nothing is pending.
    pub(super) eof: bool,
    /// Where the lines go.
    pub(crate) out: Out,
    /// The last `table` message (seats, `away`, a nardy table's `dice`).
    pub(crate) info: Value,
    /// The dice commitment published when the table was first seen.
    commitment: Option<String>,
    /// The dice check at the end.
    pub(crate) dice_check: DiceCheck,
    /// The game's own check of the end ([`Remote::end_check`]), once made.
    pub(crate) end_check: Option<(bool, String)>,
    /// The connection is down: the link is trying again.
    pub(crate) reconnecting: bool,
    /// The `rematch` sent and not answered yet (resent after a drop: the server gives
    /// the same table again).
    rematch: Option<Value>,
    /// The rematch table the other player made, once heard of.
    pub(crate) next: Option<String>,
    /// The rematch was offered for the game that ended.
    offered: bool,
}

/// A client whose link is not started yet.
pub struct Starting<R: Remote> {
    client: Client<R>,
    tls: Tls,
    token: Option<String>,
    outgoing: Receiver<Value>,
}

impl<R: Remote> Starting<R> {
    /// Starts the link on a thread of its own; its notes go to `notes`, each through
    /// `wrap`.
    pub(crate) fn start_link<T: Send + 'static>(
        self,
        notes: Sender<T>,
        wrap: fn(Note) -> T,
    ) -> CliResult<Client<R>> {
        let Starting {
            client,
            tls,
            token,
            outgoing,
        } = self;
        let url = client.url.clone();
        std::thread::Builder::new()
            .name("tabletop-link".into())
            .spawn(move || link::run(url, tls, token, outgoing, notes, wrap))?;
        Ok(client)
    }
}

/// Time left on a clock, `4:05` (rounded down to the second).
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// A field of a message as text.
fn text<'a>(message: &'a Value, field: &str) -> &'a str {
    message.get(field).and_then(Value::as_str).unwrap_or("")
}

impl<R: Remote> Client<R> {
    /// A client of the server at `url` that sends through `outgoing`.
    pub(crate) fn new(
        game: R,
        url: String,
        identity_file: PathBuf,
        outgoing: Sender<Value>,
        painter: Painter,
        out: Out,
    ) -> Client<R> {
        Client {
            game,
            key: url.trim_end_matches('/').to_owned(),
            url,
            identity_file,
            outgoing,
            painter,
            id_prefix: format!("{:x}", clock_seed()),
            next_id: 0,
            seed: None,
            start: None,
            table: None,
            invite: None,
            seat: None,
            status: String::new(),
            version: None,
            view: None,
            shown: None,
            pending: None,
            queue: Vec::new(),
            typed: Vec::new(),
            eof: false,
            out,
            info: Value::Null,
            commitment: None,
            dice_check: DiceCheck::None,
            end_check: None,
            reconnecting: false,
            rematch: None,
            next: None,
            offered: false,
        }
    }

    pub(crate) fn new_id(&mut self) -> String {
        self.next_id += 1;
        format!("{}-{}", self.id_prefix, self.next_id)
    }

    /// A client for the game `args` ask for (a new table as `create` says, unless
    /// `--invite` or `--table` name one); [`Client::start_link`] connects it.
    pub(crate) fn connect(
        game: R,
        args: &ConnectArgs,
        create: Create,
        painter: Painter,
        out: Out,
    ) -> CliResult<Starting<R>> {
        let url = args.connect.clone().unwrap_or_default();
        let tls = tls::for_url(&url, args.ca_cert.as_deref())?;
        let identity_file = identity::path(args.identity.as_deref());
        let token = identity::token(&identity_file, url.trim_end_matches('/'))?;
        let (outgoing, outgoing_rx) = mpsc::channel();
        let mut client = Client::new(game, url, identity_file, outgoing, painter, out);
        client.table = args.table.clone();
        client.start = Some(client.start_command(args, create));
        Ok(Starting {
            client,
            tls,
            token,
            outgoing: outgoing_rx,
        })
    }

    /// Says `line`: printed, or kept for the full screen.
    pub(crate) fn say(&mut self, line: impl Into<String>) {
        match &mut self.out {
            Out::Print => println!("{}", line.into()),
            Out::Keep(lines) => lines.push(line.into()),
        }
    }

    /// Says an error: on stderr, or kept with a leading `!`.
    fn warn(&mut self, error: CliError) {
        match &mut self.out {
            Out::Print => error.print(),
            Out::Keep(lines) => lines.push(format!("! {}", error.message())),
        }
    }

    /// Whether the client prints the board itself (line mode).
    fn prints_board(&self) -> bool {
        matches!(self.out, Out::Print)
    }

    fn send(&self, message: &Value) {
        let _ = self.outgoing.send(message.clone());
    }

    /// Nardy dice you can verify: while the table waits for this seat's seed, sends 32
    /// random bytes of this machine's, so that the server alone does not pick the dice
    /// (always the same bytes: sent again after a drop, the server takes them once).
    fn seed_dice(&mut self, message: &Value) {
        let (Some(seat), Some(table)) = (self.seat, self.table.clone()) else {
            return;
        };
        let dice = &message["dice"];
        if !dice.is_object() || !dice["seeds"][usize::from(seat)].is_null() {
            return;
        }
        let seed = self
            .seed
            .get_or_insert_with(|| {
                tabletop_server::identity::hex(&tabletop_server::identity::random_bytes::<32>())
            })
            .clone();
        let id = self.new_id();
        self.send(&json!({"type": "seed", "id": id, "table": table, "seed": seed}));
    }

    /// The command that starts the game.
    pub(crate) fn start_command(&mut self, args: &ConnectArgs, create: Create) -> Value {
        let id = self.new_id();
        match (&args.invite, &args.table) {
            (Some(invite), _) => json!({"type": "join", "id": id, "invite": invite}),
            (None, Some(table)) => self.open_command(table, None),
            (None, None) => {
                let mut message = json!({"type": "create", "id": id, "game": R::GAME,
                    "seats": create.seats, "rules": create.rules});
                if let Some((minutes, increment)) = args.clock {
                    message["clock"] = json!({"minutes": minutes, "increment_s": increment});
                }
                message
            }
        }
    }

    pub(crate) fn open_command(&mut self, table: &str, since: Option<u64>) -> Value {
        let id = self.new_id();
        let mut open = json!({"type": "open", "id": id, "table": table});
        if let Some(since) = since {
            open["since"] = json!(since);
        }
        open
    }

    /// Handles a note of the link; `true` when the game is over.
    pub(crate) fn note(&mut self, note: Note) -> CliResult<bool> {
        match note {
            Note::Connected { again, token } => {
                if let Some(token) = token
                    && let Err(e) = identity::keep(&self.identity_file, &self.key, &token)
                {
                    self.warn(e.context("cannot keep your identity"));
                }
                self.reconnecting = false;
                if again {
                    let line = self.paint("Connection back.", Style::Green);
                    self.say(line);
                }
                match (&self.start, self.table.clone()) {
                    (Some(start), _) => self.send(start),
                    (None, Some(table)) => {
                        let open = self.open_command(&table, self.version);
                        self.send(&open);
                        if let Some(act) = &self.pending {
                            self.send(act);
                        }
                        if let DiceCheck::Asked(download) = &self.dice_check {
                            self.send(download);
                        }
                        if let Some(rematch) = &self.rematch {
                            self.send(rematch);
                        }
                    }
                    (None, None) => {}
                }
            }
            Note::Dropped(why) => {
                self.reconnecting = true;
                let line = self.paint(
                    &format!("Connection lost ({why}); reconnecting…"),
                    Style::Yellow,
                );
                self.say(line);
            }
            Note::Failed(why) => {
                let error = CliError::new(why);
                return Err(match &self.table {
                    Some(table) => error.context(format!(
                        "come back later with: tabletop {} --connect {} --table {table}",
                        R::GAME,
                        self.url
                    )),
                    None => error,
                });
            }
            Note::Message(message) => {
                let over = self.message(&message)?;
                if over {
                    self.offer_rematch();
                }
                return Ok(over);
            }
        }
        Ok(false)
    }

    fn paint(&self, text: &str, style: Style) -> String {
        self.painter.paint(text, style)
    }

    /// Whether `message` answers the command `sent`.
    fn answers(message: &Value, sent: Option<&Value>) -> bool {
        sent.is_some_and(|s| s.get("id").is_some() && s.get("id") == message.get("id"))
    }

    /// Handles a message of the server; `true` when the game is over.
    pub(crate) fn message(&mut self, message: &Value) -> CliResult<bool> {
        if self.rematch_message(message) {
            return Ok(false);
        }
        match text(message, "type") {
            "created" => {
                let table = text(message, "table").to_owned();
                let invite = text(message, "invite").to_owned();
                self.start = None;
                self.created(&table, &invite);
                self.table = Some(table.clone());
                self.invite = Some(invite);
                let open = self.open_command(&table, None);
                self.send(&open);
            }
            "joined" => {
                let table = text(message, "table").to_owned();
                self.start = None;
                self.say(format!("Joined table {table}."));
                self.table = Some(table.clone());
                let open = self.open_command(&table, None);
                self.send(&open);
            }
            "opened" => {
                self.start = None;
                self.table = Some(text(message, "table").to_owned());
                self.seat = message
                    .get("seat")
                    .and_then(Value::as_u64)
                    .and_then(|s| u8::try_from(s).ok());
                match self.seat {
                    Some(seat) => self.say(format!("You play {}.", R::side(seat))),
                    None => self.say("You watch this table."),
                }
            }
            "table" => {
                self.info = message.clone();
                self.seed_dice(message);
                self.table_status(text(message, "status"));
                self.ask_proof();
                self.check_end();
                return Ok(self.over());
            }
            "save" => {
                self.check_dice(message);
                return Ok(self.over());
            }
            "events" => self.events(message),
            "view" => {
                let view = message
                    .get("view")
                    .cloned()
                    .and_then(|v| serde_json::from_value::<View<R>>(v).ok());
                if let Some(view) = view {
                    self.version = Some(self.version.unwrap_or(0).max(view.version));
                    self.view = Some(view);
                    self.show();
                    self.check_end();
                    return Ok(self.over());
                }
            }
            "acked" if Self::answers(message, self.pending.as_ref()) => {
                self.pending = None;
                if !self.queue.is_empty() {
                    let input = self.queue.remove(0);
                    self.act(json!({"play": input}));
                }
            }
            "error" => return self.error(message).map(|()| false),
            // A later protocol's messages (a dice `seed`, say) are not this client's.
            _ => {}
        }
        Ok(false)
    }

    /// Whether the game is over and nothing is left to hear: the result is known, a
    /// nardy table's dice are checked and the game's end check is made.
    pub(crate) fn over(&self) -> bool {
        let ended = self.view.as_ref().is_some_and(|v| v.ending.is_some());
        ended
            && (self.commitment.is_none() || matches!(self.dice_check, DiceCheck::Done(..)))
            && (self.end_check.is_some() || !self.game.has_end_check(&self.info))
    }

    /// Makes the game's check of the end once it can be made, and says it.
    fn check_end(&mut self) {
        let Some(view) = self.view.as_ref().filter(|_| self.end_check.is_none()) else {
            return;
        };
        if let Some((ok, words)) = self.game.end_check(view, &self.info) {
            let line = self.paint(&words, if ok { Style::Green } else { Style::Red });
            self.say(line);
            self.end_check = Some((ok, words));
        }
    }

    /// Once the game is over and the server has revealed its dice seed, asks for the save
    /// that holds the whole proof.
    fn ask_proof(&mut self) {
        let dice = &self.info["dice"];
        if self.commitment.is_none() {
            self.commitment = dice["commitment"].as_str().map(str::to_owned);
        }
        let Some(table) = self.table.clone() else {
            return;
        };
        if self.dice_check == DiceCheck::None && dice["server_seed"].is_string() {
            let id = self.new_id();
            let download = json!({"type": "download", "id": id, "table": table});
            self.send(&download);
            self.dice_check = DiceCheck::Asked(download);
        }
    }

    /// Checks the dice of the save the server sent (`tabletop nardy verify`'s check)
    /// against the commitment seen when the table was first opened.
    fn check_dice(&mut self, message: &Value) {
        if !matches!(self.dice_check, DiceCheck::Asked(_)) {
            return;
        }
        let bytes = tabletop_server::identity::unhex(text(message, "hex"));
        let verdict =
            match bytes.map(|b| crate::nardy::verify::check(&b, self.commitment.as_deref())) {
                Some(Ok(v)) if v.verified => (
                    true,
                    format!(
                        "Dice verified: the seed matches its commitment, all {} rolls check out.",
                        v.rolls_checked
                    ),
                ),
                Some(Ok(v)) => (
                    false,
                    match v.first_mismatch {
                        Some(m) => format!(
                            "The dice do NOT check out: turn {} rolled {}, the seeds give {}.",
                            m.turn, m.rolled, m.expected
                        ),
                        None => "The dice do NOT check out: the seed is not the one committed to."
                            .to_owned(),
                    },
                ),
                Some(Err(why)) => (false, format!("The dice cannot be checked: {why}")),
                None => (
                    false,
                    "The dice cannot be checked: the save does not read".to_owned(),
                ),
            };
        let line = self.paint(
            &verdict.1,
            if verdict.0 { Style::Green } else { Style::Red },
        );
        self.say(line);
        self.dice_check = DiceCheck::Done(verdict.0, verdict.1);
    }

    /// Says how the other player joins the new table, and how to come back.
    fn created(&mut self, table: &str, invite: &str) {
        let game = R::GAME;
        let url = self.url.clone();
        self.say(format!("Table {table} made."));
        if game != "sudoku" {
            let code = self.paint(invite, Style::Bold);
            self.say(format!("Invite code: {code}"));
            self.say(format!(
                "The other player joins with: tabletop {game} --connect {url} --invite {invite}"
            ));
        }
        self.say(format!(
            "Come back to it with: tabletop {game} --connect {url} --table {table}"
        ));
    }

    fn table_status(&mut self, status: &str) {
        let before = std::mem::replace(&mut self.status, status.to_owned());
        if status == "open" && before != "open" {
            match self.invite.clone() {
                Some(invite) => self.say(format!(
                    "Waiting for the other player to join (invite {invite})…"
                )),
                None => self.say("Waiting for the other player to join…"),
            }
        }
        if status == "playing" && before == "open" {
            self.say("The other player has joined.");
            self.turn();
        }
    }

    /// Prints what happened, each event once (a resent batch after a drop is skipped).
    fn events(&mut self, message: &Value) {
        let Some(events) = message.get("events").and_then(Value::as_array) else {
            return;
        };
        for event in events {
            let Ok(event) = serde_json::from_value::<Event<R::Event, R::Score>>(event.clone())
            else {
                continue;
            };
            if self.version.is_some_and(|v| event.version <= v) {
                continue;
            }
            let line = match &event.kind {
                EventKind::Game(e) => self.game.narrate(e, self.seat),
                EventKind::Undone { seat } => Some(format!("{} took back moves.", R::side(seat.0))),
                _ => None,
            };
            if let Some(line) = line {
                self.say(line);
            }
        }
        if let Some(version) = message.get("version").and_then(Value::as_u64) {
            self.version = Some(self.version.unwrap_or(0).max(version));
        }
    }

    /// Draws the board once per version (in line mode) and says whose turn it is, or the
    /// result once the game is over.
    fn show(&mut self) {
        let Some(view) = &self.view else {
            return;
        };
        // A nardy table's first dice come at version 0 too, once every seed is in.
        let now = (view.version, view.to_act.map(|s| s.0));
        if self.shown != Some(now) {
            self.shown = Some(now);
            if self.game.mid_turn(view) {
                // Only the mover hears of a turn in progress; the board follows the turn.
                if let Some(me) = self.seat.filter(|&me| self.game.my_turn(view, me))
                    && self.prints_board()
                {
                    println!("{}", self.game.your_turn(view, me));
                }
                return;
            }
            if self.prints_board() {
                println!(
                    "{}",
                    self.game.board(view, self.seat, self.painter).trim_end()
                );
            }
            if let Some(clocks) = view
                .clock_ms
                .as_ref()
                .filter(|_| view.ending.is_none() && self.prints_board())
            {
                let times: Vec<String> = clocks
                    .iter()
                    .enumerate()
                    .map(|(seat, &ms)| format!("{} {}", R::side(seat as u8), clock_text(ms)))
                    .collect();
                println!("Clocks: {}", times.join(", "));
            }
            if let Some(ending) = &view.ending {
                let result = self.game.result(ending, view, self.seat);
                let how = match ending.reason {
                    EndReason::Resigned => " by resignation",
                    EndReason::Timeout => " on time",
                    EndReason::Rules => "",
                    EndReason::Abandoned => ", claimed from a player who left",
                };
                self.say(format!("Game over{how}: {result}"));
                return;
            }
            self.turn();
        }
    }

    /// Says whose turn it is: the legal moves when it is the player's.
    fn turn(&self) {
        let Some(view) = &self.view else {
            return;
        };
        if self.status == "open" || view.ending.is_some() || !self.prints_board() {
            return;
        }
        match self.seat {
            Some(me) if self.game.my_turn(view, me) => {
                println!("{}", self.game.your_turn(view, me));
            }
            _ => {
                if let Some(seat) = view.to_act {
                    println!("Waiting for {}.", R::side(seat.0));
                }
            }
        }
    }

    /// A refusal of the server: the move is not played, the game goes on. Errors of the
    /// start (a wrong invite code) end the program.
    fn error(&mut self, message: &Value) -> CliResult {
        let code = text(message, "code");
        let words = text(message, "message");
        if Self::answers(message, self.start.as_ref()) || code == "no_such_table" {
            return Err(CliError::new(format!("{words} ({code})")));
        }
        if let DiceCheck::Asked(download) = &self.dice_check
            && Self::answers(message, Some(download))
        {
            let why = format!("The dice cannot be checked: {words}");
            self.say(why.clone());
            self.dice_check = DiceCheck::Done(false, why);
            return Ok(());
        }
        if Self::answers(message, self.pending.as_ref()) {
            self.pending = None;
            self.queue.clear();
        }
        let error = match code {
            "not_a_person" => {
                CliError::new("undo and redo are off against a remote player: the table refused")
            }
            "waiting" => CliError::new("the other player has not joined yet"),
            _ => CliError::new(words),
        };
        self.warn(error);
        Ok(())
    }

    /// Sends an action as an `act`, kept until acknowledged.
    pub(crate) fn act(&mut self, action: Value) {
        let Some(table) = self.table.clone() else {
            return;
        };
        let id = self.new_id();
        let act = json!({"type": "act", "id": id, "table": table, "action": action});
        self.send(&act);
        self.pending = Some(act);
    }
}

mod rematch;
#[cfg(test)]
mod tests;
