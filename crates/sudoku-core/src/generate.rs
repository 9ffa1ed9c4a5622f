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
//! (`RngExt::random_range` uses a faster method with a tiny bias). Measured (release, one
//! thread, while other builds loaded the 2-core machine, load average 3–5): 2.3–3.3 µs per
//! 9×9 grid, 0.47–0.72 µs per 6×6 grid and 0.09–0.15 µs per 4×4 grid — faster than the old
//! non-uniform [`scattered_grid`] (9.6–9.8 µs for 9×9), so [`puzzle`] uses the uniform
//! grids (`tabletop sudoku generate --minimal`: 78–90 µs per 9×9 puzzle, process start
//! included, the removal checks being most of it).
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

use crate::fast9::{self, PERM3};
use crate::grid::{Grid, Size};
use crate::solve::Solver;
use crate::transform::Transform;

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

// ---------------------------------------------------------------------------------------
// Exactly uniform solved grids.
// ---------------------------------------------------------------------------------------

/// Whether [`solved_grid`] draws every solved grid of `size` with exactly the same
/// probability (4×4, 6×6 and 9×9), given a perfect random source.
pub const fn is_exactly_uniform(size: Size) -> bool {
    matches!(size, Size::Four | Size::Six | Size::Nine)
}

/// An exactly uniform integer in `0..n` (`n > 0`) from 32-bit words: Lemire's
/// multiply-and-reject method, which rejects the `2^32 mod n` low products that would make
/// some results more frequent. (`RngExt::random_range` trades that exactness for speed.)
fn below(rng: &mut (impl Rng + ?Sized), n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// The `k`-element subsets of `n` things as bit masks, in increasing order (`LEN` = C(n, k)).
const fn subsets<const LEN: usize>(n: u32, k: u32) -> [u16; LEN] {
    let mut out = [0u16; LEN];
    let mut mask = 0u32;
    let mut i = 0;
    while mask < 1 << n {
        if mask.count_ones() == k {
            out[i] = mask as u16;
            i += 1;
        }
        mask += 1;
    }
    assert!(i == LEN);
    out
}

/// The 84 three-digit subsets of the nine digits.
const THREE_OF_NINE: [u16; 84] = subsets::<84>(9, 3);
/// The 20 three-element subsets of six positions.
const THREE_OF_SIX: [u16; 20] = subsets::<20>(6, 3);

/// The three members of a three-digit mask, smallest first.
fn three(mask: u16) -> [u8; 3] {
    debug_assert_eq!(mask.count_ones(), 3);
    let second = mask & (mask - 1);
    let third = second & (second - 1);
    [
        mask.trailing_zeros() as u8,
        second.trailing_zeros() as u8,
        third.trailing_zeros() as u8,
    ]
}

/// For each pattern of allowed places (bit `3k + j`: item `k` may take place `j`), how
/// many of the six orders fit (item `k` takes place `order[k]`) and the indices in
/// [`PERM3`] of the first two that do (`0xff` for none).
const FITTING: [[u8; 3]; 512] = {
    let mut table = [[0u8, 0xff, 0xff]; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut o = 0;
        while o < 6 {
            let order = PERM3[o];
            let mut fits = true;
            let mut k = 0;
            while k < 3 {
                if pattern >> (3 * k + order[k]) & 1 == 0 {
                    fits = false;
                }
                k += 1;
            }
            if fits {
                let seen = table[pattern][0] as usize;
                if seen < 2 {
                    table[pattern][1 + seen] = o as u8;
                }
                table[pattern][0] += 1;
            }
            o += 1;
        }
        pattern += 1;
    }
    table
};

/// The `pick`-th (0 or 1) order fitting `pattern` (see [`FITTING`]), if any. Callers
/// guarantee that every item has at most two allowed places, so that at most two orders
/// fit (checked for every pattern by a unit test).
fn fitting_order(pattern: usize, pick: u32) -> Option<[usize; 3]> {
    let [count, first, second] = FITTING[pattern];
    debug_assert!(count <= 2);
    let o = if pick == 0 { first } else { second };
    PERM3.get(usize::from(o)).copied()
}

/// The members of a digit mask, smallest first.
fn members(mut mask: u16) -> ArrayVec<u8, 9> {
    let mut out = ArrayVec::new();
    while mask != 0 {
        out.push(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
    out
}

/// The "3 × 3 orientations": three groups of three items, the items of group `e` each sent
/// to stack `e + 1` ("forward") or `e + 2` (mod 3), every stack receiving three. Stack `s`
/// receives `f(s-1)` forward items and `3 - f(s+1)` backward ones, so all groups send the
/// same number `a` forward: `Σ C(3,a)³ = 1 + 27 + 27 + 1 = 56` orientations. `index` in
/// `0..56` names one; the result holds, per group, the mask of its items sent forward.
fn orientation(index: u32) -> [u16; 3] {
    const ONE: [u16; 3] = [0b001, 0b010, 0b100];
    const TWO: [u16; 3] = [0b110, 0b101, 0b011];
    let i = index as usize;
    match index {
        0 => [0; 3],
        1..=27 => [ONE[(i - 1) % 3], ONE[(i - 1) / 3 % 3], ONE[(i - 1) / 9]],
        28..=54 => [TWO[(i - 28) % 3], TWO[(i - 28) / 3 % 3], TWO[(i - 28) / 9]],
        _ => [0b111; 3],
    }
}

/// For each stack, the digits the orientation `index` sends there: `groups[e]` is the
/// digit mask of group `e` (three digits); returns the two receiving masks per stack:
/// `(first, second)` where `first[s]` are the digits sent to stack `s` and `second[s]` the
/// digits of the other choice (each digit lands in `first` of one stack and `second` of
/// the other stack it may go to).
fn orient(groups: [u16; 3], index: u32) -> ([u16; 3], [u16; 3]) {
    let forward = orientation(index);
    let mut first = [0u16; 3];
    let mut second = [0u16; 3];
    for e in 0..3 {
        let (next, after) = ((e + 1) % 3, (e + 2) % 3);
        for (i, d) in three(groups[e]).into_iter().enumerate() {
            let bit = 1u16 << d;
            if forward[e] >> i & 1 == 1 {
                first[next] |= bit;
                second[after] |= bit;
            } else {
                first[after] |= bit;
                second[next] |= bit;
            }
        }
    }
    (first, second)
}

/// A 9×9 grid under construction (digits 0–8) with its column masks.
#[derive(Clone)]
struct Build9 {
    cells: [u8; 81],
    cols: [u16; 9],
}

/// The number of draws of each of the four 9×9 stages (see the module documentation).
const BAND1_CHOICES: u32 = 56 * 216 * 216;
const ROW4_CHOICES: u32 = 1680 * 8;
const ROWS56_CHOICES: u32 = 56 * 64;
const BAND3_CHOICES: u32 = 216 * 8;

impl Build9 {
    fn place(&mut self, r: usize, c: usize, d: u8) {
        self.cells[r * 9 + c] = d;
        self.cols[c] |= 1 << d;
    }

    /// The digit mask of row `r`'s segment in stack `s`.
    fn segment(&self, r: usize, s: usize) -> u16 {
        (0..3).fold(0, |m, j| m | 1 << self.cells[r * 9 + 3 * s + j])
    }

    /// Band 1 with row 1 = 0..8: `index` in `0..BAND1_CHOICES` names one of the
    /// 56·6³ second rows (an orientation of row 1's three segments, then an order inside
    /// each box) and one of the 6³ third rows (each box's three remaining digits in some
    /// order). Every index gives a different valid band, and every band arises.
    fn band1(index: u32) -> Build9 {
        let mut b = Build9 {
            cells: [0; 81],
            cols: [0; 9],
        };
        for c in 0..9 {
            b.place(0, c, c as u8);
        }
        let (row2, row3) = (index / 216, index % 216);
        let (orient_index, orders) = (row2 / 216, row2 % 216);
        let groups = [0b111, 0b111 << 3, 0b111 << 6];
        let (into, _) = orient(groups, orient_index);
        for s in 0..3 {
            let digits = three(into[s]);
            let order = PERM3[(orders / [1, 6, 36][s] % 6) as usize];
            for j in 0..3 {
                b.place(1, 3 * s + j, digits[order[j]]);
            }
        }
        for s in 0..3 {
            let digits = three(0x1ff & !(b.segment(0, s) | b.segment(1, s)));
            let order = PERM3[(row3 / [1, 6, 36][s] % 6) as usize];
            for j in 0..3 {
                b.place(2, 3 * s + j, digits[order[j]]);
            }
        }
        b
    }

    /// Places `digits` (three, smallest first) in row `r`, stack `s`, in the `pick`-th
    /// (0 or 1) of the orders compatible with the columns; false when there is no such
    /// order. Callers guarantee that each digit is already in one of the three columns, so
    /// that at most two orders fit.
    fn place_in_box(&mut self, r: usize, s: usize, digits: [u8; 3], pick: u32) -> bool {
        let free = [
            !self.cols[3 * s],
            !self.cols[3 * s + 1],
            !self.cols[3 * s + 2],
        ];
        let mut pattern = 0;
        for (k, &d) in digits.iter().enumerate() {
            for (j, f) in free.iter().enumerate() {
                pattern |= usize::from(f >> d & 1) << (3 * k + j);
            }
        }
        let Some(order) = fitting_order(pattern, pick) else {
            return false;
        };
        for k in 0..3 {
            self.place(r, 3 * s + order[k], digits[k]);
        }
        true
    }

    /// Row 4: `index / 8` in `0..1680` splits the nine digits into the three stacks (three
    /// each), then bit `s` of `index % 8` picks the order inside box `s` (each digit is
    /// already in one column of the stack's band-1 box: at most two orders fit).
    fn row4(&mut self, index: u32) -> bool {
        let (split, picks) = (index / 8, index % 8);
        let first = THREE_OF_NINE[(split / 20) as usize];
        let mut rest = 0x1ff & !first;
        let mut chosen = THREE_OF_SIX[(split % 20) as usize];
        let mut second = 0u16;
        while rest != 0 {
            let low = rest & rest.wrapping_neg();
            if chosen & 1 == 1 {
                second |= low;
            }
            chosen >>= 1;
            rest ^= low;
        }
        let stacks = [first, second, 0x1ff & !(first | second)];
        (0..3).all(|s| self.place_in_box(3, s, three(stacks[s]), picks >> s & 1))
    }

    /// Rows 5 and 6: a digit in row 4's segment of stack `e` goes to row 5 in one of the
    /// two other stacks and to row 6 in the other: an orientation (`index / 64` in
    /// `0..56`); then six bits of `index % 64` pick the orders inside the six box rows
    /// (again at most two fit each).
    fn rows56(&mut self, index: u32) -> bool {
        let (orient_index, picks) = (index / 64, index % 64);
        let groups = [self.segment(3, 0), self.segment(3, 1), self.segment(3, 2)];
        let (row5, row6) = orient(groups, orient_index);
        (0..3).all(|s| self.place_in_box(4, s, three(row5[s]), picks >> s & 1))
            && (0..3).all(|s| self.place_in_box(5, s, three(row6[s]), picks >> (s + 3) & 1))
    }

    /// Band 3: each column misses three digits, and in every stack these sets split the
    /// nine digits. `index / 8` in `0..216` orders the missing digits down the columns of
    /// stack 1; in stack 2 a digit must avoid its stack-1 row (at most two orders per
    /// column fit: bit `c` of `index % 8` picks one); in stack 3 it takes the row left,
    /// which must give each column its three digits in different rows.
    fn band3(&mut self, index: u32) -> bool {
        let (orders, picks) = (index / 8, index % 8);
        let mut row_of = [[0u8; 9]; 2];
        for s in 0..2 {
            for j in 0..3 {
                let c = 3 * s + j;
                let digits = three(0x1ff & !self.cols[c]);
                let order = if s == 0 {
                    PERM3[(orders / [1, 6, 36][j] % 6) as usize]
                } else {
                    // Each digit may take the two rows other than its row in stack 1.
                    let mut pattern = 0x1ff;
                    for (k, &d) in digits.iter().enumerate() {
                        pattern ^= 1 << (3 * k + usize::from(row_of[0][usize::from(d)]));
                    }
                    match fitting_order(pattern, picks >> j & 1) {
                        Some(order) => order,
                        None => return false,
                    }
                };
                for k in 0..3 {
                    row_of[s][usize::from(digits[k])] = order[k] as u8;
                    self.place(6 + order[k], c, digits[k]);
                }
            }
        }
        let mut placed = [[0u8; 3]; 3];
        for (j, column) in placed.iter_mut().enumerate() {
            let digits = three(0x1ff & !self.cols[6 + j]);
            let mut rows = 0u8;
            for &d in &digits {
                let r = 3 - row_of[0][usize::from(d)] - row_of[1][usize::from(d)];
                rows |= 1 << r;
                column[usize::from(r)] = d;
            }
            if rows != 0b111 {
                return false;
            }
        }
        for (j, column) in placed.iter().enumerate() {
            for (r, &d) in column.iter().enumerate() {
                self.place(6 + r, 6 + j, d);
            }
        }
        true
    }
}

/// One attempt of the 9×9 sampler: `None` when rejected.
fn attempt9(rng: &mut (impl Rng + ?Sized)) -> Option<Build9> {
    let mut b = Build9::band1(below(rng, BAND1_CHOICES));
    if !b.row4(below(rng, ROW4_CHOICES)) || !b.rows56(below(rng, ROWS56_CHOICES)) {
        return None;
    }
    b.band3(below(rng, BAND3_CHOICES)).then_some(b)
}

/// The orders of a box row of 2 or 3 cells (only the first `width` entries count).
fn box_orders(width: usize) -> &'static [[usize; 3]] {
    const PERM2: [[usize; 3]; 2] = [[0, 1, 2], [1, 0, 2]];
    if width == 2 { &PERM2 } else { &PERM3 }
}

/// A 4×4 or 6×6 grid under construction (boxes of two rows, two stacks; digits from 0).
struct BuildSmall {
    n: usize,
    width: usize,
    cells: [u8; 36],
    cols: [u16; 6],
}

impl BuildSmall {
    fn place(&mut self, r: usize, c: usize, d: u8) {
        self.cells[r * self.n + c] = d;
        self.cols[c] |= 1 << d;
    }

    fn segment(&self, r: usize, s: usize) -> u16 {
        (0..self.width).fold(0, |m, j| {
            m | 1 << self.cells[r * self.n + self.width * s + j]
        })
    }

    /// Places `digits` (smallest first) in row `r`, stack `s`, in the `pick`-th order
    /// compatible with the columns (each digit is already in one of the stack's columns
    /// from an earlier band, so at most two orders fit).
    fn place_in_box(&mut self, r: usize, s: usize, digits: &[u8], pick: u32) -> bool {
        let w = self.width;
        let fitting = box_orders(w)
            .iter()
            .filter(|o| (0..w).all(|j| self.cols[w * s + j] >> digits[o[j]] & 1 == 0))
            .nth(pick as usize);
        let Some(order) = fitting else { return false };
        for j in 0..w {
            self.place(r, w * s + j, digits[order[j]]);
        }
        true
    }
}

/// One attempt of the 4×4 / 6×6 sampler (`width` = box columns, 2 or 3): `None` when
/// rejected. Row 1 is `0..n`; row 2 puts stack 2's digits of row 1 in stack 1 and the
/// other way round, each in one of `width!` orders; a middle band (6×6) splits the digits
/// between the stacks for its first row (C(6,3) = 20 ways), then at most two orders fit
/// each box row (a bit each); the last band orders each column's two missing digits in
/// stack 1 (a bit per column) and must then fit stack 2, where every digit takes the
/// other row. Every draw has the same probability and gives at most one valid grid;
/// every valid grid with row 1 = `0..n` comes from exactly one draw.
fn attempt_small(width: usize, draw: &mut impl FnMut(u32) -> u32) -> Option<BuildSmall> {
    let n = 2 * width;
    let mut b = BuildSmall {
        n,
        width,
        cells: [0; 36],
        cols: [0; 6],
    };
    let all: u16 = (1 << n) - 1;
    let orders = box_orders(width);
    for c in 0..n {
        b.place(0, c, c as u8);
    }
    let k = orders.len() as u32;
    let row2 = draw(k * k);
    for s in 0..2 {
        let digits = members(b.segment(0, 1 - s));
        let order = orders[(row2 / [1, k][s] % k) as usize];
        for j in 0..width {
            b.place(1, width * s + j, digits[order[j]]);
        }
    }
    if width == 3 {
        let middle = draw(20 * 16);
        let (split, picks) = (middle / 16, middle % 16);
        let first = THREE_OF_SIX[split as usize];
        let stacks = [first, all & !first];
        for (s, &digits) in stacks.iter().enumerate() {
            if !b.place_in_box(2, s, &members(digits), picks >> s & 1) {
                return None;
            }
        }
        for s in 0..2 {
            let rest = all & !b.segment(2, s);
            if !b.place_in_box(3, s, &members(rest), picks >> (s + 2) & 1) {
                return None;
            }
        }
    }
    let (top, picks) = (n - 2, draw(1 << width));
    let mut row_of = [0usize; 6];
    for j in 0..width {
        let digits = members(all & !b.cols[j]);
        let flip = (picks >> j & 1) as usize;
        for (k, &d) in digits.iter().enumerate() {
            row_of[usize::from(d)] = k ^ flip;
            b.place(top + (k ^ flip), j, d);
        }
    }
    for j in width..n {
        let digits = members(all & !b.cols[j]);
        if row_of[usize::from(digits[0])] == row_of[usize::from(digits[1])] {
            return None;
        }
        for &d in &digits {
            b.place(top + 1 - row_of[usize::from(d)], j, d);
        }
    }
    Some(b)
}

/// An exactly uniform solved grid of 4×4, 6×6 or 9×9: an attempt is repeated until
/// accepted, then the digits are relabelled by a uniformly random permutation.
fn uniform_grid(size: Size, rng: &mut (impl Rng + ?Sized)) -> Grid {
    let n = size.side();
    let cells: ArrayVec<u8, 81> = loop {
        let found: Option<ArrayVec<u8, 81>> = match size {
            Size::Nine => attempt9(rng).map(|b| b.cells.into_iter().collect()),
            _ => attempt_small(size.box_cols(), &mut |k| below(rng, k))
                .map(|b| b.cells[..n * n].iter().copied().collect()),
        };
        if let Some(cells) = found {
            break cells;
        }
    };
    let mut label: ArrayVec<u8, 9> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        label.swap(i, j);
    }
    let cells: ArrayVec<u8, 81> = cells.iter().map(|&d| label[usize::from(d)]).collect();
    Grid::from_cells(size, &cells).expect("symbols in range")
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
/// a random order as the options say.
pub fn puzzle_from(
    solution: &Grid,
    options: &GenerateOptions,
    rng: &mut (impl Rng + ?Sized),
) -> Grid {
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
    Grid::from_cells(size, &puzzle).expect("symbols in range")
}

/// A proper puzzle generated as the options say, from a [`solved_grid`] (exactly uniform up
/// to 9×9; the puzzle itself is not uniform among puzzles: givens are removed in a random
/// order until none more can go).
pub fn puzzle(options: &GenerateOptions, rng: &mut (impl Rng + ?Sized)) -> Grid {
    let mut best: Option<Grid> = None;
    for _ in 0..options.attempts.max(1) {
        let solution = solved_grid(options.size, rng);
        let p = puzzle_from(&solution, options, rng);
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

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    /// Whether a 9×9 grid (digits 0–8, 0xff = empty) breaks no rule among its filled cells.
    fn consistent(cells: &[u8; 81]) -> bool {
        (0..81).all(|i| {
            let (r, c) = (i / 9, i % 9);
            cells[i] == 0xff
                || (0..81).all(|k| {
                    let (r2, c2) = (k / 9, k % 9);
                    let peer =
                        k != i && (r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3));
                    !peer || cells[k] != cells[i]
                })
        })
    }

    /// The number of ways to fill rows `from..to` of `cells` (rows above are filled):
    /// plain backtracking, cell by cell.
    fn count_fills(cells: &mut [u8; 81], from: usize, to: usize) -> u64 {
        fn go(cells: &mut [u8; 81], i: usize, end: usize) -> u64 {
            if i == end {
                return 1;
            }
            let (r, c) = (i / 9, i % 9);
            let mut total = 0;
            for d in 0..9u8 {
                let clash = (0..i).any(|k| {
                    let (r2, c2) = (k / 9, k % 9);
                    cells[k] == d && (r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3))
                });
                if !clash {
                    cells[i] = d;
                    total += go(cells, i + 1, end);
                    cells[i] = 0xff;
                }
            }
            total
        }
        go(cells, from * 9, to * 9)
    }

    fn with_rows(b: &Build9, rows: usize) -> [u8; 81] {
        let mut cells = [0xff; 81];
        cells[..rows * 9].copy_from_slice(&b.cells[..rows * 9]);
        cells
    }

    #[test]
    fn at_most_two_orders_fit_when_each_item_has_two_places() {
        for (pattern, &[count, first, second]) in FITTING.iter().enumerate() {
            let allowed = [pattern & 7, pattern >> 3 & 7, pattern >> 6 & 7];
            let fitting: Vec<usize> = (0..6)
                .filter(|&o| (0..3).all(|k| allowed[k] >> PERM3[o][k] & 1 == 1))
                .collect();
            assert_eq!(usize::from(count), fitting.len());
            assert_eq!(
                fitting.first().map(|&o| o as u8),
                Some(first).filter(|&o| o != 0xff)
            );
            assert_eq!(
                fitting.get(1).map(|&o| o as u8),
                Some(second).filter(|&o| o != 0xff)
            );
            if allowed.iter().all(|a| a.count_ones() <= 2) {
                assert!(fitting.len() <= 2, "{allowed:?}");
            }
        }
    }

    #[test]
    fn band1_draws_are_every_band_once() {
        // Row 2: 56·6³ = 12,096 draws, all different and valid; that is every valid row 2
        // (counted by backtracking). Row 3: 216 draws, all different and valid.
        let row2s: HashSet<[u8; 9]> = (0..12096)
            .map(|i| {
                let b = Build9::band1(i * 216);
                assert!(consistent(&with_rows(&b, 3)));
                b.cells[9..18].try_into().unwrap()
            })
            .collect();
        assert_eq!(row2s.len(), 12096);
        let b = Build9::band1(0);
        assert_eq!(count_fills(&mut with_rows(&b, 1), 1, 2), 12096);
        let row3s: HashSet<[u8; 9]> = (0..216)
            .map(|i| {
                Build9::band1(5000 * 216 + i).cells[18..27]
                    .try_into()
                    .unwrap()
            })
            .collect();
        assert_eq!(row3s.len(), 216);
        assert_eq!(
            count_fills(&mut with_rows(&Build9::band1(5000 * 216), 2), 2, 3),
            216
        );
    }

    /// Every accepted draw of a stage gives a different valid continuation, and there are
    /// as many as backtracking finds: each continuation comes from exactly one draw.
    fn check_stage(
        b: &Build9,
        rows: usize,
        to: usize,
        choices: u32,
        stage: fn(&mut Build9, u32) -> bool,
    ) -> Vec<Build9> {
        let mut seen = HashSet::new();
        let mut accepted = Vec::new();
        for i in 0..choices {
            let mut next = b.clone();
            if stage(&mut next, i) {
                let cells = with_rows(&next, to);
                assert!(consistent(&cells));
                assert!(
                    seen.insert(cells[rows * 9..to * 9].to_vec()),
                    "draw {i} repeats"
                );
                accepted.push(next);
            }
        }
        assert_eq!(
            accepted.len() as u64,
            count_fills(&mut with_rows(b, rows), rows, to)
        );
        accepted
    }

    #[test]
    fn later_stages_draw_every_continuation_once() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..8 {
            let band1 = Build9::band1(below(&mut rng, BAND1_CHOICES));
            let fours = check_stage(&band1, 3, 4, ROW4_CHOICES, Build9::row4);
            let four = &fours[below(&mut rng, fours.len() as u32) as usize];
            let sixes = check_stage(four, 4, 6, ROWS56_CHOICES, Build9::rows56);
            if sixes.is_empty() {
                continue;
            }
            let six = &sixes[below(&mut rng, sixes.len() as u32) as usize];
            let full = check_stage(six, 6, 9, BAND3_CHOICES, Build9::band3);
            assert!(full.len() <= 1728);
        }
    }

    #[test]
    fn acceptance_rates_match_the_number_of_grids() {
        // Each draw is accepted with probability (grids with row 1 fixed) / (draws).
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let attempts = 200_000u32;
        let accepted = (0..attempts)
            .filter(|_| attempt9(&mut rng).is_some())
            .count() as f64;
        let draws = f64::from(BAND1_CHOICES)
            * f64::from(ROW4_CHOICES)
            * f64::from(ROWS56_CHOICES)
            * f64::from(BAND3_CHOICES);
        let p = 18_383_222_420_692_992.0 / draws;
        let sd = (p * (1.0 - p) / f64::from(attempts)).sqrt();
        let rate = accepted / f64::from(attempts);
        assert!((rate - p).abs() < 4.0 * sd, "rate {rate}, expected {p}");
        for (width, grids, draws) in [(2, 12.0, 16.0), (3, 39_168.0, 92_160.0)] {
            let attempts = 50_000u32;
            let accepted = (0..attempts)
                .filter(|_| attempt_small(width, &mut |k| below(&mut rng, k)).is_some())
                .count() as f64;
            let p: f64 = grids / draws;
            let sd = (p * (1.0 - p) / f64::from(attempts)).sqrt();
            let rate = accepted / f64::from(attempts);
            assert!(
                (rate - p).abs() < 4.0 * sd,
                "{width}: rate {rate}, expected {p}"
            );
        }
    }

    #[test]
    fn small_draws_are_every_grid_once() {
        // Enumerate every combination of draws (mixed radix) and keep the accepted grids.
        for (width, combos, grids) in [(2u32, 16u32, 12usize), (3, 36 * 320 * 8, 39_168)] {
            let mut found = HashSet::new();
            for code in 0..combos {
                let mut rest = code;
                let mut draw = |k: u32| {
                    let d = rest % k;
                    rest /= k;
                    d
                };
                if let Some(b) = attempt_small(width as usize, &mut draw) {
                    let n = b.n;
                    let cells: Vec<u8> = b.cells[..n * n].iter().map(|&d| d + 1).collect();
                    let grid =
                        Grid::from_cells(if n == 4 { Size::Four } else { Size::Six }, &cells)
                            .unwrap();
                    assert!(grid.is_full() && grid.is_consistent(), "{grid}");
                    assert!(found.insert(grid), "draw {code} repeats a grid");
                }
            }
            assert_eq!(found.len(), grids, "width {width}");
        }
    }

    /// The number of ways to refill the cells `blank` says of a 9×9 grid.
    fn refills(grid: &Grid, blank: impl Fn(usize, usize) -> bool) -> usize {
        let mut g = grid.clone();
        for r in 0..9 {
            for c in 0..9 {
                if blank(r, c) {
                    g.set(r, c, None);
                }
            }
        }
        g.count_solutions(5000)
    }

    /// Uniform grids have the same distribution as their transposes and as themselves with
    /// bands 1 and 3 swapped, so these three numbers have the same distribution: the refills
    /// of band 3, of band 1 and of stack 3. The row-by-row sampler treats them very
    /// differently. Returns the chi-squared homogeneity statistic of the three samples and
    /// its 0.1% critical value.
    fn band_symmetry_statistic(mut draw: impl FnMut() -> Grid, samples: usize) -> (f64, f64) {
        const EDGES: [usize; 10] = [120, 144, 156, 168, 180, 192, 216, 228, 276, 288];
        let bin = |k: usize| EDGES.iter().position(|&e| k <= e).unwrap_or(EDGES.len());
        let mut table = [[0f64; EDGES.len() + 1]; 3];
        for _ in 0..samples {
            let g = draw();
            table[0][bin(refills(&g, |r, _| r >= 6))] += 1.0;
            table[1][bin(refills(&g, |r, _| r < 3))] += 1.0;
            table[2][bin(refills(&g, |_, c| c >= 6))] += 1.0;
        }
        let mut stat = 0.0;
        let mut bins = 0.0;
        for k in 0..=EDGES.len() {
            let total: f64 = table.iter().map(|row| row[k]).sum();
            if total == 0.0 {
                continue;
            }
            bins += 1.0;
            for row in &table {
                let expected = total / 3.0;
                stat += (row[k] - expected).powi(2) / expected;
            }
        }
        let df: f64 = 2.0 * (bins - 1.0);
        let v = 2.0 / (9.0 * df);
        (stat, df * (1.0 - v + 3.090_232 * v.sqrt()).powi(3))
    }

    #[test]
    fn band_refills_are_symmetric_and_a_biased_sampler_breaks_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let (stat, critical) = band_symmetry_statistic(|| solved_grid(Size::Nine, &mut rng), 1500);
        std::eprintln!("exact: chi2 {stat:.1}, critical {critical:.1}");
        assert!(stat < critical, "exact sampler: {stat:.1} >= {critical:.1}");
        // The same draws, but band 3 drawn again until it fits instead of starting over:
        // bands 1–2 are then no longer weighted by their number of band-3 completions.
        let biased = |rng: &mut ChaCha8Rng| loop {
            let mut b = Build9::band1(below(rng, BAND1_CHOICES));
            if !b.row4(below(rng, ROW4_CHOICES)) || !b.rows56(below(rng, ROWS56_CHOICES)) {
                continue;
            }
            for _ in 0..100_000 {
                let mut full = b.clone();
                if full.band3(below(rng, BAND3_CHOICES)) {
                    let cells: Vec<u8> = full.cells.iter().map(|&d| d + 1).collect();
                    return Grid::from_cells(Size::Nine, &cells).unwrap();
                }
            }
        };
        let (stat, critical) = band_symmetry_statistic(|| biased(&mut rng), 1500);
        std::eprintln!("biased: chi2 {stat:.1}, critical {critical:.1}");
        assert!(
            stat > critical,
            "biased sampler: {stat:.1} <= {critical:.1}"
        );
    }
}
