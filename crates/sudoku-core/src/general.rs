//! The general solver for every size: one candidate bitmask per cell, naked and hidden
//! singles propagation, minimum-remaining-values branching, an optional node budget.

use alloc::vec;
use alloc::vec::Vec;

use crate::grid::{Size, unit_cell};

/// The units and peers of a size.
pub(crate) struct Geometry {
    n: usize,
    full: u32,
    /// 3n units of n cells each: rows, columns, boxes.
    units: Vec<u16>,
    /// For every cell, its peers (same row, column or box), `npeers` each.
    peers: Vec<u16>,
    npeers: usize,
}

impl Geometry {
    pub(crate) fn new(size: Size) -> Geometry {
        let n = size.side();
        let mut units = Vec::with_capacity(3 * n * n);
        for kind in 0..3 {
            for u in 0..n {
                for k in 0..n {
                    let (r, c) = unit_cell(size, kind, u, k);
                    units.push((r * n + c) as u16);
                }
            }
        }
        let mut peers = Vec::new();
        let mut npeers = 0;
        for cell in 0..n * n {
            let (r, c) = (cell / n, cell % n);
            let b = size.box_of(r, c);
            let start = peers.len();
            for other in 0..n * n {
                let (r2, c2) = (other / n, other % n);
                if other != cell && (r2 == r || c2 == c || size.box_of(r2, c2) == b) {
                    peers.push(other as u16);
                }
            }
            npeers = peers.len() - start;
        }
        Geometry {
            n,
            full: if n == 32 { u32::MAX } else { (1 << n) - 1 },
            units,
            peers,
            npeers,
        }
    }

    fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.npeers..(cell + 1) * self.npeers]
    }

    fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }
}

/// The search stopped because it ran out of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutOfNodes;

#[derive(Clone)]
struct State {
    cand: Vec<u32>,
    fixed: Vec<bool>,
    left: usize,
}

struct Contradiction;

impl State {
    fn assign(&mut self, cell: usize, v: u32, queue: &mut Vec<u16>) -> Result<(), Contradiction> {
        if self.cand[cell] & v == 0 {
            return Err(Contradiction);
        }
        self.cand[cell] = v;
        self.fixed[cell] = true;
        self.left -= 1;
        queue.push(cell as u16);
        Ok(())
    }

    /// Removes the value of every queued cell from its peers, assigning (and queueing)
    /// the peers left with one candidate, until the queue is empty.
    fn eliminate_from_peers(
        &mut self,
        g: &Geometry,
        queue: &mut Vec<u16>,
    ) -> Result<(), Contradiction> {
        while let Some(c) = queue.pop() {
            let v = self.cand[usize::from(c)];
            for &p in g.peers(usize::from(c)) {
                let p = usize::from(p);
                let x = self.cand[p];
                if x & v != 0 {
                    let x = x & !v;
                    self.cand[p] = x;
                    if x == 0 {
                        return Err(Contradiction);
                    }
                    if !self.fixed[p] && x & (x - 1) == 0 {
                        self.assign(p, x, queue)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn propagate(&mut self, g: &Geometry, queue: &mut Vec<u16>) -> Result<(), Contradiction> {
        loop {
            self.eliminate_from_peers(g, queue)?;
            let mut progress = false;
            for u in 0..3 * g.n {
                let cells = g.unit(u);
                let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
                for &c in cells {
                    let x = self.cand[usize::from(c)];
                    twice |= once & x;
                    once |= x;
                    if self.fixed[usize::from(c)] {
                        placed |= x;
                    }
                }
                if once != g.full {
                    return Err(Contradiction);
                }
                let hidden = once & !twice & !placed;
                if hidden != 0 {
                    for &c in cells {
                        let c = usize::from(c);
                        let h = self.cand[c] & hidden;
                        if h != 0 && !self.fixed[c] {
                            if h & (h - 1) != 0 {
                                return Err(Contradiction);
                            }
                            self.assign(c, h, queue)?;
                        }
                    }
                    progress = true;
                    self.eliminate_from_peers(g, queue)?;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    fn values(&self) -> Vec<u8> {
        self.cand
            .iter()
            .map(|&x| x.trailing_zeros() as u8 + 1)
            .collect()
    }
}

/// What the visitor decided.
enum Flow {
    Continue,
    Stop,
}

struct Search<'a> {
    g: &'a Geometry,
    nodes_left: u64,
    queue: Vec<u16>,
}

impl Search<'_> {
    fn run(
        &mut self,
        mut state: State,
        found: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<Flow, OutOfNodes> {
        loop {
            if state.left == 0 {
                return Ok(if found(&state.values()) {
                    Flow::Continue
                } else {
                    Flow::Stop
                });
            }
            if self.nodes_left == 0 {
                return Err(OutOfNodes);
            }
            self.nodes_left -= 1;
            // Minimum remaining values.
            let mut best = usize::MAX;
            let mut best_count = u32::MAX;
            for (c, &x) in state.cand.iter().enumerate() {
                if !state.fixed[c] {
                    let k = x.count_ones();
                    if k < best_count {
                        best_count = k;
                        best = c;
                        if k <= 2 {
                            break;
                        }
                    }
                }
            }
            let mut digits = state.cand[best];
            if digits == 0 {
                return Ok(Flow::Continue);
            }
            while digits & (digits - 1) != 0 {
                let v = digits & digits.wrapping_neg();
                digits &= digits - 1;
                let mut child = state.clone();
                self.queue.clear();
                if child.assign(best, v, &mut self.queue).is_ok()
                    && child.propagate(self.g, &mut self.queue).is_ok()
                    && let Flow::Stop = self.run(child, found)?
                {
                    return Ok(Flow::Stop);
                }
            }
            self.queue.clear();
            if state.assign(best, digits, &mut self.queue).is_err()
                || state.propagate(self.g, &mut self.queue).is_err()
            {
                return Ok(Flow::Continue);
            }
        }
    }
}

/// Visits the solutions of `cells` (a grid of `size`) until `found` returns `false`, within
/// `max_nodes` branching nodes.
pub(crate) fn for_each_solution(
    size: Size,
    cells: &[u8],
    max_nodes: u64,
    found: &mut dyn FnMut(&[u8]) -> bool,
) -> Result<(), OutOfNodes> {
    let g = Geometry::new(size);
    let n = size.side();
    let mut state = State {
        cand: vec![g.full; n * n],
        fixed: vec![false; n * n],
        left: n * n,
    };
    let mut queue = Vec::new();
    // Clashing givens empty each other during propagation.
    for (cell, &v) in cells.iter().enumerate() {
        if v != 0 && state.assign(cell, 1 << (v - 1), &mut queue).is_err() {
            return Ok(());
        }
    }
    if state.propagate(&g, &mut queue).is_err() {
        return Ok(());
    }
    let mut search = Search {
        g: &g,
        nodes_left: max_nodes,
        queue,
    };
    search.run(state, found).map(|_| ())
}
