//! Long Nardy full screen: the board with both halves of the bar, step-by-step play with
//! the legal destinations of the selected checker highlighted, bot turns shown step by
//! step, and the ranked hints.
//!
//! The view is fixed, as in the line mode: points 13–24 along the top (left to right),
//! 12–1 along the bottom, White's home (1–6) bottom right with its tray to the right of
//! point 1, Black's home (13–18) top left with its tray to the left of point 13.
//!
//! The screen is a view of a `tabletop_play` table ([`Table<Nardy>`]): every step, whole
//! turn, undo, redo, bot turn and save goes through the table, which plays forced passes
//! itself. The screen shows what the table did at a readable pace: a bot's turn step by
//! step, a forced pass for a moment, from the table's events.

mod board;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use nardy_core::ai::{
    Bot, Evaluator, HandEval, Level, RankedMove, Resources, Search, SearchConfig,
};
use nardy_core::{
    BlockCheck, Color, Game, HeadException, Move, Opening, Rules, Scoring, Step, TurnBuilder,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::{Position as Cell, Rect};
use tabletop_play::nardy::{Event as TableEvent, Input, Nardy, bot_action, color_of, seat_of};
use tabletop_play::{Action, EventKind, Events, Player, Refusal, Seat, Table};

use super::worker::Worker;
use super::{Choice, Ctx, GameScreen, Handled, Theme};

/// The pause before a bot's first step, so its dice can be read.
const BOT_PAUSE: Duration = Duration::from_millis(500);
/// The pause between two steps of a bot's turn (and after its last step).
const BOT_STEP: Duration = Duration::from_millis(500);
/// How long a forced pass is shown before the turn goes over.
const PASS_PAUSE: Duration = Duration::from_millis(900);

/// The level `tabletop nardy` plays by default and ranks hints with.
const DEFAULT_LEVEL: u8 = 5;

/// The levels offered for hints: the ones that rank by an evaluation (3 to 6).
const HINT_LEVELS: [u8; 4] = [3, 4, 5, 6];

/// The settings of a screen: who plays each side, the rules of the next game, the seed of
/// the dice and the level that ranks the hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// White's bot level, `None` for a person.
    pub white: Option<Level>,
    /// Black's bot level, `None` for a person.
    pub black: Option<Level>,
    /// The rules (of the first game, then of each new game).
    pub rules: Rules,
    /// The seed of the first game's dice (game `k` of the session uses `seed + k`).
    pub seed: u64,
    /// The level whose search ranks the hints.
    pub hint_level: Level,
}

impl Settings {
    /// You as White against the default bot as Black, federation rules, dice seeded from
    /// the clock.
    pub fn new(seed: u64) -> Settings {
        let strong = Level::new(DEFAULT_LEVEL).unwrap_or(Level::MAX);
        Settings {
            white: None,
            black: Some(strong),
            rules: Rules::default(),
            seed,
            hint_level: strong,
        }
    }

    fn player(&self, color: Color) -> Option<Level> {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The table's players: a person, or a bot of its level.
    fn players(&self) -> [Player; 2] {
        [self.white, self.black].map(|p| p.map_or(Player::Human, |l| Player::Bot(l.get())))
    }
}

/// The game with its default settings, for the games menu.
pub fn default_screen() -> Box<dyn GameScreen> {
    Box::new(NardyScreen::new(Settings::new(crate::common::clock_seed())))
}

/// A place on the board the cursor can be on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spot {
    /// A point, 1 to 24.
    Point(u8),
    /// The borne-off tray of a colour.
    Tray(Color),
}

impl Spot {
    /// The spot at `(row, column)` of the cursor grid: the top row is Black's tray then
    /// points 13–24, the bottom row points 12–1 then White's tray.
    fn at(row: u8, col: u8) -> Option<Spot> {
        match (row, col) {
            (0, 0) => Some(Spot::Tray(Color::Black)),
            (0, 1..=12) => Some(Spot::Point(12 + col)),
            (1, 1..=12) => Some(Spot::Point(13 - col)),
            (1, 13) => Some(Spot::Tray(Color::White)),
            _ => None,
        }
    }

    /// The `(row, column)` of this spot in the cursor grid.
    fn grid(self) -> (u8, u8) {
        match self {
            Spot::Tray(Color::Black) => (0, 0),
            Spot::Tray(Color::White) => (1, 13),
            Spot::Point(p) if p >= 13 => (0, p - 12),
            Spot::Point(p) => (1, 13 - p),
        }
    }

    /// The spot one move away in a direction (`dx` along the row, `dy` across), staying
    /// on the board.
    fn step(self, dx: i8, dy: i8) -> Spot {
        let (row, col) = self.grid();
        let row = if dy < 0 {
            0
        } else if dy > 0 {
            1
        } else {
            row
        };
        let col = (col as i8 + dx).clamp(0, 13) as u8;
        Spot::at(row, col)
            .or_else(|| Spot::at(row, col.clamp(1, 12)))
            .unwrap_or(self)
    }
}

/// A clickable word of the side panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Button {
    /// Takes back the last step of the turn (as Backspace).
    StepBack,
    /// Shows or hides the hints (as `t`).
    Hints,
    /// Plays the only legal turn (as `a`).
    OnlyTurn,
}

/// A turn the table has played that the screen is still showing: a bot's turn (step by
/// step) or a forced pass.
struct Shown {
    /// The engine game before the turn.
    before: Game,
    /// The turn.
    mv: Move,
}

/// A bot's turn being shown step by step.
struct BotTurn {
    mv: Move,
    builder: TurnBuilder,
}

/// The ranked turns of one roll.
struct Hints {
    level: Level,
    ranked: Vec<RankedMove>,
}

/// What is known about the turn to play, computed once when it begins.
#[derive(Debug, Default)]
struct TurnInfo {
    /// The number of distinct legal turns.
    moves: usize,
    /// The only legal turn, when there is exactly one (and it is not the pass).
    only: Option<Move>,
    /// Whether the side to move has no legal step.
    passing: bool,
    /// Whether the turn was announced on the status line.
    said: bool,
}

/// Each side's bot, owned by the worker thread and built there when first needed.
type Bots = [Option<Box<dyn Bot>>; 2];

/// A bot's answer: the position and dice it thought about, its action (`None` when the
/// game is over) and the generator after the thinking, which the screen adopts.
type Thought = (
    nardy_core::Position,
    nardy_core::Dice,
    Option<Action<Input>>,
    ChaCha8Rng,
);

/// Long Nardy played full screen.
pub struct NardyScreen {
    settings: Settings,
    /// Games started before this one (the seed of game `k` is `seed + k`).
    games: u64,
    /// The match: the game, the steps of the turn in progress, the seats, undo and redo.
    table: Table<Nardy>,
    /// Turns the table has played that are still to be shown, oldest first; while there
    /// are some, the screen shows the game before the first of them.
    replay: VecDeque<Shown>,
    /// The thread where the bots think, so the screen answers keys meanwhile.
    thinker: Worker<Bots, Thought>,
    /// The bot's action for the position on the board, once thought of.
    thought: Option<Option<Action<Input>>>,
    /// The bear-off database and network of levels 4 to 6, shared by bots and hints.
    resources: Option<Resources>,
    /// The resources being built in the background.
    loading: Option<JoinHandle<Resources>>,
    bot_rng: ChaCha8Rng,
    /// The person's turn in progress as the table has it (`table.game().builder()`),
    /// taken again after every change of the table ([`NardyScreen::sync`]).
    builder: Option<TurnBuilder>,
    /// The bot's turn being shown.
    anim: Option<BotTurn>,
    info: TurnInfo,
    cursor: Spot,
    /// The point of the selected checker.
    selected: Option<u8>,
    hints: Option<Hints>,
    /// When the next timed action (a bot step, a pass) happens.
    next_at: Option<Instant>,
    /// The rectangles of the spots drawn last, for the mouse.
    hits: Vec<(Rect, Spot)>,
    /// The point of the checker under the pressed left button, and whether a release on
    /// the same point deselects it (it was selected before the press).
    drag: Option<(u8, bool)>,
    /// The rectangles of the buttons drawn last.
    buttons: Vec<(Rect, Button)>,
}

impl NardyScreen {
    /// A new game with `settings`.
    pub fn new(settings: Settings) -> NardyScreen {
        let game = Game::new(settings.rules, settings.seed);
        NardyScreen::with_game(settings, game)
    }

    /// Continues `game` (its rules stay in force) with the players and hint level of
    /// `settings`; a forced pass the table plays at once is shown.
    pub fn with_game(settings: Settings, game: Game) -> NardyScreen {
        let table = Table::new(Nardy::new(game.clone()), &settings.players());
        let mut screen = NardyScreen::with_table(settings, table);
        screen.show_passes(game);
        screen.reset_turn();
        screen
    }

    /// Continues `table` (a loaded save; its rules stay in force) with the players and
    /// hint level of `settings`.
    pub fn with_table(mut settings: Settings, mut table: Table<Nardy>) -> NardyScreen {
        settings.rules = *table.game().game().rules();
        seat_players(&mut table, settings.players());
        let mut screen = NardyScreen {
            settings,
            games: 0,
            table,
            replay: VecDeque::new(),
            thinker: Worker::new("nardy-bot", || [None, None]),
            thought: None,
            resources: None,
            loading: None,
            bot_rng: ChaCha8Rng::seed_from_u64(settings.seed ^ 0x9E37_79B9_7F4A_7C15),
            builder: None,
            anim: None,
            info: TurnInfo::default(),
            cursor: Spot::Point(Color::White.head()),
            selected: None,
            hints: None,
            next_at: None,
            hits: Vec::new(),
            drag: None,
            buttons: Vec::new(),
        };
        screen.preload();
        screen.reset_turn();
        screen
    }

    /// Starts building the resources in the background when a setting needs them.
    fn preload(&mut self) {
        let needed = [self.settings.white, self.settings.black]
            .into_iter()
            .flatten()
            .chain([self.settings.hint_level])
            .any(Level::needs_resources);
        if needed && self.resources.is_none() && self.loading.is_none() {
            self.loading = std::thread::Builder::new()
                .name("nardy-resources".into())
                .spawn(Resources::new)
                .ok();
        }
    }

    /// The resources, waiting for (or doing) the build.
    fn resources(&mut self) -> &Resources {
        let loading = self.loading.take();
        self.resources
            .get_or_insert_with(|| loading.and_then(|h| h.join().ok()).unwrap_or_default())
    }

    fn is_human(&self, color: Color) -> bool {
        self.settings.player(color).is_none()
    }

    fn player_name(&self, color: Color) -> String {
        match self.settings.player(color) {
            None if self.is_human(color.other()) => "human".into(),
            None => "you".into(),
            Some(level) => format!("bot ({})", level.name()),
        }
    }

    /// The engine game shown: before the first turn still to be shown, else the table's
    /// (at the start of the turn in progress).
    fn game(&self) -> &Game {
        match self.replay.front() {
            Some(shown) => &shown.before,
            None => self.table.game().game(),
        }
    }

    /// The seat of the person who asks for undo or redo: the seat to act if a person's,
    /// else the first person's seat.
    fn person_seat(&self) -> Option<Seat> {
        self.table
            .to_act()
            .filter(|&s| self.is_human(color_of(s)))
            .or_else(|| {
                Color::ALL
                    .into_iter()
                    .find(|&c| self.is_human(c))
                    .map(seat_of)
            })
    }

    /// Takes the person's turn in progress from the table, when a person is to act and
    /// nothing is left to show.
    fn sync(&mut self) {
        let person = self
            .table
            .to_act()
            .is_some_and(|s| self.is_human(color_of(s)));
        self.builder = if person && self.replay.is_empty() {
            self.table.game().builder()
        } else {
            None
        };
    }

    /// Queues the turns of `events` to show: the bots' turns and the forced passes, each
    /// with the game before it (`before` is the game before the first of them).
    fn show(&mut self, mut before: Game, events: &Events<Nardy>) {
        for event in events {
            let EventKind::Game(TableEvent::Turn {
                seat, mv, forced, ..
            }) = &event.kind
            else {
                continue;
            };
            if *forced || !self.is_human(color_of(*seat)) {
                self.replay.push_back(Shown {
                    before: before.clone(),
                    mv: mv.clone(),
                });
            }
            if before.play(mv).is_err() {
                break;
            }
        }
    }

    /// Queues the forced passes the table played at once when it took `game` over.
    fn show_passes(&mut self, mut game: Game) {
        let played = game.history().len();
        let passes: Vec<Move> = self.table.game().game().history()[played..]
            .iter()
            .map(|r| r.mv.clone())
            .collect();
        for mv in passes {
            let before = game.clone();
            if game.play(&mv).is_err() {
                break;
            }
            self.replay.push_back(Shown { before, mv });
        }
    }

    /// Forgets everything about the turn shown and looks at the next one.
    fn reset_turn(&mut self) {
        self.thinker.cancel();
        self.thought = None;
        self.anim = None;
        self.selected = None;
        self.next_at = None;
        self.hints = None;
        self.sync();
        let moves = self.game().legal_moves();
        let passing = moves.len() == 1 && moves[0].is_pass();
        self.info = TurnInfo {
            moves: moves.len(),
            only: (moves.len() == 1 && !passing).then(|| moves[0].clone()),
            passing,
            said: false,
        };
        if self.builder.is_some() {
            let movable = self.movable();
            if !matches!(self.cursor, Spot::Point(p) if movable.contains(&p))
                && let Some(&first) = movable.first()
            {
                self.cursor = Spot::Point(first);
            }
        }
    }

    /// The board shown: the steps played so far of the turn in progress.
    fn shown_position(&self) -> nardy_core::Position {
        if let Some(a) = &self.anim {
            a.builder.position()
        } else if let Some(b) = &self.builder {
            b.position()
        } else {
            *self.game().position()
        }
    }

    /// The dice still to play in the turn shown.
    fn remaining_dice(&self) -> Vec<u8> {
        if self.game().outcome().is_some() || self.info.passing {
            return Vec::new();
        }
        match (&self.anim, &self.builder) {
            (Some(a), _) => a.builder.remaining_dice(),
            (None, Some(b)) => b.remaining_dice(),
            (None, None) => self.game().dice().to_play(),
        }
    }

    /// The steps to highlight as the last move: the bot's turn being shown, or else the
    /// last turn played.
    fn last_steps(&self) -> Vec<Step> {
        match &self.anim {
            Some(a) => a.builder.played().to_vec(),
            None => self
                .game()
                .history()
                .last()
                .map(|r| r.mv.steps().to_vec())
                .unwrap_or_default(),
        }
    }

    /// The side whose steps [`NardyScreen::last_steps`] gives.
    fn last_color(&self) -> Color {
        match (&self.anim, self.game().history().last()) {
            (Some(_), _) | (None, None) => self.game().side_to_move(),
            (None, Some(r)) => r.color,
        }
    }

    /// The points whose checker has a legal next step, in the order of the mover's path.
    fn movable(&self) -> Vec<u8> {
        let Some(b) = &self.builder else {
            return Vec::new();
        };
        let color = b.start().side_to_move();
        let mut points: Vec<u8> = b.legal_steps().iter().map(|s| s.from()).collect();
        points.sort_by_key(|&p| std::cmp::Reverse(nardy_core::path_coordinate(color, p)));
        points.dedup();
        points
    }

    /// The destinations of the selected checker (0 for bearing off).
    fn targets(&self) -> Vec<u8> {
        match (&self.builder, self.selected) {
            (Some(b), Some(p)) => b.destinations(p),
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Handled {
        if !super::plain_key(key) {
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

    fn mouse(&mut self, mouse: &MouseEvent, ctx: &mut Ctx) -> Handled {
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
    fn drop_at(&mut self, spot: Option<Spot>, ctx: &mut Ctx) -> Handled {
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
    fn act(&mut self, spot: Spot, ctx: &mut Ctx) {
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

    fn select(&mut self, point: u8, ctx: &mut Ctx) {
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

    /// Plays one step of the person's turn at the table; the turn goes to the game when
    /// its steps are complete.
    fn play_step(&mut self, from: u8, to: Option<u8>, ctx: &mut Ctx) {
        let Some(seat) = self.table.to_act().filter(|_| self.builder.is_some()) else {
            return;
        };
        let step = match Step::new(from, to) {
            Ok(s) => s,
            Err(e) => {
                ctx.say(format!("Illegal: {e}"));
                return;
            }
        };
        let before = self.game().clone();
        match self.table.apply(seat, Action::Play(Input::Step(step))) {
            Ok(events) => {
                self.selected = None;
                self.cursor = match to {
                    Some(p) => Spot::Point(p),
                    None => Spot::Point(from),
                };
                self.turn_played(before, &events);
            }
            Err(Refusal::Illegal(why)) => ctx.say(format!("Illegal: {step}: {why}")),
            Err(e) => ctx.say(format!("Illegal: {step}: {e}")),
        }
    }

    /// After a person's action: with the turn complete, shows what the table played after
    /// it and looks at the next turn; else takes the turn in progress again.
    fn turn_played(&mut self, before: Game, events: &Events<Nardy>) {
        let done = events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Game(TableEvent::Turn { .. })));
        if done {
            self.show(before, events);
            self.reset_turn();
        } else {
            self.sync();
        }
    }

    /// Tab: the cursor goes to the next checker that can move, or with a selection to the
    /// next destination.
    fn cycle(&mut self, direction: i32) {
        let spots: Vec<Spot> = match (self.selected, &self.builder) {
            (Some(_), Some(b)) => {
                let mover = b.start().side_to_move();
                self.targets()
                    .into_iter()
                    .map(|p| {
                        if p == 0 {
                            Spot::Tray(mover)
                        } else {
                            Spot::Point(p)
                        }
                    })
                    .collect()
            }
            _ => self.movable().into_iter().map(Spot::Point).collect(),
        };
        if spots.is_empty() {
            return;
        }
        let n = spots.len() as i32;
        let next = match spots.iter().position(|&s| s == self.cursor) {
            Some(i) => (i as i32 + direction).rem_euclid(n),
            None if direction > 0 => 0,
            None => n - 1,
        };
        self.cursor = spots[next as usize];
    }

    fn take_back_step(&mut self, ctx: &mut Ctx) {
        let Some(b) = &self.builder else {
            ctx.say("Nothing to take back: it is not your turn");
            return;
        };
        let Some(seat) = self.table.to_act().filter(|_| !b.played().is_empty()) else {
            ctx.say("No step of this turn to take back (u takes back whole turns)");
            return;
        };
        match self.table.apply(seat, Action::Undo) {
            Ok(events) => {
                self.sync();
                for event in &events {
                    if let EventKind::Game(TableEvent::StepTakenBack { step, .. }) = event.kind {
                        self.selected = None;
                        self.cursor = Spot::Point(step.from());
                        ctx.say(format!("Took back {step}"));
                    }
                }
            }
            Err(e) => ctx.say(sentence(&e)),
        }
    }

    /// `o`: bears off the selected checker, or the one under the cursor.
    fn bear_off(&mut self, ctx: &mut Ctx) {
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

    /// `a`: plays the only legal turn (from the start of the turn: the steps played go
    /// back first).
    fn play_only(&mut self, ctx: &mut Ctx) {
        let Some(mv) = self.info.only.clone() else {
            match self.builder {
                Some(_) => ctx.say(format!(
                    "{} legal turns: choose one (t ranks them)",
                    self.info.moves
                )),
                None => ctx.say("It is not your turn"),
            }
            return;
        };
        let Some(seat) = self.table.to_act().filter(|_| self.builder.is_some()) else {
            return;
        };
        let mut table = self.table.clone();
        while !table.game().played().is_empty() {
            if table.apply(seat, Action::Undo).is_err() {
                break;
            }
        }
        let before = table.game().game().clone();
        match table.apply(seat, Action::Play(Input::Turn(mv))) {
            Ok(events) => {
                self.table = table;
                self.turn_played(before, &events);
            }
            Err(e) => ctx.say(format!("Illegal: {e}")),
        }
    }

    fn toggle_hints(&mut self, ctx: &mut Ctx) {
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

    /// Plays the bots' turns at the table and shows them and the forced passes at a
    /// readable pace.
    fn advance(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        let mut changed = false;
        if !self.info.said {
            self.info.said = true;
            changed = true;
            let color = self.game().side_to_move();
            let dice = self.game().dice();
            if let Some(outcome) = self.game().outcome() {
                ctx.say(format!("{outcome}. Press n for a new game."));
            } else if self.info.passing {
                ctx.say(format!(
                    "{color} rolls {}-{} and has no legal move: the turn passes",
                    dice.high(),
                    dice.low()
                ));
            } else if let Some(mv) = self.info.only.as_ref().filter(|_| self.builder.is_some()) {
                ctx.say(format!("Only one legal turn: {mv} (press a to play it)"));
            }
        }
        if self.game().outcome().is_some() {
            return changed;
        }
        let at = *self.next_at.get_or_insert(
            now + if self.info.passing {
                PASS_PAUSE
            } else {
                BOT_PAUSE
            },
        );
        // A bot thinks during the pause before its first step, on the worker thread.
        changed |= self.think();
        if now < at {
            return changed;
        }
        if self.replay.is_empty() {
            // The bot's turn goes to the table at once; the screen shows it step by step.
            let Some((seat, _)) = self.table.bot_to_act() else {
                return changed;
            };
            let Some(Some(action)) = self.thought.take() else {
                return changed;
            };
            let before = self.game().clone();
            match self.table.apply(seat, action) {
                Ok(events) => self.show(before, &events),
                Err(e) => {
                    ctx.say(format!("The bot's turn was refused: {e}"));
                    return true;
                }
            }
        }
        if self.info.passing {
            // The table played the pass; it has been shown long enough.
            self.replay.pop_front();
            self.reset_turn();
            return true;
        }
        self.next_at = Some(now + BOT_STEP);
        match self.anim.as_mut() {
            None => {
                let Some(shown) = self.replay.front() else {
                    return changed;
                };
                let Ok(mut builder) = shown.before.builder() else {
                    return changed;
                };
                if let Some(&first) = shown.mv.steps().first()
                    && builder.play(first).is_err()
                {
                    builder.reset();
                }
                let mv = shown.mv.clone();
                self.anim = Some(BotTurn { mv, builder });
            }
            Some(a) => {
                let next = a.builder.played().len();
                match a.mv.steps().get(next) {
                    Some(&step) if a.builder.play(step).is_ok() => {}
                    _ => {
                        self.replay.pop_front();
                        self.reset_turn();
                    }
                }
            }
        }
        true
    }

    /// Asks the worker for the bot's action when a bot is to act at the table and nothing
    /// is asked yet, and takes the answer when it has come; true when the status line
    /// changed.
    fn think(&mut self) -> bool {
        if !self.replay.is_empty() {
            return false;
        }
        let Some((seat, _)) = self.table.bot_to_act() else {
            return false;
        };
        let Some(level) = self.settings.player(color_of(seat)) else {
            return false;
        };
        let mut changed = false;
        if self.thought.is_none() && !self.thinker.busy() {
            let resources = if level.needs_resources() {
                match self.resources_ready() {
                    Some(r) => Some(r),
                    None => return false,
                }
            } else {
                None
            };
            let rules = *self.game().rules();
            let nardy = self.table.game().clone();
            let rng = self.bot_rng.clone();
            let i = seat.index();
            self.thinker.ask(move |bots| {
                let mut rng = rng;
                let bot = bots[i].get_or_insert_with(|| match &resources {
                    Some(r) => level.bot_with(&rules, r),
                    None => level.bot(&rules),
                });
                let action = bot_action(&nardy, bot.as_mut(), &mut rng);
                let game = nardy.game();
                (*game.position(), game.dice(), action, rng)
            });
            changed = true;
        }
        if let Some((position, dice, action, rng)) = self.thinker.poll()
            && position == *self.game().position()
            && dice == self.game().dice()
        {
            self.bot_rng = rng;
            self.thought = Some(action);
            changed = true;
        }
        changed
    }

    /// The resources once built, without waiting: `None` while the background build runs.
    fn resources_ready(&mut self) -> Option<Resources> {
        if self.resources.is_none() {
            self.preload();
            if self.loading.as_ref().is_some_and(|h| !h.is_finished()) {
                return None;
            }
        }
        Some(self.resources().clone())
    }

    /// Whether a bot is thinking (or waiting for its resources) about the turn to play.
    pub fn thinking(&self) -> bool {
        self.thinker.busy()
            || (self.thought.is_none()
                && self.replay.is_empty()
                && self.loading.is_some()
                && self
                    .table
                    .bot_to_act()
                    .and_then(|(seat, _)| self.settings.player(color_of(seat)))
                    .is_some_and(Level::needs_resources))
    }

    /// Blocks until the resources are built and the bot's answer has come; true if there
    /// was something to wait for (tests step deterministically with it).
    #[cfg(test)]
    fn wait_bot(&mut self) -> bool {
        let waited = self.thinking();
        if self.loading.is_some() {
            self.resources();
        }
        self.thinker.wait();
        waited
    }

    /// The table's undo: the steps of the turn in progress, else whole turns back to the
    /// last decision of a person (the bot's reply goes with it), with the same dice.
    fn undo_turns(&mut self, ctx: &mut Ctx) {
        if let Some(seat) = self.table.to_act().filter(|_| {
            self.builder
                .as_ref()
                .is_some_and(|b| !b.played().is_empty())
        }) {
            while !self.table.game().played().is_empty() {
                if self.table.apply(seat, Action::Undo).is_err() {
                    break;
                }
            }
            self.selected = None;
            self.sync();
            ctx.say("Took back the steps of this turn");
            return;
        }
        let Some(seat) = self.person_seat() else {
            ctx.say("Nothing to undo");
            return;
        };
        match self.table.apply(seat, Action::Undo) {
            Ok(events) => {
                // The turns come latest first.
                let text: Vec<String> = events
                    .iter()
                    .rev()
                    .filter_map(|e| match &e.kind {
                        EventKind::Game(TableEvent::TurnTakenBack { seat, mv }) => {
                            Some(format!("{} {mv}", color_of(*seat)))
                        }
                        _ => None,
                    })
                    .collect();
                ctx.say(format!("Took back: {}", text.join(", ")));
                self.replay.clear();
                self.reset_turn();
            }
            Err(e) => ctx.say(sentence(&e)),
        }
    }

    /// The table's redo: what the last undo took back, up to the next decision of a
    /// person.
    fn redo_turns(&mut self, ctx: &mut Ctx) {
        let Some(seat) = self.person_seat() else {
            ctx.say("Nothing to redo");
            return;
        };
        match self.table.apply(seat, Action::Redo) {
            Ok(events) => {
                let text: Vec<String> = events
                    .iter()
                    .filter_map(|e| match &e.kind {
                        EventKind::Game(TableEvent::Turn { seat, mv, .. }) => {
                            Some(format!("{} {mv}", color_of(*seat)))
                        }
                        _ => None,
                    })
                    .collect();
                ctx.say(format!("Replayed: {}", text.join(", ")));
                self.replay.clear();
                self.reset_turn();
            }
            Err(e) => ctx.say(sentence(&e)),
        }
    }
}

/// A refusal of the table as a sentence of the status line.
fn sentence(refusal: &Refusal) -> String {
    let text = refusal.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// Seats `players` at `table` where they are not already.
fn seat_players(table: &mut Table<Nardy>, players: [Player; 2]) {
    for (i, player) in players.into_iter().enumerate() {
        if table.players().get(i) != Some(&player) {
            // Only a seat the table lacks is refused, and both seats exist.
            let _ = table.set_player(Seat(i as u8), player);
        }
    }
}

/// The values of a player setting: a person, then each level.
fn player_values() -> Vec<String> {
    std::iter::once("human".to_owned())
        .chain(
            Level::ALL
                .iter()
                .map(|l| format!("bot: {} ({})", l.name(), l.get())),
        )
        .collect()
}

fn player_index(player: Option<Level>) -> usize {
    player.map_or(0, |l| usize::from(l.get()))
}

impl GameScreen for NardyScreen {
    fn title(&self) -> String {
        format!(
            "Long Nardy · White: {} · Black: {}",
            self.player_name(Color::White),
            self.player_name(Color::Black)
        )
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let area = area.intersection(frame.area());
        let (hits, buttons) = board::draw(self, frame.buffer_mut(), area, theme);
        self.hits = hits;
        self.buttons = buttons;
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => self.key(key, ctx),
            Event::Mouse(mouse) => self.mouse(mouse, ctx),
            _ => Handled::No,
        }
    }

    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        self.advance(now, ctx)
    }

    /// Kept short, so the host's message after it stays on the line: the side to move
    /// and its dice, the last turn's steps, the pip counts.
    fn status(&self) -> String {
        let pos = self.shown_position();
        let pips = format!(
            "pips W {} B {}",
            pos.pip_count(Color::White),
            pos.pip_count(Color::Black)
        );
        let last = self
            .game()
            .history()
            .last()
            .map(|r| format!(" · last: {} {}", r.color, r.mv))
            .unwrap_or_default();
        if let Some(outcome) = self.game().outcome() {
            return format!("{outcome}{last} · n: new game");
        }
        let color = self.game().side_to_move();
        let who = match self.settings.player(color) {
            Some(_) => "bot",
            None if self.is_human(color.other()) => "human",
            None => "you",
        };
        let dice = self.game().dice();
        let thinking = if self.thinking() {
            " · thinking…"
        } else {
            ""
        };
        format!(
            "{color} ({who}) to play {}-{}{last} · {pips}{thinking}",
            dice.high(),
            dice.low()
        )
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
            ("o", "bear off the selected checker (or the tray: Enter)"),
            ("Backspace", "take back the last step of this turn"),
            ("a", "play the only legal turn"),
            ("t", "ranked hints for your roll (again: hide)"),
        ]
    }

    fn choices(&self) -> Vec<Choice> {
        let r = &self.settings.rules;
        let two = |label, a: &str, b: &str, second: bool| Choice {
            label,
            values: vec![a.to_owned(), b.to_owned()],
            current: usize::from(second),
        };
        vec![
            Choice {
                label: "White",
                values: player_values(),
                current: player_index(self.settings.white),
            },
            Choice {
                label: "Black",
                values: player_values(),
                current: player_index(self.settings.black),
            },
            two(
                "Opening (next game)",
                "roll-off dice",
                "reroll",
                r.opening == Opening::Reroll,
            ),
            two(
                "Two from the head (next game)",
                "6-6, 4-4, 3-3",
                "any blocked double",
                r.head_exception == HeadException::AnyBlockedDouble,
            ),
            two(
                "Six-point block checked (next game)",
                "after every step",
                "at the end of the turn",
                r.block_check == BlockCheck::EndOfTurn,
            ),
            two(
                "Scoring (next game)",
                "oin 1, mars 2",
                "oin 1, mars 2, koks 3",
                r.scoring == Scoring::WithKoks,
            ),
            two("Last-roll tie (next game)", "no", "yes", r.last_roll_tie),
            Choice {
                label: "Hints ranked by",
                values: HINT_LEVELS
                    .iter()
                    .filter_map(|&n| Level::new(n))
                    .map(|l| format!("{} ({})", l.name(), l.get()))
                    .collect(),
                current: HINT_LEVELS
                    .iter()
                    .position(|&n| n == self.settings.hint_level.get())
                    .unwrap_or(0),
            },
        ]
    }

    fn choose(&mut self, choice: usize, value: usize, ctx: &mut Ctx) {
        let second = value == 1;
        let r = &mut self.settings.rules;
        match choice {
            0 | 1 => {
                let player = match value {
                    0 => None,
                    n => match u8::try_from(n).ok().and_then(Level::new) {
                        Some(l) => Some(l),
                        None => return,
                    },
                };
                let color = if choice == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                match color {
                    Color::White => self.settings.white = player,
                    Color::Black => self.settings.black = player,
                }
                let seat = seat_of(color);
                // A person's steps in progress go back before a bot takes the seat over.
                if player.is_some() && self.table.to_act() == Some(seat) {
                    while !self.table.game().played().is_empty() {
                        if self.table.apply(seat, Action::Undo).is_err() {
                            break;
                        }
                    }
                }
                seat_players(&mut self.table, self.settings.players());
                let i = color.index();
                self.thinker.run(move |bots| bots[i] = None);
                self.preload();
                ctx.say(format!("{color}: {}, from now on", self.player_name(color)));
                if self.replay.is_empty() && self.game().side_to_move() == color {
                    self.reset_turn();
                }
                return;
            }
            2 => {
                r.opening = if second {
                    Opening::Reroll
                } else {
                    Opening::RollOff
                }
            }
            3 => {
                r.head_exception = if second {
                    HeadException::AnyBlockedDouble
                } else {
                    HeadException::Strict
                }
            }
            4 => {
                r.block_check = if second {
                    BlockCheck::EndOfTurn
                } else {
                    BlockCheck::EveryStep
                }
            }
            5 => {
                r.scoring = if second {
                    Scoring::WithKoks
                } else {
                    Scoring::Standard
                }
            }
            6 => r.last_roll_tie = second,
            7 => {
                if let Some(level) = HINT_LEVELS.get(value).and_then(|&n| Level::new(n)) {
                    self.settings.hint_level = level;
                    self.hints = None;
                    self.preload();
                    ctx.say(format!(
                        "Hints ranked by level {}, from now on",
                        level.name()
                    ));
                }
                return;
            }
            _ => return,
        }
        ctx.say("Rules changed: they apply from the next game (n)");
    }

    fn new_game(&mut self, ctx: &mut Ctx) {
        self.games += 1;
        let game = Game::new(
            self.settings.rules,
            self.settings.seed.wrapping_add(self.games),
        );
        self.table = Table::new(Nardy::new(game.clone()), &self.settings.players());
        self.replay.clear();
        self.show_passes(game);
        self.thinker.run(|bots| *bots = [None, None]);
        self.cursor = Spot::Point(Color::White.head());
        self.reset_turn();
        ctx.say(format!(
            "New game: {} moves first",
            self.game().side_to_move()
        ));
    }

    fn undo(&mut self, ctx: &mut Ctx) {
        self.undo_turns(ctx);
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        self.redo_turns(ctx);
    }

    fn save(&self) -> Vec<u8> {
        self.table.to_bytes()
    }

    /// A table save (or the engine's own), played on by the screen's players.
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        let mut table = Table::<Nardy>::from_bytes(bytes).map_err(|e| e.to_string())?;
        seat_players(&mut table, self.settings.players());
        self.settings.rules = *table.game().game().rules();
        self.table = table;
        self.replay.clear();
        self.thinker.run(|bots| *bots = [None, None]);
        self.reset_turn();
        Ok(())
    }

    fn in_progress(&self) -> bool {
        let nardy = self.table.game();
        self.table.ending().is_none()
            && (!nardy.game().history().is_empty() || !nardy.played().is_empty())
    }

    fn save_name(&self) -> String {
        "nardy.save".to_owned()
    }
}
