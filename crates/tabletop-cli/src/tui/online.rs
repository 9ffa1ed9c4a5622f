//! What a full-screen game at a server shares, whatever the game: the [`Session`] that
//! owns the online client ([`Client`]) and the notes of its link, and the words the
//! screens show about the table (its id and invite, the clocks, who is away, the
//! connection, the dice check).
//!
//! The client keeps the game's state from the server's views; the screens draw that view
//! and send moves through [`Session::act`]. A move in flight is resent under its id after
//! a drop (the client does it), so the screen only says "reconnecting…" meanwhile.

use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tabletop_play::Player;

use super::Ctx;
use crate::common::{CliError, CliResult, Painter};
use crate::online::ConnectArgs;
use crate::online::client::{Client, DiceCheck, Out};
use crate::online::link::Note;
use crate::online::remote::{Create, Remote, View};

/// The [`GameScreen`](super::GameScreen) methods of a local game that an online screen
/// (a type with a `session: Session<_>` field) turns off, alike for every game: no
/// settings, undo, redo, save or load, since the server keeps the game; a new game is
/// the rematch of a finished one.
macro_rules! local_game_is_off {
    () => {
        fn choices(&self) -> Vec<$crate::tui::Choice> {
            Vec::new()
        }

        fn choose(&mut self, _choice: usize, _value: usize, _ctx: &mut $crate::tui::Ctx) {}

        fn new_game(&mut self, ctx: &mut $crate::tui::Ctx) {
            self.session.rematch(ctx);
        }

        fn undo(&mut self, ctx: &mut $crate::tui::Ctx) {
            ctx.say("Undo is off in online play");
        }

        fn redo(&mut self, ctx: &mut $crate::tui::Ctx) {
            ctx.say("Redo is off in online play");
        }

        fn save(&self) -> Vec<u8> {
            Vec::new()
        }

        fn load(&mut self, _bytes: &[u8]) -> Result<(), String> {
            Err("loading is off in online play".to_owned())
        }

        fn in_progress(&self) -> bool {
            self.session.view().is_some_and(|v| v.ending.is_none())
        }

        fn online(&self) -> bool {
            true
        }
    };
}
pub(crate) use local_game_is_off;

/// How long [`Session::start`] waits for the first connection.
const FIRST_CONNECTION: Duration = Duration::from_secs(15);
/// How many of the client's lines the screens keep.
const LOG_LINES: usize = 50;

/// One online game of a full screen: see the module documentation.
pub struct Session<R: Remote> {
    /// The game's state as the server's messages gave it.
    pub client: Client<R>,
    notes: Receiver<Note>,
    /// Why the game cannot go on (the link gave up, the table does not exist…).
    pub failed: Option<String>,
    /// What the client said, oldest first.
    pub log: Vec<String>,
    /// When the last view and the last `table` message came, for the clocks and `away`.
    view_at: Instant,
    info_at: Instant,
    /// The version and `table` message those times are of.
    version_seen: Option<u64>,
    info_seen: Value,
}

/// Leaving a game under way says how to come back (after the host has restored the
/// terminal: the screen is dropped last).
impl<R: Remote> Drop for Session<R> {
    fn drop(&mut self) {
        let going_on = self.view().is_some_and(|v| v.ending.is_none());
        if let Some(table) = self.client.table.as_ref().filter(|_| going_on) {
            println!(
                "Left table {table}; come back with: tabletop {} --connect {} --table {table}",
                R::GAME,
                self.client.url
            );
        }
    }
}

impl<R: Remote> Session<R> {
    /// Connects to the server of `args` and starts or joins the game; an error when the
    /// server cannot be reached at all.
    pub fn start(game: R, args: &ConnectArgs, create: Create) -> CliResult<Session<R>> {
        let (notes_tx, notes) = mpsc::channel();
        let client = Client::connect(game, args, create, Painter::plain(), Out::Keep(Vec::new()))?
            .start_link(notes_tx, |note| note)?;
        let mut session = Session {
            client,
            notes,
            failed: None,
            log: Vec::new(),
            view_at: Instant::now(),
            info_at: Instant::now(),
            version_seen: None,
            info_seen: Value::Null,
        };
        match session.notes.recv_timeout(FIRST_CONNECTION) {
            Ok(Note::Failed(why)) => return Err(CliError::new(why)),
            Ok(note) => session.take(note),
            Err(_) => {
                return Err(CliError::new(
                    "the server did not answer: check the address of --connect",
                ));
            }
        }
        Ok(session)
    }

    /// Handles one note of the link.
    fn take(&mut self, note: Note) {
        if let Err(e) = self.client.note(note) {
            self.failed = Some(e.message().to_owned());
        }
    }

    /// Handles the link's notes that have come; says the client's newest line through
    /// `ctx`. Returns whether anything changed.
    pub fn poll(&mut self, ctx: &mut Ctx) -> bool {
        let mut changed = false;
        while let Ok(note) = self.notes.try_recv() {
            self.take(note);
            changed = true;
        }
        if let Out::Keep(lines) = &mut self.client.out
            && !lines.is_empty()
        {
            let lines = std::mem::take(lines);
            if let Some(last) = lines.last() {
                ctx.say(last.trim_start_matches("! ").to_owned());
            }
            self.log.extend(lines);
            let extra = self.log.len().saturating_sub(LOG_LINES);
            self.log.drain(..extra);
        }
        let version = self.view().map(|v| v.version);
        if version != self.version_seen {
            self.version_seen = version;
            self.view_at = Instant::now();
        }
        if self.client.info != self.info_seen {
            self.info_seen = self.client.info.clone();
            self.info_at = Instant::now();
        }
        changed || self.clock_running()
    }

    /// The view of the game, once the server has sent one.
    pub fn view(&self) -> Option<&View<R>> {
        self.client.view.as_ref()
    }

    /// The seat played here (`None`: watching, or not opened yet).
    pub fn seat(&self) -> Option<u8> {
        self.client.seat
    }

    /// Whether this seat may move now: its turn, the table playing, the connection up
    /// and no move of its own on the way.
    pub fn my_turn(&self) -> bool {
        let (Some(view), Some(me)) = (self.view(), self.seat()) else {
            return false;
        };
        self.client.game.my_turn(view, me)
            && view.ending.is_none()
            && self.client.status == "playing"
            && self.client.pending.is_none()
            && !self.client.reconnecting
            && self.failed.is_none()
    }

    /// Sends `input` as the move of this seat (`{"play": INPUT}`), or says why not.
    pub fn play(&mut self, input: Value, ctx: &mut Ctx) -> bool {
        if self.client.pending.is_some() {
            ctx.say("Wait: your last move is on its way to the server");
            return false;
        }
        if !self.my_turn() {
            ctx.say(self.waiting_for());
            return false;
        }
        self.client.act(json!({"play": input}));
        true
    }

    /// Sends `inputs` as moves of this seat, one after the other as each is acknowledged
    /// (a sudoku entry goes after the time spent on it), or says why not.
    pub fn play_all(&mut self, mut inputs: Vec<Value>, ctx: &mut Ctx) -> bool {
        if inputs.is_empty() {
            return false;
        }
        let first = inputs.remove(0);
        if !self.play(first, ctx) {
            return false;
        }
        self.client.queue = inputs;
        true
    }

    /// Asks for the rematch of the finished game (`n` on the screens), or says why not.
    pub fn rematch(&mut self, ctx: &mut Ctx) {
        if self.view().is_some_and(|v| v.ending.is_none()) {
            ctx.say("A new game is off in online play: the server keeps the game");
            return;
        }
        match self.client.ask_rematch() {
            Ok(()) => ctx.say("Asking for a rematch…"),
            Err(e) => ctx.say(e.message().to_owned()),
        }
    }

    /// Gives the game up.
    pub fn resign(&mut self, ctx: &mut Ctx) {
        let playing = self.view().is_some_and(|v| v.ending.is_none());
        if self.seat().is_none() || !playing {
            ctx.say("There is no game of yours to resign");
        } else if self.client.pending.is_some() {
            ctx.say("Wait: your last move is on its way to the server");
        } else {
            self.client.act(json!("resign"));
            ctx.say("You resign…");
        }
    }

    /// What the game waits for, in words.
    pub fn waiting_for(&self) -> String {
        if let Some(why) = &self.failed {
            return format!("{why} · q: leave");
        }
        if self.client.reconnecting {
            return "Connection lost: reconnecting…".to_owned();
        }
        let Some(view) = self.view() else {
            return "Connecting to the table…".to_owned();
        };
        if view.ending.is_some() {
            return if self.client.can_rematch() {
                "The game is over · n: rematch · q: leave".to_owned()
            } else {
                "The game is over · q: leave".to_owned()
            };
        }
        if self.client.status == "open" {
            return "Waiting for the other player to join".to_owned();
        }
        if self.client.pending.is_some() {
            return "Sending your move…".to_owned();
        }
        match view.to_act {
            Some(seat) if Some(seat.0) == self.seat() => "Your move".to_owned(),
            Some(seat) => format!("Waiting for {}", R::side(seat.0)),
            None => "Waiting for the dice seeds".to_owned(),
        }
    }

    /// The game's result in words for this player, once the view says it has ended.
    pub fn result(&self) -> Option<String> {
        let view = self.view()?;
        let ending = view.ending.as_ref()?;
        Some(self.client.game.result(ending, view, self.seat()))
    }

    /// The name of a seat's player as this screen says it.
    pub fn player_name(&self, seat: u8) -> String {
        if Some(seat) == self.seat() {
            return "you".to_owned();
        }
        match self.view().and_then(|v| v.players.get(usize::from(seat))) {
            Some(Player::Bot(level)) => format!("bot {level}"),
            _ => match self.client.info["seats"].get(usize::from(seat)) {
                Some(Value::String(s)) if s == "open" => "open seat".to_owned(),
                _ => "opponent".to_owned(),
            },
        }
    }

    fn clock_running(&self) -> bool {
        self.view()
            .is_some_and(|v| v.clock_ms.is_some() && v.ending.is_none() && v.to_act.is_some())
    }

    /// The lines about the table: id and invite, clocks, who is away, the connection and
    /// the dice check, then the newest of the client's lines to fill `rows`.
    pub fn table_lines(&self, rows: usize) -> Vec<(String, bool)> {
        let mut lines = Vec::new();
        let client = &self.client;
        if let Some(table) = &client.table {
            lines.push((format!("Online table {table}"), false));
        }
        if let Some(invite) = client.invite.as_ref().filter(|_| client.status == "open") {
            lines.push((format!("Invite code {invite}: waiting…"), false));
        }
        if let Some(view) = self.view() {
            if let Some(clocks) = view.clock_ms.as_ref().filter(|_| view.ending.is_none()) {
                let elapsed = self.view_at.elapsed().as_millis() as u64;
                let times: Vec<String> = clocks
                    .iter()
                    .enumerate()
                    .map(|(seat, &ms)| {
                        let running = view.to_act.map(|s| usize::from(s.0)) == Some(seat);
                        let ms = if running {
                            ms.saturating_sub(elapsed)
                        } else {
                            ms
                        };
                        let s = ms / 1000;
                        format!("{} {}:{:02}", R::side(seat as u8), s / 60, s % 60)
                    })
                    .collect();
                lines.push((format!("Clock: {}", times.join(" · ")), false));
            }
            if view.ending.is_none() {
                let elapsed = self.info_at.elapsed().as_millis() as u64;
                for (seat, away) in client.info["away"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    if let Some(ms) = away.as_u64() {
                        let s = (ms + elapsed) / 1000;
                        let who = R::side(seat as u8);
                        lines.push((format!("{who} is away ({s} s)"), true));
                    }
                }
            }
        }
        if client.reconnecting {
            lines.push(("Connection lost: reconnecting…".to_owned(), true));
        }
        if let Some(why) = &self.failed {
            lines.push((why.clone(), true));
        }
        match &client.dice_check {
            DiceCheck::Done(ok, words) => lines.push((words.clone(), !ok)),
            DiceCheck::Asked(_) => lines.push(("Checking the dice…".to_owned(), false)),
            DiceCheck::None => {}
        }
        let room = rows.saturating_sub(lines.len());
        let start = self.log.len().saturating_sub(room);
        for line in &self.log[start..] {
            if !lines.iter().any(|(l, _)| l == line) {
                lines.push((line.clone(), line.starts_with("! ")));
            }
        }
        lines
    }
}
