//! Reversi full screen: the board with a cursor, the legal moves marked, the last move and
//! the discs it flipped highlighted, the disc counts, passes announced, a hint with its
//! score, bots for either colour.
//!
//! The screen is a view of a `tabletop_play` table: the table holds the game and its
//! seats, plays forced passes, takes moves back to a person's decision and writes the
//! saves; the screen draws it, runs the bots on its worker and announces the passes the
//! table played after the same pause as a bot's move.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use reversi_core::ai::{self, Bot, Level, Limits, ScoredMove, Searcher};
use reversi_core::{Color, Game, Move, Position, Rules, Square, SquareSet};
use tabletop_play::reversi::{Event as Happened, Reversi, bot_action, color_of};
use tabletop_play::{Action, EventKind, Events, Player, Refusal, Seat, Table};

use super::draw::{put, width};
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

/// Where the board was drawn, for mouse hit-testing.
#[derive(Debug, Clone, Copy, Default)]
struct Geometry {
    /// The top-left cell of a1 (the grid's corner when `grid`).
    x: u16,
    y: u16,
    cell_w: u16,
    cell_h: u16,
    grid: bool,
}

impl Geometry {
    /// The cell where a square's disc is drawn (the middle of its cell).
    fn middle(&self, file: u8, rank: u8) -> (u16, u16) {
        let off = u16::from(self.grid);
        let (inner_w, inner_h) = (self.cell_w - off, self.cell_h - off);
        (
            self.x + off + u16::from(file) * self.cell_w + (inner_w - 1) / 2,
            self.y + off + u16::from(rank) * self.cell_h + (inner_h - 1) / 2,
        )
    }

    fn square_at(&self, column: u16, row: u16) -> Option<Square> {
        if self.cell_w == 0 || column < self.x || row < self.y {
            return None;
        }
        let (mut dx, mut dy) = (column - self.x, row - self.y);
        if self.grid {
            // A click on a grid line counts for the cell right of it / below it.
            dx = dx.saturating_sub(1);
            dy = dy.saturating_sub(1);
        }
        let (file, rank) = (dx / self.cell_w, dy / self.cell_h);
        if file >= 8 || rank >= 8 {
            return None;
        }
        Square::from_coords(file as u8, rank as u8)
    }
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

    fn move_cursor(&mut self, dx: i8, dy: i8) {
        let (f, r) = self.cursor;
        self.cursor = (
            (f as i8 + dx).rem_euclid(8) as u8,
            (r as i8 + dy).rem_euclid(8) as u8,
        );
    }

    fn current_hint(&self) -> Option<ScoredMove> {
        self.hint
            .filter(|h| h.position == *self.position())
            .map(|h| h.best)
    }

    fn glyph(color: Color) -> &'static str {
        match color {
            Color::Black => "●",
            Color::White => "○",
        }
    }

    fn disc_style(color: Color, theme: &Theme) -> Style {
        match color {
            Color::Black => theme.first,
            Color::White => theme.second,
        }
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

    /// What the side to move is doing, or the result.
    fn turn_text(&self) -> String {
        let pos = self.position();
        if let Some(outcome) = pos.outcome() {
            return format!("Game over: {outcome}");
        }
        let side = pos.side_to_move();
        let glyph = Self::glyph(side);
        if pos.must_pass() {
            return format!("{side} {glyph} has no legal move and must pass");
        }
        match self.side(side) {
            Side::Human => format!("{side} {glyph} to move"),
            Side::Bot(_) => format!("{side} {glyph} (bot) is thinking"),
        }
    }

    fn draw_board(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, board: Rect) {
        let pos = *self.position();
        let legal = pos.legal_squares();
        let last = self.last();
        let hint = self.current_hint();
        let g = self.geometry;
        let buf = frame.buffer_mut();
        let off = u16::from(g.grid);
        // File letters above, rank numbers left.
        for i in 0..8u8 {
            let (x, _) = g.middle(i, 0);
            let (_, y) = g.middle(0, i);
            let letter = char::from(b'a' + i).to_string();
            put(buf, area, x, board.y, &letter, theme.dim);
            put(buf, area, board.x, y, &(i + 1).to_string(), theme.dim);
        }
        if g.grid {
            for row in 0..=8u16 {
                let y = g.y + row * g.cell_h;
                let (left, mid, right) = match row {
                    0 => ('┌', '┬', '┐'),
                    8 => ('└', '┴', '┘'),
                    _ => ('├', '┼', '┤'),
                };
                let mut line = String::new();
                for col in 0..8 {
                    line.push(if col == 0 { left } else { mid });
                    line.push_str(&"─".repeat(usize::from(g.cell_w - 1)));
                }
                line.push(right);
                put(buf, area, g.x, y, &line, theme.dim);
                if row < 8 {
                    for dy in 1..g.cell_h {
                        for col in 0..=8u16 {
                            put(buf, area, g.x + col * g.cell_w, y + dy, "│", theme.dim);
                        }
                    }
                }
            }
        }
        let inner_w = g.cell_w - off;
        for sq in Square::ALL {
            let x = g.x + off + u16::from(sq.file()) * g.cell_w;
            let y = g.y + off + u16::from(sq.rank()) * g.cell_h;
            let mut base = theme.normal;
            if hint.is_some_and(|h| h.square == sq) {
                base = theme.selected;
            }
            if (sq.file(), sq.rank()) == self.cursor {
                base = theme.cursor;
            }
            let is_last = matches!(last, Some((_, Move::Place(s), _)) if s == sq);
            let flipped = last.is_some_and(|(_, _, f)| f.contains(sq));
            let (text, style) = match pos.piece_at(sq) {
                Some(color) => {
                    let style = if is_last || flipped {
                        theme.last
                    } else {
                        Self::disc_style(color, theme)
                    };
                    let glyph = Self::glyph(color);
                    if is_last && inner_w >= 3 {
                        (format!("[{glyph}]"), style)
                    } else {
                        (glyph.to_owned(), style)
                    }
                }
                None if legal.contains(sq) => ("·".to_owned(), theme.target),
                None => (String::new(), theme.normal),
            };
            for dy in 0..g.cell_h - off {
                let blank = " ".repeat(usize::from(inner_w));
                put(buf, area, x, y + dy, &blank, base);
            }
            let (mx, ty) = g.middle(sq.file(), sq.rank());
            let tx = (mx + 1).saturating_sub(width(&text).div_ceil(2)).max(x);
            put(buf, area, tx, ty, &text, base.patch(style));
        }
    }

    fn draw_panel(&self, frame: &mut Frame, area: Rect, theme: &Theme, panel: Rect) {
        let pos = self.position();
        let buf = frame.buffer_mut();
        let mut y = panel.y;
        let mut line = |buf: &mut ratatui::buffer::Buffer, parts: &[(&str, Style)]| {
            let mut x = panel.x;
            for (text, style) in parts {
                x = put(buf, area.intersection(panel), x, y, text, *style);
            }
            y += 1;
        };
        line(buf, &[("Reversi", theme.accent)]);
        line(buf, &[]);
        for color in Color::ALL {
            let count = format!("{:>3}", pos.count(color));
            let who = format!(
                " {:<7}{:<17}",
                color.to_string(),
                self.side(color).describe()
            );
            let marker = if !pos.is_over() && pos.side_to_move() == color {
                ("▶ ", theme.accent)
            } else {
                ("  ", theme.normal)
            };
            line(
                buf,
                &[
                    marker,
                    (Self::glyph(color), Self::disc_style(color, theme)),
                    (&who, theme.normal),
                    (&count, theme.accent),
                ],
            );
        }
        line(buf, &[]);
        let turn = self.turn_text();
        let turn_style = if pos.is_over() {
            theme.good
        } else {
            theme.normal
        };
        line(buf, &[(&turn, turn_style)]);
        if !pos.is_over() && !pos.must_pass() {
            let n = pos.legal_squares().len();
            let moves = format!("{n} legal move{}", if n == 1 { "" } else { "s" });
            line(buf, &[("· ", theme.target), (&moves, theme.dim)]);
        } else {
            line(buf, &[]);
        }
        match self.last() {
            Some((color, mv, flipped)) => {
                let text = match mv {
                    Move::Pass => format!("Last: {color} passed"),
                    Move::Place(_) => format!("Last: {color} {mv}, flipped {}", flipped.len()),
                };
                line(buf, &[(&text, theme.last)]);
            }
            None => line(buf, &[("No move yet", theme.dim)]),
        }
        match self.current_hint() {
            Some(best) => {
                let kind = if best.exact { "exact" } else { "estimate" };
                let text = format!("Hint: {} {} ({kind})", best.square, best.score_text());
                line(buf, &[(&text, theme.selected)]);
            }
            None => line(buf, &[]),
        }
        line(buf, &[]);
        let keys: [(&str, &str); 4] = [
            ("arrows/hjkl", " move the cursor"),
            ("Enter/click", " play there"),
            ("t", " hint    u/U undo/redo"),
            ("Esc", " menu    ? keys"),
        ];
        for (k, what) in keys {
            line(buf, &[(k, theme.accent), (what, theme.dim)]);
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
        if area.width == 0 || area.height == 0 {
            return;
        }
        // The full board: 8 cells of 4×2 with grid lines, plus letters and numbers; 6×3
        // cells when the terminal is large, 2×1 without lines when it is very small.
        let panel_w = 42u16;
        let grid = area.width >= 36 && area.height >= 18;
        let large = area.width >= 2 + 49 + 3 + panel_w && area.height >= 26;
        let (cell_w, cell_h) = match (grid, large) {
            (_, true) => (6, 3),
            (true, false) => (4, 2),
            (false, _) => (2, 1),
        };
        let grid = grid || large;
        let board_w = 2 + 8 * cell_w + u16::from(grid);
        let board_h = 1 + 8 * cell_h + u16::from(grid);
        let total = board_w + 3 + panel_w;
        let left = area.x + area.width.saturating_sub(total) / 2;
        let top = area.y + area.height.saturating_sub(board_h) / 2;
        let board = Rect::new(left, top, board_w, board_h).intersection(area);
        self.geometry = Geometry {
            x: left + 2,
            y: top + 1,
            cell_w,
            cell_h,
            grid,
        };
        self.draw_board(frame, area, theme, board);
        let panel_x = left + board_w + 3;
        if panel_x < area.right() {
            let panel = Rect::new(
                panel_x,
                top,
                area.right() - panel_x,
                area.bottom().saturating_sub(top),
            );
            self.draw_panel(frame, area, theme, panel);
        }
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
                match key.code {
                    KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
                    KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
                    KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, -1),
                    KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, 1),
                    KeyCode::Home => self.cursor.0 = 0,
                    KeyCode::End => self.cursor.0 = 7,
                    KeyCode::Enter | KeyCode::Char(' ') => self.play_square(self.cursor(), ctx),
                    KeyCode::Char('t') => self.show_hint(ctx),
                    _ => return Handled::No,
                }
                Handled::Yes
            }
            Event::Mouse(MouseEvent {
                kind, column, row, ..
            }) => {
                let Some(sq) = self.geometry.square_at(*column, *row) else {
                    return Handled::No;
                };
                match kind {
                    MouseEventKind::Down(MouseButton::Left) => {
                        self.cursor = (sq.file(), sq.rank());
                        self.play_square(sq, ctx);
                        Handled::Yes
                    }
                    MouseEventKind::Moved if (sq.file(), sq.rank()) != self.cursor => {
                        self.cursor = (sq.file(), sq.rank());
                        Handled::Yes
                    }
                    _ => Handled::No,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::testing::{ch, click, key, render, render_app, text};
    use crate::tui::{App, ThemeKind};
    use proptest::prelude::*;

    fn human_vs_bot(seed: u64) -> ReversiScreen {
        ReversiScreen::new([Side::Human, Side::Bot(Level::MIN)], Rules::default(), seed)
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    /// Ticks far enough in the future for every bot move and pass to be due.
    fn let_bots_play(screen: &mut ReversiScreen) {
        let mut now = Instant::now();
        for _ in 0..200 {
            if screen.passes_due == 0 && screen.table.bot_to_act().is_none() {
                return;
            }
            // The first tick of a bot's turn only schedules its move.
            now += BOT_PACE * 2;
            let mut ctx = Ctx::default();
            screen.tick(now, &mut ctx);
            screen.wait_bot();
        }
    }

    /// The moves the board shows (the passes not yet announced left out).
    fn shown_moves(screen: &ReversiScreen) -> &[Move] {
        &screen.game().moves()[..screen.shown()]
    }

    /// The arrow keys that take the cursor from where it is to `target`.
    fn keys_to(screen: &ReversiScreen, target: Square) -> Vec<Event> {
        let (f, r) = screen.cursor;
        let mut keys = Vec::new();
        let dx = i16::from(target.file()) - i16::from(f);
        let dy = i16::from(target.rank()) - i16::from(r);
        let h = if dx > 0 {
            KeyCode::Right
        } else {
            KeyCode::Left
        };
        let v = if dy > 0 { KeyCode::Down } else { KeyCode::Up };
        keys.extend((0..dx.abs()).map(|_| key(h)));
        keys.extend((0..dy.abs()).map(|_| key(v)));
        keys
    }

    fn feed(screen: &mut ReversiScreen, events: &[Event]) -> Ctx {
        let mut ctx = Ctx::default();
        for event in events {
            screen.handle(event, &mut ctx);
        }
        ctx
    }

    /// Black (you) to move after twelve moves, the hint shown.
    fn mid_game() -> ReversiScreen {
        let record = "f5d6c3d3c4f4f6f3e6e7d7c5";
        let game =
            Game::from_record(Rules::default(), &record.parse().expect("a record")).expect("legal");
        let mut screen = ReversiScreen::with_game(game, [Side::Human, Side::Bot(DEFAULT_LEVEL)], 1);
        feed(&mut screen, &[ch('t')]);
        screen
    }

    fn app_frame(screen: ReversiScreen) -> (App, String) {
        let mut app = App::new(Box::new(screen), ThemeKind::Dark);
        let buffer = render_app(&mut app, 80, 24);
        (app, format!("{buffer:?}"))
    }

    #[test]
    fn enter_plays_the_square_under_the_cursor() {
        let mut screen = human_vs_bot(1);
        let mut events = keys_to(&screen, sq("f5"));
        events.push(key(KeyCode::Enter));
        let mut ctx = feed(&mut screen, &events);
        assert_eq!(screen.game().moves(), &[Move::Place(sq("f5"))]);
        assert_eq!(
            ctx.take_message().as_deref(),
            Some("Black plays f5, flipping 1 disc")
        );
        assert_eq!(screen.game().position().count(Color::Black), 4);
    }

    #[test]
    fn an_illegal_square_is_refused_with_the_engines_reason() {
        let mut screen = human_vs_bot(1);
        let mut events = keys_to(&screen, sq("a1"));
        events.push(ch(' '));
        let mut ctx = feed(&mut screen, &events);
        assert!(screen.game().moves().is_empty());
        let said = ctx.take_message().expect("a message");
        assert!(said.starts_with("Illegal: a1 flips nothing"), "{said}");
    }

    #[test]
    fn the_bot_answers_after_the_pace_and_undo_takes_both_moves_back() {
        let mut screen = human_vs_bot(7);
        screen.cursor = (5, 4);
        feed(&mut screen, &[key(KeyCode::Enter)]);
        let now = Instant::now();
        let mut ctx = Ctx::default();
        screen.tick(now, &mut ctx);
        assert!(screen.thinking(), "the first tick starts the thinking");
        assert!(
            screen.status().ends_with("thinking…"),
            "{}",
            screen.status()
        );
        screen.wait_bot();
        screen.tick(now + BOT_PACE / 2, &mut ctx);
        assert_eq!(screen.game().moves().len(), 1, "too early");
        assert!(screen.tick(now + BOT_PACE, &mut ctx));
        assert_eq!(screen.game().moves().len(), 2);
        screen.undo(&mut ctx);
        assert!(screen.game().moves().is_empty(), "back to Black's turn");
        screen.redo(&mut ctx);
        assert_eq!(screen.game().moves().len(), 2, "redo replays both");
    }

    #[test]
    fn keys_are_handled_while_the_bot_thinks_and_undo_drops_its_answer() {
        use std::sync::{Arc, Barrier};
        let mut screen = human_vs_bot(7);
        screen.cursor = (5, 4);
        feed(&mut screen, &[key(KeyCode::Enter)]);
        // Hold the worker so the bot's thinking is surely still pending below.
        let gate = Arc::new(Barrier::new(2));
        let g = Arc::clone(&gate);
        screen.thinker.run(move |_| {
            g.wait();
        });
        let rng = screen.rng.clone();
        let now = Instant::now();
        let mut ctx = Ctx::default();
        screen.tick(now, &mut ctx);
        assert!(screen.thinking());
        let cursor = screen.cursor;
        assert_eq!(screen.handle(&key(KeyCode::Left), &mut ctx), Handled::Yes);
        assert_ne!(
            screen.cursor, cursor,
            "the cursor moved while the bot thinks"
        );
        screen.undo(&mut ctx);
        assert!(!screen.thinking(), "undo drops the pending answer");
        gate.wait();
        for k in 1..5 {
            std::thread::sleep(Duration::from_millis(20));
            screen.tick(now + BOT_PACE * k, &mut ctx);
        }
        assert!(
            screen.game().moves().is_empty(),
            "the stale answer was not played"
        );
        assert_eq!(screen.rng, rng, "nor its generator adopted");
    }

    #[test]
    fn bots_on_the_worker_play_the_game_they_played_inline() {
        let players = [Side::Bot(Level::ALL[4]), Side::Bot(Level::ALL[2])];
        let mut screen = ReversiScreen::new(players, Rules::default(), 11);
        let_bots_play(&mut screen);
        assert!(screen.game().is_over());
        // The same bots called directly, as the screen did before it had a worker.
        let mut game = Game::new(Rules::default());
        let mut bots = players.map(|s| match s {
            Side::Bot(level) => level.bot(&Rules::default()),
            Side::Human => unreachable!(),
        });
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        while !game.is_over() {
            let pos = *game.position();
            let mv = if pos.must_pass() {
                Move::Pass
            } else {
                bots[pos.side_to_move() as usize]
                    .choose_move(&pos, &mut rng)
                    .expect("a move")
            };
            game.play(mv).expect("legal");
        }
        assert_eq!(screen.game().moves(), game.moves());
    }

    #[test]
    fn a_click_plays_the_square_clicked() {
        let mut screen = human_vs_bot(1);
        render(&mut screen, 80, 22, &Theme::dark());
        let (x, y) = screen.cell_of(sq("d3"));
        feed(&mut screen, &[click(x, y)]);
        assert_eq!(screen.game().moves(), &[Move::Place(sq("d3"))]);
        // A click beside the board does nothing.
        assert_eq!(
            screen.handle(&click(0, 0), &mut Ctx::default()),
            Handled::No
        );
    }

    #[test]
    fn the_hint_is_the_searchs_best_move_and_is_drawn() {
        let mut screen = human_vs_bot(1);
        let mut ctx = feed(&mut screen, &[ch('t')]);
        let said = ctx.take_message().expect("a hint");
        assert!(said.starts_with("Hint: "), "{said}");
        let best = screen.current_hint().expect("a hint");
        assert_eq!(screen.cursor(), best.square);
        assert!(
            screen
                .game()
                .position()
                .legal_squares()
                .contains(best.square)
        );
        let shown = text(&render(&mut screen, 80, 22, &Theme::dark()));
        assert!(shown.contains(&format!("Hint: {}", best.square)), "{shown}");
    }

    #[test]
    fn a_whole_game_with_keys_alone() {
        let mut screen = human_vs_bot(3);
        let mut moves = 0;
        while !screen.game().is_over() {
            if screen.human_to_move() {
                let target = screen
                    .game()
                    .position()
                    .legal_squares()
                    .iter()
                    .last()
                    .expect("a legal move");
                let mut events = keys_to(&screen, target);
                events.push(key(KeyCode::Enter));
                let before = shown_moves(&screen).len();
                feed(&mut screen, &events);
                assert_eq!(shown_moves(&screen).len(), before + 1);
                moves += 1;
            } else {
                let_bots_play(&mut screen);
            }
        }
        assert!(moves >= 10, "{moves}");
        assert!(screen.status().starts_with("Game over: "));
        let outcome = screen.game().outcome().expect("over");
        assert_eq!(outcome.black + outcome.white + outcome.empties(), 64);
    }

    #[test]
    fn a_whole_game_with_the_mouse_alone() {
        let mut screen = human_vs_bot(4);
        while !screen.game().is_over() {
            if screen.human_to_move() {
                render(&mut screen, 100, 30, &Theme::mono());
                let target = screen
                    .game()
                    .position()
                    .legal_squares()
                    .iter()
                    .next()
                    .expect("a legal move");
                let (x, y) = screen.cell_of(target);
                let before = shown_moves(&screen).len();
                feed(&mut screen, &[click(x, y)]);
                assert_eq!(shown_moves(&screen).last(), Some(&Move::Place(target)));
                assert_eq!(shown_moves(&screen).len(), before + 1);
            } else {
                let_bots_play(&mut screen);
            }
        }
        assert!(screen.game().outcome().is_some());
    }

    #[test]
    fn passes_are_played_and_announced() {
        // White to move with no legal move (Black at a1 could take b1 by c1).
        let pos: Position = format!("XO{} O", "-".repeat(62)).parse().expect("a board");
        let game = Game::from_position(Rules::default(), pos);
        let mut screen = ReversiScreen::with_game(game, [Side::Human, Side::Human], 1);
        // The table has played the pass; the board shows it after the pace.
        assert_eq!(screen.game().moves(), &[Move::Pass]);
        assert!(screen.position().must_pass());
        assert!(screen.status().contains("must pass"), "{}", screen.status());
        let now = Instant::now();
        let mut ctx = Ctx::default();
        assert!(!screen.tick(now, &mut ctx));
        assert_eq!(ctx.take_message(), None);
        assert!(screen.tick(now + BOT_PACE, &mut ctx));
        assert_eq!(shown_moves(&screen), &[Move::Pass]);
        assert_eq!(
            ctx.take_message().as_deref(),
            Some("White has no legal move and passes")
        );
    }

    #[test]
    fn a_pass_a_move_forces_comes_from_the_table_and_undo_takes_both_back() {
        // Black takes b1 by c1; White's only disc left, e5, flanks nothing: White passes.
        let mut board = ["-"; 64];
        board[0] = "X";
        board[1] = "O";
        board[32..36].fill("X");
        board[36] = "O";
        let pos: Position = format!("{} X", board.concat()).parse().expect("a board");
        let game = Game::from_position(Rules::default(), pos);
        let mut screen = ReversiScreen::with_game(game, [Side::Human, Side::Human], 1);
        screen.cursor = (2, 0);
        let mut ctx = feed(&mut screen, &[key(KeyCode::Enter)]);
        assert_eq!(
            ctx.take_message().as_deref(),
            Some("Black plays c1, flipping 1 disc")
        );
        assert_eq!(screen.game().moves(), &[Move::Place(sq("c1")), Move::Pass]);
        assert!(
            screen
                .status()
                .starts_with("White ○ has no legal move and must pass"),
            "{}",
            screen.status()
        );
        assert!(!screen.human_to_move(), "the pass is shown first");
        let now = Instant::now();
        screen.tick(now, &mut ctx);
        assert!(screen.tick(now + BOT_PACE, &mut ctx));
        assert_eq!(
            ctx.take_message().as_deref(),
            Some("White has no legal move and passes")
        );
        assert!(screen.status().starts_with("Black ● to move"));
        screen.undo(&mut ctx);
        assert!(screen.game().moves().is_empty(), "the move and the pass");
        assert_eq!(ctx.take_message().as_deref(), Some("Move taken back"));
        screen.redo(&mut ctx);
        assert_eq!(shown_moves(&screen), &[Move::Place(sq("c1")), Move::Pass]);
    }

    #[test]
    fn the_status_line_says_the_result_once() {
        // Black's last move, h8, takes White's last disc.
        let pos: Position = format!("{}O- X", "X".repeat(62)).parse().expect("a board");
        let game = Game::from_position(Rules::default(), pos);
        let screen = ReversiScreen::with_game(game, [Side::Human, Side::Human], 1);
        let mut app = App::new(Box::new(screen), ThemeKind::Dark);
        app.handle(&key(KeyCode::Enter));
        assert_eq!(app.message(), Some("Game over: Black wins 64-0 (+64)"));
        let shown = text(&render_app(&mut app, 80, 24));
        let status = shown.lines().last().expect("a status line");
        assert_eq!(status.matches("Game over").count(), 1, "{status}");
        assert!(
            status.starts_with("Game over: Black wins 64-0 (+64) · last: Black h8"),
            "{status}"
        );
    }

    #[test]
    fn settings_change_the_players_now() {
        let mut screen = human_vs_bot(1);
        let mut ctx = Ctx::default();
        let choices = screen.choices();
        assert_eq!(choices[1].values[choices[1].current], "bot 1 (random)");
        screen.choose(1, 0, &mut ctx);
        assert_eq!(screen.players, [Side::Human, Side::Human]);
        assert_eq!(screen.title(), "Reversi · Black: human · White: human");
        screen.choose(2, 1, &mut ctx);
        screen.new_game(&mut ctx);
        assert_eq!(screen.game().side_to_move(), Color::White);
    }

    #[test]
    fn saves_load_back_and_a_bad_file_changes_nothing() {
        let mut screen = human_vs_bot(1);
        screen.cursor = (5, 4);
        feed(&mut screen, &[key(KeyCode::Enter)]);
        let bytes = screen.save();
        let mut other = human_vs_bot(2);
        other.load(&bytes).expect("loads");
        assert_eq!(other.table, screen.table);
        let before = other.table.clone();
        assert!(other.load(b"TTRVgarbage").is_err());
        assert!(other.load(b"not a save").is_err());
        assert_eq!(other.table, before);
    }

    #[test]
    fn a_save_of_the_engine_alone_still_loads_with_the_screens_players() {
        let record = "f5d6c3".parse().expect("a record");
        let game = Game::from_record(Rules::default(), &record).expect("legal");
        let mut screen = human_vs_bot(1);
        screen.load(&game.to_bytes()).expect("loads");
        assert_eq!(screen.game().moves(), game.moves());
        assert_eq!(
            screen.table.players(),
            &[Player::Human, Player::Bot(Level::MIN.get())]
        );
        assert!(screen.status().starts_with("White ○ (bot) is thinking"));
        // The next save is the table's, which loads back the same.
        let mut other = human_vs_bot(2);
        other.load(&screen.save()).expect("loads");
        assert_eq!(other.table, screen.table);
    }

    #[test]
    fn snapshot_start() {
        let (_, frame) = app_frame(human_vs_bot(1));
        insta::assert_snapshot!("reversi_start", frame);
    }

    #[test]
    fn snapshot_hint_and_legal_moves() {
        let mut screen = human_vs_bot(1);
        screen.cursor = (5, 4);
        feed(&mut screen, &[key(KeyCode::Enter)]);
        let_bots_play(&mut screen);
        feed(&mut screen, &[ch('t')]);
        let (_, frame) = app_frame(screen);
        insta::assert_snapshot!("reversi_hint", frame);
    }

    #[test]
    fn snapshot_mid_game() {
        let screen = mid_game();
        let (_, frame) = app_frame(screen);
        insta::assert_snapshot!("reversi_mid_game", frame);
    }

    #[test]
    fn snapshot_game_over() {
        let mut screen = ReversiScreen::new(
            [Side::Bot(Level::MIN), Side::Bot(Level::MIN)],
            Rules::default(),
            5,
        );
        let_bots_play(&mut screen);
        assert!(screen.game().is_over());
        let (_, frame) = app_frame(screen);
        assert!(frame.contains("Game over"));
        insta::assert_snapshot!("reversi_game_over", frame);
    }

    #[test]
    fn screen_picture_is_up_to_date() {
        let screen = mid_game();
        let mut app = App::new(Box::new(screen), ThemeKind::Mono);
        crate::tui::testing::check_screen_picture("reversi", &render_app(&mut app, 80, 24));
    }

    fn any_event() -> impl Strategy<Value = Event> {
        let keys = prop::sample::select(vec![
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Enter,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::Char(' '),
            KeyCode::Char('t'),
            KeyCode::Char('h'),
            KeyCode::Char('j'),
            KeyCode::Char('k'),
            KeyCode::Char('l'),
            KeyCode::Char('u'),
            KeyCode::Esc,
        ]);
        prop_oneof![
            4 => keys.prop_map(key),
            2 => (0u16..120, 0u16..40).prop_map(|(x, y)| click(x, y)),
            1 => (0u16..120, 0u16..40)
                .prop_map(|(x, y)| crate::tui::testing::mouse(MouseEventKind::Moved, x, y)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_events_never_panic(
            events in prop::collection::vec(any_event(), 0..40),
            sizes in prop::collection::vec((1u16..120, 1u16..40), 1..4),
            seed in 0u64..1000,
        ) {
            let mut screen = ReversiScreen::new(
                [Side::Human, Side::Bot(Level::MIN)], Rules::default(), seed);
            let mut now = Instant::now();
            for (i, event) in events.iter().enumerate() {
                let (w, h) = sizes[i % sizes.len()];
                render(&mut screen, w, h, &Theme::dark());
                let mut ctx = Ctx::default();
                screen.handle(event, &mut ctx);
                now += BOT_PACE;
                screen.tick(now, &mut ctx);
                let _ = screen.status();
            }
        }
    }
}
