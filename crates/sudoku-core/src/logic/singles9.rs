//! The singles phase of a 9×9 solve on fixed arrays: no heap, no general geometry.
//!
//! [`Singles9`] keeps what [`Candidates`] keeps for the singles (cell candidates, each
//! unit's digit positions and hidden singles, the units with one empty cell) and finds and
//! places the singles in exactly the order of [`super::singles::fill_singles`], so a solve
//! that needs nothing more never builds the general state, and one that does continues
//! from [`Candidates::new`] of the grid reached, which equals the state the general
//! placements would have left (only placements happen in this phase).

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

/// The 9×9 state of the singles phase.
#[derive(Clone)]
pub(crate) struct Singles9 {
    values: [u8; 81],
    /// The candidates of each empty cell (bit `d - 1`), 0 for a filled cell.
    cands: [u16; 81],
    /// For unit `u` and digit index `i`, `pos[u * 9 + i]`: the positions inside the unit
    /// where the digit can go.
    pos: [u16; 243],
    /// For each unit, the digits with exactly one position.
    ones: [u16; 27],
    /// For each unit, the positions of its empty cells.
    open: [u16; 27],
    /// The cells with exactly one candidate (bit `cell`).
    naked: u128,
    /// The units with one empty cell (bit `u`).
    last_empty: u32,
    /// The number of empty cells.
    empty: usize,
}

impl Singles9 {
    /// The state of a 9×9 grid (`None` for another size).
    pub(crate) fn new(grid: &Grid) -> Option<Singles9> {
        if grid.size() != Size::Nine {
            return None;
        }
        let mut values = [0u8; 81];
        values.copy_from_slice(grid.cells());
        let mut held = [0u16; 27];
        let mut open = [0u16; 27];
        for (cell, &v) in values.iter().enumerate() {
            let units = CELL_UNITS[cell];
            if v != 0 {
                let b = 1u16 << (v - 1);
                held[usize::from(units[0])] |= b;
                held[usize::from(units[1])] |= b;
                held[usize::from(units[2])] |= b;
            } else {
                let ks = CELL_POS[cell];
                for j in 0..3 {
                    open[usize::from(units[j])] |= 1 << ks[j];
                }
            }
        }
        let mut s = Singles9 {
            values,
            cands: [0; 81],
            pos: [0; 243],
            ones: [0; 27],
            open,
            naked: 0,
            last_empty: 0,
            empty: 0,
        };
        for cell in 0..81 {
            if s.values[cell] != 0 {
                continue;
            }
            s.empty += 1;
            let [r, c, b] = CELL_UNITS[cell].map(usize::from);
            let mut d = ALL & !(held[r] | held[c] | held[b]);
            s.cands[cell] = d;
            s.naked |= u128::from(d.is_power_of_two()) << cell;
            let [kr, kc, kb] = CELL_POS[cell];
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                d &= d - 1;
                s.pos[r * 9 + i] |= 1 << kr;
                s.pos[c * 9 + i] |= 1 << kc;
                s.pos[b * 9 + i] |= 1 << kb;
            }
        }
        for u in 0..27 {
            s.last_empty |= u32::from(s.open[u].count_ones() == 1) << u;
            let mut ones = 0u16;
            for i in 0..9 {
                ones |= u16::from(s.pos[u * 9 + i].is_power_of_two()) << i;
            }
            s.ones[u] = ones;
        }
        Some(s)
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
        let boxes = self.last_empty >> 18;
        let lines = self.last_empty & 0x3ffff;
        for (mut m, base) in [(boxes, 18), (lines, 0)] {
            while m != 0 {
                let u = base + m.trailing_zeros() as usize;
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

    /// The first unit of `units` with a digit of one position: its cell and digit.
    fn hidden(&self, units: core::ops::Range<usize>) -> Option<(usize, u8)> {
        for u in units {
            let single = self.ones[u];
            if single != 0 {
                let i = single.trailing_zeros() as usize;
                let k = self.pos[u * 9 + i].trailing_zeros() as usize;
                return Some((usize::from(UNITS[u][k]), i as u8 + 1));
            }
        }
        None
    }

    /// The first cell with one candidate.
    fn naked_single(&self) -> Option<(usize, u8)> {
        if self.naked == 0 {
            return None;
        }
        let cell = self.naked.trailing_zeros() as usize;
        Some((cell, self.cands[cell].trailing_zeros() as u8 + 1))
    }

    /// The simplest single among `allowed`, in the order of the general search.
    fn find(&self, allowed: Techniques) -> Option<(Technique, usize, u8)> {
        let with = |t: Technique, s: Option<(usize, u8)>| s.map(|(c, d)| (t, c, d));
        if allowed.contains(Technique::FullHouse)
            && let Some(s) = with(Technique::FullHouse, self.full_house())
        {
            return Some(s);
        }
        if allowed.contains(Technique::HiddenSingleBox)
            && let Some(s) = with(Technique::HiddenSingleBox, self.hidden(18..27))
        {
            return Some(s);
        }
        if allowed.contains(Technique::HiddenSingleLine)
            && let Some(s) = with(Technique::HiddenSingleLine, self.hidden(0..18))
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
        self.ones[u] = (self.ones[u] & !(1 << i)) | (u16::from(m.is_power_of_two()) << i);
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
            for j in 0..3 {
                self.drop_position(units[j], ks[j], e);
            }
        }
        self.cands[cell] = 0;
        self.values[cell] = digit;
        self.naked &= !(1u128 << cell);
        self.empty -= 1;
        for j in 0..3 {
            let u = units[j];
            self.open[u] &= !(1 << ks[j]);
            match self.open[u].count_ones() {
                1 => self.last_empty |= 1 << u,
                0 => self.last_empty &= !(1 << u),
                _ => {}
            }
        }
        // The peers holding the digit are its positions in the three units; each loses it
        // and its position in its own units (the three units' positions are cleared after).
        for j in 0..3 {
            let u = units[j];
            let mut m = self.pos[u * 9 + i] & !(1 << ks[j]);
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = usize::from(UNITS[u][k]);
                let c = self.cands[p];
                if c & bit == 0 {
                    continue;
                }
                let c = c & !bit;
                self.cands[p] = c;
                if c.is_power_of_two() {
                    self.naked |= 1u128 << p;
                } else if c == 0 {
                    self.naked &= !(1u128 << p);
                }
                let pu = CELL_UNITS[p];
                let pk = CELL_POS[p];
                for jj in 0..3 {
                    if jj != j {
                        self.drop_position(usize::from(pu[jj]), pk[jj], i);
                    }
                }
            }
        }
        for &u in &units {
            self.pos[u * 9 + i] = 0;
            self.ones[u] &= !bit;
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
