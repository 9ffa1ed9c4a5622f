//! The playable game: a proper puzzle, the player's entries and pencil marks, undo/redo,
//! check, verify, hints, mistakes and time, saves. See [`Game`].

mod moves;
mod save;

use alloc::vec::Vec;
use core::time::Duration;

pub use moves::{Move, ParseMoveError};
pub use save::{ParseGameError, SAVE_FORMAT};

use crate::Candidates;
use crate::candidates::Digits;
use crate::grid::{Grid, Size};
use crate::logic::{Hint, HintError, hint};
use crate::solve::SolveError;

/// Why a move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The cell is not in the grid.
    #[error("r{}c{} is outside the {size} grid", row.saturating_add(1), col.saturating_add(1))]
    OutsideGrid {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The grid's size.
        size: Size,
    },
    /// A digit the grid does not have.
    #[error("{digit} is not a digit of a {size} grid")]
    BadDigit {
        /// The digit.
        digit: u8,
        /// The grid's size.
        size: Size,
    },
    /// The cell holds a given of the puzzle.
    #[error("r{}c{} is a given of the puzzle and cannot be changed", row.saturating_add(1), col.saturating_add(1))]
    Given {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// Notes on a cell that holds a digit.
    #[error("r{}c{} holds a digit: clear it before writing notes", row.saturating_add(1), col.saturating_add(1))]
    Filled {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// The move would change nothing (the digit is already there, no notes to clear…).
    #[error("that changes nothing")]
    NoChange,
    /// The grid is already the solution: the game is over.
    #[error("the puzzle is solved")]
    Solved,
}

/// What [`Game::check`] finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The entries that differ from the solution (0-based row and column), row by row.
    pub wrong: Vec<(usize, usize)>,
    /// The solutions the grid (givens and entries) still has, counted up to
    /// [`Check::LIMIT`]: 1 while every entry is right, 0 as soon as one is wrong.
    pub solutions: usize,
}

impl Check {
    /// Where [`Check::solutions`] stops counting.
    pub const LIMIT: usize = 2;

    /// Whether the entries so far can still lead to the solution.
    pub fn is_consistent(&self) -> bool {
        self.wrong.is_empty() && self.solutions > 0
    }
}

/// What [`Game::verify`] says about the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every cell is filled and the grid is the solution.
    Correct,
    /// Every cell is filled, but these entries (0-based row and column) are wrong.
    Wrong(Vec<(usize, usize)>),
    /// This many cells are still empty.
    Incomplete(usize),
}

/// How a finished game went: the grid is the solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The time played, as the frontend reported it.
    pub elapsed: Duration,
    /// The wrong digits entered during the game (taking one back does not erase it).
    pub mistakes: u32,
    /// Whether the player asked for the solution ([`Move::Solve`]).
    pub revealed: bool,
}

/// What a cell was before a move changed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Change {
    cell: usize,
    value: u8,
    notes: Digits,
}

/// A move played, with what it overwrote.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Done {
    mv: Move,
    before: Vec<Change>,
}

/// A game of Sudoku: one player against a puzzle. Its [`Move`]s are edits ([`Game::play`]
/// refuses a bad one and leaves the game unchanged); every one can be taken back with
/// [`Game::undo`] and played again with [`Game::redo`]. [`Game::check`] tells whether the
/// entries so far are right, [`Game::verify`] whether a full grid is the solution, and
/// [`Game::outcome`] is the end of the game: the grid is the solution. The engine has no
/// clock: the frontend adds the time it measures with [`Game::add_elapsed`].
///
/// ```
/// use sudoku_core::Grid;
/// use sudoku_core::{Game, Move, Verdict};
///
/// let puzzle: Grid = "1......2..4..3..".parse()?; // solution 1234 3412 2143 4321
/// let mut game = Game::new(puzzle)?;
/// game.play("r1c2 2".parse()?)?;
/// assert!(game.play("r1c1 2".parse()?).is_err()); // r1c1 is a given
/// assert_eq!(game.check().wrong, []); // 2 is right
/// game.play("r1c4 3".parse()?)?; // wrong: r1c4 is 4
/// assert_eq!(game.check().wrong, [(0, 3)]);
/// assert_eq!(game.mistakes(), 1);
/// assert_eq!(game.undo(), Some("r1c4 3".parse()?));
/// game.play(Move::Solve)?;
/// assert_eq!(game.verify(), Verdict::Correct);
/// assert!(game.outcome().is_some_and(|o| o.revealed));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    puzzle: Grid,
    solution: Grid,
    grid: Grid,
    notes: Vec<Digits>,
    history: Vec<Done>,
    redo: Vec<Move>,
    mistakes: u32,
    elapsed_ms: u64,
}

impl Game {
    /// A new game of `puzzle`, which must be proper (exactly one solution).
    ///
    /// # Errors
    /// When the puzzle has no solution or several.
    pub fn new(puzzle: Grid) -> Result<Game, SolveError> {
        let solution = puzzle.solve_unique()?;
        Ok(Game {
            notes: alloc::vec![Digits::EMPTY; puzzle.size().cells()],
            grid: puzzle.clone(),
            puzzle,
            solution,
            history: Vec::new(),
            redo: Vec::new(),
            mistakes: 0,
            elapsed_ms: 0,
        })
    }

    /// The grid's size.
    pub fn size(&self) -> Size {
        self.puzzle.size()
    }

    /// The puzzle: the givens only.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// The solution of the puzzle.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// The grid now: the givens and the player's entries.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Whether a cell holds a given (`false` outside the grid).
    pub fn is_given(&self, row: usize, col: usize) -> bool {
        self.puzzle.get(row, col).is_some()
    }

    /// The player's entry in a cell (`None` for a given, an empty cell or outside the grid).
    pub fn entry(&self, row: usize, col: usize) -> Option<u8> {
        if self.is_given(row, col) {
            None
        } else {
            self.grid.get(row, col)
        }
    }

    /// The pencil marks of a cell (none for a filled cell or outside the grid).
    pub fn notes(&self, row: usize, col: usize) -> Digits {
        let n = self.size().side();
        if row < n && col < n {
            self.notes[row * n + col]
        } else {
            Digits::EMPTY
        }
    }

    /// The moves played, oldest first (not those taken back).
    pub fn moves(&self) -> impl ExactSizeIterator<Item = &Move> + '_ {
        self.history.iter().map(|d| &d.mv)
    }

    /// The moves [`Game::redo`] would play again, next one last.
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }

    /// The wrong digits entered so far (a digit that is not the solution's, counted when it
    /// is entered; undoing it does not take the mistake back).
    pub fn mistakes(&self) -> u32 {
        self.mistakes
    }

    /// The time played so far.
    pub fn elapsed(&self) -> Duration {
        Duration::from_millis(self.elapsed_ms)
    }

    /// Adds playing time measured by the frontend (kept to the millisecond, saved with the
    /// game).
    pub fn add_elapsed(&mut self, time: Duration) {
        let ms = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
        self.elapsed_ms = self.elapsed_ms.saturating_add(ms);
    }

    /// Plays `mv`. On error the game is unchanged.
    ///
    /// # Errors
    /// A cell outside the grid, a digit the grid does not have, a given, notes on a
    /// filled cell, a move that changes nothing, or any move once the puzzle is solved.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let changes = self.changes(&mv)?;
        if let Move::Enter { row, col, digit } = mv
            && self.solution.get(row, col) != Some(digit)
        {
            self.mistakes = self.mistakes.saturating_add(1);
        }
        self.apply(mv, &changes);
        self.redo.clear();
        Ok(())
    }

    /// Takes back the last move played; `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let done = self.history.pop()?;
        for c in done.before.iter().rev() {
            self.write(c.cell, c.value, c.notes);
        }
        self.redo.push(done.mv);
        Some(done.mv)
    }

    /// Plays again the last move taken back; `None` when there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = *self.redo.last()?;
        // A move taken back always applies again to the state it was taken back from.
        let changes = self.changes(&mv).ok()?;
        self.redo.pop();
        self.apply(mv, &changes);
        Some(mv)
    }

    /// Whether the entries so far are right: the wrong ones and how many solutions the
    /// grid still has.
    pub fn check(&self) -> Check {
        Check {
            wrong: self.wrong_entries(),
            solutions: self.grid.count_solutions(Check::LIMIT),
        }
    }

    /// Whether the grid is complete and correct.
    pub fn verify(&self) -> Verdict {
        let empty = self.grid.cells().iter().filter(|&&v| v == 0).count();
        if empty > 0 {
            return Verdict::Incomplete(empty);
        }
        let wrong = self.wrong_entries();
        if wrong.is_empty() {
            Verdict::Correct
        } else {
            Verdict::Wrong(wrong)
        }
    }

    /// The end of the game: `Some` once the grid is the solution.
    pub fn outcome(&self) -> Option<Outcome> {
        (self.grid == self.solution).then(|| Outcome {
            elapsed: self.elapsed(),
            mistakes: self.mistakes,
            revealed: self.moves().any(|m| *m == Move::Solve),
        })
    }

    /// The next hint from the logic engine: a wrong entry first, else the simplest
    /// logical step from the candidates of the grid (the player's notes are not trusted).
    ///
    /// # Errors
    /// Only if the logic engine rejects the puzzle, which a game's puzzle (proper) never is.
    pub fn hint(&self) -> Result<Hint, HintError> {
        hint(&self.puzzle, &self.grid)
    }

    /// The entries that differ from the solution, row by row.
    fn wrong_entries(&self) -> Vec<(usize, usize)> {
        let n = self.size().side();
        self.grid
            .cells()
            .iter()
            .zip(self.solution.cells())
            .enumerate()
            .filter(|&(_, (&v, &s))| v != 0 && v != s)
            .map(|(i, _)| (i / n, i % n))
            .collect()
    }

    /// The cell index of a move's cell, checked.
    fn cell_index(&self, row: usize, col: usize) -> Result<usize, PlayError> {
        let n = self.size().side();
        if row >= n || col >= n {
            return Err(PlayError::OutsideGrid {
                row,
                col,
                size: self.size(),
            });
        }
        Ok(row * n + col)
    }

    /// The cells that share a row, a column or a box with (row, col), as indices.
    fn peers(&self, row: usize, col: usize) -> impl Iterator<Item = usize> + '_ {
        let size = self.size();
        let n = size.side();
        let cell = row * n + col;
        (0..n * n).filter(move |&i| {
            let (r, c) = (i / n, i % n);
            i != cell && (r == row || c == col || size.box_of(r, c) == size.box_of(row, col))
        })
    }

    /// Checks `digits` against the size.
    fn check_digits(&self, digits: Digits) -> Result<(), PlayError> {
        let all = Digits::all(self.size().side());
        match (digits - all).first() {
            Some(_) => Err(PlayError::BadDigit {
                digit: (32 - digits.bits().leading_zeros()) as u8,
                size: self.size(),
            }),
            None => Ok(()),
        }
    }

    /// The cells `mv` rewrites, as (cell, value, notes) after the move, or why it is
    /// refused. Nothing is changed.
    fn changes(&self, mv: &Move) -> Result<Vec<Change>, PlayError> {
        if self.grid == self.solution {
            return Err(PlayError::Solved);
        }
        let at = |cell: usize, value: u8, notes: Digits| Change { cell, value, notes };
        let mut out = Vec::new();
        if let Some((row, col)) = mv.cell() {
            let cell = self.cell_index(row, col)?;
            if self.puzzle.cells()[cell] != 0 {
                return Err(PlayError::Given { row, col });
            }
            let value = self.grid.cells()[cell];
            match *mv {
                Move::Enter { digit, .. } => {
                    if digit == 0 || usize::from(digit) > self.size().side() {
                        return Err(PlayError::BadDigit {
                            digit,
                            size: self.size(),
                        });
                    }
                    out.push(at(cell, digit, Digits::EMPTY));
                    // The digit leaves the notes of the cell's peers (its row, column
                    // and box): no note may contradict an entry. Undo gives them back.
                    if value != digit {
                        out.extend(self.peers(row, col).filter_map(|peer| {
                            let notes = self.notes[peer];
                            notes.contains(digit).then(|| {
                                at(peer, self.grid.cells()[peer], notes - Digits::single(digit))
                            })
                        }));
                    }
                }
                Move::Clear { .. } => out.push(at(cell, 0, Digits::EMPTY)),
                Move::ToggleNotes { digits, .. } | Move::SetNotes { digits, .. } => {
                    self.check_digits(digits)?;
                    if value != 0 {
                        return Err(PlayError::Filled { row, col });
                    }
                    let old = self.notes[cell];
                    let notes = match mv {
                        Move::ToggleNotes { .. } => (old | digits) - (old & digits),
                        _ => digits,
                    };
                    out.push(at(cell, 0, notes));
                }
                Move::FillNotes | Move::Solve => {}
            }
        } else if *mv == Move::FillNotes {
            let cands = Candidates::new(&self.grid);
            out.extend(
                (0..self.size().cells())
                    .filter(|&c| self.grid.cells()[c] == 0)
                    .map(|c| at(c, 0, cands.candidates(c))),
            );
        } else {
            out.extend(
                self.solution
                    .cells()
                    .iter()
                    .enumerate()
                    .map(|(c, &v)| at(c, v, Digits::EMPTY)),
            );
        }
        out.retain(|c| self.grid.cells()[c.cell] != c.value || self.notes[c.cell] != c.notes);
        if out.is_empty() {
            return Err(PlayError::NoChange);
        }
        Ok(out)
    }

    /// Writes `changes` (from [`Game::changes`]) and records the move with what it
    /// overwrote.
    fn apply(&mut self, mv: Move, changes: &[Change]) {
        let mut before = Vec::with_capacity(changes.len());
        for c in changes {
            before.push(Change {
                cell: c.cell,
                value: self.grid.cells()[c.cell],
                notes: self.notes[c.cell],
            });
            self.write(c.cell, c.value, c.notes);
        }
        self.history.push(Done { mv, before });
    }

    /// Sets a cell's value (0 = empty) and notes.
    fn write(&mut self, cell: usize, value: u8, notes: Digits) {
        let n = self.size().side();
        // The value was checked against the size when the move was.
        let _ = self
            .grid
            .set(cell / n, cell % n, (value != 0).then_some(value));
        self.notes[cell] = notes;
    }
}
