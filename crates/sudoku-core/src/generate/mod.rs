//! Puzzle generation: exactly uniform random solved grids (4×4, 6×6, 9×9), proper
//! (unique) puzzles, minimal puzzles, symmetric clue patterns and a target clue count.
//!
//! ```
//! use rand::SeedableRng;
//! use sudoku_core::{GenerateOptions, Size, Symmetry, generate};
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let options = GenerateOptions { symmetry: Symmetry::Rotate180, minimal: true, ..GenerateOptions::default() };
//! let puzzle = generate::puzzle(&options, &mut rng);
//! assert_eq!(puzzle.count_solutions(2), 1);
//! assert!(generate::is_minimal(&puzzle));
//!
//! // Every one of the 6,670,903,752,021,072,936,960 grids equally likely:
//! let grid = generate::solved_grid(Size::Nine, &mut rng);
//! assert!(grid.is_full() && grid.is_consistent());
//! assert!(generate::is_exactly_uniform(Size::Nine));
//! ```
//!
//! # Exactly uniform solved grids
//!
//! [`solved_grid`] gives every solved 4×4, 6×6 and 9×9 grid exactly the same probability
//! (given a generator whose words are independent and uniform). [`puzzle`] starts from
//! these grids. The method is rejection sampling in which **every sequence of random draws
//! is equally likely**:
//!
//! 1. *Row 1 is fixed* as 1, 2, …, n, and at the end the symbols are renamed by a uniformly
//!    random permutation. A grid with row 1 = 1…n and a renaming give one grid, every grid
//!    arises from exactly one such pair, so uniform over the grids with row 1 fixed gives
//!    uniform over all grids.
//! 2. *An attempt* makes a fixed number of draws, each a uniform integer in a fixed range,
//!    so each sequence of draws has the same probability 1/D. For 9×9:
//!    - band 1: one of 56·6³ second rows (which stack each digit of row 1 moves to — the
//!      56 "orientations" below — and the order inside each box) and one of 6³ third rows
//!      (each box's three remaining digits in some order); every one is valid;
//!    - row 4: a split of the nine digits into the three stacks (C(9,3)·C(6,3) = 1680
//!      ways) and one bit per box;
//!    - rows 5 and 6: a digit of row 4's segment in stack e goes to row 5 in one of the two
//!      other stacks and to row 6 in the other, three row-5 digits per stack: 56 ways
//!      (stack s receives f(s−1) digits "forward" and 3 − f(s+1) "backward", so every
//!      group sends the same number a forward: Σ C(3,a)³ = 1 + 27 + 27 + 1); and six bits;
//!    - band 3: each column misses three digits, which split the nine digits in every
//!      stack; 6³ orders of them down the columns of stack 1, and three bits for stack 2;
//!      in stack 3 every digit takes the one row it has not used.
//!
//!    A bit picks one of the orders of a box row's three digits that fit the columns (for
//!    band 3, the rows): each digit is already in one of the box's three columns (it is in
//!    that stack's box of band 1), so at most two of the six orders fit (a 3×3 0/1 matrix
//!    whose rows hold at most two ones has at most two permutations inside it; the unit
//!    tests check all 512). When the bit names an order that does not exist, or stack 3 of
//!    band 3 does not work out, the attempt is rejected and everything starts again from
//!    band 1.
//! 3. *Each valid grid with row 1 fixed comes from exactly one sequence of draws* (the
//!    draws can be read back from the grid: the split of row 4, the orientation of rows
//!    5–6, which fitting order each box row took, …), and an accepted sequence always
//!    gives a valid grid. So an attempt returns any given grid with probability exactly
//!    1/D, whatever the grid: the accepted grid is uniform.
//!
//! For 9×9, D = (12,096·216)·(1,680·8)·(56·64)·(216·8), and an attempt succeeds with
//! probability 18,383,222,420,692,992 / D ≈ 8.45 % (the number of grids with row 1 fixed,
//! 6,670,903,752,021,072,936,960 / 9!, over D): 11.8 attempts per grid on average, each
//! a few dozen bit operations. 6×6 and 4×4 work the same way with bands of two rows
//! (second row of a band: its box sets are forced) and succeed with probability
//! 39,168 / 92,160 = 42.5 % and 12 / 16 = 75 %.
//!
//! The uniform integers come from Lemire's multiply-and-reject method, which is exact
//! (`RngExt::random_range` uses a faster method with a tiny bias). A 9×9 grid takes a few
//! microseconds, less than the non-uniform [`scattered_grid`], so [`puzzle`] starts from
//! the uniform grids.
//!
//! The tests check each stage exhaustively (every draw of a stage gives a different valid
//! continuation, as many as a brute-force count finds; every 4×4 and 6×6 draw sequence),
//! the acceptance rates against the known numbers of grids, a chi-squared test over all
//! 288 4×4 grids (which the scattered method fails), one over the 39,168 row-normalised
//! 6×6 grids, and for 9×9 the symmetry between the numbers of completions of band 3, band
//! 1 and stack 3, which a sampler that forgets part of the weighting fails.
//!
//! 16×16 and 25×25 grids are not even counted; [`solved_grid`] falls back to
//! [`scattered_grid`] there, which is not uniform ([`is_exactly_uniform`] says which).

use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;
use core::str::FromStr;

use rand::Rng;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::fast9;
use crate::grid::{Grid, Size};
use crate::solve::Solver;
use crate::transform::Transform;

mod uniform;

use uniform::uniform_grid;

/// The symmetry of a puzzle's clue pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Symmetry {
    /// No constraint on where the clues are.
    None,
    /// Unchanged by a half turn (the classic newspaper symmetry).
    #[default]
    Rotate180,
    /// Unchanged by a quarter turn.
    Rotate90,
    /// Unchanged by a left-right mirror.
    Mirror,
    /// Unchanged by a reflection in the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The name used by [`FromStr`] and [`Display`](fmt::Display).
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The images of `(r, c)` under the symmetry's group, including itself.
    fn orbit(self, n: usize, r: usize, c: usize) -> ArrayVec<(usize, usize), 4> {
        let m = n - 1;
        let mut v: ArrayVec<(usize, usize), 4> = ArrayVec::new();
        v.push((r, c));
        match self {
            Symmetry::None => {}
            Symmetry::Rotate180 => v.push((m - r, m - c)),
            Symmetry::Rotate90 => {
                v.push((c, m - r));
                v.push((m - r, m - c));
                v.push((m - c, r));
            }
            Symmetry::Mirror => v.push((r, m - c)),
            Symmetry::Diagonal => v.push((c, r)),
        }
        v.sort_unstable();
        let mut out = ArrayVec::new();
        for p in v {
            if out.last() != Some(&p) {
                out.push(p);
            }
        }
        out
    }

    /// Whether the clue pattern of `grid` has this symmetry.
    pub fn holds_for(self, grid: &Grid) -> bool {
        let n = grid.size().side();
        (0..n).all(|r| {
            (0..n).all(|c| {
                let filled = grid.get(r, c).is_some();
                self.orbit(n, r, c)
                    .iter()
                    .all(|&(r2, c2)| grid.get(r2, c2).is_some() == filled)
            })
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown symmetry name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry {0:?} (use none, rotate180, rotate90, mirror or diagonal)")]
pub struct ParseSymmetryError(pub alloc::string::String);

impl FromStr for Symmetry {
    type Err = ParseSymmetryError;
    fn from_str(s: &str) -> Result<Symmetry, ParseSymmetryError> {
        Symmetry::ALL
            .into_iter()
            .find(|sym| sym.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseSymmetryError(s.into()))
    }
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GenerateOptions {
    /// The grid size.
    pub size: Size,
    /// The symmetry of the clue pattern.
    pub symmetry: Symmetry,
    /// Guarantee that no single given can be removed without losing uniqueness. With a
    /// symmetry, the symmetric removal pass is followed by a cell-by-cell pass, which may
    /// break the symmetry of a few clues.
    pub minimal: bool,
    /// Stop removing givens once the puzzle has at most this many. When the removal cannot
    /// get that low, up to [`GenerateOptions::attempts`] grids are tried and the puzzle with
    /// the fewest clues is kept.
    pub clues: Option<usize>,
    /// How many solved grids to try for a clue target (at least 1).
    pub attempts: u32,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            size: Size::Nine,
            symmetry: Symmetry::None,
            minimal: false,
            clues: None,
            attempts: 50,
        }
    }
}

/// A random solved grid: exactly uniform for 4×4, 6×6 and 9×9 (see the [module
/// documentation](self#exactly-uniform-solved-grids)), and for 16×16 and 25×25 the
/// [`scattered_grid`] method, which is not uniform.
///
/// The same generator state gives the same grid.
pub fn solved_grid(size: Size, rng: &mut (impl Rng + ?Sized)) -> Grid {
    if is_exactly_uniform(size) {
        uniform_grid(size, rng)
    } else {
        scattered_grid(size, rng)
    }
}

/// A random solved grid by a quick method that is NOT uniform: random, locally consistent
/// symbols are scattered over an empty grid, the solver completes it, and a uniformly
/// random [`Transform`] is applied. Every solved grid can come out, but some far more often
/// than others (a chi-squared test over the 288 4×4 grids rejects it at once).
/// [`solved_grid`] uses it for 16×16 and 25×25, whose grids are too many and too
/// little understood for an exact method.
pub fn scattered_grid(size: Size, rng: &mut (impl Rng + ?Sized)) -> Grid {
    let n = size.side();
    let seeds = match size {
        Size::Four => 3,
        Size::Six => 6,
        Size::Nine => 11,
        Size::Sixteen => 24,
        Size::TwentyFive => 40,
    };
    loop {
        let mut cells = alloc::vec![0u8; n * n];
        let mut order: Vec<usize> = (0..n * n).collect();
        for i in 0..seeds {
            let j = rng.random_range(i..n * n);
            order.swap(i, j);
        }
        for &cell in &order[..seeds] {
            let (r, c) = (cell / n, cell % n);
            let mut used = 0u32;
            for k in 0..n {
                let in_row = cells[r * n + k];
                let in_col = cells[k * n + c];
                let (br, bc) = (size.box_rows(), size.box_cols());
                let (r0, c0) = (r / br * br, c / bc * bc);
                let in_box = cells[(r0 + k / bc) * n + c0 + k % bc];
                for v in [in_row, in_col, in_box] {
                    if v != 0 {
                        used |= 1 << (v - 1);
                    }
                }
            }
            let free = !used & ((1u32 << n) - 1);
            if free == 0 {
                continue;
            }
            let pick = rng.random_range(0..free.count_ones());
            let mut f = free;
            for _ in 0..pick {
                f &= f - 1;
            }
            cells[cell] = f.trailing_zeros() as u8 + 1;
        }
        let start = Grid::from_cells(size, &cells).expect("symbols in range");
        // A random start can be unsolvable in a way only a long search proves: give up
        // early and scatter again.
        let nodes = if n <= 9 { 200 } else { 20_000 };
        let solver = Solver::new().node_limit(nodes);
        if let Ok(Some(solution)) = solver.solve_one(&start) {
            return Transform::random(size, rng)
                .apply(&solution)
                .expect("same size");
        }
    }
}

/// Whether [`solved_grid`] draws every solved grid of `size` with exactly the same
/// probability (4×4, 6×6 and 9×9), given a perfect random source.
pub const fn is_exactly_uniform(size: Size) -> bool {
    matches!(size, Size::Four | Size::Six | Size::Nine)
}

/// Branching nodes allowed to the general solver for one removal check; a removal whose
/// check needs more is not made.
const REMOVAL_NODES: u64 = 500;

/// Whether removing the given at `cell` (value `v`) from `puzzle` keeps it unique, for a
/// puzzle known to be unique.
fn removable(puzzle: &mut [u8], size: Size, cells: &[usize]) -> bool {
    if size == Size::Nine && cells.len() == 1 {
        let (c, v) = (cells[0], puzzle[cells[0]]);
        puzzle[c] = 0;
        let unique = !fast9::has_solution_without(puzzle, c, v);
        if !unique {
            puzzle[c] = v;
        }
        return unique;
    }
    let saved: Vec<u8> = cells.iter().map(|&c| puzzle[c]).collect();
    let unique = {
        for &c in cells {
            puzzle[c] = 0;
        }
        if size == Size::Nine {
            fast9::count(puzzle, 2, u64::MAX) == Ok(1)
        } else {
            // A search that runs out of nodes keeps the givens: the puzzle stays proper.
            let grid = Grid::from_cells(size, puzzle).expect("symbols in range");
            Solver::new().node_limit(REMOVAL_NODES).count(&grid, 2) == Ok(1)
        }
    };
    if !unique {
        for (&c, &v) in cells.iter().zip(&saved) {
            puzzle[c] = v;
        }
    }
    unique
}

/// A proper puzzle (exactly one solution) whose solution is `solution`, removing givens in
/// a random order as the options say (`options.size` is not used: the puzzle has the
/// solution's size). `None` when `solution` is not a full grid without conflicts.
pub fn puzzle_from(
    solution: &Grid,
    options: &GenerateOptions,
    rng: &mut (impl Rng + ?Sized),
) -> Option<Grid> {
    if !solution.is_full() || !solution.is_consistent() {
        return None;
    }
    let size = solution.size();
    let n = size.side();
    let mut puzzle = solution.cells().to_vec();
    // The orbits of the symmetry, each once, in random order.
    let mut orbits: Vec<ArrayVec<usize, 4>> = Vec::with_capacity(n * n);
    let mut seen = alloc::vec![false; n * n];
    for cell in 0..n * n {
        if !seen[cell] {
            let orbit: ArrayVec<usize, 4> = options
                .symmetry
                .orbit(n, cell / n, cell % n)
                .into_iter()
                .map(|(r, c)| r * n + c)
                .collect();
            for &c in &orbit {
                seen[c] = true;
            }
            orbits.push(orbit);
        }
    }
    for i in (1..orbits.len()).rev() {
        let j = rng.random_range(0..=i);
        orbits.swap(i, j);
    }
    let target = options.clues.unwrap_or(0);
    let mut clues = n * n;
    // Removing orbits one by one in this order gives the same puzzle as removing a prefix
    // of them at once when the result is still unique (every intermediate puzzle is then
    // unique too), so try a large prefix first and save most checks.
    let mut start = 0;
    let mut want = (n * n / 2).min(n * n - target.min(n * n));
    while want >= 4 {
        let mut cells = Vec::new();
        let mut k = 0;
        while k < orbits.len() && cells.len() + orbits[k].len() <= want {
            cells.extend_from_slice(&orbits[k]);
            k += 1;
        }
        if k > 1 && removable(&mut puzzle, size, &cells) {
            start = k;
            clues -= cells.len();
            break;
        }
        want /= 2;
    }
    for orbit in &orbits[start..] {
        if clues <= target && !options.minimal {
            break;
        }
        if removable(&mut puzzle, size, orbit) {
            clues -= orbit.len();
        }
    }
    if options.minimal && options.symmetry != Symmetry::None {
        let mut order: Vec<usize> = (0..n * n).filter(|&c| puzzle[c] != 0).collect();
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        for c in order {
            removable(&mut puzzle, size, &[c]);
        }
    }
    Some(Grid::from_cells(size, &puzzle).expect("symbols in range"))
}

/// A proper puzzle generated as the options say, from a [`solved_grid`] (exactly uniform up
/// to 9×9; the puzzle itself is not uniform among puzzles: givens are removed in a random
/// order until none more can go).
pub fn puzzle(options: &GenerateOptions, rng: &mut (impl Rng + ?Sized)) -> Grid {
    let mut best: Option<Grid> = None;
    for _ in 0..options.attempts.max(1) {
        let solution = solved_grid(options.size, rng);
        let p = puzzle_from(&solution, options, rng).expect("solved grids are solutions");
        let done = options.clues.is_none_or(|k| p.clue_count() <= k);
        if best
            .as_ref()
            .is_none_or(|b| p.clue_count() < b.clue_count())
        {
            best = Some(p);
        }
        if done {
            break;
        }
    }
    best.expect("at least one attempt")
}

/// Whether a puzzle is proper and minimal: it has exactly one solution and removing any
/// given makes it have several.
pub fn is_minimal(puzzle: &Grid) -> bool {
    if puzzle.count_solutions(2) != 1 {
        return false;
    }
    let mut cells = puzzle.cells().to_vec();
    let size = puzzle.size();
    (0..cells.len()).all(|c| {
        if cells[c] == 0 {
            return true;
        }
        let v = cells[c];
        cells[c] = 0;
        let g = Grid::from_cells(size, &cells).expect("symbols in range");
        let several = g.count_solutions(2) > 1;
        cells[c] = v;
        several
    })
}
