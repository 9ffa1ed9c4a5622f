//! The command loop of online play, the same for the four games: it starts or joins a
//! table, prints the other seats' moves as their events arrive and the board after each
//! view, and sends the typed moves as `act`s. Everything it shows comes from the server's
//! events and views; the game files ([`Remote`]) only read them and parse moves.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};

use serde_json::{Value, json};
use tabletop_play::{EndReason, Event, EventKind};

use super::ConnectArgs;
use super::identity;
use super::link::{self, Note};
use super::remote::{Create, Remote, Reply, View};
use crate::common::{CliError, CliResult, Console, Painter, Style, clock_seed};

const ONLINE_HELP: &str = "\
online commands:
  board       draw the board again      resign      give the game up
  help        this help                 quit        leave (the table stays; come back
                                                    with --table)
undo and save are off in online play; the server keeps the game.";

/// What the loop waits for: a note of the link or a typed line (`None`: end of input).
enum Input {
    Note(Note),
    Line(Option<String>),
}

/// Plays `game` at the server of `args` (a new table as `create` says, unless `--invite`
/// or `--table` name one).
pub fn play<R: Remote>(game: R, args: &ConnectArgs, create: Create) -> CliResult {
    let url = args.connect.clone().unwrap_or_default();
    if !(url.starts_with("ws://") || url.starts_with("wss://")) {
        return Err(CliError::usage(format!(
            "--connect takes a ws:// or wss:// address, like ws://127.0.0.1:8080, not '{url}'"
        )));
    }
    let identity_file = identity::path(args.identity.as_deref());
    let token = identity::token(&identity_file, url.trim_end_matches('/'))?;
    let (inputs, input_rx) = mpsc::channel();
    let (outgoing, outgoing_rx) = mpsc::channel();
    let link_inputs = inputs.clone();
    let link_url = url.clone();
    std::thread::spawn(move || link::run(link_url, token, outgoing_rx, link_inputs, Input::Note));
    std::thread::spawn(move || read_lines(&inputs));
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let painter = if terminal {
        println!("Online play is in line mode (the full screen does not play online yet).");
        Painter::stdout()
    } else {
        Painter::plain()
    };
    let mut client = Client::new(game, url, identity_file, outgoing, painter);
    client.table = args.table.clone();
    client.start = Some(client.start_command(args, create));
    client.run(&input_rx)
}

/// Reads typed lines on a thread of its own, so moves of the other seats print at once.
fn read_lines(inputs: &Sender<Input>) {
    let mut console = Console::stdin();
    loop {
        match console.read_command("") {
            Ok(Some(line)) => {
                if inputs.send(Input::Line(Some(line))).is_err() {
                    return;
                }
            }
            _ => {
                let _ = inputs.send(Input::Line(None));
                return;
            }
        }
    }
}

struct Client<R: Remote> {
    game: R,
    url: String,
    /// The server's key in the identity file (the URL without a final `/`).
    key: String,
    identity_file: PathBuf,
    outgoing: Sender<Value>,
    painter: Painter,
    /// Makes command ids unique between runs: the server applies an id once per player.
    id_prefix: String,
    next_id: u64,
    /// This seat's contribution to a nardy table's dice, once made.
    seed: Option<String>,
    /// The `create`, `join` or `open` that starts the game, resent after a drop until
    /// answered (the server applies a `create` once).
    start: Option<Value>,
    table: Option<String>,
    invite: Option<String>,
    seat: Option<u8>,
    /// The table's status (`open`, `playing`, `finished`).
    status: String,
    /// The last version seen, for `open` with `since` after a drop.
    version: Option<u64>,
    view: Option<View<R>>,
    /// The version (and seat to act) whose board was printed last.
    shown: Option<(u64, Option<u8>)>,
    /// The `act` sent and not yet acknowledged: resent with its id after a drop.
    pending: Option<Value>,
    /// Inputs still to send after the pending one (the steps of a nardy turn).
    queue: Vec<Value>,
    /// Typed lines not handled yet: each waits for the game's first view and for the
    /// answer to the move before it (a script may type ahead).
    typed: Vec<String>,
    /// The input has ended: leave once nothing is pending.
    eof: bool,
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
    fn new(
        game: R,
        url: String,
        identity_file: PathBuf,
        outgoing: Sender<Value>,
        painter: Painter,
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
        }
    }

    fn new_id(&mut self) -> String {
        self.next_id += 1;
        format!("{}-{}", self.id_prefix, self.next_id)
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
    fn start_command(&mut self, args: &ConnectArgs, create: Create) -> Value {
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

    fn open_command(&mut self, table: &str, since: Option<u64>) -> Value {
        let id = self.new_id();
        let mut open = json!({"type": "open", "id": id, "table": table});
        if let Some(since) = since {
            open["since"] = json!(since);
        }
        open
    }

    fn run(&mut self, inputs: &Receiver<Input>) -> CliResult {
        while let Ok(input) = inputs.recv() {
            let done = match input {
                Input::Note(note) => self.note(note)?,
                Input::Line(Some(line)) => {
                    self.typed.push(line);
                    false
                }
                Input::Line(None) => {
                    self.eof = true;
                    false
                }
            };
            if done || self.drain() || (self.eof && self.typed.is_empty() && self.pending.is_none())
            {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Handles a note of the link; `true` when the game is over.
    fn note(&mut self, note: Note) -> CliResult<bool> {
        match note {
            Note::Connected { again, token } => {
                if let Some(token) = token
                    && let Err(e) = identity::keep(&self.identity_file, &self.key, &token)
                {
                    e.context("cannot keep your identity").print();
                }
                if again {
                    println!("{}", self.paint("Connection back.", Style::Green));
                }
                match (&self.start, self.table.clone()) {
                    (Some(start), _) => self.send(start),
                    (None, Some(table)) => {
                        let open = self.open_command(&table, self.version);
                        self.send(&open);
                        if let Some(act) = &self.pending {
                            self.send(act);
                        }
                    }
                    (None, None) => {}
                }
            }
            Note::Dropped(why) => println!(
                "{}",
                self.paint(
                    &format!("Connection lost ({why}); reconnecting…"),
                    Style::Yellow
                )
            ),
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
            Note::Message(message) => return self.message(&message),
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
    fn message(&mut self, message: &Value) -> CliResult<bool> {
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
                println!("Joined table {table}.");
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
                    Some(seat) => println!("You play {}.", R::side(seat)),
                    None => println!("You watch this table."),
                }
            }
            "table" => {
                self.seed_dice(message);
                self.table_status(text(message, "status"));
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
                    return Ok(self.show());
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

    /// Says how the other player joins the new table, and how to come back.
    fn created(&self, table: &str, invite: &str) {
        let game = R::GAME;
        let url = &self.url;
        println!("Table {table} made.");
        if game != "sudoku" {
            println!("Invite code: {}", self.paint(invite, Style::Bold));
            println!(
                "The other player joins with: tabletop {game} --connect {url} --invite {invite}"
            );
        }
        println!("Come back to it with: tabletop {game} --connect {url} --table {table}");
    }

    fn table_status(&mut self, status: &str) {
        let before = std::mem::replace(&mut self.status, status.to_owned());
        if status == "open" && before != "open" {
            match &self.invite {
                Some(invite) => println!("Waiting for the other player to join (invite {invite})…"),
                None => println!("Waiting for the other player to join…"),
            }
        }
        if status == "playing" && before == "open" {
            println!("The other player has joined.");
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
                println!("{line}");
            }
        }
        if let Some(version) = message.get("version").and_then(Value::as_u64) {
            self.version = Some(self.version.unwrap_or(0).max(version));
        }
    }

    /// Draws the board once per version and says whose turn it is; `true` once the game
    /// is over (the result is printed).
    fn show(&mut self) -> bool {
        let Some(view) = &self.view else {
            return false;
        };
        // A nardy table's first dice come at version 0 too, once every seed is in.
        let now = (view.version, view.to_act.map(|s| s.0));
        if self.shown != Some(now) {
            self.shown = Some(now);
            if self.game.mid_turn(view) {
                // Only the mover hears of a turn in progress; the board follows the turn.
                if let Some(me) = self.seat.filter(|&me| self.game.my_turn(view, me)) {
                    println!("{}", self.game.your_turn(view, me));
                }
                return false;
            }
            println!(
                "{}",
                self.game.board(view, self.seat, self.painter).trim_end()
            );
            if let Some(clocks) = view.clock_ms.as_ref().filter(|_| view.ending.is_none()) {
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
                println!("Game over{how}: {result}");
                return true;
            }
            self.turn();
        }
        false
    }

    /// Says whose turn it is: the legal moves when it is the player's.
    fn turn(&self) {
        let Some(view) = &self.view else {
            return;
        };
        if self.status == "open" || view.ending.is_some() {
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
        if Self::answers(message, self.pending.as_ref()) {
            self.pending = None;
            self.queue.clear();
        }
        match code {
            "not_a_person" => {
                CliError::new("undo and redo are off against a remote player: the table refused")
                    .print()
            }
            "waiting" => CliError::new("the other player has not joined yet").print(),
            _ => CliError::new(words).print(),
        }
        Ok(())
    }

    /// Sends an action as an `act`, kept until acknowledged.
    fn act(&mut self, action: Value) {
        let Some(table) = self.table.clone() else {
            return;
        };
        let id = self.new_id();
        let act = json!({"type": "act", "id": id, "table": table, "action": action});
        self.send(&act);
        self.pending = Some(act);
    }

    /// Handles the typed lines that can be now; `true` to leave.
    fn drain(&mut self) -> bool {
        while !self.typed.is_empty() && self.view.is_some() && self.pending.is_none() {
            let line = self.typed.remove(0);
            if self.line(&line) {
                return true;
            }
        }
        false
    }

    /// A typed line; `true` to leave.
    fn line(&mut self, line: &str) -> bool {
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let result = match word.as_str() {
            "quit" | "exit" | "q" => {
                if let Some(table) = &self.table {
                    println!(
                        "Left table {table}; come back with: tabletop {} --connect {} --table {table}",
                        R::GAME,
                        self.url
                    );
                }
                return true;
            }
            "help" | "?" => Ok(Some(format!("{}\n{ONLINE_HELP}", R::HELP.trim_end()))),
            "save" | "load" | "new" => Err(CliError::new(format!(
                "{word} is off in online play: the server keeps the game"
            ))),
            _ => self.game_line(line, &word),
        };
        match result {
            Ok(Some(text)) if !text.is_empty() => println!("{}", text.trim_end()),
            Ok(_) => {}
            Err(e) => e.print(),
        }
        false
    }

    /// A command that needs the table: a move, `board`, `resign`, `undo`.
    fn game_line(&mut self, line: &str, word: &str) -> CliResult<Option<String>> {
        let Some(view) = &self.view else {
            return Err(CliError::new("the game has not started yet"));
        };
        if word == "board" {
            return Ok(Some(self.game.board(view, self.seat, self.painter)));
        }
        let Some(me) = self.seat else {
            return Err(CliError::new("you watch this table: you cannot play"));
        };
        if self.pending.is_some() {
            return Err(CliError::new(
                "wait: your last move is on its way to the server",
            ));
        }
        let action = match word {
            "resign" => json!("resign"),
            "undo" | "redo" => json!(word),
            _ => match self.game.command(line, view, me, self.painter)? {
                Reply::Text(text) => return Ok(Some(text)),
                Reply::Play(mut inputs) if !inputs.is_empty() => {
                    let first = inputs.remove(0);
                    self.queue = inputs;
                    json!({"play": first})
                }
                Reply::Play(_) => return Ok(None),
            },
        };
        self.act(action);
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::online::reversi::Reversi;

    /// A client that has opened table `t1` as seat 0, with what it sends.
    fn opened() -> (Client<Reversi>, Receiver<Value>) {
        let (tx, rx) = mpsc::channel();
        let mut client = Client::new(
            Reversi,
            "ws://127.0.0.1:1".to_owned(),
            PathBuf::from("unused.json"),
            tx,
            Painter::plain(),
        );
        let opened = json!({"type": "opened", "id": "x-1", "table": "t1", "seat": 0});
        assert!(!client.message(&opened).unwrap());
        (client, rx)
    }

    #[test]
    fn unknown_messages_and_fields_are_ignored() {
        let (mut client, _rx) = opened();
        // A later protocol's message type, and fields this client does not know (the
        // dice `seed` of a parallel change, say): nothing breaks, the known part counts.
        let seed = json!({"type": "seed", "table": "t1", "commit": "ab12"});
        assert!(!client.message(&seed).unwrap());
        let table = json!({"type": "table", "table": "t1", "status": "playing",
            "seats": ["person", "person"], "dice": {"commitments": [null, null]}});
        assert!(!client.message(&table).unwrap());
        assert_eq!(client.status, "playing");
        let mut view = serde_json::to_value(
            tabletop_play::reversi::new_table(
                Default::default(),
                [tabletop_play::Player::Remote; 2],
            )
            .view(tabletop_play::Viewer::Seat(tabletop_play::Seat(0))),
        )
        .unwrap();
        view["future_field"] = json!(42);
        let message = json!({"type": "view", "table": "t1", "view": view, "extra": true});
        assert!(!client.message(&message).unwrap());
        assert_eq!(client.view.as_ref().map(|v| v.version), Some(0));
        // Garbage in a known message is skipped, not a crash.
        let bad = json!({"type": "events", "table": "t1", "version": "x", "events": [1, {}]});
        assert!(!client.message(&bad).unwrap());
    }

    #[test]
    fn a_move_in_flight_is_resent_with_its_id_after_a_drop() {
        let (mut client, rx) = opened();
        let view = serde_json::to_value(
            tabletop_play::reversi::new_table(
                Default::default(),
                [tabletop_play::Player::Remote; 2],
            )
            .view(tabletop_play::Viewer::Seat(tabletop_play::Seat(0))),
        )
        .unwrap();
        client.status = "playing".to_owned();
        client
            .message(&json!({"type": "view", "table": "t1", "view": view}))
            .unwrap();
        assert!(!client.line("d3"));
        let act = rx.try_recv().unwrap();
        assert_eq!(act["type"], "act");
        assert_eq!(act["action"], json!({"play": {"Place": 19}}));
        // The connection drops and comes back: the table is opened again since the last
        // version seen, then the same act goes again.
        client.note(Note::Dropped("test".to_owned())).unwrap();
        client
            .note(Note::Connected {
                again: true,
                token: None,
            })
            .unwrap();
        let open = rx.try_recv().unwrap();
        assert_eq!(open["type"], "open");
        assert_eq!(open["since"], json!(0));
        assert_eq!(rx.try_recv().unwrap(), act);
        // Its answer (a duplicate) settles it; another move may go.
        let acked = json!({"type": "acked", "id": act["id"], "table": "t1", "version": 1,
            "duplicate": true});
        client.message(&acked).unwrap();
        assert!(client.pending.is_none());
    }
}
