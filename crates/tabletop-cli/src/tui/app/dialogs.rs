//! The host's dialogs: save and load (a file-name field with its editing keys, OK and
//! Cancel, and the last error on the dialog's own lines) and the y/n questions before
//! quitting or dropping a game under way.

use crossterm::event::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Clear};

use super::{App, Overlay};
use crate::common::{load_file, write_atomic};
use crate::tui::draw::{centered, fit, framed, hit, paint, put, width};
use crate::tui::theme::Theme;

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
            // Two rows, broken between words; a longer error loses words from its middle
            // (a long path), never its cause at the end.
            for (i, line) in fit(error, inner.width, 2).iter().enumerate() {
                put(buf, inner, inner.x, inner.y + 2 + i as u16, line, theme.bad);
            }
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

/// What a y/n question does on yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Action {
    Quit,
    NewGame,
    BackToGames,
}

impl Action {
    pub(super) fn question(self) -> &'static str {
        match self {
            Action::Quit => "Quit the game under way?",
            Action::NewGame => "Start a new game and drop this one?",
            Action::BackToGames => "Leave this game for the games menu?",
        }
    }
}

impl App {
    /// Does `action`, asking y/n first while a game is under way.
    pub(super) fn ask(&mut self, action: Action) {
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
                if !self.games.is_empty() {
                    self.screen = None;
                } else {
                    self.quit = true;
                }
            }
        }
    }

    pub(super) fn confirm_event(
        &mut self,
        event: &Event,
        action: Action,
        yes: Rect,
        no: Rect,
    ) -> bool {
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

    pub(super) fn open_dialog(&mut self, kind: DialogKind) {
        let name = self
            .last_file
            .clone()
            .or_else(|| self.screen.as_ref().map(|s| s.save_name()))
            .unwrap_or_else(|| "tabletop.save".to_owned());
        self.overlay = Overlay::Dialog(Dialog::new(kind, &name));
    }

    pub(super) fn dialog_event(&mut self, event: &Event, mut dialog: Dialog) -> bool {
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
}

/// Draws a y/n question; returns the rectangles of the two answers.
pub(super) fn draw_confirm(
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    question: &str,
) -> (Rect, Rect) {
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
