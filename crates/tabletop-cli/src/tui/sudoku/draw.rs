//! Drawing a sudoku [`Scene`] (the local or the online screen's): the grid in the largest
//! cell style that fits the area, the side panel with the palette and the hint, report or
//! table lines, and the rectangles the mouse hits.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use sudoku_core::logic::Hint;
use sudoku_core::{Size, symbol_char};

use super::Button;
use super::layout::{GridLayout, Labels, Notes, View};
use super::scene::Scene;
use crate::tui::Theme;

/// The narrowest side panel (the palette of a 25×25 grid is 19 columns wide).
const PANEL_MIN: u16 = 20;
/// The widest side panel (longer lines of text are harder to read).
const PANEL_MAX: u16 = 44;

/// Writes `text` at (x, y), clipped to `clip`; returns the column after it.
fn put(buf: &mut Buffer, clip: Rect, x: usize, y: usize, text: &str, style: Style) -> usize {
    if let (Ok(x), Ok(y)) = (u16::try_from(x), u16::try_from(y)) {
        crate::tui::draw::put(buf, clip, x, y, text, style);
    }
    x + text.chars().count()
}

/// A strong mark (a hint's cells, the last change, a wrong entry) as a background: the
/// role's colour behind the text (or, for a role without a colour, as in the monochrome
/// theme, its modifiers). Light marks use [`Theme::shade`].
fn fill(role: Style) -> Style {
    match role.fg {
        Some(colour) => Style::new().bg(colour),
        None => Style::new().add_modifier(role.add_modifier),
    }
}

/// The state of one cell that decides its look.
struct Look {
    text: Style,
    fill: Style,
}

/// Draws the screen into `area` and returns where the cells and buttons went.
pub(super) fn draw(scene: &Scene, buf: &mut Buffer, area: Rect, theme: &Theme) -> View {
    let clip = area.intersection(buf.area);
    let mut view = View::default();
    if clip.is_empty() {
        return view;
    }
    let size = scene.grid.size();
    let (w, h) = (usize::from(clip.width), usize::from(clip.height));
    // The largest grid that leaves room for the panel, else the largest alone.
    let fits = |g: &GridLayout, room: usize| g.outer().0 <= room && g.outer().1 <= h;
    let layouts = GridLayout::candidates(size, clip);
    let with_panel = w
        .checked_sub(usize::from(PANEL_MIN) + 2)
        .and_then(|room| layouts.iter().find(|g| fits(g, room)));
    let (grid, panel) = match with_panel {
        Some(g) => (*g, true),
        None => match layouts.iter().find(|g| fits(g, w)) {
            Some(g) => (*g, false),
            None => {
                too_small(buf, clip, size, &layouts, theme);
                return view;
            }
        },
    };
    draw_grid(scene, buf, clip, &grid, theme);
    view.grid = Some(grid);
    if panel {
        let x = grid.x + grid.width() + 2;
        let right = usize::from(clip.right()).min(x + usize::from(PANEL_MAX));
        // Inside the clip by the choice of the layout.
        let rect = Rect::new(x as u16, clip.y, (right - x) as u16, clip.height);
        view.buttons = draw_panel(scene, buf, rect, theme);
    }
    view
}

/// The message when even the smallest grid does not fit.
fn too_small(buf: &mut Buffer, clip: Rect, size: Size, layouts: &[GridLayout], theme: &Theme) {
    let need = layouts
        .iter()
        .map(|g| g.outer())
        .min_by_key(|&(w, h)| w * h)
        .unwrap_or((0, 0));
    // The host adds a title line and a status line around the screen's area.
    let text = format!(
        "The {size} grid needs a terminal area of at least {}×{} (this one gives {}×{}): \
         a window of {}×{} or more, {} columns wide with the palette. Enlarge the window, \
         choose a smaller size in the menu, or play with --plain.",
        need.0,
        need.1,
        clip.width,
        clip.height,
        need.0,
        need.1 + 2,
        need.0 + usize::from(PANEL_MIN) + 2
    );
    Paragraph::new(text)
        .style(theme.bad)
        .wrap(Wrap { trim: true })
        .render(clip, buf);
}

/// The cells the hint on show uses: (pattern and placement cells, elimination cells).
fn hint_cells(scene: &Scene) -> (Vec<usize>, Vec<usize>, Option<usize>) {
    match scene.hint {
        Some(Hint::Step(step)) => {
            let mut used = step.cells.clone();
            used.extend(step.placements.iter().map(|p| p.0));
            let changed = step.eliminations.iter().map(|e| e.0).collect();
            (used, changed, None)
        }
        Some(Hint::WrongMarks { cell, .. }) => (vec![*cell], Vec::new(), None),
        Some(Hint::WrongEntry { cell, .. }) => (Vec::new(), Vec::new(), Some(*cell)),
        _ => (Vec::new(), Vec::new(), None),
    }
}

fn draw_grid(scene: &Scene, buf: &mut Buffer, clip: Rect, g: &GridLayout, theme: &Theme) {
    let size = scene.grid.size();
    let n = g.n;
    let (cr, cc) = scene.editor.cursor;
    let selected = scene.grid.get(cr, cc);
    // The engine's conflicts of the grid as it is (the server's view's grid online).
    let conflicts: Vec<(usize, usize)> = scene
        .grid
        .conflicts()
        .into_iter()
        .flat_map(|c| c.cells)
        .collect();
    let wrong = scene.wrong;
    let (used, changed, wrong_hint) = hint_cells(scene);
    let step = match scene.hint {
        Some(Hint::Step(step)) => Some(step),
        _ => None,
    };
    let solved = scene.over;

    // Borders: box lines only, the cells of a box are set apart by their spacing. A bare
    // layout leaves out the top and bottom lines.
    let (bw, bh) = (g.width(), g.framed_height());
    let box_h = g.box_rows * g.cell_h + 1;
    for dy in 0..bh {
        if g.bare && (dy == 0 || dy == bh - 1) {
            continue;
        }
        let y = g.y + dy - usize::from(g.bare);
        let hline = dy.is_multiple_of(box_h);
        let vpos = |dx: usize| dx.is_multiple_of(g.box_width());
        for dx in 0..bw {
            let ch = match (hline, vpos(dx)) {
                (true, true) => {
                    let (top, bottom) = (dy == 0, dy == bh - 1);
                    let (left, right) = (dx == 0, dx == bw - 1);
                    match (top, bottom, left, right) {
                        (true, _, true, _) => "┌",
                        (true, _, _, true) => "┐",
                        (true, _, _, _) => "┬",
                        (_, true, true, _) => "└",
                        (_, true, _, true) => "┘",
                        (_, true, _, _) => "┴",
                        (_, _, true, _) => "├",
                        (_, _, _, true) => "┤",
                        _ => "┼",
                    }
                }
                (true, false) => "─",
                (false, true) => "│",
                (false, false) => continue,
            };
            let style = if solved { theme.good } else { theme.dim };
            put(buf, clip, g.x + dx, y, ch, style);
        }
    }
    // A dotted line between the cells of a box where they are set apart by a gap (their
    // packed notes would run together).
    if g.gap > 0 {
        for c in (0..n).filter(|c| c % g.box_cols != g.box_cols - 1) {
            let x = g.cell_x(c) + g.cell_w;
            for r in 0..n {
                for dy in 0..g.cell_h {
                    put(buf, clip, x, g.cell_y(r) + dy, "┊", theme.dim);
                }
            }
        }
    }
    if g.labels != Labels::None {
        let above = usize::from(g.labels == Labels::Above);
        for i in 0..n {
            let label_style = |on: bool| if on { theme.accent } else { theme.dim };
            let x = g.cell_x(i) + (g.cell_w - 1) / 2;
            put(
                buf,
                clip,
                x,
                g.y - above,
                &(i + 1).to_string(),
                label_style(i == cc),
            );
            let y = g.cell_y(i) + (g.cell_h - 1) / 2;
            put(
                buf,
                clip,
                g.x - 3,
                y,
                &format!("{:>2}", i + 1),
                label_style(i == cr),
            );
        }
    }

    for r in 0..n {
        for c in 0..n {
            let cell = r * n + c;
            let value = scene.grid.get(r, c);
            let peer = r == cr || c == cc || size.box_of(r, c) == size.box_of(cr, cc);
            let mut look = Look {
                text: if scene.is_given(r, c) {
                    theme.first
                } else {
                    theme.second
                },
                fill: Style::new(),
            };
            if peer {
                look.fill = theme.shade;
            }
            if value.is_some() && value == selected {
                look.fill = look.fill.patch(theme.selected);
            }
            if used.contains(&cell) {
                look.fill = look.fill.patch(fill(theme.target));
            }
            if changed.contains(&cell) {
                look.fill = look.fill.patch(fill(theme.last));
            }
            let marked_wrong = wrong.contains(&(r, c)) || wrong_hint == Some(cell);
            if marked_wrong {
                look.fill = look.fill.patch(fill(theme.bad));
            }
            if (r, c) == (cr, cc) {
                look.fill = look.fill.patch(theme.cursor);
            }
            let mut text = look.text.patch(look.fill);
            if conflicts.contains(&(r, c)) && !marked_wrong {
                text = text.patch(theme.bad);
            }
            let (x, y) = (g.cell_x(c), g.cell_y(r));
            for dy in 0..g.cell_h {
                put(buf, clip, x, y + dy, &" ".repeat(g.cell_w), look.fill);
            }
            let (my, mx) = g.digit_place();
            let mid = (x + mx, y + my);
            let notes = scene.notes(r, c);
            let placed = step.is_some_and(|s| s.placements.iter().any(|p| p.0 == cell));
            match value {
                Some(v) => {
                    let mut s = [0u8; 4];
                    put(
                        buf,
                        clip,
                        mid.0,
                        mid.1,
                        symbol_char(v).encode_utf8(&mut s),
                        text,
                    );
                }
                None if notes.is_empty() || g.notes == Notes::Marker => {
                    let (mark, style) = match (placed, notes.is_empty()) {
                        (true, _) => ("?", theme.first.patch(look.fill)),
                        (false, true) => ("·", theme.dim.patch(look.fill)),
                        (false, false) => (":", theme.normal.patch(look.fill)),
                    };
                    put(buf, clip, mid.0, mid.1, mark, style);
                }
                None => {
                    for d in notes.iter() {
                        let Some((dy, dx)) = g.note_place(d) else {
                            continue;
                        };
                        let in_step = |list: &[(usize, u8)]| list.contains(&(cell, d));
                        let role = if step.is_some_and(|s| in_step(&s.eliminations)) {
                            theme.bad
                        } else if step
                            .is_some_and(|s| in_step(&s.candidates) || in_step(&s.placements))
                        {
                            theme.first
                        } else if Some(d) == selected {
                            theme.target
                        } else {
                            theme.dim
                        };
                        let mut s = [0u8; 4];
                        let ch = symbol_char(d).encode_utf8(&mut s);
                        put(buf, clip, x + dx, y + dy, ch, role.patch(look.fill));
                    }
                }
            }
        }
    }
}

/// Lays out buttons left to right, wrapping at the panel's width; returns the next row.
struct Flow<'a> {
    buf: &'a mut Buffer,
    rect: Rect,
    x: usize,
    y: usize,
    buttons: Vec<(Rect, Button)>,
}

impl Flow<'_> {
    fn button(&mut self, label: &str, button: Button, style: Style) {
        let width = label.chars().count();
        let right = usize::from(self.rect.right());
        if self.x > usize::from(self.rect.x) && self.x + width > right {
            self.newline();
        }
        if self.y >= usize::from(self.rect.bottom()) {
            return;
        }
        put(self.buf, self.rect, self.x, self.y, label, style);
        let shown = width.min(right.saturating_sub(self.x));
        if shown > 0 {
            // Inside the panel, so inside u16.
            let r = Rect::new(self.x as u16, self.y as u16, shown as u16, 1);
            self.buttons.push((r, button));
        }
        self.x += width + 1;
    }

    fn newline(&mut self) {
        self.x = usize::from(self.rect.x);
        self.y += 1;
    }
}

fn draw_panel(scene: &Scene, buf: &mut Buffer, rect: Rect, theme: &Theme) -> Vec<(Rect, Button)> {
    let size = scene.grid.size();
    let n = size.side();
    let editor = scene.editor;
    let (cr, cc) = editor.cursor;
    let (x, mut y) = (usize::from(rect.x), usize::from(rect.y));

    // The mode and the selected cell.
    let mode = if editor.notes_mode {
        Span::styled(" pencil marks ", theme.selected)
    } else {
        Span::styled("digits", theme.accent)
    };
    let mut after = put(buf, rect, x, y, "Mode: ", theme.normal);
    after = put(buf, rect, after, y, &mode.content, mode.style);
    put(buf, rect, after, y, "  (p)", theme.dim);
    y += 1;
    let name = format!("r{}c{}", cr + 1, cc + 1);
    let what = match scene.grid.get(cr, cc) {
        Some(v) if scene.is_given(cr, cc) => format!("{name}: given {}", symbol_char(v)),
        Some(v) => format!("{name}: {}", symbol_char(v)),
        None => {
            let notes: Vec<String> = scene
                .notes(cr, cc)
                .iter()
                .map(|d| symbol_char(d).to_string())
                .collect();
            if notes.is_empty() {
                format!("{name}: empty")
            } else {
                format!("{name}: notes {}", notes.join(" "))
            }
        }
    };
    let what = match editor.pending {
        Some((first, _)) => format!("{name}: typing {first}_"),
        None => what,
    };
    put(buf, rect, x, y, &what, theme.normal);
    y += 2;

    // The keypad: the digits in the shape of a box, a digit placed N times dimmed.
    let counts = {
        let mut counts = vec![0usize; n + 1];
        for &v in scene.grid.cells() {
            counts[usize::from(v)] += 1;
        }
        counts
    };
    let selected = scene.grid.get(cr, cc);
    let notes = scene.notes(cr, cc);
    let mut flow = Flow {
        buf,
        rect,
        x,
        y,
        buttons: Vec::new(),
    };
    let per_row = size.box_cols();
    for d in 1..=n as u8 {
        let style = if Some(d) == selected {
            theme.selected
        } else if editor.notes_mode && notes.contains(d) {
            theme.target
        } else if counts[usize::from(d)] >= n {
            theme.dim
        } else {
            theme.normal
        };
        flow.button(&format!("[{}]", symbol_char(d)), Button::Digit(d), style);
        if usize::from(d) % per_row == 0 {
            flow.newline();
        }
    }
    flow.newline();
    for &(label, button, tone) in &scene.buttons {
        flow.button(label, button, tone.style(theme));
    }
    flow.newline();
    let buttons = std::mem::take(&mut flow.buttons);
    let y = flow.y + 1;

    // The words: the end, the hint, the report, the table, or a reminder of the keys.
    let lines: Vec<Line> = scene
        .message
        .iter()
        .map(|(text, tone)| Line::styled(text.clone(), tone.style(theme)))
        .collect();
    let bottom = usize::from(rect.bottom());
    if y < bottom {
        // Inside the panel.
        let area = Rect::new(rect.x, y as u16, rect.width, (bottom - y) as u16);
        Paragraph::new(Text::from(lines))
            .wrap(Wrap { trim: true })
            .render(area, flow.buf);
    }
    buttons
}
