//! The full-screen host: the terminal, the event loop, the title and status lines, and
//! what covers the game (the help overlay, the menu, the save/load dialogs, the y/n
//! questions) or stands in for it (the games menu).
//!
//! [`App`] is the whole host without a terminal: `handle` an event, `tick`, `draw` into a
//! frame. [`run`] drives it on the real terminal; tests drive it with events and draw it
//! into a `TestBackend` (see `tui::testing::render_app`). The overlays live in `menu`,
//! `help`, `dialogs` and `games`; the games themselves are [`GameScreen`]s, and the list
//! of the games menu is handed in ([`App::games`], from `main.rs`).

use std::io;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseEventKind,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Frame;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::widgets::Clear;

mod dialogs;
mod games;
mod help;
mod menu;
#[cfg(test)]
mod tests;

pub use self::games::GameEntry;

use self::dialogs::{Action, Dialog, DialogKind};
use crate::common::CliResult;
use crate::tui::draw::{fit, put, width};
use crate::tui::screen::{Ctx, GameScreen, Handled};
use crate::tui::theme::{Theme, ThemeKind};

/// The smallest terminal the games are laid out for.
pub const MIN_WIDTH: u16 = 80;
/// The smallest terminal the games are laid out for.
pub const MIN_HEIGHT: u16 = 24;

/// How long the loop waits for an event before it ticks.
const POLL: Duration = Duration::from_millis(50);

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
    /// The games of the games menu (empty when the app started with a game: "Back to the
    /// games" returns to the menu only when there is one).
    games: Vec<GameEntry>,
    /// The games menu's selected line (the games, then Quit) and the lines' rectangles.
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
            ..App::games(Vec::new(), theme)
        }
    }

    /// The host showing a menu of `games` (`tabletop` alone).
    pub fn games(games: Vec<GameEntry>, theme: ThemeKind) -> App {
        App {
            screen: None,
            games,
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
        let online = self.screen.as_ref().is_some_and(|s| s.online());
        let off = match key.code {
            // Once an online game is over, `n` asks the screen for its rematch.
            KeyCode::Char('n') if plain && self.in_progress() => Some("A new game"),
            _ if is_ctrl(key, 's') => Some("Saving"),
            _ if is_ctrl(key, 'o') => Some("Loading"),
            _ => None,
        };
        if let Some(what) = off.filter(|_| online) {
            self.message = Some(format!(
                "{what} is off in online play: the server keeps the game"
            ));
            return true;
        }
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
        let message = self.message.as_deref().filter(|m| !status.starts_with(m));
        draw_status(buf, area, message, &status, &theme);
        let menu = match self.overlay {
            Overlay::Menu { .. } => self.menu_lines(),
            _ => Vec::new(),
        };
        match &mut self.overlay {
            Overlay::None => {}
            Overlay::Help => {
                let keys = self.screen.as_ref().map(|s| s.keys()).unwrap_or_default();
                self.help_more = help::draw_help(
                    frame,
                    body,
                    &theme,
                    &keys,
                    self.games_menu_shown(),
                    self.help_scroll,
                );
                self.help_scroll = self.help_scroll.min(self.help_more);
            }
            Overlay::Menu { selected, rows } => {
                *rows = menu::draw_menu(frame, body, &theme, &menu, *selected);
            }
            Overlay::Dialog(dialog) => dialog.draw(frame, body, &theme),
            Overlay::Confirm { action, yes, no } => {
                (*yes, *no) = dialogs::draw_confirm(frame, body, &theme, action.question());
            }
        }
    }

    /// Whether the games menu stands where a game would be.
    fn games_menu_shown(&self) -> Option<usize> {
        match self.screen {
            Some(_) => None,
            None => Some(self.games.len()),
        }
    }
}

/// The status line at the bottom of `area`: the message first (it is what just happened),
/// then the screen's status. When both do not fit on the line, the message also takes the
/// row above (the game's last row, until the next key clears the message), broken between
/// words: a message is never cut inside a word, and one too long for two rows loses words
/// from its middle, so that what happened and its cause (the end of an error) stay.
fn draw_status(
    buf: &mut ratatui::buffer::Buffer,
    area: Rect,
    message: Option<&str>,
    status: &str,
    theme: &Theme,
) {
    let row = area.bottom() - 1;
    let sep = if status.is_empty() { "" } else { " · " };
    let Some(message) = message else {
        put(buf, area, area.x, row, status, theme.normal);
        return;
    };
    let fits = |used: u16| u32::from(used) + u32::from(width(sep) + width(status));
    if fits(width(message)) <= u32::from(area.width) || area.height < 2 {
        let x = put(buf, area, area.x, row, message, theme.accent);
        let x = put(buf, area, x, row, sep, theme.dim);
        put(buf, area, x, row, status, theme.normal);
        return;
    }
    let lines = fit(message, area.width, 2);
    let top = row - 1;
    for x in area.left()..area.right() {
        buf[(x, top)].reset();
    }
    match lines.as_slice() {
        [one] => {
            put(buf, area, area.x, top, one, theme.accent);
            put(buf, area, area.x, row, status, theme.normal);
        }
        [first, second, ..] => {
            put(buf, area, area.x, top, first, theme.accent);
            let x = put(buf, area, area.x, row, second, theme.accent);
            // The status follows only if it fits whole; the next key brings it back.
            if fits(x - area.x) <= u32::from(area.width) {
                let x = put(buf, area, x, row, sep, theme.dim);
                put(buf, area, x, row, status, theme.normal);
            }
        }
        [] => {}
    }
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
