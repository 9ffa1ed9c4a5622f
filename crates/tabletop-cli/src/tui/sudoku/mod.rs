//! Sudoku full screen: the grid with box borders and a cursor moved by keys or the mouse,
//! digits and pencil marks, the engine's hints with the cells they use, check and verify,
//! the clock and the mistakes, and a palette beside the grid so that the mouse alone can
//! play. Every rule (what a move does, conflicts, hints, the outcome) comes from
//! `sudoku-core`; the screen is a view of a `tabletop_play` table (`Table<Sudoku>`):
//! moves, undo, redo, the time and saves go through the table, and the screen draws it.

mod draw;
mod help;
mod input;
mod layout;
#[cfg(feature = "server")]
pub mod online;
mod scene;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_play;

use std::time::{Duration, Instant};

use crossterm::event::{Event, MouseButton, MouseEventKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Frame;
use ratatui::layout::Rect;
use sudoku_core::logic::{Difficulty, Hint};
use sudoku_core::{Game, GenerateOptions, Move, Size, Symmetry, generate};
use tabletop_play::sudoku::{self as table_sudoku, Input, Sudoku};
use tabletop_play::{Action, EventKind, Refusal, Seat, Table};

use super::{Choice, Ctx, GameScreen, Handled, Placeholder, Theme};
use crate::common::clock_seed;
use crate::sudoku::start::{level_of, level_puzzle};
use crate::sudoku::text::{clock, plural};
use input::Editor;
use layout::View;

/// The sizes of the menu, in order.
const SIZES: [Size; 5] = Size::ALL;

/// The settings of the next new game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The level asked for; `None` is the default of the size (medium, easy for 4×4).
    pub difficulty: Option<Difficulty>,
    /// The grid size.
    pub size: Size,
    /// The symmetry of the clue pattern.
    pub symmetry: Symmetry,
}

impl Default for Settings {
    /// The line mode's defaults: a medium 9×9 puzzle with half-turn symmetry.
    fn default() -> Settings {
        Settings {
            difficulty: None,
            size: Size::Nine,
            symmetry: Symmetry::Rotate180,
        }
    }
}

impl Settings {
    fn options(&self) -> GenerateOptions {
        GenerateOptions {
            size: self.size,
            symmetry: self.symmetry,
            ..GenerateOptions::default()
        }
    }

    fn level(&self) -> Difficulty {
        level_of(self.difficulty, self.size)
    }
}

/// What a button of the palette does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Button {
    Digit(u8),
    Notes,
    Clear,
    Fill,
    Hint,
    Check,
    Verify,
    Undo,
    NewGame,
}

/// The answer of check or verify, shown until the grid changes.
#[derive(Debug, Clone)]
struct Report {
    title: &'static str,
    text: String,
    /// The wrong entries it found, highlighted.
    wrong: Vec<(usize, usize)>,
}

/// The Sudoku screen.
pub struct SudokuScreen {
    /// The puzzle at a table: every move, undo, redo and the time go through it.
    table: Table<Sudoku>,
    /// The level the puzzle was generated at (`None` for a loaded game).
    level: Option<Difficulty>,
    /// The settings of the next new game.
    settings: Settings,
    rng: ChaCha8Rng,
    /// The selected cell, the pencil-mark mode, a half-typed number.
    editor: Editor,
    /// The hint on show (for the grid as it is: any change drops it).
    hint: Option<Hint>,
    /// The answer of check or verify on show.
    report: Option<Report>,
    /// When time was last counted, and what was measured but not yet given to the table
    /// (it keeps milliseconds).
    last_tick: Option<Instant>,
    carry: Duration,
    /// The second of the clock last drawn.
    shown_second: u64,
    /// Where the last draw put the cells and buttons, for the mouse.
    view: View,
    /// A new big puzzle asked for: generated at the next tick, after the host has shown
    /// that it is coming (a 25×25 one takes seconds).
    generate_next: bool,
}

/// A new game of `settings`' level, size and symmetry.
fn fresh(settings: &Settings, rng: &mut ChaCha8Rng) -> Result<Game, String> {
    let puzzle =
        level_puzzle(settings.level(), &settings.options(), rng).map_err(|e| e.to_string())?;
    Game::new(puzzle).map_err(|e| format!("the generated puzzle is not proper: {e}"))
}

/// The game with its default settings and a seed from the clock, for the games menu.
pub fn default_screen() -> Box<dyn GameScreen> {
    match SudokuScreen::new(Settings::default(), clock_seed()) {
        Ok(screen) => Box::new(screen),
        Err(_) => Box::new(Placeholder("Sudoku")),
    }
}

impl SudokuScreen {
    /// A new puzzle of `settings`, generated from `seed` (the same seed, the same puzzle).
    ///
    /// # Errors
    /// When no puzzle of the level was found.
    pub fn new(settings: Settings, seed: u64) -> Result<SudokuScreen, String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = match fresh(&settings, &mut rng) {
            Ok(game) => game,
            // Any proper puzzle rather than none (the level search gives up rarely).
            Err(_) => Game::new(generate::puzzle(&settings.options(), &mut rng))
                .map_err(|e| e.to_string())?,
        };
        Ok(SudokuScreen::from_parts(
            game,
            Some(settings.level()),
            settings,
            rng,
        ))
    }

    /// A screen for `game` (generated at `level`, `None` when loaded); new games follow
    /// `settings` and draw from `rng`.
    pub fn from_parts(
        game: Game,
        level: Option<Difficulty>,
        settings: Settings,
        rng: ChaCha8Rng,
    ) -> SudokuScreen {
        SudokuScreen::from_table(table_sudoku::new_table(game), level, settings, rng)
    }

    /// A screen for `table` (a new puzzle's, generated at `level`, or a loaded one with
    /// `None`); new games follow `settings` and draw from `rng`.
    pub fn from_table(
        table: Table<Sudoku>,
        level: Option<Difficulty>,
        settings: Settings,
        rng: ChaCha8Rng,
    ) -> SudokuScreen {
        let mut screen = SudokuScreen {
            table,
            level,
            settings,
            rng,
            editor: Editor::new(1, (0, 0)),
            hint: None,
            report: None,
            last_tick: None,
            carry: Duration::ZERO,
            shown_second: 0,
            view: View::default(),
            generate_next: false,
        };
        screen.reset();
        screen
    }

    /// The engine game at the table (for drawing, hints, checks).
    fn game(&self) -> &Game {
        self.table.game().game()
    }

    /// The state of a new or loaded game: the cursor on the first empty cell, no mode,
    /// hint or report.
    fn reset(&mut self) {
        let n = self.side();
        let first = self.game().grid().cells().iter().position(|&v| v == 0);
        self.editor = Editor::new(n, first.map_or((0, 0), |i| (i / n, i % n)));
        self.last_tick = None;
        self.carry = Duration::ZERO;
        self.shown_second = self.game().elapsed().as_secs();
        self.changed();
    }

    fn side(&self) -> usize {
        self.game().size().side()
    }

    /// The grid changed: the hint and the report on show no longer apply.
    fn changed(&mut self) {
        self.hint = None;
        self.report = None;
    }

    /// Plays `mv` at the table; says why when it is refused (in the engine's words), and
    /// the result once solved.
    fn play(&mut self, mv: Move, ctx: &mut Ctx) -> bool {
        match self.table.apply(Seat(0), Action::Play(Input::Move(mv))) {
            Ok(_) => {
                self.changed();
                if let Some(text) = self.solved_text() {
                    ctx.say(format!("{text} n: a new game"));
                }
                true
            }
            Err(refusal) => {
                // The table ends the game when the grid is the solution: the engine's
                // words for a move then.
                let why = match refusal {
                    Refusal::GameOver => sudoku_core::PlayError::Solved.to_string(),
                    other => other.to_string(),
                };
                ctx.say(format!("Illegal: {why}"));
                false
            }
        }
    }

    /// Undo or redo at the table: the move it took back or played again, or why not.
    fn back_or_forth(&mut self, action: Action<Input>) -> Result<Move, Refusal> {
        let events = self.table.apply(Seat(0), action)?;
        events
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::Game(
                    table_sudoku::Event::TakenBack { mv } | table_sudoku::Event::Played { mv, .. },
                ) => Some(*mv),
                _ => None,
            })
            .ok_or(Refusal::NothingToUndo)
    }

    /// How the game ended, once it has.
    fn solved_text(&self) -> Option<String> {
        let outcome = self.game().outcome()?;
        Some(if outcome.revealed {
            "The solution is shown.".to_owned()
        } else {
            format!(
                "Solved in {} with {}!",
                clock(outcome.elapsed),
                plural(outcome.mistakes as usize, "mistake")
            )
        })
    }

    /// Counts the time since the last tick into the table (not once the game is over):
    /// whole milliseconds, the rest waits for the next tick.
    fn count_time(&mut self, now: Instant) {
        if let Some(last) = self.last_tick
            && self.table.to_act().is_some()
        {
            self.carry += now.saturating_duration_since(last);
            let ms = self.carry.as_millis() as u64;
            if ms > 0 {
                // The table is running: adding time is never refused.
                let _ = self.table.apply(Seat(0), Action::Play(Input::Time(ms)));
                self.carry -= Duration::from_millis(ms);
            }
        }
        self.last_tick = Some(now);
    }
}

impl GameScreen for SudokuScreen {
    fn title(&self) -> String {
        let size = self.game().size();
        match self.level {
            Some(level) => format!("Sudoku · {size} · {level}"),
            None => format!("Sudoku · {size}"),
        }
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        self.view = draw::draw(&self.scene(), frame.buffer_mut(), area, theme);
    }

    fn handle(&mut self, event: &Event, ctx: &mut Ctx) -> Handled {
        match event {
            Event::Key(key) => self.key(key, ctx),
            Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                self.click(m.column, m.row, ctx)
            }
            _ => Handled::No,
        }
    }

    fn tick(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        if self.generate_next {
            self.new_game(ctx);
            return true;
        }
        let mut redraw = false;
        if let Some(act) = self.editor.tick(now) {
            self.act(vec![act], ctx);
            redraw = true;
        }
        self.count_time(now);
        let second = self.game().elapsed().as_secs();
        if second != self.shown_second {
            self.shown_second = second;
            redraw = true;
        }
        redraw
    }

    fn status(&self) -> String {
        let mut parts = Vec::new();
        match self.solved_text() {
            Some(text) => parts.push(text),
            None => {
                let empty = self
                    .game()
                    .grid()
                    .cells()
                    .iter()
                    .filter(|&&v| v == 0)
                    .count();
                parts.push(clock(self.game().elapsed()));
                parts.push(plural(self.game().mistakes() as usize, "mistake"));
                parts.push(format!("{empty} to fill"));
                if self.editor.notes_mode {
                    parts.push("pencil marks".to_owned());
                }
            }
        }
        if let Some(mv) = self.game().moves().last() {
            parts.push(format!("last: {mv}"));
        }
        parts.join(" · ")
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        // Eight lines: what the host's help overlay shows below its own keys at 80×24.
        vec![
            ("arrows, hjkl, click", "select a cell"),
            (
                "1-9, A-P, 1 then 6",
                "write a digit (10-25: a letter or two digits)",
            ),
            (
                "0, Delete, Backspace",
                "clear the cell (its digit, else its notes)",
            ),
            ("p", "pencil-mark mode: digits switch notes on and off"),
            ("a", "pencil in every candidate"),
            ("t", "hint: the next step and its cells; t again plays it"),
            ("c, v", "check the entries so far; verify the full grid"),
            ("palette", "click a digit, notes, clear, fill, hint, check…"),
        ]
    }

    fn choices(&self) -> Vec<Choice> {
        let level = self.settings.level();
        vec![
            Choice {
                label: "Difficulty",
                values: Difficulty::ALL
                    .iter()
                    .map(|d| d.name().to_owned())
                    .collect(),
                current: Difficulty::ALL
                    .iter()
                    .position(|&d| d == level)
                    .unwrap_or(0),
            },
            Choice {
                label: "Size",
                values: SIZES.iter().map(|s| s.to_string()).collect(),
                current: SIZES
                    .iter()
                    .position(|&s| s == self.settings.size)
                    .unwrap_or(0),
            },
            Choice {
                label: "Symmetry",
                values: Symmetry::ALL.iter().map(|s| s.name().to_owned()).collect(),
                current: Symmetry::ALL
                    .iter()
                    .position(|&s| s == self.settings.symmetry)
                    .unwrap_or(0),
            },
        ]
    }

    fn choose(&mut self, choice: usize, value: usize, ctx: &mut Ctx) {
        let said = match choice {
            0 => Difficulty::ALL.get(value).map(|&d| {
                self.settings.difficulty = Some(d);
                format!("Difficulty {d}")
            }),
            1 => SIZES.get(value).map(|&s| {
                self.settings.size = s;
                format!("Size {s}")
            }),
            2 => Symmetry::ALL.get(value).map(|&s| {
                self.settings.symmetry = s;
                format!("Symmetry {s}")
            }),
            _ => None,
        };
        if let Some(said) = said {
            ctx.say(format!("{said} from the next new game (n)"));
        }
    }

    fn new_game(&mut self, ctx: &mut Ctx) {
        if self.settings.size.side() >= 16 && !self.generate_next {
            self.generate_next = true;
            ctx.say(format!(
                "Making a {} {} puzzle…",
                self.settings.level(),
                self.settings.size
            ));
            return;
        }
        self.generate_next = false;
        match fresh(&self.settings, &mut self.rng) {
            Ok(game) => {
                self.table = table_sudoku::new_table(game);
                self.level = Some(self.settings.level());
                self.reset();
                ctx.say(format!(
                    "A new {} {} puzzle",
                    self.settings.level(),
                    self.game().size()
                ));
            }
            Err(e) => ctx.say(e),
        }
    }

    fn undo(&mut self, ctx: &mut Ctx) {
        self.editor.pending = None;
        match self.back_or_forth(Action::Undo) {
            Ok(mv) => {
                self.changed();
                if let Some(cell) = mv.cell() {
                    self.editor.cursor = cell;
                }
                ctx.say(format!("Took back {mv}"));
            }
            Err(_) => ctx.say("Nothing to undo"),
        }
    }

    fn redo(&mut self, ctx: &mut Ctx) {
        self.editor.pending = None;
        match self.back_or_forth(Action::Redo) {
            Ok(mv) => {
                self.changed();
                if let Some(cell) = mv.cell() {
                    self.editor.cursor = cell;
                }
                ctx.say(format!("Played again {mv}"));
            }
            Err(_) => ctx.say("Nothing to redo"),
        }
    }

    fn save(&self) -> Vec<u8> {
        self.table.to_bytes()
    }

    /// A table's save, or the engine's own (which becomes a table at its state).
    fn load(&mut self, bytes: &[u8]) -> Result<(), String> {
        let table = Table::<Sudoku>::from_bytes(bytes).map_err(|e| e.to_string())?;
        self.settings.size = table.game().game().size();
        self.table = table;
        self.level = None;
        self.reset();
        Ok(())
    }
}
