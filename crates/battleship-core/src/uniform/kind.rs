//! The positions of the ships of one length, as bitboards.

use alloc::vec;
use alloc::vec::Vec;

use crate::coord::{Coord, Geometry};
use crate::fleet::{Orientation, Ship};
use crate::rules::Rules;

/// The positions of ships of one length, as bitboards indexed by the bow cell.
#[derive(Debug, Clone)]
pub(super) struct Kind {
    pub(super) len: u8,
    /// Bow cells of the horizontal positions that fit in the grid.
    pub(super) hbows: u128,
    /// Bow cells of the vertical positions (none for a ship of length 1).
    pub(super) vbows: u128,
    /// Forbidden zone (the ship plus, without touching, its halo) of the horizontal ship
    /// with its bow on each cell.
    pub(super) hzone: Vec<u128>,
    /// The same for vertical ships.
    pub(super) vzone: Vec<u128>,
    /// Number of positions on the empty grid.
    pub(super) total: u32,
    /// Every position by its code (horizontal ones by bow cell, then vertical ones):
    /// `(zone, bow cell, vertical)`.
    pub(super) pos: Vec<(u128, u8, bool)>,
    /// The code of the horizontal and of the vertical position with its bow on each cell.
    pub(super) hcode: Vec<u8>,
    /// See `hcode`.
    pub(super) vcode: Vec<u8>,
}

impl Kind {
    pub(super) fn new(rules: &Rules, geo: &Geometry, len: u8) -> Kind {
        let (w, h) = (rules.width(), rules.height());
        let n = geo.n();
        let mut kind = Kind {
            len,
            hbows: 0,
            vbows: 0,
            hzone: vec![0; n],
            vzone: vec![0; n],
            total: 0,
            pos: Vec::new(),
            hcode: vec![0; n],
            vcode: vec![0; n],
        };
        for i in 0..n {
            let bow = Coord::from_index(i, w);
            for o in [Orientation::Horizontal, Orientation::Vertical] {
                if len == 1 && o == Orientation::Vertical {
                    continue;
                }
                let ship = Ship::new(bow, o, len);
                if !ship.fits(rules) {
                    continue;
                }
                let cells = ship.mask(w).0;
                let zone = if rules.ships_may_touch() {
                    cells
                } else {
                    geo.dilate(cells)
                };
                if o == Orientation::Horizontal {
                    kind.hbows |= 1 << i;
                    kind.hzone[i] = zone;
                } else {
                    kind.vbows |= 1 << i;
                    kind.vzone[i] = zone;
                }
            }
        }
        debug_assert!(h > 0);
        kind.total = kind.hbows.count_ones() + kind.vbows.count_ones();
        for (bows, vertical) in [(kind.hbows, false), (kind.vbows, true)] {
            for i in crate::coord::Cells(bows).indices() {
                let code = kind.pos.len() as u8;
                if vertical {
                    kind.vcode[i] = code;
                    kind.pos.push((kind.vzone[i], i as u8, true));
                } else {
                    kind.hcode[i] = code;
                    kind.pos.push((kind.hzone[i], i as u8, false));
                }
            }
        }
        kind
    }

    /// The codes of the free positions (see [`Kind::free_bows`]), in increasing order.
    pub(super) fn free_codes(&self, taken: u128, all: u128, w: u8, mut visit: impl FnMut(u8)) {
        let (h, v) = self.free_bows(taken, all, w);
        for i in crate::coord::Cells(h).indices() {
            visit(self.hcode[i]);
        }
        for i in crate::coord::Cells(v).indices() {
            visit(self.vcode[i]);
        }
    }

    /// The bows of the horizontal and vertical positions clear of `taken`.
    #[inline]
    pub(super) fn free_bows(&self, taken: u128, all: u128, w: u8) -> (u128, u128) {
        let free = all & !taken;
        let h = free & self.hbows;
        let v = free & self.vbows;
        let w = u32::from(w);
        // runs of free cells, with the common lengths spelled out (constant shifts)
        match self.len {
            1 => (h, 0),
            2 => (h & (free >> 1), v & (free >> w)),
            3 => {
                let (fh, fv) = (free & (free >> 1), free & (free >> w));
                (h & (fh >> 1), v & (fv >> w))
            }
            4 => {
                let (fh, fv) = (free & (free >> 1), free & (free >> w));
                (h & (fh >> 1) & (fh >> 2), v & (fv >> w) & (fv >> (2 * w)))
            }
            len => {
                let (mut h, mut v) = (h, v);
                for d in 1..u32::from(len) {
                    h &= free >> d;
                    v &= free >> (d * w);
                }
                (h, v)
            }
        }
    }
}

/// Every position of a ship of length `len` on the grid of `rules`: its cells, the zone it
/// forbids to other ships (itself plus, without touching, its halo) and the ship.
pub(crate) fn positions(rules: &Rules, len: u8) -> Vec<(u128, u128, Ship)> {
    let geo = Geometry::of(rules);
    let w = rules.width();
    let mut list = Vec::new();
    for r in 0..rules.height() {
        for c in 0..w {
            let Some(bow) = Coord::new(c, r) else {
                continue;
            };
            for o in [Orientation::Horizontal, Orientation::Vertical] {
                if len == 1 && o == Orientation::Vertical {
                    continue;
                }
                let ship = Ship::new(bow, o, len);
                if ship.fits(rules) {
                    let cells = ship.mask(w).0;
                    let zone = if rules.ships_may_touch() {
                        cells
                    } else {
                        geo.dilate(cells)
                    };
                    list.push((cells, zone, ship));
                }
            }
        }
    }
    list
}
