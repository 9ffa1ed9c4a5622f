//! Drawing the nardy screen: the board (points, bar, trays), the side panel (players, pips,
//! dice, the turn) and the bottom panel (hints or a reminder of the keys).

use nardy_core::{Color, Position};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::{Button, NardyScreen, Spot};
use crate::tui::Theme;
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

/// Draws the screen into `area` and returns the rectangles of the spots and buttons.
pub(super) fn draw(screen: &NardyScreen, buf: &mut Buffer, area: Rect, theme: &Theme) -> Hits {
    let mut c = Canvas { buf, area };
    let slots = (area.height.saturating_sub(5 + BOTTOM_ROWS) / 2).clamp(1, MAX_SLOTS);
    let height = 5 + 2 * slots;
    let pos = screen.shown_position();
    let hits = draw_board(screen, &mut c, &pos, slots, theme);
    draw_panel(screen, &mut c, &pos, theme);
    let buttons = draw_buttons(screen, &mut c, height.saturating_sub(2).max(11), theme);
    draw_bottom(screen, &mut c, height, theme);
    (hits, buttons)
}

/// The buttons of a person's turn on row `y` of the side panel.
fn draw_buttons(
    screen: &NardyScreen,
    c: &mut Canvas,
    y: u16,
    theme: &Theme,
) -> Vec<(Rect, Button)> {
    let Some(b) = &screen.builder else {
        return Vec::new();
    };
    let mut buttons = vec![(
        Button::Hints,
        if screen.hints.is_some() {
            "[hide hints]"
        } else {
            "[hints]"
        },
    )];
    if !b.played().is_empty() {
        buttons.insert(0, (Button::StepBack, "[step back]"));
    } else if screen.info.only.is_some() {
        buttons.insert(0, (Button::OnlyTurn, "[play it]"));
    }
    let mut x = PANEL_X;
    let mut out = Vec::new();
    for (button, label) in buttons {
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

fn draw_board(
    screen: &NardyScreen,
    c: &mut Canvas,
    pos: &Position,
    slots: u16,
    theme: &Theme,
) -> Vec<(Rect, Spot)> {
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
    let targets = screen.targets();
    let last = screen.last_steps();
    let mover = screen
        .builder
        .as_ref()
        .map_or(pos.side_to_move(), |b| b.start().side_to_move());
    let mut hits = Vec::new();
    for row in 0..2u8 {
        for col in 0..14u8 {
            let Some(spot) = Spot::at(row, col) else {
                continue;
            };
            let x = column_x(col);
            let marks = Marks {
                cursor: screen.cursor == spot,
                selected: matches!(spot, Spot::Point(p) if screen.selected == Some(p)),
                target: match spot {
                    Spot::Point(p) => targets.contains(&p),
                    Spot::Tray(t) => t == mover && targets.contains(&0),
                },
                last_from: matches!(spot, Spot::Point(p) if last.iter().any(|s| s.from() == p)),
                last_to: match spot {
                    Spot::Point(p) => last.iter().any(|s| s.to() == Some(p)),
                    Spot::Tray(t) => {
                        t == screen.last_color() && last.iter().any(|s| s.is_bear_off())
                    }
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

/// The dice of the turn shown, each with whether it is still to play.
fn dice_marks(screen: &NardyScreen) -> Vec<(u8, bool)> {
    let mut remaining = screen.remaining_dice();
    screen
        .game()
        .dice()
        .to_play()
        .into_iter()
        .map(|d| match remaining.iter().position(|&r| r == d) {
            Some(i) => {
                remaining.remove(i);
                (d, true)
            }
            None => (d, false),
        })
        .collect()
}

fn draw_panel(screen: &NardyScreen, c: &mut Canvas, pos: &Position, theme: &Theme) {
    let x = PANEL_X;
    let to_move = screen.game().side_to_move();
    let over = screen.game().outcome();
    for (i, color) in Color::ALL.into_iter().enumerate() {
        let y = 2 * i as u16;
        c.put(x, y, glyph(color), checker_style(color, theme));
        let name = format!("{color}: {}", screen.player_name(color));
        let style = if over.is_none() && color == to_move {
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
    if let Some(outcome) = over {
        c.put(x, y, &format!("{outcome}."), theme.good);
        c.put(x, y + 1, "n: new game", theme.dim);
        y += 3;
    } else {
        let head = format!("{to_move} to play ");
        c.put(x, y, &head, theme.accent);
        let mut dx = x + head.chars().count() as u16;
        for (d, unused) in dice_marks(screen) {
            let style = if unused { theme.accent } else { theme.dim };
            c.put(dx, y, &format!("[{d}]"), style);
            dx += 4;
        }
        y += 1;
        let played = match (&screen.anim, &screen.builder) {
            (Some(a), _) => a.builder.played().to_vec(),
            (None, Some(b)) => b.played().to_vec(),
            _ => Vec::new(),
        };
        if !played.is_empty() {
            let text: Vec<String> = played.iter().map(ToString::to_string).collect();
            c.put(x, y, &format!("played: {}", text.join(" ")), theme.normal);
        }
        y += 1;
        let note = if screen.info.passing {
            Some("no legal move: the turn passes".to_owned())
        } else if let (Some(b), Some(p)) = (&screen.builder, screen.selected) {
            let to: Vec<String> = b
                .destinations(p)
                .iter()
                .map(|&d| if d == 0 { "off".into() } else { d.to_string() })
                .collect();
            Some(format!("{p} goes to: {}", to.join(" ")))
        } else if screen.builder.is_some() {
            match &screen.info.only {
                Some(mv) => Some(format!("only turn: {mv} (a)")),
                None => Some(format!("{} legal turns", screen.info.moves)),
            }
        } else if screen.anim.is_some() || screen.settings.player(to_move).is_some() {
            Some("the bot is moving…".to_owned())
        } else {
            None
        };
        if let Some(note) = note {
            c.put(x, y, &note, theme.dim);
        }
        y += 2;
    }
    if let Some(r) = screen.game().history().last() {
        c.put(
            x,
            y,
            &format!("last: {} {}-{}", r.color, r.dice.high(), r.dice.low()),
            theme.last,
        );
        c.put(x + 2, y + 1, &r.mv.to_string(), theme.last);
    }
}

fn draw_bottom(screen: &NardyScreen, c: &mut Canvas, top: u16, theme: &Theme) {
    let Some(hints) = &screen.hints else {
        c.put(
            0,
            top,
            "Enter/click select, then a ◆ point · Tab next · Backspace/right-click step back",
            theme.dim,
        );
        return;
    };
    c.put(
        0,
        top,
        &format!(
            "{:<29} {:>6}  {:>6}  {:>5}",
            format!(
                "Hints ({}): {} turns",
                hints.level.name(),
                hints.ranked.len()
            ),
            "equity",
            "loss",
            "win"
        ),
        theme.accent,
    );
    let rows = c.area.height.saturating_sub(top + 1);
    for (i, r) in hints.ranked.iter().take(usize::from(rows)).enumerate() {
        let style = if i == 0 { theme.good } else { theme.normal };
        c.put(
            0,
            top + 1 + i as u16,
            &format!(
                "{:>3}. {:<24} {:+.3}  {:>6.3}  {:>4.1}%",
                i + 1,
                r.mv.to_string(),
                r.equity,
                0.0 - r.loss + 0.0,
                100.0 * r.probabilities.win
            ),
            style,
        );
    }
}
