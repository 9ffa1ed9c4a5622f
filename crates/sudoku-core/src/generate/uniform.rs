//! The exactly uniform sampler of solved 4×4, 6×6 and 9×9 grids: rejection sampling in
//! which every sequence of draws is equally likely. The method and why it is exact are
//! described in the documentation of the `generate` module.

use arrayvec::ArrayVec;

use rand::Rng;

use crate::fast9::PERM3;
use crate::grid::{Grid, Size};

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
pub(super) fn uniform_grid(size: Size, rng: &mut (impl Rng + ?Sized)) -> Grid {
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

#[cfg(test)]
mod tests;
