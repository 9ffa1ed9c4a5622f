//! Generation by difficulty: a proper puzzle whose [`rate`](super::rate) is at a level.
//!
//! Puzzles come from [`generate::puzzle_from`]; one that
//! rates too hard gets clues of its solution back (an orbit of the symmetry at a time)
//! until it rates at the level, one that rates too easy is dropped for a new one.

use alloc::vec::Vec;

use rand::{Rng, RngExt};

use super::rating::Difficulty;
use super::{LogicSolver, Outline, Technique, Techniques};
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

/// The techniques a level allows: every one whose difficulty is within the level.
fn techniques_of(level: Difficulty) -> Techniques {
    Technique::ALL
        .iter()
        .filter(|t| t.difficulty() <= level.max_rating())
        .fold(Techniques::NONE, |s, &t| s.with(t))
}

/// The logical solve of `puzzle` with the techniques of `level` (it stops where they run
/// dry). The simplest-first path with every technique is the same as long as it needs no
/// harder one, so the puzzle rates at `level` or lower exactly when this solves it.
fn solve_within(puzzle: &Grid, level: Difficulty) -> Outline {
    LogicSolver::with_techniques(techniques_of(level)).outline(puzzle)
}

/// The level just below, if any.
fn below(level: Difficulty) -> Option<Difficulty> {
    Difficulty::ALL.into_iter().rev().find(|&d| d < level)
}

/// A proper puzzle of `level` with the size and symmetry of `options` (its other fields
/// are passed to the generator), trying at most `attempts` generated puzzles; `None` when
/// none reached the level. The same generator state gives the same puzzle.
///
/// A puzzle that rates above the level gets back the solution's digits (a symmetry orbit
/// at a time) of cells where the level's techniques got stuck, until they solve it; one
/// that rates below is dropped.
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
    let too_easy = |g: &Grid| below(level).is_some_and(|b| solve_within(g, b).solved);
    for _ in 0..attempts.max(1) {
        let solution = generate::solved_grid(options.size, rng);
        let puzzle = generate::puzzle_from(&solution, options, rng).expect("a solved grid");
        if too_easy(&puzzle) {
            continue;
        }
        let mut cells = puzzle.cells().to_vec();
        loop {
            let g = Grid::from_cells(options.size, &cells).expect("symbols in range");
            let path = solve_within(&g, level);
            if path.solved {
                if too_easy(&g) {
                    break;
                }
                return Some(g);
            }
            let stuck: Vec<usize> = (0..n * n)
                .filter(|&c| path.end.value(c).is_none())
                .collect();
            let pick = stuck[rng.random_range(0..stuck.len())];
            for c in orbit(options.symmetry, n, pick) {
                cells[c] = solution.cells()[c];
            }
        }
    }
    None
}
