//! Helpers for screen tests: events and rendering into ratatui's `TestBackend`.
//!
//! A screen alone: `render(&mut screen, 80, 22, &Theme::dark())` (the host gives a game
//! the 80×24 terminal minus its title and status lines). The whole host frame, as a player
//! sees it: `App::new(Box::new(screen), ThemeKind::Dark)`, then `render_app(&mut app, 80,
//! 24)`, or `drive(&mut app, &events, 80, 24)` to feed events first (host keys included:
//! `key(KeyCode::Esc)` opens the menu, `ch('?')` the help; `app.open_menu()` and
//! `app.open_help()` do it directly). On the host frame the screen's area starts at row 1.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::{App, GameScreen, Theme};

/// A key press without modifiers.
pub fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// A character key press.
pub fn ch(c: char) -> Event {
    key(KeyCode::Char(c))
}

/// A press of the left mouse button at a cell (column, row of the whole screen).
pub fn click(column: u16, row: u16) -> Event {
    mouse(MouseEventKind::Down(MouseButton::Left), column, row)
}

/// A press of the right mouse button.
pub fn right_click(column: u16, row: u16) -> Event {
    mouse(MouseEventKind::Down(MouseButton::Right), column, row)
}

/// Any mouse event at a cell.
pub fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// Draws `screen` alone (no host chrome) on a `width`×`height` test terminal.
pub fn render(screen: &mut dyn GameScreen, width: u16, height: u16, theme: &Theme) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| {
            let area = frame.area();
            screen.draw(frame, area, theme);
        })
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The text of a buffer, one line per row, trailing spaces kept.
pub fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        for x in 0..area.width {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// Draws the whole host frame (title, screen, status line and whatever overlay is open)
/// on a `width`×`height` test terminal.
pub fn render_app(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(|frame| app.draw(frame)).expect("draw");
    terminal.backend().buffer().clone()
}

/// Feeds `events` to the host one by one, drawing a `width`×`height` frame before each
/// (so mouse clicks hit what was drawn), and returns the frame after the last.
pub fn drive(app: &mut App, events: &[Event], width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    for event in events {
        terminal.draw(|frame| app.draw(frame)).expect("draw");
        app.handle(event);
    }
    terminal.draw(|frame| app.draw(frame)).expect("draw");
    terminal.backend().buffer().clone()
}

/// A key press with Ctrl held.
pub fn ctrl(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Checks `docs/screens/NAME.txt`, the README's picture of a screen, against `buffer`
/// (its text, trailing spaces cut); `UPDATE_SCREENS=1` rewrites the file instead.
pub fn check_screen_picture(name: &str, buffer: &Buffer) {
    let picture = text(buffer)
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/screens")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SCREENS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("docs/screens");
        std::fs::write(&path, &picture).expect("write the picture");
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        stored, picture,
        "docs/screens/{name}.txt is out of date: run with UPDATE_SCREENS=1"
    );
}
