//! Tests of the uniform sampler: every stage exhaustively, acceptance rates, and a
//! distribution test that a biased sampler fails.

extern crate std;

use super::*;
use crate::generate::solved_grid;
use alloc::vec::Vec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Whether a 9×9 grid (digits 0–8, 0xff = empty) breaks no rule among its filled cells.
fn consistent(cells: &[u8; 81]) -> bool {
    (0..81).all(|i| {
        let (r, c) = (i / 9, i % 9);
        cells[i] == 0xff
            || (0..81).all(|k| {
                let (r2, c2) = (k / 9, k % 9);
                let peer = k != i && (r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3));
                !peer || cells[k] != cells[i]
            })
    })
}

/// The number of ways to fill rows `from..to` of `cells` (rows above are filled):
/// plain backtracking, cell by cell.
fn count_fills(cells: &mut [u8; 81], from: usize, to: usize) -> u64 {
    fn go(cells: &mut [u8; 81], i: usize, end: usize) -> u64 {
        if i == end {
            return 1;
        }
        let (r, c) = (i / 9, i % 9);
        let mut total = 0;
        for d in 0..9u8 {
            let clash = (0..i).any(|k| {
                let (r2, c2) = (k / 9, k % 9);
                cells[k] == d && (r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3))
            });
            if !clash {
                cells[i] = d;
                total += go(cells, i + 1, end);
                cells[i] = 0xff;
            }
        }
        total
    }
    go(cells, from * 9, to * 9)
}

fn with_rows(b: &Build9, rows: usize) -> [u8; 81] {
    let mut cells = [0xff; 81];
    cells[..rows * 9].copy_from_slice(&b.cells[..rows * 9]);
    cells
}

#[test]
fn at_most_two_orders_fit_when_each_item_has_two_places() {
    for (pattern, &[count, first, second]) in FITTING.iter().enumerate() {
        let allowed = [pattern & 7, pattern >> 3 & 7, pattern >> 6 & 7];
        let fitting: Vec<usize> = (0..6)
            .filter(|&o| (0..3).all(|k| allowed[k] >> PERM3[o][k] & 1 == 1))
            .collect();
        assert_eq!(usize::from(count), fitting.len());
        assert_eq!(
            fitting.first().map(|&o| o as u8),
            Some(first).filter(|&o| o != 0xff)
        );
        assert_eq!(
            fitting.get(1).map(|&o| o as u8),
            Some(second).filter(|&o| o != 0xff)
        );
        if allowed.iter().all(|a| a.count_ones() <= 2) {
            assert!(fitting.len() <= 2, "{allowed:?}");
        }
    }
}

#[test]
fn band1_draws_are_every_band_once() {
    // Row 2: 56·6³ = 12,096 draws, all different and valid; that is every valid row 2
    // (counted by backtracking). Row 3: 216 draws, all different and valid.
    let row2s: HashSet<[u8; 9]> = (0..12096)
        .map(|i| {
            let b = Build9::band1(i * 216);
            assert!(consistent(&with_rows(&b, 3)));
            b.cells[9..18].try_into().unwrap()
        })
        .collect();
    assert_eq!(row2s.len(), 12096);
    let b = Build9::band1(0);
    assert_eq!(count_fills(&mut with_rows(&b, 1), 1, 2), 12096);
    let row3s: HashSet<[u8; 9]> = (0..216)
        .map(|i| {
            Build9::band1(5000 * 216 + i).cells[18..27]
                .try_into()
                .unwrap()
        })
        .collect();
    assert_eq!(row3s.len(), 216);
    assert_eq!(
        count_fills(&mut with_rows(&Build9::band1(5000 * 216), 2), 2, 3),
        216
    );
}

/// Every accepted draw of a stage gives a different valid continuation, and there are
/// as many as backtracking finds: each continuation comes from exactly one draw.
fn check_stage(
    b: &Build9,
    rows: usize,
    to: usize,
    choices: u32,
    stage: fn(&mut Build9, u32) -> bool,
) -> Vec<Build9> {
    let mut seen = HashSet::new();
    let mut accepted = Vec::new();
    for i in 0..choices {
        let mut next = b.clone();
        if stage(&mut next, i) {
            let cells = with_rows(&next, to);
            assert!(consistent(&cells));
            assert!(
                seen.insert(cells[rows * 9..to * 9].to_vec()),
                "draw {i} repeats"
            );
            accepted.push(next);
        }
    }
    assert_eq!(
        accepted.len() as u64,
        count_fills(&mut with_rows(b, rows), rows, to)
    );
    accepted
}

#[test]
fn later_stages_draw_every_continuation_once() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..8 {
        let band1 = Build9::band1(below(&mut rng, BAND1_CHOICES));
        let fours = check_stage(&band1, 3, 4, ROW4_CHOICES, Build9::row4);
        let four = &fours[below(&mut rng, fours.len() as u32) as usize];
        let sixes = check_stage(four, 4, 6, ROWS56_CHOICES, Build9::rows56);
        if sixes.is_empty() {
            continue;
        }
        let six = &sixes[below(&mut rng, sixes.len() as u32) as usize];
        let full = check_stage(six, 6, 9, BAND3_CHOICES, Build9::band3);
        assert!(full.len() <= 1728);
    }
}

#[test]
fn acceptance_rates_match_the_number_of_grids() {
    // Each draw is accepted with probability (grids with row 1 fixed) / (draws).
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let attempts = 200_000u32;
    let accepted = (0..attempts)
        .filter(|_| attempt9(&mut rng).is_some())
        .count() as f64;
    let draws = f64::from(BAND1_CHOICES)
        * f64::from(ROW4_CHOICES)
        * f64::from(ROWS56_CHOICES)
        * f64::from(BAND3_CHOICES);
    let p = 18_383_222_420_692_992.0 / draws;
    let sd = (p * (1.0 - p) / f64::from(attempts)).sqrt();
    let rate = accepted / f64::from(attempts);
    assert!((rate - p).abs() < 4.0 * sd, "rate {rate}, expected {p}");
    for (width, grids, draws) in [(2, 12.0, 16.0), (3, 39_168.0, 92_160.0)] {
        let attempts = 50_000u32;
        let accepted = (0..attempts)
            .filter(|_| attempt_small(width, &mut |k| below(&mut rng, k)).is_some())
            .count() as f64;
        let p: f64 = grids / draws;
        let sd = (p * (1.0 - p) / f64::from(attempts)).sqrt();
        let rate = accepted / f64::from(attempts);
        assert!(
            (rate - p).abs() < 4.0 * sd,
            "{width}: rate {rate}, expected {p}"
        );
    }
}

#[test]
fn small_draws_are_every_grid_once() {
    // Enumerate every combination of draws (mixed radix) and keep the accepted grids.
    for (width, combos, grids) in [(2u32, 16u32, 12usize), (3, 36 * 320 * 8, 39_168)] {
        let mut found = HashSet::new();
        for code in 0..combos {
            let mut rest = code;
            let mut draw = |k: u32| {
                let d = rest % k;
                rest /= k;
                d
            };
            if let Some(b) = attempt_small(width as usize, &mut draw) {
                let n = b.n;
                let cells: Vec<u8> = b.cells[..n * n].iter().map(|&d| d + 1).collect();
                let grid =
                    Grid::from_cells(if n == 4 { Size::Four } else { Size::Six }, &cells).unwrap();
                assert!(grid.is_full() && grid.is_consistent(), "{grid}");
                assert!(found.insert(grid), "draw {code} repeats a grid");
            }
        }
        assert_eq!(found.len(), grids, "width {width}");
    }
}

/// The number of ways to refill the cells `blank` says of a 9×9 grid.
fn refills(grid: &Grid, blank: impl Fn(usize, usize) -> bool) -> usize {
    let mut g = grid.clone();
    for r in 0..9 {
        for c in 0..9 {
            if blank(r, c) {
                g.set(r, c, None).unwrap();
            }
        }
    }
    g.count_solutions(5000)
}

/// Uniform grids have the same distribution as their transposes and as themselves with
/// bands 1 and 3 swapped, so these three numbers have the same distribution: the refills
/// of band 3, of band 1 and of stack 3. The row-by-row sampler treats them very
/// differently. Returns the chi-squared homogeneity statistic of the three samples and
/// its 0.1% critical value.
fn band_symmetry_statistic(mut draw: impl FnMut() -> Grid, samples: usize) -> (f64, f64) {
    const EDGES: [usize; 10] = [120, 144, 156, 168, 180, 192, 216, 228, 276, 288];
    let bin = |k: usize| EDGES.iter().position(|&e| k <= e).unwrap_or(EDGES.len());
    let mut table = [[0f64; EDGES.len() + 1]; 3];
    for _ in 0..samples {
        let g = draw();
        table[0][bin(refills(&g, |r, _| r >= 6))] += 1.0;
        table[1][bin(refills(&g, |r, _| r < 3))] += 1.0;
        table[2][bin(refills(&g, |_, c| c >= 6))] += 1.0;
    }
    let mut stat = 0.0;
    let mut bins = 0.0;
    for k in 0..=EDGES.len() {
        let total: f64 = table.iter().map(|row| row[k]).sum();
        if total == 0.0 {
            continue;
        }
        bins += 1.0;
        for row in &table {
            let expected = total / 3.0;
            stat += (row[k] - expected).powi(2) / expected;
        }
    }
    let df: f64 = 2.0 * (bins - 1.0);
    let v = 2.0 / (9.0 * df);
    (stat, df * (1.0 - v + 3.090_232 * v.sqrt()).powi(3))
}

#[test]
fn band_refills_are_symmetric_and_a_biased_sampler_breaks_them() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (stat, critical) = band_symmetry_statistic(|| solved_grid(Size::Nine, &mut rng), 1500);
    std::eprintln!("exact: chi2 {stat:.1}, critical {critical:.1}");
    assert!(stat < critical, "exact sampler: {stat:.1} >= {critical:.1}");
    // The same draws, but band 3 drawn again until it fits instead of starting over:
    // bands 1–2 are then no longer weighted by their number of band-3 completions.
    let biased = |rng: &mut ChaCha8Rng| loop {
        let mut b = Build9::band1(below(rng, BAND1_CHOICES));
        if !b.row4(below(rng, ROW4_CHOICES)) || !b.rows56(below(rng, ROWS56_CHOICES)) {
            continue;
        }
        for _ in 0..100_000 {
            let mut full = b.clone();
            if full.band3(below(rng, BAND3_CHOICES)) {
                let cells: Vec<u8> = full.cells.iter().map(|&d| d + 1).collect();
                return Grid::from_cells(Size::Nine, &cells).unwrap();
            }
        }
    };
    let (stat, critical) = band_symmetry_statistic(|| biased(&mut rng), 1500);
    std::eprintln!("biased: chi2 {stat:.1}, critical {critical:.1}");
    assert!(
        stat > critical,
        "biased sampler: {stat:.1} <= {critical:.1}"
    );
}
