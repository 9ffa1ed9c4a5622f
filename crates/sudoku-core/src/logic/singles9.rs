//! The singles phase of a 9×9 solve on fixed arrays: no heap, no general geometry.
//!
//! [`Singles9`] keeps what [`Candidates`] keeps for the singles (cell candidates, each
//! unit's digit positions, the units that may hold a hidden single and those with one
//! empty cell) and finds and places the singles in exactly the order of
//! [`super::singles::fill_singles`], so a solve that needs nothing more never builds the
//! general state, and one that does continues from [`Candidates::new`] of the grid
//! reached, which equals the state the general placements would have left (only
//! placements happen in this phase).

use super::{Technique, Techniques};
use crate::Candidates;
use crate::grid::{Grid, Size};

/// The cells of each unit: rows `0..9`, columns `9..18`, boxes `18..27` (row-major inside
/// a box), the numbering of [`crate::candidates::Geometry`].
const UNITS: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            t[u][k] = if u < 9 {
                u * 9 + k
            } else if u < 18 {
                k * 9 + (u - 9)
            } else {
                let b = u - 18;
                ((b / 3) * 3 + k / 3) * 9 + (b % 3) * 3 + k % 3
            } as u8;
            k += 1;
        }
        u += 1;
    }
    t
};

/// The row, column and box unit of each cell.
const CELL_UNITS: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        t[c] = [r as u8, (9 + col) as u8, (18 + (r / 3) * 3 + col / 3) as u8];
        c += 1;
    }
    t
};

/// The position of each cell inside its row, column and box.
const CELL_POS: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        t[c] = [col as u8, r as u8, ((r % 3) * 3 + col % 3) as u8];
        c += 1;
    }
    t
};

const ALL: u16 = 0x1ff;

/// For each position of a box, the positions in the same row or column of the box (itself
/// included).
const BOX_LINES: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut k = 0;
    while k < 9 {
        t[k] = (0b111 << (3 * (k / 3))) | (0b1001001 << (k % 3));
        k += 1;
    }
    t
};

/// For each cell, the cells of its row (slots `0..9`), column (`9..18`) and box (`18..27`)
/// by position: slot `9j + k` is position `k` of the cell's unit `j`.
const PEER_SLOTS: [[u8; 27]; 81] = {
    let mut t = [[0u8; 27]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut s = 0;
        while s < 27 {
            t[cell][s] = UNITS[CELL_UNITS[cell][s / 9] as usize][s % 9];
            s += 1;
        }
        cell += 1;
    }
    t
};

/// The boxes in a set of units (bit `u`).
const BOXES: u32 = 0x1ff << 18;
/// The rows and columns in a set of units.
const LINES: u32 = 0x3ffff;

/// For a set of thirds of a unit (bit `j`), the positions `3j..3j + 3`: a row's cells in
/// the boxes `j` of its band, a column's cells in the boxes `j` of its stack, a box's
/// cells in its rows `j`.
const THIRDS: [u16; 8] = masks_of_sets(0b111, 3);

/// For a set of columns of a box (bit `j`), the box's positions `j`, `j + 3`, `j + 6`.
const STRIDES: [u16; 8] = masks_of_sets(0b1001001, 1);

/// For each set of three members (bit `j`), the union of `pattern << (step · j)`.
const fn masks_of_sets(pattern: u16, step: u32) -> [u16; 8] {
    let mut t = [0u16; 8];
    let mut m = 0;
    while m < 8 {
        let mut j = 0;
        while j < 3 {
            if (m >> j) & 1 != 0 {
                t[m] |= pattern << (step * j as u32);
            }
            j += 1;
        }
        m += 1;
    }
    t
}

/// The digits of unit `u` with one position in `pos` (bit `i` for digit `i + 1`).
#[inline(always)]
fn singles_of(pos: &[u16; 243], u: usize) -> u16 {
    let mut single = 0u16;
    for (i, m) in pos[u * 9..u * 9 + 9].iter().enumerate() {
        single |= u16::from(m.is_power_of_two()) << i;
    }
    single
}

/// The 9×9 state of the singles phase.
///
/// Most of a solve of an easy puzzle is [`Singles9::new`] and [`Singles9::place`], so both
/// avoid branches that follow the puzzle (mispredicted about half the time): what is
/// looked for rarely is not kept up to date (the naked singles, searched last, are found by
/// a scan), and the sets of units to look at first may hold stale units, dropped when met.
#[derive(Clone)]
pub(crate) struct Singles9 {
    values: [u8; 81],
    /// The candidates of each empty cell (bit `d - 1`), 0 for a filled cell.
    cands: [u16; 81],
    /// For unit `u` and digit index `i`, `pos[u * 9 + i]`: the positions inside the unit
    /// where the digit can go.
    pos: [u16; 243],
    /// The units with a digit of one position (bit `u`), and maybe others: a unit is
    /// added when a digit's positions in it drop to one and dropped when the search finds
    /// it has no such digit (keeping each unit's single digits up to date cost more than
    /// reading its nine digits when the search gets to it).
    hidden: u32,
    /// For each unit, the positions of its empty cells.
    open: [u16; 27],
    /// The units with one empty cell (bit `u`).
    last_empty: u32,
    /// The number of empty cells.
    empty: usize,
}

impl Singles9 {
    /// The state of a 9×9 grid (`None` for another size).
    ///
    /// From the rows, columns and boxes holding each digit, a digit's positions in a unit
    /// are the unit's empty cells outside the lines and boxes holding it (none if the unit
    /// holds it), with no branch on the cells.
    pub(crate) fn new(grid: &Grid) -> Option<Singles9> {
        if grid.size() != Size::Nine {
            return None;
        }
        let mut values = [0u8; 81];
        values.copy_from_slice(grid.cells());
        // The digits each unit holds (bit `d - 1`); for each value `v`, the rows, columns
        // and boxes holding it (bit `n` for row, column or box `n`; entry 0 collects the
        // empty cells and is not read).
        let mut held = [0u16; 27];
        let mut open = [0u16; 27];
        let mut rows_with = [0u16; 10];
        let mut cols_with = [0u16; 10];
        let mut boxes_with = [0u16; 10];
        let mut empty = 0;
        for r in 0..9 {
            for c in 0..9 {
                let b = (r / 3) * 3 + c / 3;
                let v = usize::from(values[r * 9 + c]);
                let digit = (1u16 << v) >> 1;
                held[r] |= digit;
                held[9 + c] |= digit;
                held[18 + b] |= digit;
                rows_with[v] |= 1 << r;
                cols_with[v] |= 1 << c;
                boxes_with[v] |= 1 << b;
                let is_empty = u16::from(v == 0);
                open[r] |= is_empty << c;
                open[9 + c] |= is_empty << r;
                open[18 + b] |= is_empty << ((r % 3) * 3 + c % 3);
                empty += usize::from(is_empty);
            }
        }
        let mut cands = [0u16; 81];
        for r in 0..9 {
            for c in 0..9 {
                let b = (r / 3) * 3 + c / 3;
                let filled = u16::from(values[r * 9 + c] != 0).wrapping_neg();
                cands[r * 9 + c] = ALL & !(held[r] | held[9 + c] | held[18 + b] | filled);
            }
        }
        let mut pos = [0u16; 243];
        for i in 0..9 {
            let (rw, cw, bw) = (rows_with[i + 1], cols_with[i + 1], boxes_with[i + 1]);
            // All positions of unit `n` of a kind if it does not hold the digit, else none.
            let free = |with: u16, n: usize| ((with >> n) & 1).wrapping_sub(1);
            // The columns of each stack holding the digit, as positions in its boxes.
            let stack_cols = [0, 1, 2].map(|s| STRIDES[usize::from((cw >> (3 * s)) & 7)]);
            for band in 0..3 {
                // Row `r`: position `k` is column `k`, in box `3 * band + k / 3`.
                let row = cw | THIRDS[usize::from((bw >> (3 * band)) & 7)];
                // Box `b`: position `k` is in row `3 * band + k / 3`, column
                // `3 * stack + k % 3`.
                let box_rows = THIRDS[usize::from((rw >> (3 * band)) & 7)];
                for (t, &cols) in stack_cols.iter().enumerate() {
                    let r = 3 * band + t;
                    pos[r * 9 + i] = open[r] & !row & free(rw, r);
                    let b = 3 * band + t;
                    pos[(18 + b) * 9 + i] = open[18 + b] & !(box_rows | cols) & free(bw, b);
                }
            }
            for stack in 0..3 {
                // Column `c`: position `k` is row `k`, in box `3 * (k / 3) + stack`.
                let m = bw >> stack;
                let boxes = (m & 1) | ((m >> 2) & 2) | ((m >> 4) & 4);
                let col = rw | THIRDS[usize::from(boxes)];
                for c in 3 * stack..3 * stack + 3 {
                    pos[(9 + c) * 9 + i] = open[9 + c] & !col & free(cw, c);
                }
            }
        }
        let mut hidden = 0u32;
        let mut last_empty = 0u32;
        for (u, o) in open.iter().enumerate() {
            hidden |= u32::from(singles_of(&pos, u) != 0) << u;
            last_empty |= u32::from(o.is_power_of_two()) << u;
        }
        Some(Singles9 {
            values,
            cands,
            pos,
            hidden,
            open,
            last_empty,
            empty,
        })
    }

    /// Whether every cell is filled.
    pub(crate) fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// The grid reached.
    pub(crate) fn to_grid(&self) -> Grid {
        Grid::from_cells(Size::Nine, &self.values).expect("values in range")
    }

    /// The general state of the grid reached.
    pub(crate) fn to_candidates(&self) -> Candidates {
        Candidates::new(&self.to_grid())
    }

    /// A unit with one empty cell whose only candidate is the missing digit: boxes first,
    /// then rows and columns.
    fn full_house(&self) -> Option<(usize, u8)> {
        for units in [BOXES, LINES] {
            let mut m = self.last_empty & units;
            while m != 0 {
                let u = m.trailing_zeros() as usize;
                m &= m - 1;
                let cell = usize::from(UNITS[u][self.open[u].trailing_zeros() as usize]);
                let d = self.cands[cell];
                if d.is_power_of_two() {
                    return Some((cell, d.trailing_zeros() as u8 + 1));
                }
            }
        }
        None
    }

    /// The first unit of the set `units` (bit `u`) with a digit of one position: its cell
    /// and digit. Units met without one leave [`Singles9::hidden`].
    fn hidden_single(&mut self, units: u32) -> Option<(usize, u8)> {
        let mut m = self.hidden & units;
        while m != 0 {
            let u = m.trailing_zeros() as usize;
            m &= m - 1;
            let single = singles_of(&self.pos, u);
            if single != 0 {
                let i = single.trailing_zeros() as usize;
                let k = self.pos[u * 9 + i].trailing_zeros() as usize;
                return Some((usize::from(UNITS[u][k]), i as u8 + 1));
            }
            self.hidden &= !(1 << u);
        }
        None
    }

    /// The first cell with one candidate.
    fn naked_single(&self) -> Option<(usize, u8)> {
        let cell = self.cands.iter().position(|d| d.is_power_of_two())?;
        Some((cell, self.cands[cell].trailing_zeros() as u8 + 1))
    }

    /// The simplest single among `allowed`, in the order of the general search.
    fn find(&mut self, allowed: Techniques) -> Option<(Technique, usize, u8)> {
        let with = |t: Technique, s: Option<(usize, u8)>| s.map(|(c, d)| (t, c, d));
        if allowed.contains(Technique::FullHouse)
            && let Some(s) = with(Technique::FullHouse, self.full_house())
        {
            return Some(s);
        }
        if allowed.contains(Technique::HiddenSingleBox)
            && let Some(s) = with(Technique::HiddenSingleBox, self.hidden_single(BOXES))
        {
            return Some(s);
        }
        if allowed.contains(Technique::HiddenSingleLine)
            && let Some(s) = with(Technique::HiddenSingleLine, self.hidden_single(LINES))
        {
            return Some(s);
        }
        if allowed.contains(Technique::NakedSingle) {
            return with(Technique::NakedSingle, self.naked_single());
        }
        None
    }

    /// Takes position `k` of unit `u` away from digit index `i`.
    #[inline(always)]
    fn drop_position(&mut self, u: usize, k: u8, i: usize) {
        let m = self.pos[u * 9 + i] & !(1 << k);
        self.pos[u * 9 + i] = m;
        self.hidden |= u32::from(m.is_power_of_two()) << u;
    }

    /// Fills the empty `cell` with its candidate `digit` and removes the digit from its
    /// peers.
    fn place(&mut self, cell: usize, digit: u8) {
        let i = usize::from(digit) - 1;
        let bit = 1u16 << i;
        let units = CELL_UNITS[cell].map(usize::from);
        let ks = CELL_POS[cell];
        // The cell's other candidates lose their positions in its three units.
        let mut rest = self.cands[cell] & !bit;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.drop_position(units[0], ks[0], e);
            self.drop_position(units[1], ks[1], e);
            self.drop_position(units[2], ks[2], e);
        }
        self.cands[cell] = 0;
        self.values[cell] = digit;
        self.empty -= 1;
        for j in 0..3 {
            let u = units[j];
            let open = self.open[u] & !(1 << ks[j]);
            self.open[u] = open;
            // A unit enters the set when one empty cell is left and leaves it when none
            // is: the bit flips exactly when at most one is left.
            self.last_empty ^= u32::from(open & open.wrapping_sub(1) == 0) << u;
        }
        // The peers holding the digit are its positions in the three units, walked in one
        // loop over 27 slots (a peer in the box and the row or column is taken in the
        // line); each loses the digit and its positions in its units.
        let [r, c, b] = units;
        let mut slots = u32::from(self.pos[r * 9 + i] & !(1 << ks[0]))
            | u32::from(self.pos[c * 9 + i] & !(1 << ks[1])) << 9
            | u32::from(self.pos[b * 9 + i] & !BOX_LINES[usize::from(ks[2])]) << 18;
        while slots != 0 {
            let p = usize::from(PEER_SLOTS[cell][slots.trailing_zeros() as usize]);
            slots &= slots - 1;
            self.cands[p] &= !bit;
            let [pr, pc, pb] = CELL_UNITS[p].map(usize::from);
            let [kr, kc, kb] = CELL_POS[p];
            self.drop_position(pr, kr, i);
            self.drop_position(pc, kc, i);
            self.drop_position(pb, kb, i);
        }
        for &u in &units {
            self.pos[u * 9 + i] = 0;
        }
    }

    /// Places singles of the `allowed` kinds while there are any, as
    /// [`super::singles::fill_singles`] does: how many and the hardest kind.
    pub(crate) fn fill(&mut self, allowed: Techniques) -> (usize, Option<Technique>) {
        let mut count = 0;
        let mut hardest = None;
        while let Some((t, cell, d)) = self.find(allowed) {
            self.place(cell, d);
            count += 1;
            hardest = hardest.max(Some(t));
        }
        (count, hardest)
    }
}
