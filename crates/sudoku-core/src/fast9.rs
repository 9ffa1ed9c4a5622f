//! The dedicated 9×9 solver: a bit-parallel, digit-major representation.
//!
//! For every digit and every band (three rows) a 27-bit word holds the cells where the digit
//! may still go (bit `9·row_in_band + column`). A placed digit keeps its own bit, so every row,
//! column and box always holds at least one candidate of every digit in a consistent state.
//!
//! Propagation, all on words, driven by a 27-bit set of changed (digit, band) words:
//! - **band matching**: in a band a digit occupies one box per row and one row per box,
//!   i.e. a permutation of the 3×3 row × box presence matrix; a table keeps only the entries
//!   that belong to some permutation. This subsumes locked candidates (pointing and
//!   claiming) and empty-row/box contradictions;
//! - **stack matching**: the same on the band × column presence matrix of every stack, for
//!   the digits whose words changed, which covers the columns;
//! - **hidden singles** in rows and boxes (and, through the stack matching, columns): a row
//!   or box of a band with a single candidate;
//! - **naked singles** by bit-sliced counting of the nine digit words of a band.
//!
//! The changed words are processed in waves: the band matching of every word of a wave,
//! then the hidden singles it found (whose words marked the next wave), then, at the band
//! fixpoint, naked singles and the stack matching.
//!
//! Branching picks a bivalue cell when there is one (there almost always is): among the
//! first few, the one with the most unsolved peers, i.e. the guess that should propagate
//! most; else the first unsolved cell. The candidates are explored depth first on copies of
//! the 120-byte state. After a guess the stack matching is left out until the search meets
//! its first contradiction: puzzles whose guesses never fail (typically with many
//! solutions) are done sooner without the column reasoning, and the hard ones get it back
//! after their first dead end.

use crate::general::OutOfNodes;

/// Bits of a band word: 27 cells.
const BAND: u32 = (1 << 27) - 1;
/// Replicates a 9-bit column mask to the three rows of a band.
const ROWS3: u32 = 1 | (1 << 9) | (1 << 18);

/// For a 9-bit row of a band, the 3-bit set of boxes where it has a candidate.
const ROW_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < 512 {
        let mut v = 0;
        if i & 0o7 != 0 {
            v |= 1;
        }
        if i & 0o70 != 0 {
            v |= 2;
        }
        if i & 0o700 != 0 {
            v |= 4;
        }
        t[i] = v;
        i += 1;
    }
    t
};

/// The six orders of three things, in a fixed order (shared with the grid generator).
pub(crate) const PERM3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The six permutations of three elements, as 9-bit matrices (bit `3·r + π(r)`).
const PERMS: [u32; 6] = {
    let p = PERM3;
    let mut out = [0u32; 6];
    let mut k = 0;
    while k < 6 {
        out[k] = (1 << p[k][0]) | (1 << (3 + p[k][1])) | (1 << (6 + p[k][2]));
        k += 1;
    }
    out
};

/// For a 3×3 presence matrix (bit `3·r + c`), the union of the permutation matrices it
/// contains: the entries that can still hold the digit. `0` when no permutation fits.
const MATCHING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut v = 0;
        let mut k = 0;
        while k < 6 {
            if PERMS[k] & m as u32 == PERMS[k] {
                v |= PERMS[k];
            }
            k += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// MATCHING expanded to a 27-bit band mask: entry (row r, box b) → the 3 cells.
const BAND_ALLOWED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let a = MATCHING[m];
        let mut v = 0;
        let mut e = 0;
        while e < 9 {
            if a & (1 << e) != 0 {
                let (r, b) = (e / 3, e % 3);
                v |= 7 << (9 * r + 3 * b);
            }
            e += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// For a 9-bit row, itself when it has exactly one bit, else 0.
const ROW_SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < 512 {
        if i != 0 && i & (i - 1) == 0 {
            t[i] = i as u32;
        }
        i += 1;
    }
    t
};

/// The three box masks of a band.
const BOX_MASK: [u32; 3] = [0o7 * ROWS3, 0o70 * ROWS3, 0o700 * ROWS3];

/// For a cell bit of a band, its row and box in the band, without itself.
const PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let row = 0o777 << (9 * (i / 9));
        let bx = BOX_MASK[(i % 9) / 3];
        t[i] = (row | bx) & !(1 << i);
        i += 1;
    }
    t
};

/// For a 3×3 (row × box) matrix, the cells of a band in the rows and boxes of its entries.
const ROWS_AND_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut v = 0;
        let mut e = 0;
        while e < 9 {
            if m & (1 << e) != 0 {
                v |= (0o777 << (9 * (e / 3))) | BOX_MASK[e % 3];
            }
            e += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// For a 3×3 (row × box) matrix, its non-empty rows (bits 0..3) and columns (bits 3..6).
const USED_LINES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut v = 0;
        let mut k = 0;
        while k < 3 {
            if m & (7 << (3 * k)) != 0 {
                v |= 1 << k;
            }
            if m & (0o111 << k) != 0 {
                v |= 8 << k;
            }
            k += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The number of bits of a 9-bit value.
const POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// The two other bands of every band.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// How many bivalue cells the branching heuristic compares.
const BRANCH_CANDIDATES: u32 = 8;
/// How many it compares once a search has taken [`WIDE_AFTER`] branching nodes: hard
/// puzzles repay the wider comparison with fewer nodes, easy ones (most finish within a
/// few nodes) would only pay for it.
const WIDE_CANDIDATES: u32 = 16;
/// Branching nodes after which the wider comparison is used.
const WIDE_AFTER: u32 = 16;

/// The solver state: candidates per digit and band, unsolved cells per band.
#[derive(Clone, Copy)]
pub(crate) struct State {
    cand: [[u32; 3]; 9],
    unsolved: [u32; 3],
}

/// Abort marker for a contradiction.
struct Contradiction;

type Step = Result<(), Contradiction>;

impl State {
    /// The state of a puzzle's givens before propagation, or `None` when two givens clash.
    fn givens(cells: &[u8]) -> Option<State> {
        // All givens at once: each digit loses the peers of its givens, every digit loses
        // the given cells, and a given inside the peers of the same digit is a clash.
        // Branch-free: slot 0 collects the empty cells. Each digit then loses the rows,
        // boxes and columns of its givens, and its givens clash unless they lie in as many
        // distinct rows, columns and boxes as there are of them.
        let mut at = [[0u32; 3]; 10];
        let mut count = [0u8; 10];
        for (b, band) in cells.chunks_exact(27).take(3).enumerate() {
            for (i, &v) in band.iter().enumerate() {
                let v = usize::from(v.min(9));
                at[v][b] |= 1 << i;
                count[v] += 1;
            }
        }
        let given = [BAND & !at[0][0], BAND & !at[0][1], BAND & !at[0][2]];
        let mut cand = [[0u32; 3]; 9];
        let mut clash = 0;
        for d in 0..9 {
            let a = at[d + 1];
            let (mut cols, mut rows, mut boxes) = (0u32, 0u32, 0u32);
            let mut lines = [0u32; 3];
            for b in 0..3 {
                let x = a[b];
                let m = ROW_BOXES[(x & 0o777) as usize]
                    | (ROW_BOXES[((x >> 9) & 0o777) as usize] << 3)
                    | (ROW_BOXES[(x >> 18) as usize] << 6);
                lines[b] = ROWS_AND_BOXES[m as usize];
                cols |= (x | x >> 9 | x >> 18) & 0o777;
                let used = USED_LINES[m as usize];
                rows |= u32::from(used & 7) << (3 * b);
                boxes |= u32::from(used >> 3) << (3 * b);
            }
            let n = count[d + 1];
            clash |=
                (POP9[cols as usize] ^ n) | (POP9[rows as usize] ^ n) | (POP9[boxes as usize] ^ n);
            for b in 0..3 {
                cand[d][b] = (BAND & !(lines[b] | (cols * ROWS3)) & !given[b]) | a[b];
            }
        }
        if clash != 0 {
            return None;
        }
        Some(State {
            cand,
            unsolved: [at[0][0], at[0][1], at[0][2]],
        })
    }

    /// The state of a puzzle (81 values, 0 = empty) after initial propagation, or `None`
    /// when the givens already contradict each other.
    pub(crate) fn new(cells: &[u8]) -> Option<State> {
        let mut s = State::givens(cells)?;
        s.propagate((1 << 27) - 1).ok()?;
        Some(s)
    }

    /// Places digit `d` at bit `i` of band `b` (the caller checked it is a candidate).
    /// `dirty` collects the changed words, bit `3·digit + band`.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: usize, dirty: &mut u32) {
        let bit = 1u32 << i;
        self.cand[d][b] = (self.cand[d][b] & !PEERS[i]) | bit;
        *dirty |= 1 << (3 * d + b);
        self.commit(d, b, bit, dirty);
    }

    /// Records digit `d` in the cells `s` of band `b`, whose row and box peers in the band
    /// already lack `d`: the other digits leave these cells and `d` leaves their columns in
    /// the other bands.
    #[inline(always)]
    fn commit(&mut self, d: usize, b: usize, s: u32, dirty: &mut u32) {
        // Branch-free: clear the cells from every digit, then give them back to `d`.
        let own = 1u32 << (3 * d + b);
        let mut changed = 0u32;
        for (e, words) in self.cand.iter_mut().enumerate() {
            let had = words[b] & s;
            words[b] ^= had;
            changed |= u32::from(had != 0) << (3 * e);
        }
        self.cand[d][b] |= s;
        *dirty |= (changed << b) & !own;
        self.leave_columns(d, b, s, dirty);
    }

    /// Digit `d`, placed in the cells `s` of band `b`, leaves their columns in the other
    /// bands; the cells are solved.
    #[inline(always)]
    fn leave_columns(&mut self, d: usize, b: usize, s: u32, dirty: &mut u32) {
        let cols = ((s | s >> 9 | s >> 18) & 0o777) * ROWS3;
        let (o1, o2) = OTHER_BANDS[b];
        let h1 = self.cand[d][o1] & cols;
        let h2 = self.cand[d][o2] & cols;
        self.cand[d][o1] ^= h1;
        self.cand[d][o2] ^= h2;
        let bits = (if h1 != 0 { 1 << o1 } else { 0 }) | (if h2 != 0 { 1 << o2 } else { 0 });
        *dirty |= bits << (3 * d);
        self.unsolved[b] &= !s;
    }

    /// Stack matching for digit `d`: marks the other changed words dirty.
    #[inline(always)]
    fn stack_match(&mut self, d: usize, dirty: &mut u32) -> Step {
        let [w0, w1, w2] = self.cand[d];
        let c0 = (w0 | w0 >> 9 | w0 >> 18) & 0o777;
        let c1 = (w1 | w1 >> 9 | w1 >> 18) & 0o777;
        let c2 = (w2 | w2 >> 9 | w2 >> 18) & 0o777;
        let (mut a0, mut a1, mut a2) = (0, 0, 0);
        for s in 0..3 {
            let sh = 3 * s;
            let m = ((c0 >> sh) & 7) | (((c1 >> sh) & 7) << 3) | (((c2 >> sh) & 7) << 6);
            let a = MATCHING[m as usize];
            a0 |= (a & 7) << sh;
            a1 |= ((a >> 3) & 7) << sh;
            a2 |= ((a >> 6) & 7) << sh;
        }
        let (n0, n1, n2) = (w0 & (a0 * ROWS3), w1 & (a1 * ROWS3), w2 & (a2 * ROWS3));
        if (n0 == 0) | (n1 == 0) | (n2 == 0) {
            return Err(Contradiction);
        }
        self.cand[d] = [n0, n1, n2];
        let changed = u32::from(n0 != w0) | (u32::from(n1 != w1) << 1) | (u32::from(n2 != w2) << 2);
        *dirty |= changed << (3 * d);
        Ok(())
    }

    /// Band matching for digit `d` in band `b`; returns its hidden singles (after
    /// matching, a cell alone in its row is alone in its box and conversely, and its peers
    /// in the band already lack the digit).
    #[inline(always)]
    fn match_band(&mut self, d: usize, b: usize) -> Result<u32, Contradiction> {
        let u = self.unsolved[b];
        // A word whose cells are all solved matches to itself and has no single left:
        // no need to test for it.
        let w = band_match(self.cand[d][b]);
        if w == 0 {
            return Err(Contradiction);
        }
        self.cand[d][b] = w;
        Ok(row_singles(w) & u)
    }

    /// Naked singles in every band; sets `dirty` when it placed something.
    #[inline(always)]
    fn naked_singles(&mut self, dirty: &mut u32) -> Step {
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[d][b];
                two |= one & x;
                one |= x;
            }
            if u & !one != 0 {
                return Err(Contradiction);
            }
            let singles = u & !two;
            if singles == 0 {
                continue;
            }
            for d in 0..9 {
                let s = self.cand[d][b] & singles;
                if s != 0 {
                    let mut w = self.cand[d][b];
                    let mut m = s;
                    while m != 0 {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        w &= !PEERS[i];
                    }
                    // Two of them in one row or box.
                    if w & s != s {
                        return Err(Contradiction);
                    }
                    // No other digit has these cells.
                    self.cand[d][b] = w;
                    *dirty |= 1 << (3 * d + b);
                    self.leave_columns(d, b, s, dirty);
                }
            }
        }
        Ok(())
    }

    /// Propagates to a fixpoint, starting with the words in `dirty`.
    fn propagate(&mut self, dirty: u32) -> Step {
        self.propagate_with::<true>(dirty)
    }

    /// Propagates to a fixpoint, starting with the words in `dirty`; with `STACKS`, the
    /// stack matching too.
    fn propagate_with<const STACKS: bool>(&mut self, mut dirty: u32) -> Step {
        let mut digits = 0u32;
        loop {
            while dirty != 0 {
                // In waves: the words dirty now, then those they made dirty. The next word
                // comes from the wave, not from the last update's result, which keeps the
                // updates of a wave independent for the processor.
                let mut batch = dirty;
                dirty = 0;
                // Band matching of the whole wave first, then its hidden singles: no
                // unpredictable branch on whether a word had some.
                let mut singles = [0u32; 32];
                let mut todo = 0u32;
                while batch != 0 {
                    let k = batch.trailing_zeros() as usize;
                    batch &= batch - 1;
                    let d = k / 3;
                    digits |= 1 << d;
                    let s = self.match_band(d, k - 3 * d)?;
                    singles[k & 31] = s;
                    todo |= u32::from(s != 0) << k;
                }
                while todo != 0 {
                    let k = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let (d, b) = (k / 3, k % 3);
                    let s = singles[k & 31];
                    // A single taken meanwhile by another digit or by a column: its row
                    // has no place left.
                    if s & !self.cand[d][b] != 0 {
                        return Err(Contradiction);
                    }
                    self.commit(d, b, s, &mut dirty);
                }
            }
            self.naked_singles(&mut dirty)?;
            if dirty != 0 {
                continue;
            }
            // Stack matching for the digits whose words changed.
            if !STACKS {
                return Ok(());
            }
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                self.stack_match(d, &mut dirty)?;
            }
            if dirty == 0 {
                return Ok(());
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The 81 cell values of a solved state.
    pub(crate) fn values(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (d, words) in self.cand.iter().enumerate() {
            for (b, &w) in words.iter().enumerate() {
                let mut w = w & !self.unsolved[b];
                while w != 0 {
                    let i = w.trailing_zeros() as usize;
                    w &= w - 1;
                    out[b * 27 + i] = d as u8 + 1;
                }
            }
        }
        out
    }

    /// The branching cell and its candidate digits (bit set): a bivalue cell if any.
    fn branch_cell(&self, width: u32) -> (usize, usize, u32) {
        let mut bi = [0u32; 3];
        for (b, out) in bi.iter_mut().enumerate() {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for words in &self.cand {
                let x = words[b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            *out = u & two & !three;
        }
        if bi != [0; 3] {
            // Among the first `width` bivalue cells, the one with the most unsolved peers: its
            // guess should propagate most. (Counting only the peers that hold one of its
            // two digits, or adding the bivalue peers, costs more than it saves.)
            // Score in the high bits, cell in the low bits (the first cell wins ties).
            let u = &self.unsolved;
            let mut best_key = 0u32;
            let mut budget = width;
            for (b, &band) in bi.iter().enumerate() {
                // Own band first, without indexing by a run-time band.
                let (own, p, q) = match b {
                    0 => (u[0], u[1], u[2]),
                    1 => (u[1], u[0], u[2]),
                    _ => (u[2], u[0], u[1]),
                };
                let mut m = band;
                while m != 0 && budget > 0 {
                    budget -= 1;
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    // The unsolved peers packed into one u64 (own band: row and box;
                    // other bands: the column) for one population count.
                    let c = i % 9;
                    let others = ((p >> c) & ROWS3) | (((q >> c) & ROWS3) << 1);
                    let score =
                        (u64::from(own & PEERS[i]) | (u64::from(others) << 27)).count_ones();
                    let key = (score << 8) | (255 - (27 * b + i) as u32);
                    best_key = best_key.max(key);
                }
            }
            let cell = 255 - (best_key & 0xFF) as usize;
            let (b, i) = (cell / 27, cell % 27);
            return (b, i, self.digits_at(b, i));
        }
        let b = (0..3).find(|&b| self.unsolved[b] != 0).unwrap_or(0);
        let i = self.unsolved[b].trailing_zeros() as usize % 27;
        (b, i, self.digits_at(b, i))
    }

    fn digits_at(&self, b: usize, i: usize) -> u32 {
        let mut m = 0;
        for (d, words) in self.cand.iter().enumerate() {
            m |= ((words[b] >> i) & 1) << d;
        }
        m
    }

    /// Propagation after a guess: without the stack matching until the search meets its
    /// first contradiction. Easy puzzles (many solutions, or a few guesses that never fail)
    /// do not need the column reasoning and finish sooner without it; a solved state is
    /// valid either way, since every placement removes the digit from all its peers.
    #[inline(always)]
    fn propagate_in_search(&mut self, dirty: u32, budget: &mut Budget) -> bool {
        let ok = if budget.stacks {
            self.propagate_with::<true>(dirty).is_ok()
        } else {
            self.propagate_with::<false>(dirty).is_ok()
        };
        budget.stacks |= !ok;
        ok
    }

    /// Depth-first search; calls `found` on every solution until it returns `false`.
    /// Returns `false` when the search was stopped.
    fn search(mut self, found: &mut dyn FnMut(&State) -> bool, budget: &mut Budget) -> bool {
        loop {
            if self.is_solved() {
                return found(&self);
            }
            if budget.left == 0 {
                budget.aborted = true;
                return false;
            }
            budget.left -= 1;
            budget.nodes = budget.nodes.saturating_add(1);
            let width = if budget.nodes > WIDE_AFTER {
                WIDE_CANDIDATES
            } else {
                BRANCH_CANDIDATES
            };
            let (b, i, mut digits) = self.branch_cell(width);
            if digits == 0 {
                return true;
            }
            // All candidates but the last are tried on copies; the last one continues here.
            while digits & (digits - 1) != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut child = self;
                let mut dirty = 0;
                child.place(d, b, i, &mut dirty);
                let ok = child.propagate_in_search(dirty, budget);
                if ok && !child.search(found, budget) {
                    return false;
                }
            }
            let d = digits.trailing_zeros() as usize;
            let mut dirty = 0;
            self.place(d, b, i, &mut dirty);
            if !self.propagate_in_search(dirty, budget) {
                return true;
            }
        }
    }
}

/// The branching nodes a search may still open.
struct Budget {
    left: u64,
    aborted: bool,
    /// Branching nodes so far.
    nodes: u32,
    /// Whether propagation in the search includes the stack matching: from the first
    /// contradiction on.
    stacks: bool,
}

impl Budget {
    fn new(max_nodes: u64) -> Budget {
        Budget {
            left: max_nodes,
            aborted: false,
            nodes: 0,
            stacks: false,
        }
    }
}

/// Keeps the entries of a band word that belong to some row × box permutation.
#[inline(always)]
fn band_match(w: u32) -> u32 {
    let p = ROW_BOXES[(w & 0o777) as usize]
        | (ROW_BOXES[((w >> 9) & 0o777) as usize] << 3)
        | (ROW_BOXES[((w >> 18) & 0o777) as usize] << 6);
    w & BAND_ALLOWED[p as usize]
}

/// The cells of a band word alone in their row.
#[inline(always)]
fn row_singles(w: u32) -> u32 {
    ROW_SINGLE[(w & 0o777) as usize]
        | (ROW_SINGLE[((w >> 9) & 0o777) as usize] << 9)
        | (ROW_SINGLE[((w >> 18) & 0o777) as usize] << 18)
}

/// Visits the solutions of a 9×9 puzzle (81 values) until `found` returns `false`, within
/// `max_nodes` branching nodes.
pub(crate) fn for_each_solution(
    cells: &[u8],
    max_nodes: u64,
    found: &mut dyn FnMut(&[u8; 81]) -> bool,
) -> Result<(), OutOfNodes> {
    let mut budget = Budget::new(max_nodes);
    if let Some(state) = State::new(cells) {
        state.search(&mut |s: &State| found(&s.values()), &mut budget);
    }
    if budget.aborted {
        Err(OutOfNodes)
    } else {
        Ok(())
    }
}

/// The number of solutions of a 9×9 puzzle, counting at most `limit`, within `max_nodes`
/// branching nodes.
pub(crate) fn count(cells: &[u8], limit: usize, max_nodes: u64) -> Result<usize, OutOfNodes> {
    if limit == 0 {
        return Ok(0);
    }
    let mut n = 0;
    let mut budget = Budget::new(max_nodes);
    if let Some(state) = State::new(cells) {
        state.search(
            &mut |_: &State| {
                n += 1;
                n < limit
            },
            &mut budget,
        );
    }
    if budget.aborted {
        Err(OutOfNodes)
    } else {
        Ok(n)
    }
}

/// Whether the 9×9 puzzle `cells` has a solution whose cell `cell` is not `value`.
pub(crate) fn has_solution_without(cells: &[u8], cell: usize, value: u8) -> bool {
    let Some(mut state) = State::givens(cells) else {
        return false;
    };
    let (d, b, bit) = (usize::from(value - 1), cell / 27, 1u32 << (cell % 27));
    if state.unsolved[b] & bit == 0 {
        // The cell is a given.
        return cells[cell] != value && count(cells, 1, u64::MAX).is_ok_and(|n| n > 0);
    }
    state.cand[d][b] &= !bit;
    if state.propagate((1 << 27) - 1).is_err() {
        return false;
    }
    let mut found = false;
    state.search(
        &mut |_: &State| {
            found = true;
            false
        },
        &mut Budget::new(u64::MAX),
    );
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_keeps_exactly_the_entries_of_some_permutation() {
        assert_eq!(MATCHING[0o777], 0o777);
        for p in PERMS {
            assert_eq!(MATCHING[p as usize], p);
        }
        // Rows 0 and 1 can only use column 0: no permutation.
        assert_eq!(MATCHING[0b111_001_001], 0);
        // Row 0 only in column 2: the other rows lose column 2.
        assert_eq!(MATCHING[0b111_111_100], 0b011_011_100);
        assert_eq!(BAND_ALLOWED[0o777], BAND);
    }

    #[test]
    fn band_matching_finds_locked_candidates() {
        // Row 0 of the band has the digit only in box 0: boxes 0 of rows 1 and 2 lose it.
        let w = 0o7 | (0o777 << 9) | (0o777 << 18);
        let m = band_match(w);
        assert_eq!(m, 0o7 | (0o770 << 9) | (0o770 << 18));
        assert_eq!(
            row_singles(0o1 | (0o20 << 9) | (0o300 << 18)),
            0o1 | (0o20 << 9)
        );
    }

    #[test]
    fn clashing_givens_are_found_in_every_unit() {
        // The same digit twice in a row, a column within a band, a column across bands,
        // a box (other row and column), a row in the last band.
        for (a, b) in [(0, 8), (3, 21), (10, 46), (0, 20), (72, 80), (4, 76)] {
            let mut cells = [0u8; 81];
            cells[a] = 5;
            cells[b] = 5;
            assert!(State::givens(&cells).is_none(), "{a} {b}");
            // Another digit, or no shared unit: no clash.
            cells[b] = 6;
            assert!(State::givens(&cells).is_some(), "{a} {b}");
        }
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[13] = 5;
        cells[80] = 5;
        let s = State::givens(&cells).expect("no clash");
        // Digit 5 left row 0, column 0 and box 0 but keeps its givens.
        assert_eq!(s.cand[4][0] & 0o777, 1);
        assert_eq!(s.cand[4][0] & (1 << 9), 0);
        assert_eq!(s.cand[4][1] & 1, 0);
        assert_ne!(s.cand[4][1] & 2, 0);
        assert_eq!(s.unsolved[0], BAND & !(1 | (1 << 13)));
    }

    #[test]
    fn solves_and_counts() {
        let p =
            b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let cells: alloc::vec::Vec<u8> = p
            .iter()
            .map(|&c| if c == b'.' { 0 } else { c - b'0' })
            .collect();
        let (mut n, mut first) = (0, None);
        for_each_solution(&cells, u64::MAX, &mut |s: &[u8; 81]| {
            n += 1;
            first.get_or_insert(*s);
            n < 2
        })
        .ok()
        .unwrap();
        assert_eq!(n, 1);
        let s = first.unwrap();
        assert!(cells.iter().zip(s.iter()).all(|(&g, &v)| g == 0 || g == v));
        assert_eq!(count(&[0; 81], 5, u64::MAX).ok(), Some(5));
        let mut clash = [0u8; 81];
        clash[0] = 1;
        clash[80] = 1;
        clash[8] = 1;
        assert_eq!(count(&clash, 2, u64::MAX).ok(), Some(0));
        // Givens: only their own value.
        assert!(!has_solution_without(&s, 0, s[0]));
        assert!(has_solution_without(&s, 0, s[0] % 9 + 1));
        assert!(!has_solution_without(&cells, 0, 4));
        // An open cell of a unique puzzle.
        assert_eq!(cells[1], 0);
        assert!(!has_solution_without(&cells, 1, s[1]));
        // Two open cells of a full grid are forced too.
        let mut open = s;
        open[0] = 0;
        open[1] = 0;
        assert!(!has_solution_without(&open, 0, s[0]));
        // The empty grid has solutions with anything anywhere.
        assert!(has_solution_without(&[0; 81], 40, 5));
    }
}
