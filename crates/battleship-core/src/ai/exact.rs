//! Exact optimal play on small grids: the least expected number of shots any shooter can
//! achieve against a uniformly random fleet, and the exact value of the greedy shooter.
//!
//! A shooter's knowledge is the set of fleets consistent with its shots: the fleets that
//! avoid every miss, cover every hit, and whose fully hit ships are exactly the ships
//! reported sunk. The fleet is uniform over the valid fleets, so after any history it is
//! uniform over that set. The optimal expected number of shots obeys
//!
//! `V(S) = min over cells c of 1 + Σ over outcomes o of P(o | S, c) · V(S after c, o)`,
//!
//! with `V = 0` once every ship is sunk. [`ExactSearch`] evaluates it by a memoised search:
//! - a position is keyed by the cells some consistent fleet covers, the hits and the sunk
//!   ships (under the no-touching rule these determine the consistent set), reduced by the
//!   symmetries of the grid;
//! - a cell no consistent fleet covers is never worth a shot, and a cell every consistent
//!   fleet covers is shot at once (it must be shot some time, and knowing it sooner never
//!   hurts);
//! - a cell is skipped when even a miss-free future could not beat the best cell found.
//!
//! This is for small grids: the number of positions grows very fast (4×4 with ships 2, 1,
//! 1 takes about 20,000 positions, 5×5 with ships 3, 2, 1, 1 about 14 million). Limits on
//! the fleets and the positions turn a search that is too large into an error.
//!
//! ```
//! use battleship_core::Rules;
//! use battleship_core::ai::ExactSearch;
//!
//! // one 1-cell ship on a 3×3 grid: any order of shots takes 5 shots on average
//! let rules = Rules::custom(3, 3, &[1])?;
//! let mut search = ExactSearch::new(&rules, 1_000)?;
//! assert_eq!(search.optimal_shots(1_000)?, 5.0);
//!
//! // ships 2, 1, 1 on 4×4: the greedy shooter is not optimal
//! let rules = Rules::custom(4, 4, &[2, 1, 1])?;
//! let mut search = ExactSearch::new(&rules, 1_000)?;
//! let optimal = search.optimal_shots(100_000)?;
//! let greedy = search.greedy_shots(100_000)?;
//! assert!((optimal - 8.5868).abs() < 1e-4 && (greedy - 8.6105).abs() < 1e-4);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use crate::coord::Cells;
use crate::rules::Rules;
use crate::uniform::positions;

/// Why an exact search cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// The search models the no-touching rule (where the sunk cells tell the sunk ships
    /// apart); rule sets whose ships may touch are not supported.
    #[error("the exact search needs rules where ships may not touch")]
    ShipsMayTouch,
    /// The rules allow more fleets than the limit given.
    #[error("more than {limit} fleets: the exact search is for small grids")]
    TooManyFleets {
        /// The limit that was passed.
        limit: usize,
    },
    /// The search met more positions than the limit given.
    #[error("more than {limit} positions: the exact search is for small grids")]
    TooManyPositions {
        /// The limit that was passed.
        limit: usize,
    },
}

/// A position: the cells some consistent fleet covers, the hits, the sunk cells.
type Key = (u128, u128, u128);

/// The memoised exact search over the fleets of one small rule set.
///
/// Values are cached between calls: asking again is immediate.
#[derive(Debug, Clone)]
pub struct ExactSearch {
    /// The ship masks of every fleet, `ships` per fleet.
    ships: Vec<u128>,
    /// The number of ships in a fleet.
    per_fleet: usize,
    /// The cells of every fleet.
    unions: Vec<u128>,
    /// The number of ship cells in a fleet.
    fleet_cells: u32,
    /// The number of cells on the grid.
    cells: usize,
    /// Every symmetry of the grid, as a map of cell indices.
    symmetries: Vec<Vec<u8>>,
    /// Solved positions: `[optimal, greedy]`.
    memo: [BTreeMap<Key, f64>; 2],
    /// The position limit of the current call.
    limit: usize,
}

/// Which value a search computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Optimal = 0,
    Greedy = 1,
}

impl ExactSearch {
    /// Lists the fleets of `rules` (at most `max_fleets` of them).
    pub fn new(rules: &Rules, max_fleets: usize) -> Result<ExactSearch, ExactError> {
        if rules.ships_may_touch() {
            return Err(ExactError::ShipsMayTouch);
        }
        let lens: Vec<usize> = rules.fleet().iter().map(|&l| usize::from(l)).collect();
        // every placement of every length in the fleet: (its cells, the cells it forbids)
        let table: Vec<Vec<(u128, u128)>> = rules
            .fleet()
            .iter()
            .map(|&len| {
                positions(rules, len)
                    .into_iter()
                    .map(|(cells, zone, _)| (cells, zone))
                    .collect()
            })
            .collect();
        let (w, h) = (usize::from(rules.width()), usize::from(rules.height()));
        let mut search = ExactSearch {
            ships: Vec::new(),
            per_fleet: lens.len(),
            unions: Vec::new(),
            fleet_cells: lens.iter().map(|&l| l as u32).sum(),
            cells: w * h,
            symmetries: symmetries(w, h),
            memo: [BTreeMap::new(), BTreeMap::new()],
            limit: 0,
        };
        let mut current = Vec::with_capacity(lens.len());
        search.list(&lens, &table, 0, 0, 0, &mut current, max_fleets)?;
        Ok(search)
    }

    /// Lists the fleets: ship `i` onwards, avoiding `forbidden`; ships of equal length in
    /// increasing placement order, so each fleet is listed once.
    #[allow(clippy::too_many_arguments)]
    fn list(
        &mut self,
        lens: &[usize],
        table: &[Vec<(u128, u128)>],
        i: usize,
        forbidden: u128,
        first: usize,
        current: &mut Vec<u128>,
        max_fleets: usize,
    ) -> Result<(), ExactError> {
        if i == lens.len() {
            if self.unions.len() == max_fleets {
                return Err(ExactError::TooManyFleets { limit: max_fleets });
            }
            self.ships.extend_from_slice(current);
            self.unions.push(current.iter().fold(0, |a, &m| a | m));
            return Ok(());
        }
        let start = if i > 0 && lens[i] == lens[i - 1] {
            first
        } else {
            0
        };
        for (j, &(m, halo)) in table[i].iter().enumerate().skip(start) {
            if m & forbidden == 0 {
                current.push(m);
                self.list(
                    lens,
                    table,
                    i + 1,
                    forbidden | halo,
                    j + 1,
                    current,
                    max_fleets,
                )?;
                current.pop();
            }
        }
        Ok(())
    }

    /// The number of valid fleets (a fleet is the set of its ships).
    pub fn fleets(&self) -> usize {
        self.unions.len()
    }

    /// The least expected number of shots to sink the whole fleet, over every shooter.
    ///
    /// Fails if the search meets more than `max_positions` positions (counting those
    /// solved by earlier calls). If the rules allow no fleet at all, there is nothing to
    /// shoot and the value is 0.
    pub fn optimal_shots(&mut self, max_positions: usize) -> Result<f64, ExactError> {
        self.root(Policy::Optimal, max_positions)
    }

    /// The expected number of shots of the greedy shooter: it always shoots the cell most
    /// likely to hold a ship, at random among equally likely cells.
    ///
    /// Fails if the search meets more than `max_positions` positions.
    pub fn greedy_shots(&mut self, max_positions: usize) -> Result<f64, ExactError> {
        self.root(Policy::Greedy, max_positions)
    }

    fn root(&mut self, policy: Policy, max_positions: usize) -> Result<f64, ExactError> {
        self.limit = max_positions;
        let all: Vec<u32> = (0..self.unions.len() as u32).collect();
        if all.is_empty() {
            return Ok(0.0);
        }
        self.value(policy, &all, 0, 0, 0)
    }

    /// How many consistent fleets cover each cell not shot yet.
    fn counts(&self, fleets: &[u32], shot: u128) -> Vec<u32> {
        let mut counts = vec![0u32; self.cells];
        for &f in fleets {
            for i in Cells(self.unions[f as usize] & !shot).indices() {
                counts[i] += 1;
            }
        }
        counts
    }

    /// The fleets of `fleets` grouped by the outcome of a shot at `cell`: whether it hits,
    /// and the cells of the ship it sinks (0 if none).
    fn outcomes(&self, fleets: &[u32], cell: usize, hit: u128) -> Vec<(bool, u128, Vec<u32>)> {
        let bit = 1u128 << cell;
        let mut groups: Vec<(bool, u128, Vec<u32>)> = Vec::new();
        for &f in fleets {
            let f_ships = &self.ships[f as usize * self.per_fleet..][..self.per_fleet];
            let key = match f_ships.iter().find(|&&s| s & bit != 0) {
                None => (false, 0),
                Some(&s) => (true, if s & !hit == bit { s } else { 0 }),
            };
            match groups.iter_mut().find(|g| (g.0, g.1) == key) {
                Some(g) => g.2.push(f),
                None => groups.push((key.0, key.1, vec![f])),
            }
        }
        groups
    }

    /// The expected shots after shooting `cell` now and following `policy` after.
    fn after_shot(
        &mut self,
        policy: Policy,
        fleets: &[u32],
        cell: usize,
        (shot, hit, sunk): (u128, u128, u128),
    ) -> Result<f64, ExactError> {
        let n = fleets.len() as f64;
        let mut v = 1.0;
        for (is_hit, ship, group) in self.outcomes(fleets, cell, hit) {
            let p = group.len() as f64 / n;
            let hit = if is_hit { hit | 1 << cell } else { hit };
            v += p * self.value(policy, &group, shot | 1 << cell, hit, sunk | ship)?;
        }
        Ok(v)
    }

    /// The position's key, the least over the symmetries of the grid.
    fn key(&self, fleets: &[u32], hit: u128, sunk: u128) -> Key {
        let covered = fleets
            .iter()
            .fold(0u128, |a, &f| a | self.unions[f as usize]);
        let map = |m: u128, sym: &[u8]| Cells(m).indices().fold(0u128, |out, i| out | 1 << sym[i]);
        self.symmetries
            .iter()
            .map(|s| (map(covered, s), map(hit, s), map(sunk, s)))
            .min()
            .unwrap_or((covered, hit, sunk))
    }

    fn value(
        &mut self,
        policy: Policy,
        fleets: &[u32],
        shot: u128,
        hit: u128,
        sunk: u128,
    ) -> Result<f64, ExactError> {
        let need = self.fleet_cells - hit.count_ones();
        if need == 0 {
            return Ok(0.0);
        }
        let key = self.key(fleets, hit, sunk);
        if let Some(&v) = self.memo[policy as usize].get(&key) {
            return Ok(v);
        }
        if self.memo[0].len() + self.memo[1].len() >= self.limit {
            return Err(ExactError::TooManyPositions { limit: self.limit });
        }
        let n = fleets.len() as u32;
        let counts = self.counts(fleets, shot);
        let state = (shot, hit, sunk);
        let sure = (0..self.cells).find(|&c| counts[c] == n);
        let v = if let (Some(sure), Policy::Optimal) = (sure, policy) {
            self.after_shot(policy, fleets, sure, state)?
        } else {
            let mut cells: Vec<usize> = (0..self.cells).filter(|&c| counts[c] > 0).collect();
            cells.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
            match policy {
                Policy::Greedy => {
                    let top = counts[cells[0]];
                    let ties: Vec<usize> = cells
                        .into_iter()
                        .take_while(|&c| counts[c] == top)
                        .collect();
                    let mut sum = 0.0;
                    for &c in &ties {
                        sum += self.after_shot(policy, fleets, c, state)?;
                    }
                    sum / ties.len() as f64
                }
                Policy::Optimal => {
                    let mut best = f64::INFINITY;
                    for c in cells {
                        // every ship cell left takes a shot, and this one misses with
                        // probability 1 - counts[c] / n
                        let bound = f64::from(need) + f64::from(n - counts[c]) / f64::from(n);
                        if bound < best - 1e-12 {
                            best = best.min(self.after_shot(policy, fleets, c, state)?);
                        }
                    }
                    best
                }
            }
        };
        self.memo[policy as usize].insert(key, v);
        Ok(v)
    }
}

/// The symmetries of a `w`×`h` grid as maps of cell indices: 8 for a square, 4 otherwise.
fn symmetries(w: usize, h: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for t in 0..8u8 {
        if t & 4 != 0 && w != h {
            break;
        }
        let mut map = vec![0u8; w * h];
        for y in 0..h {
            for x in 0..w {
                let (mut a, mut b) = (x, y);
                if t & 1 != 0 {
                    a = w - 1 - a;
                }
                if t & 2 != 0 {
                    b = h - 1 - b;
                }
                if t & 4 != 0 {
                    core::mem::swap(&mut a, &mut b);
                }
                map[y * w + x] = (b * w + a) as u8;
            }
        }
        out.push(map);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search with no memo, no symmetry, no pruning and no forced shots: the plain
    /// definition, over every cell not shot yet.
    fn brute(s: &ExactSearch, fleets: &[u32], shot: u128, hit: u128, optimal: bool) -> f64 {
        if s.fleet_cells == hit.count_ones() {
            return 0.0;
        }
        let counts = s.counts(fleets, shot);
        let open: Vec<usize> = (0..s.cells).filter(|&c| shot >> c & 1 == 0).collect();
        let q = |c: usize| {
            let mut v = 1.0;
            for (is_hit, _, g) in s.outcomes(fleets, c, hit) {
                let h = if is_hit { hit | 1 << c } else { hit };
                v += g.len() as f64 / fleets.len() as f64 * brute(s, &g, shot | 1 << c, h, optimal);
            }
            v
        };
        if optimal {
            open.iter().map(|&c| q(c)).fold(f64::INFINITY, f64::min)
        } else {
            let top = open.iter().map(|&c| counts[c]).max().unwrap();
            let ties: Vec<usize> = open.into_iter().filter(|&c| counts[c] == top).collect();
            ties.iter().map(|&c| q(c)).sum::<f64>() / ties.len() as f64
        }
    }

    #[test]
    fn agrees_with_the_plain_definition_on_tiny_grids() {
        for (w, h, fleet) in [
            (1, 4, &[2][..]),
            (2, 3, &[2, 1]),
            (3, 3, &[2, 1]),
            (3, 3, &[1, 1]),
            (2, 4, &[2, 1]),
            (1, 6, &[2, 1]),
            (3, 3, &[3]),
        ] {
            let rules = Rules::custom(w, h, fleet).unwrap();
            let mut s = ExactSearch::new(&rules, 10_000).unwrap();
            let all: Vec<u32> = (0..s.fleets() as u32).collect();
            let opt = s.optimal_shots(1_000_000).unwrap();
            let greedy = s.greedy_shots(1_000_000).unwrap();
            let (bo, bg) = (brute(&s, &all, 0, 0, true), brute(&s, &all, 0, 0, false));
            assert!((opt - bo).abs() < 1e-9, "{w}x{h} {fleet:?}: {opt} vs {bo}");
            assert!(
                (greedy - bg).abs() < 1e-9,
                "{w}x{h} {fleet:?}: {greedy} vs {bg}"
            );
            assert!(opt <= greedy + 1e-12);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Any tiny grid and fleet: both values match the plain definition.
        #[test]
        fn agrees_with_the_plain_definition_on_random_tiny_grids(
            w in 1u8..=4,
            h in 1u8..=3,
            fleet in proptest::collection::vec(1u8..=3, 1..=3),
        ) {
            proptest::prop_assume!(usize::from(w) * usize::from(h) <= 8);
            let Ok(rules) = Rules::custom(w, h, &fleet) else { return Ok(()) };
            let mut s = ExactSearch::new(&rules, 10_000).unwrap();
            let all: Vec<u32> = (0..s.fleets() as u32).collect();
            if all.is_empty() {
                proptest::prop_assert_eq!(s.optimal_shots(10).unwrap(), 0.0);
                return Ok(());
            }
            let opt = s.optimal_shots(1_000_000).unwrap();
            let greedy = s.greedy_shots(1_000_000).unwrap();
            proptest::prop_assert!((opt - brute(&s, &all, 0, 0, true)).abs() < 1e-9);
            proptest::prop_assert!((greedy - brute(&s, &all, 0, 0, false)).abs() < 1e-9);
        }
    }

    #[test]
    fn one_single_ship_takes_the_mean_of_a_random_order() {
        for (w, h) in [(1, 1), (2, 2), (3, 3), (2, 5)] {
            let rules = Rules::custom(w, h, &[1]).unwrap();
            let mut s = ExactSearch::new(&rules, 100).unwrap();
            let n = f64::from(w) * f64::from(h);
            assert_eq!(s.fleets(), n as usize);
            assert!((s.optimal_shots(10_000).unwrap() - (n + 1.0) / 2.0).abs() < 1e-12);
            assert!((s.greedy_shots(10_000).unwrap() - (n + 1.0) / 2.0).abs() < 1e-12);
        }
    }

    #[test]
    fn counts_fleets_like_the_counting_programme() {
        for (w, h, fleet) in [
            (4, 4, &[2, 1, 1][..]),
            (5, 5, &[3, 2, 1, 1]),
            (6, 4, &[3, 2, 2]),
        ] {
            let rules = Rules::custom(w, h, fleet).unwrap();
            let s = ExactSearch::new(&rules, 100_000).unwrap();
            assert_eq!(s.fleets() as u128, crate::count_fleets(&rules));
        }
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        let touch = Rules::custom(4, 4, &[2, 1])
            .unwrap()
            .with_ships_may_touch(true);
        assert_eq!(
            ExactSearch::new(&touch, 100).unwrap_err(),
            ExactError::ShipsMayTouch
        );
        let rules = Rules::custom(4, 4, &[2, 1, 1]).unwrap();
        assert_eq!(
            ExactSearch::new(&rules, 100).unwrap_err(),
            ExactError::TooManyFleets { limit: 100 }
        );
        let mut s = ExactSearch::new(&rules, 1_000).unwrap();
        assert_eq!(
            s.optimal_shots(50).unwrap_err(),
            ExactError::TooManyPositions { limit: 50 }
        );
        // a later call with room enough still gets the right value
        assert!((s.optimal_shots(1_000_000).unwrap() - 8.586_84).abs() < 1e-5);
    }
}
