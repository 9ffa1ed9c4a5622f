//! Laying out a fleet before the battle, the same for the game against the computer and
//! for a game at a server: the placement with its own undo and redo, the ship being
//! placed at the cursor, the keys and clicks that place, pick up, turn and drag ships.
//!
//! Every rule comes from `battleship-core`'s `Placement` (where a ship may go and why
//! not); what happens once the fleet is complete, and where a random fleet comes from, is
//! the screen's: the placer answers those with an [`Ask`].

use battleship_core::{Coord, Fleet, FleetError, Orientation, Placement, Problem, Rules, Ship};
use crossterm::event::{KeyCode, MouseButton, MouseEventKind};

use super::draw::Layout;
use crate::tui::{Ctx, Handled};

/// What a click on a button of the placing panel does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Button {
    Rotate,
    Auto,
    Undo,
    Clear,
    Start,
}

/// What the placer asks of its screen after a key or a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ask {
    /// Nothing more.
    Nothing,
    /// The fleet is complete and the player wants to begin: start the battle, or send it.
    Start,
    /// A random fleet, please ([`Placer::set_fleet`]).
    Auto,
}

/// A fleet being laid out: see the module documentation.
#[derive(Debug, Clone)]
pub(super) struct Placer {
    pub(super) rules: Rules,
    pub(super) placement: Placement,
    history: Vec<Placement>,
    redo: Vec<Placement>,
    /// The bow of the ship being placed.
    pub(super) cursor: Coord,
    pub(super) orientation: Orientation,
    /// The length of the ship being placed.
    pub(super) selected_len: u8,
    /// While the left button drags a picked-up ship: the cell pressed and its offset
    /// (columns, rows) from the ship's bow, so the ship follows the pointer as held.
    drag: Option<(Coord, (u8, u8))>,
    /// What the start button says: `start battle`, `send fleet`.
    pub(super) start_label: &'static str,
}

/// The keys of laying out a fleet, the same offline and online (each screen adds how the
/// fleet is then sent, and its own undo).
pub(super) const PLACING_KEYS: [(&str, &str); 7] = [
    (
        "arrows, hjkl, mouse",
        "move the ship being placed / the aim",
    ),
    (
        "Enter, Space, click",
        "place a ship, pick a placed one up; shoot",
    ),
    ("r, right click", "turn the ship being placed"),
    ("Tab, click on the list", "choose the length to place next"),
    ("a, [auto]", "lay out the whole fleet at random"),
    ("x, Delete", "pick up the ship under the cursor"),
    ("c, [clear]", "take every ship off the grid"),
];

/// One placing problem in a few words (the panel shows the engine's whole sentence).
pub(super) fn short_problem(problem: &Problem) -> String {
    match problem {
        Problem::OffGrid { .. } => "goes off the grid".to_owned(),
        Problem::Overlap { a, .. } => format!("overlaps {a}"),
        Problem::Touching { a, .. } => format!("touches {a}"),
        other => other.to_string(),
    }
}

impl Placer {
    /// A placer starting from `placement` (empty, or a random fleet to move about).
    pub(super) fn new(placement: Placement, start_label: &'static str) -> Placer {
        let rules = placement.rules().clone();
        let mut placer = Placer {
            cursor: Coord::from_index(0, rules.width()),
            orientation: Orientation::Horizontal,
            selected_len: rules.fleet().first().copied().unwrap_or(1),
            rules,
            placement,
            history: Vec::new(),
            redo: Vec::new(),
            drag: None,
            start_label,
        };
        placer.fix_selection();
        placer
    }

    /// Replaces the placement by `next`, remembering the old one for undo.
    fn change(&mut self, next: Placement) {
        self.history
            .push(std::mem::replace(&mut self.placement, next));
        self.redo.clear();
    }

    /// The ship that would go at the cursor, while ships are left to place.
    pub(super) fn candidate(&self) -> Option<Ship> {
        (!self.placement.missing().is_empty())
            .then(|| Ship::new(self.cursor, self.orientation, self.selected_len))
    }

    /// Everything wrong with the candidate ship, from the engine.
    pub(super) fn candidate_problems(&self) -> Option<FleetError> {
        let ship = self.candidate()?;
        let problems = self.placement.problems_if(&ship);
        (!problems.is_empty()).then_some(FleetError { problems })
    }

    /// Keeps the length being placed among the lengths still to place.
    pub(super) fn fix_selection(&mut self) {
        let missing = self.placement.missing();
        if !missing.contains(&self.selected_len)
            && let Some(&len) = missing.first()
        {
            self.selected_len = len;
        }
    }

    fn rotate(&mut self) {
        self.orientation = self.orientation.flipped();
    }

    fn next_length(&mut self, forward: bool) {
        let mut lens = self.placement.missing();
        lens.dedup();
        if lens.is_empty() {
            return;
        }
        let at = lens
            .iter()
            .position(|&l| l == self.selected_len)
            .unwrap_or(0);
        let n = lens.len();
        let next = if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        self.selected_len = lens[next];
    }

    fn select_length(&mut self, len: u8, ctx: &mut Ctx) {
        if self.placement.missing().contains(&len) {
            self.selected_len = len;
        } else {
            ctx.say(format!(
                "Every {len}-cell ship is placed: pick one up to move it"
            ));
        }
    }

    /// Enter or a click on the grid: pick up the ship under the cursor, place the ship
    /// being placed, or (Enter, fleet complete) ask to start.
    fn place_or_pick(&mut self, click: bool, ctx: &mut Ctx) -> Ask {
        let complete = self.placement.missing().is_empty();
        if complete && !click {
            return Ask::Start;
        }
        if self.placement.ships().iter().any(|s| s.covers(self.cursor)) {
            self.pick_up(ctx);
            return Ask::Nothing;
        }
        if complete {
            ctx.say(format!("Fleet complete: click [{}]", self.start_label));
            return Ask::Nothing;
        }
        let Some(ship) = self.candidate() else {
            return Ask::Nothing;
        };
        let mut next = self.placement.clone();
        match next.place(ship) {
            Ok(()) => {
                self.change(next);
                ctx.say(format!("Placed {ship}"));
                self.fix_selection();
            }
            Err(e) => ctx.say(match e.problems.first() {
                Some(p) => format!("Illegal: {}", short_problem(p)),
                None => format!("Illegal: {e}"),
            }),
        }
        Ask::Nothing
    }

    /// Takes the ship under the cursor off the grid; it becomes the ship being placed.
    fn pick_up(&mut self, ctx: &mut Ctx) {
        let mut next = self.placement.clone();
        let Some(ship) = next.remove(self.cursor) else {
            ctx.say(format!("No ship at {}", self.cursor));
            return;
        };
        self.change(next);
        self.selected_len = ship.len();
        if ship.len() > 1 {
            self.orientation = ship.orientation();
        }
        self.cursor = ship.bow();
        ctx.say(format!("Picked up {ship}"));
    }

    /// Lays out `fleet` (a random one the screen drew), undoably.
    pub(super) fn set_fleet(&mut self, fleet: &Fleet, ctx: &mut Ctx) {
        self.change(Placement::from_fleet(self.rules.clone(), fleet));
        ctx.say("A random fleet");
    }

    fn clear(&mut self, ctx: &mut Ctx) {
        if self.placement.ships().is_empty() {
            return;
        }
        self.change(Placement::new(self.rules.clone()));
        self.selected_len = self.rules.fleet().first().copied().unwrap_or(1);
        ctx.say("Every ship is off the grid");
    }

    /// Takes back the last placing step.
    pub(super) fn undo(&mut self, ctx: &mut Ctx) {
        match self.history.pop() {
            Some(before) => {
                self.redo
                    .push(std::mem::replace(&mut self.placement, before));
                self.fix_selection();
                ctx.say("Undone: the last placing step");
            }
            None => ctx.say("Nothing to undo"),
        }
    }

    /// Plays the step taken back again.
    pub(super) fn redo(&mut self, ctx: &mut Ctx) {
        match self.redo.pop() {
            Some(after) => {
                self.history
                    .push(std::mem::replace(&mut self.placement, after));
                self.fix_selection();
                ctx.say("Redone");
            }
            None => ctx.say("Nothing to redo"),
        }
    }

    /// The fleet to start with, or why not yet.
    pub(super) fn fleet(&self) -> Result<Fleet, String> {
        let missing = self.placement.missing();
        if !missing.is_empty() {
            let lens: Vec<String> = missing.iter().map(u8::to_string).collect();
            return Err(format!(
                "Place the rest first: {} (a: all at random)",
                lens.join(" ")
            ));
        }
        self.placement
            .finish()
            .map_err(|e| format!("The fleet is not ready: {e}"))
    }

    /// A key while placing.
    pub(super) fn key(&mut self, code: KeyCode, ctx: &mut Ctx) -> (Handled, Ask) {
        match code {
            KeyCode::Left | KeyCode::Char('h') => {
                self.cursor = step(self.cursor, &self.rules, -1, 0)
            }
            KeyCode::Right | KeyCode::Char('l') => {
                self.cursor = step(self.cursor, &self.rules, 1, 0)
            }
            KeyCode::Up | KeyCode::Char('k') => self.cursor = step(self.cursor, &self.rules, 0, -1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.cursor = step(self.cursor, &self.rules, 0, 1)
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                return (Handled::Yes, self.place_or_pick(false, ctx));
            }
            KeyCode::Char('r') => self.rotate(),
            KeyCode::Char('a') => return (Handled::Yes, Ask::Auto),
            KeyCode::Char('c') => self.clear(ctx),
            KeyCode::Char('x') | KeyCode::Delete => self.pick_up(ctx),
            KeyCode::Tab | KeyCode::BackTab => self.next_length(code == KeyCode::Tab),
            KeyCode::Backspace => self.undo(ctx),
            _ => return (Handled::No, Ask::Nothing),
        };
        (Handled::Yes, Ask::Nothing)
    }

    /// A mouse event while placing, on the grid and panel drawn last.
    pub(super) fn mouse(
        &mut self,
        kind: MouseEventKind,
        x: u16,
        y: u16,
        layout: &Layout,
        ctx: &mut Ctx,
    ) -> (Handled, Ask) {
        let cell = layout.mine.and_then(|g| g.cell_at(x, y));
        let mut ask = Ask::Nothing;
        let handled = match kind {
            MouseEventKind::Drag(MouseButton::Left) if self.drag.is_some() => {
                if let (Some(c), Some((_, offset))) = (cell, self.drag) {
                    self.cursor = bow_for(c, offset);
                }
                Handled::Yes
            }
            MouseEventKind::Up(MouseButton::Left) => {
                let Some((start, offset)) = self.drag.take() else {
                    return (Handled::No, ask);
                };
                // A release where the press was is a click (the ship stays picked up).
                if let Some(c) = cell.filter(|&c| c != start) {
                    self.cursor = bow_for(c, offset);
                    ask = self.place_or_pick(true, ctx);
                }
                Handled::Yes
            }
            MouseEventKind::Moved | MouseEventKind::Drag(MouseButton::Left) => match cell {
                Some(c) if c != self.cursor => {
                    self.cursor = c;
                    Handled::Yes
                }
                _ => Handled::No,
            },
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some(button) = layout.button_at(x, y) {
                    return (Handled::Yes, self.press(button, ctx));
                }
                if let Some(len) = layout.length_at(x, y) {
                    self.select_length(len, ctx);
                    return (Handled::Yes, ask);
                }
                let Some(c) = cell else {
                    return (Handled::No, ask);
                };
                self.cursor = c;
                self.drag = None;
                // A press on a placed ship picks it up; dragging then moves it.
                let grabbed = self
                    .placement
                    .ships()
                    .iter()
                    .find(|s| s.covers(c))
                    .map(Ship::bow);
                ask = self.place_or_pick(true, ctx);
                if let Some(bow) = grabbed {
                    let offset = (c.col() - bow.col(), c.row() - bow.row());
                    self.drag = Some((c, offset));
                }
                Handled::Yes
            }
            MouseEventKind::Down(MouseButton::Right) => {
                if let Some(c) = cell {
                    self.cursor = c;
                }
                self.rotate();
                Handled::Yes
            }
            _ => Handled::No,
        };
        (handled, ask)
    }

    fn press(&mut self, button: Button, ctx: &mut Ctx) -> Ask {
        match button {
            Button::Rotate => self.rotate(),
            Button::Auto => return Ask::Auto,
            Button::Undo => self.undo(ctx),
            Button::Clear => self.clear(ctx),
            Button::Start => return Ask::Start,
        }
        Ask::Nothing
    }

    /// The status line while placing.
    pub(super) fn status(&self) -> String {
        let missing = self.placement.missing();
        if missing.is_empty() {
            return format!("Fleet complete: Enter or [{}] begins", self.start_label);
        }
        let o = match self.orientation {
            Orientation::Horizontal => "across",
            Orientation::Vertical => "down",
        };
        let here = match self.candidate_problems() {
            None => "fits".to_owned(),
            Some(e) => match e.problems.first() {
                Some(p) => short_problem(p),
                None => "no".to_owned(),
            },
        };
        format!(
            "{}-cell {o} at {}: {here} · {} left",
            self.selected_len,
            self.cursor,
            missing.len()
        )
    }
}

/// Where the bow goes when the cell held `offset` from the bow is at `cell` (kept on the
/// grid; the engine says whether the ship fits there).
fn bow_for(cell: Coord, (dc, dr): (u8, u8)) -> Coord {
    Coord::new(cell.col().saturating_sub(dc), cell.row().saturating_sub(dr)).unwrap_or(cell)
}

/// The cell `dc` columns and `dr` rows from `cell`, kept on the grid (the cursor's move).
pub(super) fn step(cell: Coord, rules: &Rules, dc: i8, dr: i8) -> Coord {
    let col = (cell.col() as i16 + i16::from(dc)).clamp(0, i16::from(rules.width()) - 1);
    let row = (cell.row() as i16 + i16::from(dr)).clamp(0, i16::from(rules.height()) - 1);
    Coord::new(col as u8, row as u8).unwrap_or(cell)
}
