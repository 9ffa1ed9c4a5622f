//! Chains and the last resorts: X-chains, XY-chains, alternating inference chains (AIC),
//! ALS-XZ, the contradiction forcing chain and net, and trial and error.
//!
//! The three chain kinds are one breadth-first search over candidates with different
//! links allowed. A chain starts from a candidate assumed false and alternates strong
//! links ("if this is false, that is true": a unit with two places for a digit, or a cell
//! with two candidates) and weak links ("if this is true, that is false"); it ends on a
//! candidate that is then true. So the first or the last candidate is true, and whatever
//! both rule out goes.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::{Step, Technique, cells_text, digits_text, eliminations_text, find, step};
use crate::candidates::{Candidates, CellSet, Digits, cell_name};
use crate::grid::Grid;
use crate::symbol_char;

/// Which links a chain may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Links {
    /// One digit, strong links in units only.
    XChain,
    /// Strong links inside bivalue cells only, weak links between cells on one digit.
    XYChain,
    /// Every strong and weak link.
    Aic,
}

/// A chain found: its number of strong links, its states and its eliminations.
type Found = (u16, Vec<u32>, Vec<(usize, u8)>);

/// The shortest chain of the given kind that eliminates something.
pub(crate) fn chain(state: &Candidates, links: Links) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    let nodes = n * n * n;
    let mut seen = vec![u32::MAX; 2 * nodes];
    let mut parent = vec![u32::MAX; 2 * nodes];
    let mut depth = vec![0u16; 2 * nodes];
    let mut queue: Vec<u32> = Vec::with_capacity(2 * nodes);
    // The shortest chain so far: its strong links, its states, its eliminations.
    let mut best: Option<Found> = None;
    let node = |c: usize, d: u8| c * n + usize::from(d) - 1;
    let mut stamp = 0u32;
    for start_cell in 0..n * n {
        for start_digit in state.candidates(start_cell).iter() {
            stamp += 1;
            let start = node(start_cell, start_digit);
            let max_depth = best.as_ref().map_or(u16::MAX, |b| b.0 - 1);
            if max_depth < 2 {
                return best.map(|b| chain_step(state, links, &b.1, b.2));
            }
            queue.clear();
            let s0 = (2 * start) as u32; // off state
            seen[s0 as usize] = stamp;
            depth[s0 as usize] = 0;
            queue.push(s0);
            let mut head = 0;
            'bfs: while head < queue.len() {
                let s = queue[head] as usize;
                head += 1;
                let (nd, on) = (s / 2, s % 2 == 1);
                let (c, d) = (nd / n, (nd % n) as u8 + 1);
                let dep = depth[s];
                if !on {
                    // Strong links: from "c is not d" to what is then true.
                    if dep >= max_depth {
                        continue;
                    }
                    let mut targets: [usize; 4] = [usize::MAX; 4];
                    let mut k = 0;
                    if links != Links::XYChain {
                        for u in geo.units_of(c) {
                            let s2 = *state.cells_with(d) & geo.unit_sets[u];
                            if s2.len() == 2 {
                                let other = s2.iter().find(|&x| x != c).expect("two");
                                targets[k] = node(other, d);
                                k += 1;
                            }
                        }
                    }
                    if links != Links::XChain {
                        let cd = state.candidates(c);
                        if cd.len() == 2 {
                            let e = (cd - Digits::single(d)).first().expect("two");
                            targets[k] = node(c, e);
                            k += 1;
                        }
                    }
                    for &t in &targets[..k] {
                        let t_on = 2 * t + 1;
                        if t == start
                            || !visit(
                                &mut seen,
                                &mut parent,
                                &mut depth,
                                &mut queue,
                                stamp,
                                s,
                                t_on,
                                dep + 1,
                            )
                        {
                            continue;
                        }
                        if dep + 1 >= 2 {
                            let elims = chain_eliminations(state, links, start, t);
                            if !elims.is_empty() {
                                let mut path = vec![t_on as u32];
                                let mut x = t_on;
                                while x != s0 as usize {
                                    x = parent[x] as usize;
                                    path.push(x as u32);
                                }
                                path.reverse();
                                best = Some((dep + 1, path, elims));
                                break 'bfs;
                            }
                        }
                    }
                } else {
                    // Weak links: from "c is d" to what is then false.
                    for p in (*state.cells_with(d) & geo.peers[c]).iter() {
                        visit(
                            &mut seen,
                            &mut parent,
                            &mut depth,
                            &mut queue,
                            stamp,
                            s,
                            2 * node(p, d),
                            dep,
                        );
                    }
                    if links == Links::Aic {
                        for e in (state.candidates(c) - Digits::single(d)).iter() {
                            visit(
                                &mut seen,
                                &mut parent,
                                &mut depth,
                                &mut queue,
                                stamp,
                                s,
                                2 * node(c, e),
                                dep,
                            );
                        }
                    }
                }
            }
        }
    }
    best.map(|b| chain_step(state, links, &b.1, b.2))
}

/// Marks state `t` reached from `s` at `dep` strong links; whether it was new.
#[allow(clippy::too_many_arguments)]
fn visit(
    seen: &mut [u32],
    parent: &mut [u32],
    depth: &mut [u16],
    queue: &mut Vec<u32>,
    stamp: u32,
    s: usize,
    t: usize,
    dep: u16,
) -> bool {
    if seen[t] == stamp {
        return false;
    }
    seen[t] = stamp;
    parent[t] = s as u32;
    depth[t] = dep;
    queue.push(t as u32);
    true
}

/// What "the candidate `a` or the candidate `e` is true" rules out.
fn chain_eliminations(state: &Candidates, links: Links, a: usize, e: usize) -> Vec<(usize, u8)> {
    let geo = state.geo();
    let n = geo.n;
    let (ca, da) = (a / n, (a % n) as u8 + 1);
    let (ce, de) = (e / n, (e % n) as u8 + 1);
    let mut out = Vec::new();
    if da == de && ca != ce {
        let elim = (*state.cells_with(da) & geo.peers[ca]) & geo.peers[ce];
        out.extend(elim.iter().map(|c| (c, da)));
    } else if ca == ce && da != de {
        let rest = state.candidates(ca) - Digits::single(da) - Digits::single(de);
        out.extend(rest.iter().map(|d| (ca, d)));
    } else if links == Links::Aic && geo.sees(ca, ce) {
        if state.has(ce, da) {
            out.push((ce, da));
        }
        if state.has(ca, de) {
            out.push((ca, de));
        }
    }
    out
}

fn chain_step(state: &Candidates, links: Links, path: &[u32], elims: Vec<(usize, u8)>) -> Step {
    let geo = state.geo();
    let n = geo.n;
    let size = geo.size;
    let nodes: Vec<(usize, u8)> = path
        .iter()
        .map(|&s| {
            let nd = s as usize / 2;
            (nd / n, (nd % n) as u8 + 1)
        })
        .collect();
    let mut notation = String::new();
    for (i, &(c, d)) in nodes.iter().enumerate() {
        if i > 0 {
            notation.push_str(if i % 2 == 1 { "=" } else { "-" });
        }
        let _ = write!(notation, "{}{}", symbol_char(d), cell_name(size, c));
    }
    let (a, e) = (nodes[0], nodes[nodes.len() - 1]);
    let text = format!(
        "If {} is not {}, then {} is {} (chain {}); so one of them is true: {}.",
        cell_name(size, a.0),
        symbol_char(a.1),
        cell_name(size, e.0),
        symbol_char(e.1),
        notation,
        eliminations_text(size, &elims)
    );
    let technique = match links {
        Links::XChain => Technique::XChain,
        Links::XYChain => Technique::XYChain,
        Links::Aic => Technique::Aic,
    };
    let mut cells: Vec<usize> = nodes.iter().map(|&(c, _)| c).collect();
    cells.dedup();
    step(technique, cells, nodes, Vec::new(), elims, text)
}

/// An almost locked set: `k` cells of one unit with `k + 1` candidates between them.
#[derive(Debug, Clone, Copy)]
struct Als {
    cells: CellSet,
    digits: Digits,
}

fn almost_locked_sets(state: &Candidates) -> Vec<Als> {
    let geo = state.geo();
    let n = geo.n;
    let max = if n <= 9 { 4 } else { 3 };
    let mut out: Vec<Als> = Vec::new();
    for u in 0..3 * n {
        let empty: Vec<usize> = geo.units[u][..n]
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| state.value(c).is_none())
            .collect();
        let mut idx: Vec<usize> = Vec::with_capacity(max);
        fn go(
            state: &Candidates,
            empty: &[usize],
            start: usize,
            max: usize,
            idx: &mut Vec<usize>,
            digits: Digits,
            out: &mut Vec<Als>,
        ) {
            for i in start..empty.len() {
                let d = digits | state.candidates(empty[i]);
                if d.len() > max + 1 {
                    continue;
                }
                idx.push(i);
                if d.len() == idx.len() + 1 {
                    let cells: CellSet = idx.iter().map(|&j| empty[j]).collect();
                    if !out.iter().any(|a| a.cells == cells) {
                        out.push(Als { cells, digits: d });
                    }
                }
                if idx.len() < max {
                    go(state, empty, i + 1, max, idx, d, out);
                }
                idx.pop();
            }
        }
        go(state, &empty, 0, max, &mut idx, Digits::EMPTY, &mut out);
    }
    out
}

/// Two almost locked sets A and B with a restricted common digit x (every x of A sees
/// every x of B, so x is in at most one of them): the other is then locked, so a second
/// common digit z is in A or in B and leaves every cell seeing all the z of both.
pub(crate) fn als_xz(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let size = geo.size;
    let sets = almost_locked_sets(state);
    let sees_all = |cells: &CellSet| {
        let mut s = !CellSet::EMPTY;
        for c in cells.iter() {
            s &= geo.peers[c];
        }
        s
    };
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            let common = a.digits & b.digits;
            if common.len() < 2 || a.cells.intersects(&b.cells) {
                continue;
            }
            for x in common.iter() {
                let xa = *state.cells_with(x) & a.cells;
                let xb = *state.cells_with(x) & b.cells;
                if !xa.iter().all(|c| (xb - geo.peers[c]).is_empty()) {
                    continue;
                }
                for z in (common - Digits::single(x)).iter() {
                    let zs = (*state.cells_with(z) & a.cells) | (*state.cells_with(z) & b.cells);
                    let elim = ((*state.cells_with(z) & sees_all(&zs)) - a.cells) - b.cells;
                    if elim.is_empty() {
                        continue;
                    }
                    let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, z)).collect();
                    let text = format!(
                        "{} hold {} and {} hold {}; they cannot both hold {}, so one of them is locked and {} is in one of them: {}.",
                        cells_text(size, a.cells.iter()),
                        digits_text(a.digits),
                        cells_text(size, b.cells.iter()),
                        digits_text(b.digits),
                        symbol_char(x),
                        symbol_char(z),
                        eliminations_text(size, &eliminations)
                    );
                    let both = a.cells | b.cells;
                    let candidates = both
                        .iter()
                        .flat_map(|c| state.candidates(c).iter().map(move |d| (c, d)))
                        .collect();
                    return Some(step(
                        Technique::AlsXz,
                        both.iter().collect(),
                        candidates,
                        Vec::new(),
                        eliminations,
                        text,
                    ));
                }
            }
        }
    }
    None
}

/// Fills singles (and with `net`, applies the basic techniques) until stuck; whether a
/// contradiction appeared. The placements go to `placed`.
fn propagate(state: &mut Candidates, net: bool, placed: &mut Vec<(usize, u8)>) -> bool {
    let geo = state.geo();
    let n = geo.n;
    loop {
        let mut progress = false;
        for c in 0..n * n {
            if state.value(c).is_some() {
                continue;
            }
            let d = state.candidates(c);
            match d.len() {
                0 => return true,
                1 => {
                    let d = d.first().expect("one");
                    state.place(c, d);
                    placed.push((c, d));
                    progress = true;
                }
                _ => {}
            }
        }
        for u in 0..3 * n {
            // Digit by digit upwards, reading the unit's hidden singles again after each
            // placement.
            let mut from = 0;
            loop {
                let h = state.hidden_in(u).bits() >> from;
                if h == 0 {
                    break;
                }
                let i = from + h.trailing_zeros();
                from = i + 1;
                let d = i as u8 + 1;
                let k = state.positions(u, d).trailing_zeros() as usize;
                let c = usize::from(geo.units[u][k]);
                state.place(c, d);
                placed.push((c, d));
                progress = true;
            }
        }
        if state.is_broken() {
            return true;
        }
        if progress {
            continue;
        }
        if !net {
            return false;
        }
        // The basic techniques from pointing to the naked triple, simplest first.
        let basic = Technique::Pointing..=Technique::NakedTriple;
        match Technique::ALL
            .iter()
            .filter(|t| basic.contains(*t))
            .find_map(|&t| find(t, state))
        {
            Some(s) => s.apply(state),
            None => return false,
        }
    }
}

/// Cells with candidates, fewest candidates first.
fn cells_by_candidates(state: &Candidates) -> Vec<usize> {
    let n = state.side();
    let mut cells: Vec<usize> = (0..n * n)
        .filter(|&c| state.candidates(c).len() >= 2)
        .collect();
    cells.sort_by_key(|&c| state.candidates(c).len());
    cells
}

/// Cells and digits placed.
type Placements = Vec<(usize, u8)>;

/// A forcing chain, by singles (with `net`, singles and the basic techniques):
/// - a contradiction: a candidate whose placement leads to a contradiction goes;
/// - a cell forcing chain: whatever a cell holds, the consequences agree;
/// - a unit forcing chain: wherever a digit goes in a unit, the consequences agree.
///
/// The branches are exhaustive, so a candidate that no (non-contradictory) branch keeps is
/// gone and a digit every branch places is true.
pub(crate) fn forcing(state: &Candidates, net: bool) -> Option<Step> {
    let size = state.size();
    let n = size.side();
    let technique = if net {
        Technique::ForcingNet
    } else {
        Technique::ForcingChain
    };
    let how = if net {
        "singles and the basic techniques"
    } else {
        "singles"
    };
    let mut scratch = state.clone();
    let mut placed = Vec::new();
    let mut possible = vec![Digits::EMPTY; n * n];
    // Branch on every candidate of a cell, then on every place of a digit in a unit.
    let mut sources: Vec<(Option<usize>, Placements)> = cells_by_candidates(state)
        .into_iter()
        .map(|c| {
            let b = state.candidates(c).iter().map(|d| (c, d)).collect();
            (None, b)
        })
        .collect();
    for u in 0..3 * n {
        for d in 1..=n as u8 {
            let here = *state.cells_with(d) & state.geo().unit_sets[u];
            if here.len() >= 2 {
                sources.push((Some(u), here.iter().map(|c| (c, d)).collect()));
            }
        }
    }
    sources.sort_by_key(|s| s.1.len());
    for (unit, branches) in &sources {
        possible.iter_mut().for_each(|p| *p = Digits::EMPTY);
        let mut contradiction: Option<((usize, u8), Placements, String)> = None;
        for &(c, d) in branches {
            scratch.clone_from(state);
            placed.clear();
            scratch.place(c, d);
            if propagate(&mut scratch, net, &mut placed) {
                if contradiction
                    .as_ref()
                    .is_none_or(|b| placed.len() < b.1.len())
                {
                    contradiction = Some(((c, d), placed.clone(), why_broken(&scratch)));
                }
                continue;
            }
            for (x, p) in possible.iter_mut().enumerate() {
                *p |= match scratch.value(x) {
                    Some(v) => Digits::single(v),
                    None => scratch.candidates(x),
                };
            }
        }
        if let Some(((c, d), placed, why)) = contradiction {
            let text = format!(
                "If {} were {}, {} would give {}and then {why}, so it is not {}.",
                cell_name(size, c),
                symbol_char(d),
                how,
                placements_text(size, &placed),
                symbol_char(d)
            );
            let mut cells = vec![c];
            cells.extend(placed.iter().map(|&(pc, _)| pc));
            let mut candidates = vec![(c, d)];
            candidates.extend_from_slice(&placed);
            return Some(step(
                technique,
                cells,
                candidates,
                Vec::new(),
                vec![(c, d)],
                text,
            ));
        }
        let mut eliminations = Vec::new();
        let mut placements = Vec::new();
        for (x, &p) in possible.iter().enumerate() {
            if state.value(x).is_some() {
                continue;
            }
            eliminations.extend((state.candidates(x) - p).iter().map(|e| (x, e)));
            if p.len() == 1 && state.candidates(x).len() > 1 {
                placements.push((x, p.first().expect("one")));
            }
        }
        if eliminations.is_empty() && placements.is_empty() {
            continue;
        }
        let (c0, d0) = branches[0];
        let source = match unit {
            None => format!(
                "Whichever of {} {} holds",
                digits_text(state.candidates(c0)).replace(" and ", " or "),
                cell_name(size, c0)
            ),
            Some(u) => format!(
                "Wherever {} goes in {} ({})",
                symbol_char(d0),
                super::unit_of(state.geo(), *u),
                cells_text(size, branches.iter().map(|&(c, _)| c)).replace(" and ", " or ")
            ),
        };
        let mut parts: Vec<String> = Vec::new();
        if !placements.is_empty() {
            let text = placements_text(size, &placements);
            parts.push(format!("give {}", text.trim_end_matches(", ")));
        }
        if !eliminations.is_empty() {
            parts.push(format!(
                "rule out {}",
                eliminations_text(size, &eliminations)
            ));
        }
        let text = format!("{source}, {how} always {}.", parts.join(" and "));
        let cells = branches.iter().map(|&(c, _)| c).collect();
        return Some(step(
            technique,
            cells,
            branches.clone(),
            placements,
            eliminations,
            text,
        ));
    }
    None
}

/// What is impossible in a broken state, e.g. "r4c5 would have no candidate".
fn why_broken(state: &Candidates) -> String {
    let geo = state.geo();
    let n = geo.n;
    if let Some(c) =
        (0..n * n).find(|&c| state.value(c).is_none() && state.candidates(c).is_empty())
    {
        return format!("{} would have no candidate", cell_name(geo.size, c));
    }
    for u in 0..3 * n {
        let mut placed = Digits::EMPTY;
        let mut possible = Digits::EMPTY;
        for &c in &geo.units[u][..n] {
            let c = usize::from(c);
            match state.value(c) {
                Some(v) if placed.contains(v) => {
                    return format!(
                        "{} would hold {} twice",
                        super::unit_of(geo, u),
                        symbol_char(v)
                    );
                }
                Some(v) => placed.insert(v),
                None => possible |= state.candidates(c),
            }
        }
        if let Some(d) = (Digits::all(n) - placed - possible).first() {
            return format!(
                "{} would have no place for {}",
                super::unit_of(geo, u),
                symbol_char(d)
            );
        }
    }
    String::from("a contradiction")
}

/// "r1c2=3, r4c5=6 and 3 more, " (empty for no placement).
fn placements_text(size: crate::Size, placed: &[(usize, u8)]) -> String {
    let mut line = String::new();
    for &(pc, pd) in placed.iter().take(6) {
        let _ = write!(line, "{}={}, ", cell_name(size, pc), symbol_char(pd));
    }
    if placed.len() > 6 {
        let _ = write!(line, "and {} more, ", placed.len() - 6);
    }
    line
}

/// Every candidate, cells with the fewest candidates first: the order in which the last
/// resorts try their assumptions.
fn assumptions(state: &Candidates) -> impl Iterator<Item = (usize, u8)> + '_ {
    cells_by_candidates(state)
        .into_iter()
        .flat_map(move |c| state.candidates(c).iter().map(move |d| (c, d)))
}

/// The step removing `d` from `c` because assuming it fails, as `text` says.
fn refuted(technique: Technique, c: usize, d: u8, text: String) -> Step {
    step(
        technique,
        vec![c],
        vec![(c, d)],
        Vec::new(),
        vec![(c, d)],
        text,
    )
}

/// The first candidate (fewest candidates first) whose placement leads by singles to a
/// contradiction, using `scratch` as the work space.
fn first_contradiction(
    state: &Candidates,
    scratch: &mut Candidates,
    placed: &mut Placements,
) -> Option<(usize, u8)> {
    assumptions(state).find(|&(c, d)| {
        scratch.clone_from(state);
        placed.clear();
        scratch.place(c, d);
        propagate(scratch, false, placed)
    })
}

/// A nested forcing chain: assuming a candidate, the forcing net's propagation, helped by
/// forcing chains found inside the assumption (each one's elimination applied), reaches a
/// contradiction. Sudoku Explainer's hardest ratings come from such nesting.
pub(crate) fn nested_forcing(state: &Candidates) -> Option<Step> {
    let size = state.size();
    let mut outer = state.clone();
    let mut inner = state.clone();
    let mut placed = Vec::new();
    let mut inner_placed = Vec::new();
    for (c, d) in assumptions(state) {
        outer.clone_from(state);
        placed.clear();
        outer.place(c, d);
        let mut inside = 0;
        let broken = loop {
            if propagate(&mut outer, true, &mut placed) {
                break true;
            }
            match first_contradiction(&outer, &mut inner, &mut inner_placed) {
                Some((c2, d2)) => {
                    outer.eliminate(c2, d2);
                    inside += 1;
                }
                None => break false,
            }
        };
        if broken {
            let text = format!(
                "If {} were {}, singles, the basic techniques and {inside} forcing chains inside that assumption would give {}and then {}, so it is not {}.",
                cell_name(size, c),
                symbol_char(d),
                placements_text(size, &placed),
                why_broken(&outer),
                symbol_char(d)
            );
            return Some(refuted(Technique::NestedForcing, c, d, text));
        }
    }
    None
}

/// A candidate whose placement leaves the grid without a solution, found by an exhaustive
/// search: the last resort, always available on a proper puzzle with an undecided cell.
pub(crate) fn trial(state: &Candidates) -> Option<Step> {
    let size = state.size();
    let mut cells = state.to_grid().cells().to_vec();
    for (c, d) in assumptions(state) {
        cells[c] = d;
        let g = Grid::from_cells(size, &cells).expect("symbols in range");
        cells[c] = 0;
        if g.count_solutions(1) == 0 {
            let text = format!(
                "Trying {} in {} leaves the grid without a solution (found by search), so it is not {}.",
                symbol_char(d),
                cell_name(size, c),
                symbol_char(d)
            );
            return Some(refuted(Technique::Trial, c, d, text));
        }
    }
    None
}
