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

mod canonical;
mod refine;

pub use canonical::{canonical_form, canonical_transform};
pub use refine::NODE_BUDGET;

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
///
/// Its serde form is checked on the way in: parts that do not make a validity-preserving
/// transformation of the size are an error, as with [`Transform::new`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "TransformParts")]
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

/// The fields of a [`Transform`] as serde reads them, before they are checked.
#[derive(Deserialize)]
struct TransformParts {
    size: Size,
    digits: Vec<u8>,
    rows: Vec<usize>,
    cols: Vec<usize>,
    transpose: bool,
}

/// Whether a line map (`rows` or `cols`) permutes the lines and keeps the lines of every
/// group of `width` (a band or a stack) together.
fn keeps_groups(map: &[usize], len: usize, width: usize) -> bool {
    is_perm(map, len)
        && map
            .chunks(width)
            .all(|group| group.iter().all(|&line| line / width == group[0] / width))
}

impl TryFrom<TransformParts> for Transform {
    type Error = TransformError;

    fn try_from(parts: TransformParts) -> Result<Transform, TransformError> {
        let TransformParts {
            size,
            digits,
            rows,
            cols,
            transpose,
        } = parts;
        let n = size.side();
        let (br, bc) = (size.box_rows(), size.box_cols());
        let indices: Vec<usize> = digits
            .iter()
            .map(|&d| usize::from(d).wrapping_sub(1))
            .collect();
        check(&indices, n, "symbols")?;
        if !keeps_groups(&rows, n, br) {
            return Err(TransformError::NotAPermutation {
                what: "rows, band by band,",
                len: n,
            });
        }
        if !keeps_groups(&cols, n, bc) {
            return Err(TransformError::NotAPermutation {
                what: "columns, stack by stack,",
                len: n,
            });
        }
        if transpose && br != bc {
            return Err(TransformError::CannotTranspose(size));
        }
        Ok(Transform {
            size,
            digits,
            rows,
            cols,
            transpose,
        })
    }
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
