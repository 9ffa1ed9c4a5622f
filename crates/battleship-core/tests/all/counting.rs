//! Exact fleet counts against brute force, and sampler uniformity.

use std::collections::HashMap;

use battleship_core::{
    Cells, Constraints, Coord, Fleet, FleetSampler, Orientation, Rules, Ship, UniformFleets,
    count_fleets, count_placements,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every ship of length `len` that fits on the grid, one per cell set.
fn all_ships(rules: &Rules, len: u8) -> Vec<Ship> {
    let mut out = Vec::new();
    for r in 0..rules.height() {
        for c in 0..rules.width() {
            let bow = Coord::new(c, r).unwrap();
            for o in [Orientation::Horizontal, Orientation::Vertical] {
                let s = Ship::new(bow, o, len);
                if s.fits(rules) && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// Counts fleets by trying every combination (ships of equal length in increasing order).
fn brute_force(rules: &Rules) -> u128 {
    let fleet = rules.fleet().to_vec();
    let options: Vec<Vec<Ship>> = fleet.iter().map(|&l| all_ships(rules, l)).collect();
    fn go(
        rules: &Rules,
        fleet: &[u8],
        options: &[Vec<Ship>],
        k: usize,
        min_index: usize,
        chosen: &mut Vec<Ship>,
    ) -> u128 {
        if k == fleet.len() {
            return u128::from(Fleet::new(rules, chosen.clone()).is_ok());
        }
        let start = if k > 0 && fleet[k] == fleet[k - 1] {
            min_index
        } else {
            0
        };
        let mut total = 0;
        for (j, s) in options[k].iter().enumerate().skip(start) {
            // prune early on pairwise problems
            chosen.push(*s);
            let ok = Fleet::problems(rules, chosen)
                .iter()
                .all(|p| matches!(p, battleship_core::Problem::WrongCount { .. }));
            if ok {
                total += go(rules, fleet, options, k + 1, j + 1, chosen);
            }
            chosen.pop();
        }
        total
    }
    go(rules, &fleet, &options, 0, 0, &mut Vec::new())
}

fn small_rule_sets() -> Vec<Rules> {
    let mut v = Vec::new();
    for (w, h, fleet) in [
        (4u8, 4u8, &[2u8, 1][..]),
        (4, 4, &[3, 2, 1, 1]),
        (5, 5, &[3, 2, 2, 1]),
        (5, 4, &[4, 1, 1]),
        (6, 5, &[3, 2, 1, 1]),
        (3, 3, &[1, 1, 1]),
    ] {
        let base = Rules::custom(w, h, fleet).unwrap();
        v.push(base.clone());
        v.push(base.with_ships_may_touch(true));
    }
    v
}

#[test]
fn counts_match_brute_force_on_small_grids() {
    for rules in small_rule_sets() {
        assert_eq!(count_fleets(&rules), brute_force(&rules), "{rules}");
    }
}

#[test]
fn exact_sampler_counts_agree_with_the_counter() {
    for rules in small_rule_sets() {
        let sampler = FleetSampler::new(&rules, 1_000_000).unwrap();
        assert_eq!(sampler.count(), count_fleets(&rules), "{rules}");
    }
}

#[test]
fn classic_and_russian_fleet_counts() {
    // classic: 30,093,975,536 with the two 3-ships told apart, as published; halved here
    assert_eq!(count_fleets(&Rules::classic()), 15_046_987_768);
    assert_eq!(count_fleets(&Rules::russian()), 1_855_545_978_831_780);
}

#[test]
fn the_exact_graph_refuses_to_grow_past_its_budget() {
    assert!(FleetSampler::new(&Rules::russian(), 10_000).is_err());
}

#[test]
fn constrained_counts_match_brute_force() {
    let rules = Rules::custom(5, 5, &[3, 2, 1]).unwrap();
    let water = Cells((1 << 0) | (1 << 7) | (1 << 18)); // a1, c2, d4
    // c3 and d3 (indices 12, 13): hits on a ship still afloat, so not the 2-ship alone
    let ship = Cells((1 << 12) | (1 << 13));
    let constraints = Constraints { water, ship };
    // brute force: every fleet, filtered
    let mut expected = 0u128;
    let mut sunk_excluded = 0;
    for a in all_ships(&rules, 3) {
        for b in all_ships(&rules, 2) {
            for c in all_ships(&rules, 1) {
                if let Ok(f) = Fleet::new(&rules, vec![a, b, c]) {
                    let m = f.mask(rules.width()).0;
                    if m & water.0 == 0 && m & ship.0 == ship.0 {
                        // a ship whose every cell is an afloat hit would have been sunk
                        if f.ships()
                            .iter()
                            .any(|s| s.mask(rules.width()).0 & !ship.0 == 0)
                        {
                            sunk_excluded += 1;
                        } else {
                            expected += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(sunk_excluded > 0, "the test covers the sunk case");
    assert!(expected > 0);
    assert_eq!(
        count_placements(&rules, rules.fleet(), constraints),
        expected
    );
    let sampler = FleetSampler::with_fleet(&rules, rules.fleet(), constraints, 1_000_000).unwrap();
    assert_eq!(sampler.count(), expected);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let f = sampler.sample(&mut rng).unwrap();
        let m = f.mask(rules.width()).0;
        assert!(f.validate(&rules).is_ok());
        assert_eq!(m & water.0, 0);
        assert_eq!(m & ship.0, ship.0);
    }
}

/// Pearson's χ² over every fleet of a small grid, and z-scores of the cell occupancies
/// against the exact marginals.
fn check_uniform(rules: &Rules, draw: &mut dyn FnMut() -> Fleet, draws: usize) {
    let exact = FleetSampler::new(rules, 1_000_000).unwrap();
    let total = exact.count() as usize;
    let mut seen: HashMap<Fleet, usize> = HashMap::new();
    let mut cells = vec![0usize; rules.cells()];
    for _ in 0..draws {
        let f = draw();
        assert!(f.validate(rules).is_ok());
        for i in f.mask(rules.width()).indices() {
            cells[i] += 1;
        }
        *seen.entry(f).or_default() += 1;
    }
    assert_eq!(seen.len(), total, "every fleet is drawn");
    let e = draws as f64 / total as f64;
    let chi2: f64 = seen.values().map(|&o| (o as f64 - e).powi(2) / e).sum();
    let df = (total - 1) as f64;
    // far beyond the 0.1% critical value (≈ df + 3.1·sqrt(2·df))
    assert!(
        chi2 < df + 4.0 * (2.0 * df).sqrt(),
        "chi2 {chi2} with {df} degrees of freedom"
    );
    let occ = exact.occupancy();
    for (i, &o) in cells.iter().enumerate() {
        let p = occ[i] as f64 / total as f64;
        let mean = p * draws as f64;
        let sd = (draws as f64 * p * (1.0 - p)).sqrt().max(1e-9);
        let z = (o as f64 - mean) / sd;
        assert!(z.abs() < 4.5, "cell {i}: {o} vs {mean:.1} (z = {z:.2})");
    }
}

#[test]
fn rejection_sampler_is_uniform_on_a_small_grid() {
    let rules = Rules::custom(5, 4, &[3, 2, 1]).unwrap();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    check_uniform(&rules, &mut || sampler.sample(&mut rng), 60_000);
}

#[test]
fn exact_sampler_is_uniform_on_a_small_grid() {
    let rules = Rules::custom(5, 4, &[3, 2, 1])
        .unwrap()
        .with_ships_may_touch(true);
    let sampler = FleetSampler::new(&rules, 1_000_000).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    check_uniform(&rules, &mut || sampler.sample(&mut rng).unwrap(), 200_000);
}

#[test]
fn border_cells_are_not_under_represented() {
    // The naive "biggest ship first, retry the ship" method under-fills the border; the
    // exact marginal of a corner under Russian rules is compared with the sampler's.
    let rules = Rules::russian();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let draws = 4_000;
    let mut corner = 0;
    let mut centre = 0;
    for _ in 0..draws {
        let m = sampler.sample(&mut rng).mask(10);
        corner += usize::from(m.has(0))
            + usize::from(m.has(9))
            + usize::from(m.has(90))
            + usize::from(m.has(99));
        centre += usize::from(m.has(44))
            + usize::from(m.has(45))
            + usize::from(m.has(54))
            + usize::from(m.has(55));
    }
    // uniform fleets put more ship cells in the corners than in the centre
    assert!(corner > centre, "corner {corner} centre {centre}");
}

#[test]
fn impossible_fleets_are_detected_not_looped_on() {
    let rules = Rules::custom(3, 3, &[3, 3, 3]).unwrap();
    assert_eq!(count_fleets(&rules), 0);
    let sampler = UniformFleets::new(&rules);
    assert!(sampler.is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let f = sampler.sample(&mut rng);
    assert!(f.ships().is_empty() && f.validate(&rules).is_err());
    assert!(!UniformFleets::new(&Rules::russian()).is_empty());
    assert!(
        FleetSampler::new(&rules, 1000)
            .unwrap()
            .sample(&mut rng)
            .is_none()
    );
}

/// The number of positions of a ship of length `len` that may join `placed` (checked with
/// the fleet validation, independently of the sampler's bitboards).
fn free_positions(rules: &Rules, placed: &[Ship], len: u8) -> u32 {
    all_ships(rules, len)
        .into_iter()
        .filter(|s| {
            let mut ships = placed.to_vec();
            ships.push(*s);
            Fleet::problems(rules, &ships)
                .iter()
                .all(|p| matches!(p, battleship_core::Problem::WrongCount { .. }))
        })
        .count() as u32
}

/// Every step bound of the sequential sampler is at least the number of free positions of
/// its ship after every valid placement of the ships before it (exhaustively).
#[test]
fn sequential_bounds_hold_on_every_partial_fleet() {
    let mut sets = Vec::new();
    for (w, h, fleet) in [
        (4u8, 4u8, &[3u8, 2, 1, 1][..]),
        (5, 5, &[3, 2, 2, 1]),
        (5, 5, &[2, 2, 1, 1]),
        (5, 4, &[4, 1, 1]),
        (3, 3, &[1, 1, 1]),
    ] {
        let base = Rules::custom(w, h, fleet).unwrap();
        sets.push(base.clone());
        sets.push(base.with_ships_may_touch(true));
    }
    for rules in sets {
        let sampler = UniformFleets::new(&rules);
        let bounds = sampler.bounds();
        let lens = rules.fleet().to_vec();
        assert_eq!(bounds.len(), lens.len());
        let mut worst = vec![0u32; lens.len()];
        fn go(rules: &Rules, lens: &[u8], placed: &mut Vec<Ship>, worst: &mut [u32]) {
            let i = placed.len();
            if i == lens.len() {
                return;
            }
            worst[i] = worst[i].max(free_positions(rules, placed, lens[i]));
            for s in all_ships(rules, lens[i]) {
                placed.push(s);
                if Fleet::problems(rules, placed)
                    .iter()
                    .all(|p| matches!(p, battleship_core::Problem::WrongCount { .. }))
                {
                    go(rules, lens, placed, worst);
                }
                placed.pop();
            }
        }
        go(&rules, &lens, &mut Vec::new(), &mut worst);
        for i in 0..lens.len() {
            assert!(
                worst[i] <= bounds[i],
                "{rules}: step {i} has {} free positions, bound {}",
                worst[i],
                bounds[i]
            );
        }
    }
}

#[test]
fn russian_bounds_are_the_documented_ones() {
    let sampler = UniformFleets::new(&Rules::russian());
    assert_eq!(
        sampler.bounds(),
        vec![140, 140, 126, 134, 122, 112, 60, 59, 58, 57]
    );
}

#[test]
fn sequential_sampler_is_uniform_with_equal_ships() {
    // several ships of each length: the orderings of equal ships must not bias the result
    let rules = Rules::custom(5, 5, &[2, 2, 1, 1]).unwrap();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    check_uniform(&rules, &mut || sampler.sample(&mut rng), 150_000);
}

#[test]
fn sequential_sampler_is_uniform_when_ships_may_touch() {
    let rules = Rules::custom(4, 4, &[2, 2, 1])
        .unwrap()
        .with_ships_may_touch(true);
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    check_uniform(&rules, &mut || sampler.sample(&mut rng), 150_000);
}
