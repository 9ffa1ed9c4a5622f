//! The games menu of `tabletop` alone: the games it is given (from `main.rs`), then Quit.

use crossterm::event::{Event, KeyCode, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;

use super::{App, Overlay};
use crate::tui::draw::{centered, framed, hit, put};
use crate::tui::screen::GameScreen;
use crate::tui::theme::Theme;

/// One entry of the games menu: name, description, the screen with default settings.
#[derive(Debug, Clone, Copy)]
pub struct GameEntry {
    /// The game's name, e.g. "Reversi".
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Its screen with the default settings.
    pub make: fn() -> Box<dyn GameScreen>,
}

impl App {
    /// An event on the games menu.
    pub(super) fn games_event(&mut self, event: &Event) -> bool {
        let lines = self.games.len() + 1;
        let open = |app: &mut App, i: usize| {
            if let Some(game) = app.games.get(i) {
                app.screen = Some((game.make)());
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
                KeyCode::Char(c @ '1'..='9') if usize::from(c as u8 - b'1') < self.games.len() => {
                    open(self, usize::from(c as u8 - b'1'));
                }
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

    /// Draws the games menu in `area`, remembering its lines for the mouse.
    pub(super) fn draw_games(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let lines = u16::try_from(self.games.len() + 1).unwrap_or(u16::MAX);
        let rect = centered(area, 76, lines.saturating_mul(2).saturating_add(4));
        let inner = framed(frame, rect, " Choose a game ", theme, (2, 2, 1));
        let buf = frame.buffer_mut();
        self.games_rows.clear();
        for i in 0..usize::from(lines) {
            let y = inner.y + 2 * i as u16;
            let row = Rect::new(inner.x, y, inner.width, 1).intersection(inner);
            self.games_rows.push(row);
            let (name, about) = match self.games.get(i) {
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
