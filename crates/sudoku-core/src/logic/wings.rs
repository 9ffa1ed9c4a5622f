//! XY-wing, XYZ-wing and W-wing.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::{Step, Technique, cells_text, eliminations_text, step};
use crate::candidates::Candidates;
use crate::symbol_char;

fn all_cells(state: &Candidates) -> core::ops::Range<usize> {
    0..state.side() * state.side()
}

/// A pivot {x, y} seeing pincers {x, z} and {y, z}: z leaves every cell seeing both pincers.
pub(crate) fn xy_wing(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    for pivot in all_cells(state) {
        let pd = state.candidates(pivot);
        if pd.len() != 2 {
            continue;
        }
        let peers = &geo.peers[pivot];
        for a in peers.iter() {
            let ad = state.candidates(a);
            if ad.len() != 2 || (ad & pd).len() != 1 {
                continue;
            }
            let z = (ad - pd).first().expect("two digits, one shared");
            let want = (pd - ad) | (ad - pd);
            for b in peers.iter().filter(|&b| b > a) {
                if state.candidates(b) != want {
                    continue;
                }
                let elim = (*state.cells_with(z) & geo.peers[a]) & geo.peers[b];
                if elim.is_empty() {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, z)).collect();
                let text = format!(
                    "{} holds {}; either way one of {} holds {}, so {} goes from the cells seeing both: {}.",
                    cells_text(geo.size, [pivot]),
                    super::digits_text(pd).replace(" and ", " or "),
                    cells_text(geo.size, [a, b]).replace(" and ", " or "),
                    symbol_char(z),
                    symbol_char(z),
                    eliminations_text(geo.size, &eliminations)
                );
                return Some(wing(
                    state,
                    Technique::XYWing,
                    vec![pivot, a, b],
                    eliminations,
                    text,
                ));
            }
        }
    }
    None
}

/// A pivot {x, y, z} seeing pincers {x, z} and {y, z}: z leaves every cell seeing all three.
pub(crate) fn xyz_wing(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    for pivot in all_cells(state) {
        let pd = state.candidates(pivot);
        if pd.len() != 3 {
            continue;
        }
        let peers = &geo.peers[pivot];
        for a in peers.iter() {
            let ad = state.candidates(a);
            if ad.len() != 2 || (ad - pd) != crate::Digits::EMPTY {
                continue;
            }
            for b in peers.iter().filter(|&b| b > a) {
                let bd = state.candidates(b);
                if bd.len() != 2 || (bd - pd) != crate::Digits::EMPTY || bd == ad {
                    continue;
                }
                let z = (ad & bd)
                    .first()
                    .expect("two pairs of a triple share a digit");
                let elim = ((*state.cells_with(z) & geo.peers[a]) & geo.peers[b]) & *peers;
                if elim.is_empty() {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, z)).collect();
                let text = format!(
                    "One of {} holds {} whatever {} holds, so {} goes from the cells seeing all three: {}.",
                    cells_text(geo.size, [pivot, a, b]).replace(" and ", " or "),
                    symbol_char(z),
                    cells_text(geo.size, [pivot]),
                    symbol_char(z),
                    eliminations_text(geo.size, &eliminations)
                );
                return Some(wing(
                    state,
                    Technique::XYZWing,
                    vec![pivot, a, b],
                    eliminations,
                    text,
                ));
            }
        }
    }
    None
}

/// Two cells {x, y} that do not see each other, joined by a strong link on x (a unit where
/// x has two places, one seeing each cell): one of them holds y, so y leaves the cells
/// seeing both.
pub(crate) fn w_wing(state: &Candidates) -> Option<Step> {
    let geo = state.geo();
    let n = geo.n;
    for a in all_cells(state) {
        let ad = state.candidates(a);
        if ad.len() != 2 {
            continue;
        }
        for b in (a + 1)..n * n {
            if state.candidates(b) != ad || geo.sees(a, b) {
                continue;
            }
            for x in ad.iter() {
                let y = (ad - crate::Digits::single(x)).first().expect("pair");
                let elim = (*state.cells_with(y) & geo.peers[a]) & geo.peers[b];
                if elim.is_empty() {
                    continue;
                }
                for u in 0..3 * n {
                    let link = *state.cells_with(x) & geo.unit_sets[u];
                    if link.len() != 2 || link.contains(a) || link.contains(b) {
                        continue;
                    }
                    let mut it = link.iter();
                    let (p, q) = (it.next().expect("two"), it.next().expect("two"));
                    let (p, q) = if geo.sees(p, a) && geo.sees(q, b) {
                        (p, q)
                    } else if geo.sees(q, a) && geo.sees(p, b) {
                        (q, p)
                    } else {
                        continue;
                    };
                    let eliminations: Vec<(usize, u8)> = elim.iter().map(|c| (c, y)).collect();
                    let text = format!(
                        "{} and {} both hold {} or {}; {} is in {} or {}, so one of them holds {}, which goes from the cells seeing both: {}.",
                        cells_text(geo.size, [a]),
                        cells_text(geo.size, [b]),
                        symbol_char(x),
                        symbol_char(y),
                        symbol_char(x),
                        cells_text(geo.size, [p]),
                        cells_text(geo.size, [q]),
                        symbol_char(y),
                        eliminations_text(geo.size, &eliminations)
                    );
                    let mut s = wing(
                        state,
                        Technique::WWing,
                        vec![a, b, p, q],
                        eliminations,
                        text,
                    );
                    s.candidates = vec![(a, x), (a, y), (b, x), (b, y), (p, x), (q, x)];
                    return Some(s);
                }
            }
        }
    }
    None
}

fn wing(
    state: &Candidates,
    technique: Technique,
    cells: Vec<usize>,
    eliminations: Vec<(usize, u8)>,
    text: alloc::string::String,
) -> Step {
    let candidates = cells
        .iter()
        .flat_map(|&c| state.candidates(c).iter().map(move |d| (c, d)))
        .collect();
    step(technique, cells, candidates, Vec::new(), eliminations, text)
}
