//! What keys and clicks do: the cursor, selecting a checker, playing it by Enter, a click
//! or a drag, Tab through the checkers that can move, bearing off, the panel's buttons
//! and the hints.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use nardy_core::ai::{Evaluator, HandEval, Search, SearchConfig};
use ratatui::layout::Position as Cell;

use super::{Button, Hints, NardyScreen, Spot};
use crate::tui::{Ctx, Handled};

impl NardyScreen {
    pub(super) fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Handled {
        if !crate::tui::plain_key(key) {
            return Handled::No;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.cursor = self.cursor.step(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.cursor = self.cursor.step(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.cursor = self.cursor.step(0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.cursor = self.cursor.step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.act(self.cursor, ctx),
            KeyCode::Tab => self.cycle(1),
            KeyCode::BackTab => self.cycle(-1),
            KeyCode::Backspace => self.take_back_step(ctx),
            KeyCode::Char('o') => self.bear_off(ctx),
            KeyCode::Char('a') => self.play_only(ctx),
            KeyCode::Char('t') => self.toggle_hints(ctx),
            _ => return Handled::No,
        }
        Handled::Yes
    }

    pub(super) fn mouse(&mut self, mouse: &MouseEvent, ctx: &mut Ctx) -> Handled {
        let at = Cell::new(mouse.column, mouse.row);
        let spot = self
            .hits
            .iter()
            .find(|(r, _)| r.contains(at))
            .map(|&(_, s)| s);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {}
            MouseEventKind::Down(MouseButton::Right) => {
                self.take_back_step(ctx);
                return Handled::Yes;
            }
            MouseEventKind::Drag(MouseButton::Left) if self.drag.is_some() => {
                if let Some(spot) = spot {
                    self.cursor = spot;
                }
                return Handled::Yes;
            }
            MouseEventKind::Up(MouseButton::Left) => return self.drop_at(spot, ctx),
            _ => return Handled::No,
        }
        self.drag = None;
        if let Some(&(_, button)) = self.buttons.iter().find(|(r, _)| r.contains(at)) {
            match button {
                Button::StepBack => self.take_back_step(ctx),
                Button::Hints => self.toggle_hints(ctx),
                Button::OnlyTurn => self.play_only(ctx),
            }
            return Handled::Yes;
        }
        let Some(spot) = spot else {
            return Handled::No;
        };
        self.cursor = spot;
        match spot {
            // A press on the selected checker may start a drag; a release on the same
            // point deselects it, as a click does.
            Spot::Point(p) if self.selected == Some(p) => self.drag = Some((p, true)),
            _ => {
                self.act(spot, ctx);
                if let (Spot::Point(p), Some(s)) = (spot, self.selected)
                    && p == s
                {
                    self.drag = Some((p, false));
                }
            }
        }
        Handled::Yes
    }

    /// The left button released over `spot` after a press on a checker: a release on a
    /// legal destination of that checker plays the step (a drag), one on the same point
    /// finishes the click, anywhere else leaves the selection as it is.
    pub(super) fn drop_at(&mut self, spot: Option<Spot>, ctx: &mut Ctx) -> Handled {
        let Some((from, deselect)) = self.drag.take() else {
            return Handled::No;
        };
        let Some(spot) = spot else {
            return Handled::Yes;
        };
        if spot == Spot::Point(from) {
            if deselect {
                self.act(spot, ctx);
            }
            return Handled::Yes;
        }
        let Some(b) = &self.builder else {
            return Handled::Yes;
        };
        let to = match spot {
            Spot::Point(p) => p,
            Spot::Tray(c) if c == b.start().side_to_move() => 0,
            Spot::Tray(_) => return Handled::Yes,
        };
        if self.selected == Some(from) && b.destinations(from).contains(&to) {
            self.cursor = spot;
            self.act(spot, ctx);
        }
        Handled::Yes
    }

    /// Enter or a click on `spot`: select a checker, play the selected one there, or say
    /// why not.
    pub(super) fn act(&mut self, spot: Spot, ctx: &mut Ctx) {
        if let Some(outcome) = self.game().outcome() {
            ctx.say(format!("{outcome}. Press n for a new game."));
            return;
        }
        let Some(b) = &self.builder else {
            let color = self.game().side_to_move();
            if self.info.passing {
                ctx.say(format!("{color} has no legal move: the turn passes"));
            } else {
                ctx.say(format!(
                    "Wait: {color} ({}) is to move",
                    self.player_name(color)
                ));
            }
            return;
        };
        let mover = b.start().side_to_move();
        match (self.selected, spot) {
            (Some(from), Spot::Point(p)) if p == from => self.selected = None,
            (Some(from), Spot::Point(to)) => {
                if !b.destinations(from).contains(&to) && !b.destinations(to).is_empty() {
                    self.selected = Some(to);
                } else {
                    self.play_step(from, Some(to), ctx);
                }
            }
            (Some(from), Spot::Tray(c)) if c == mover => self.play_step(from, None, ctx),
            (_, Spot::Tray(c)) if c != mover => {
                ctx.say(format!("That is {c}'s tray; yours is the {mover} one"));
            }
            (None, Spot::Tray(_)) => {
                ctx.say("Select a checker first, then the tray to bear it off");
            }
            (None, Spot::Point(p)) => self.select(p, ctx),
            (Some(_), Spot::Tray(_)) => {}
        }
    }

    pub(super) fn select(&mut self, point: u8, ctx: &mut Ctx) {
        let Some(b) = &self.builder else {
            return;
        };
        let mover = b.start().side_to_move();
        if b.is_complete() {
            ctx.say("The turn is complete");
        } else if b.position().count(mover, point) == 0 {
            ctx.say(format!(
                "No {mover} checker on point {point} (Tab jumps to one that can move)"
            ));
        } else if b.destinations(point).is_empty() {
            ctx.say(format!("The checker on {point} has no legal step now"));
        } else {
            self.selected = Some(point);
        }
    }

    /// Tab: the cursor goes to the next checker that can move, or with a selection to the
    /// next destination.
    pub(super) fn cycle(&mut self, direction: i32) {
        let spots: Vec<Spot> = match (self.selected, &self.builder) {
            (Some(_), Some(b)) => {
                let mover = b.start().side_to_move();
                self.targets()
                    .into_iter()
                    .map(|p| Spot::landing(p, mover))
                    .collect()
            }
            _ => self.movable().into_iter().map(Spot::Point).collect(),
        };
        if let Some(next) = self.cursor.cycle(&spots, direction) {
            self.cursor = next;
        }
    }

    /// `o`: bears off the selected checker, or the one under the cursor.
    pub(super) fn bear_off(&mut self, ctx: &mut Ctx) {
        if self.builder.is_none() {
            ctx.say("It is not your turn");
            return;
        }
        let point = match (self.selected, self.cursor) {
            (Some(p), _) | (None, Spot::Point(p)) => p,
            (None, Spot::Tray(_)) => {
                ctx.say("Select a checker to bear off");
                return;
            }
        };
        self.play_step(point, None, ctx);
    }

    pub(super) fn toggle_hints(&mut self, ctx: &mut Ctx) {
        if self.hints.take().is_some() {
            return;
        }
        let Some(b) = &self.builder else {
            ctx.say("Hints are for your turn");
            return;
        };
        let (position, dice) = (*b.start(), b.dice());
        let level = self.settings.hint_level;
        let rules = *self.game().rules();
        let ranked = if level.needs_resources() {
            level.search(&rules, self.resources()).rank(&position, dice)
        } else {
            let evaluator: Box<dyn Evaluator + Send + Sync> = Box::new(HandEval);
            Search::new(evaluator, rules, SearchConfig::plies(0)).rank(&position, dice)
        };
        ctx.say(format!(
            "{} legal turn(s) from {}-{}, ranked by level {} ({})",
            ranked.len(),
            dice.high(),
            dice.low(),
            level.get(),
            level.name()
        ));
        self.hints = Some(Hints { level, ranked });
    }
}
