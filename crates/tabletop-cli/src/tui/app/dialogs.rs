//! The save and load dialogs: a file-name field with its editing keys, OK and Cancel, and
//! the last error on the dialog's own line.

use crossterm::event::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::Theme;
use crate::tui::draw::{centered, framed, hit, paint, put};

/// Whether the dialog saves or loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogKind {
    /// Ctrl-S: write the game to a file.
    Save,
    /// Ctrl-O: replace the game by a file's.
    Load,
}

/// What an event did to the dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialogResult {
    /// Esc or Cancel: close it.
    Cancel,
    /// Enter or OK with this file name.
    Submit(String),
    /// The field or the dialog changed: redraw.
    Changed,
    /// Nothing happened.
    Ignored,
}

/// A save or load dialog.
#[derive(Debug, Clone)]
pub struct Dialog {
    kind: DialogKind,
    field: Vec<char>,
    /// The cursor, as a character index into `field` (0..=len).
    cursor: usize,
    error: Option<String>,
    ok: Rect,
    cancel: Rect,
    field_rect: Rect,
}

impl Dialog {
    /// A dialog offering `name`, the cursor at its end.
    pub fn new(kind: DialogKind, name: &str) -> Dialog {
        let field: Vec<char> = name.chars().collect();
        Dialog {
            kind,
            cursor: field.len(),
            field,
            error: None,
            ok: Rect::default(),
            cancel: Rect::default(),
            field_rect: Rect::default(),
        }
    }

    /// Save or load.
    pub fn kind(&self) -> DialogKind {
        self.kind
    }

    /// The file name typed so far.
    pub fn text(&self) -> String {
        self.field.iter().collect()
    }

    /// Shows why the last attempt failed; the dialog stays open.
    pub fn set_error(&mut self, error: String) {
        self.error = Some(error);
    }

    /// Acts on one event.
    pub fn handle(&mut self, event: &Event) -> DialogResult {
        match event {
            Event::Key(key) => {
                if key.modifiers.contains(KeyModifiers::CONTROL) {
                    return match key.code {
                        KeyCode::Char('a') => self.move_to(0),
                        KeyCode::Char('e') => self.move_to(self.field.len()),
                        KeyCode::Char('u') => {
                            self.field.drain(..self.cursor);
                            self.move_to(0)
                        }
                        _ => DialogResult::Ignored,
                    };
                }
                match key.code {
                    KeyCode::Esc => DialogResult::Cancel,
                    KeyCode::Enter => DialogResult::Submit(self.text()),
                    KeyCode::Char(c) => {
                        self.field.insert(self.cursor, c);
                        self.cursor += 1;
                        self.error = None;
                        DialogResult::Changed
                    }
                    KeyCode::Backspace if self.cursor > 0 => {
                        self.cursor -= 1;
                        self.field.remove(self.cursor);
                        self.error = None;
                        DialogResult::Changed
                    }
                    KeyCode::Delete if self.cursor < self.field.len() => {
                        self.field.remove(self.cursor);
                        self.error = None;
                        DialogResult::Changed
                    }
                    KeyCode::Left => self.move_to(self.cursor.saturating_sub(1)),
                    KeyCode::Right => self.move_to((self.cursor + 1).min(self.field.len())),
                    KeyCode::Home => self.move_to(0),
                    KeyCode::End => self.move_to(self.field.len()),
                    _ => DialogResult::Ignored,
                }
            }
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column,
                row,
                ..
            }) => {
                if hit(self.ok, *column, *row) {
                    DialogResult::Submit(self.text())
                } else if hit(self.cancel, *column, *row) {
                    DialogResult::Cancel
                } else if hit(self.field_rect, *column, *row) {
                    let at = usize::from(column - self.field_rect.x) + self.scroll();
                    self.move_to(at.min(self.field.len()))
                } else {
                    DialogResult::Ignored
                }
            }
            Event::Paste(text) => {
                for c in text.chars().filter(|c| !c.is_control()) {
                    self.field.insert(self.cursor, c);
                    self.cursor += 1;
                }
                DialogResult::Changed
            }
            _ => DialogResult::Ignored,
        }
    }

    fn move_to(&mut self, cursor: usize) -> DialogResult {
        if cursor == self.cursor {
            return DialogResult::Ignored;
        }
        self.cursor = cursor;
        DialogResult::Changed
    }

    /// The first character shown, so the cursor stays inside the field.
    fn scroll(&self) -> usize {
        let visible = usize::from(self.field_rect.width.max(1)) - 1;
        self.cursor.saturating_sub(visible)
    }

    /// Draws the dialog centred in `area` and remembers its buttons for the mouse.
    pub fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let rect = centered(area, 60, 8);
        let title = match self.kind {
            DialogKind::Save => " Save the game ",
            DialogKind::Load => " Load a game ",
        };
        let inner = framed(frame, rect, title, theme, (2, 1, 1));
        let buf = frame.buffer_mut();
        let x = put(buf, inner, inner.x, inner.y, "File: ", theme.normal);
        self.field_rect =
            Rect::new(x, inner.y, inner.right().saturating_sub(x), 1).intersection(inner);
        paint(buf, inner, self.field_rect, theme.selected);
        let scroll = self.scroll();
        let shown: String = self.field.iter().skip(scroll).collect();
        put(buf, self.field_rect, x, inner.y, &shown, theme.selected);
        let cursor_x = x + u16::try_from(self.cursor - scroll).unwrap_or(0);
        let cursor = Rect::new(cursor_x, inner.y, 1, 1);
        paint(buf, self.field_rect, cursor, theme.cursor);
        if let Some(error) = &self.error {
            put(buf, inner, inner.x, inner.y + 2, error, theme.bad);
        } else {
            let help = "Enter: OK · Esc: cancel · ←→ Home End Backspace edit";
            put(buf, inner, inner.x, inner.y + 2, help, theme.dim);
        }
        let y = inner.y + 4;
        let ok_end = put(buf, inner, inner.x, y, "[ OK ]", theme.cursor);
        self.ok = Rect::new(inner.x, y, ok_end - inner.x, 1).intersection(inner);
        let cancel_x = ok_end + 2;
        let cancel_end = put(buf, inner, cancel_x, y, "[ Cancel ]", theme.normal);
        self.cancel =
            Rect::new(cancel_x, y, cancel_end.saturating_sub(cancel_x), 1).intersection(inner);
    }
}
