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
mod input;
mod menu;
#[cfg(feature = "server")]
pub mod online;
mod play;
mod scene;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_play;

use std::collections::VecDeque;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::Event;
use nardy_core::ai::{Bot, Level, RankedMove, Resources};
use nardy_core::{Color, Game, Move, Rules, Step, TurnBuilder};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;
use tabletop_play::nardy::{Input, Nardy};
use tabletop_play::{Action, Player, Table};

use self::play::seat_players;
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

    /// Where a step to `point` lands: the point, or `mover`'s tray for 0 (bearing off).
    fn landing(point: u8, mover: Color) -> Spot {
        if point == 0 {
            Spot::Tray(mover)
        } else {
            Spot::Point(point)
        }
    }

    /// Tab's next stop from `self` among `spots` (`direction` 1 or -1, wrapping round): the
    /// first or last of them when `self` is not one; `None` when there are none.
    fn cycle(self, spots: &[Spot], direction: i32) -> Option<Spot> {
        let n = spots.len() as i32;
        if n == 0 {
            return None;
        }
        let next = match spots.iter().position(|&s| s == self) {
            Some(i) => (i as i32 + direction).rem_euclid(n),
            None if direction > 0 => 0,
            None => n - 1,
        };
        Some(spots[next as usize])
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
        let scene = self.scene();
        let (hits, buttons) = board::draw(&scene, frame.buffer_mut(), area, theme);
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
        self.menu_choices()
    }

    fn choose(&mut self, choice: usize, value: usize, ctx: &mut Ctx) {
        self.apply_choice(choice, value, ctx);
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
