//! The menu over a game (Esc, F2): resume, new game, the screen's settings, the theme,
//! save, load, help, back to the games, quit.

use crossterm::event::{Event, KeyCode, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;

use super::dialogs::{Action, DialogKind};
use super::{App, Overlay};
use crate::tui::draw::{centered, framed, hit, put, width};
use crate::tui::screen::Choice;
use crate::tui::theme::{Theme, ThemeKind};

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

impl App {
    /// The lines of the menu in order.
    fn menu_items(&self) -> Vec<Item> {
        let choices = self.screen.as_ref().map_or(0, |s| s.choices().len());
        if self.screen.as_ref().is_some_and(|s| s.online()) {
            // The server keeps an online game: no new game, settings, save or load here.
            return vec![Item::Resume, Item::Theme, Item::Help, Item::Quit];
        }
        let mut items = vec![Item::Resume, Item::NewGame];
        items.extend((0..choices).map(Item::Choice));
        items.extend([Item::Theme, Item::Save, Item::Load, Item::Help]);
        if !self.games.is_empty() {
            items.push(Item::BackToGames);
        }
        items.push(Item::Quit);
        items
    }

    pub(super) fn menu_event(
        &mut self,
        event: &Event,
        mut selected: usize,
        rows: Vec<(Rect, u16)>,
    ) -> bool {
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

    /// The menu's lines as (label, value) text.
    pub(super) fn menu_lines(&self) -> Vec<(String, String)> {
        let choices = self
            .screen
            .as_ref()
            .map(|s| s.choices())
            .unwrap_or_default();
        menu_lines(&self.menu_items(), &choices, self.theme)
    }
}

/// `i` moved by `delta` in 0..len, wrapping.
fn cycle(i: usize, len: usize, delta: isize) -> usize {
    let len = len as isize;
    ((i as isize + delta).rem_euclid(len)) as usize
}

/// The lines of `items` as (label, value) text.
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
pub(super) fn draw_menu(
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
