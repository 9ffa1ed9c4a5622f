//! Reversi full screen: the board with a cursor, the legal moves marked, the last move and
//! the discs it flipped highlighted, the disc counts, passes announced, a hint with its
//! score, bots for either colour.
//!
//! The screen is a view of a `tabletop_play` table: the table holds the game and its
//! seats, plays forced passes, takes moves back to a person's decision and writes the
//! saves; the screen draws it, runs the bots on its worker and announces the passes the
//! table played after the same pause as a bot's move.

mod draw;
#[cfg(feature = "server")]
pub mod online;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyModifiers};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;
use reversi_core::ai::{self, Bot, Level, Limits, ScoredMove, Searcher};
use reversi_core::{Color, Game, Move, Position, Rules, Square, SquareSet};
use tabletop_play::reversi::{Event as Happened, Reversi, bot_action, color_of};
use tabletop_play::{Action, EventKind, Events, Player, Refusal, Seat, Table};

use self::draw::{CursorInput, Geometry};
use super::worker::Worker;
use super::{Choice, Ctx, GameScreen, Handled, Theme};

/// The pause before each bot move and forced pass, so a person can follow the game.
pub const BOT_PACE: Duration = Duration::from_millis(500);

/// The level of the computer in `tabletop reversi` without options.
pub const DEFAULT_LEVEL: Level = Level::ALL[6];

/// Who plays a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A person at the keyboard or mouse.
    Human,
    /// The computer at a level.
    Bot(Level),
}

impl Side {
    fn describe(self) -> String {
        match self {
            Side::Human => "human".to_owned(),
            Side::Bot(level) => format!("bot {} ({})", level.get(), level.name()),
        }
    }

    /// The table's player for this side.
    fn player(self) -> Player {
        match self {
            Side::Human => Player::Human,
            Side::Bot(level) => Player::Bot(level.get()),
        }
    }

    /// The menu's values: human, then every level.
    fn all() -> Vec<Side> {
        let mut all = vec![Side::Human];
        all.extend(Level::ALL.iter().map(|&l| Side::Bot(l)));
        all
    }
}

/// The game with its default settings, for the games menu: you (Black) against the
/// computer (White).
pub fn default_screen() -> Box<dyn GameScreen> {
    Box::new(ReversiScreen::new(
        [Side::Human, Side::Bot(DEFAULT_LEVEL)],
        Rules::default(),
        crate::common::clock_seed(),
    ))
}

/// The best move of a position, as the hint key shows it.
#[derive(Debug, Clone, Copy)]
struct Hint {
    position: Position,
    best: ScoredMove,
}

/// The bots of Black and White, owned by the worker thread.
type Bots = [Option<Box<dyn Bot>>; 2];

/// A bot's answer: the table's version it thought about, its action (`None` when the
/// game is over) and the generator after the thinking, which the screen adopts.
type Thought = (u64, Option<Action<Move>>, ChaCha8Rng);

/// The reversi screen.
pub struct ReversiScreen {
    /// The match: the game, who sits where, undo and saves.
    table: Table<Reversi>,
    /// Who plays Black and White, in [`Color`] order (the table's players, with levels).
    players: [Side; 2],
    /// The thread where the bots think, so the screen answers keys meanwhile.
    thinker: Worker<Bots, Thought>,
    /// The bot's action for the table's version, waiting for the pace to elapse.
    thought: Option<Option<Action<Move>>>,
    /// Forced passes the table played that the screen has not announced yet: until the
    /// pace has elapsed the board shows the position before them.
    passes_due: usize,
    /// Who moves first in the next new game.
    first: Color,
    rng: ChaCha8Rng,
    /// The cursor: file and rank, 0..8.
    cursor: (u8, u8),
    hint: Option<Hint>,
    /// When the next bot move or forced pass is due.
    due: Option<Instant>,
    geometry: Geometry,
}

impl ReversiScreen {
    /// A new game under `rules` between `players` (Black, White); `seed` drives the bots.
    pub fn new(players: [Side; 2], rules: Rules, seed: u64) -> ReversiScreen {
        ReversiScreen::with_game(Game::new(rules), players, seed)
    }

    /// Continues `game` (e.g. a loaded save) between `players`; a pass the side to move
    /// must make is announced after the pace.
    pub fn with_game(game: Game, players: [Side; 2], seed: u64) -> ReversiScreen {
        let played = game.moves().len();
        let table = Table::new(Reversi::new(game), &players.map(Side::player));
        let passes = table.game().game().moves().len() - played;
        let mut screen = ReversiScreen::with_table(table, players, seed);
        screen.passes_due = passes;
        screen.cursor_to_a_legal_move();
        screen
    }

    /// Continues the match of `table` (e.g. a loaded save) with `players` in its seats.
    pub fn with_table(mut table: Table<Reversi>, players: [Side; 2], seed: u64) -> ReversiScreen {
        seat(&mut table, players);
        let first = table.game().game().start().side_to_move();
        let mut screen = ReversiScreen {
            table,
            players,
            thinker: Worker::new("reversi-bot", || [None, None]),
            thought: None,
            passes_due: 0,
            first,
            rng: ChaCha8Rng::seed_from_u64(seed),
            cursor: (3, 2),
            hint: None,
            due: None,
            geometry: Geometry::default(),
        };
        screen.make_bots();
        screen.cursor_to_a_legal_move();
        screen
    }

    /// The game being played (with the forced passes not yet announced).
    pub fn game(&self) -> &Game {
        self.table.game().game()
    }

    /// The match being played.
    pub fn table(&self) -> &Table<Reversi> {
        &self.table
    }

    /// How many moves of the game the board shows: all but the passes not yet announced.
    fn shown(&self) -> usize {
        self.game().moves().len() - self.passes_due
    }

    /// The position on the board.
    fn position(&self) -> &Position {
        &self.game().positions()[self.shown()]
    }

    /// The cursor's square.
    pub fn cursor(&self) -> Square {
        Square::from_coords(self.cursor.0, self.cursor.1).expect("the cursor is on the board")
    }

    /// Where a square was last drawn on the screen (the middle of its cell), for tests
    /// that click.
    pub fn cell_of(&self, square: Square) -> (u16, u16) {
        let (x, y) = self.geometry.middle(square.file(), square.rank());
        (x, y)
    }

    /// Builds the bots of the current players in the worker (a bot need not be `Send`).
    fn make_bots(&mut self) {
        let rules = self.game().rules();
        let players = self.players;
        self.thinker.run(move |bots| {
            *bots = players.map(|side| match side {
                Side::Human => None,
                Side::Bot(level) => Some(level.bot_on_clock(&rules, crate::reversi::wall_clock())),
            });
        });
    }

    /// Forgets the bot move being thought about or waiting (after undo, load, a new game
    /// or new players): a stale answer is dropped when it comes.
    fn stop_bot(&mut self) {
        self.due = None;
        self.thought = None;
        self.thinker.cancel();
    }

    /// Whether a bot is thinking about the position on the board.
    pub fn thinking(&self) -> bool {
        self.thinker.busy()
    }

    /// Blocks until the bot's answer has come (tests step deterministically with it).
    #[cfg(test)]
    fn wait_bot(&mut self) {
        self.thinker.wait();
    }

    fn side(&self, color: Color) -> Side {
        self.players[color as usize]
    }

    fn has_human(&self) -> bool {
        self.players.contains(&Side::Human)
    }

    /// Whether a person is to move now (once the passes due are announced).
    fn human_to_move(&self) -> bool {
        self.passes_due == 0
            && self
                .table
                .to_act()
                .is_some_and(|seat| self.side(color_of(seat)) == Side::Human)
    }

    /// The seat undo and redo are asked for: the person to move, else the first person.
    fn person_seat(&self) -> Seat {
        let person = |seat: Seat| self.side(color_of(seat)) == Side::Human;
        match self.table.to_act() {
            Some(seat) if person(seat) => seat,
            _ => [Seat(0), Seat(1)]
                .into_iter()
                .find(|s| person(*s))
                .unwrap_or(Seat(0)),
        }
    }

    /// Puts the cursor on a legal square when it is not on one (after a move).
    fn cursor_to_a_legal_move(&mut self) {
        let legal = self.position().legal_squares();
        if legal.contains(self.cursor()) {
            return;
        }
        if let Some(sq) = legal.iter().next() {
            self.cursor = (sq.file(), sq.rank());
        }
    }

    /// The last move shown and the discs it flipped.
    fn last(&self) -> Option<(Color, Move, SquareSet)> {
        let shown = self.shown();
        let mv = *self.game().moves()[..shown].last()?;
        let before = self.game().positions()[shown - 1];
        let flipped = match mv {
            Move::Place(sq) => before.flips(sq),
            Move::Pass => SquareSet::default(),
        };
        Some((before.side_to_move(), mv, flipped))
    }

    /// Applies `seat`'s action at the table; the result for the status line.
    fn act(&mut self, seat: Seat, action: Action<Move>, ctx: &mut Ctx) -> bool {
        match self.table.apply(seat, action) {
            Ok(events) => {
                self.hint = None;
                self.stop_bot();
                self.tell(&events, ctx);
                self.cursor_to_a_legal_move();
                true
            }
            Err(refusal) => {
                ctx.say(refused(&refusal));
                false
            }
        }
    }

    /// Says what a move did (the move, or the result); the forced passes it caused are
    /// announced by `tick` after the pace.
    fn tell(&mut self, events: &Events<Reversi>, ctx: &mut Ctx) {
        for event in events {
            match &event.kind {
                EventKind::Game(Happened::Moved { mv: Move::Pass, .. }) => self.passes_due += 1,
                EventKind::Game(Happened::Moved { seat, mv, flipped }) => {
                    let n = flipped.len();
                    let discs = if n == 1 { "disc" } else { "discs" };
                    let side = color_of(*seat);
                    ctx.say(format!("{side} plays {mv}, flipping {n} {discs}"));
                }
                EventKind::Ended(ending) => ctx.say(format!("Game over: {}", ending.score)),
                _ => {}
            }
        }
    }

    /// A person plays the square under the cursor (or clicked).
    fn play_square(&mut self, sq: Square, ctx: &mut Ctx) {
        if self.position().is_over() {
            ctx.say("The game is over: n starts a new one");
        } else if !self.human_to_move() {
            ctx.say("It is the computer's turn");
        } else if let Some(seat) = self.table.to_act() {
            self.act(seat, Action::Play(Move::Place(sq)), ctx);
        }
    }

    fn show_hint(&mut self, ctx: &mut Ctx) {
        let pos = *self.position();
        if pos.is_over() {
            ctx.say("The game is over: there is no move to hint");
            return;
        }
        if pos.must_pass() {
            ctx.say(format!(
                "{} has no legal move and must pass",
                pos.side_to_move()
            ));
            return;
        }
        let mut searcher = Searcher::new();
        let limits = Limits::depth(6, 14);
        let Some(best) = ai::hints(&mut searcher, &pos, &limits).first().copied() else {
            return;
        };
        self.hint = Some(Hint {
            position: pos,
            best,
        });
        self.cursor = (best.square.file(), best.square.rank());
        let kind = if best.exact { "exact" } else { "estimate" };
        ctx.say(format!("Hint: {best} ({kind})"));
    }

    fn current_hint(&self) -> Option<ScoredMove> {
        self.hint
            .filter(|h| h.position == *self.position())
            .map(|h| h.best)
    }

    fn player_name(&self, color: Color) -> String {
        match self.side(color) {
            Side::Human if self.has_human() && self.players.iter().all(|s| *s == Side::Human) => {
                "human".to_owned()
            }
            Side::Human => "you".to_owned(),
            Side::Bot(level) => format!("bot ({})", level.name()),
        }
    }

    /// What the board shows.
    fn board(&self) -> draw::Board {
        let pos = *self.position();
        draw::Board {
            pos,
            cursor: self.cursor,
            legal: pos.legal_squares(),
            last: self.last(),
            hint: self.current_hint().map(|best| {
                let kind = if best.exact { "exact" } else { "estimate" };
                let text = format!("Hint: {} {} ({kind})", best.square, best.score_text());
                (best.square, text)
            }),
            names: Color::ALL.map(|c| self.side(c).describe()),
            turn: self.turn_text(),
            over: pos.is_over(),
            keys: draw::LOCAL_KEYS.to_vec(),
            lines: Vec::new(),
        }
    }

    /// What the side to move is doing, or the result.
    fn turn_text(&self) -> String {
        let pos = self.position();
        if let Some(outcome) = pos.outcome() {
            return format!("Game over: {outcome}");
        }
        let side = pos.side_to_move();
        let glyph = draw::glyph(side);
        if pos.must_pass() {
            return format!("{side} {glyph} has no legal move and must pass");
        }
        match self.side(side) {
            Side::Human => format!("{side} {glyph} to move"),
            Side::Bot(_) => format!("{side} {glyph} (bot) is thinking"),
        }
    }
}

impl ReversiScreen {
    /// Undo or redo at the table for the person's seat; `done` is said when it went.
    fn back_or_forth(&mut self, action: Action<Move>, done: &str, ctx: &mut Ctx) {
        match self.table.apply(self.person_seat(), action) {
            Ok(_) => {
                // Passes replayed or taken back are not announced.
                self.passes_due = 0;
                self.hint = None;
                self.stop_bot();
                self.cursor_to_a_legal_move();
                ctx.say(done);
            }
            Err(refusal) => ctx.say(refused(&refusal)),
        }
    }
}

/// Seats `players` at `table` where someone else sits (a loaded save's players).
fn seat(table: &mut Table<Reversi>, players: [Side; 2]) {
    for (i, side) in players.into_iter().enumerate() {
        if table.players().get(i) != Some(&side.player()) {
            let _ = table.set_player(Seat(i as u8), side.player());
        }
    }
}

/// A refusal of the table as the status line says it.
fn refused(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Illegal(why) => format!("Illegal: {why}"),
        Refusal::NothingToUndo => "Nothing to undo".to_owned(),
        Refusal::NothingToRedo => "Nothing to redo".to_owned(),
        Refusal::GameOver => "The game is over: n starts a new one".to_owned(),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            chars.next().map_or(text.clone(), |c| {
                c.to_uppercase().chain(chars).collect::<String>()
            })
        }
    }
}

impl GameScreen for ReversiScreen {
    fn title(&self) -> String {
        format!(
            "Reversi · Black: {} · White: {}",
            self.player_name(Color::Black),
            self.player_name(Color::White)
        )
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let board = self.board();
        self.geometry = draw::draw(&board, frame, area, theme);
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => {
                if key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                {
                    return Handled::No;
                }
                match draw::cursor_key(&mut self.cursor, key.code) {
                    CursorInput::Moved => {}
                    CursorInput::Play(sq) => self.play_square(sq, ctx),
                    CursorInput::Other if key.code == KeyCode::Char('t') => self.show_hint(ctx),
                    CursorInput::Other => return Handled::No,
                }
                Handled::Yes
            }
            Event::Mouse(mouse) => {
                match draw::cursor_mouse(&mut self.cursor, &self.geometry, mouse) {
                    CursorInput::Moved => Handled::Yes,
                    CursorInput::Play(sq) => {
                        self.play_square(sq, ctx);
                        Handled::Yes
                    }
                    CursorInput::Other => Handled::No,
                }
            }
            _ => Handled::No,
        }
    }

    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        if self.passes_due > 0 {
            // The table has played the pass; the board shows it once the pace has elapsed.
            let due = *self.due.get_or_insert(now + BOT_PACE);
            if now < due {
                return false;
            }
            let side = self.position().side_to_move();
            self.passes_due -= 1;
            self.due = None;
            self.hint = None;
            ctx.say(format!("{side} has no legal move and passes"));
            self.cursor_to_a_legal_move();
            return true;
        }
        let Some((seat, _)) = self.table.bot_to_act() else {
            self.stop_bot();
            return false;
        };
        let due = *self.due.get_or_insert(now + BOT_PACE);
        let version = self.table.version();
        let mut redraw = false;
        if self.thought.is_none() && !self.thinker.busy() {
            // The bot thinks during the pace pause, on its own thread with its own copy of
            // the game and the generator; the screen adopts the generator with the answer.
            let rng = self.rng.clone();
            let game = self.table.game().clone();
            self.thinker.ask(move |bots| {
                let mut rng = rng;
                let action = bots[seat.index()]
                    .as_mut()
                    .and_then(|b| bot_action(&game, b.as_mut(), &mut rng));
                (version, action, rng)
            });
            redraw = true;
        }
        if let Some((asked, action, rng)) = self.thinker.poll()
            && asked == version
        {
            self.rng = rng;
            self.thought = Some(action);
            redraw = true;
        }
        if now < due {
            return redraw;
        }
        match self.thought.take() {
            Some(Some(action)) => self.act(seat, action, ctx),
            thought => {
                self.thought = thought;
                redraw
            }
        }
    }

    fn status(&self) -> String {
        let pos = self.position();
        let mut out = self.turn_text();
        if let Some((color, mv, _)) = self.last() {
            out.push_str(&format!(" · last: {color} {mv}"));
        }
        out.push_str(&format!(
            " · ● {}  ○ {}",
            pos.count(Color::Black),
            pos.count(Color::White)
        ));
        if self.thinking() {
            out.push_str(" · thinking…");
        }
        out
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("← → ↑ ↓ h j k l", "move the cursor"),
            ("Enter Space", "play a disc at the cursor"),
            ("click", "play a disc there"),
            ("t", "hint: the best move and its score"),
            ("·", "a legal move; [●] the last move"),
        ]
    }

    fn choices(&self) -> Vec<Choice> {
        let values: Vec<String> = Side::all().into_iter().map(Side::describe).collect();
        let index = |side: Side| Side::all().iter().position(|s| *s == side).unwrap_or(0);
        vec![
            Choice {
                label: "Black",
                values: values.clone(),
                current: index(self.players[0]),
            },
            Choice {
                label: "White",
                values,
                current: index(self.players[1]),
            },
            Choice {
                label: "First to move",
                values: vec!["black".to_owned(), "white".to_owned()],
                current: self.first as usize,
            },
        ]
    }

    fn choose(&mut self, choice: usize, value: usize, ctx: &mut Ctx) {
        match choice {
            0 | 1 => {
                let Some(side) = Side::all().get(value).copied() else {
                    return;
                };
                self.players[choice] = side;
                let seat = Seat(choice as u8);
                if self.table.players()[choice] != side.player() {
                    // A change of player is the table's to record (a save replays it).
                    let _ = self.table.set_player(seat, side.player());
                }
                self.make_bots();
                self.stop_bot();
                let color = Color::ALL[choice];
                ctx.say(format!("{color}: {} (from now on)", side.describe()));
            }
            2 => {
                self.first = if value == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                ctx.say(format!("{} moves first from the next new game", self.first));
            }
            _ => {}
        }
    }

    fn new_game(&mut self, ctx: &mut Ctx) {
        let game = Game::new(Rules::with_first(self.first));
        self.table = Table::new(Reversi::new(game), &self.players.map(Side::player));
        self.passes_due = 0;
        self.thinker.run(|bots| {
            for bot in bots.iter_mut().flatten() {
                bot.new_game();
            }
        });
        self.hint = None;
        self.stop_bot();
        self.cursor = (3, 2);
        self.cursor_to_a_legal_move();
        ctx.say("New game");
    }

    fn undo(&mut self, ctx: &mut Ctx) {
        // The table's undo: back to a person's decision, the computer's moves and the
        // forced passes since taken back too.
        self.back_or_forth(Action::Undo, "Move taken back", ctx);
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        self.back_or_forth(Action::Redo, "Move replayed", ctx);
    }

    fn save(&self) -> Vec<u8> {
        self.table.to_bytes()
    }

    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        let mut table = Table::<Reversi>::from_bytes(bytes).map_err(|e| e.to_string())?;
        seat(&mut table, self.players);
        self.table = table;
        self.passes_due = 0;
        self.first = self.game().start().side_to_move();
        self.hint = None;
        self.stop_bot();
        self.cursor_to_a_legal_move();
        Ok(())
    }

    fn in_progress(&self) -> bool {
        !self.game().moves().is_empty() && self.table.ending().is_none()
    }

    fn save_name(&self) -> String {
        "reversi.save".to_owned()
    }
}
