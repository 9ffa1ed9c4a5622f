//! Battleship full screen: place your fleet on the grid with the keys or the mouse, then
//! shoot at the enemy grid while the computer answers at a readable pace.
//!
//! The match is a `tabletop-play` table (`Table<Battleship>`: you in seat 0, the computer
//! in seat 1): your fleet and the computer's are placed on it, every shot goes through
//! it, undo and redo are its own (back to your last shot) and saves are its saves. Every
//! rule comes from `battleship-core`: where a ship may go and why not
//! (`Placement::problems_if`, while your placement is the screen's own), random fleets
//! (`PlacementStrategy`), shots and their results, what each side knows (`View`,
//! `Tracking`), the computer's shots (on the worker thread) and the hint (`ai`). The
//! screen draws the answers and sends the moves.

mod draw;
mod input;
#[cfg(feature = "server")]
pub mod online;
mod placer;
mod play;
mod scene;
mod settings;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_play;

use std::sync::Arc;
use std::time::{Duration, Instant};

use battleship_core::ai::{Bot, Lookahead, PlacementStrategy, Shooter};
use battleship_core::{Coord, Game, Placement, Player, Rules, ShotResult, UniformFleets};
use crossterm::event::{Event, KeyEventKind, KeyModifiers};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;

use tabletop_play::battleship::{Battleship, Event as TableEvent, Input, new_table, seat_of};
use tabletop_play::{Action, EventKind, Seat, Table};

use super::worker::Worker;
use super::{Choice, Ctx, GameScreen, Handled, Theme};
use crate::battleship::{
    computer_places, computer_shot, load_save, players, save_with_draft, shot_of,
};
use crate::common::{CliResult, clock_seed};
use placer::Placer;
pub use settings::Settings;
use settings::sampler_for;

/// What the placing panel's start button says.
const START: &str = "start battle";

/// The person: the engine's first player, who shoots first (the line mode and the save
/// files make the same choice).
const YOU: Player = Player::First;
/// The computer.
const COMPUTER: Player = Player::Second;

/// The pause before each computer shot, so that a person can follow them.
const BOT_PACE: Duration = Duration::from_millis(500);

/// Where the game is.
#[derive(Debug, Clone)]
enum Phase {
    /// You lay out your fleet (the table has none of yours yet).
    Placing(Placer),
    /// Both fleets are on the table; the game may be over.
    Battle,
}

/// The computer's shooter, owned by the worker thread.
type Bots = Option<Shooter>;

/// The computer's answer: the table's version it aimed at, its cell and the generator
/// after the aiming, which the screen adopts.
type Aim = (u64, Option<Coord>, ChaCha8Rng);

/// A hint given: the shots it was computed after, its cell and the chances it showed.
type HintCache = (Vec<(Player, Coord, ShotResult)>, Coord, Option<Vec<f64>>);

/// The Battleship screen: you against the computer.
pub struct BattleshipScreen {
    /// The settings of the next new game.
    next: Settings,
    /// This game's settings.
    current: Settings,
    rules: Rules,
    /// The match: your fleet and the computer's, the shots, undo, saves.
    table: Table<Battleship>,
    phase: Phase,
    /// The thread where the computer aims, so the screen answers keys meanwhile.
    thinker: Worker<Bots, Aim>,
    /// The computer's cell for the table's version, waiting for the pace to elapse.
    aim: Option<Option<Coord>>,
    /// The strongest shooter, built on the first hint, for hints.
    hinter: Option<Lookahead>,
    /// The last hint, given again for the same shots (one position, one answer).
    hint_cache: Option<HintCache>,
    rng: ChaCha8Rng,
    sampler: Arc<UniformFleets>,
    /// The aim on the enemy grid (the placer has its own cursor).
    target: Coord,
    hint: Option<Coord>,
    /// With the hint: the strongest shooter's chance of a ship afloat on each cell.
    shade: Option<Vec<f64>>,
    /// When the computer shoots next (set when its turn begins).
    bot_due: Option<Instant>,
    /// Where the last `draw` put things, for the mouse.
    layout: draw::Layout,
}

impl BattleshipScreen {
    /// A new game with these settings and generator (your random fleet, the computer's
    /// fleet and its shots all come from `rng`).
    pub fn new(settings: Settings, rng: ChaCha8Rng) -> BattleshipScreen {
        let rules = settings.rules();
        let sampler = sampler_for(&rules);
        let mut screen = BattleshipScreen {
            next: settings,
            current: settings,
            rules: rules.clone(),
            table: new_table(rules.clone(), players(settings.level)),
            phase: Phase::Placing(Placer::new(Placement::new(rules.clone()), START)),
            thinker: Worker::new("battleship-bot", || None),
            aim: None,
            hinter: None,
            hint_cache: None,
            rng,
            sampler,
            target: Coord::from_index(0, rules.width()),
            hint: None,
            shade: None,
            bot_due: None,
            layout: draw::Layout::default(),
        };
        screen.start();
        screen
    }

    /// The game of a save file written by this screen or by line mode's `save`.
    pub fn from_save(settings: Settings, bytes: &[u8]) -> CliResult<BattleshipScreen> {
        let mut screen = BattleshipScreen::new(settings, ChaCha8Rng::seed_from_u64(0));
        screen.restore(bytes)?;
        Ok(screen)
    }

    /// Starts a game with `self.current` (the rules and sampler are set already).
    fn start(&mut self) {
        self.table = new_table(self.rules.clone(), players(self.current.level));
        self.make_bot();
        self.hinter = None;
        self.hint_cache = None;
        let mut placement = Placement::new(self.rules.clone());
        if self.current.random_fleet {
            let fleet = PlacementStrategy::Uniform.place(&self.rules, &self.sampler, &mut self.rng);
            placement = Placement::from_fleet(self.rules.clone(), &fleet);
        }
        self.phase = Phase::Placing(Placer::new(placement, START));
        self.target = Coord::from_index(0, self.rules.width());
        self.clear_hint();
        self.stop_bot();
    }

    fn restore(&mut self, bytes: &[u8]) -> CliResult {
        let mut loaded = load_save(bytes, self.current.level)?;
        let rules = loaded.table.game().rules().clone();
        if rules != self.rules {
            self.sampler = sampler_for(&rules);
        }
        self.rules = rules.clone();
        self.current.level = loaded.level;
        self.current.classic = rules == Rules::classic();
        self.next.level = loaded.level;
        self.next.classic = self.current.classic;
        self.hinter = None;
        if let Some(rng) = loaded.rng {
            self.rng = rng;
        }
        self.phase = match loaded.placing {
            Some(p) => Phase::Placing(Placer::new(p, START)),
            None => {
                // a table where only you had placed: the computer places now
                computer_places(
                    &mut loaded.table,
                    self.current.placement,
                    &self.sampler,
                    &mut self.rng,
                )?;
                Phase::Battle
            }
        };
        self.table = loaded.table;
        self.make_bot();
        self.hint_cache = None;
        self.target = Coord::from_index(0, rules.width());
        self.clear_hint();
        Ok(())
    }

    /// The game, once the battle has begun.
    fn game(&self) -> Option<&Game> {
        self.table.game().game()
    }

    /// Your placement, while you lay out your fleet.
    #[cfg(test)]
    fn placement(&self) -> Option<&Placement> {
        match &self.phase {
            Phase::Placing(p) => Some(&p.placement),
            Phase::Battle => None,
        }
    }

    /// The cursor: the bow of the ship being placed, or the aim.
    #[cfg(test)]
    fn cursor(&self) -> Coord {
        match &self.phase {
            Phase::Placing(p) => p.cursor,
            Phase::Battle => self.target,
        }
    }

    /// The placer, while you lay out your fleet.
    #[cfg(test)]
    fn placer(&self) -> &Placer {
        match &self.phase {
            Phase::Placing(p) => p,
            Phase::Battle => panic!("the battle has begun"),
        }
    }

    #[cfg(test)]
    fn orientation(&self) -> battleship_core::Orientation {
        self.placer().orientation
    }

    #[cfg(test)]
    fn selected_len(&self) -> u8 {
        self.placer().selected_len
    }

    fn title_rules(&self) -> &'static str {
        if self.rules == Rules::russian() {
            "Russian rules"
        } else if self.rules == Rules::classic() {
            "classic rules"
        } else {
            "custom rules"
        }
    }
}

/// What a shot did, short: the status line before it says whose turn is next.
fn shot_text(who: Player, cell: Coord, result: ShotResult) -> String {
    let name = if who == YOU { "You" } else { "Computer" };
    let what = match result {
        ShotResult::Miss => "miss".to_owned(),
        ShotResult::Hit => "hit".to_owned(),
        ShotResult::Sunk(s) => format!("sank a {}-cell ship", s.len()),
        ShotResult::GameOver(_) => "sank the last ship".to_owned(),
    };
    format!("{name}: {cell} {what}")
}

impl GameScreen for BattleshipScreen {
    fn title(&self) -> String {
        format!(
            "Battleship · {} · computer: {} ({})",
            self.title_rules(),
            self.current.level.name(),
            self.current.level.get()
        )
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        self.layout = match self.scene() {
            Some(scene) => scene::draw(&scene, frame.buffer_mut(), area, theme),
            None => draw::Layout::default(),
        };
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(k) => {
                if k.kind == KeyEventKind::Release
                    || k.modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                {
                    return Handled::No;
                }
                self.key(k.code, ctx)
            }
            Event::Mouse(m) => self.mouse(m.kind, m.column, m.row, ctx),
            _ => Handled::No,
        }
    }

    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        let Some((seat, _)) = self.table.bot_to_act() else {
            self.stop_bot();
            return false;
        };
        let version = self.table.version();
        let Some(due) = self.bot_due else {
            // The computer aims during the pace pause, on its own thread with its own copy
            // of the game and the generator; the screen adopts the generator with the cell.
            self.bot_due = Some(now + BOT_PACE);
            let state = self.table.game().clone();
            let rng = self.rng.clone();
            self.thinker.ask(move |bot| {
                let mut rng = rng;
                let cell = bot
                    .as_mut()
                    .and_then(|b| computer_shot(&state, b, &mut rng));
                (version, cell, rng)
            });
            return false;
        };
        if now < due {
            return false;
        }
        // Tests step in time without waiting for the thread: the answer is awaited here.
        #[cfg(test)]
        self.thinker.wait();
        if let Some((asked, cell, rng)) = self.thinker.poll()
            && asked == version
        {
            self.rng = rng;
            self.aim = Some(cell);
        }
        let Some(aim) = self.aim.take() else {
            // still aiming
            return false;
        };
        self.bot_due = None;
        let Some(cell) = aim else {
            return false;
        };
        match self.table.apply(seat, Action::Play(Input::Shoot(cell))) {
            Ok(events) => {
                if let Some((_, cell, result)) = shot_of(&events) {
                    ctx.say(shot_text(COMPUTER, cell, result));
                }
            }
            Err(e) => ctx.say(format!("Illegal: {e}")),
        }
        true
    }

    fn status(&self) -> String {
        match &self.phase {
            Phase::Placing(p) => p.status(),
            Phase::Battle => {
                let Some(game) = self.game() else {
                    return String::new();
                };
                // short, so that a message fits after it on 80 columns
                let turn = match game.outcome() {
                    Some(o) if o.winner == YOU => format!("You win in {} shots! n: new", o.shots),
                    Some(o) => format!("Computer wins in {} shots · n: new", o.shots),
                    None if game.side_to_move() == YOU => "Your turn".to_owned(),
                    None => "Computer aiming…".to_owned(),
                };
                let mut parts = vec![turn];
                for (who, name) in [(YOU, "you"), (COMPUTER, "it")] {
                    if let Some((_, cell, result)) =
                        game.history().iter().rev().find(|(p, _, _)| *p == who)
                    {
                        parts.push(format!("{name} {cell} {}", short_result(*result)));
                    }
                }
                parts.push(format!(
                    "afloat {}:{}",
                    game.view(COMPUTER).tracking().afloat().len(),
                    game.view(YOU).tracking().afloat().len()
                ));
                parts.join(" · ")
            }
        }
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        let mut keys = placer::PLACING_KEYS.to_vec();
        keys.extend([
            ("Enter, [start battle]", "start once the fleet is complete"),
            (
                "u, Backspace",
                "undo: the last placing step, or your last shot and the computer's answers",
            ),
            ("U, Ctrl-R", "redo"),
            ("t", "hint: the cell the strongest shooter would pick"),
        ]);
        keys
    }

    fn choices(&self) -> Vec<Choice> {
        self.next.choices()
    }

    fn choose(&mut self, choice: usize, value: usize, ctx: &mut Ctx) {
        if let Some(said) = self.next.choose(choice, value) {
            ctx.say(format!("{said}: from the next new game (n)"));
        }
    }

    fn new_game(&mut self, ctx: &mut Ctx) {
        self.current = self.next;
        let rules = self.current.rules();
        if rules != self.rules {
            self.sampler = sampler_for(&rules);
            self.rules = rules;
        }
        self.start();
        ctx.say(format!(
            "New game, {} against the {} shooter: lay out your fleet",
            self.title_rules(),
            self.current.level.name()
        ));
    }

    fn undo(&mut self, ctx: &mut Ctx) {
        match &mut self.phase {
            Phase::Placing(p) => p.undo(ctx),
            Phase::Battle => {
                let shot = self
                    .game()
                    .is_some_and(|g| g.history().iter().any(|(p, _, _)| *p == YOU));
                if !shot {
                    ctx.say("Nothing to undo: you have not shot yet");
                    return;
                }
                // back to before your last shot, with the computer's answers to it
                match self.table.apply(seat_of(YOU), Action::Undo) {
                    Ok(events) => {
                        let taken: Vec<(Seat, Coord)> = events
                            .iter()
                            .filter_map(|e| match e.kind {
                                EventKind::Game(TableEvent::ShotTakenBack { seat, cell }) => {
                                    Some((seat, cell))
                                }
                                _ => None,
                            })
                            .collect();
                        let you = seat_of(YOU);
                        let answers = taken.iter().filter(|(s, _)| *s != you).count();
                        if let Some(&(_, cell)) = taken.iter().find(|(s, _)| *s == you) {
                            ctx.say(match answers {
                                0 => format!("Took back your shot at {cell}"),
                                n => format!(
                                    "Took back your shot at {cell} and the computer's {n} answer(s)"
                                ),
                            });
                        }
                    }
                    Err(e) => ctx.say(format!("Cannot undo: {e}")),
                }
                self.bot_new_game();
                if let Some(h) = &mut self.hinter {
                    h.new_game();
                }
                self.clear_hint();
            }
        }
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        match &mut self.phase {
            Phase::Placing(p) => p.redo(ctx),
            Phase::Battle => {
                // the computer's answers that were taken back with it come back too
                let Ok(events) = self.table.apply(seat_of(YOU), Action::Redo) else {
                    ctx.say("Nothing to redo");
                    return;
                };
                self.clear_hint();
                self.stop_bot();
                if let Some((_, cell, _)) = shot_of(&events) {
                    ctx.say(format!("Played your shot at {cell} again"));
                }
            }
        }
    }

    /// The table; while you place your fleet, with the ships placed so far as your draft.
    fn save(&self) -> Vec<u8> {
        let placing = match &self.phase {
            Phase::Placing(p) => Some(&p.placement),
            Phase::Battle => None,
        };
        save_with_draft(&self.table, placing)
    }

    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.restore(bytes).map_err(|e| e.message().to_owned())
    }

    /// A battle with shots fired and not over yet (a placement is quick to redo).
    fn in_progress(&self) -> bool {
        match &self.phase {
            Phase::Placing(_) => false,
            Phase::Battle => self
                .game()
                .is_some_and(|g| !g.is_over() && !g.history().is_empty()),
        }
    }
}

/// A shot's result in a word or two.
fn short_result(result: ShotResult) -> String {
    match result {
        ShotResult::Miss => "miss".to_owned(),
        ShotResult::Hit => "hit".to_owned(),
        ShotResult::Sunk(s) | ShotResult::GameOver(s) => format!("sunk {}", s.len()),
    }
}

/// The game with its default settings, for the games menu.
pub fn default_screen() -> Box<dyn GameScreen> {
    Box::new(BattleshipScreen::new(
        Settings::default(),
        ChaCha8Rng::seed_from_u64(clock_seed()),
    ))
}
