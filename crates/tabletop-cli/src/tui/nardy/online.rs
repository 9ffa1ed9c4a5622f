//! Long Nardy at a server, full screen: the same board as the local screen ([`Scene`]),
//! drawn from the server's view. The selected checker's destinations are the view's
//! `legal_steps` from its point; each step goes to the server as it is played, and the
//! other side's steps show as their views come. Undo, save and the settings are off (the
//! server keeps the game); `r` twice resigns. At the end, the dice are checked against
//! the commitment the server published (the client downloads the save with the proof).

use std::time::Instant;

use crossterm::event::{Event, KeyCode, KeyEvent, MouseButton, MouseEventKind};
use nardy_core::{Color, Step};
use ratatui::Frame;
use ratatui::layout::{Position as Cell, Rect};
use tabletop_play::Seat;
use tabletop_play::nardy::{Input, color_of};

use super::board::{self, Scene, Tone};
use super::scene::{KEYS_LINE, dice_marks};
use super::{Button, Spot};
use crate::common::CliResult;
use crate::online::ConnectArgs;
use crate::online::nardy::Nardy;
use crate::online::remote::{Create, Remote};
use crate::tui::online::Session;
use crate::tui::{Ctx, GameScreen, Handled, Theme};

/// Long Nardy played at a server.
pub struct OnlineNardy {
    session: Session<Nardy>,
    cursor: Spot,
    /// The point of the selected checker.
    selected: Option<u8>,
    /// `r` was pressed once: a second `r` resigns.
    resigning: bool,
    /// The rectangles of the spots drawn last, for the mouse.
    hits: Vec<(Rect, Spot)>,
}

impl OnlineNardy {
    /// Connects to the server of `args` and starts or joins the game.
    pub fn start(args: &ConnectArgs, create: Create) -> CliResult<OnlineNardy> {
        Ok(OnlineNardy::with(Session::start(Nardy, args, create)?))
    }

    /// The screen of a session.
    pub fn with(session: Session<Nardy>) -> OnlineNardy {
        OnlineNardy {
            session,
            cursor: Spot::Point(Color::White.head()),
            selected: None,
            resigning: false,
            hits: Vec::new(),
        }
    }

    /// The session (for the tests).
    pub fn session(&self) -> &Session<Nardy> {
        &self.session
    }

    /// The legal next steps of this seat now (none when it is not its turn).
    fn steps(&self) -> &[Step] {
        match self.session.view() {
            Some(view) if self.session.my_turn() => &view.state.legal_steps,
            _ => &[],
        }
    }

    /// The destinations of the checker on `point` (0: bearing off).
    fn destinations(&self, point: u8) -> Vec<u8> {
        let mut to: Vec<u8> = self
            .steps()
            .iter()
            .filter(|s| s.from() == point)
            .map(|s| s.to().unwrap_or(0))
            .collect();
        to.dedup();
        to
    }

    /// The colour this seat plays (White when watching).
    fn my_color(&self) -> Color {
        self.session
            .seat()
            .map_or(Color::White, |s| color_of(Seat(s)))
    }

    /// Enter or a click on `spot`: select a checker, or play the selected one there.
    fn act(&mut self, spot: Spot, ctx: &mut Ctx) {
        if !self.session.my_turn() {
            self.selected = None;
            ctx.say(self.session.waiting_for());
            return;
        }
        let mine = self.my_color();
        match (self.selected, spot) {
            (Some(from), Spot::Point(p)) if p == from => self.selected = None,
            (Some(from), Spot::Point(to)) => {
                if self.destinations(from).contains(&to) {
                    self.play(from, to, ctx);
                } else if !self.destinations(to).is_empty() {
                    self.selected = Some(to);
                } else {
                    ctx.say(format!("The checker on {from} cannot go to {to}"));
                }
            }
            (Some(from), Spot::Tray(c)) if c == mine => self.play(from, 0, ctx),
            (_, Spot::Tray(c)) if c != mine => {
                ctx.say(format!("That is {c}'s tray; yours is the {mine} one"));
            }
            (None, Spot::Tray(_)) => ctx.say("Select a checker first, then the tray"),
            (None, Spot::Point(p)) => {
                if self.destinations(p).is_empty() {
                    ctx.say(format!("No checker of yours on {p} can move now"));
                } else {
                    self.selected = Some(p);
                }
            }
            (Some(_), Spot::Tray(_)) => {}
        }
    }

    /// Sends the step of the checker on `from` to `to` (0: off).
    fn play(&mut self, from: u8, to: u8, ctx: &mut Ctx) {
        let Some(step) = self
            .steps()
            .iter()
            .find(|s| s.from() == from && s.to().unwrap_or(0) == to)
            .copied()
        else {
            return;
        };
        let input = serde_json::to_value(Input::Step(step)).unwrap_or_default();
        if self.session.play(input, ctx) {
            self.selected = None;
            self.cursor = Spot::landing(to, self.my_color());
        }
    }

    /// Tab: the cursor goes to the next checker that can move, or to the next destination.
    fn cycle(&mut self, direction: i32) {
        let mine = self.my_color();
        let spots: Vec<Spot> = match self.selected {
            Some(p) => self
                .destinations(p)
                .into_iter()
                .map(|d| Spot::landing(d, mine))
                .collect(),
            None => {
                let mut points: Vec<u8> = self.steps().iter().map(|s| s.from()).collect();
                points.sort_by_key(|&p| std::cmp::Reverse(nardy_core::path_coordinate(mine, p)));
                points.dedup();
                points.into_iter().map(Spot::Point).collect()
            }
        };
        if let Some(next) = self.cursor.cycle(&spots, direction) {
            self.cursor = next;
        }
    }

    fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Handled {
        if !crate::tui::plain_key(key) {
            return Handled::No;
        }
        if key.code != KeyCode::Char('r') {
            self.resigning = false;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.cursor = self.cursor.step(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.cursor = self.cursor.step(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.cursor = self.cursor.step(0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.cursor = self.cursor.step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.act(self.cursor, ctx),
            KeyCode::Tab => self.cycle(1),
            KeyCode::BackTab => self.cycle(-1),
            KeyCode::Char('o') => match self.selected {
                Some(p) => self.play(p, 0, ctx),
                None => ctx.say("Select a checker to bear off"),
            },
            KeyCode::Backspace => {
                ctx.say("A step sent to the server stays played: undo is off in online play");
            }
            KeyCode::Char('r') if self.resigning => {
                self.resigning = false;
                self.session.resign(ctx);
            }
            KeyCode::Char('r') => {
                self.resigning = true;
                ctx.say("Press r again to resign the game");
            }
            _ => return Handled::No,
        }
        Handled::Yes
    }

    /// What the board shows: the view's position, its dice and steps, the selection.
    fn scene(&self) -> Scene {
        let mut scene = Scene {
            pos: Default::default(),
            cursor: self.cursor,
            selected: self.selected,
            targets: self
                .selected
                .map(|p| self.destinations(p))
                .unwrap_or_default(),
            mover: self.my_color(),
            last: Vec::new(),
            last_color: Color::White,
            names: [0, 1].map(|s| self.session.player_name(s)),
            to_move: Color::White,
            over: None,
            dice: Vec::new(),
            played: Vec::new(),
            note: None,
            last_turn: None,
            buttons: Vec::<(Button, &str)>::new(),
            bottom: Vec::new(),
        };
        if let Some(view) = self.session.view() {
            let state = &view.state;
            scene.pos = state.position;
            scene.to_move = view.to_act.map_or(state.position.side_to_move(), color_of);
            scene.mover = scene.to_move;
            if state.played.is_empty() {
                if let Some(r) = state.history.last() {
                    scene.last = r.mv.steps().to_vec();
                    scene.last_color = r.color;
                }
            } else {
                scene.last = state.played.clone();
                scene.last_color = scene.to_move;
            }
            scene.over = view.ending.as_ref().map(|e| {
                let result = self
                    .session
                    .client
                    .game
                    .result(e, view, self.session.seat());
                // The panel is narrow: who won on one line, what it means for you below.
                match result.rsplit_once(" (") {
                    Some((score, you)) => (
                        score.to_owned(),
                        format!("{} · q: leave", you.trim_end_matches(')')),
                    ),
                    None => (result, "q: leave".to_owned()),
                }
            });
            if let Some(dice) = state.dice {
                scene.dice = dice_marks(dice.to_play(), state.dice_left.clone());
            }
            scene.played = state.played.clone();
            scene.last_turn = state.history.last().map(|r| {
                let head = format!("last: {} {}-{}", r.color, r.dice.high(), r.dice.low());
                (head, r.mv.to_string())
            });
            scene.note = Some(match self.selected {
                Some(p) => {
                    let to: Vec<String> = self
                        .destinations(p)
                        .iter()
                        .map(|&d| if d == 0 { "off".into() } else { d.to_string() })
                        .collect();
                    format!("{p} goes to: {}", to.join(" "))
                }
                None => self.session.waiting_for(),
            });
        } else {
            scene.pos = nardy_core::Position::start();
            scene.note = Some(self.session.waiting_for());
        }
        scene.bottom = self
            .session
            .table_lines(6)
            .into_iter()
            .map(|(line, bad)| (line, if bad { Tone::Bad } else { Tone::Normal }))
            .collect();
        scene.bottom.push((
            KEYS_LINE.replace("Backspace/right-click step back", "r r resign"),
            Tone::Dim,
        ));
        scene
    }
}

impl GameScreen for OnlineNardy {
    fn title(&self) -> String {
        format!(
            "Long Nardy online · White: {} · Black: {}",
            self.session.player_name(0),
            self.session.player_name(1)
        )
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let area = area.intersection(frame.area());
        let scene = self.scene();
        let (hits, _) = board::draw(&scene, frame.buffer_mut(), area, theme);
        self.hits = hits;
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => self.key(key, ctx),
            Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                let at = Cell::new(mouse.column, mouse.row);
                match self.hits.iter().find(|(r, _)| r.contains(at)) {
                    Some(&(_, spot)) => {
                        self.cursor = spot;
                        self.act(spot, ctx);
                        Handled::Yes
                    }
                    None => Handled::No,
                }
            }
            _ => Handled::No,
        }
    }

    fn tick(&mut self, _now: Instant, ctx: &mut Ctx) -> bool {
        let changed = self.session.poll(ctx);
        if changed && !self.session.my_turn() {
            self.selected = None;
        }
        if let Some(p) = self.selected
            && self.destinations(p).is_empty()
        {
            self.selected = None;
        }
        changed
    }

    fn status(&self) -> String {
        let Some(view) = self.session.view() else {
            return self.session.waiting_for();
        };
        let pos = &view.state.position;
        let pips = format!(
            "pips W {} B {}",
            pos.pip_count(Color::White),
            pos.pip_count(Color::Black)
        );
        if let Some(result) = self.session.result() {
            return format!("{result} · q: leave");
        }
        let dice = view
            .state
            .dice
            .map(|d| format!(" {}-{}", d.high(), d.low()))
            .unwrap_or_default();
        format!("{}{dice} · {pips}", self.session.waiting_for())
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("←→↑↓ hjkl", "move the cursor over the points and trays"),
            (
                "Enter Space",
                "select a checker; again on a green point: play it there",
            ),
            ("click", "the same with the mouse"),
            (
                "Tab Shift-Tab",
                "next checker that can move / next destination",
            ),
            ("o", "bear off the selected checker"),
            ("r r", "resign the game"),
            ("n", "once the game is over: a rematch, the sides swapped"),
            ("q", "leave (the table stays: come back with --table)"),
        ]
    }

    crate::tui::online::local_game_is_off!();
}

#[cfg(test)]
mod tests;
