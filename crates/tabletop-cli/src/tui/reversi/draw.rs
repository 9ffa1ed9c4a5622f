//! Drawing the reversi screen: the board with its grid, discs, legal moves, the last move
//! and the hint, and the panel beside it with the counts, the turn and the keys. It draws
//! a [`Board`], which the local screen makes from its table and the online screen from
//! the server's view.

use crossterm::event::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use reversi_core::{Color, Move, Position, Square, SquareSet};

use crate::tui::Theme;
use crate::tui::draw::{put, width};

/// Everything the reversi screen draws.
pub(super) struct Board {
    pub pos: Position,
    /// The cursor: file and rank, 0..8.
    pub cursor: (u8, u8),
    /// The squares marked as legal moves.
    pub legal: SquareSet,
    /// The last move shown, its side and the discs it flipped.
    pub last: Option<(Color, Move, SquareSet)>,
    /// The hint's square and its line on the panel.
    pub hint: Option<(Square, String)>,
    /// Black's and White's players.
    pub names: [String; 2],
    /// What the side to move is doing, or the result; whether the game is over.
    pub turn: String,
    pub over: bool,
    /// The keys under the panel.
    pub keys: Vec<(&'static str, &'static str)>,
    /// Lines after the keys (the online table's), each with whether it is bad news.
    pub lines: Vec<(String, bool)>,
}

/// The keys the local screen lists under its panel.
pub(super) const LOCAL_KEYS: [(&str, &str); 4] = [
    ("arrows/hjkl", " move the cursor"),
    ("Enter/click", " play there"),
    ("t", " hint    u/U undo/redo"),
    ("Esc", " menu    ? keys"),
];

/// Where the board was drawn, for mouse hit-testing.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Geometry {
    /// The top-left cell of a1 (the grid's corner when `grid`).
    x: u16,
    y: u16,
    cell_w: u16,
    cell_h: u16,
    grid: bool,
}

impl Geometry {
    /// The cell where a square's disc is drawn (the middle of its cell).
    pub(super) fn middle(&self, file: u8, rank: u8) -> (u16, u16) {
        let off = u16::from(self.grid);
        let (inner_w, inner_h) = (self.cell_w - off, self.cell_h - off);
        (
            self.x + off + u16::from(file) * self.cell_w + (inner_w - 1) / 2,
            self.y + off + u16::from(rank) * self.cell_h + (inner_h - 1) / 2,
        )
    }

    pub(super) fn square_at(&self, column: u16, row: u16) -> Option<Square> {
        if self.cell_w == 0 || column < self.x || row < self.y {
            return None;
        }
        let (mut dx, mut dy) = (column - self.x, row - self.y);
        if self.grid {
            // A click on a grid line counts for the cell right of it / below it.
            dx = dx.saturating_sub(1);
            dy = dy.saturating_sub(1);
        }
        let (file, rank) = (dx / self.cell_w, dy / self.cell_h);
        if file >= 8 || rank >= 8 {
            return None;
        }
        Square::from_coords(file as u8, rank as u8)
    }
}

/// What a key or the mouse did to the board's cursor, the same offline and online.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CursorInput {
    /// The cursor moved (or the mouse went over another square).
    Moved,
    /// Enter, space or a click: play this square.
    Play(Square),
    /// Not a board key or not on the board.
    Other,
}

/// Arrow keys and hjkl move `cursor` (file, rank) round the board, Home and End go to the
/// first and last file, Enter and space play the square under it.
pub(super) fn cursor_key(cursor: &mut (u8, u8), code: KeyCode) -> CursorInput {
    let step = |c: u8, d: i8| (c as i8 + d).rem_euclid(8) as u8;
    match code {
        KeyCode::Left | KeyCode::Char('h') => cursor.0 = step(cursor.0, -1),
        KeyCode::Right | KeyCode::Char('l') => cursor.0 = step(cursor.0, 1),
        KeyCode::Up | KeyCode::Char('k') => cursor.1 = step(cursor.1, -1),
        KeyCode::Down | KeyCode::Char('j') => cursor.1 = step(cursor.1, 1),
        KeyCode::Home => cursor.0 = 0,
        KeyCode::End => cursor.0 = 7,
        KeyCode::Enter | KeyCode::Char(' ') => {
            return Square::from_coords(cursor.0, cursor.1)
                .map_or(CursorInput::Other, CursorInput::Play);
        }
        _ => return CursorInput::Other,
    }
    CursorInput::Moved
}

/// A left click plays the square under the mouse (and puts the cursor there); moving over
/// the board moves the cursor.
pub(super) fn cursor_mouse(
    cursor: &mut (u8, u8),
    geometry: &Geometry,
    mouse: &MouseEvent,
) -> CursorInput {
    let Some(sq) = geometry.square_at(mouse.column, mouse.row) else {
        return CursorInput::Other;
    };
    let at = (sq.file(), sq.rank());
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            *cursor = at;
            CursorInput::Play(sq)
        }
        MouseEventKind::Moved if at != *cursor => {
            *cursor = at;
            CursorInput::Moved
        }
        _ => CursorInput::Other,
    }
}

/// Lays `b` out in `area` and draws the board and the panel; where the board went.
pub(super) fn draw(b: &Board, frame: &mut Frame, area: Rect, theme: &Theme) -> Geometry {
    if area.width == 0 || area.height == 0 {
        return Geometry::default();
    }
    // The full board: 8 cells of 4×2 with grid lines, plus letters and numbers; 6×3
    // cells when the terminal is large, 2×1 without lines when it is very small.
    let panel_w = 42u16;
    let grid = area.width >= 36 && area.height >= 18;
    let large = area.width >= 2 + 49 + 3 + panel_w && area.height >= 26;
    let (cell_w, cell_h) = match (grid, large) {
        (_, true) => (6, 3),
        (true, false) => (4, 2),
        (false, _) => (2, 1),
    };
    let grid = grid || large;
    let board_w = 2 + 8 * cell_w + u16::from(grid);
    let board_h = 1 + 8 * cell_h + u16::from(grid);
    let total = board_w + 3 + panel_w;
    let left = area.x + area.width.saturating_sub(total) / 2;
    let top = area.y + area.height.saturating_sub(board_h) / 2;
    let board = Rect::new(left, top, board_w, board_h).intersection(area);
    let geometry = Geometry {
        x: left + 2,
        y: top + 1,
        cell_w,
        cell_h,
        grid,
    };
    draw_board(b, geometry, frame, area, theme, board);
    let panel_x = left + board_w + 3;
    if panel_x < area.right() {
        let panel = Rect::new(
            panel_x,
            top,
            area.right() - panel_x,
            area.bottom().saturating_sub(top),
        );
        draw_panel(b, frame, area, theme, panel);
    }
    geometry
}

/// A colour's disc.
pub(super) fn glyph(color: Color) -> &'static str {
    match color {
        Color::Black => "●",
        Color::White => "○",
    }
}

fn disc_style(color: Color, theme: &Theme) -> Style {
    match color {
        Color::Black => theme.first,
        Color::White => theme.second,
    }
}

fn draw_board(b: &Board, g: Geometry, frame: &mut Frame, area: Rect, theme: &Theme, board: Rect) {
    let (pos, legal, last) = (b.pos, b.legal, b.last);
    let hint = b.hint.as_ref().map(|(sq, _)| *sq);
    let buf = frame.buffer_mut();
    let off = u16::from(g.grid);
    // File letters above, rank numbers left.
    for i in 0..8u8 {
        let (x, _) = g.middle(i, 0);
        let (_, y) = g.middle(0, i);
        let letter = char::from(b'a' + i).to_string();
        put(buf, area, x, board.y, &letter, theme.dim);
        put(buf, area, board.x, y, &(i + 1).to_string(), theme.dim);
    }
    if g.grid {
        for row in 0..=8u16 {
            let y = g.y + row * g.cell_h;
            let (left, mid, right) = match row {
                0 => ('┌', '┬', '┐'),
                8 => ('└', '┴', '┘'),
                _ => ('├', '┼', '┤'),
            };
            let mut line = String::new();
            for col in 0..8 {
                line.push(if col == 0 { left } else { mid });
                line.push_str(&"─".repeat(usize::from(g.cell_w - 1)));
            }
            line.push(right);
            put(buf, area, g.x, y, &line, theme.dim);
            if row < 8 {
                for dy in 1..g.cell_h {
                    for col in 0..=8u16 {
                        put(buf, area, g.x + col * g.cell_w, y + dy, "│", theme.dim);
                    }
                }
            }
        }
    }
    let inner_w = g.cell_w - off;
    for sq in Square::ALL {
        let x = g.x + off + u16::from(sq.file()) * g.cell_w;
        let y = g.y + off + u16::from(sq.rank()) * g.cell_h;
        let mut base = theme.normal;
        if hint == Some(sq) {
            base = theme.selected;
        }
        if (sq.file(), sq.rank()) == b.cursor {
            base = theme.cursor;
        }
        let is_last = matches!(last, Some((_, Move::Place(s), _)) if s == sq);
        let flipped = last.is_some_and(|(_, _, f)| f.contains(sq));
        let (text, style) = match pos.piece_at(sq) {
            Some(color) => {
                let style = if is_last || flipped {
                    theme.last
                } else {
                    disc_style(color, theme)
                };
                let glyph = glyph(color);
                if is_last && inner_w >= 3 {
                    (format!("[{glyph}]"), style)
                } else {
                    (glyph.to_owned(), style)
                }
            }
            None if legal.contains(sq) => ("·".to_owned(), theme.target),
            None => (String::new(), theme.normal),
        };
        for dy in 0..g.cell_h - off {
            let blank = " ".repeat(usize::from(inner_w));
            put(buf, area, x, y + dy, &blank, base);
        }
        let (mx, ty) = g.middle(sq.file(), sq.rank());
        let tx = (mx + 1).saturating_sub(width(&text).div_ceil(2)).max(x);
        put(buf, area, tx, ty, &text, base.patch(style));
    }
}

fn draw_panel(b: &Board, frame: &mut Frame, area: Rect, theme: &Theme, panel: Rect) {
    let pos = &b.pos;
    let buf = frame.buffer_mut();
    let mut y = panel.y;
    let mut line = |buf: &mut ratatui::buffer::Buffer, parts: &[(&str, Style)]| {
        let mut x = panel.x;
        for (text, style) in parts {
            x = put(buf, area.intersection(panel), x, y, text, *style);
        }
        y += 1;
    };
    line(buf, &[("Reversi", theme.accent)]);
    line(buf, &[]);
    for color in Color::ALL {
        let count = format!("{:>3}", pos.count(color));
        let who = format!(" {:<7}{:<17}", color.to_string(), b.names[color as usize]);
        let marker = if !pos.is_over() && pos.side_to_move() == color {
            ("▶ ", theme.accent)
        } else {
            ("  ", theme.normal)
        };
        line(
            buf,
            &[
                marker,
                (glyph(color), disc_style(color, theme)),
                (&who, theme.normal),
                (&count, theme.accent),
            ],
        );
    }
    line(buf, &[]);
    let turn = &b.turn;
    let turn_style = if b.over { theme.good } else { theme.normal };
    line(buf, &[(turn, turn_style)]);
    if !b.over && !pos.must_pass() {
        let n = b.legal.len();
        let moves = format!("{n} legal move{}", if n == 1 { "" } else { "s" });
        line(buf, &[("· ", theme.target), (&moves, theme.dim)]);
    } else {
        line(buf, &[]);
    }
    match b.last {
        Some((color, mv, flipped)) => {
            let text = match mv {
                Move::Pass => format!("Last: {color} passed"),
                Move::Place(_) => format!("Last: {color} {mv}, flipped {}", flipped.len()),
            };
            line(buf, &[(&text, theme.last)]);
        }
        None => line(buf, &[("No move yet", theme.dim)]),
    }
    match &b.hint {
        Some((_, text)) => line(buf, &[(text, theme.selected)]),
        None => line(buf, &[]),
    }
    line(buf, &[]);
    for &(k, what) in &b.keys {
        line(buf, &[(k, theme.accent), (what, theme.dim)]);
    }
    for (text, bad) in &b.lines {
        line(buf, &[(text, if *bad { theme.bad } else { theme.normal })]);
    }
}
