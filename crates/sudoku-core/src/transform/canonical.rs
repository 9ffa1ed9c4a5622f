//! The canonical form: the smallest line of a 4×4, 6×6 or 9×9 class by enumeration, and
//! the glue around the refinement search of `refine` for 16×16 and 25×25.

use alloc::vec::Vec;

use super::refine::{NODE_BUDGET, Structure, search};
use super::{Transform, line_map};
use crate::grid::Grid;

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
/// the empty 16×16 grid, yet its tree has 440 nodes. The line-pair invariants are for
/// regular grids with few automorphisms, such as product grids built from random Latin
/// squares of order 4 or 5. The budget ([`NODE_BUDGET`] nodes per orientation) is there so
/// that no input can run away; at most 256 automorphisms are kept, and keeping fewer only
/// prunes less. Typical forms take tens of microseconds, very symmetric grids a few
/// milliseconds (figures in `docs/research/sudoku-code-notes.md`).
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

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::grid::Size;
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
