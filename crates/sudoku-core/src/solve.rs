//! The solver API: one solution, counting, all solutions, uniqueness.

use alloc::vec::Vec;

use crate::grid::{Grid, Size};
use crate::{fast9, general};

/// Why a puzzle has no unique solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SolveError {
    /// No grid completes the puzzle (this includes puzzles whose givens clash).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// At least two grids complete the puzzle.
    #[error("the puzzle has more than one solution")]
    MultipleSolutions,
}

/// A search stopped by [`Solver::node_limit`] before it could answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("the search gave up after {0} branching nodes")]
pub struct SearchAborted(pub u64);

/// Which solver backend a [`Solver`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    /// The dedicated bit-parallel solver for 9×9, the general one for other sizes.
    #[default]
    Auto,
    /// The general solver for every size (slower on 9×9; useful to cross-check).
    General,
}

/// A configurable solver. [`Grid`]'s methods use `Solver::default()`: the fastest backend
/// for the size and no node limit.
///
/// Proper puzzles and the benchmark sets solve in microseconds to milliseconds, but
/// Sudoku is NP-complete: a nearly empty grid whose givens contradict each other in a way
/// propagation cannot see may need a long search (rare on 9×9, easier to build on 16×16 and
/// 25×25). Set a node limit to bound the work on untrusted input.
///
/// ```
/// use sudoku_core::{Grid, Solver};
/// let g: Grid = "................".parse().unwrap();
/// assert_eq!(Solver::default().count(&g, 1000).unwrap(), 288);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Solver {
    backend: Backend,
    node_limit: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// The default solver: the fastest backend for the size, no node limit.
    pub const fn new() -> Solver {
        Solver {
            backend: Backend::Auto,
            node_limit: u64::MAX,
        }
    }

    /// Chooses the backend.
    pub const fn backend(self, backend: Backend) -> Solver {
        Solver { backend, ..self }
    }

    /// Gives up (with [`SearchAborted`]) after `nodes` branching nodes.
    pub const fn node_limit(self, nodes: u64) -> Solver {
        Solver {
            node_limit: nodes,
            ..self
        }
    }

    /// Calls `found` with the cells of each solution until it returns `false` or there
    /// are no more.
    pub fn for_each_solution(
        &self,
        grid: &Grid,
        found: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<(), SearchAborted> {
        if grid.size() == Size::Nine && self.backend == Backend::Auto {
            fast9::for_each_solution(grid.cells(), self.node_limit, &mut |s: &[u8; 81]| found(s))
                .map_err(|_| SearchAborted(self.node_limit))
        } else {
            general::for_each_solution(grid.size(), grid.cells(), self.node_limit, found)
                .map_err(|_| SearchAborted(self.node_limit))
        }
    }

    /// The number of solutions, counting at most `limit`.
    pub fn count(&self, grid: &Grid, limit: usize) -> Result<usize, SearchAborted> {
        if limit == 0 {
            return Ok(0);
        }
        if grid.size() == Size::Nine && self.backend == Backend::Auto {
            return fast9::count(grid.cells(), limit, self.node_limit)
                .map_err(|_| SearchAborted(self.node_limit));
        }
        let mut n = 0;
        self.for_each_solution(grid, &mut |_| {
            n += 1;
            n < limit
        })?;
        Ok(n)
    }

    /// Up to `limit` solutions, in search order.
    pub fn solutions(&self, grid: &Grid, limit: usize) -> Result<Vec<Grid>, SearchAborted> {
        let mut out = Vec::new();
        if limit == 0 {
            return Ok(out);
        }
        let size = grid.size();
        self.for_each_solution(grid, &mut |cells| {
            out.push(Grid::from_cells(size, cells).expect("solver output is a grid"));
            out.len() < limit
        })?;
        Ok(out)
    }

    /// Some solution, if any.
    pub fn solve_one(&self, grid: &Grid) -> Result<Option<Grid>, SearchAborted> {
        Ok(self.solutions(grid, 1)?.pop())
    }

    /// The solution when it is unique, else why not.
    pub fn solve_unique(&self, grid: &Grid) -> Result<Result<Grid, SolveError>, SearchAborted> {
        let mut sols = self.solutions(grid, 2)?;
        Ok(match sols.len() {
            0 => Err(SolveError::NoSolution),
            1 => Ok(sols.pop().expect("one solution")),
            _ => Err(SolveError::MultipleSolutions),
        })
    }
}

impl Grid {
    /// Some solution of this puzzle, or `None` when it has none.
    ///
    /// ```
    /// use sudoku_core::Grid;
    /// let p: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    ///     .parse().unwrap();
    /// let s = p.solve_one().unwrap();
    /// assert!(s.is_solution_of(&p));
    /// ```
    pub fn solve_one(&self) -> Option<Grid> {
        Solver::default()
            .solve_one(self)
            .expect("no node limit by default")
    }

    /// The number of solutions, counting at most `limit` (so `count_solutions(2)` tells
    /// none, one or several).
    pub fn count_solutions(&self, limit: usize) -> usize {
        Solver::default()
            .count(self, limit)
            .expect("no node limit by default")
    }

    /// Up to `limit` solutions.
    pub fn solutions(&self, limit: usize) -> Vec<Grid> {
        Solver::default()
            .solutions(self, limit)
            .expect("no node limit by default")
    }

    /// The solution when there is exactly one.
    ///
    /// ```
    /// use sudoku_core::{Grid, SolveError};
    /// let empty: Grid = ".".repeat(81).parse().unwrap();
    /// assert_eq!(empty.solve_unique(), Err(SolveError::MultipleSolutions));
    /// ```
    pub fn solve_unique(&self) -> Result<Grid, SolveError> {
        Solver::default()
            .solve_unique(self)
            .expect("no node limit by default")
    }
}
