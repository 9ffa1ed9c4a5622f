//! The validity-preserving transformations of a grid and a canonical form.
//!
//! A [`Transform`] relabels the symbols, permutes the bands (groups of box rows), the rows
//! inside every band, the stacks (groups of box columns) and the columns inside every stack,
//! and optionally transposes the grid (only when boxes are square). For 9×9 that is
//! 9!·6⁸·2 transformations. Each one maps puzzles to puzzles with the same number of
//! solutions, and solutions to solutions.

use alloc::vec::Vec;
use core::cmp::Ordering;

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

/// The canonical form of a grid: a transformation of it that is the same for every grid of
/// its class. Two grids have the same canonical form exactly when one transforms into the
/// other (a [`Transform`]: relabelling, band/stack/row/column permutations, transposition);
/// empty cells are allowed (puzzles), as are conflicting grids.
///
/// Returns `None` only when a 16×16 or 25×25 search runs out of its budget of
/// [`NODE_BUDGET`] nodes (see below); this does not happen on random solved grids, random
/// puzzles, or the very symmetric grids we tried (the empty grid, one given, the
/// cyclic-shift pattern grid). The transformation itself is [`canonical_transform`].
///
/// # 4×4, 6×6 and 9×9: the smallest line
///
/// The canonical form is the smallest line (empty cells first, then symbols in order)
/// among all transformations of the grid with symbols numbered in order of first
/// appearance. The search runs through all geometric transformations (2·6⁸ for 9×9) with
/// early cut-offs: a few tens of milliseconds for 9×9.
///
/// # 16×16 and 25×25: the smallest leaf of a canonical search tree
///
/// The groups are far too large to enumerate (2·4!¹⁰ geometric maps for 16×16), so the
/// definition is different: the grid is read as a structure with rows, columns, bands,
/// stacks and symbols as vertices (a row belongs to a band, a column to a stack, and each
/// filled cell relates its row, its column and its symbol). Transformations between two
/// grids are exactly the isomorphisms of their structures (transposition aside, see below).
/// The form is computed by individualisation and refinement, as in McKay's nauty:
///
/// - *refinement* splits the cells of an ordered partition of the vertices by vertex
///   invariants computed from the structure and the cells of the partition alone (a row's
///   band colour, the multiset of column/symbol colours of its filled cells and the
///   symbol colours of its mini-rows; likewise for columns, symbols, bands and stacks; and
///   for a symbol, how many mini-rows and mini-columns it shares with each other symbol,
///   which tells the symbols of a solved grid apart; and, only for grids these leave
///   unsplit at the root, for a row the cycle shapes of the maps between its symbols and
///   those of every other row, likewise for columns), in place, fragments ordered by the
///   invariant, until nothing splits;
/// - a node of the *search tree* individualises one vertex of a target cell, a row or
///   column cell chosen from the partition's shape alone, and refines; a *leaf* is a
///   node whose rows and columns are all singletons;
/// - a leaf's *certificate* is the grid read with bands (stacks) ordered by their first row
///   (column) in the leaf and lines inside them by position, symbols numbered by first
///   appearance: a transformation of the input;
/// - a node's *invariant* hashes its refined partition (cell lengths and invariants in
///   order); a leaf's *key* is the list of the invariants of the nodes on its path, root
///   first, then its certificate; keys compare lexicographically (a proper prefix first);
/// - the form of one tree is the certificate of its leaf with the smallest key, and the
///   canonical form is the smaller (as a line) of the forms of the trees of the grid and
///   of its transpose.
///
/// Why it is exact: every step uses only the structure and positions in the partition,
/// so a transformation `σ` of the grid maps the tree of `g` onto the tree of `σ(g)` (the
/// tree of its transpose if `σ` transposes), leaf to leaf, with equal keys. Both grids
/// therefore have the same keys and the same forms. Conversely a form is a transformation
/// of the grid, so equal forms mean equivalent grids.
///
/// The search does not visit every leaf, and what it skips cannot change the result.
/// A node whose invariants so far already make its path's key larger than the best leaf's
/// is abandoned: every leaf below it has a larger key.
/// When a leaf `λ` maps onto the first leaf or the best leaf so far by a map `γ` of
/// rows and columns that is an automorphism of the grid (checked: bands to bands,
/// stacks to stacks, a consistent bijection of the symbols, empty to empty), `γ` is kept.
/// Each individualised vertex stays alone at its position, so distinct leaves differ in the
/// row/column order, and `γ` maps `λ`'s path onto the other leaf's path node for node.
/// (1) The subtree that holds `λ` below the paths' last common node is then the image of
/// one already searched, with the same keys, so the search returns to that node.
/// (2) At a node with path `v₁…vᵢ`, a child is skipped when the automorphisms kept so far
/// that fix `v₁…vᵢ` map it to a child already searched, whose subtree has the same keys.
/// Invariants are hashed, which is safe: a hash is still a function of colours alone, and
/// certificates are compared in full, so a collision can only make the tree larger.
/// The automorphisms make very symmetric grids cheap: every one of the 2·4!¹⁰ maps fixes
/// the empty 16×16 grid, yet its tree has 440 nodes (1,139 for 25×25, the largest tree
/// met over 4,000 structured test grids: pattern grids and group tables with cells removed
/// by row, column and symbol classes). The line-pair invariants are for regular grids
/// with few automorphisms, such as product grids built from random Latin squares of order
/// 4 or 5: without them such grids took up to 3,151 nodes (one 25×25 grid 254 ms), with
/// them at most 39 nodes over 3,000 such grids. The budget ([`NODE_BUDGET`] nodes per orientation, a node
/// costing up to about 50 µs) is there so that no input can run away; at most 256
/// automorphisms are kept, and keeping fewer only prunes less.
///
/// Measured (release build, one thread, 2-core machine shared with other jobs, load about
/// 1.2), mean time per form: random solved grids (200 each) 42 µs for 16×16 and 93 µs
/// for 25×25; puzzles cut from them (35–60 % of the cells kept) 33–40 µs and 76–90 µs;
/// the empty grid 1.4 ms and 6.6 ms; one given 1.0 ms and 5.4 ms; the cyclic-shift
/// pattern grid 0.59 ms and 1.8 ms; the group tables of (Z/2)⁴ and (Z/5)² 1.0 ms and
/// 1.8 ms; product grids 0.36 ms and 0.62 ms.
///
/// The canonical forms of 16×16 and 25×25 grids are not the smallest line of their
/// classes, and this definition may change between versions of the crate.
///
/// ```
/// use sudoku_core::{Grid, transform::{canonical_form, Transform}};
/// use rand::SeedableRng;
/// let g: Grid = "1.3.3.1.2.4.4.2.".parse().unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let t = Transform::random(g.size(), &mut rng).apply(&g).unwrap();
/// assert_eq!(canonical_form(&g), canonical_form(&t));
///
/// // 16×16 works too, solved or not.
/// let big = sudoku_core::generate::solved_grid(sudoku_core::Size::Sixteen, &mut rng);
/// let moved = Transform::random(big.size(), &mut rng).apply(&big).unwrap();
/// assert_eq!(canonical_form(&big), canonical_form(&moved));
/// assert!(canonical_form(&big).is_some());
/// ```
pub fn canonical_form(grid: &Grid) -> Option<Grid> {
    canonical_transform(grid).map(|t| t.apply(grid).expect("same size"))
}

/// The transformation that maps `grid` onto its [`canonical_form`] (one of them when the
/// grid has symmetries), or `None` when the 16×16 / 25×25 search runs out of its budget.
///
/// ```
/// use sudoku_core::{Grid, transform::{canonical_form, canonical_transform}};
/// let g: Grid = "1.3.3.1.2.4.4.2.".parse().unwrap();
/// let t = canonical_transform(&g).unwrap();
/// assert_eq!(t.apply(&g), canonical_form(&g));
/// ```
pub fn canonical_transform(grid: &Grid) -> Option<Transform> {
    let size = grid.size();
    let n = size.side();
    if n <= 9 {
        return Some(small_canonical_transform(grid));
    }
    refined_canonical_transform(grid, NODE_BUDGET)
}

/// The search-tree canonical transformation (any size with square boxes).
fn refined_canonical_transform(grid: &Grid, budget: u64) -> Option<Transform> {
    let size = grid.size();
    let (n, k) = (size.side(), size.box_rows());
    debug_assert_eq!(k, size.box_cols());
    let src = grid.cells();
    let straight = Structure::new(n, k, src.to_vec());
    let transposed = Structure::new(n, k, (0..n * n).map(|i| src[(i % n) * n + i / n]).collect());
    let (a_cert, a_rows, a_cols) = search(&straight, budget)?;
    let (b_cert, b_rows, b_cols) = search(&transposed, budget)?;
    Some(if a_cert <= b_cert {
        relabelled(grid, a_rows, a_cols, false)
    } else {
        relabelled(grid, b_cols, b_rows, true)
    })
}

/// The lex-min search of 4×4, 6×6 and 9×9: the transformation giving the smallest line.
fn small_canonical_transform(grid: &Grid) -> Transform {
    let size = grid.size();
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    let row_maps = all_line_maps(n / br, br);
    let col_maps = all_line_maps(n / bc, bc);
    let src = grid.cells();
    let transposed: Vec<u8> = (0..n * n).map(|i| src[(i % n) * n + i / n]).collect();
    let mut best: Vec<u8> = alloc::vec![u8::MAX; n * n];
    let mut best_at = (0, 0, 0);
    let mut cand = alloc::vec![0u8; n * n];
    let sources: &[&[u8]] = if br == bc {
        &[src, &transposed]
    } else {
        &[src]
    };
    for (si, s) in sources.iter().enumerate() {
        for (ri, rows) in row_maps.iter().enumerate() {
            for (ci, cols) in col_maps.iter().enumerate() {
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
                    best_at = (si, ri, ci);
                }
            }
        }
    }
    let (si, ri, ci) = best_at;
    if si == 0 {
        relabelled(grid, row_maps[ri].clone(), col_maps[ci].clone(), false)
    } else {
        relabelled(grid, col_maps[ci].clone(), row_maps[ri].clone(), true)
    }
}

/// The transformation with these line maps whose symbols are numbered in order of first
/// appearance in the result (symbols absent from the grid take the remaining numbers in
/// increasing order).
fn relabelled(grid: &Grid, rows: Vec<usize>, cols: Vec<usize>, transpose: bool) -> Transform {
    let size = grid.size();
    let n = size.side();
    let mut t = Transform {
        size,
        digits: (1..=n as u8).collect(),
        rows,
        cols,
        transpose,
    };
    let image = t.apply(grid).expect("same size");
    let mut label = [0u8; 26];
    let mut next = 1u8;
    for &v in image.cells() {
        if v != 0 && label[usize::from(v)] == 0 {
            label[usize::from(v)] = next;
            next += 1;
        }
    }
    for l in label.iter_mut().skip(1).take(n) {
        if *l == 0 {
            *l = next;
            next += 1;
        }
    }
    t.digits = label[1..=n].to_vec();
    t
}

// ---------------------------------------------------------------------------------------
// Canonical labelling of 16×16 and 25×25 grids by individualisation and refinement.
// ---------------------------------------------------------------------------------------

/// The 16×16 / 25×25 search gives up (and [`canonical_transform`] returns `None`) after
/// this many nodes of one orientation's search tree.
pub const NODE_BUDGET: u64 = 100_000;

/// At most this many automorphisms are kept for pruning (keeping fewer only prunes less).
const MAX_AUTOMORPHISMS: usize = 256;

const NO_SYMBOL: u8 = 0;

/// A 64-bit mixer (the splitmix64 finaliser) of a tag and two colours.
#[inline]
fn mix(tag: u64, a: u8, b: u8) -> u64 {
    let mut x = tag
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(a) << 32 | u64::from(b));
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The grid as a coloured structure: vertices are the `n` rows (`0..n`), the `n` columns
/// (`n..2n`), the `n` symbols (`2n..3n`), the `k` bands and the `k` stacks.
struct Structure {
    n: usize,
    k: usize,
    cells: Vec<u8>,
    /// Per symbol, the hashed multiset over the other symbols of (how many mini-rows hold
    /// both, how many mini-columns hold both): a fixed invariant that splits the symbols of
    /// a solved grid, which vertex colours alone cannot.
    pairs: Vec<u64>,
    /// For grids that the other invariants leave unsplit at the root: for each ordered pair
    /// of rows (then of columns), a hash of the shape of the partial map between their
    /// symbols through the shared columns (rows), `n·n` values per kind.
    line_pairs: Option<Vec<u64>>,
    /// The root partition refined without the line-pair invariants: where the search starts.
    start: Partition,
}

/// An ordered partition of the vertices: `lab` lists the vertices cell after cell, `color[v]`
/// is the first position of the cell of `v`, `len[p]` the length of the cell starting at `p`.
#[derive(Clone)]
struct Partition {
    lab: Vec<u8>,
    color: Vec<u8>,
    len: Vec<u8>,
}

impl Structure {
    fn vertices(&self) -> usize {
        3 * self.n + 2 * self.k
    }

    fn band(&self, row: usize) -> usize {
        3 * self.n + row / self.k
    }

    fn stack(&self, col: usize) -> usize {
        3 * self.n + self.k + col / self.k
    }

    /// The root: rows, columns, symbols, bands, stacks, one cell each, in that order.
    fn root(&self) -> Partition {
        let v = self.vertices();
        let (n, k) = (self.n, self.k);
        let mut p = Partition {
            lab: (0..v as u8).collect(),
            color: alloc::vec![0; v],
            len: alloc::vec![0; v],
        };
        for (start, len) in [(0, n), (n, n), (2 * n, n), (3 * n, k), (3 * n + k, k)] {
            p.len[start] = len as u8;
            for x in start..start + len {
                p.color[x] = start as u8;
            }
        }
        p
    }

    /// The structure of a grid of side `n` with `k`×`k` boxes, and its fixed invariants.
    fn new(n: usize, k: usize, cells: Vec<u8>) -> Structure {
        let mut together = alloc::vec![[0u8; 2]; 26 * 26];
        let mut seg = [0u8; 5];
        for line in 0..n {
            for part in 0..k {
                for (kind, cell) in [(0, line * n + part * k), (1, part * k * n + line)] {
                    let step = if kind == 0 { 1 } else { n };
                    let mut len = 0;
                    for i in 0..k {
                        let v = cells[cell + i * step];
                        if v != NO_SYMBOL {
                            seg[len] = v;
                            len += 1;
                        }
                    }
                    for &a in &seg[..len] {
                        for &b in &seg[..len] {
                            let t = &mut together[usize::from(a) * 26 + usize::from(b)][kind];
                            *t = t.saturating_add(1);
                        }
                    }
                }
            }
        }
        let pairs = (1..=n)
            .map(|a| {
                (1..=n)
                    .filter(|&b| b != a)
                    .map(|b| {
                        let [r, c] = together[a * 26 + b];
                        mix(8, r, c)
                    })
                    .fold(0u64, u64::wrapping_add)
            })
            .collect();
        let mut st = Structure {
            n,
            k,
            cells,
            pairs,
            line_pairs: None,
            start: Partition {
                lab: Vec::new(),
                color: Vec::new(),
                len: Vec::new(),
            },
        };
        // The line-pair invariants cost n³ to set up; they are used exactly when the
        // other invariants cannot tell the rows and columns apart at the root and the
        // line pairs are not all alike (properties of the structure, so the refinement
        // stays a function of the structure).
        let mut start = st.root();
        let mut h = alloc::vec![0; st.vertices()];
        st.refine(&mut start, &mut h);
        if st.target(&start).is_some() {
            let lp = st.line_pair_invariants();
            let informative = (0..2).any(|kind| {
                let first = lp[kind * n * n + 1];
                (0..n * n)
                    .filter(|i| i / n != i % n)
                    .any(|i| lp[kind * n * n + i] != first)
            });
            if informative {
                st.line_pairs = Some(lp);
            }
        }
        st.start = start;
        st
    }

    /// See [`Structure::line_pairs`]: for lines `a` and `b` of one kind, the map sends the
    /// symbol of `a` in each cross line where both are filled to the symbol of `b` there.
    /// When either line repeats a symbol in those cross lines the value is a constant;
    /// otherwise the map is a partial injection and the hash is the multiset of its cycle
    /// and path lengths (each symbol counted with its cycle's length or its distance to
    /// the end of its path).
    fn line_pair_invariants(&self) -> Vec<u64> {
        let n = self.n;
        let mut out = alloc::vec![0u64; 2 * n * n];
        let at = |kind: usize, line: usize, cross: usize| {
            if kind == 0 {
                self.cells[line * n + cross]
            } else {
                self.cells[cross * n + line]
            }
        };
        let mut next = [0u8; 26];
        let mut state = [0u8; 26];
        let mut depth = [0u8; 26];
        for kind in 0..2 {
            for a in 0..n {
                for b in 0..n {
                    if a == b {
                        continue;
                    }
                    next.fill(0);
                    let mut has = [false; 26];
                    let mut repeated = false;
                    for cross in 0..n {
                        let (x, y) = (at(kind, a, cross), at(kind, b, cross));
                        if x != NO_SYMBOL && y != NO_SYMBOL {
                            if next[usize::from(x)] != 0 || has[usize::from(y)] {
                                repeated = true;
                                break;
                            }
                            next[usize::from(x)] = y;
                            has[usize::from(y)] = true;
                        }
                    }
                    let value = if repeated {
                        mix(30, 0, 0)
                    } else {
                        // state: 0 unseen, 1 on the current walk, 2 done.
                        state.fill(0);
                        depth.fill(0);
                        let mut total = 0u64;
                        for start in 1..=n {
                            if next[start] == 0 || state[start] != 0 {
                                continue;
                            }
                            // Walk until a done symbol, the end of a path or the walk itself.
                            let mut walk: Vec<u8> = Vec::new();
                            let mut v = start as u8;
                            while v != 0 && state[usize::from(v)] == 0 {
                                state[usize::from(v)] = 1;
                                walk.push(v);
                                v = next[usize::from(v)];
                            }
                            let mut tail = walk.len();
                            if v != 0 && state[usize::from(v)] == 1 {
                                // A new cycle: the walk from the first visit of `v` on.
                                let from = walk.iter().position(|&w| w == v).expect("on walk");
                                let len = (walk.len() - from) as u8;
                                for &w in &walk[from..] {
                                    depth[usize::from(w)] = len;
                                    total = total.wrapping_add(mix(31, len, 0));
                                }
                                tail = from;
                                // Symbols leading into a cycle cannot exist in an injection.
                            }
                            // Path symbols: their distance to the end of the path.
                            let mut d = if v == 0 { 0 } else { depth[usize::from(v)] };
                            for &w in walk[..tail].iter().rev() {
                                d = d.saturating_add(1);
                                depth[usize::from(w)] = d;
                                total = total.wrapping_add(mix(32, d, 0));
                            }
                            for &w in &walk {
                                state[usize::from(w)] = 2;
                            }
                        }
                        total
                    };
                    out[kind * n * n + a * n + b] = value;
                }
            }
        }
        out
    }

    /// Vertex invariants from the current colours, hashed so that the value depends on
    /// colours only (never on vertex names); multisets are wrapping sums of mixed elements.
    /// A row gets its band's colour, the multiset of (column colour, symbol colour) over its
    /// filled cells, and the multiset over stacks of (stack colour, multiset of the symbol
    /// colours of the mini-row); likewise a column with bands and mini-columns. A symbol gets
    /// [`Structure::pairs`], the multiset of (row colour, column colour) of its cells and,
    /// for each of its cells, the contents of the cell's mini-row and mini-column with their
    /// line and group colours. A band or stack gets the multiset of its lines' colours.
    /// With [`Structure::line_pairs`], a row also gets the multiset over the other rows of
    /// (their colour, the pair's value); likewise a column.
    fn invariants(&self, p: &Partition, h: &mut [u64]) {
        let (n, k) = (self.n, self.k);
        let col = &p.color;
        h.fill(0);
        for (s, &x) in self.pairs.iter().enumerate() {
            h[2 * n + s] = x;
        }
        for r in 0..n {
            let cr = col[r];
            let line = &self.cells[r * n..r * n + n];
            for (c, &v) in line.iter().enumerate() {
                if v == NO_SYMBOL {
                    continue;
                }
                let s = 2 * n + usize::from(v) - 1;
                let (cc, cs) = (col[n + c], col[s]);
                h[r] = h[r].wrapping_add(mix(1, cc, cs));
                h[n + c] = h[n + c].wrapping_add(mix(2, cr, cs));
                h[s] = h[s].wrapping_add(mix(3, cr, cc));
            }
        }
        for line in 0..n {
            let (b, s) = (self.band(line), self.stack(line));
            h[line] = h[line].wrapping_add(mix(4, col[b], 0));
            h[b] = h[b].wrapping_add(mix(5, col[line], 0));
            h[n + line] = h[n + line].wrapping_add(mix(6, col[s], 0));
            h[s] = h[s].wrapping_add(mix(7, col[n + line], 0));
        }
        if let Some(lp) = &self.line_pairs {
            for kind in 0..2 {
                for a in 0..n {
                    let vertex = kind * n + a;
                    for b in 0..n {
                        if a != b {
                            let x = lp[kind * n * n + a * n + b];
                            h[vertex] = h[vertex].wrapping_add(mix(x, col[kind * n + b], 40));
                        }
                    }
                }
            }
        }
        // Mini-rows (kind 0: row `line`, stack `part`) and mini-columns (kind 1).
        for line in 0..n {
            for part in 0..k {
                for kind in 0..2u64 {
                    let (start, step, group, vertex) = if kind == 0 {
                        (line * n + part * k, 1, self.stack(part * k), line)
                    } else {
                        (part * k * n + line, n, self.band(part * k), n + line)
                    };
                    let mut contents = 0u64;
                    for i in 0..k {
                        let v = self.cells[start + i * step];
                        if v != NO_SYMBOL {
                            let s = 2 * n + usize::from(v) - 1;
                            contents = contents.wrapping_add(mix(9 + kind, col[s], 0));
                        }
                    }
                    if contents == 0 {
                        continue;
                    }
                    let with_group = contents ^ mix(11 + kind, col[group], 0);
                    h[vertex] = h[vertex].wrapping_add(mix(13 + kind, 0, 0) ^ with_group);
                    let seen = mix(15 + kind, col[vertex], col[group]) ^ contents;
                    for i in 0..k {
                        let v = self.cells[start + i * step];
                        if v != NO_SYMBOL {
                            let s = 2 * n + usize::from(v) - 1;
                            h[s] = h[s].wrapping_add(mix(17 + kind, 0, 0) ^ seen);
                        }
                    }
                }
            }
        }
    }

    /// Splits every cell by the invariants (fragments in increasing invariant order, in
    /// place) until nothing splits.
    fn refine(&self, p: &mut Partition, h: &mut [u64]) {
        let v = self.vertices();
        loop {
            self.invariants(p, h);
            let mut split = false;
            let mut start = 0;
            while start < v {
                let len = usize::from(p.len[start]);
                if len > 1 {
                    let cell = &mut p.lab[start..start + len];
                    cell.sort_unstable_by_key(|&x| h[usize::from(x)]);
                    let mut from = start;
                    for i in start + 1..=start + len {
                        let end = i == start + len;
                        if end || h[usize::from(p.lab[i])] != h[usize::from(p.lab[i - 1])] {
                            p.len[from] = (i - from) as u8;
                            for j in from..i {
                                p.color[usize::from(p.lab[j])] = from as u8;
                            }
                            split |= !end;
                            from = i;
                        }
                    }
                }
                start += len;
            }
            if !split {
                return;
            }
        }
    }

    /// A hash of a refined partition: its cells' lengths and invariants in order. It
    /// depends on positions and colours only, like everything else.
    fn node_invariant(&self, p: &Partition, h: &[u64]) -> u64 {
        let mut x = 0u64;
        let mut at = 0;
        while at < self.vertices() {
            let len = usize::from(p.len[at]);
            x = mix(x ^ h[usize::from(p.lab[at])], len as u8, 0);
            at += len;
        }
        x
    }

    /// The child partition: `x` alone in front of the rest of its cell.
    fn individualise(p: &Partition, x: u8) -> Partition {
        let mut q = p.clone();
        let start = usize::from(p.color[usize::from(x)]);
        let len = usize::from(p.len[start]);
        let at = q.lab[start..start + len]
            .iter()
            .position(|&y| y == x)
            .expect("x is in its cell");
        q.lab.swap(start, start + at);
        q.len[start] = 1;
        q.len[start + 1] = (len - 1) as u8;
        for j in start + 1..start + len {
            q.color[usize::from(q.lab[j])] = (start + 1) as u8;
        }
        q
    }

    /// The cell to individualise from (its first position), chosen from the shape alone:
    /// a column cell when fewer columns than rows are singled out, else a row cell; the
    /// first non-singleton one of that kind (or of the other kind when there is none).
    /// `None` when rows and columns are all singletons: a leaf.
    fn target(&self, p: &Partition) -> Option<usize> {
        let n = self.n;
        let first = |range: core::ops::Range<usize>| {
            let mut at = range.start;
            let mut singles = 0;
            let mut found = None;
            while at < range.end {
                let len = usize::from(p.len[at]);
                if len == 1 {
                    singles += 1;
                } else if found.is_none() {
                    found = Some(at);
                }
                at += len;
            }
            (found, singles)
        };
        let (row_cell, row_singles) = first(0..n);
        let (col_cell, col_singles) = first(n..2 * n);
        if col_singles < row_singles {
            col_cell.or(row_cell)
        } else {
            row_cell.or(col_cell)
        }
    }

    /// The band-respecting orders of a leaf: bands (stacks) by the first position of one of
    /// their rows (columns), rows (columns) inside them by position.
    fn orders(&self, lab: &[u8]) -> (Vec<usize>, Vec<usize>) {
        let n = self.n;
        let k = self.k;
        let order = |positions: &[u8], base: usize| {
            let mut rank = [usize::MAX; 5];
            let mut next = 0;
            let mut keyed: Vec<(usize, usize, usize)> = positions
                .iter()
                .enumerate()
                .map(|(pos, &x)| {
                    let line = usize::from(x) - base;
                    let g = line / k;
                    if rank[g] == usize::MAX {
                        rank[g] = next;
                        next += 1;
                    }
                    (rank[g], pos, line)
                })
                .collect();
            keyed.sort_unstable();
            keyed
                .into_iter()
                .map(|(_, _, line)| line)
                .collect::<Vec<_>>()
        };
        (order(&lab[..n], 0), order(&lab[n..2 * n], n))
    }

    /// The grid read in the given orders, symbols relabelled by first appearance.
    fn certificate(&self, rows: &[usize], cols: &[usize]) -> Vec<u8> {
        let n = self.n;
        let mut label = [0u8; 26];
        let mut next = 1u8;
        let mut out = Vec::with_capacity(n * n);
        for &r in rows {
            for &c in cols {
                let v = self.cells[r * n + c];
                out.push(if v == NO_SYMBOL {
                    0
                } else {
                    let l = &mut label[usize::from(v)];
                    if *l == 0 {
                        *l = next;
                        next += 1;
                    }
                    *l
                });
            }
        }
        out
    }

    /// The map sending the row or column at each position of leaf `from` to the one at the
    /// same position of leaf `to`, when it extends to an automorphism: bands go to bands,
    /// stacks to stacks, and symbols to symbols consistently (empty cells to empty cells).
    fn automorphism(&self, from: &[u8], to: &[u8]) -> Option<Vec<u8>> {
        let n = self.n;
        let mut gamma = alloc::vec![0u8; 2 * n];
        for (&a, &b) in from.iter().zip(to) {
            gamma[usize::from(a)] = b;
        }
        let mut groups = [[u8::MAX; 5]; 2];
        for (line, &image) in gamma.iter().enumerate() {
            let image = usize::from(image);
            let (kind, g, h) = if line < n {
                (0, line / self.k, image / self.k)
            } else {
                (1, (line - n) / self.k, (image - n) / self.k)
            };
            let slot = &mut groups[kind][g];
            if *slot == u8::MAX {
                *slot = h as u8;
            } else if usize::from(*slot) != h {
                return None;
            }
        }
        let mut fwd = [0u8; 26];
        let mut bwd = [0u8; 26];
        for r in 0..n {
            let (src, dst) = (
                &self.cells[r * n..r * n + n],
                &self.cells[usize::from(gamma[r]) * n..usize::from(gamma[r]) * n + n],
            );
            for c in 0..n {
                let a = src[c];
                let b = dst[usize::from(gamma[n + c]) - n];
                if (a == NO_SYMBOL) != (b == NO_SYMBOL) {
                    return None;
                }
                if a == NO_SYMBOL {
                    continue;
                }
                let (f, w) = (&mut fwd[usize::from(a)], &mut bwd[usize::from(b)]);
                if (*f != 0 && *f != b) || (*w != 0 && *w != a) {
                    return None;
                }
                *f = b;
                *w = a;
            }
        }
        Some(gamma)
    }
}

/// A leaf kept by the search: its row/column positions, key (node invariants and
/// certificate) and path.
#[derive(Clone)]
struct Leaf {
    lab: Vec<u8>,
    invs: Vec<u64>,
    path: Vec<u8>,
    cert: Vec<u8>,
    rows: Vec<usize>,
    cols: Vec<usize>,
}

struct Search<'a> {
    st: &'a Structure,
    first: Option<Leaf>,
    best: Option<Leaf>,
    automorphisms: Vec<Vec<u8>>,
    /// The node invariants along the current path, root first.
    invs: Vec<u64>,
    nodes: u64,
    budget: u64,
    aborted: bool,
    h: Vec<u64>,
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl Search<'_> {
    /// Whether `x` is in the orbit of one of `explored` under the automorphisms found so
    /// far that fix every vertex of `path`.
    fn same_orbit(&self, x: u8, explored: &[u8], path: &[u8]) -> bool {
        let m = 2 * self.st.n;
        let mut parent: Vec<u8> = (0..m as u8).collect();
        fn find(parent: &mut [u8], mut a: u8) -> u8 {
            while parent[usize::from(a)] != a {
                let up = parent[usize::from(parent[usize::from(a)])];
                parent[usize::from(a)] = up;
                a = up;
            }
            a
        }
        for g in &self.automorphisms {
            if path.iter().all(|&v| g[usize::from(v)] == v) {
                for (i, &j) in g.iter().enumerate() {
                    let (a, b) = (find(&mut parent, i as u8), find(&mut parent, j));
                    if a != b {
                        parent[usize::from(a.max(b))] = a.min(b);
                    }
                }
            }
        }
        let root = find(&mut parent, x);
        explored.iter().any(|&e| find(&mut parent, e) == root)
    }

    /// Explores the node `p` (not yet refined) reached by individualising `path`. Returns
    /// `Some(level)` to abandon every node deeper than `level`.
    fn dfs(&mut self, mut p: Partition, path: &mut Vec<u8>) -> Option<usize> {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return Some(0);
        }
        let mut h = core::mem::take(&mut self.h);
        self.st.refine(&mut p, &mut h);
        let invariant = self.st.node_invariant(&p, &h);
        self.h = h;
        self.invs.push(invariant);
        let back = self.explore(&p, path);
        self.invs.pop();
        back
    }

    /// The rest of [`Search::dfs`], on the refined partition whose invariant is on `invs`.
    fn explore(&mut self, p: &Partition, path: &mut Vec<u8>) -> Option<usize> {
        if let Some(best) = &self.best {
            // Every leaf below has a key starting with `invs`: larger than the best's?
            let (i, m) = (self.invs.len(), best.invs.len());
            let common = i.min(m);
            match self.invs[..common].cmp(&best.invs[..common]) {
                Ordering::Greater => return None,
                Ordering::Equal if m < i => return None,
                _ => {}
            }
        }
        let Some(start) = self.st.target(p) else {
            return self.leaf(p, path);
        };
        let cell: Vec<u8> = p.lab[start..start + usize::from(p.len[start])].to_vec();
        let mut explored: Vec<u8> = Vec::new();
        for &x in &cell {
            if !explored.is_empty() && self.same_orbit(x, &explored, path) {
                continue;
            }
            explored.push(x);
            let child = Structure::individualise(p, x);
            path.push(x);
            let back = self.dfs(child, path);
            path.pop();
            if self.aborted {
                return Some(0);
            }
            if let Some(level) = back
                && level < path.len()
            {
                return Some(level);
            }
        }
        None
    }

    fn keep(&mut self, automorphism: Vec<u8>) {
        if self.automorphisms.len() < MAX_AUTOMORPHISMS {
            self.automorphisms.push(automorphism);
        }
    }

    fn leaf(&mut self, p: &Partition, path: &[u8]) -> Option<usize> {
        let lab = p.lab[..2 * self.st.n].to_vec();
        let (rows, cols) = self.st.orders(&lab);
        let cert = self.st.certificate(&rows, &cols);
        let leaf = Leaf {
            lab,
            invs: self.invs.clone(),
            path: path.to_vec(),
            cert,
            rows,
            cols,
        };
        let Some(first) = &self.first else {
            self.best = Some(leaf.clone());
            self.first = Some(leaf);
            return None;
        };
        if let Some(g) = self.st.automorphism(&leaf.lab, &first.lab) {
            let level = common_prefix(path, &first.path);
            self.keep(g);
            return Some(level);
        }
        let best = self.best.as_ref().expect("set with the first leaf");
        let order = (leaf.invs.cmp(&best.invs)).then_with(|| leaf.cert.cmp(&best.cert));
        match order {
            Ordering::Less => self.best = Some(leaf),
            Ordering::Equal => {
                if let Some(g) = self.st.automorphism(&leaf.lab, &best.lab) {
                    let level = common_prefix(path, &best.path);
                    self.keep(g);
                    return Some(level);
                }
            }
            Ordering::Greater => {}
        }
        None
    }
}

/// The certificate of the leaf with the smallest key in the search tree of one orientation,
/// with the leaf's row and column orders, or `None` when the node budget runs out.
fn search(st: &Structure, budget: u64) -> Option<(Vec<u8>, Vec<usize>, Vec<usize>)> {
    let mut s = Search {
        st,
        first: None,
        best: None,
        automorphisms: Vec::new(),
        invs: Vec::new(),
        nodes: 0,
        budget,
        aborted: false,
        h: alloc::vec![0; st.vertices()],
    };
    s.dfs(st.start.clone(), &mut Vec::new());
    if s.aborted {
        return None;
    }
    let best = s.best?;
    Some((best.cert, best.rows, best.cols))
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashMap;

    /// The search-tree form agrees with the exact lex-min form on which grids are
    /// equivalent: the map between the two forms is a bijection.
    fn agree(grids: &[Grid]) {
        let mut fwd: HashMap<Grid, Grid> = HashMap::new();
        let mut bwd: HashMap<Grid, Grid> = HashMap::new();
        for g in grids {
            let exact = small_canonical_transform(g).apply(g).unwrap();
            let refined = refined_canonical_transform(g, NODE_BUDGET)
                .unwrap()
                .apply(g)
                .unwrap();
            assert_eq!(
                fwd.entry(exact.clone()).or_insert(refined.clone()),
                &refined,
                "{g}"
            );
            assert_eq!(bwd.entry(refined).or_insert(exact.clone()), &exact, "{g}");
        }
        assert!(fwd.len() > 1);
    }

    #[test]
    fn refined_form_matches_exact_classes_on_4x4() {
        let solutions = Grid::empty(Size::Four).solutions(288);
        assert_eq!(solutions.len(), 288);
        let mut grids = solutions.clone();
        // Every solution with the cells of a few masks removed: puzzles of all kinds.
        for mask in [
            0x0001u32, 0x8421, 0x00FF, 0x0F0F, 0x3C3C, 0x1248, 0xA5A5, 0x0660, 0x7777,
        ] {
            for s in &solutions {
                let cells: Vec<u8> = s
                    .cells()
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| if mask >> i & 1 == 1 { 0 } else { v })
                    .collect();
                grids.push(Grid::from_cells(Size::Four, &cells).unwrap());
            }
        }
        grids.push(Grid::empty(Size::Four));
        agree(&grids);
    }

    #[test]
    fn the_budget_is_honoured() {
        let empty = Grid::empty(Size::Sixteen);
        assert_eq!(refined_canonical_transform(&empty, 100), None);
        let t = refined_canonical_transform(&empty, 440).unwrap();
        assert_eq!(t.apply(&empty).unwrap(), empty);
        assert_eq!(refined_canonical_transform(&empty, 439), None);
    }

    #[test]
    fn refined_form_matches_exact_classes_on_9x9() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut grids = Vec::new();
        let base = crate::generate::solved_grid(Size::Nine, &mut rng);
        let pattern: Vec<u8> = (0..81)
            .map(|i| ((3 * ((i / 9) % 3) + (i / 9) / 3 + i % 9) % 9) as u8 + 1)
            .collect();
        let pattern = Grid::from_cells(Size::Nine, &pattern).unwrap();
        for g in [base, pattern] {
            // The grid, a few of its transforms, and puzzles cut from both.
            let mut cut = g.cells().to_vec();
            for (i, v) in cut.iter_mut().enumerate() {
                if i % 4 == 0 || i % 7 == 3 {
                    *v = 0;
                }
            }
            let cut = Grid::from_cells(Size::Nine, &cut).unwrap();
            for h in [&g, &cut] {
                grids.push(h.clone());
                for _ in 0..3 {
                    grids.push(Transform::random(Size::Nine, &mut rng).apply(h).unwrap());
                }
            }
        }
        agree(&grids);
    }
}
