//! What keys and clicks do against the computer: while placing, the placer's (with a
//! random fleet from this game's generator and the battle started when asked); in the
//! battle, the aim and shooting by Enter or a click, and the hint.

use battleship_core::ai::PlacementStrategy;
use crossterm::event::{KeyCode, MouseButton, MouseEventKind};

use battleship_core::Coord;

use super::draw::Layout;
use super::placer::{Ask, step};
use super::{BattleshipScreen, Phase};
use crate::tui::{Ctx, Handled};

impl BattleshipScreen {
    pub(super) fn key(&mut self, code: KeyCode, ctx: &mut Ctx) -> Handled {
        if let Phase::Placing(p) = &mut self.phase {
            if code == KeyCode::Char('t') {
                ctx.say("Hints come in the battle: place your fleet first");
                return Handled::Yes;
            }
            let (handled, ask) = p.key(code, ctx);
            self.answer(ask, ctx);
            return handled;
        }
        let (dc, dr) = match code {
            KeyCode::Left | KeyCode::Char('h') => (-1, 0),
            KeyCode::Right | KeyCode::Char('l') => (1, 0),
            KeyCode::Up | KeyCode::Char('k') => (0, -1),
            KeyCode::Down | KeyCode::Char('j') => (0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => {
                self.shoot(ctx);
                return Handled::Yes;
            }
            KeyCode::Char('t') => {
                self.give_hint(ctx);
                return Handled::Yes;
            }
            _ => return Handled::No,
        };
        self.target = step(self.target, &self.rules, dc, dr);
        Handled::Yes
    }

    /// Does what the placer asks: a random fleet, or the battle.
    fn answer(&mut self, ask: Ask, ctx: &mut Ctx) {
        match ask {
            Ask::Nothing => {}
            Ask::Start => self.start_battle(ctx),
            Ask::Auto => {
                let fleet =
                    PlacementStrategy::Uniform.place(&self.rules, &self.sampler, &mut self.rng);
                if let Phase::Placing(p) = &mut self.phase {
                    p.set_fleet(&fleet, ctx);
                }
            }
        }
    }

    pub(super) fn mouse(&mut self, kind: MouseEventKind, x: u16, y: u16, ctx: &mut Ctx) -> Handled {
        if let Phase::Placing(p) = &mut self.phase {
            let (handled, ask) = p.mouse(kind, x, y, &self.layout, ctx);
            self.answer(ask, ctx);
            return handled;
        }
        match aim_mouse(&mut self.target, &self.layout, kind, x, y) {
            Aim::Moved => Handled::Yes,
            Aim::Shoot => {
                self.shoot(ctx);
                Handled::Yes
            }
            Aim::Other => Handled::No,
        }
    }
}

/// What the mouse did to the aim on the enemy grid, the same offline and online.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Aim {
    /// The aim moved to another cell.
    Moved,
    /// A left click: shoot at the aim (now the cell clicked).
    Shoot,
    /// Not over the enemy grid, or nothing to do.
    Other,
}

/// Moving (or dragging) over the enemy grid moves `target`; a left click puts it on the
/// cell clicked and asks to shoot there.
pub(super) fn aim_mouse(
    target: &mut Coord,
    layout: &Layout,
    kind: MouseEventKind,
    x: u16,
    y: u16,
) -> Aim {
    let Some(c) = layout.enemy.and_then(|g| g.cell_at(x, y)) else {
        return Aim::Other;
    };
    match kind {
        MouseEventKind::Moved | MouseEventKind::Drag(MouseButton::Left) if c != *target => {
            *target = c;
            Aim::Moved
        }
        MouseEventKind::Down(MouseButton::Left) => {
            *target = c;
            Aim::Shoot
        }
        _ => Aim::Other,
    }
}
