//! Generation, transformations and the canonical form, with proptest invariants.

use crate::common;

use common::sample;
use std::collections::HashMap;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudoku_core::transform::{Transform, TransformError, canonical_form};
use sudoku_core::{GenerateOptions, Grid, Size, Symmetry, generate};

#[test]
fn solved_grids_are_valid_and_seeded() {
    for size in Size::ALL {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let a = generate::solved_grid(size, &mut rng);
        assert!(a.is_full() && a.is_consistent(), "{size}: {a}");
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        assert_eq!(generate::solved_grid(size, &mut rng), a, "{size}");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let grids: std::collections::HashSet<String> = (0..50)
        .map(|_| generate::solved_grid(Size::Nine, &mut rng).to_string())
        .collect();
    assert_eq!(grids.len(), 50);
}

/// The upper 0.1% point of the chi-squared distribution with `df` degrees of freedom
/// (Wilson–Hilferty; accurate to a fraction of a percent for these sizes).
fn chi2_critical(df: f64) -> f64 {
    let z = 3.090_232; // the upper 0.1% point of the normal distribution
    let v = 2.0 / (9.0 * df);
    df * (1.0 - v + z * v.sqrt()).powi(3)
}

/// Pearson's statistic of observed counts against equal expected counts over `cells`
/// cells (cells never seen count with 0).
fn chi2_uniform(counts: &HashMap<Grid, u64>, cells: usize, samples: u64) -> f64 {
    let expected = samples as f64 / cells as f64;
    let seen: f64 = counts
        .values()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    seen + (cells - counts.len()) as f64 * expected
}

/// `grid` with its symbols renamed so that row 1 reads 1, 2, …, n.
fn normalised(grid: &Grid) -> Grid {
    let n = grid.size().side();
    let mut name = vec![0u8; n + 1];
    for c in 0..n {
        name[usize::from(grid.get(0, c).unwrap())] = c as u8 + 1;
    }
    let cells: Vec<u8> = grid.cells().iter().map(|&v| name[usize::from(v)]).collect();
    Grid::from_cells(grid.size(), &cells).unwrap()
}

/// Draws `samples` grids and returns the chi-squared statistic over all `cells` grids.
fn chi2_of(
    samples: u64,
    cells: usize,
    mut draw: impl FnMut() -> Grid,
    key: impl Fn(&Grid) -> Grid,
) -> f64 {
    let mut counts: HashMap<Grid, u64> = HashMap::new();
    for _ in 0..samples {
        let g = draw();
        assert!(g.is_full() && g.is_consistent(), "{g}");
        *counts.entry(key(&g)).or_default() += 1;
    }
    assert!(counts.len() <= cells);
    chi2_uniform(&counts, cells, samples)
}

#[test]
fn four_by_four_grids_are_uniform_and_the_scattered_ones_are_not() {
    assert_eq!(Grid::empty(Size::Four).count_solutions(1000), 288);
    let samples = 288 * 50;
    let critical = chi2_critical(287.0);
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let exact = chi2_of(
        samples,
        288,
        || generate::solved_grid(Size::Four, &mut rng),
        Grid::clone,
    );
    assert!(exact < critical, "chi2 {exact:.1} >= {critical:.1}");
    let scattered = chi2_of(
        samples,
        288,
        || generate::scattered_grid(Size::Four, &mut rng),
        Grid::clone,
    );
    assert!(scattered > critical, "chi2 {scattered:.1} <= {critical:.1}");
}

#[test]
fn six_by_six_grids_are_uniform() {
    // Every grid, renamed so that row 1 reads 123456, is one of 28,200,960 / 6! = 39,168;
    // a uniform grid gives each of them the same probability.
    let mut first_row = Grid::empty(Size::Six);
    for c in 0..6 {
        first_row.set(0, c, Some(c as u8 + 1)).unwrap();
    }
    assert_eq!(first_row.count_solutions(50_000), 39_168);
    let samples = 39_168 * 8;
    let mut rng = ChaCha8Rng::seed_from_u64(2027);
    let stat = chi2_of(
        samples,
        39_168,
        || generate::solved_grid(Size::Six, &mut rng),
        normalised,
    );
    let critical = chi2_critical(39_167.0);
    assert!(stat < critical, "chi2 {stat:.1} >= {critical:.1}");
}

#[test]
fn generated_puzzles_are_proper_and_minimal_when_asked() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for size in [Size::Four, Size::Six, Size::Nine] {
        for symmetry in Symmetry::ALL {
            let options = GenerateOptions {
                size,
                symmetry,
                ..GenerateOptions::default()
            };
            let p = generate::puzzle(&options, &mut rng);
            assert_eq!(p.count_solutions(2), 1, "{size} {symmetry}: {p}");
            assert!(symmetry.holds_for(&p), "{size} {symmetry}: {p}");
            let minimal = GenerateOptions {
                minimal: true,
                ..options
            };
            let p = generate::puzzle(&minimal, &mut rng);
            assert!(generate::is_minimal(&p), "{size} {symmetry}: {p}");
        }
    }
    // Without a symmetry the removal pass alone leaves a minimal puzzle.
    for _ in 0..10 {
        let p = generate::puzzle(&GenerateOptions::default(), &mut rng);
        assert!(generate::is_minimal(&p), "{p}");
    }
}

#[test]
fn large_grids_generate_proper_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let options = GenerateOptions {
        size: Size::Sixteen,
        clues: Some(180),
        symmetry: Symmetry::Mirror,
        ..GenerateOptions::default()
    };
    let p = generate::puzzle(&options, &mut rng);
    assert_eq!(p.size(), Size::Sixteen);
    assert!(p.clue_count() <= 181, "{}", p.clue_count());
    assert!(Symmetry::Mirror.holds_for(&p));
    assert_eq!(p.count_solutions(2), 1);
}

#[test]
fn clue_targets_are_met_or_approached() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let options = GenerateOptions {
        clues: Some(40),
        ..GenerateOptions::default()
    };
    for _ in 0..5 {
        let p = generate::puzzle(&options, &mut rng);
        assert_eq!(p.count_solutions(2), 1);
        assert!(p.clue_count() <= 40 && p.clue_count() >= 38, "{p}");
        assert!(
            !generate::is_minimal(&p),
            "40 clues are never minimal here: {p}"
        );
    }
    // Unreachable: keeps the fewest clues found.
    let options = GenerateOptions {
        clues: Some(5),
        attempts: 3,
        ..GenerateOptions::default()
    };
    let p = generate::puzzle(&options, &mut rng);
    assert_eq!(p.count_solutions(2), 1);
    assert!(p.clue_count() >= 17);
}

#[test]
fn the_same_seed_gives_the_same_puzzles() {
    let options = GenerateOptions {
        symmetry: Symmetry::Rotate90,
        ..GenerateOptions::default()
    };
    let a = generate::puzzle(&options, &mut ChaCha8Rng::seed_from_u64(99));
    let b = generate::puzzle(&options, &mut ChaCha8Rng::seed_from_u64(99));
    assert_eq!(a, b);
}

#[test]
fn symmetry_names_parse() {
    for s in Symmetry::ALL {
        assert_eq!(s.to_string().parse::<Symmetry>(), Ok(s));
    }
    assert!("spiral".parse::<Symmetry>().is_err());
}

#[test]
fn transforms_check_their_parts() {
    let id = Transform::identity(Size::Nine);
    let g = common::pattern_solution(Size::Nine);
    assert_eq!(id.apply(&g), Some(g.clone()));
    assert_eq!(id.apply(&Grid::empty(Size::Four)), None);
    let perm3 = vec![vec![0, 1, 2]; 3];
    let digits: Vec<usize> = (0..9).collect();
    assert!(matches!(
        Transform::new(
            Size::Nine,
            &[0; 9],
            &[0, 1, 2],
            &perm3,
            &[0, 1, 2],
            &perm3,
            false
        ),
        Err(TransformError::NotAPermutation { .. })
    ));
    let rows2 = vec![vec![0, 1]; 3];
    let cols3 = vec![vec![0, 1, 2]; 2];
    let six: Vec<usize> = (0..6).collect();
    assert_eq!(
        Transform::new(Size::Six, &six, &[0, 1, 2], &rows2, &[0, 1], &cols3, true),
        Err(TransformError::CannotTranspose(Size::Six))
    );
    // A transposition: rows become columns.
    let t = Transform::new(
        Size::Nine,
        &digits,
        &[0, 1, 2],
        &perm3,
        &[0, 1, 2],
        &perm3,
        true,
    )
    .unwrap();
    let tg = t.apply(&g).unwrap();
    assert_eq!(tg.get(0, 1), g.get(1, 0));
    // Swapping the first two bands.
    let t = Transform::new(
        Size::Nine,
        &digits,
        &[1, 0, 2],
        &perm3,
        &[0, 1, 2],
        &perm3,
        false,
    )
    .unwrap();
    assert_eq!(t.apply(&g).unwrap().get(0, 0), g.get(3, 0));
}

#[test]
fn canonical_form_identifies_equivalent_grids() {
    let p = &sample("puzzles3_magictour_top1465.txt", 2);
    let c0 = canonical_form(&p[0]).unwrap();
    let c1 = canonical_form(&p[1]).unwrap();
    assert_ne!(c0, c1);
    assert_eq!(c0.clue_count(), p[0].clue_count());
    assert_eq!(c0.count_solutions(2), 1);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let t = Transform::random(Size::Nine, &mut rng)
        .apply(&p[0])
        .unwrap();
    assert_eq!(canonical_form(&t).unwrap(), c0);
    assert_eq!(canonical_form(&c0).unwrap(), c0);
    // Every size has a canonical form now; the empty grid's is itself.
    assert_eq!(
        canonical_form(&Grid::empty(Size::Sixteen)),
        Some(Grid::empty(Size::Sixteen))
    );
    // The 4×4 solutions fall into two classes.
    let classes: std::collections::HashSet<Grid> = Grid::empty(Size::Four)
        .solutions(288)
        .iter()
        .map(|g| canonical_form(g).unwrap())
        .collect();
    assert_eq!(classes.len(), 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn transforms_preserve_solution_counts(seed in any::<u64>(), index in 0usize..100, drop in 0usize..81) {
        let puzzles = sample("puzzles3_magictour_top1465.txt", 100);
        let mut cells = puzzles[index].cells().to_vec();
        // Remove a clue sometimes, to get puzzles with several solutions too.
        cells[drop] = 0;
        let p = Grid::from_cells(Size::Nine, &cells).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let t = Transform::random(Size::Nine, &mut rng);
        let q = t.apply(&p).unwrap();
        prop_assert_eq!(q.clue_count(), p.clue_count());
        prop_assert_eq!(q.count_solutions(20), p.count_solutions(20));
        let s = p.solve_one().unwrap();
        prop_assert!(t.apply(&s).unwrap().is_solution_of(&q));
    }

    #[test]
    fn transforms_of_small_grids_stay_valid(seed in any::<u64>(), size in prop::sample::select(vec![Size::Four, Size::Six, Size::Nine, Size::Sixteen, Size::TwentyFive])) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = generate::solved_grid(size, &mut rng);
        let t = Transform::random(size, &mut rng).apply(&g).unwrap();
        prop_assert!(t.is_full() && t.is_consistent());
    }

    #[test]
    fn small_canonical_forms_are_invariant(seed in any::<u64>(), six in any::<bool>()) {
        let size = if six { Size::Six } else { Size::Four };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = generate::puzzle(&GenerateOptions { size, ..GenerateOptions::default() }, &mut rng);
        let t = Transform::random(size, &mut rng).apply(&p).unwrap();
        prop_assert_eq!(canonical_form(&p), canonical_form(&t));
    }

    #[test]
    fn parse_never_panics(s in "[0-9A-Za-z.#é ]{0,100}") {
        let _ = s.parse::<Grid>();
    }

    #[test]
    fn random_grids_never_confuse_the_solvers(cells in prop::collection::vec(0u8..=9, 81), keep in 0usize..81) {
        // Keep only a few givens so that the grid is often consistent.
        let cells: Vec<u8> = cells.iter().enumerate().map(|(i, &v)| if i % 81 < keep && i % 3 == 0 { v } else { 0 }).collect();
        let g = Grid::from_cells(Size::Nine, &cells).unwrap();
        let fast = g.count_solutions(2);
        let general = sudoku_core::Solver::new().backend(sudoku_core::Backend::General).count(&g, 2).unwrap();
        prop_assert_eq!(fast, general);
        if !g.is_consistent() {
            prop_assert_eq!(fast, 0);
        }
        if let Some(s) = g.solve_one() {
            prop_assert!(s.is_solution_of(&g));
        }
    }
}
