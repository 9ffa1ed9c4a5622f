//! `tabletop.sudoku`: solve, count, rate, explain and generate with `sudoku-core`. Grids
//! are the line notation (`"..43..2.9…"`, `.` or `0` for an empty cell), as strings.

use pyo3::prelude::*;
use sudoku_core::logic::{self, Difficulty, LogicSolver};
use sudoku_core::{GenerateOptions, Grid};

use crate::errors;
use crate::util::{self, item_seed};

fn parse_grid(text: &str) -> PyResult<Grid> {
    text.parse().map_err(errors::parse)
}

fn parse_difficulty(text: &str) -> PyResult<Difficulty> {
    text.parse().map_err(errors::parse)
}

/// The unique solution of `puzzle`; raises `SolveError` when it has none or several.
#[pyfunction]
fn solve(py: Python<'_>, puzzle: &str) -> PyResult<String> {
    let g = parse_grid(puzzle)?;
    let s = py.detach(move || g.solve_unique());
    Ok(s.map_err(errors::solve)?.to_string())
}

/// The number of solutions of `puzzle`, counting up to `limit`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2))]
fn count_solutions(py: Python<'_>, puzzle: &str, limit: usize) -> PyResult<usize> {
    let g = parse_grid(puzzle)?;
    Ok(py.detach(move || g.count_solutions(limit)))
}

/// The rating of a proper puzzle on Sudoku Explainer's scale: a dict with `rating` (e.g.
/// 2.8), `difficulty` (`"easy"` … `"extreme"`), `hardest` (the hardest technique) and
/// `steps`. Raises `SolveError` unless the puzzle has exactly one solution.
#[pyfunction]
fn rate(py: Python<'_>, puzzle: &str) -> PyResult<Py<PyAny>> {
    let g = parse_grid(puzzle)?;
    let r = py.detach(move || logic::rate(&g)).map_err(errors::solve)?;
    let d = pyo3::types::PyDict::new(py);
    d.set_item("rating", f64::from(r.tenths) / 10.0)?;
    d.set_item("difficulty", r.difficulty.name())?;
    d.set_item("hardest", r.hardest.map(|t| t.to_string()))?;
    d.set_item("steps", r.steps)?;
    Ok(d.into_any().unbind())
}

/// The human-style solving path of `puzzle`, simplest technique first: a list of dicts
/// with `technique`, `explanation`, `placements` and `eliminations` (`(cell, digit)`
/// pairs, cells row-major from 0).
#[pyfunction]
fn explain(py: Python<'_>, puzzle: &str) -> PyResult<Vec<Py<PyAny>>> {
    let g = parse_grid(puzzle)?;
    let path = py
        .detach(move || LogicSolver::new().solve(&g))
        .map_err(errors::solve)?;
    path.steps
        .iter()
        .map(|s| {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("technique", s.technique.to_string())?;
            d.set_item("explanation", &s.explanation)?;
            d.set_item("placements", s.placements.clone())?;
            d.set_item("eliminations", s.eliminations.clone())?;
            Ok(d.into_any().unbind())
        })
        .collect()
}

/// A proper 9×9 puzzle from `seed`: of `difficulty` (`"easy"` … `"extreme"`) when given,
/// else any. Raises `SolveError` when no puzzle of the level was found in `attempts`.
#[pyfunction]
#[pyo3(name = "generate", signature = (seed = 0, difficulty = None, attempts = 50))]
fn generate_puzzle(
    py: Python<'_>,
    seed: u64,
    difficulty: Option<&str>,
    attempts: u32,
) -> PyResult<String> {
    let level = difficulty.map(parse_difficulty).transpose()?;
    let g = py.detach(move || generate_one(seed, level, attempts));
    g.map(|g| g.to_string())
        .ok_or_else(|| errors::solve("no puzzle of that difficulty was found: raise attempts"))
}

fn generate_one(seed: u64, level: Option<Difficulty>, attempts: u32) -> Option<Grid> {
    let mut rng = util::rng(seed);
    let options = GenerateOptions::default();
    match level {
        None => Some(sudoku_core::generate::puzzle(&options, &mut rng)),
        Some(l) => logic::generate_level::puzzle_of_level(l, &options, attempts, &mut rng),
    }
}

/// `count` puzzles with their ratings: puzzle `i` is `generate(item_seed(seed, i),
/// difficulty)`, so the batch is a pure function of `(seed, count)`. Returns
/// `(puzzle, rating, difficulty)` tuples (a level not reached in `attempts` gives `None`).
#[pyfunction]
#[pyo3(signature = (count, seed = 0, difficulty = None, attempts = 50))]
fn generate_batch(
    py: Python<'_>,
    count: usize,
    seed: u64,
    difficulty: Option<&str>,
    attempts: u32,
) -> PyResult<Vec<Option<(String, f64, String)>>> {
    let level = difficulty.map(parse_difficulty).transpose()?;
    Ok(py.detach(move || {
        (0..count as u64)
            .map(|i| {
                let g = generate_one(item_seed(seed, i), level, attempts)?;
                let r = logic::rate(&g).ok()?;
                Some((
                    g.to_string(),
                    f64::from(r.tenths) / 10.0,
                    r.difficulty.name().to_string(),
                ))
            })
            .collect()
    }))
}

/// The seed of item `index` of a batch started from `seed` (SplitMix64), the one every
/// batch function of the package uses.
#[pyfunction]
#[pyo3(name = "item_seed")]
fn item_seed_py(seed: u64, index: u64) -> u64 {
    item_seed(seed, index)
}

/// A sudoku being played: the puzzle and its unique solution, entries and pencil marks as
/// moves (`"r3c5 7"`, `"clear r3c5"`, `"note r3c5 1 2"`, `"notes all"`, `"solve"`),
/// `undo`/`redo`, checks and binary saves.
#[pyclass(module = "tabletop.sudoku", eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Game {
    inner: sudoku_core::Game,
}

#[pymethods]
impl Game {
    /// A game of `puzzle`; raises `SolveError` unless it has exactly one solution.
    #[new]
    fn new(py: Python<'_>, puzzle: &str) -> PyResult<Self> {
        let g = parse_grid(puzzle)?;
        let inner = py
            .detach(move || sudoku_core::Game::new(g))
            .map_err(errors::solve)?;
        Ok(Game { inner })
    }

    /// The puzzle (givens only).
    #[getter]
    fn puzzle(&self) -> String {
        self.inner.puzzle().to_string()
    }

    /// The current grid (givens and entries).
    #[getter]
    fn grid(&self) -> String {
        self.inner.grid().to_string()
    }

    /// Plays a move in notation; raises `IllegalMoveError` (the game unchanged) when the
    /// move is not allowed, e.g. on a given or after the end.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        let mv: sudoku_core::Move = r#move.parse().map_err(errors::parse)?;
        self.inner.play(mv).map_err(errors::illegal)
    }

    /// Takes back the last move.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo().map(|m| m.to_string())
    }

    /// Plays again the last move taken back.
    fn redo(&mut self) -> Option<String> {
        self.inner.redo().map(|m| m.to_string())
    }

    /// The wrong entries, `(row, col)` from 0.
    fn wrong_entries(&self) -> Vec<(usize, usize)> {
        self.inner.check().wrong
    }

    /// The wrong digits entered so far (taking one back does not erase it).
    #[getter]
    fn mistakes(&self) -> u32 {
        self.inner.mistakes()
    }

    /// Whether the grid equals the solution.
    fn is_solved(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// The next logical step in words (a wrong entry first).
    fn hint(&self, py: Python<'_>) -> PyResult<String> {
        let g = self.inner.clone();
        let h = py.detach(move || g.hint()).map_err(errors::solve)?;
        Ok(h.to_string())
    }

    /// The game in Tabletop's binary save format.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, &self.inner.to_bytes())
    }

    /// A game read from `to_bytes()`'s output; raises `LoadError` on anything else.
    #[classmethod]
    fn from_bytes(_cls: &Bound<'_, pyo3::types::PyType>, data: &[u8]) -> PyResult<Self> {
        Ok(Game {
            inner: sudoku_core::Game::from_bytes(data).map_err(errors::load)?,
        })
    }

    fn __repr__(&self) -> String {
        format!("sudoku.Game(grid='{}')", self.inner.grid())
    }
}

util::game_copy_and_pickle!(Game);

pub(crate) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = util::submodule(py, "sudoku")?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(count_solutions, &m)?)?;
    m.add_function(wrap_pyfunction!(rate, &m)?)?;
    m.add_function(wrap_pyfunction!(explain, &m)?)?;
    m.add_function(wrap_pyfunction!(generate_puzzle, &m)?)?;
    m.add_function(wrap_pyfunction!(generate_batch, &m)?)?;
    m.add_function(wrap_pyfunction!(item_seed_py, &m)?)?;
    Ok(m)
}
