//! The package's exceptions: one class per kind of failure, each a `ValueError`, carrying
//! the engine's message.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    tabletop,
    TabletopError,
    PyValueError,
    "The base of every error the Tabletop engines report."
);
create_exception!(
    tabletop,
    ParseError,
    TabletopError,
    "Text that is not valid notation (a position, a move, dice, a level, a grid)."
);
create_exception!(
    tabletop,
    IllegalMoveError,
    TabletopError,
    "A move, step, shot or action the rules do not allow here; the game is unchanged."
);
create_exception!(
    tabletop,
    GameOverError,
    IllegalMoveError,
    "A move asked for after the end of the game."
);
create_exception!(
    tabletop,
    LoadError,
    TabletopError,
    "Bytes that are not a valid save of this game (wrong magic, newer version, damaged)."
);
create_exception!(
    tabletop,
    SolveError,
    TabletopError,
    "A sudoku with no solution, several where one was needed, or a search that gave up."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TabletopError", py.get_type::<TabletopError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("SolveError", py.get_type::<SolveError>())?;
    Ok(())
}

/// A parse error with the engine's message.
pub(crate) fn parse(e: impl std::fmt::Display) -> PyErr {
    ParseError::new_err(e.to_string())
}

/// An illegal move with the engine's message.
pub(crate) fn illegal(e: impl std::fmt::Display) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

/// The game is over.
pub(crate) fn game_over(message: impl Into<String>) -> PyErr {
    GameOverError::new_err(message.into())
}

/// A save that does not load.
pub(crate) fn load(e: impl std::fmt::Display) -> PyErr {
    LoadError::new_err(e.to_string())
}

/// A sudoku solving failure.
pub(crate) fn solve(e: impl std::fmt::Display) -> PyErr {
    SolveError::new_err(e.to_string())
}
