//! Small drawing helpers shared by the host and the screens: they clip to the area, so a
//! drawing never panics at any size.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Clear};

use super::Theme;

/// Writes `text` at (`x`, `y`) in `style`, clipped to `area` (and to the buffer); returns
/// the column after the last cell written.
pub fn put(buf: &mut Buffer, area: Rect, x: u16, y: u16, text: &str, style: Style) -> u16 {
    let area = area.intersection(buf.area);
    if y < area.top() || y >= area.bottom() || x < area.left() || x >= area.right() {
        return x;
    }
    let width = usize::from(area.right() - x);
    buf.set_stringn(x, y, text, width, style).0
}

/// Paints the style of every cell of `rect` that lies inside `area`.
pub fn paint(buf: &mut Buffer, area: Rect, rect: Rect, style: Style) {
    buf.set_style(rect.intersection(area).intersection(buf.area), style);
}

/// A `width`×`height` rectangle centred in `area`, shrunk to fit.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// Whether the cell (`column`, `row`) of the screen lies in `rect`.
pub fn hit(rect: Rect, column: u16, row: u16) -> bool {
    rect.contains(Position::new(column, row))
}

/// The number of terminal cells `text` takes (characters; the games draw no wide ones).
pub fn width(text: &str) -> u16 {
    u16::try_from(text.chars().count()).unwrap_or(u16::MAX)
}

/// Clears `rect` and draws a dim border round it with `title` in the accent style (the
/// host's menus, help and dialogs); returns the inside, `side` cells in from the left and
/// right edges and `top` and `bottom` rows in.
pub fn framed(
    frame: &mut Frame,
    rect: Rect,
    title: &str,
    theme: &Theme,
    (side, top, bottom): (u16, u16, u16),
) -> Rect {
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Block::default()
            .borders(Borders::ALL)
            .title(title)
            .border_style(theme.dim)
            .title_style(theme.accent),
        rect,
    );
    Rect::new(
        rect.x + side.min(rect.width),
        rect.y + top.min(rect.height),
        rect.width.saturating_sub(2 * side),
        rect.height.saturating_sub(top + bottom),
    )
}
