//! Hints: a wrong entry (or pencil mark) first, else the simplest next step.

use core::fmt;

use super::{LogicSolver, Step};
use crate::candidates::{Candidates, Digits, cell_name};
use crate::grid::{Grid, Size};
use crate::solve::SolveError;
use crate::symbol_char;

/// What [`hint`] advises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// An entry differs from the solution (the first such cell, row-major).
    WrongEntry {
        /// The cell (row-major index).
        cell: usize,
        /// The digit entered there.
        entered: u8,
        /// The grid's size, to name the cell.
        size: Size,
    },
    /// The player's pencil marks of a cell rule out the solution's digit (the first such
    /// cell, row-major; only from [`hint_with_marks`]).
    WrongMarks {
        /// The cell (row-major index).
        cell: usize,
        /// The grid's size, to name the cell.
        size: Size,
    },
    /// The simplest next step.
    Step(Step),
    /// The grid is full and correct.
    Solved,
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::WrongEntry {
                cell,
                entered,
                size,
            } => write!(
                f,
                "The {} in {} is wrong: it is not the digit of the solution.",
                symbol_char(*entered),
                cell_name(*size, *cell)
            ),
            Hint::WrongMarks { cell, size } => write!(
                f,
                "The pencil marks of {} leave out the digit of the solution.",
                cell_name(*size, *cell)
            ),
            Hint::Step(step) => write!(f, "{step}"),
            Hint::Solved => f.write_str("The grid is solved."),
        }
    }
}

/// Why [`hint`] cannot advise.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    /// The puzzle is not proper.
    #[error(transparent)]
    Puzzle(#[from] SolveError),
    /// The pencil marks do not have one entry per cell.
    #[error("{got} sets of pencil marks for {expected} cells")]
    MarkCount {
        /// N².
        expected: usize,
        /// The number of sets given.
        got: usize,
    },
    /// The current grid does not have the puzzle's size.
    #[error("the grid is {got}, the puzzle {expected}")]
    SizeMismatch {
        /// The puzzle's size.
        expected: Size,
        /// The current grid's size.
        got: Size,
    },
}

/// The next hint for a game of `puzzle` whose grid is now `current` (givens plus the
/// player's entries): a wrong entry first, else the simplest step from the candidates of
/// `current`.
///
/// ```
/// use sudoku_core::Grid;
/// use sudoku_core::logic::{Hint, hint};
/// let puzzle: Grid =
///     "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
///         .parse()
///         .unwrap();
/// let right = puzzle.solve_unique().unwrap().cells()[1];
/// let mut cells = puzzle.cells().to_vec();
/// cells[1] = right % 9 + 1; // a wrong digit in r1c2
/// let current = Grid::from_cells(puzzle.size(), &cells).unwrap();
/// let h = hint(&puzzle, &current).unwrap();
/// assert!(matches!(h, Hint::WrongEntry { cell: 1, .. }));
/// assert!(h.to_string().ends_with("in r1c2 is wrong: it is not the digit of the solution."));
/// // Without the wrong entry, the hint is the simplest step.
/// assert!(matches!(hint(&puzzle, &puzzle).unwrap(), Hint::Step(_)));
/// ```
pub fn hint(puzzle: &Grid, current: &Grid) -> Result<Hint, HintError> {
    hint_from(puzzle, current, None)
}

/// Like [`hint`] for a player who keeps pencil marks (`marks`, one set per cell, row by
/// row; ignored for filled cells): a wrong entry first, then a cell whose marks leave out
/// the solution's digit, else the simplest step from those marks (narrowed by the filled
/// peers).
///
/// ```
/// use sudoku_core::{Candidates, Digits, Grid};
/// use sudoku_core::logic::{Hint, hint_with_marks};
/// let puzzle: Grid =
///     "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
///         .parse()
///         .unwrap();
/// let mut marks = Candidates::new(&puzzle).marks().to_vec();
/// let right = puzzle.solve_unique().unwrap().cells()[0];
/// marks[0] = marks[0] - Digits::single(right);
/// let h = hint_with_marks(&puzzle, &puzzle, &marks).unwrap();
/// assert_eq!(h, Hint::WrongMarks { cell: 0, size: puzzle.size() });
/// ```
pub fn hint_with_marks(puzzle: &Grid, current: &Grid, marks: &[Digits]) -> Result<Hint, HintError> {
    hint_from(puzzle, current, Some(marks))
}

fn hint_from(puzzle: &Grid, current: &Grid, marks: Option<&[Digits]>) -> Result<Hint, HintError> {
    if puzzle.size() != current.size() {
        return Err(HintError::SizeMismatch {
            expected: puzzle.size(),
            got: current.size(),
        });
    }
    let cells = current.cells().len();
    if let Some(m) = marks
        && m.len() != cells
    {
        return Err(HintError::MarkCount {
            expected: cells,
            got: m.len(),
        });
    }
    let solution = puzzle.solve_unique()?;
    let wrong = current
        .cells()
        .iter()
        .zip(solution.cells())
        .position(|(&v, &s)| v != 0 && v != s);
    if let Some(cell) = wrong {
        return Ok(Hint::WrongEntry {
            cell,
            entered: current.cells()[cell],
            size: current.size(),
        });
    }
    let state = match marks {
        None => Candidates::new(current),
        Some(m) => {
            let bad = (0..cells)
                .find(|&c| current.cells()[c] == 0 && !m[c].contains(solution.cells()[c]));
            if let Some(cell) = bad {
                return Ok(Hint::WrongMarks {
                    cell,
                    size: current.size(),
                });
            }
            Candidates::with_marks(current, m)
        }
    };
    Ok(match LogicSolver::new().next_step(&state) {
        Some(step) => Hint::Step(step),
        None => Hint::Solved,
    })
}
