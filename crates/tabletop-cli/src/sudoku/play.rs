//! `tabletop sudoku play`: one puzzle in the terminal on the shared session loop.

use std::cell::Cell;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use sudoku_core::logic::{Difficulty, Hint};
use sudoku_core::{Game, GenerateOptions, Grid, Move, symbol_char};
use tabletop_play::sudoku::{self, Input, Sudoku};
use tabletop_play::{Action, Refusal, Seat, Table};

use super::start::{PlayArgs, Start, level_of, new_game, start};
use super::text::{check_text, clock, plural, verify_text};
use crate::common::{CliError, CliResult, Console, Painter, Session, Style, run_session};

const HELP: &str = "\
commands:
  r3c5 7        write 7 in row 3, column 5
  clear r3c5    remove the digit (or else the notes) of r3c5
  note r3c5 1 2 switch the pencil marks 1 and 2 of r3c5 on or off
  notes r3c5 1 2  make the pencil marks of r3c5 exactly 1 and 2 (none: notes r3c5)
  notes all     pencil in every candidate of every empty cell
  notes         show the grid with the pencil marks (also: show notes)
  show          draw the grid again
  hint          the next logical step (or the first wrong entry)
  check         are the entries so far right? which ones are wrong?
  verify        is the grid complete and correct?
  undo / redo   take back the last action / play it again
  solve         show the solution (ends the game)";

/// One puzzle in the terminal, driven by the shared session loop.
struct SudokuSession {
    /// The puzzle at a `tabletop_play` table: moves, undo, time and saves go through it.
    table: Table<Sudoku>,
    /// `--difficulty`, if given.
    difficulty: Option<Difficulty>,
    options: GenerateOptions,
    rng: ChaCha8Rng,
    /// When the time since was last added to the game.
    since: Cell<Instant>,
}

/// Plays a puzzle in the terminal with `args`.
pub(super) fn play(args: PlayArgs) -> CliResult {
    let Start {
        table,
        difficulty,
        options,
        rng,
        ..
    } = start(args)?;
    let mut session = SudokuSession {
        table,
        difficulty,
        options,
        rng,
        since: Cell::new(Instant::now()),
    };
    let mut console = Console::stdin();
    run_session(&mut console, &mut session)
}

impl SudokuSession {
    fn game(&self) -> &Game {
        self.table.game().game()
    }

    /// The whole milliseconds since the time was last added, as a table input (the rest
    /// of a millisecond stays for the next lap).
    fn lap(&self, restart: bool) -> Option<Action<Input>> {
        let ms = self.since.get().elapsed().as_millis() as u64;
        if restart {
            self.since.set(self.since.get() + Duration::from_millis(ms));
        }
        (ms > 0 && self.table.to_act().is_some()).then_some(Action::Play(Input::Time(ms)))
    }

    /// Adds the time spent since the last call to the game.
    fn add_time(&mut self) {
        if let Some(time) = self.lap(true) {
            // The table is running: adding time is never refused.
            let _ = self.table.apply(Seat(0), time);
        }
    }

    fn grid(&self, painter: Painter) -> String {
        draw_grid(self.game(), painter)
    }

    /// Applies `action` for the player, in the engine's words when refused.
    fn apply(
        &mut self,
        action: Action<Input>,
    ) -> CliResult<Vec<tabletop_play::Event<sudoku::Event, sudoku::Score>>> {
        self.table.apply(Seat(0), action).map_err(|e| match e {
            Refusal::GameOver => CliError::new("the puzzle is solved"),
            other => CliError::new(other.to_string()),
        })
    }
}

impl Session for SudokuSession {
    fn help(&self) -> String {
        HELP.into()
    }

    fn prompt(&self) -> String {
        "sudoku> ".into()
    }

    fn show(&self, painter: Painter) -> String {
        let empty = self
            .game()
            .grid()
            .cells()
            .iter()
            .filter(|&&v| v == 0)
            .count();
        format!(
            "{}{} to fill. Type help for the commands.",
            self.grid(painter),
            plural(empty, "cell")
        )
    }

    fn command(&mut self, line: &str, painter: Painter) -> CliResult<String> {
        self.add_time();
        let lower = line.to_ascii_lowercase();
        match lower.as_str() {
            "show" | "board" => return Ok(self.grid(painter)),
            "notes" | "show notes" => return Ok(draw_notes(self.game(), painter)),
            "hint" => {
                let hint = self
                    .game()
                    .hint()
                    .map_err(|e| CliError::new(e.to_string()))?;
                return Ok(match hint {
                    Hint::Step(step) => format!("Hint: {step}"),
                    other => format!("Hint: {other}"),
                });
            }
            "check" => return Ok(check_text(self.game(), &self.game().check())),
            "verify" => return Ok(verify_text(self.game())),
            "undo" | "redo" => {
                let undo = lower == "undo";
                let events = self.apply(if undo { Action::Undo } else { Action::Redo })?;
                let mv = events.iter().find_map(|e| match &e.kind {
                    tabletop_play::EventKind::Game(
                        sudoku::Event::TakenBack { mv } | sudoku::Event::Played { mv, .. },
                    ) => Some(*mv),
                    _ => None,
                });
                let verb = if undo { "Took back" } else { "Played again" };
                let mv = mv.map(|m| m.to_string()).unwrap_or_default();
                return Ok(format!("{verb} {mv}.\n{}", self.grid(painter)));
            }
            _ => {}
        }
        let mv: Move = line.parse().map_err(|e: sudoku_core::ParseMoveError| {
            CliError::new(format!("{e}; type help for the commands"))
        })?;
        self.apply(Action::Play(Input::Move(mv)))?;
        Ok(match mv {
            Move::ToggleNotes { .. } | Move::SetNotes { .. } | Move::FillNotes => {
                draw_notes(self.game(), painter)
            }
            _ => self.grid(painter),
        })
    }

    fn save(&self) -> CliResult<Vec<u8>> {
        let mut table = self.table.clone();
        if let Some(time) = self.lap(false) {
            let _ = table.apply(Seat(0), time);
        }
        Ok(table.to_bytes())
    }

    fn load(&mut self, bytes: &[u8]) -> CliResult {
        let table = Table::<Sudoku>::from_bytes(bytes).map_err(|e| CliError::new(e.to_string()))?;
        self.table = table;
        self.options.size = self.game().size();
        self.since.set(Instant::now());
        Ok(())
    }

    fn game_over(&self, _painter: Painter) -> Option<String> {
        let outcome = self.game().outcome()?;
        Some(if outcome.revealed {
            "The solution is shown.".to_owned()
        } else {
            format!(
                "Solved in {} with {}.",
                clock(outcome.elapsed),
                plural(outcome.mistakes as usize, "mistake")
            )
        })
    }

    fn new_game(&mut self) {
        let level = level_of(self.difficulty, self.options.size);
        match new_game(level, &self.options, &mut self.rng) {
            Ok(game) => {
                self.table = sudoku::new_table(game);
                self.since.set(Instant::now());
            }
            Err(e) => e.print(),
        }
    }
}

/// The grid with its row and column numbers. Givens and entries differ: bold and cyan on
/// a terminal, plain and in parentheses through a pipe.
fn draw_grid(game: &Game, painter: Painter) -> String {
    draw_cells(game.puzzle(), game.grid(), painter)
}

/// The grid of `puzzle` with the entries of `grid` (online play draws the server's view
/// with it): givens bold, entries cyan or in parentheses.
pub(crate) fn draw_cells(puzzle: &Grid, grid: &Grid, painter: Painter) -> String {
    let styled = painter.paint("x", Style::Bold) != "x";
    let size = grid.size();
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    let mut out = String::new();
    let border = {
        let mut s = String::from("    +");
        for _ in 0..n / bc {
            s.push_str(&"-".repeat(3 * bc));
            s.push('+');
        }
        s
    };
    out.push_str("    ");
    for c in 0..n {
        if c % bc == 0 {
            out.push(' ');
        }
        let _ = write!(out, "{:^3}", c + 1);
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for r in 0..n {
        if r % br == 0 {
            out.push_str(&border);
            out.push('\n');
        }
        let _ = write!(out, "{:>3} ", r + 1);
        for c in 0..n {
            if c % bc == 0 {
                out.push('|');
            }
            let cell = match (grid.get(r, c), puzzle.get(r, c).is_some()) {
                (None, _) => painter.paint(" . ", Style::Dim),
                (Some(v), true) => painter.paint(&format!(" {} ", symbol_char(v)), Style::Bold),
                (Some(v), false) if styled => {
                    painter.paint(&format!(" {} ", symbol_char(v)), Style::Cyan)
                }
                (Some(v), false) => format!("({})", symbol_char(v)),
            };
            out.push_str(&cell);
        }
        out.push_str("|\n");
    }
    out.push_str(&border);
    out.push('\n');
    if !styled {
        out.push_str("(digits in parentheses are your entries)\n");
    }
    out
}

/// The grid with the pencil marks: each cell a small block of its notes, in the layout
/// of a box (digit `d` at the place of the `d`-th cell of a box).
fn draw_notes(game: &Game, painter: Painter) -> String {
    let styled = painter.paint("x", Style::Bold) != "x";
    let size = game.size();
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    let width = bc + 1;
    let mut out = String::new();
    let border = {
        let mut s = String::from("+");
        for _ in 0..n / bc {
            s.push_str(&"-".repeat(width * bc + 1));
            s.push('+');
        }
        s
    };
    for r in 0..n {
        if r % br == 0 {
            out.push_str(&border);
            out.push('\n');
        }
        for line in 0..br {
            for c in 0..n {
                if c % bc == 0 {
                    out.push_str("| ");
                }
                let text: String = match game.grid().get(r, c) {
                    Some(v) if line == br / 2 => {
                        let given = game.is_given(r, c);
                        let digit = symbol_char(v);
                        // Through a pipe, entries are in parentheses (or starred in
                        // narrow cells), as in the grid.
                        let text = match (given || styled, bc >= 3) {
                            (true, _) => format!("{digit}"),
                            (false, true) => format!("({digit})"),
                            (false, false) => format!("{digit}*"),
                        };
                        let style = if given { Style::Bold } else { Style::Cyan };
                        painter.paint(&format!("{text:^bc$}"), style)
                    }
                    Some(_) => " ".repeat(bc),
                    None => {
                        let notes = game.notes(r, c);
                        (0..bc)
                            .map(|k| {
                                let d = (line * bc + k + 1) as u8;
                                if notes.contains(d) {
                                    symbol_char(d)
                                } else {
                                    '.'
                                }
                            })
                            .collect()
                    }
                };
                out.push_str(&text);
                out.push(' ');
            }
            out.push_str("|\n");
        }
    }
    out.push_str(&border);
    out.push('\n');
    out
}
