//! What the battleship screens draw with: a grid with its letters and numbers, the
//! placing panel, a pen that clips, and where each thing went for the mouse ([`Layout`]).
//! What goes in the grids is the [`Scene`](super::scene::Scene)'s.

use battleship_core::{Coord, Orientation, Rules};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::placer::{Button, Placer};
use crate::tui::Theme;
use crate::tui::draw::put;

/// Where a grid's cells are on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Grid {
    /// The top-left corner of cell a1.
    x: u16,
    y: u16,
    /// A cell's width and height in terminal cells.
    cw: u16,
    ch: u16,
    cols: u8,
    rows: u8,
}

impl Grid {
    /// The cell under the terminal cell (x, y), if any.
    pub(super) fn cell_at(&self, x: u16, y: u16) -> Option<Coord> {
        if x < self.x || y < self.y {
            return None;
        }
        let col = (x - self.x) / self.cw;
        let row = (y - self.y) / self.ch;
        if col >= u16::from(self.cols) || row >= u16::from(self.rows) {
            return None;
        }
        Coord::new(col as u8, row as u8)
    }

    /// The top-left terminal cell of a grid cell.
    #[cfg(test)]
    pub(super) fn origin(&self, cell: Coord) -> (u16, u16) {
        (
            self.x + u16::from(cell.col()) * self.cw,
            self.y + u16::from(cell.row()) * self.ch,
        )
    }
}

/// Where the last drawing put the grids, buttons and the list of lengths.
#[derive(Debug, Clone, Default)]
pub(super) struct Layout {
    pub(super) mine: Option<Grid>,
    pub(super) enemy: Option<Grid>,
    pub(super) buttons: Vec<(Rect, Button)>,
    pub(super) lengths: Vec<(Rect, u8)>,
}

fn inside(r: &Rect, x: u16, y: u16) -> bool {
    x >= r.x && y >= r.y && x < r.x.saturating_add(r.width) && y < r.y.saturating_add(r.height)
}

impl Layout {
    pub(super) fn button_at(&self, x: u16, y: u16) -> Option<Button> {
        self.buttons
            .iter()
            .find(|(r, _)| inside(r, x, y))
            .map(|&(_, b)| b)
    }

    pub(super) fn length_at(&self, x: u16, y: u16) -> Option<u8> {
        self.lengths
            .iter()
            .find(|(r, _)| inside(r, x, y))
            .map(|&(_, l)| l)
    }

    /// The centre of a button (for tests that click it).
    #[cfg(test)]
    pub(super) fn button(&self, button: Button) -> Option<(u16, u16)> {
        self.buttons
            .iter()
            .find(|&&(_, b)| b == button)
            .map(|(r, _)| (r.x + r.width / 2, r.y))
    }
}

/// A pen that writes inside a clip rectangle and never outside the buffer.
pub(super) struct Pen<'a> {
    pub(super) buf: &'a mut Buffer,
    pub(super) clip: Rect,
}

impl Pen<'_> {
    /// Writes `text` from (x, y), one character per terminal cell; returns the x after it.
    pub(super) fn put(&mut self, x: u16, y: u16, text: &str, style: Style) -> u16 {
        put(self.buf, self.clip, x, y, text, style)
    }

    /// Fills a rectangle with spaces in `style`.
    pub(super) fn fill(&mut self, r: Rect, style: Style) {
        for y in r.y..r.y.saturating_add(r.height) {
            for x in r.x..r.x.saturating_add(r.width) {
                self.put(x, y, " ", style);
            }
        }
    }

    /// Writes `text` wrapped at word boundaries to `width` columns, on at most `lines`
    /// lines; returns the number of lines used.
    pub(super) fn wrap(
        &mut self,
        x: u16,
        y: u16,
        width: u16,
        lines: u16,
        text: &str,
        style: Style,
    ) -> u16 {
        let width = usize::from(width.max(1));
        let mut used = 0;
        let mut line = String::new();
        for word in text.split(' ') {
            let len = line.chars().count();
            if len > 0 && len + 1 + word.chars().count() > width {
                if used < lines {
                    self.put(x, y + used, &line, style);
                }
                used += 1;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            if used < lines {
                self.put(x, y + used, &line, style);
            }
            used += 1;
        }
        used.min(lines)
    }
}

/// What a cell shows: its glyph and style.
pub(super) type Look = (char, Style);

/// The width of the placing panel right of your grid.
pub(super) const PANEL: u16 = 30;
/// Lines under the battle grids.
pub(super) const INFO_LINES: u16 = 5;

/// The cell sizes tried, largest first.
pub(super) const SCALES: [(u16, u16); 4] = [(5, 2), (4, 2), (3, 1), (2, 1)];

pub(super) fn grid_size(rules: &Rules, (cw, ch): (u16, u16)) -> (u16, u16) {
    (
        3 + u16::from(rules.width()) * cw,
        2 + u16::from(rules.height()) * ch,
    )
}

/// One grid with its title, column letters and row numbers; `look` gives each cell and
/// `over` a style laid over it (cursor, last shot, hint).
#[allow(clippy::too_many_arguments)]
pub(super) fn grid_at(
    pen: &mut Pen,
    x: u16,
    y: u16,
    (cw, ch): (u16, u16),
    rules: &Rules,
    title: &str,
    theme: &Theme,
    look: impl Fn(Coord) -> Look,
    over: impl Fn(Coord) -> Option<Style>,
) -> Grid {
    let grid = Grid {
        x: x + 3,
        y: y + 2,
        cw,
        ch,
        cols: rules.width(),
        rows: rules.height(),
    };
    pen.put(x + 3, y, title, theme.accent);
    let mid = (cw - 1) / 2;
    for col in 0..rules.width() {
        if let Some(c) = Coord::new(col, 0) {
            let letter = c.column_letter().to_string();
            pen.put(
                grid.x + u16::from(col) * cw + mid,
                y + 1,
                &letter,
                theme.dim,
            );
        }
    }
    for row in 0..rules.height() {
        let ry = grid.y + u16::from(row) * ch;
        pen.put(x, ry, &format!("{:>2}", row + 1), theme.dim);
        for col in 0..rules.width() {
            let Some(c) = Coord::new(col, row) else {
                continue;
            };
            let (glyph, mut style) = look(c);
            if let Some(o) = over(c) {
                style = style.patch(o);
            }
            let cx = grid.x + u16::from(col) * cw;
            pen.fill(
                Rect {
                    x: cx,
                    y: ry,
                    width: cw,
                    height: ch,
                },
                style,
            );
            pen.put(cx + mid, ry, &glyph.to_string(), style);
        }
    }
    grid
}

/// The placing panel: the ships left, the orientation, the buttons and what is wrong
/// with the ship at the cursor. Returns the row under it.
pub(super) fn panel(
    s: &Placer,
    pen: &mut Pen,
    layout: &mut Layout,
    (x, y): (u16, u16),
    bad: Option<battleship_core::FleetError>,
    theme: &Theme,
) -> u16 {
    let missing = s.placement.missing();
    pen.put(x, y, "Ships to place", theme.accent);
    let mut lens: Vec<u8> = s.rules.fleet().to_vec();
    lens.dedup();
    let mut row = y + 1;
    for len in lens {
        let left = missing.iter().filter(|&&l| l == len).count();
        let total = s.rules.ships_of_len(len);
        let style = if left == 0 {
            theme.dim
        } else if len == s.selected_len {
            theme.selected
        } else {
            theme.normal
        };
        let bar: String = "■".repeat(usize::from(len));
        let text = format!("{bar:<6} {len}-cell  {left} of {total} left");
        let end = pen.put(x, row, &text, style);
        layout.lengths.push((
            Rect {
                x,
                y: row,
                width: end - x,
                height: 1,
            },
            len,
        ));
        row += 1;
    }
    row += 1;
    let o = match s.orientation {
        Orientation::Horizontal => "across",
        Orientation::Vertical => "down",
    };
    pen.put(
        x,
        row,
        &format!("Turned {o} (r, right click)"),
        theme.normal,
    );
    row += 2;
    let mut bx = x;
    for (label, button) in [
        ("[rotate]", Button::Rotate),
        ("[auto]", Button::Auto),
        ("[undo]", Button::Undo),
        ("[clear]", Button::Clear),
    ] {
        let end = pen.put(bx, row, label, theme.accent);
        layout.buttons.push((
            Rect {
                x: bx,
                y: row,
                width: end - bx,
                height: 1,
            },
            button,
        ));
        bx = end + 1;
    }
    row += 1;
    let complete = missing.is_empty();
    let start_style = if complete { theme.target } else { theme.dim };
    let end = pen.put(x, row, &format!("[{}]", s.start_label), start_style);
    layout.buttons.push((
        Rect {
            x,
            y: row,
            width: end - x,
            height: 1,
        },
        Button::Start,
    ));
    row += 2;
    let used = if complete {
        pen.wrap(
            x,
            row,
            PANEL,
            3,
            &format!(
                "Fleet complete: Enter or [{}] begins. Click a ship to move it.",
                s.start_label
            ),
            theme.good,
        )
    } else if let Some(e) = bad {
        pen.wrap(x, row, PANEL, 4, &format!("Not here: {e}"), theme.bad)
    } else {
        pen.wrap(
            x,
            row,
            PANEL,
            3,
            &format!("{}: fits. Enter or click places it.", s.cursor),
            theme.good,
        )
    };
    row + used
}
