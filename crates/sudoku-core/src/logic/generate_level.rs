//! Generation by difficulty: a proper puzzle whose [`rate`](super::rate) is at a level.
//!
//! Puzzles come from [`generate::puzzle`](crate::generate::puzzle); one that rates too hard
//! gets clues of its solution back (an orbit of the symmetry at a time) until it rates at
//! the level or lower, one that rates too easy is dropped for a new one.

use alloc::vec::Vec;

use rand::{Rng, RngExt};

use super::LogicSolver;
use super::rating::{Difficulty, Rating};
use crate::Candidates;
use crate::generate::{self, GenerateOptions, Symmetry};
use crate::grid::Grid;

/// The cells of the symmetry orbit of `cell` in a grid of side `n`.
fn orbit(symmetry: Symmetry, n: usize, cell: usize) -> Vec<usize> {
    let (r, c) = (cell / n, cell % n);
    let m = n - 1;
    let mut v = alloc::vec![(r, c)];
    match symmetry {
        Symmetry::None => {}
        Symmetry::Rotate180 => v.push((m - r, m - c)),
        Symmetry::Rotate90 => v.extend([(c, m - r), (m - r, m - c), (m - c, r)]),
        Symmetry::Mirror => v.push((r, m - c)),
        Symmetry::Diagonal => v.push((c, r)),
    }
    let mut cells: Vec<usize> = v.into_iter().map(|(r, c)| r * n + c).collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

fn rating(puzzle: &Grid) -> Rating {
    Rating::of_path(&LogicSolver::new().solve_from(Candidates::new(puzzle)))
}

/// A proper puzzle of `level` with the size and symmetry of `options` (its other fields
/// are passed to the generator), trying at most `attempts` generated puzzles; `None` when
/// none reached the level. The same generator state gives the same puzzle.
///
/// ```
/// use rand::SeedableRng;
/// use sudoku_core::GenerateOptions;
/// use sudoku_core::logic::{Difficulty, generate_level::puzzle_of_level, rate};
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let p = puzzle_of_level(Difficulty::Easy, &GenerateOptions::default(), 20, &mut rng).unwrap();
/// assert_eq!(rate(&p).unwrap().difficulty, Difficulty::Easy);
/// ```
pub fn puzzle_of_level(
    level: Difficulty,
    options: &GenerateOptions,
    attempts: u32,
    rng: &mut (impl Rng + ?Sized),
) -> Option<Grid> {
    let n = options.size.side();
    for _ in 0..attempts.max(1) {
        let solution = generate::solved_grid(options.size, rng);
        let Some(puzzle) = generate::puzzle_from(&solution, options, rng) else {
            continue;
        };
        let mut r = rating(&puzzle);
        if r.difficulty < level {
            continue;
        }
        let mut cells = puzzle.cells().to_vec();
        while r.difficulty > level {
            // Give back the clue orbit of a random empty cell.
            let empty: Vec<usize> = (0..n * n).filter(|&c| cells[c] == 0).collect();
            let pick = empty[rng.random_range(0..empty.len())];
            for c in orbit(options.symmetry, n, pick) {
                cells[c] = solution.cells()[c];
            }
            let g = Grid::from_cells(options.size, &cells).expect("symbols in range");
            r = rating(&g);
        }
        if r.difficulty == level {
            return Some(Grid::from_cells(options.size, &cells).expect("symbols in range"));
        }
    }
    None
}
