//! Drawing grids: your fleet, the enemy waters as you know them, the enemy fleet at the
//! end, and a placement with cells to mark.

use battleship_core::{Coord, Fleet, Mark, Placement, Rules, Tracking};

use crate::common::{Painter, Style, visible_width};

/// The column letters over a grid, from the engine's notation.
fn header(rules: &Rules) -> String {
    let mut s = String::from("   ");
    for col in 0..rules.width() {
        if let Some(c) = Coord::new(col, 0) {
            s.push(' ');
            s.push(c.column_letter());
        }
    }
    s
}

/// The grid with its coordinates, each cell drawn as `cell` says.
fn grid(
    rules: &Rules,
    painter: Painter,
    cell: impl Fn(Coord) -> (&'static str, Style),
) -> Vec<String> {
    let mut lines = vec![header(rules)];
    for r in 0..rules.height() {
        let mut line = format!("{:>2} ", r + 1);
        for c in 0..rules.width() {
            let Some(coord) = Coord::new(c, r) else {
                continue;
            };
            let (ch, style) = cell(coord);
            line.push(' ');
            line.push_str(&painter.paint(ch, style));
        }
        lines.push(line);
    }
    lines
}

/// A fleet under the other side's shots: `#` ship, `X` hit ship, `o` miss, `.` water.
pub(crate) fn fleet(
    rules: &Rules,
    fleet: &Fleet,
    incoming: Option<&Tracking>,
    painter: Painter,
) -> Vec<String> {
    grid(rules, painter, |cell| {
        let ship = fleet.ship_at(cell).is_some();
        let mark = incoming.map_or(Mark::Unknown, |t| t.mark(cell));
        match (ship, mark) {
            (true, Mark::Hit | Mark::Sunk) => ("X", Style::Red),
            (true, _) => ("#", Style::Bold),
            (false, Mark::Miss) => ("o", Style::Blue),
            _ => (".", Style::Dim),
        }
    })
}

/// The opponent's grid as you know it: `.` unknown, `o` miss, `~` known water, `X` hit,
/// `#` sunk.
pub(crate) fn target(rules: &Rules, t: &Tracking, painter: Painter) -> Vec<String> {
    grid(rules, painter, |cell| match t.mark(cell) {
        Mark::Unknown => (".", Style::Dim),
        Mark::Miss => ("o", Style::Blue),
        Mark::Water => ("~", Style::Blue),
        Mark::Hit => ("X", Style::Red),
        Mark::Sunk => ("#", Style::Red),
    })
}

/// Your ships so far, with `marked` cells drawn `+` (where a ship's bow can go).
pub(crate) fn placement(p: &Placement, marked: &[Coord], painter: Painter) -> Vec<String> {
    grid(p.rules(), painter, |cell| {
        if p.ships().iter().any(|s| s.covers(cell)) {
            ("#", Style::Bold)
        } else if marked.contains(&cell) {
            ("+", Style::Green)
        } else {
            (".", Style::Dim)
        }
    })
}

/// Two grids side by side under their titles.
pub(crate) fn side_by_side(
    titles: (&str, &str),
    left: &[String],
    right: &[String],
    rules: &Rules,
) -> String {
    let width = 3 + 2 * usize::from(rules.width());
    let mut out = format!("{:<width$}      {}\n", titles.0, titles.1);
    for (l, r) in left.iter().zip(right) {
        // pad by visible width (colour codes are invisible)
        out.push_str(l);
        out.push_str(&" ".repeat(width.saturating_sub(visible_width(l)) + 6));
        out.push_str(r);
        out.push('\n');
    }
    out
}
