//! Drawing the battleship screen: the grids, the placing panel and the battle lines, at
//! any size (clipped when the area is too small), and where each thing went for the
//! mouse.

use battleship_core::{Coord, Mark, Orientation, Rules, ShotResult};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::{BattleshipScreen, Button, COMPUTER, Phase, YOU};
use crate::tui::Theme;
use crate::tui::draw::put;
use tabletop_play::Viewer;
use tabletop_play::battleship::seat_of;

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
struct Pen<'a> {
    buf: &'a mut Buffer,
    clip: Rect,
}

impl Pen<'_> {
    /// Writes `text` from (x, y), one character per terminal cell; returns the x after it.
    fn put(&mut self, x: u16, y: u16, text: &str, style: Style) -> u16 {
        put(self.buf, self.clip, x, y, text, style)
    }

    /// Fills a rectangle with spaces in `style`.
    fn fill(&mut self, r: Rect, style: Style) {
        for y in r.y..r.y.saturating_add(r.height) {
            for x in r.x..r.x.saturating_add(r.width) {
                self.put(x, y, " ", style);
            }
        }
    }

    /// Writes `text` wrapped at word boundaries to `width` columns, on at most `lines`
    /// lines; returns the number of lines used.
    fn wrap(&mut self, x: u16, y: u16, width: u16, lines: u16, text: &str, style: Style) -> u16 {
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
type Look = (char, Style);

/// The width of the placing panel right of your grid.
const PANEL: u16 = 30;
/// Lines under the battle grids.
const INFO_LINES: u16 = 5;

/// The cell sizes tried, largest first.
const SCALES: [(u16, u16); 4] = [(5, 2), (4, 2), (3, 1), (2, 1)];

fn grid_size(rules: &Rules, (cw, ch): (u16, u16)) -> (u16, u16) {
    (
        3 + u16::from(rules.width()) * cw,
        2 + u16::from(rules.height()) * ch,
    )
}

/// Draws the screen into `area` and returns where things went.
pub(super) fn draw(s: &BattleshipScreen, buf: &mut Buffer, area: Rect, theme: &Theme) -> Layout {
    let clip = area.intersection(buf.area);
    let mut pen = Pen { buf, clip };
    let mut layout = Layout::default();
    if clip.is_empty() {
        return layout;
    }
    let placing = matches!(s.phase, Phase::Placing(_));
    let fits = |scale: (u16, u16)| {
        let (gw, gh) = grid_size(&s.rules, scale);
        let (w, h) = if placing {
            (gw + 3 + PANEL, gh.max(16))
        } else {
            (2 * gw + 4, gh + INFO_LINES + 1)
        };
        w <= area.width && h <= area.height
    };
    let scale = SCALES
        .iter()
        .copied()
        .find(|&sc| fits(sc))
        .unwrap_or((2, 1));
    let (gw, gh) = grid_size(&s.rules, scale);
    let total_w = if placing { gw + 3 + PANEL } else { 2 * gw + 4 };
    let x0 = area.x + area.width.saturating_sub(total_w) / 2;
    let y0 = area.y;
    match &s.phase {
        Phase::Placing(p) => {
            let candidate = s.candidate();
            let bad = s.candidate_problems();
            let look = |c: Coord| -> Look {
                if let Some(ship) = candidate.filter(|sh| sh.covers(c)) {
                    let _ = ship;
                    return (
                        '■',
                        if bad.is_some() {
                            theme.bad
                        } else {
                            theme.selected
                        },
                    );
                }
                if p.placement.ships().iter().any(|sh| sh.covers(c)) {
                    ('■', theme.first)
                } else {
                    ('·', theme.dim)
                }
            };
            // with ships left the ship itself shows where the cursor is
            let cursor = candidate.is_none().then_some(s.cursor);
            let grid = grid_at(
                &mut pen,
                x0,
                y0,
                scale,
                &s.rules,
                "Your fleet",
                theme,
                look,
                |c| (Some(c) == cursor).then_some(theme.cursor),
            );
            layout.mine = Some(grid);
            panel(s, p, &mut pen, &mut layout, x0 + gw + 3, y0, bad, theme);
        }
        Phase::Battle => {
            let Some(game) = s.game() else {
                return layout;
            };
            let over = game.is_over();
            let mine = game.view(YOU);
            let last_theirs = game
                .history()
                .iter()
                .rev()
                .find(|(p, _, _)| *p == COMPUTER)
                .map(|&(_, c, _)| c);
            let last_mine = game
                .history()
                .iter()
                .rev()
                .find(|(p, _, _)| *p == YOU)
                .map(|&(_, c, _)| c);
            let own = |c: Coord| -> Look {
                let ship = mine.fleet().ship_at(c).is_some();
                match (ship, mine.incoming().mark(c)) {
                    (true, Mark::Sunk) => ('■', theme.bad),
                    (true, Mark::Hit) => ('X', theme.bad),
                    (true, _) => ('■', theme.first),
                    (false, Mark::Miss) => ('•', theme.normal),
                    (false, Mark::Water) => ('~', theme.dim),
                    _ => ('·', theme.dim),
                }
            };
            let left = grid_at(
                &mut pen,
                x0,
                y0,
                scale,
                &s.rules,
                "Your fleet",
                theme,
                own,
                |c| (Some(c) == last_theirs).then_some(theme.last),
            );
            // the table's view of your seat: the enemy fleet only once the game is over
            let view = s.table.view(Viewer::Seat(seat_of(YOU)));
            let enemy_fleet = view.state.fleets[seat_of(COMPUTER).index()].as_ref();
            let shade = s.shade.as_deref().filter(|_| !over);
            let width = s.rules.width();
            let theirs = |c: Coord| -> Look {
                match mine.tracking().mark(c) {
                    // the end reveals the enemy fleet
                    Mark::Unknown
                        if over && enemy_fleet.is_some_and(|f| f.ship_at(c).is_some()) =>
                    {
                        ('■', theme.second)
                    }
                    // the hint's shading: the chance of a ship there
                    Mark::Unknown => match shade.and_then(|p| p.get(c.index(width))) {
                        Some(&p) if p >= 0.5 => ('▓', theme.target),
                        Some(&p) if p >= 0.25 => ('▒', theme.target),
                        Some(&p) if p >= 0.1 => ('░', theme.normal),
                        _ => ('·', theme.dim),
                    },
                    Mark::Miss => ('•', theme.normal),
                    Mark::Water => ('~', theme.dim),
                    Mark::Hit => ('X', theme.bad),
                    Mark::Sunk => ('■', theme.good),
                }
            };
            let title = if over { "Enemy fleet" } else { "Enemy waters" };
            let rx = x0 + gw + 4;
            let cursor = (!over).then_some(s.cursor);
            let right = grid_at(
                &mut pen,
                rx,
                y0,
                scale,
                &s.rules,
                title,
                theme,
                theirs,
                |c| {
                    if Some(c) == cursor && Some(c) == s.hint {
                        Some(theme.cursor.patch(theme.target))
                    } else if Some(c) == cursor {
                        Some(theme.cursor)
                    } else if Some(c) == s.hint {
                        Some(theme.target)
                    } else if Some(c) == last_mine {
                        Some(theme.last)
                    } else {
                        None
                    }
                },
            );
            layout.mine = Some(left);
            layout.enemy = Some(right);

            let y = y0 + gh + 1;
            let afloat = |lens: Vec<u8>| -> String {
                if lens.is_empty() {
                    return "none".to_owned();
                }
                let l: Vec<String> = lens.iter().map(u8::to_string).collect();
                l.join(" ")
            };
            pen.put(
                x0,
                y,
                &format!(
                    "Afloat: {}",
                    afloat(game.view(COMPUTER).tracking().afloat())
                ),
                theme.normal,
            );
            pen.put(
                rx,
                y,
                &format!("Afloat: {}", afloat(mine.tracking().afloat())),
                theme.normal,
            );
            for (who, x) in [(COMPUTER, x0), (YOU, rx)] {
                let name = if who == YOU { "You" } else { "Computer" };
                if let Some((_, cell, result)) =
                    game.history().iter().rev().find(|(p, _, _)| *p == who)
                {
                    pen.put(
                        x,
                        y + 1,
                        &format!("{name}: {cell} {}", result_words(*result)),
                        theme.last,
                    );
                }
            }
            let (line, style) = match game.outcome() {
                Some(o) if o.winner == YOU => (
                    format!("You win in {} shots!  n: new game", o.shots),
                    theme.good,
                ),
                Some(o) => (
                    format!(
                        "The computer wins in {} shots. Its fleet is shown above.  n: new game",
                        o.shots
                    ),
                    theme.bad,
                ),
                None if game.side_to_move() == YOU => (
                    if s.rules.extra_shot_on_hit() {
                        "Your turn: Enter or click to shoot (a hit shoots again)".to_owned()
                    } else {
                        "Your turn: Enter or click to shoot".to_owned()
                    },
                    theme.accent,
                ),
                None => ("The computer is aiming…".to_owned(), theme.dim),
            };
            pen.put(x0, y + 2, &line, style);
            pen.put(
                x0,
                y + 3,
                "■ ship  X hit  • miss  ~ water  · unknown  t: hint",
                theme.dim,
            );
            if shade.is_some() {
                pen.put(
                    x0,
                    y + 4,
                    "Hint: chance of a ship ░ 10%  ▒ 25%  ▓ 50% or more",
                    theme.dim,
                );
            }
        }
    }
    layout
}

/// The words for a shot's result under the grids.
fn result_words(result: ShotResult) -> String {
    match result {
        ShotResult::Miss => "miss".to_owned(),
        ShotResult::Hit => "hit".to_owned(),
        ShotResult::Sunk(s) | ShotResult::GameOver(s) => format!("sunk ({}-cell)", s.len()),
    }
}

/// One grid with its title, column letters and row numbers; `look` gives each cell and
/// `over` a style laid over it (cursor, last shot, hint).
#[allow(clippy::too_many_arguments)]
fn grid_at(
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
/// with the ship at the cursor.
#[allow(clippy::too_many_arguments)]
fn panel(
    s: &BattleshipScreen,
    p: &super::Placing,
    pen: &mut Pen,
    layout: &mut Layout,
    x: u16,
    y: u16,
    bad: Option<battleship_core::FleetError>,
    theme: &Theme,
) {
    let missing = p.placement.missing();
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
    let end = pen.put(x, row, "[start battle]", start_style);
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
    if complete {
        pen.wrap(
            x,
            row,
            PANEL,
            3,
            "Fleet complete: Enter or [start battle] begins. Click a ship to move it.",
            theme.good,
        );
    } else if let Some(e) = bad {
        pen.wrap(x, row, PANEL, 4, &format!("Not here: {e}"), theme.bad);
    } else {
        pen.wrap(
            x,
            row,
            PANEL,
            3,
            &format!("{}: fits. Enter or click places it.", s.cursor),
            theme.good,
        );
    }
}
