//! The help overlay (?, F1): the host's keys, then the game's, scrolling when they do not
//! fit; on the games menu, its keys.

use crossterm::event::{Event, KeyCode, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;

use super::App;
use crate::tui::draw::{centered, framed, put, width, wrap};
use crate::tui::theme::Theme;

/// The keys the host answers, for the help overlay.
pub(super) const HOST_KEYS: &[(&str, &str)] = &[
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

impl App {
    /// Scrolls the help when it does not fit (↑↓ jk, PgUp/PgDn, the wheel); false for any
    /// other event, which closes it.
    pub(super) fn scroll_help(&mut self, event: &Event) -> bool {
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

/// Draws the help overlay: the host's keys, then the game's (the games menu's keys when
/// `games_menu` holds its number of games); returns how far it can scroll.
pub(super) fn draw_help(
    frame: &mut Frame,
    area: Rect,
    theme: &Theme,
    game_keys: &[(&str, &str)],
    games_menu: Option<usize>,
    scroll: usize,
) -> usize {
    let mut lines: Vec<(String, String, bool)> = Vec::new();
    if let Some(games) = games_menu {
        lines.push(("↑↓ j k".to_owned(), "choose a game".to_owned(), false));
        let play = format!("Enter 1-{}", games.clamp(1, 9));
        lines.push((play, "play it".to_owned(), false));
        lines.push((
            "click".to_owned(),
            "play the game clicked".to_owned(),
            false,
        ));
        lines.push(("q Esc".to_owned(), "quit".to_owned(), false));
    } else {
        lines.extend(
            HOST_KEYS
                .iter()
                .map(|(k, w)| ((*k).to_owned(), (*w).to_owned(), false)),
        );
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
