//! Canonical labelling of 16×16 and 25×25 grids by individualisation and refinement, as
//! in McKay's nauty (the method is described on [`canonical_form`](super::canonical_form)).

use alloc::vec::Vec;
use core::cmp::Ordering;

/// The 16×16 / 25×25 search gives up (and [`canonical_transform`](super::canonical_transform) returns `None`) after
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
pub(super) struct Structure {
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
    pub(super) fn new(n: usize, k: usize, cells: Vec<u8>) -> Structure {
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
pub(super) fn search(st: &Structure, budget: u64) -> Option<(Vec<u8>, Vec<usize>, Vec<usize>)> {
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
