//! Drawing the nardy screen: the board (points, bar, trays), the side panel (players, pips,
//! dice, the turn) and the bottom panel (hints, a reminder of the keys, or the online
//! table's lines). It draws a [`Scene`], which the local screen makes from its table and
//! the online screen from the server's view, so both draw the same board.

use nardy_core::{Color, Position, Step};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::{Button, Spot};
use crate::tui::Theme;
pub(super) use crate::tui::Tone;
use crate::tui::draw::put;

/// The board's width: border, tray, 6 points, bar, 6 points, tray, border.
const BOARD_WIDTH: u16 = 49;
/// Where the side panel starts.
const PANEL_X: u16 = BOARD_WIDTH + 1;
/// Rows kept under the board for the hints at the smallest layout.
const BOTTOM_ROWS: u16 = 7;
/// The most checkers drawn in one column (a taller stack shows its count).
const MAX_SLOTS: u16 = 7;

/// Writes clipped to an area, in coordinates relative to it.
struct Canvas<'a> {
    buf: &'a mut Buffer,
    area: Rect,
}

impl Canvas<'_> {
    fn put(&mut self, x: u16, y: u16, text: &str, style: Style) {
        let (x, y) = (self.area.x.saturating_add(x), self.area.y.saturating_add(y));
        put(self.buf, self.area, x, y, text, style);
    }

    /// The part of the rectangle (relative) inside the area, in screen coordinates.
    fn rect(&self, x: u16, y: u16, width: u16, height: u16) -> Rect {
        Rect::new(self.area.x + x, self.area.y + y, width, height).intersection(self.area)
    }
}

/// The x of column `col` of the cursor grid (0: left tray, 1–12: points, 13: right tray).
fn column_x(col: u8) -> u16 {
    let col = u16::from(col);
    match col {
        0 => 1,
        1..=6 => 5 + 3 * (col - 1),
        7..=12 => 26 + 3 * (col - 7),
        _ => 45,
    }
}

/// How the drawing of one column is decorated.
#[derive(Default)]
struct Marks {
    cursor: bool,
    selected: bool,
    target: bool,
    last_from: bool,
    last_to: bool,
}

fn glyph(color: Color) -> &'static str {
    match color {
        Color::White => " ○ ",
        Color::Black => " ● ",
    }
}

fn checker_style(color: Color, theme: &Theme) -> Style {
    match color {
        Color::White => theme.first,
        Color::Black => theme.second,
    }
}

/// What the mouse can click: the spots of the board and the buttons of the panel.
type Hits = (Vec<(Rect, Spot)>, Vec<(Rect, Button)>);

/// Everything the nardy screen draws: the position, the marks on it, the panel's words
/// and the bottom lines.
pub(super) struct Scene {
    /// The checkers shown (with the steps of the turn in progress played).
    pub pos: Position,
    pub cursor: Spot,
    pub selected: Option<u8>,
    /// The selected checker's destinations (0: bearing off).
    pub targets: Vec<u8>,
    /// The side whose tray a bearing-off destination marks.
    pub mover: Color,
    /// The steps marked as the last move, and their side.
    pub last: Vec<Step>,
    pub last_color: Color,
    /// White's and Black's player names.
    pub names: [String; 2],
    pub to_move: Color,
    /// The result and what to do next, once the game is over.
    pub over: Option<(String, String)>,
    /// The dice of the turn, each with whether it is still to play.
    pub dice: Vec<(u8, bool)>,
    /// The steps played so far in the turn shown.
    pub played: Vec<Step>,
    /// A dim line under the dice (the selected checker's destinations, …).
    pub note: Option<String>,
    /// The last whole turn: its heading (`last: White 6-5`) and its steps.
    pub last_turn: Option<(String, String)>,
    /// The panel's buttons.
    pub buttons: Vec<(Button, &'static str)>,
    /// The bottom panel's lines; the first is its heading.
    pub bottom: Vec<(String, Tone)>,
}

/// Draws `scene` into `area` and returns the rectangles of the spots and buttons.
pub(super) fn draw(scene: &Scene, buf: &mut Buffer, area: Rect, theme: &Theme) -> Hits {
    let mut c = Canvas { buf, area };
    let slots = (area.height.saturating_sub(5 + BOTTOM_ROWS) / 2).clamp(1, MAX_SLOTS);
    let height = 5 + 2 * slots;
    let hits = draw_board(scene, &mut c, slots, theme);
    draw_panel(scene, &mut c, theme);
    let buttons = draw_buttons(scene, &mut c, height.saturating_sub(2).max(11), theme);
    draw_bottom(scene, &mut c, height, theme);
    (hits, buttons)
}

/// The buttons of a person's turn on row `y` of the side panel.
fn draw_buttons(scene: &Scene, c: &mut Canvas, y: u16, theme: &Theme) -> Vec<(Rect, Button)> {
    let mut x = PANEL_X;
    let mut out = Vec::new();
    for &(button, label) in &scene.buttons {
        let width = label.chars().count() as u16;
        c.put(x, y, label, theme.accent);
        let rect = c.rect(x, y, width, 1);
        if !rect.is_empty() {
            out.push((rect, button));
        }
        x += width + 1;
    }
    out
}

fn draw_board(scene: &Scene, c: &mut Canvas, slots: u16, theme: &Theme) -> Vec<(Rect, Spot)> {
    let pos = &scene.pos;
    let bottom = 4 + 2 * slots;
    // The frame: borders, the tray separators and the bar.
    for y in 0..=bottom {
        let edge = y == 0 || y == bottom;
        for x in 0..BOARD_WIDTH {
            let wall = matches!(x, 0 | 4 | 44 | 48);
            let ch = match (edge, wall, y == 0) {
                (true, true, true) if x == 0 => "┌",
                (true, true, true) if x == 48 => "┐",
                (true, true, true) => "┬",
                (true, true, false) if x == 0 => "└",
                (true, true, false) if x == 48 => "┘",
                (true, true, false) => "┴",
                (true, false, _) => "─",
                (false, true, _) => "│",
                (false, false, _) if x == 24 => "┃",
                _ => continue,
            };
            c.put(x, y, ch, theme.dim);
        }
    }
    let (targets, last, mover) = (&scene.targets, &scene.last, scene.mover);
    let mut hits = Vec::new();
    for row in 0..2u8 {
        for col in 0..14u8 {
            let Some(spot) = Spot::at(row, col) else {
                continue;
            };
            let x = column_x(col);
            let marks = Marks {
                cursor: scene.cursor == spot,
                selected: matches!(spot, Spot::Point(p) if scene.selected == Some(p)),
                target: match spot {
                    Spot::Point(p) => targets.contains(&p),
                    Spot::Tray(t) => t == mover && targets.contains(&0),
                },
                last_from: matches!(spot, Spot::Point(p) if last.iter().any(|s| s.from() == p)),
                last_to: match spot {
                    Spot::Point(p) => last.iter().any(|s| s.to() == Some(p)),
                    Spot::Tray(t) => t == scene.last_color && last.iter().any(|s| s.is_bear_off()),
                },
            };
            let (label, stack) = match spot {
                Spot::Point(p) => (format!("{p:^3}"), pos.owner(p)),
                Spot::Tray(t) => ("off".to_owned(), Some((t, pos.borne_off(t)))),
            };
            let (label_y, rect) = if row == 0 {
                (1, c.rect(x, 1, 3, slots + 1))
            } else {
                (3 + 2 * slots, c.rect(x, 3 + slots, 3, slots + 1))
            };
            let label_style = if marks.cursor {
                theme.cursor
            } else if marks.selected {
                theme.selected
            } else if marks.target {
                theme.target
            } else if marks.last_from || marks.last_to {
                theme.last
            } else {
                theme.dim
            };
            c.put(x, label_y, &label, label_style);
            let slot_y = |i: u16| if row == 0 { 2 + i } else { 2 + 2 * slots - i };
            let n = stack.map_or(0, |(_, n)| u16::from(n));
            match stack {
                Some((color, _)) if n > 0 => {
                    let shown = n.min(slots);
                    for i in 0..shown {
                        let top = i + 1 == shown;
                        let style = if top && marks.selected {
                            theme.selected
                        } else if top && marks.last_to {
                            theme.last
                        } else {
                            checker_style(color, theme)
                        };
                        let text = if top && n > slots {
                            format!("{n:^3}")
                        } else {
                            glyph(color).to_owned()
                        };
                        c.put(x, slot_y(i), &text, style);
                    }
                }
                _ if matches!(spot, Spot::Point(_)) => c.put(x, slot_y(0), " · ", theme.dim),
                _ => {}
            }
            if marks.target && n < slots {
                c.put(x, slot_y(n), " ◆ ", theme.target);
            }
            if !rect.is_empty() {
                hits.push((rect, spot));
            }
        }
    }
    hits
}

fn draw_panel(scene: &Scene, c: &mut Canvas, theme: &Theme) {
    let x = PANEL_X;
    let (pos, to_move) = (&scene.pos, scene.to_move);
    for (i, color) in Color::ALL.into_iter().enumerate() {
        let y = 2 * i as u16;
        c.put(x, y, glyph(color), checker_style(color, theme));
        let name = format!("{color}: {}", scene.names[i]);
        let style = if scene.over.is_none() && color == to_move {
            theme.accent
        } else {
            theme.normal
        };
        c.put(x + 3, y, &name, style);
        c.put(
            x + 3,
            y + 1,
            &format!(
                "pips {:>3}  off {:>2}",
                pos.pip_count(color),
                pos.borne_off(color)
            ),
            theme.normal,
        );
    }
    let mut y = 5;
    if let Some((result, next)) = &scene.over {
        c.put(x, y, &format!("{result}."), theme.good);
        c.put(x, y + 1, next, theme.dim);
        y += 3;
    } else {
        let head = format!("{to_move} to play ");
        c.put(x, y, &head, theme.accent);
        let mut dx = x + head.chars().count() as u16;
        for &(d, unused) in &scene.dice {
            let style = if unused { theme.accent } else { theme.dim };
            c.put(dx, y, &format!("[{d}]"), style);
            dx += 4;
        }
        y += 1;
        if !scene.played.is_empty() {
            let text: Vec<String> = scene.played.iter().map(ToString::to_string).collect();
            c.put(x, y, &format!("played: {}", text.join(" ")), theme.normal);
        }
        y += 1;
        if let Some(note) = &scene.note {
            c.put(x, y, note, theme.dim);
        }
        y += 2;
    }
    if let Some((head, steps)) = &scene.last_turn {
        c.put(x, y, head, theme.last);
        c.put(x + 2, y + 1, steps, theme.last);
    }
}

fn draw_bottom(scene: &Scene, c: &mut Canvas, top: u16, theme: &Theme) {
    let rows = c.area.height.saturating_sub(top);
    for (i, (line, tone)) in scene.bottom.iter().take(usize::from(rows)).enumerate() {
        c.put(0, top + i as u16, line, tone.style(theme));
    }
}
