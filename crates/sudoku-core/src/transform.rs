//! The validity-preserving transformations of a grid and a canonical form.
//!
//! A [`Transform`] relabels the symbols, permutes the bands (groups of box rows), the rows
//! inside every band, the stacks (groups of box columns) and the columns inside every stack,
//! and optionally transposes the grid (only when boxes are square). For 9×9 that is
//! 9!·6⁸·2 transformations. Each one maps puzzles to puzzles with the same number of
//! solutions, and solutions to solutions.

use alloc::vec::Vec;

use rand::Rng;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::grid::{Grid, Size};

/// Why the parts of a [`Transform`] do not make one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransformError {
    /// A list that should be a permutation of `0..len` is not.
    #[error("the {what} are not a permutation of 0..{len}")]
    NotAPermutation {
        /// Which list.
        what: &'static str,
        /// Its expected length.
        len: usize,
    },
    /// Transposition asked for a size with non-square boxes (6×6).
    #[error("a {0} grid cannot be transposed: its boxes are not square")]
    CannotTranspose(Size),
}

/// A validity-preserving transformation: `result[r][c] = digits[grid[rows[r]][cols[c]]]`,
/// then a transposition when asked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Transform {
    size: Size,
    /// New symbol of symbol `v` at index `v - 1`.
    digits: Vec<u8>,
    /// Source row of every row.
    rows: Vec<usize>,
    /// Source column of every column.
    cols: Vec<usize>,
    transpose: bool,
}

fn is_perm(p: &[usize], len: usize) -> bool {
    let mut seen = [false; 32];
    p.len() == len
        && p.iter().all(|&x| {
            let fresh = x < len && !seen[x];
            if fresh {
                seen[x] = true;
            }
            fresh
        })
}

fn check(p: &[usize], len: usize, what: &'static str) -> Result<(), TransformError> {
    if is_perm(p, len) {
        Ok(())
    } else {
        Err(TransformError::NotAPermutation { what, len })
    }
}

/// Builds a line map (rows or columns) from a group order and the order inside each group.
fn line_map(groups: &[usize], inner: &[Vec<usize>], width: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(groups.len() * width);
    for (g, &src_group) in groups.iter().enumerate() {
        for &k in &inner[g] {
            out.push(src_group * width + k);
        }
    }
    out
}

fn shuffled(len: usize, rng: &mut (impl Rng + ?Sized)) -> Vec<usize> {
    let mut v: Vec<usize> = (0..len).collect();
    for i in (1..len).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
    v
}

impl Transform {
    /// The identity of `size`.
    pub fn identity(size: Size) -> Transform {
        let n = size.side();
        Transform {
            size,
            digits: (1..=n as u8).collect(),
            rows: (0..n).collect(),
            cols: (0..n).collect(),
            transpose: false,
        }
    }

    /// A transformation from its parts (all 0-based permutations):
    /// `digits[v]` is the new index of symbol `v + 1`; `bands` the source band of each
    /// band, `rows_in_band[b][k]` the source row (inside the source band) of row `k` of band
    /// `b`; likewise `stacks` and `cols_in_stack`; `transpose` last.
    pub fn new(
        size: Size,
        digits: &[usize],
        bands: &[usize],
        rows_in_band: &[Vec<usize>],
        stacks: &[usize],
        cols_in_stack: &[Vec<usize>],
        transpose: bool,
    ) -> Result<Transform, TransformError> {
        let n = size.side();
        let (br, bc) = (size.box_rows(), size.box_cols());
        check(digits, n, "symbols")?;
        check(bands, n / br, "bands")?;
        check(stacks, n / bc, "stacks")?;
        if rows_in_band.len() != n / br {
            return Err(TransformError::NotAPermutation {
                what: "rows in the bands",
                len: br,
            });
        }
        for p in rows_in_band {
            check(p, br, "rows in the bands")?;
        }
        if cols_in_stack.len() != n / bc {
            return Err(TransformError::NotAPermutation {
                what: "columns in the stacks",
                len: bc,
            });
        }
        for p in cols_in_stack {
            check(p, bc, "columns in the stacks")?;
        }
        if transpose && br != bc {
            return Err(TransformError::CannotTranspose(size));
        }
        Ok(Transform {
            size,
            digits: digits.iter().map(|&d| d as u8 + 1).collect(),
            rows: line_map(bands, rows_in_band, br),
            cols: line_map(stacks, cols_in_stack, bc),
            transpose,
        })
    }

    /// A uniformly random transformation of `size`.
    pub fn random(size: Size, rng: &mut (impl Rng + ?Sized)) -> Transform {
        let n = size.side();
        let (br, bc) = (size.box_rows(), size.box_cols());
        let digits = shuffled(n, rng);
        let bands = shuffled(n / br, rng);
        let rows: Vec<Vec<usize>> = (0..n / br).map(|_| shuffled(br, rng)).collect();
        let stacks = shuffled(n / bc, rng);
        let cols: Vec<Vec<usize>> = (0..n / bc).map(|_| shuffled(bc, rng)).collect();
        let transpose = br == bc && rng.random::<bool>();
        Transform::new(size, &digits, &bands, &rows, &stacks, &cols, transpose)
            .expect("random parts are permutations")
    }

    /// The size this transformation applies to.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Applies the transformation, or returns `None` when the grid has another size.
    pub fn apply(&self, grid: &Grid) -> Option<Grid> {
        if grid.size() != self.size {
            return None;
        }
        let n = self.size.side();
        let src = grid.cells();
        let mut out = alloc::vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                let v = src[self.rows[r] * n + self.cols[c]];
                let v = if v == 0 {
                    0
                } else {
                    self.digits[usize::from(v - 1)]
                };
                let (tr, tc) = if self.transpose { (c, r) } else { (r, c) };
                out[tr * n + tc] = v;
            }
        }
        Some(Grid::from_cells(self.size, &out).expect("a permutation keeps values in range"))
    }
}

/// Every line map of a size: group orders × orders inside the groups.
fn all_line_maps(groups: usize, width: usize) -> Vec<Vec<usize>> {
    let group_perms = permutations(groups);
    let inner_perms = permutations(width);
    let mut out = Vec::new();
    for gp in &group_perms {
        let mut choice = alloc::vec![0usize; groups];
        loop {
            let inner: Vec<Vec<usize>> = choice.iter().map(|&k| inner_perms[k].clone()).collect();
            out.push(line_map(gp, &inner, width));
            // Next combination of inner permutations.
            let mut i = 0;
            loop {
                if i == groups {
                    break;
                }
                choice[i] += 1;
                if choice[i] < inner_perms.len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
            if i == groups {
                break;
            }
        }
    }
    out
}

fn permutations(len: usize) -> Vec<Vec<usize>> {
    if len == 0 {
        return alloc::vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(len - 1) {
        for pos in 0..=p.len() {
            let mut q = p.clone();
            q.insert(pos, len - 1);
            out.push(q);
        }
    }
    out
}

/// The canonical form of a grid: the smallest line (empty cells first, then symbols in
/// order) among all its transformations with symbols relabelled in order of first
/// appearance. Two grids have the same canonical form exactly when one transforms into
/// the other. Available for 4×4, 6×6 and 9×9 (`None` for larger sizes, whose groups are too
/// large to search); for 9×9 it searches 2·6⁸ geometric transformations with early
/// cut-offs, a few tens of milliseconds.
///
/// ```
/// use sudoku_core::{Grid, transform::{canonical_form, Transform}};
/// use rand::SeedableRng;
/// let g: Grid = "1.3.3.1.2.4.4.2.".parse().unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let t = Transform::random(g.size(), &mut rng).apply(&g).unwrap();
/// assert_eq!(canonical_form(&g), canonical_form(&t));
/// ```
pub fn canonical_form(grid: &Grid) -> Option<Grid> {
    let size = grid.size();
    if size.side() > 9 {
        return None;
    }
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    let row_maps = all_line_maps(n / br, br);
    let col_maps = all_line_maps(n / bc, bc);
    let src = grid.cells();
    let transposed: Vec<u8> = (0..n * n).map(|i| src[(i % n) * n + i / n]).collect();
    let mut best: Vec<u8> = alloc::vec![u8::MAX; n * n];
    let mut cand = alloc::vec![0u8; n * n];
    let sources: &[&[u8]] = if br == bc {
        &[src, &transposed]
    } else {
        &[src]
    };
    for s in sources {
        for rows in &row_maps {
            for cols in &col_maps {
                let mut label = [0u8; 26];
                let mut next = 1u8;
                let mut smaller = false;
                let mut worse = false;
                'cells: for (r, &sr) in rows.iter().enumerate() {
                    let line = &s[sr * n..sr * n + n];
                    for (c, &sc) in cols.iter().enumerate() {
                        let v = line[sc];
                        let m = if v == 0 {
                            0
                        } else {
                            let l = &mut label[usize::from(v)];
                            if *l == 0 {
                                *l = next;
                                next += 1;
                            }
                            *l
                        };
                        let k = r * n + c;
                        if !smaller {
                            if m > best[k] {
                                worse = true;
                                break 'cells;
                            }
                            if m < best[k] {
                                smaller = true;
                            }
                        }
                        cand[k] = m;
                    }
                }
                if !worse && smaller {
                    best.copy_from_slice(&cand);
                }
            }
        }
    }
    Some(Grid::from_cells(size, &best).expect("relabelled values stay in range"))
}
