//! What a battleship screen shows, as data both screens make: the game against the
//! computer from its local table, the game at a server from the server's view. A
//! [`Scene`] is either the fleet being laid out ([`Placer`]) or the battle ([`Battle`]:
//! your fleet with the shots at it, your shots at the enemy, the lines under the grids);
//! [`draw`] draws it at any size and says where things went for the mouse.

use battleship_core::{Coord, Fleet, Mark, Rules, ShotResult, Tracking};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::draw::{INFO_LINES, Layout, Look, PANEL, Pen, SCALES, grid_at, grid_size, panel};
use super::placer::Placer;
use crate::tui::Theme;
pub(super) use crate::tui::Tone;

/// The battle as one side sees it.
#[derive(Debug, Clone)]
pub(super) struct Battle {
    pub(super) rules: Rules,
    /// Your fleet (none for a spectator).
    pub(super) fleet: Option<Fleet>,
    /// What the other side's shots have revealed of your grid.
    pub(super) incoming: Tracking,
    /// What your shots have revealed of the enemy grid.
    pub(super) tracking: Tracking,
    /// The enemy fleet, once the game is over.
    pub(super) enemy_fleet: Option<Fleet>,
    pub(super) over: bool,
    /// The aim on the enemy grid (none once the game is over).
    pub(super) cursor: Option<Coord>,
    pub(super) hint: Option<Coord>,
    /// With the hint: the chance of a ship afloat on each cell.
    pub(super) shade: Option<Vec<f64>>,
    /// The last shots of the other side and of yours.
    pub(super) last_theirs: Option<Coord>,
    pub(super) last_mine: Option<Coord>,
    /// The words of those shots, under the left and the right grid.
    pub(super) last_words: [Option<String>; 2],
    /// Whose turn it is, or the result.
    pub(super) turn: (String, Tone),
    /// The grids' titles.
    pub(super) titles: [&'static str; 2],
    /// The legend under the turn line.
    pub(super) legend: &'static str,
    /// More lines (an online table's), under the rest.
    pub(super) lines: Vec<(String, Tone)>,
}

/// What the screen shows.
pub(super) enum Scene<'a> {
    /// Your fleet being laid out, with lines under the grid (an online table's).
    Placing(&'a Placer, Vec<(String, Tone)>),
    Battle(Box<Battle>),
}

/// The words for a shot's result under the grids.
pub(super) fn result_words(result: ShotResult) -> String {
    match result {
        ShotResult::Miss => "miss".to_owned(),
        ShotResult::Hit => "hit".to_owned(),
        ShotResult::Sunk(s) | ShotResult::GameOver(s) => format!("sunk ({}-cell)", s.len()),
    }
}

/// Draws `scene` into `area` and returns where things went.
pub(super) fn draw(scene: &Scene, buf: &mut Buffer, area: Rect, theme: &Theme) -> Layout {
    let clip = area.intersection(buf.area);
    let mut pen = Pen { buf, clip };
    let mut layout = Layout::default();
    if clip.is_empty() {
        return layout;
    }
    let (rules, placing, extra) = match scene {
        Scene::Placing(p, lines) => (&p.rules, true, lines.len() as u16),
        Scene::Battle(b) => (&b.rules, false, 0),
    };
    let fits = |scale: (u16, u16)| {
        let (gw, gh) = grid_size(rules, scale);
        let (w, h) = if placing {
            // the lines go under the grid and the panel
            let under = if extra > 0 { 1 + extra } else { 0 };
            (gw + 3 + PANEL, gh.max(16) + under)
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
    let (gw, gh) = grid_size(rules, scale);
    let total_w = if placing { gw + 3 + PANEL } else { 2 * gw + 4 };
    let x0 = area.x + area.width.saturating_sub(total_w) / 2;
    let y0 = area.y;
    match scene {
        Scene::Placing(p, lines) => {
            let candidate = p.candidate();
            let bad = p.candidate_problems();
            let look = |c: Coord| -> Look {
                if candidate.is_some_and(|sh| sh.covers(c)) {
                    let style = if bad.is_some() {
                        theme.bad
                    } else {
                        theme.selected
                    };
                    return ('■', style);
                }
                if p.placement.ships().iter().any(|sh| sh.covers(c)) {
                    ('■', theme.first)
                } else {
                    ('·', theme.dim)
                }
            };
            // with ships left the ship itself shows where the cursor is
            let cursor = candidate.is_none().then_some(p.cursor);
            let grid = grid_at(
                &mut pen,
                x0,
                y0,
                scale,
                rules,
                "Your fleet",
                theme,
                look,
                |c| (Some(c) == cursor).then_some(theme.cursor),
            );
            layout.mine = Some(grid);
            let bottom = panel(p, &mut pen, &mut layout, (x0 + gw + 3, y0), bad, theme);
            let y = bottom.max(y0 + gh) + 1;
            for (i, (line, tone)) in lines.iter().enumerate() {
                pen.put(x0, y + i as u16, line, tone.style(theme));
            }
        }
        Scene::Battle(b) => battle(b, &mut pen, &mut layout, (x0, y0), scale, theme),
    }
    layout
}

/// The two grids of the battle and the lines under them.
fn battle(
    b: &Battle,
    pen: &mut Pen,
    layout: &mut Layout,
    (x0, y0): (u16, u16),
    scale: (u16, u16),
    theme: &Theme,
) {
    let (gw, gh) = grid_size(&b.rules, scale);
    let own = |c: Coord| -> Look {
        let ship = b.fleet.as_ref().is_some_and(|f| f.ship_at(c).is_some());
        match (ship, b.incoming.mark(c)) {
            (true, Mark::Sunk) => ('■', theme.bad),
            (true, Mark::Hit) => ('X', theme.bad),
            (true, _) => ('■', theme.first),
            (false, Mark::Miss) => ('•', theme.normal),
            (false, Mark::Water) => ('~', theme.dim),
            // a spectator knows of a hit without seeing the ship
            (false, Mark::Hit) => ('X', theme.bad),
            (false, Mark::Sunk) => ('■', theme.bad),
            _ => ('·', theme.dim),
        }
    };
    let left = grid_at(pen, x0, y0, scale, &b.rules, b.titles[0], theme, own, |c| {
        (Some(c) == b.last_theirs).then_some(theme.last)
    });
    let shade = b.shade.as_deref().filter(|_| !b.over);
    let width = b.rules.width();
    let theirs = |c: Coord| -> Look {
        match b.tracking.mark(c) {
            // the end reveals the enemy fleet
            Mark::Unknown
                if b.over
                    && b.enemy_fleet
                        .as_ref()
                        .is_some_and(|f| f.ship_at(c).is_some()) =>
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
    let rx = x0 + gw + 4;
    let cursor = b.cursor.filter(|_| !b.over);
    let right = grid_at(
        pen,
        rx,
        y0,
        scale,
        &b.rules,
        b.titles[1],
        theme,
        theirs,
        |c| {
            if Some(c) == cursor && Some(c) == b.hint {
                Some(theme.cursor.patch(theme.target))
            } else if Some(c) == cursor {
                Some(theme.cursor)
            } else if Some(c) == b.hint {
                Some(theme.target)
            } else if Some(c) == b.last_mine {
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
    let afloat_left = format!("Afloat: {}", afloat(b.incoming.afloat()));
    pen.put(x0, y, &afloat_left, theme.normal);
    let afloat_right = format!("Afloat: {}", afloat(b.tracking.afloat()));
    pen.put(rx, y, &afloat_right, theme.normal);
    for (words, x) in b.last_words.iter().zip([x0, rx]) {
        if let Some(words) = words {
            pen.put(x, y + 1, words, theme.last);
        }
    }
    pen.put(x0, y + 2, &b.turn.0, b.turn.1.style(theme));
    pen.put(x0, y + 3, b.legend, theme.dim);
    let mut row = y + 4;
    if shade.is_some() {
        pen.put(
            x0,
            row,
            "Hint: chance of a ship ░ 10%  ▒ 25%  ▓ 50% or more",
            theme.dim,
        );
        row += 1;
    }
    for (line, tone) in &b.lines {
        pen.put(x0, row, line, tone.style(theme));
        row += 1;
    }
}
