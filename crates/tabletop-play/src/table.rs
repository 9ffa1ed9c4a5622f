//! The table: one game, its seats, its log of actions and events, its clocks and result.
//!
//! What is the same in every game lives here (who may act, undo permissions, resigning,
//! clocks, versions, saves, replay); what each game's rules say lives behind
//! [`TableGame`], implemented once per game in [`crate::nardy`], [`crate::reversi`],
//! [`crate::battleship`] and [`crate::sudoku`].

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tabletop_common::LoadError;

use crate::clock::{Clocks, TimeControl};
use crate::refusal::Refusal;
use crate::seat::{Player, Seat, Viewer};

/// One game's rules as a table runs them: the state of a match between seats.
///
/// Implementations keep every refused call free of effects: a method that returns `Err`
/// leaves `self` exactly as it was.
pub trait TableGame: Clone + Debug + PartialEq {
    /// What a seat does in the game (a nardy step or turn, a reversi move, a shot…).
    type Input: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// What happened, as every viewer may learn it: no event holds a secret.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// How the game was scored at its end.
    type Score: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// What a viewer may know of the game.
    type View: Clone + Debug + PartialEq + Serialize + DeserializeOwned;

    /// The game's name in saves and messages (`"nardy"`, `"reversi"`, `"battleship"`,
    /// `"sudoku"`).
    const NAME: &'static str;

    /// How many seats the game has.
    fn seats(&self) -> usize;
    /// The seat that must act now; `None` once the rules have ended the game.
    fn to_act(&self) -> Option<Seat>;
    /// Whether `seat` may play an input now: by default only the seat to act (battleship
    /// lets both seats place their fleets at once).
    fn may_act(&self, seat: Seat) -> bool {
        self.to_act() == Some(seat)
    }
    /// Plays `input` for `seat` (already checked by [`TableGame::may_act`]) and pushes
    /// the events it caused. Returns whether the seat's turn is over (a nardy step that
    /// leaves dice to play is not).
    fn play(
        &mut self,
        seat: Seat,
        input: &Self::Input,
        events: &mut Vec<Self::Event>,
    ) -> Result<bool, Refusal>;
    /// Takes back everything since the last decision of a person (`persons[i]` says
    /// whether seat `i` is one): a step in progress, else whole turns. Never re-rolls
    /// dice or reveals a secret.
    fn undo(&mut self, persons: &[bool], events: &mut Vec<Self::Event>) -> Result<(), Refusal>;
    /// Plays again what the last undo took back, up to the next decision of a person.
    fn redo(&mut self, persons: &[bool], events: &mut Vec<Self::Event>) -> Result<(), Refusal>;
    /// The winner (`None` for a draw or a one-seat game) and the score, once the rules
    /// have ended the game.
    fn outcome(&self) -> Option<(Option<Seat>, Self::Score)>;
    /// The score when `loser` resigns or runs out of time now.
    fn concede(&self, loser: Seat) -> Self::Score;
    /// What `viewer` may see; `over` says the game has ended (secrets are revealed).
    fn view(&self, viewer: Viewer, over: bool) -> Self::View;
    /// The state as bytes (the origin of a save).
    fn encode(&self) -> Vec<u8>;
    /// A state written by [`TableGame::encode`], or a save of the engine alone (the
    /// engines' own formats, which tables read and convert).
    fn decode(bytes: &[u8]) -> Result<Self, LoadError>;
}

/// Whether `seat` (the seat to act, if any) is a person's: `persons[i]` says it of seat `i`.
/// The undo and redo policies stop at such a seat's decision.
pub(crate) fn persons_turn(persons: &[bool], seat: Option<Seat>) -> bool {
    seat.and_then(|s| persons.get(s.index()).copied())
        .unwrap_or(false)
}

/// Something a seat asks of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action<I> {
    /// A move of the game.
    Play(I),
    /// Take back to the seat's last decision (a person only).
    Undo,
    /// Play again what undo took back (a person only).
    Redo,
    /// Give the game up (a person only).
    Resign,
    /// The seat's time ran out: written by [`Table::tick`] only, refused from anyone else.
    Timeout,
    /// The seat's player left and did not come back in time: written by
    /// [`Table::abandon`] only, refused from anyone else.
    Abandon,
    /// The seat is now played by this player: written by [`Table::set_player`] only.
    Sit(Player),
}

/// The events one action caused, as [`Table::apply`] returns them.
pub type Events<G> = Vec<Event<<G as TableGame>::Event, <G as TableGame>::Score>>;

/// One applied action: the log entry that replay applies again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry<I> {
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action<I>,
    /// The time the caller gave, in milliseconds, if any.
    pub at: Option<u64>,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The rules ended it.
    Rules,
    /// A seat resigned.
    Resigned,
    /// A seat's time ran out.
    Timeout,
    /// A seat's player left and the game was claimed from them.
    Abandoned,
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ending<S> {
    /// The winner; `None` for a draw, or a one-seat game.
    pub winner: Option<Seat>,
    /// How it ended.
    pub reason: EndReason,
    /// The game's score.
    pub score: S,
}

/// What happened, numbered by the version of the table it led to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event<E, S> {
    /// The table's version after the action that caused the event (the log's length).
    pub version: u64,
    /// What happened.
    pub kind: EventKind<E, S>,
}

/// The kinds of [`Event`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind<E, S> {
    /// Something of the game (a move, a roll, a shot).
    Game(E),
    /// `seat` took back moves; every frontend should draw its view again.
    Undone {
        /// Who asked.
        seat: Seat,
    },
    /// `seat` played again what was taken back.
    Redone {
        /// Who asked.
        seat: Seat,
    },
    /// Who plays `seat` changed.
    Seated {
        /// The seat.
        seat: Seat,
        /// Its new player.
        player: Player,
    },
    /// The game ended.
    Ended(Ending<S>),
}

/// Settings of a table beyond its seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Whether persons may undo; off by default when a seat is [`Player::Remote`].
    pub undo: bool,
    /// The time control, if the game is played on a clock.
    pub clock: Option<TimeControl>,
}

/// What a viewer sees of a table: the game's view plus the table's own state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableView<V, S> {
    /// The game (`"nardy"`, …).
    pub game: String,
    /// The table's version: the number of actions applied.
    pub version: u64,
    /// Who plays each seat.
    pub players: Vec<Player>,
    /// Who is looking.
    pub viewer: Viewer,
    /// The seat to act, while the game goes on.
    pub to_act: Option<Seat>,
    /// Each seat's time left, on a clock.
    pub clock_ms: Option<Vec<u64>>,
    /// The result, once the game has ended.
    pub ending: Option<Ending<S>>,
    /// What the viewer may know of the game.
    pub state: V,
}

/// A match of one game between seats: every frontend drives one of these.
///
/// ```
/// use tabletop_play::nardy::{self, Input};
/// use tabletop_play::{Action, Player, Seat};
/// let mut table = nardy::new_table(Default::default(), 7, [Player::Human, Player::Human]);
/// let seat = table.to_act().unwrap();
/// let turn = table.game().game().legal_moves()[0].clone();
/// let events = table.apply(seat, Action::Play(Input::Turn(turn)))?;
/// assert_eq!(events[0].version, 1);
/// // A refusal changes nothing: the other seat may not move now.
/// let before = table.to_bytes();
/// assert!(table.apply(seat, Action::Redo).is_err());
/// assert_eq!(table.to_bytes(), before);
/// # Ok::<(), tabletop_play::Refusal>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Table<G: TableGame> {
    origin: G,
    state: G,
    /// The players when the table was made (a save replays seat changes from here).
    seated: Vec<Player>,
    players: Vec<Player>,
    settings: Settings,
    clocks: Option<Clocks>,
    log: Vec<Entry<G::Input>>,
    events: Vec<Event<G::Event, G::Score>>,
    ending: Option<Ending<G::Score>>,
    /// Opaque bytes a frontend attached (see [`Table::provenance`]).
    provenance: Vec<u8>,
}

/// The body of a table save.
#[derive(Serialize, Deserialize)]
struct SaveBody<I> {
    game: String,
    origin: Vec<u8>,
    players: Vec<Player>,
    settings: Settings,
    log: Vec<Entry<I>>,
}

impl<G: TableGame> Table<G> {
    /// A table playing `game` from its current state, with `players` in its seats (as many
    /// as the game has; missing seats are persons, extra ones are ignored) and default
    /// settings: undo on unless a seat is remote, no clock.
    pub fn new(game: G, players: &[Player]) -> Table<G> {
        let players: Vec<Player> = (0..game.seats())
            .map(|i| players.get(i).copied().unwrap_or(Player::Human))
            .collect();
        let settings = Settings {
            undo: !players.contains(&Player::Remote),
            clock: None,
        };
        Table::with_settings(game, players, settings)
    }

    /// A table with explicit settings.
    pub fn with_settings(game: G, players: Vec<Player>, settings: Settings) -> Table<G> {
        let clocks = settings.clock.map(|c| Clocks::new(c, game.seats()));
        let mut table = Table {
            origin: game.clone(),
            state: game,
            seated: players.clone(),
            players,
            settings,
            clocks,
            log: Vec::new(),
            events: Vec::new(),
            ending: None,
            provenance: Vec::new(),
        };
        table.ending = table.rules_ending();
        table
    }

    /// The game's state (the engine game inside, for drawing and for bots).
    pub fn game(&self) -> &G {
        &self.state
    }

    /// Who plays each seat.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Changes who plays `seat` (a person hands a seat to a bot, a remote player joins);
    /// logged like an action, so a save replays it. Allowed after the end too.
    pub fn set_player(&mut self, seat: Seat, player: Player) -> Result<Events<G>, Refusal> {
        self.run(
            Entry {
                seat,
                action: Action::Sit(player),
                at: None,
            },
            true,
        )
    }

    /// Where the table's randomness came from, as bytes the frontend that made it
    /// attached (the server's dice proof, [`crate::nardy::DiceProof`]); empty when none.
    /// The table never reads them; saves keep them.
    pub fn provenance(&self) -> &[u8] {
        &self.provenance
    }

    /// Attaches `bytes` as the table's provenance (replacing any); empty removes it.
    pub fn set_provenance(&mut self, bytes: Vec<u8>) {
        self.provenance = bytes;
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The clocks, on a timed table.
    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// The version: how many actions have been applied.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// Every applied action, oldest first.
    pub fn log(&self) -> &[Entry<G::Input>] {
        &self.log
    }

    /// Every event, oldest first.
    pub fn events(&self) -> &[Event<G::Event, G::Score>] {
        &self.events
    }

    /// The events after `version` (what a client that has seen `version` missed).
    pub fn events_since(&self, version: u64) -> &[Event<G::Event, G::Score>] {
        let start = self.events.partition_point(|e| e.version <= version);
        &self.events[start..]
    }

    /// The result, once the game has ended.
    pub fn ending(&self) -> Option<&Ending<G::Score>> {
        self.ending.as_ref()
    }

    /// The seat that must act now; `None` once the game has ended.
    pub fn to_act(&self) -> Option<Seat> {
        if self.ending.is_some() {
            return None;
        }
        self.state.to_act()
    }

    /// The seat and bot level that must move now, when a bot is to act: the frontend runs
    /// the bot (on a thread, a Web Worker, a task) and hands its move to
    /// [`Table::apply`].
    pub fn bot_to_act(&self) -> Option<(Seat, u8)> {
        let seat = self.to_act()?;
        let level = self.players.get(seat.index())?.bot_level()?;
        Some((seat, level))
    }

    /// Lets bots act while a bot is to act: `choose` gets the game, the seat and the bot's
    /// level and returns its action (`None` stops). Returns the number of actions applied.
    /// This is the whole of a bot-against-bot game (an arena) for every game.
    pub fn run_bots(
        &mut self,
        mut choose: impl FnMut(&G, Seat, u8) -> Option<Action<G::Input>>,
    ) -> Result<usize, Refusal> {
        let mut count = 0;
        while let Some((seat, level)) = self.bot_to_act() {
            let Some(action) = choose(&self.state, seat, level) else {
                break;
            };
            self.apply(seat, action)?;
            count += 1;
        }
        Ok(count)
    }

    /// What `viewer` may see, with every seat's clock at `now` (if given).
    pub fn view_at(&self, viewer: Viewer, now: Option<u64>) -> TableView<G::View, G::Score> {
        TableView {
            game: G::NAME.into(),
            version: self.version(),
            players: self.players.clone(),
            viewer,
            to_act: self.to_act(),
            clock_ms: self.clocks.as_ref().map(|c| {
                (0..self.players.len())
                    .map(|i| c.left(Seat(i as u8), now))
                    .collect()
            }),
            ending: self.ending.clone(),
            state: self.state.view(viewer, self.ending.is_some()),
        }
    }

    /// What `viewer` may see.
    pub fn view(&self, viewer: Viewer) -> TableView<G::View, G::Score> {
        self.view_at(viewer, None)
    }

    /// Applies `seat`'s action without a time; see [`Table::apply_at`].
    pub fn apply(&mut self, seat: Seat, action: Action<G::Input>) -> Result<Events<G>, Refusal> {
        self.apply_entry(Entry {
            seat,
            action,
            at: None,
        })
    }

    /// Applies `seat`'s action at time `now` (milliseconds, for the clocks): checks that the
    /// seat may act, applies it, logs it and returns the events it caused. A refusal
    /// leaves the table exactly as it was.
    pub fn apply_at(
        &mut self,
        seat: Seat,
        action: Action<G::Input>,
        now: u64,
    ) -> Result<Events<G>, Refusal> {
        self.apply_entry(Entry {
            seat,
            action,
            at: Some(now),
        })
    }

    /// Records a loss on time if the seat to act has run out at `now`; returns the events
    /// (none while time is left or without a clock).
    pub fn tick(&mut self, now: u64) -> Events<G> {
        let Some(seat) = self.to_act() else {
            return Vec::new();
        };
        if !self
            .clocks
            .as_ref()
            .is_some_and(|c| c.flagged(seat, Some(now)))
        {
            return Vec::new();
        }
        let entry = Entry {
            seat,
            action: Action::Timeout,
            at: Some(now),
        };
        self.run(entry, true).unwrap_or_default()
    }

    /// Ends the game against `seat`, whose player left: the table's decision, like a
    /// loss on time. A server calls it when the opponent claims the game after the
    /// player stayed away past a grace period (whether they did is the server's to
    /// know). Refused if the game is over or the seat is not a person's.
    pub fn abandon(&mut self, seat: Seat, now: Option<u64>) -> Result<Events<G>, Refusal> {
        let entry = Entry {
            seat,
            action: Action::Abandon,
            at: now,
        };
        self.run(entry, true)
    }

    fn apply_entry(&mut self, entry: Entry<G::Input>) -> Result<Events<G>, Refusal> {
        if matches!(
            entry.action,
            Action::Timeout | Action::Abandon | Action::Sit(_)
        ) {
            return Err(Refusal::TableOnly);
        }
        self.run(entry, false)
    }

    /// Checks and applies one entry; `trusted` lets the clock's own timeout through.
    fn run(&mut self, entry: Entry<G::Input>, trusted: bool) -> Result<Events<G>, Refusal> {
        let seat = entry.seat;
        let player = *self
            .players
            .get(seat.index())
            .ok_or(Refusal::NoSuchSeat(seat))?;
        if let Action::Sit(new) = entry.action {
            if !trusted {
                return Err(Refusal::TableOnly);
            }
            self.players[seat.index()] = new;
            let event = Event {
                version: self.version() + 1,
                kind: EventKind::Seated { seat, player: new },
            };
            self.log.push(entry);
            self.events.push(event.clone());
            return Ok(alloc::vec![event]);
        }
        // Undo may reopen a game the rules ended (a person takes back the last move
        // against a bot); a resignation or a loss on time is final.
        let reopens = matches!(entry.action, Action::Undo)
            && self
                .ending
                .as_ref()
                .is_some_and(|e| e.reason == EndReason::Rules);
        if self.ending.is_some() && !reopens {
            return Err(Refusal::GameOver);
        }
        let version = self.version() + 1;
        let mut game_events = Vec::new();
        let mut kinds = Vec::new();
        // Each branch changes `next`, a copy, so a refusal anywhere leaves `self` alone.
        let mut next = self.state.clone();
        let mut turn_done = true;
        let mut ending = None;
        match &entry.action {
            Action::Play(input) => {
                if !self.state.may_act(seat) {
                    return Err(Refusal::NotYourTurn);
                }
                if !trusted
                    && self
                        .clocks
                        .as_ref()
                        .is_some_and(|c| c.flagged(seat, entry.at))
                {
                    return Err(Refusal::OutOfTime);
                }
                turn_done = next.play(seat, input, &mut game_events)?;
            }
            Action::Undo | Action::Redo => {
                if !player.is_person() || player == Player::Remote && !self.settings.undo {
                    return Err(Refusal::NotAPerson);
                }
                if !self.settings.undo {
                    return Err(Refusal::UndoOff(
                        if self.players.contains(&Player::Remote) {
                            "the game is against a remote player".into()
                        } else {
                            "the table's settings forbid it".into()
                        },
                    ));
                }
                let persons: Vec<bool> = self.players.iter().map(|p| p.is_person()).collect();
                if matches!(entry.action, Action::Undo) {
                    next.undo(&persons, &mut game_events)?;
                } else {
                    next.redo(&persons, &mut game_events)?;
                }
            }
            Action::Resign => {
                if !player.is_person() {
                    return Err(Refusal::NotAPerson);
                }
                ending = Some(self.conceded(seat, EndReason::Resigned));
            }
            Action::Timeout => {
                if !trusted {
                    return Err(Refusal::TableOnly);
                }
                ending = Some(self.conceded(seat, EndReason::Timeout));
            }
            Action::Abandon => {
                if !trusted {
                    return Err(Refusal::TableOnly);
                }
                if !player.is_person() {
                    return Err(Refusal::NotAPerson);
                }
                ending = Some(self.conceded(seat, EndReason::Abandoned));
            }
            Action::Sit(_) => return Err(Refusal::TableOnly),
        }
        kinds.extend(game_events.into_iter().map(EventKind::Game));
        match entry.action {
            Action::Undo => kinds.push(EventKind::Undone { seat }),
            Action::Redo => kinds.push(EventKind::Redone { seat }),
            _ => {}
        }
        self.state = next;
        let ending = ending.or_else(|| self.rules_ending());
        if let Some(clocks) = &mut self.clocks {
            let next_seat = if ending.is_some() {
                None
            } else {
                self.state.to_act()
            };
            clocks.switch(entry.at, turn_done && next_seat != Some(seat), next_seat);
        }
        if let Some(e) = &ending {
            kinds.push(EventKind::Ended(e.clone()));
        }
        self.ending = ending;
        self.log.push(entry);
        let events: Vec<_> = kinds
            .into_iter()
            .map(|kind| Event { version, kind })
            .collect();
        self.events.extend(events.iter().cloned());
        Ok(events)
    }

    fn conceded(&self, loser: Seat, reason: EndReason) -> Ending<G::Score> {
        let winner = (self.players.len() > 1).then(|| loser.other());
        Ending {
            winner,
            reason,
            score: self.state.concede(loser),
        }
    }

    fn rules_ending(&self) -> Option<Ending<G::Score>> {
        let (winner, score) = self.state.outcome()?;
        Some(Ending {
            winner,
            reason: EndReason::Rules,
            score,
        })
    }

    /// The table as a save: its origin, seats, settings and log, in the shared format
    /// ([`crate::SAVE_FORMAT`]). [`Table::from_bytes`] replays it into an equal table.
    pub fn to_bytes(&self) -> Vec<u8> {
        let body = SaveBody {
            game: G::NAME.into(),
            origin: self.origin.encode(),
            players: self.seated.clone(),
            settings: self.settings,
            log: self.log.clone(),
        };
        if self.provenance.is_empty() {
            crate::SAVE_FORMAT_V1.encode(&body)
        } else {
            // Postcard writes a pair as its two parts one after the other.
            crate::SAVE_FORMAT.encode(&(body, &self.provenance))
        }
    }

    /// A table from a save of [`Table::to_bytes`], replayed action by action through the
    /// rules; or from a save of the engine alone (its own format), which becomes a table
    /// of two persons (or one) at its saved state.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table<G>, LoadError> {
        if !bytes.starts_with(&crate::SAVE_FORMAT.magic()) {
            let game = G::decode(bytes)?;
            let players = alloc::vec![Player::Human; game.seats()];
            return Ok(Table::new(game, &players));
        }
        let (version, rest) = crate::SAVE_FORMAT.read_header(bytes)?;
        let (body, rest): (SaveBody<G::Input>, &[u8]) =
            postcard::take_from_bytes(rest).map_err(|_| LoadError::Corrupt)?;
        let provenance: Vec<u8> = match (version, rest) {
            (1, []) => Vec::new(),
            (1, _) => return Err(LoadError::Corrupt),
            _ => tabletop_common::decode_body(rest)?,
        };
        if body.game != G::NAME {
            return Err(LoadError::Illegal(alloc::format!(
                "this is a {} table, not {}",
                body.game,
                G::NAME
            )));
        }
        let origin = G::decode(&body.origin)?;
        if body.players.len() != origin.seats() {
            return Err(LoadError::Corrupt);
        }
        let mut table = Table::with_settings(origin, body.players, body.settings);
        for (i, entry) in body.log.into_iter().enumerate() {
            let trusted = matches!(
                entry.action,
                Action::Timeout | Action::Abandon | Action::Sit(_)
            );
            table.run(entry, trusted).map_err(|refusal| {
                LoadError::Illegal(alloc::format!("action {} of the log: {refusal}", i + 1))
            })?;
        }
        table.provenance = provenance;
        Ok(table)
    }
}
