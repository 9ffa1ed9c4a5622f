//! Battleship at a server, full screen: the same grids as against the computer
//! ([`Scene`]), drawn from the server's view. You lay out your fleet with the same placer
//! (a random fleet to start with; keys, clicks, drags, `a`), `[send fleet]` places it at
//! the table, then you shoot on the enemy grid; the other side's shots show as their views
//! come. The server decides every shot (a refusal is said, and changes nothing). At the
//! end the enemy fleet is shown, and the client checks the fleets against the commitments
//! the server published before the first shot ("Fleets verified"). Undo of shots, save and the settings are
//! off; `r r` resigns in the battle, `R R` at any time.

use std::time::Instant;

use battleship_core::ai::PlacementStrategy;
use battleship_core::{Coord, Mark, Placement, Rules, Tracking};
use crossterm::event::{Event, KeyCode, KeyEvent, MouseEventKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;
use tabletop_play::EndReason;
use tabletop_play::battleship::Input;

use super::draw::Layout;
use super::input::{Aim, aim_mouse};
use super::placer::{self, Ask, Placer, step};
use super::scene::{self, Battle, Scene, Tone, result_words};
use super::settings::sampler_for;
use crate::common::{CliResult, clock_seed};
use crate::online::ConnectArgs;
use crate::online::battleship::Battleship;
use crate::online::remote::{Create, Remote, View};
use crate::tui::online::Session;
use crate::tui::{Ctx, GameScreen, Handled, Theme};

/// How many of the session's lines the battle shows under the grids.
const TABLE_LINES: usize = 5;

/// Battleship played at a server.
pub struct OnlineBattleship {
    session: Session<Battleship>,
    /// Your fleet being laid out, until the view says it is placed.
    placer: Option<Placer>,
    /// The aim on the enemy grid.
    target: Coord,
    /// `r` (or `R`) was pressed once: a second one resigns.
    resigning: Option<char>,
    /// Where the last draw put the grids, for the mouse.
    layout: Layout,
    /// Random fleets for the placer.
    rng: ChaCha8Rng,
}

impl OnlineBattleship {
    /// Connects to the server of `args` and starts or joins the game.
    pub fn start(args: &ConnectArgs, create: Create) -> CliResult<OnlineBattleship> {
        Ok(OnlineBattleship::with(Session::start(
            Battleship::new(),
            args,
            create,
        )?))
    }

    /// The screen of a session.
    pub fn with(session: Session<Battleship>) -> OnlineBattleship {
        OnlineBattleship {
            session,
            placer: None,
            target: Coord::from_index(0, 10),
            resigning: None,
            layout: Layout::default(),
            rng: ChaCha8Rng::seed_from_u64(clock_seed()),
        }
    }

    /// The session (for the tests).
    pub fn session(&self) -> &Session<Battleship> {
        &self.session
    }

    /// The check of the fleets (the client's, `online::battleship::check_fleets`), once
    /// the game is over and the server revealed the salts.
    pub fn fleet_check(&self) -> Option<&(bool, String)> {
        self.session.client.end_check.as_ref()
    }

    /// Whether this seat still lays out its fleet.
    pub fn placing(&self) -> bool {
        self.placer.is_some()
    }

    /// The seat whose grids are drawn as "yours" (seat 0 for a spectator).
    fn me(&self) -> u8 {
        self.session.seat().unwrap_or(0)
    }

    /// Follows the view: a placer while this seat has no fleet at the table.
    fn follow(&mut self) {
        let Some(view) = self.session.view() else {
            return;
        };
        let placing = self
            .session
            .seat()
            .is_some_and(|me| !view.state.placed[usize::from(me)] && view.ending.is_none());
        if !placing {
            self.placer = None;
        } else if self.placer.is_none() {
            let rules = view.state.rules.clone();
            let fleet =
                PlacementStrategy::Uniform.place(&rules, &sampler_for(&rules), &mut self.rng);
            let placement = Placement::from_fleet(rules.clone(), &fleet);
            self.placer = Some(Placer::new(placement, "send fleet"));
            self.target = Coord::from_index(0, rules.width());
        }
    }

    /// Does what the placer asks: a random fleet, or sending the fleet.
    fn answer(&mut self, ask: Ask, ctx: &mut Ctx) {
        let Some(placer) = self.placer.as_mut() else {
            return;
        };
        match ask {
            Ask::Nothing => {}
            Ask::Auto => {
                let rules = placer.rules.clone();
                let fleet =
                    PlacementStrategy::Uniform.place(&rules, &sampler_for(&rules), &mut self.rng);
                placer.set_fleet(&fleet, ctx);
            }
            Ask::Start => match placer.fleet() {
                Ok(fleet) => {
                    let input = serde_json::to_value(Input::Place(fleet)).unwrap_or_default();
                    if self.session.play(input, ctx) {
                        ctx.say("Your fleet is on its way to the table");
                    }
                }
                Err(why) => ctx.say(why),
            },
        }
    }

    /// Enter or a click on the enemy grid: the shot at the aim goes to the server.
    fn shoot(&mut self, ctx: &mut Ctx) {
        let Some(view) = self.session.view() else {
            ctx.say(self.session.waiting_for());
            return;
        };
        let cell = self.target;
        // A sure miss that loses the turn, refused as in line mode and against the
        // computer; every other cell goes to the server, which decides.
        if let Some(me) = self.session.seat()
            && view.state.tracking[usize::from(me)].mark(cell) == Mark::Water
        {
            ctx.say(format!("{cell} is known water (next to a sunk ship)"));
            return;
        }
        let input = serde_json::to_value(Input::Shoot(cell)).unwrap_or_default();
        self.session.play(input, ctx);
    }

    fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Handled {
        if !crate::tui::plain_key(key) {
            return Handled::No;
        }
        let code = key.code;
        // `R R` resigns at any time, `r r` in the battle (`r` turns a ship while placing).
        let resign_key = match code {
            KeyCode::Char('R') => Some('R'),
            KeyCode::Char('r') if self.placer.is_none() => Some('r'),
            _ => None,
        };
        let pressed = std::mem::take(&mut self.resigning);
        if let Some(c) = resign_key {
            if pressed == Some(c) {
                self.session.resign(ctx);
            } else {
                self.resigning = Some(c);
                ctx.say(format!("Press {c} again to resign the game"));
            }
            return Handled::Yes;
        }
        if code == KeyCode::Char('t') {
            ctx.say("Hints are off in online play");
            return Handled::Yes;
        }
        if let Some(placer) = self.placer.as_mut() {
            let (handled, ask) = placer.key(code, ctx);
            self.answer(ask, ctx);
            return handled;
        }
        let rules = self.rules();
        match code {
            KeyCode::Left | KeyCode::Char('h') => self.target = step(self.target, &rules, -1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.target = step(self.target, &rules, 1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.target = step(self.target, &rules, 0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.target = step(self.target, &rules, 0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.shoot(ctx),
            KeyCode::Backspace => {
                ctx.say("A shot sent to the server stays fired: undo is off in online play");
            }
            _ => return Handled::No,
        }
        Handled::Yes
    }

    fn mouse(&mut self, kind: MouseEventKind, x: u16, y: u16, ctx: &mut Ctx) -> Handled {
        if let Some(placer) = self.placer.as_mut() {
            let (handled, ask) = placer.mouse(kind, x, y, &self.layout, ctx);
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

    /// The rules of the table (Russian until the first view).
    fn rules(&self) -> Rules {
        self.session
            .view()
            .map_or_else(Rules::russian, |v| v.state.rules.clone())
    }

    /// The lines about the table, and the fleet check once made.
    fn lines(&self, rows: usize) -> Vec<(String, Tone)> {
        let mut lines: Vec<(String, Tone)> = Vec::new();
        if let Some((ok, words)) = self.fleet_check() {
            lines.push((words.clone(), if *ok { Tone::Good } else { Tone::Bad }));
        }
        let rows = rows.saturating_sub(lines.len());
        lines.extend(
            self.session
                .table_lines(rows)
                .into_iter()
                .map(|(line, bad)| (line, if bad { Tone::Bad } else { Tone::Normal })),
        );
        lines
    }

    /// The line of whose turn it is, or the result.
    fn turn(&self) -> (String, Tone) {
        let Some(view) = self.session.view() else {
            return (self.session.waiting_for(), Tone::Dim);
        };
        if view.ending.is_some() {
            return (format!("{} · q: leave", self.result()), Tone::Accent);
        }
        let me = usize::from(self.me());
        if self.session.seat().is_some() && !view.state.placed[1 - me] {
            return (
                "Your fleet is placed: waiting for the other fleet".to_owned(),
                Tone::Dim,
            );
        }
        if self.session.my_turn() {
            let more = if view.state.rules.extra_shot_on_hit() {
                " (a hit shoots again)"
            } else {
                ""
            };
            return (
                format!("Your turn: Enter or click to shoot{more}"),
                Tone::Accent,
            );
        }
        (self.session.waiting_for(), Tone::Dim)
    }

    /// The result in a few words: who won, in how many shots, how the game ended.
    fn result(&self) -> String {
        let Some((view, ending)) = self
            .session
            .view()
            .and_then(|v| v.ending.as_ref().map(|e| (v, e)))
        else {
            return String::new();
        };
        let how = match ending.reason {
            EndReason::Resigned => " by resignation",
            EndReason::Timeout => " on time",
            EndReason::Abandoned => " (a player left)",
            EndReason::Rules => "",
        };
        let shots = |seat: u8| view.state.shots.iter().filter(|s| s.0.0 == seat).count();
        match ending.winner {
            Some(w) if Some(w.0) == self.session.seat() => {
                format!("You win{how} in {} shots", shots(w.0))
            }
            Some(_) if self.session.seat().is_some() => {
                format!("You lose{how}: the enemy fleet is shown")
            }
            Some(w) => format!("{} wins{how}", Battleship::side(w.0)),
            None => format!("Game over{how}"),
        }
    }

    /// What the screen shows: the placer, or the battle from the view.
    fn scene(&self) -> Scene<'_> {
        if let Some(placer) = &self.placer {
            let mut lines = vec![(self.placing_words(), Tone::Accent)];
            lines.extend(self.lines(4));
            return Scene::Placing(placer, lines);
        }
        let lines = self.lines(TABLE_LINES);
        match self.session.view() {
            Some(view) => Scene::Battle(Box::new(battle(
                view,
                self.session.seat(),
                self.target,
                self.turn(),
                lines,
            ))),
            None => {
                let rules = Rules::russian();
                Scene::Battle(Box::new(Battle {
                    fleet: None,
                    incoming: Tracking::new(rules.clone()),
                    tracking: Tracking::new(rules.clone()),
                    enemy_fleet: None,
                    over: false,
                    cursor: None,
                    hint: None,
                    shade: None,
                    last_theirs: None,
                    last_mine: None,
                    last_words: [None, None],
                    turn: self.turn(),
                    titles: ["Your fleet", "Enemy waters"],
                    legend: LEGEND,
                    lines,
                    rules,
                }))
            }
        }
    }

    /// What the game waits for while you lay out your fleet.
    fn placing_words(&self) -> String {
        match self.session.client.status.as_str() {
            "open" => "Lay out your fleet while the other player joins".to_owned(),
            _ if self.session.client.pending.is_some() => "Sending your fleet…".to_owned(),
            _ => "Lay out your fleet, then Enter or [send fleet]".to_owned(),
        }
    }
}

/// The legend under the battle.
const LEGEND: &str = "■ ship  X hit  • miss  ~ water  · unknown  r r: resign";

/// The battle of `view` as `me` sees it (seat 0's side for a spectator), with the aim at
/// `target` and `lines` under the grids.
fn battle(
    view: &View<Battleship>,
    me: Option<u8>,
    target: Coord,
    turn: (String, Tone),
    lines: Vec<(String, Tone)>,
) -> Battle {
    let state = &view.state;
    let mine = usize::from(me.unwrap_or(0).min(1));
    let theirs = 1 - mine;
    let over = view.ending.is_some();
    let last = |seat: usize| {
        state
            .shots
            .iter()
            .rev()
            .find(|s| usize::from(s.0.0) == seat)
            .copied()
    };
    let name = |seat: usize| match me {
        Some(m) if usize::from(m) == seat => "You".to_owned(),
        Some(_) => "Opponent".to_owned(),
        None => Battleship::side(seat as u8),
    };
    let words = |seat: usize| {
        last(seat)
            .map(|(_, cell, result)| format!("{}: {cell} {}", name(seat), result_words(result)))
    };
    Battle {
        rules: state.rules.clone(),
        fleet: state.fleets[mine].clone(),
        incoming: state.tracking[theirs].clone(),
        tracking: state.tracking[mine].clone(),
        enemy_fleet: state.fleets[theirs].clone().filter(|_| over),
        over,
        cursor: me.map(|_| target),
        hint: None,
        shade: None,
        last_theirs: last(theirs).map(|s| s.1),
        last_mine: last(mine).map(|s| s.1),
        last_words: [words(theirs), words(mine)],
        turn,
        titles: match (me, over) {
            (None, _) => ["First shooter's fleet", "Second shooter's fleet"],
            (Some(_), false) => ["Your fleet", "Enemy waters"],
            (Some(_), true) => ["Your fleet", "Enemy fleet"],
        },
        legend: LEGEND,
        lines,
    }
}

impl GameScreen for OnlineBattleship {
    fn title(&self) -> String {
        format!(
            "Battleship online · first shooter: {} · second shooter: {}",
            self.session.player_name(0),
            self.session.player_name(1)
        )
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let area = area.intersection(frame.area());
        let scene = self.scene();
        self.layout = scene::draw(&scene, frame.buffer_mut(), area, theme);
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => self.key(key, ctx),
            Event::Mouse(m) => self.mouse(m.kind, m.column, m.row, ctx),
            _ => Handled::No,
        }
    }

    fn tick(&mut self, _now: Instant, ctx: &mut Ctx) -> bool {
        let changed = self.session.poll(ctx);
        self.follow();
        changed
    }

    fn status(&self) -> String {
        if let Some(placer) = &self.placer {
            return placer.status();
        }
        let Some(view) = self.session.view() else {
            return self.session.waiting_for();
        };
        let mine = usize::from(self.me());
        let afloat = format!(
            "afloat {}:{}",
            view.state.tracking[1 - mine].afloat().len(),
            view.state.tracking[mine].afloat().len()
        );
        if view.ending.is_some() {
            let check = match self.fleet_check() {
                Some((true, _)) => " · fleets verified",
                Some((false, _)) => " · fleets NOT verified",
                None => "",
            };
            return format!("{}{check} · q: leave", self.result());
        }
        let last = view
            .state
            .shots
            .last()
            .map(|(_, cell, result)| format!(" · last: {cell} {}", result_words(*result)))
            .unwrap_or_default();
        format!("{}{last} · {afloat}", self.session.waiting_for())
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        let mut keys = placer::PLACING_KEYS.to_vec();
        keys.extend([
            ("Backspace, [undo]", "undo the last placing step"),
            ("Enter, [send fleet]", "place the fleet at the table"),
            ("r r (battle), R R", "resign the game"),
            ("n", "once the game is over: a rematch, the sides swapped"),
            ("q", "leave (the table stays: come back with --table)"),
        ]);
        keys
    }

    crate::tui::online::local_game_is_off!();
}

#[cfg(test)]
mod tests;
