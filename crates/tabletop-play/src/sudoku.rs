//! Sudoku at a table: one seat against a puzzle. The solution is the puzzle's secret: no
//! view or event shows it, only the entries, notes and mistakes.

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use sudoku_core::{Game, Grid, Move};
use tabletop_common::LoadError;

use crate::table::{Table, TableGame};
use crate::{Player, Refusal, Seat, Viewer};

/// A new table for `game`, played by one person.
pub fn new_table(game: Game) -> Table<Sudoku> {
    Table::new(Sudoku { game }, &[Player::Human])
}

/// What the player does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// An edit of the grid (enter, clear, notes, give up).
    Move(Move),
    /// Time spent on the puzzle since the last report, in milliseconds (the frontend keeps
    /// the time; the table only adds it up).
    Time(u64),
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// An edit; `mistake` when it entered a digit that is not the solution's.
    Played {
        /// The edit.
        mv: Move,
        /// Whether it counted as a mistake.
        mistake: bool,
    },
    /// An edit taken back.
    TakenBack {
        /// The edit.
        mv: Move,
    },
}

/// The score of a finished puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Score {
    /// Time spent, in milliseconds.
    pub elapsed_ms: u64,
    /// Digits entered that were not the solution's.
    pub mistakes: u32,
    /// Whether the solution was revealed (the player gave up).
    pub revealed: bool,
}

/// A sudoku game at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sudoku {
    game: Game,
}

/// What the player sees: the puzzle, the entries and notes; never the solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The puzzle (the givens).
    pub puzzle: Grid,
    /// The grid with the player's entries.
    pub grid: Grid,
    /// The notes (pencil marks) of each cell, row by row, as bit sets (bit `d - 1` for digit `d`).
    pub notes: Vec<u32>,
    /// Mistakes so far.
    pub mistakes: u32,
    /// Time spent so far, in milliseconds.
    pub elapsed_ms: u64,
    /// How many edits redo would play again.
    pub redo: usize,
}

impl Sudoku {
    /// A table state around `game`.
    pub fn new(game: Game) -> Sudoku {
        Sudoku { game }
    }

    /// The engine game (a frontend asks it for hints, checks and cells).
    pub fn game(&self) -> &Game {
        &self.game
    }
}

impl TableGame for Sudoku {
    type Input = Input;
    type Event = Event;
    type Score = Score;
    type View = View;
    const NAME: &'static str = "sudoku";

    fn seats(&self) -> usize {
        1
    }

    fn to_act(&self) -> Option<Seat> {
        self.game.outcome().is_none().then_some(Seat(0))
    }

    fn play(
        &mut self,
        _seat: Seat,
        input: &Input,
        events: &mut Vec<Event>,
    ) -> Result<bool, Refusal> {
        match input {
            Input::Move(mv) => {
                let before = self.game.mistakes();
                self.game.play(*mv).map_err(Refusal::illegal)?;
                events.push(Event::Played {
                    mv: *mv,
                    mistake: self.game.mistakes() > before,
                });
            }
            Input::Time(ms) => self
                .game
                .add_elapsed(core::time::Duration::from_millis(*ms)),
        }
        Ok(true)
    }

    fn undo(&mut self, _persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        let mv = self.game.undo().ok_or(Refusal::NothingToUndo)?;
        events.push(Event::TakenBack { mv });
        Ok(())
    }

    fn redo(&mut self, _persons: &[bool], events: &mut Vec<Event>) -> Result<(), Refusal> {
        let mv = self.game.redo().ok_or(Refusal::NothingToRedo)?;
        events.push(Event::Played { mv, mistake: false });
        Ok(())
    }

    fn outcome(&self) -> Option<(Option<Seat>, Score)> {
        let o = self.game.outcome()?;
        Some((
            None,
            Score {
                elapsed_ms: o.elapsed.as_millis() as u64,
                mistakes: o.mistakes,
                revealed: o.revealed,
            },
        ))
    }

    fn concede(&self, _loser: Seat) -> Score {
        Score {
            elapsed_ms: self.game.elapsed().as_millis() as u64,
            mistakes: self.game.mistakes(),
            revealed: true,
        }
    }

    fn view(&self, _viewer: Viewer, _over: bool) -> View {
        let n = self.game.size().side();
        View {
            puzzle: self.game.puzzle().clone(),
            grid: self.game.grid().clone(),
            notes: (0..n * n)
                .map(|i| self.game.notes(i / n, i % n).bits())
                .collect(),
            mistakes: self.game.mistakes(),
            elapsed_ms: self.game.elapsed().as_millis() as u64,
            redo: self.game.redo_moves().len(),
        }
    }

    fn encode(&self) -> Vec<u8> {
        self.game.to_bytes()
    }

    fn decode(bytes: &[u8]) -> Result<Sudoku, LoadError> {
        Ok(Sudoku::new(Game::from_bytes(bytes)?))
    }
}
