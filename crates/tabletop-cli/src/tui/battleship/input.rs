//! What keys and clicks do: the cursor, placing and shooting by Enter or a click, the
//! placing panel's buttons.

use battleship_core::{Coord, Ship};
use crossterm::event::{KeyCode, MouseButton, MouseEventKind};

use super::{BattleshipScreen, Button, Phase};
use crate::tui::{Ctx, GameScreen, Handled};

impl BattleshipScreen {
    pub(super) fn move_cursor(&mut self, dc: i8, dr: i8) -> Handled {
        let col = self.cursor.col() as i16 + i16::from(dc);
        let row = self.cursor.row() as i16 + i16::from(dr);
        let col = col.clamp(0, i16::from(self.rules.width()) - 1);
        let row = row.clamp(0, i16::from(self.rules.height()) - 1);
        if let Some(c) = Coord::new(col as u8, row as u8) {
            self.cursor = c;
        }
        Handled::Yes
    }

    pub(super) fn key(&mut self, code: KeyCode, ctx: &mut Ctx) -> Handled {
        let placing = matches!(self.phase, Phase::Placing(_));
        match code {
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => {
                if placing {
                    self.place_or_pick(false, ctx);
                } else {
                    self.shoot(ctx);
                }
                Handled::Yes
            }
            KeyCode::Char('t') => {
                if placing {
                    ctx.say("Hints come in the battle: place your fleet first");
                } else {
                    self.give_hint(ctx);
                }
                Handled::Yes
            }
            KeyCode::Char('r') if placing => {
                self.rotate();
                Handled::Yes
            }
            KeyCode::Char('a') if placing => {
                self.auto(ctx);
                Handled::Yes
            }
            KeyCode::Char('c') if placing => {
                self.clear(ctx);
                Handled::Yes
            }
            KeyCode::Char('x') | KeyCode::Delete if placing => {
                self.pick_up(ctx);
                Handled::Yes
            }
            KeyCode::Tab | KeyCode::BackTab if placing => {
                self.next_length(code == KeyCode::Tab);
                Handled::Yes
            }
            KeyCode::Backspace if placing => {
                self.undo(ctx);
                Handled::Yes
            }
            _ => Handled::No,
        }
    }

    pub(super) fn mouse(&mut self, kind: MouseEventKind, x: u16, y: u16, ctx: &mut Ctx) -> Handled {
        let placing = matches!(self.phase, Phase::Placing(_));
        let grid = if placing {
            self.layout.mine
        } else {
            self.layout.enemy
        };
        let cell = grid.and_then(|g| g.cell_at(x, y));
        match kind {
            MouseEventKind::Drag(MouseButton::Left) if self.drag.is_some() => {
                if let (Some(c), Some((_, offset))) = (cell, self.drag) {
                    self.cursor = self.bow_for(c, offset);
                }
                Handled::Yes
            }
            MouseEventKind::Up(MouseButton::Left) => {
                let Some((start, offset)) = self.drag.take() else {
                    return Handled::No;
                };
                // A release where the press was is a click (the ship stays picked up).
                if let Some(c) = cell.filter(|&c| c != start) {
                    self.cursor = self.bow_for(c, offset);
                    self.place_or_pick(true, ctx);
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
                if let Some(button) = self.layout.button_at(x, y) {
                    self.press(button, ctx);
                    return Handled::Yes;
                }
                if let Some(len) = self.layout.length_at(x, y) {
                    self.select_length(len, ctx);
                    return Handled::Yes;
                }
                let Some(c) = cell else {
                    return Handled::No;
                };
                self.cursor = c;
                self.drag = None;
                if placing {
                    // A press on a placed ship picks it up; dragging then moves it.
                    let grabbed = match &self.phase {
                        Phase::Placing(p) => p
                            .placement
                            .ships()
                            .iter()
                            .find(|s| s.covers(c))
                            .map(Ship::bow),
                        Phase::Battle => None,
                    };
                    self.place_or_pick(true, ctx);
                    if let Some(bow) = grabbed {
                        let offset = (c.col() - bow.col(), c.row() - bow.row());
                        self.drag = Some((c, offset));
                    }
                } else {
                    self.shoot(ctx);
                }
                Handled::Yes
            }
            MouseEventKind::Down(MouseButton::Right) if placing => {
                if let Some(c) = cell {
                    self.cursor = c;
                }
                self.rotate();
                Handled::Yes
            }
            _ => Handled::No,
        }
    }

    /// Where the bow goes when the cell held `offset` from the bow is at `cell` (kept on
    /// the grid; the engine says whether the ship fits there).
    pub(super) fn bow_for(&self, cell: Coord, (dc, dr): (u8, u8)) -> Coord {
        Coord::new(cell.col().saturating_sub(dc), cell.row().saturating_sub(dr)).unwrap_or(cell)
    }

    pub(super) fn press(&mut self, button: Button, ctx: &mut Ctx) {
        match button {
            Button::Rotate => self.rotate(),
            Button::Auto => self.auto(ctx),
            Button::Undo => self.undo(ctx),
            Button::Clear => self.clear(ctx),
            Button::Start => self.start_battle(ctx),
        }
    }
}
