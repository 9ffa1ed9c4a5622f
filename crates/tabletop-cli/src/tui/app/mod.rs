//! The full-screen host: the terminal, the event loop, the title and status lines, the help
//! overlay, the menu, the save/load dialogs, the y/n questions and the games menu.
//!
//! [`App`] is the whole host without a terminal: `handle` an event, `tick`, `draw` into a
//! frame. [`run`] drives it on the real terminal; tests drive it with events and draw it
//! into a `TestBackend` (see `tui::testing::render_app`).

use std::io;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Frame;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Clear};

mod dialogs;

use self::dialogs::{Dialog, DialogKind, DialogResult};
use super::draw::{centered, framed, hit, put, width};
use super::{Choice, Ctx, GameScreen, Handled, Theme, ThemeKind};
use crate::common::{CliResult, load_file, write_atomic};

/// The smallest terminal the games are laid out for.
pub const MIN_WIDTH: u16 = 80;
/// The smallest terminal the games are laid out for.
pub const MIN_HEIGHT: u16 = 24;

/// How long the loop waits for an event before it ticks.
const POLL: Duration = Duration::from_millis(50);

/// The keys the host answers, for the help overlay.
const HOST_KEYS: &[(&str, &str)] = &[
    ("? F1", "this help"),
    ("Esc F2", "menu: new game, settings, theme, save, load"),
    ("u", "undo"),
    ("U Ctrl-R", "redo"),
    ("n", "new game"),
    ("Ctrl-S", "save"),
    ("Ctrl-O", "load"),
    ("q", "quit (asks while a game is under way)"),
    ("Ctrl-C", "quit at once"),
];

/// One entry of the games menu: name, description, the screen with default settings.
struct GameEntry {
    name: &'static str,
    about: &'static str,
    make: fn() -> Box<dyn GameScreen>,
}

const GAMES: [GameEntry; 4] = [
    GameEntry {
        name: "Long Nardy",
        about: "Russian long backgammon, against a bot or a friend",
        make: super::nardy::default_screen,
    },
    GameEntry {
        name: "Sudoku",
        about: "Easy to extreme puzzles, pencil marks, logical hints",
        make: super::sudoku::default_screen,
    },
    GameEntry {
        name: "Battleship",
        about: "Place your fleet, then sink the computer's",
        make: super::battleship::default_screen,
    },
    GameEntry {
        name: "Reversi",
        about: "Othello: outflank and flip, against a bot or a friend",
        make: super::reversi::default_screen,
    },
];

/// What a y/n question does on yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Quit,
    NewGame,
    BackToGames,
}

impl Action {
    fn question(self) -> &'static str {
        match self {
            Action::Quit => "Quit the game under way?",
            Action::NewGame => "Start a new game and drop this one?",
            Action::BackToGames => "Leave this game for the games menu?",
        }
    }
}

/// One line of the game menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Resume,
    NewGame,
    Choice(usize),
    Theme,
    Save,
    Load,
    Help,
    BackToGames,
    Quit,
}

/// What sits on top of the game.
#[derive(Debug)]
enum Overlay {
    None,
    Help,
    Menu {
        selected: usize,
        /// Each line's rectangle and the column where its value starts (choices).
        rows: Vec<(Rect, u16)>,
    },
    Dialog(Dialog),
    Confirm {
        action: Action,
        yes: Rect,
        no: Rect,
    },
}

/// The host without a terminal: see the module documentation.
pub struct App {
    /// The game being played; `None` shows the games menu.
    screen: Option<Box<dyn GameScreen>>,
    /// Whether the app started with the games menu ("Back to the games" returns there).
    has_games_menu: bool,
    /// The games menu's selected line (the four games, then Quit) and the lines' rectangles.
    games_selected: usize,
    games_rows: Vec<Rect>,
    overlay: Overlay,
    /// The first line the help shows, and the most it can scroll (from the last draw; 0
    /// when every line fits).
    help_scroll: usize,
    help_more: usize,
    theme: ThemeKind,
    /// The latest one-off message, cleared on the next key or click.
    message: Option<String>,
    /// The file name the dialogs offer, once one was used.
    last_file: Option<String>,
    /// The folder file names are relative to (empty: the current folder).
    folder: PathBuf,
    quit: bool,
    /// The size of the last frame drawn.
    size: (u16, u16),
}

impl App {
    /// The host playing `screen`.
    pub fn new(screen: Box<dyn GameScreen>, theme: ThemeKind) -> App {
        App {
            screen: Some(screen),
            has_games_menu: false,
            games_selected: 0,
            games_rows: Vec::new(),
            overlay: Overlay::None,
            help_scroll: 0,
            help_more: 0,
            theme,
            message: None,
            last_file: None,
            folder: PathBuf::new(),
            quit: false,
            size: (MIN_WIDTH, MIN_HEIGHT),
        }
    }

    /// The host showing the games menu (`tabletop` alone).
    pub fn games(theme: ThemeKind) -> App {
        App {
            screen: None,
            has_games_menu: true,
            ..App::new(Box::new(super::Placeholder("")), theme)
        }
    }

    /// Whether the player asked to quit.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The screen being played, if a game is open.
    pub fn screen(&self) -> Option<&dyn GameScreen> {
        self.screen.as_deref()
    }

    /// The screen being played, to change it in tests.
    pub fn screen_mut(&mut self) -> Option<&mut (dyn GameScreen + 'static)> {
        self.screen.as_deref_mut()
    }

    /// The theme in force.
    pub fn theme(&self) -> ThemeKind {
        self.theme
    }

    /// The message on the status line, if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Makes the dialogs' file names relative to `folder` instead of the current folder.
    pub fn set_folder(&mut self, folder: impl Into<PathBuf>) {
        self.folder = folder.into();
    }

    /// Opens the menu (as Esc does).
    pub fn open_menu(&mut self) {
        if self.screen.is_some() {
            self.overlay = Overlay::Menu {
                selected: 0,
                rows: Vec::new(),
            };
        }
    }

    /// Opens the help overlay (as `?` does).
    pub fn open_help(&mut self) {
        self.overlay = Overlay::Help;
    }

    /// Whether something (help, menu, dialog, question) covers the game.
    pub fn overlay_open(&self) -> bool {
        !matches!(self.overlay, Overlay::None)
    }

    fn too_small(&self) -> bool {
        self.size.0 < MIN_WIDTH || self.size.1 < MIN_HEIGHT
    }

    /// Acts on one terminal event; returns whether the frame must be redrawn.
    pub fn handle(&mut self, event: &Event) -> bool {
        match event {
            Event::Resize(w, h) => {
                self.size = (*w, *h);
                return true;
            }
            Event::Key(key) if key.kind == KeyEventKind::Release => return false,
            Event::Key(key) if is_ctrl(key, 'c') => {
                self.quit = true;
                return true;
            }
            Event::Mouse(_) if self.too_small() => return false,
            Event::Key(_) | Event::Mouse(_) => {}
            _ => return false,
        }
        let press = is_press(event);
        if press {
            self.message = None;
        }
        match std::mem::replace(&mut self.overlay, Overlay::None) {
            Overlay::None => {}
            Overlay::Help => {
                if !press || self.scroll_help(event) {
                    self.overlay = Overlay::Help;
                    return press;
                }
                self.help_scroll = 0;
                return true;
            }
            Overlay::Menu { selected, rows } => return self.menu_event(event, selected, rows),
            Overlay::Dialog(dialog) => return self.dialog_event(event, dialog),
            Overlay::Confirm { action, yes, no } => {
                return self.confirm_event(event, action, yes, no);
            }
        }
        let Some(screen) = self.screen.as_mut() else {
            return self.games_event(event);
        };
        let mut ctx = Ctx::default();
        let handled = screen.handle(event, &mut ctx);
        let said = self.take(&mut ctx);
        if handled == Handled::Yes {
            return true;
        }
        let Event::Key(key) = event else {
            return said;
        };
        self.host_key(key) || said
    }

    /// Keeps the message a screen said, if any; returns whether there was one.
    fn take(&mut self, ctx: &mut Ctx) -> bool {
        match ctx.take_message() {
            Some(text) => {
                self.message = Some(text);
                true
            }
            None => false,
        }
    }

    /// Runs `f` on the screen with a fresh context and keeps its message.
    fn with_screen(&mut self, f: impl FnOnce(&mut dyn GameScreen, &mut Ctx)) {
        if let Some(screen) = self.screen.as_mut() {
            let mut ctx = Ctx::default();
            f(screen.as_mut(), &mut ctx);
            self.take(&mut ctx);
        }
    }

    fn in_progress(&self) -> bool {
        self.screen.as_ref().is_some_and(|s| s.in_progress())
    }

    /// The keys the host owns, once the screen passed on a key.
    fn host_key(&mut self, key: &KeyEvent) -> bool {
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Char('?') | KeyCode::F(1) => self.overlay = Overlay::Help,
            KeyCode::Esc | KeyCode::F(2) => self.open_menu(),
            KeyCode::Char('q') if plain => self.ask(Action::Quit),
            KeyCode::Char('n') if plain => self.ask(Action::NewGame),
            KeyCode::Char('u') if plain => self.with_screen(|s, ctx| s.undo(ctx)),
            KeyCode::Char('U') if plain => self.with_screen(|s, ctx| s.redo(ctx)),
            _ if is_ctrl(key, 'r') => self.with_screen(|s, ctx| s.redo(ctx)),
            _ if is_ctrl(key, 's') => self.open_dialog(DialogKind::Save),
            _ if is_ctrl(key, 'o') => self.open_dialog(DialogKind::Load),
            _ => return false,
        }
        true
    }

    /// Does `action`, asking y/n first while a game is under way.
    fn ask(&mut self, action: Action) {
        if self.in_progress() {
            self.overlay = Overlay::Confirm {
                action,
                yes: Rect::default(),
                no: Rect::default(),
            };
        } else {
            self.act(action);
        }
    }

    fn act(&mut self, action: Action) {
        match action {
            Action::Quit => self.quit = true,
            Action::NewGame => self.with_screen(|s, ctx| s.new_game(ctx)),
            Action::BackToGames => {
                if self.has_games_menu {
                    self.screen = None;
                } else {
                    self.quit = true;
                }
            }
        }
    }

    fn confirm_event(&mut self, event: &Event, action: Action, yes: Rect, no: Rect) -> bool {
        let answer = match event {
            Event::Key(key) => match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => Some(true),
                _ => Some(false),
            },
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(_),
                column,
                row,
                ..
            }) => Some(hit(yes, *column, *row)),
            _ => None,
        };
        match answer {
            Some(true) => self.act(action),
            Some(false) => {}
            None => self.overlay = Overlay::Confirm { action, yes, no },
        }
        answer.is_some()
    }

    fn open_dialog(&mut self, kind: DialogKind) {
        let name = self
            .last_file
            .clone()
            .or_else(|| self.screen.as_ref().map(|s| s.save_name()))
            .unwrap_or_else(|| "tabletop.save".to_owned());
        self.overlay = Overlay::Dialog(Dialog::new(kind, &name));
    }

    fn dialog_event(&mut self, event: &Event, mut dialog: Dialog) -> bool {
        let redraw = match dialog.handle(event) {
            DialogResult::Cancel => return true,
            DialogResult::Submit(name) => {
                match self.submit(dialog.kind(), &name) {
                    Ok(done) => {
                        self.last_file = Some(name);
                        self.message = Some(done);
                        return true;
                    }
                    Err(err) => dialog.set_error(err),
                }
                true
            }
            DialogResult::Changed => true,
            DialogResult::Ignored => false,
        };
        self.overlay = Overlay::Dialog(dialog);
        redraw
    }

    /// Saves to or loads from `name`; the text for the status line, or the error for the
    /// dialog's line.
    fn submit(&mut self, kind: DialogKind, name: &str) -> Result<String, String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("type a file name".to_owned());
        }
        let Some(screen) = self.screen.as_mut() else {
            return Err("no game is open".to_owned());
        };
        let path = self.folder.join(name);
        let path = path.as_path();
        match kind {
            DialogKind::Save => {
                write_atomic(path, &screen.save())
                    .map_err(|e| format!("cannot save {name}: {e}"))?;
                Ok(format!("Saved to {name}"))
            }
            DialogKind::Load => {
                let bytes = load_file(path).map_err(|e| e.message().to_owned())?;
                screen.load(&bytes).map_err(|e| format!("{name}: {e}"))?;
                Ok(format!("Loaded {name}"))
            }
        }
    }

    /// The lines of the menu in order.
    fn menu_items(&self) -> Vec<Item> {
        let choices = self.screen.as_ref().map_or(0, |s| s.choices().len());
        let mut items = vec![Item::Resume, Item::NewGame];
        items.extend((0..choices).map(Item::Choice));
        items.extend([Item::Theme, Item::Save, Item::Load, Item::Help]);
        if self.has_games_menu {
            items.push(Item::BackToGames);
        }
        items.push(Item::Quit);
        items
    }

    fn menu_event(&mut self, event: &Event, mut selected: usize, rows: Vec<(Rect, u16)>) -> bool {
        let items = self.menu_items();
        selected = selected.min(items.len() - 1);
        let mut keep_open = true;
        let mut redraw = true;
        match event {
            Event::Key(key) => match key.code {
                KeyCode::Up | KeyCode::Char('k') => {
                    selected = (selected + items.len() - 1) % items.len();
                }
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                    selected = (selected + 1) % items.len();
                }
                KeyCode::Home => selected = 0,
                KeyCode::End => selected = items.len() - 1,
                KeyCode::Left | KeyCode::Char('h') => self.step(items[selected], -1),
                KeyCode::Right | KeyCode::Char('l') => self.step(items[selected], 1),
                KeyCode::Enter | KeyCode::Char(' ') => {
                    keep_open = self.pick(items[selected]);
                }
                KeyCode::Esc | KeyCode::F(2) => keep_open = false,
                KeyCode::Char('q') => {
                    keep_open = false;
                    self.ask(Action::Quit);
                }
                _ => redraw = false,
            },
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(button),
                column,
                row,
                ..
            }) => match rows.iter().position(|(rect, _)| hit(*rect, *column, *row)) {
                Some(i) if i < items.len() => {
                    selected = i;
                    match items[i] {
                        Item::Choice(_) | Item::Theme => {
                            // A click left of the value steps back, anywhere else forward;
                            // the right button steps back too.
                            let back = *column < rows[i].1 + 2 || *button == MouseButton::Right;
                            self.step(items[i], if back { -1 } else { 1 });
                        }
                        item => keep_open = self.pick(item),
                    }
                }
                // A click outside the menu closes it.
                _ => keep_open = false,
            },
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::ScrollUp,
                ..
            }) => selected = (selected + items.len() - 1) % items.len(),
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::ScrollDown,
                ..
            }) => selected = (selected + 1) % items.len(),
            _ => redraw = false,
        }
        if keep_open && !self.overlay_open() {
            self.overlay = Overlay::Menu { selected, rows };
        }
        redraw
    }

    /// ←/→ on a menu line: the previous or next value of a setting.
    fn step(&mut self, item: Item, delta: isize) {
        match item {
            Item::Choice(i) => {
                let Some(choice) = self
                    .screen
                    .as_ref()
                    .and_then(|s| s.choices().get(i).cloned())
                else {
                    return;
                };
                if choice.values.is_empty() {
                    return;
                }
                let value = cycle(choice.current, choice.values.len(), delta);
                if value != choice.current {
                    self.with_screen(|s, ctx| s.choose(i, value, ctx));
                }
            }
            Item::Theme => {
                let all = ThemeKind::ALL;
                let now = all.iter().position(|t| *t == self.theme).unwrap_or(0);
                self.theme = all[cycle(now, all.len(), delta)];
            }
            _ => {}
        }
    }

    /// Enter on a menu line; returns whether the menu stays open.
    fn pick(&mut self, item: Item) -> bool {
        match item {
            Item::Resume => false,
            Item::NewGame => {
                self.with_screen(|s, ctx| s.new_game(ctx));
                false
            }
            Item::Choice(_) | Item::Theme => {
                self.step(item, 1);
                true
            }
            Item::Save => {
                self.open_dialog(DialogKind::Save);
                false
            }
            Item::Load => {
                self.open_dialog(DialogKind::Load);
                false
            }
            Item::Help => {
                self.overlay = Overlay::Help;
                false
            }
            Item::BackToGames => {
                self.ask(Action::BackToGames);
                false
            }
            Item::Quit => {
                self.ask(Action::Quit);
                false
            }
        }
    }

    /// An event on the games menu.
    fn games_event(&mut self, event: &Event) -> bool {
        let lines = GAMES.len() + 1;
        let open = |app: &mut App, i: usize| {
            if i < GAMES.len() {
                app.screen = Some((GAMES[i].make)());
                app.games_selected = i;
            } else {
                app.quit = true;
            }
        };
        match event {
            Event::Key(key) => match key.code {
                KeyCode::Up | KeyCode::Char('k') => {
                    self.games_selected = (self.games_selected + lines - 1) % lines;
                }
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                    self.games_selected = (self.games_selected + 1) % lines;
                }
                KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Char('l') | KeyCode::Right => {
                    open(self, self.games_selected);
                }
                KeyCode::Char(c @ '1'..='4') => open(self, usize::from(c as u8 - b'1')),
                KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
                KeyCode::Char('?') | KeyCode::F(1) => self.overlay = Overlay::Help,
                _ => return false,
            },
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column,
                row,
                ..
            }) => match self.games_rows.iter().position(|r| hit(*r, *column, *row)) {
                Some(i) => open(self, i),
                None => return false,
            },
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Moved,
                column,
                row,
                ..
            }) => match self.games_rows.iter().position(|r| hit(*r, *column, *row)) {
                Some(i) if i != self.games_selected => self.games_selected = i,
                _ => return false,
            },
            _ => return false,
        }
        true
    }

    /// Lets the screen play bot moves; the game waits while something covers it.
    pub fn tick(&mut self, now: Instant) -> bool {
        if self.overlay_open() {
            return false;
        }
        let Some(screen) = self.screen.as_mut() else {
            return false;
        };
        let mut ctx = Ctx::default();
        let changed = screen.tick(now, &mut ctx);
        self.take(&mut ctx) || changed
    }

    /// Draws the whole frame: title, game (or games menu), status line, overlays.
    pub fn draw(&mut self, frame: &mut Frame) {
        let area = frame.area();
        self.size = (area.width, area.height);
        let theme = self.theme.theme();
        if self.too_small() {
            draw_too_small(frame, area, &theme);
            return;
        }
        let title_row = Rect::new(area.x, area.y, area.width, 1);
        let body = Rect::new(area.x, area.y + 1, area.width, area.height - 2);
        let status_row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
        let (title, status) = match self.screen.as_mut() {
            Some(screen) => {
                screen.draw(frame, body, &theme);
                (screen.title(), screen.status())
            }
            None => {
                self.draw_games(frame, body, &theme);
                (
                    "Tabletop".to_owned(),
                    "↑↓ choose · Enter or click: play · q quit".to_owned(),
                )
            }
        };
        let buf = frame.buffer_mut();
        put(
            buf,
            title_row,
            title_row.x,
            title_row.y,
            &title,
            theme.accent,
        );
        let hint = if self.screen.is_some() {
            "? help · Esc menu"
        } else {
            "? help"
        };
        let hint_x = title_row.right().saturating_sub(width(hint) + 1);
        if hint_x > title_row.x + width(&title) {
            put(buf, title_row, hint_x, title_row.y, hint, theme.dim);
        }
        // The message first: it is what just happened, and the line may be too short. A
        // message the status already begins with (a game's result) is not said twice.
        let mut x = status_row.x;
        let message = self
            .message
            .as_ref()
            .filter(|m| !status.starts_with(m.as_str()));
        if let Some(message) = message {
            x = put(buf, status_row, x, status_row.y, message, theme.accent);
            if !status.is_empty() {
                x = put(buf, status_row, x, status_row.y, " · ", theme.dim);
            }
        }
        put(buf, status_row, x, status_row.y, &status, theme.normal);
        let menu = match self.overlay {
            Overlay::Menu { .. } => {
                let choices = self
                    .screen
                    .as_ref()
                    .map(|s| s.choices())
                    .unwrap_or_default();
                menu_lines(&self.menu_items(), &choices, self.theme)
            }
            _ => Vec::new(),
        };
        match &mut self.overlay {
            Overlay::None => {}
            Overlay::Help => {
                let keys = self.screen.as_ref().map(|s| s.keys()).unwrap_or_default();
                self.help_more = draw_help(
                    frame,
                    body,
                    &theme,
                    &keys,
                    self.screen.is_some(),
                    self.help_scroll,
                );
                self.help_scroll = self.help_scroll.min(self.help_more);
            }
            Overlay::Menu { selected, rows } => {
                *rows = draw_menu(frame, body, &theme, &menu, *selected);
            }
            Overlay::Dialog(dialog) => dialog.draw(frame, body, &theme),
            Overlay::Confirm { action, yes, no } => {
                (*yes, *no) = draw_confirm(frame, body, &theme, action.question());
            }
        }
    }

    fn draw_games(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let lines = GAMES.len() as u16 + 1;
        let rect = centered(area, 76, lines * 2 + 4);
        let inner = framed(frame, rect, " Choose a game ", theme, (2, 2, 1));
        let buf = frame.buffer_mut();
        self.games_rows.clear();
        for i in 0..usize::from(lines) {
            let y = inner.y + 2 * i as u16;
            let row = Rect::new(inner.x, y, inner.width, 1).intersection(inner);
            self.games_rows.push(row);
            let (name, about) = match GAMES.get(i) {
                Some(g) => (format!("{}  {}", i + 1, g.name), g.about),
                None => ("   Quit".to_owned(), ""),
            };
            let style = if i == self.games_selected {
                theme.cursor
            } else {
                theme.accent
            };
            let x = put(buf, inner, row.x, y, &format!(" {name:<14}"), style);
            put(buf, inner, x + 1, y, about, theme.normal);
        }
    }
}

/// `i` moved by `delta` in 0..len, wrapping.
fn cycle(i: usize, len: usize, delta: isize) -> usize {
    let len = len as isize;
    ((i as isize + delta).rem_euclid(len)) as usize
}

fn is_ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char(k) if k.eq_ignore_ascii_case(&c))
}

/// A key press or a mouse button press (what closes the help and clears messages).
fn is_press(event: &Event) -> bool {
    match event {
        Event::Key(key) => key.kind != KeyEventKind::Release,
        Event::Mouse(mouse) => matches!(mouse.kind, MouseEventKind::Down(_)),
        _ => false,
    }
}

impl App {
    /// Scrolls the help when it does not fit (↑↓ jk, PgUp/PgDn, the wheel); false for any
    /// other event, which closes it.
    fn scroll_help(&mut self, event: &Event) -> bool {
        if self.help_more == 0 {
            return false;
        }
        let down = match event {
            Event::Key(k) => match k.code {
                KeyCode::Down | KeyCode::Char('j') | KeyCode::PageDown => true,
                KeyCode::Up | KeyCode::Char('k') | KeyCode::PageUp => false,
                _ => return false,
            },
            Event::Mouse(m) => match m.kind {
                MouseEventKind::ScrollDown => true,
                MouseEventKind::ScrollUp => false,
                _ => return false,
            },
            _ => return false,
        };
        let step = match event {
            Event::Key(k) if matches!(k.code, KeyCode::PageDown | KeyCode::PageUp) => 10,
            _ => 1,
        };
        self.help_scroll = if down {
            (self.help_scroll + step).min(self.help_more)
        } else {
            self.help_scroll.saturating_sub(step)
        };
        true
    }
}

/// The menu's lines as (label, value) text.
fn menu_lines(items: &[Item], choices: &[Choice], theme: ThemeKind) -> Vec<(String, String)> {
    items
        .iter()
        .map(|item| match item {
            Item::Resume => ("Resume".to_owned(), String::new()),
            Item::NewGame => ("New game".to_owned(), String::new()),
            Item::Choice(i) => match choices.get(*i) {
                Some(c) => {
                    let value = c.values.get(c.current).cloned().unwrap_or_default();
                    (c.label.to_owned(), value)
                }
                None => (String::new(), String::new()),
            },
            Item::Theme => ("Theme".to_owned(), theme.name().to_owned()),
            Item::Save => ("Save…".to_owned(), String::new()),
            Item::Load => ("Load…".to_owned(), String::new()),
            Item::Help => ("Help".to_owned(), String::new()),
            Item::BackToGames => ("Back to the games".to_owned(), String::new()),
            Item::Quit => ("Quit".to_owned(), String::new()),
        })
        .collect()
}

/// Draws the menu; returns each line's rectangle and the column where its value starts.
fn draw_menu(
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    lines: &[(String, String)],
    selected: usize,
) -> Vec<(Rect, u16)> {
    let label_width = lines.iter().map(|(l, _)| width(l)).max().unwrap_or(0);
    let value_width = lines.iter().map(|(_, v)| width(v)).max().unwrap_or(0);
    let inner_width = label_width + value_width + 8;
    let rect = centered(area, inner_width + 4, lines.len() as u16 + 2);
    let inner = framed(frame, rect, " Menu ", theme, (1, 1, 1));
    let buf = frame.buffer_mut();
    let mut rows = Vec::new();
    for (i, (label, value)) in lines.iter().enumerate() {
        let y = inner.y + i as u16;
        let row = Rect::new(inner.x, y, inner.width, 1).intersection(inner);
        let value_x = inner.x + label_width + 3;
        rows.push((row, value_x));
        let style = if i == selected {
            theme.cursor
        } else {
            theme.normal
        };
        buf.set_style(row.intersection(buf.area), style);
        put(buf, inner, inner.x + 1, y, label, style);
        if !value.is_empty() {
            let arrows = if i == selected {
                theme.cursor
            } else {
                theme.dim
            };
            let x = put(buf, inner, value_x, y, "◀ ", arrows);
            let x = put(buf, inner, x, y, value, style);
            put(buf, inner, x, y, " ▶", arrows);
        }
    }
    rows
}

/// Draws the help overlay: the host's keys, then the game's.
fn draw_help(
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    game_keys: &[(&str, &str)],
    in_game: bool,
    scroll: usize,
) -> usize {
    let mut lines: Vec<(String, String, bool)> = Vec::new();
    if in_game {
        lines.extend(
            HOST_KEYS
                .iter()
                .map(|(k, w)| ((*k).to_owned(), (*w).to_owned(), false)),
        );
    } else {
        lines.push(("↑↓ j k".to_owned(), "choose a game".to_owned(), false));
        lines.push(("Enter 1-4".to_owned(), "play it".to_owned(), false));
        lines.push((
            "click".to_owned(),
            "play the game clicked".to_owned(),
            false,
        ));
        lines.push(("q Esc".to_owned(), "quit".to_owned(), false));
    }
    if !game_keys.is_empty() {
        lines.push((String::new(), String::new(), false));
        lines.push(("This game".to_owned(), String::new(), true));
        lines.extend(
            game_keys
                .iter()
                .map(|(k, w)| ((*k).to_owned(), (*w).to_owned(), false)),
        );
    }
    let key_width = lines.iter().map(|(k, _, _)| width(k)).max().unwrap_or(0);
    let what_width = lines.iter().map(|(_, w, _)| width(w)).max().unwrap_or(0);
    // Descriptions too long for the screen go on as many lines as they need.
    let room_w = area.width.saturating_sub(key_width + 7).max(8);
    let lines: Vec<(String, String, bool)> = lines
        .into_iter()
        .flat_map(|(k, w, heading)| {
            wrap(&w, room_w)
                .into_iter()
                .enumerate()
                .map(move |(i, part)| {
                    (
                        if i == 0 { k.clone() } else { String::new() },
                        part,
                        heading,
                    )
                })
        })
        .collect();
    let rect = centered(
        area,
        key_width + what_width.min(room_w) + 7,
        lines.len() as u16 + 4,
    );
    let inner = framed(frame, rect, " Keys ", theme, (2, 1, 1));
    // The lines, a blank row if there is room, and the note; the lines scroll when they do
    // not fit.
    let room = usize::from(inner.height.saturating_sub(1)).max(1);
    let more = lines.len().saturating_sub(room);
    let scroll = scroll.min(more);
    let buf = frame.buffer_mut();
    for (i, (key, what, heading)) in lines.iter().skip(scroll).take(room).enumerate() {
        let y = inner.y + i as u16;
        put(buf, inner, inner.x, y, key, theme.accent);
        if !*heading {
            put(buf, inner, inner.x + key_width + 2, y, what, theme.normal);
        }
    }
    let note = if more == 0 {
        "any key or click closes this".to_owned()
    } else {
        let (above, below) = (scroll, more - scroll);
        format!("↑↓ scroll ({above} above, {below} below) · other keys close")
    };
    put(
        buf,
        inner,
        inner.x,
        inner.bottom().saturating_sub(1),
        &note,
        theme.dim,
    );
    more
}

/// `text` in lines of at most `width` characters, broken between words (a word longer
/// than a line is cut); one empty line for empty text.
fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("a line");
        let used = last.chars().count();
        if used > 0 && used + 1 + word.chars().count() > width {
            lines.push(word.chars().take(width).collect());
        } else {
            if used > 0 {
                last.push(' ');
            }
            last.extend(word.chars().take(width - used.min(width)));
        }
    }
    lines
}

/// Draws a y/n question; returns the rectangles of the two answers.
fn draw_confirm(frame: &mut Frame, area: Rect, theme: &Theme, question: &str) -> (Rect, Rect) {
    let rect = centered(area, width(question).max(20) + 6, 5);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Block::default()
            .borders(Borders::ALL)
            .border_style(theme.dim),
        rect,
    );
    let buf = frame.buffer_mut();
    put(buf, rect, rect.x + 3, rect.y + 1, question, theme.accent);
    let y = rect.y + 3;
    let yes_x = rect.x + 3;
    let end = put(buf, rect, yes_x, y, "[y] yes", theme.cursor);
    let no_x = end + 3;
    let no_end = put(buf, rect, no_x, y, "[n] no", theme.normal);
    (
        Rect::new(yes_x, y, end - yes_x, 1).intersection(rect),
        Rect::new(no_x, y, no_end.saturating_sub(no_x), 1).intersection(rect),
    )
}

fn draw_too_small(frame: &mut Frame, area: Rect, theme: &Theme) {
    frame.render_widget(Clear, area);
    let text = format!("terminal too small ({MIN_WIDTH}×{MIN_HEIGHT} needed)");
    let y = area.y + area.height / 2;
    let x = area.x + area.width.saturating_sub(width(&text)) / 2;
    put(frame.buffer_mut(), area, x, y, &text, theme.bad);
}

/// Whether the terminal is in full-screen mode (so the panic hook restores it).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back in line mode: raw mode off, main screen, mouse off, cursor
/// shown. Does nothing when it is not in full-screen mode.
fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = crossterm::execute!(
            io::stdout(),
            DisableMouseCapture,
            LeaveAlternateScreen,
            crossterm::cursor::Show
        );
    }
}

/// Restores the terminal when dropped: on a normal end, an error and a panic's unwinding.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Wraps the panic hook so the terminal is restored before the panic's message prints.
fn install_restore_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// In debug builds with `TABLETOP_TEST_PANIC` set, F12 panics: the pty tests check that
/// a panic restores the terminal before its message prints.
fn test_panic(event: &Event) {
    if cfg!(debug_assertions)
        && std::env::var_os("TABLETOP_TEST_PANIC").is_some()
        && matches!(event, Event::Key(k) if k.code == KeyCode::F(12))
    {
        panic!("test panic on F12");
    }
}

/// Runs `app` on the terminal until the player quits.
pub fn run(mut app: App) -> CliResult {
    install_restore_hook();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let _guard = Guard;
    crossterm::execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        crossterm::cursor::Hide,
        // Not `Terminal::clear`: it asks the terminal for the cursor position, which some
        // terminals (and pseudo-terminals in tests) never answer.
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let mut dirty = true;
    while !app.should_quit() {
        if dirty {
            terminal.draw(|frame| app.draw(frame))?;
            dirty = false;
        }
        if event::poll(POLL)? {
            let event = event::read()?;
            test_panic(&event);
            dirty |= app.handle(&event);
        }
        dirty |= app.tick(Instant::now());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::Placeholder;
    use crate::tui::reversi::{ReversiScreen, Side};
    use crate::tui::testing::{ch, click, ctrl, drive, key, mouse, render_app, text};
    use proptest::prelude::*;
    use reversi_core::Rules;
    use reversi_core::ai::Level;

    /// Every key of the host and of each game's help can be read at 80×24, scrolling
    /// where the list is longer than the screen.
    #[test]
    fn the_help_shows_every_key_at_80x24() {
        for game in &GAMES {
            let mut app = App::new((game.make)(), ThemeKind::Dark);
            let keys = app.screen.as_ref().expect("a game").keys();
            let mut seen = text(&drive(&mut app, &[ch('?')], 80, 24));
            // ↓ scrolls a help that does not fit (and would close one that does).
            while app.help_scroll < app.help_more {
                seen.push_str(&text(&drive(&mut app, &[key(KeyCode::Down)], 80, 24)));
            }
            if app.help_more > 0 {
                assert!(
                    seen.contains("↑↓ scroll"),
                    "{}: the note says so",
                    game.name
                );
            }
            assert!(matches!(app.overlay, Overlay::Help), "{}", game.name);
            for (k, what) in HOST_KEYS.iter().chain(keys.iter()) {
                let line = format!("{k}  ");
                // A long description is wrapped: each of its words is on screen.
                let words = what.split_whitespace().all(|w| seen.contains(w));
                assert!(
                    seen.contains(&line) && words,
                    "{}: {k} / {what} not shown\n{seen}",
                    game.name
                );
            }
            drive(&mut app, &[ch('x')], 80, 24);
            assert!(
                matches!(app.overlay, Overlay::None),
                "another key closes it"
            );
        }
    }

    #[test]
    fn help_descriptions_wrap_between_words() {
        assert_eq!(wrap("take back the step", 9), ["take back", "the step"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("abcdefgh ij", 4), ["abcd", "ij"]);
    }

    fn reversi() -> App {
        let screen = ReversiScreen::new([Side::Human, Side::Bot(Level::MIN)], Rules::default(), 1);
        App::new(Box::new(screen), ThemeKind::Dark)
    }

    fn frame_text(app: &mut App) -> String {
        text(&render_app(app, 80, 24))
    }

    fn moves(app: &App) -> String {
        // The status line names the last move; the save holds them all.
        app.screen().map(|s| s.status()).unwrap_or_default()
    }

    /// A fresh folder for the dialogs of one test.
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabletop-tui-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    }

    #[test]
    fn the_frame_has_a_title_the_game_and_a_status_line() {
        let mut app = reversi();
        let shown = frame_text(&mut app);
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].starts_with("Reversi · Black: you · White: bot (random)"));
        assert!(lines[0].trim_end().ends_with("? help · Esc menu"));
        assert!(lines[23].starts_with("Black ● to move"), "{}", lines[23]);
        assert!(shown.contains("a   b   c   d"), "{shown}");
    }

    #[test]
    fn below_80_by_24_the_game_gives_way_to_a_notice() {
        let mut app = reversi();
        for (w, h) in [(79, 24), (80, 23), (20, 5), (1, 1)] {
            let shown = text(&render_app(&mut app, w, h));
            if w >= 34 {
                assert!(
                    shown.contains("terminal too small (80×24 needed)"),
                    "{shown}"
                );
            }
            assert!(!shown.contains("a   b   c"), "{shown}");
            // Clicks are ignored while the game is hidden.
            assert!(!app.handle(&click(10, 3)));
        }
        assert!(frame_text(&mut app).contains("a   b   c"));
    }

    #[test]
    fn q_asks_while_a_game_is_under_way() {
        let mut app = reversi();
        // No move yet: q quits at once.
        app.handle(&ch('q'));
        assert!(app.should_quit());

        let mut app = reversi();
        drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
        assert!(app.screen().is_some_and(|s| s.in_progress()));
        let shown = text(&drive(&mut app, &[ch('q')], 80, 24));
        assert!(shown.contains("Quit the game under way?"), "{shown}");
        app.handle(&ch('n'));
        assert!(!app.should_quit() && !app.overlay_open());
        drive(&mut app, &[ch('q'), ch('y')], 80, 24);
        assert!(app.should_quit());
    }

    #[test]
    fn the_question_answers_to_the_mouse() {
        let mut app = reversi();
        drive(&mut app, &[key(KeyCode::Enter), ch('n')], 80, 24);
        let shown = frame_text(&mut app);
        let (row, line) = shown
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains("[y] yes"))
            .expect("the question");
        let column = line.chars().take_while(|c| *c != '[').count() as u16;
        app.handle(&click(column + 1, row as u16));
        assert!(!app.overlay_open());
        assert!(
            !moves(&app).contains("last:"),
            "a new game: {}",
            moves(&app)
        );
    }

    #[test]
    fn ctrl_c_quits_at_once_from_anywhere() {
        let mut app = reversi();
        drive(&mut app, &[key(KeyCode::Enter), key(KeyCode::Esc)], 80, 24);
        assert!(app.overlay_open());
        app.handle(&ctrl('c'));
        assert!(app.should_quit());
    }

    #[test]
    fn u_and_shift_u_undo_and_redo_through_the_host() {
        let mut app = reversi();
        drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
        assert!(moves(&app).contains("last: Black"));
        app.handle(&ch('u'));
        assert!(!moves(&app).contains("last:"), "{}", moves(&app));
        assert_eq!(app.message(), Some("Move taken back"));
        app.handle(&ch('U'));
        assert!(moves(&app).contains("last: Black"));
        app.handle(&ch('u'));
        app.handle(&ctrl('r'));
        assert!(moves(&app).contains("last: Black"));
    }

    #[test]
    fn messages_are_cleared_by_the_next_key() {
        let mut app = reversi();
        app.handle(&ch('u'));
        assert_eq!(app.message(), Some("Nothing to undo"));
        assert!(frame_text(&mut app).contains("Nothing to undo · Black ● to move"));
        app.handle(&key(KeyCode::Left));
        assert_eq!(app.message(), None);
    }

    #[test]
    fn help_lists_the_host_and_game_keys_and_closes_on_any_key() {
        let mut app = reversi();
        let shown = text(&drive(&mut app, &[ch('?')], 80, 24));
        assert!(shown.contains("Ctrl-S"), "{shown}");
        assert!(shown.contains("hint: the best move"), "{shown}");
        app.handle(&mouse(MouseEventKind::Moved, 3, 3));
        assert!(app.overlay_open(), "a mouse move does not close it");
        app.handle(&ch('x'));
        assert!(!app.overlay_open());
        app.handle(&key(KeyCode::F(1)));
        assert!(app.overlay_open());
        app.handle(&click(0, 0));
        assert!(!app.overlay_open());
    }

    #[test]
    fn the_menu_changes_settings_and_the_theme() {
        let mut app = reversi();
        let shown = text(&drive(&mut app, &[key(KeyCode::Esc)], 80, 24));
        for line in [
            "Resume", "New game", "Black", "White", "Theme", "Save…", "Quit",
        ] {
            assert!(shown.contains(line), "{line}:\n{shown}");
        }
        assert!(!shown.contains("Back to the games"));
        // Down to White (Resume, New game, Black, White), one level up.
        let events = [
            key(KeyCode::Down),
            ch('j'),
            key(KeyCode::Down),
            key(KeyCode::Right),
        ];
        drive(&mut app, &events, 80, 24);
        assert!(
            app.screen()
                .expect("a game")
                .title()
                .ends_with("bot (wild)")
        );
        assert_eq!(app.message(), Some("White: bot 2 (wild) (from now on)"));
        // Theme is after the three choices: two more down.
        drive(
            &mut app,
            &[key(KeyCode::Down), key(KeyCode::Down), ch('l')],
            80,
            24,
        );
        assert_eq!(app.theme(), ThemeKind::Light);
        app.handle(&key(KeyCode::Left));
        assert_eq!(app.theme(), ThemeKind::Dark);
        app.handle(&key(KeyCode::Esc));
        assert!(!app.overlay_open());
    }

    #[test]
    fn the_menu_works_with_the_mouse() {
        let mut app = reversi();
        let shown = text(&drive(&mut app, &[key(KeyCode::Esc)], 80, 24));
        let find = |what: &str| {
            shown
                .lines()
                .enumerate()
                .find_map(|(y, l)| {
                    l.find(what)
                        .map(|at| (l[..at].chars().count() as u16, y as u16))
                })
                .expect("a menu line")
        };
        // A click on the value of Theme steps it forward.
        let (_, y) = find("Theme");
        let (x, _) = find("◀ dark ▶");
        app.handle(&click(x + 4, y));
        assert_eq!(app.theme(), ThemeKind::Light);
        // A click on the left arrow steps back.
        render_app(&mut app, 80, 24);
        app.handle(&click(x, y));
        assert_eq!(app.theme(), ThemeKind::Dark);
        // A click on Resume closes the menu.
        let (x, y) = find("Resume");
        app.handle(&click(x, y));
        assert!(!app.overlay_open());
    }

    #[test]
    fn save_then_load_through_the_dialogs() {
        let dir = folder("save");
        let mut app = reversi();
        app.set_folder(&dir);
        drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
        let after_one = moves(&app);
        let shown = text(&drive(&mut app, &[ctrl('s')], 80, 24));
        assert!(shown.contains("File: reversi.save"), "{shown}");
        // Edit the name: Home, type a prefix, End, Backspace the last letter.
        let mut events = vec![key(KeyCode::Home), ch('m'), ch('y'), ch('-')];
        events.extend([
            key(KeyCode::End),
            key(KeyCode::Backspace),
            key(KeyCode::Enter),
        ]);
        drive(&mut app, &events, 80, 24);
        assert!(!app.overlay_open());
        assert_eq!(app.message(), Some("Saved to my-reversi.sav"));
        assert!(dir.join("my-reversi.sav").exists());
        app.handle(&ch('u'));
        assert_ne!(moves(&app), after_one);
        // The load dialog offers the name used last.
        let shown = text(&drive(&mut app, &[ctrl('o')], 80, 24));
        assert!(shown.contains("File: my-reversi.sav"), "{shown}");
        app.handle(&key(KeyCode::Enter));
        assert_eq!(app.message(), Some("Loaded my-reversi.sav"));
        assert_eq!(moves(&app), after_one);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_bad_file_stays_in_the_dialog_and_changes_nothing() {
        let dir = folder("bad");
        std::fs::write(dir.join("junk.save"), b"not a save").expect("write");
        let mut app = reversi();
        app.set_folder(&dir);
        drive(&mut app, &[key(KeyCode::Enter)], 80, 24);
        let before = moves(&app);
        let mut events = vec![ctrl('o'), ctrl('u')];
        events.extend("junk.save".chars().map(ch));
        events.push(key(KeyCode::Enter));
        let shown = text(&drive(&mut app, &events, 80, 24));
        assert!(app.overlay_open(), "the dialog stays open");
        assert!(shown.contains("junk.save: "), "{shown}");
        assert_eq!(moves(&app), before);
        // A missing file too, then Esc closes without loading.
        let mut events = vec![ctrl('u')];
        events.extend("missing".chars().map(ch));
        events.push(key(KeyCode::Enter));
        let shown = text(&drive(&mut app, &events, 80, 24));
        assert!(shown.contains("cannot read"), "{shown}");
        app.handle(&key(KeyCode::Esc));
        assert!(!app.overlay_open());
        assert_eq!(moves(&app), before);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_games_menu_opens_a_game_and_takes_it_back() {
        let mut app = App::games(ThemeKind::Mono);
        let shown = frame_text(&mut app);
        assert!(shown.contains("Choose a game"), "{shown}");
        assert!(shown.contains("4  Reversi"), "{shown}");
        // Down three times to Reversi, Enter.
        let events = [
            key(KeyCode::Down),
            ch('j'),
            key(KeyCode::Down),
            key(KeyCode::Enter),
        ];
        drive(&mut app, &events, 80, 24);
        assert!(app.screen().expect("a game").title().starts_with("Reversi"));
        let shown = text(&drive(&mut app, &[key(KeyCode::Esc)], 80, 24));
        assert!(shown.contains("Back to the games"), "{shown}");
        // Back is the line before Quit.
        drive(
            &mut app,
            &[key(KeyCode::End), key(KeyCode::Up), key(KeyCode::Enter)],
            80,
            24,
        );
        assert!(app.screen().is_none());
        assert!(frame_text(&mut app).contains("Choose a game"));
        // The mouse: click the Sudoku line.
        let shown = frame_text(&mut app);
        let y = shown
            .lines()
            .position(|l| l.contains("2  Sudoku"))
            .expect("a line");
        app.handle(&click(20, y as u16));
        assert!(app.screen().expect("a game").title().starts_with("Sudoku"));
        app.handle(&ch('q'));
        assert!(app.should_quit() || app.overlay_open());
    }

    #[test]
    fn snapshot_games_menu() {
        let mut app = App::games(ThemeKind::Dark);
        insta::assert_snapshot!(
            "host_games_menu",
            format!("{:?}", render_app(&mut app, 80, 24))
        );
    }

    #[test]
    fn snapshot_menu_over_a_game() {
        let mut app = reversi();
        app.open_menu();
        insta::assert_snapshot!("host_menu", format!("{:?}", render_app(&mut app, 80, 24)));
    }

    #[test]
    fn snapshot_save_dialog() {
        let mut app = reversi();
        let buffer = drive(&mut app, &[ctrl('s')], 80, 24);
        insta::assert_snapshot!("host_save_dialog", format!("{buffer:?}"));
    }

    fn any_event() -> impl Strategy<Value = Event> {
        let keys = prop::sample::select(vec![
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Backspace,
            KeyCode::Delete,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::Tab,
            KeyCode::F(1),
            KeyCode::F(2),
            KeyCode::Char(' '),
            KeyCode::Char('?'),
            KeyCode::Char('u'),
            KeyCode::Char('U'),
            KeyCode::Char('n'),
            KeyCode::Char('y'),
            KeyCode::Char('t'),
            KeyCode::Char('j'),
            KeyCode::Char('k'),
            KeyCode::Char('h'),
            KeyCode::Char('l'),
            KeyCode::Char('x'),
            KeyCode::Char('1'),
            KeyCode::Char('4'),
        ]);
        prop_oneof![
            8 => keys.prop_map(key),
            1 => prop::sample::select(vec!['s', 'o', 'r', 'a', 'e', 'u']).prop_map(ctrl),
            3 => (0u16..130, 0u16..45).prop_map(|(x, y)| click(x, y)),
            1 => (0u16..130, 0u16..45)
                .prop_map(|(x, y)| crate::tui::testing::right_click(x, y)),
            1 => (0u16..130, 0u16..45).prop_map(|(x, y)| mouse(MouseEventKind::Moved, x, y)),
            1 => (1u16..130, 1u16..45).prop_map(|(w, h)| Event::Resize(w, h)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_events_never_panic_the_host(
            events in prop::collection::vec(any_event(), 0..60),
            sizes in prop::collection::vec((1u16..130, 1u16..45), 1..4),
            which in 0u8..3,
        ) {
            let dir = folder("proptest");
            let mut app = match which {
                0 => App::new(Box::new(Placeholder("Test")), ThemeKind::Mono),
                1 => reversi(),
                _ => App::games(ThemeKind::Light),
            };
            app.set_folder(&dir);
            let mut now = Instant::now();
            for (i, event) in events.iter().enumerate() {
                let (w, h) = sizes[i % sizes.len()];
                render_app(&mut app, w, h);
                app.handle(event);
                now += Duration::from_millis(600);
                app.tick(now);
                if app.should_quit() {
                    break;
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
