//! The fixed structure of each size (units, peers, the units of each cell), built at
//! compile time.

use super::CellSet;
use crate::grid::Size;

/// The fixed structure of a size: the cells of each unit and the peers of each cell.
///
/// Units are numbered rows `0..n`, columns `n..2n`, boxes `2n..3n`.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub size: Size,
    pub n: usize,
    /// The number of 64-bit words of a [`CellSet`] that cells of this size use.
    pub words: usize,
    /// The cells of each unit in order (row-major inside a box).
    pub units: &'static [[u16; 25]],
    /// The cells of each unit as a set.
    pub unit_sets: &'static [CellSet],
    /// The cells sharing a unit with each cell, the cell itself excluded.
    pub peers: &'static [CellSet],
    /// The row, column and box unit of each cell.
    pub cell_units: &'static [[u8; 3]],
    /// The position of each cell inside its row, column and box (the index into `units`).
    pub cell_pos: &'static [[u8; 3]],
}

impl Geometry {
    pub fn row(&self, cell: usize) -> usize {
        usize::from(self.cell_units[cell][0])
    }
    pub fn col(&self, cell: usize) -> usize {
        usize::from(self.cell_units[cell][1]) - self.n
    }
    pub fn boxi(&self, cell: usize) -> usize {
        usize::from(self.cell_units[cell][2]) - 2 * self.n
    }
    /// The three units (row, column, box) of a cell.
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }
    /// Whether two distinct cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.peers[a].contains(b)
    }
}

const fn unit_cell_const(size: Size, unit: usize, k: usize) -> usize {
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    if unit < n {
        unit * n + k
    } else if unit < 2 * n {
        k * n + (unit - n)
    } else {
        let b = unit - 2 * n;
        let stacks = n / bc;
        let r = (b / stacks) * br + k / bc;
        let c = (b % stacks) * bc + k % bc;
        r * n + c
    }
}

const fn build_units<const U: usize>(size: Size) -> [[u16; 25]; U] {
    let mut out = [[0u16; 25]; U];
    let n = size.side();
    let mut u = 0;
    while u < U {
        let mut k = 0;
        while k < n {
            out[u][k] = unit_cell_const(size, u, k) as u16;
            k += 1;
        }
        u += 1;
    }
    out
}

const fn build_unit_sets<const U: usize>(size: Size) -> [CellSet; U] {
    let mut out = [CellSet::EMPTY; U];
    let n = size.side();
    let mut u = 0;
    while u < U {
        let mut k = 0;
        while k < n {
            out[u].insert(unit_cell_const(size, u, k));
            k += 1;
        }
        u += 1;
    }
    out
}

const fn build_peers<const C: usize, const U: usize>(size: Size) -> [CellSet; C] {
    let sets: [CellSet; U] = build_unit_sets(size);
    let n = size.side();
    let mut out = [CellSet::EMPTY; C];
    let mut cell = 0;
    while cell < C {
        let (r, c) = (cell / n, cell % n);
        let b = size.box_of(r, c);
        let mut s = sets[r].union_const(&sets[n + c]);
        s = s.union_const(&sets[2 * n + b]);
        s.remove(cell);
        out[cell] = s;
        cell += 1;
    }
    out
}

const fn build_cell_units<const C: usize>(size: Size) -> [[u8; 3]; C] {
    let n = size.side();
    let mut out = [[0u8; 3]; C];
    let mut cell = 0;
    while cell < C {
        let (r, c) = (cell / n, cell % n);
        out[cell] = [r as u8, (n + c) as u8, (2 * n + size.box_of(r, c)) as u8];
        cell += 1;
    }
    out
}

const fn build_cell_pos<const C: usize>(size: Size) -> [[u8; 3]; C] {
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    let mut out = [[0u8; 3]; C];
    let mut cell = 0;
    while cell < C {
        let (r, c) = (cell / n, cell % n);
        out[cell] = [c as u8, r as u8, ((r % br) * bc + c % bc) as u8];
        cell += 1;
    }
    out
}

macro_rules! geometry_of {
    ($size:expr, $n:literal) => {{
        static UNITS: [[u16; 25]; 3 * $n] = build_units($size);
        static UNIT_SETS: [CellSet; 3 * $n] = build_unit_sets($size);
        static PEERS: [CellSet; $n * $n] = build_peers::<{ $n * $n }, { 3 * $n }>($size);
        static CELL_UNITS: [[u8; 3]; $n * $n] = build_cell_units($size);
        static CELL_POS: [[u8; 3]; $n * $n] = build_cell_pos($size);
        static GEOMETRY: Geometry = Geometry {
            size: $size,
            n: $n,
            words: ($n * $n as usize).div_ceil(64),
            units: &UNITS,
            unit_sets: &UNIT_SETS,
            peers: &PEERS,
            cell_units: &CELL_UNITS,
            cell_pos: &CELL_POS,
        };
        &GEOMETRY
    }};
}

/// The geometry of a size (built at compile time).
pub(crate) fn geometry(size: Size) -> &'static Geometry {
    match size {
        Size::Four => geometry_of!(Size::Four, 4),
        Size::Six => geometry_of!(Size::Six, 6),
        Size::Nine => geometry_of!(Size::Nine, 9),
        Size::Sixteen => geometry_of!(Size::Sixteen, 16),
        Size::TwentyFive => geometry_of!(Size::TwentyFive, 25),
    }
}
