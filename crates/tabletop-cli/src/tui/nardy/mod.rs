//! Long Nardy full screen: the board with both halves of the bar, step-by-step play with
//! the legal destinations of the selected checker highlighted, bot turns shown step by
//! step, and the ranked hints.
//!
//! The view is fixed, as in the line mode: points 13–24 along the top (left to right),
//! 12–1 along the bottom, White's home (1–6) bottom right with its tray to the right of
//! point 1, Black's home (13–18) top left with its tray to the left of point 13. A person's
//! turn is committed to the game as soon as its steps form a legal full turn.

mod board;
#[cfg(test)]
mod tests;

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

/// A bot's answer: the position and dice it thought about, its turn (`None` when the game
/// is over) and the generator after the thinking, which the screen adopts.
type Thought = (
    nardy_core::Position,
    nardy_core::Dice,
    Option<Move>,
    ChaCha8Rng,
);

/// Long Nardy played full screen.
pub struct NardyScreen {
    settings: Settings,
    /// Games started before this one (the seed of game `k` is `seed + k`).
    games: u64,
    game: Game,
    /// The thread where the bots think, so the screen answers keys meanwhile.
    thinker: Worker<Bots, Thought>,
    /// The bot's turn for the position on the board, once thought of.
    thought: Option<Option<Move>>,
    /// The bear-off database and network of levels 4 to 6, shared by bots and hints.
    resources: Option<Resources>,
    /// The resources being built in the background.
    loading: Option<JoinHandle<Resources>>,
    bot_rng: ChaCha8Rng,
    /// The person's turn in progress.
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
    /// How many turns each undo took back, so a redo replays the same.
    redo_groups: Vec<usize>,
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

    /// Continues `game` (a loaded save; its rules stay in force) with the players and hint
    /// level of `settings`.
    pub fn with_game(mut settings: Settings, game: Game) -> NardyScreen {
        settings.rules = *game.rules();
        let mut screen = NardyScreen {
            settings,
            games: 0,
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
            redo_groups: Vec::new(),
            hits: Vec::new(),
            drag: None,
            buttons: Vec::new(),
            game,
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

    /// Forgets everything about the turn in progress and looks at the new one.
    fn reset_turn(&mut self) {
        self.thinker.cancel();
        self.thought = None;
        self.builder = None;
        self.anim = None;
        self.selected = None;
        self.next_at = None;
        self.hints = None;
        let moves = self.game.legal_moves();
        let passing = moves.len() == 1 && moves[0].is_pass();
        self.info = TurnInfo {
            moves: moves.len(),
            only: (moves.len() == 1 && !passing).then(|| moves[0].clone()),
            passing,
            said: false,
        };
        if self.game.outcome().is_none() && !passing && self.is_human(self.game.side_to_move()) {
            self.builder = self.game.builder().ok();
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
            *self.game.position()
        }
    }

    /// The dice still to play in the turn shown.
    fn remaining_dice(&self) -> Vec<u8> {
        if self.game.outcome().is_some() || self.info.passing {
            return Vec::new();
        }
        match (&self.anim, &self.builder) {
            (Some(a), _) => a.builder.remaining_dice(),
            (None, Some(b)) => b.remaining_dice(),
            (None, None) => self.game.dice().to_play(),
        }
    }

    /// The steps to highlight as the last move: the bot's turn being shown, or else the
    /// last turn played.
    fn last_steps(&self) -> Vec<Step> {
        match &self.anim {
            Some(a) => a.builder.played().to_vec(),
            None => self
                .game
                .history()
                .last()
                .map(|r| r.mv.steps().to_vec())
                .unwrap_or_default(),
        }
    }

    /// The side whose steps [`NardyScreen::last_steps`] gives.
    fn last_color(&self) -> Color {
        match (&self.anim, self.game.history().last()) {
            (Some(_), _) | (None, None) => self.game.side_to_move(),
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

    /// Commits the person's turn once it is complete.
    fn commit_if_complete(&mut self, ctx: &mut Ctx) {
        let Some(b) = self.builder.as_ref().filter(|b| b.is_complete()).cloned() else {
            return;
        };
        match self.game.play_builder(&b) {
            Ok(()) => {
                self.redo_groups.clear();
                self.reset_turn();
            }
            Err(e) => ctx.say(format!("Illegal: {e}")),
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
        if let Some(outcome) = self.game.outcome() {
            ctx.say(format!("{outcome}. Press n for a new game."));
            return;
        }
        let Some(b) = &self.builder else {
            let color = self.game.side_to_move();
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

    /// Plays one step of the person's turn; commits the turn when it is complete.
    fn play_step(&mut self, from: u8, to: Option<u8>, ctx: &mut Ctx) {
        let Some(b) = self.builder.as_mut() else {
            return;
        };
        let step = match Step::new(from, to) {
            Ok(s) => s,
            Err(e) => {
                ctx.say(format!("Illegal: {e}"));
                return;
            }
        };
        match b.play(step) {
            Ok(()) => {
                self.selected = None;
                self.cursor = match to {
                    Some(p) => Spot::Point(p),
                    None => Spot::Point(from),
                };
                self.commit_if_complete(ctx);
            }
            Err(e) => ctx.say(format!("Illegal: {step}: {e}")),
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
        let Some(b) = self.builder.as_mut() else {
            ctx.say("Nothing to take back: it is not your turn");
            return;
        };
        match b.undo() {
            Some(step) => {
                self.selected = None;
                self.cursor = Spot::Point(step.from());
                ctx.say(format!("Took back {step}"));
            }
            None => ctx.say("No step of this turn to take back (u takes back whole turns)"),
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

    /// `a`: plays the only legal turn.
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
        let Some(b) = self.builder.as_mut() else {
            return;
        };
        b.reset();
        match b.play_all(mv.steps()) {
            Ok(()) => self.commit_if_complete(ctx),
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
        let rules = *self.game.rules();
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

    /// Plays the bots' turns and forced passes at a readable pace.
    fn advance(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        let mut changed = false;
        if !self.info.said {
            self.info.said = true;
            changed = true;
            let color = self.game.side_to_move();
            let dice = self.game.dice();
            if let Some(outcome) = self.game.outcome() {
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
        if self.game.outcome().is_some() {
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
        let color = self.game.side_to_move();
        if self.info.passing {
            if self.game.play(&Move::pass()).is_ok() {
                self.redo_groups.clear();
            }
            self.reset_turn();
            return true;
        }
        if self.settings.player(color).is_none() {
            return changed;
        }
        match self.anim.as_mut() {
            None => {
                let Some(Some(mv)) = self.thought.take() else {
                    return changed;
                };
                self.next_at = Some(now + BOT_STEP);
                let Ok(mut builder) = self.game.builder() else {
                    return changed;
                };
                if let Some(&first) = mv.steps().first()
                    && builder.play(first).is_err()
                {
                    builder.reset();
                }
                self.anim = Some(BotTurn { mv, builder });
            }
            Some(a) => {
                self.next_at = Some(now + BOT_STEP);
                let next = a.builder.played().len();
                match a.mv.steps().get(next) {
                    Some(&step) if a.builder.play(step).is_ok() => {}
                    _ => {
                        let mv = a.mv.clone();
                        if self.game.play(&mv).is_ok() {
                            self.redo_groups.clear();
                        }
                        self.reset_turn();
                    }
                }
            }
        }
        true
    }

    /// Asks the worker for the bot's turn when a bot is to move and nothing is asked yet,
    /// and takes the answer when it has come; true when the status line changed.
    fn think(&mut self) -> bool {
        let color = self.game.side_to_move();
        let Some(level) = self.settings.player(color) else {
            return false;
        };
        if self.info.passing || self.anim.is_some() || self.game.outcome().is_some() {
            return false;
        }
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
            let rules = *self.game.rules();
            let (position, dice) = (*self.game.position(), self.game.dice());
            let rng = self.bot_rng.clone();
            let i = color.index();
            self.thinker.ask(move |bots| {
                let mut rng = rng;
                let bot = bots[i].get_or_insert_with(|| match &resources {
                    Some(r) => level.bot_with(&rules, r),
                    None => level.bot(&rules),
                });
                let mv = bot.choose_move(&position, dice, &mut rng);
                (position, dice, mv, rng)
            });
            changed = true;
        }
        if let Some((position, dice, mv, rng)) = self.thinker.poll()
            && position == *self.game.position()
            && dice == self.game.dice()
        {
            self.bot_rng = rng;
            self.thought = Some(mv);
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
                && self.anim.is_none()
                && self.loading.is_some()
                && self
                    .settings
                    .player(self.game.side_to_move())
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

    /// Takes back whole turns: back to the last turn of a person that was not a forced
    /// pass (the bot's reply goes with it).
    fn undo_turns(&mut self, ctx: &mut Ctx) {
        if let Some(b) = self.builder.as_mut()
            && !b.played().is_empty()
        {
            b.reset();
            self.selected = None;
            ctx.say("Took back the steps of this turn");
            return;
        }
        let mut taken = Vec::new();
        while let Some(mv) = self.game.undo() {
            taken.push((self.game.side_to_move(), mv));
            if self.is_human(self.game.side_to_move()) && !self.game.must_pass() {
                break;
            }
        }
        let reached =
            !taken.is_empty() && self.is_human(self.game.side_to_move()) && !self.game.must_pass();
        if !reached {
            for _ in 0..taken.len() {
                self.game.redo();
            }
            ctx.say("Nothing to undo");
            return;
        }
        self.redo_groups.push(taken.len());
        let text: Vec<String> = taken
            .iter()
            .rev()
            .map(|(c, mv)| format!("{c} {mv}"))
            .collect();
        ctx.say(format!("Took back: {}", text.join(", ")));
        self.reset_turn();
    }

    fn redo_turns(&mut self, ctx: &mut Ctx) {
        let n = self.redo_groups.pop().unwrap_or(1);
        let mut replayed = Vec::new();
        for _ in 0..n {
            let color = self.game.side_to_move();
            match self.game.redo() {
                Some(mv) => replayed.push(format!("{color} {mv}")),
                None => break,
            }
        }
        if replayed.is_empty() {
            ctx.say("Nothing to redo");
            return;
        }
        ctx.say(format!("Replayed: {}", replayed.join(", ")));
        self.reset_turn();
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
            .game
            .history()
            .last()
            .map(|r| format!(" · last: {} {}", r.color, r.mv))
            .unwrap_or_default();
        if let Some(outcome) = self.game.outcome() {
            return format!("{outcome}{last} · n: new game");
        }
        let color = self.game.side_to_move();
        let who = match self.settings.player(color) {
            Some(_) => "bot",
            None if self.is_human(color.other()) => "human",
            None => "you",
        };
        let dice = self.game.dice();
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
                let i = color.index();
                self.thinker.run(move |bots| bots[i] = None);
                self.preload();
                ctx.say(format!("{color}: {}, from now on", self.player_name(color)));
                if self.game.side_to_move() == color {
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
        self.game = Game::new(
            self.settings.rules,
            self.settings.seed.wrapping_add(self.games),
        );
        self.thinker.run(|bots| *bots = [None, None]);
        self.redo_groups.clear();
        self.cursor = Spot::Point(Color::White.head());
        self.reset_turn();
        ctx.say(format!(
            "New game: {} moves first",
            self.game.side_to_move()
        ));
    }

    fn undo(&mut self, ctx: &mut Ctx) {
        self.undo_turns(ctx);
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        self.redo_turns(ctx);
    }

    fn save(&self) -> Vec<u8> {
        self.game.to_bytes()
    }

    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        let game = crate::nardy::decode_game(bytes)?;
        self.settings.rules = *game.rules();
        self.game = game;
        self.thinker.run(|bots| *bots = [None, None]);
        self.redo_groups.clear();
        self.reset_turn();
        Ok(())
    }

    fn in_progress(&self) -> bool {
        self.game.outcome().is_none()
            && (!self.game.history().is_empty()
                || self
                    .builder
                    .as_ref()
                    .is_some_and(|b| !b.played().is_empty()))
    }

    fn save_name(&self) -> String {
        "nardy.save".to_owned()
    }
}
