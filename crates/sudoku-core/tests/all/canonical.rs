//! Canonical forms of 16×16 and 25×25 grids (solved grids, puzzles, symmetric and
//! conflicting grids): invariant under transformations, idempotent, a transformation of
//! the input, and different for grids that are not equivalent.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use sudoku_core::transform::{Transform, canonical_form, canonical_transform};
use sudoku_core::{Grid, Size, generate};

/// The cyclic-shift solved grid: row `r` of band `b` is the first row shifted by
/// `k·r + b`. Its automorphism group is huge.
fn pattern(size: Size) -> Grid {
    let n = size.side();
    let k = size.box_rows();
    let cells: Vec<u8> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((k * (r % k) + r / k + c) % n) as u8 + 1
        })
        .collect();
    Grid::from_cells(size, &cells).unwrap()
}

/// The addition table of (Z/2)⁴ arranged as a 16×16 Sudoku.
fn xor16() -> Grid {
    let cells: Vec<u8> = (0..256)
        .map(|i| {
            let (r, c) = (i / 16, i % 16);
            ((4 * (r % 4) + r / 4) ^ c) as u8 + 1
        })
        .collect();
    Grid::from_cells(Size::Sixteen, &cells).unwrap()
}

/// The addition table of (Z/5)² arranged as a 25×25 Sudoku.
fn z5z5() -> Grid {
    let cells: Vec<u8> = (0..625)
        .map(|i| {
            let (r, c) = (i / 25, i % 25);
            let (a, b, d, e) = (r % 5, r / 5, c / 5, c % 5);
            (((a + d) % 5) * 5 + (b + e) % 5) as u8 + 1
        })
        .collect();
    Grid::from_cells(Size::TwentyFive, &cells).unwrap()
}

/// A random Latin square of order `k`.
fn latin(k: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<usize>> {
    'again: loop {
        let mut l = vec![vec![usize::MAX; k]; k];
        for x in 0..k {
            for y in 0..k {
                let free: Vec<usize> = (0..k)
                    .filter(|&v| (0..y).all(|z| l[x][z] != v) && (0..x).all(|z| l[z][y] != v))
                    .collect();
                if free.is_empty() {
                    continue 'again;
                }
                l[x][y] = free[rng.random_range(0..free.len())];
            }
        }
        return l;
    }
}

/// A product grid: the symbol of row `i` of band `b`, column `j` of stack `s` is
/// `X_b(i, s)·k + Y(b, j)` for random Latin squares of order `k` (a different `X_b` for each
/// band): very regular, yet with few automorphisms, so refinement helps little and so
/// does pruning.
fn product(size: Size, rng: &mut ChaCha8Rng) -> Grid {
    let (n, k) = (size.side(), size.box_rows());
    let xs: Vec<Vec<Vec<usize>>> = (0..k).map(|_| latin(k, rng)).collect();
    let y = latin(k, rng);
    let cells: Vec<u8> = (0..n * n)
        .map(|at| {
            let (r, c) = (at / n, at % n);
            let (b, i, s, j) = (r / k, r % k, c / k, c % k);
            (xs[b][i][s] * k + y[b][j]) as u8 + 1
        })
        .collect();
    Grid::from_cells(size, &cells).unwrap()
}

/// The grid with the cells where `f(row, col, value)` holds emptied.
fn without(g: &Grid, f: impl Fn(usize, usize, u8) -> bool) -> Grid {
    let n = g.size().side();
    let cells: Vec<u8> = g
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &v)| if f(i / n, i % n, v) { 0 } else { v })
        .collect();
    Grid::from_cells(g.size(), &cells).unwrap()
}

/// The grid with each cell kept with probability `keep`.
fn blank(g: &Grid, keep: f64, rng: &mut ChaCha8Rng) -> Grid {
    let cells: Vec<u8> = g
        .cells()
        .iter()
        .map(|&v| if rng.random::<f64>() < keep { v } else { 0 })
        .collect();
    Grid::from_cells(g.size(), &cells).unwrap()
}

/// Checks everything a canonical form promises for `g`, with `transforms` random images;
/// returns the form.
fn check(g: &Grid, transforms: usize, rng: &mut ChaCha8Rng) -> Grid {
    let t = canonical_transform(g).expect("within the budget");
    let c = t.apply(g).unwrap();
    assert_eq!(canonical_form(g).as_ref(), Some(&c), "{g}");
    assert_eq!(canonical_form(&c).as_ref(), Some(&c), "not idempotent: {g}");
    assert_eq!(c.clue_count(), g.clue_count());
    assert_eq!(c.is_consistent(), g.is_consistent());
    for _ in 0..transforms {
        let moved = Transform::random(g.size(), rng).apply(g).unwrap();
        assert_eq!(canonical_form(&moved).as_ref(), Some(&c), "{g}\n{moved}");
    }
    c
}

/// For every pair of symbols, how many mini-rows and mini-columns (the line segments inside
/// a box) hold both, sorted: invariant under every transformation, so grids where it
/// differs are not equivalent.
fn pair_profile(g: &Grid) -> Vec<usize> {
    let n = g.size().side();
    let k = g.size().box_rows();
    let mut count = vec![0usize; 26 * 26];
    for line in 0..n {
        for seg in 0..k {
            let row: Vec<u8> = (0..k).filter_map(|i| g.get(line, seg * k + i)).collect();
            let col: Vec<u8> = (0..k).filter_map(|i| g.get(seg * k + i, line)).collect();
            for part in [row, col] {
                for &a in &part {
                    for &b in &part {
                        if a < b {
                            count[usize::from(a) * 26 + usize::from(b)] += 1;
                        }
                    }
                }
            }
        }
    }
    count.sort_unstable();
    count
}

/// A solved grid with a deadly rectangle (two rows of a band, two columns of different
/// stacks, symbols `a b / b a`) swapped: another valid solved grid.
fn deadly_swap(g: &Grid) -> Option<Grid> {
    let n = g.size().side();
    let k = g.size().box_rows();
    for r1 in 0..n {
        for r2 in r1 + 1..(r1 / k + 1) * k {
            for c1 in 0..n {
                for c2 in (c1 / k + 1) * k..n {
                    let (a, b) = (g.get(r1, c1), g.get(r1, c2));
                    if g.get(r2, c2) == a && g.get(r2, c1) == b {
                        let mut h = g.clone();
                        h.set(r1, c1, b).unwrap();
                        h.set(r1, c2, a).unwrap();
                        h.set(r2, c1, a).unwrap();
                        h.set(r2, c2, b).unwrap();
                        return Some(h);
                    }
                }
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn random_grids_and_puzzles_have_invariant_forms(
        seed in any::<u64>(),
        big in any::<bool>(),
        keep in prop::sample::select(vec![1.0, 0.6, 0.35]),
    ) {
        let size = if big { Size::TwentyFive } else { Size::Sixteen };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let solved = generate::solved_grid(size, &mut rng);
        let g = blank(&solved, keep, &mut rng);
        let c = check(&g, 2, &mut rng);
        prop_assert_eq!(c.is_full(), keep == 1.0);
        if keep == 1.0 {
            prop_assert!(c.is_consistent());
        }
    }

    #[test]
    fn conflicting_grids_have_invariant_forms(seed in any::<u64>(), filled in 0usize..120) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = Grid::empty(Size::Sixteen);
        for _ in 0..filled {
            let (r, c, v) = (rng.random_range(0..16), rng.random_range(0..16), rng.random_range(1..=16u8));
            g.set(r, c, Some(v)).unwrap();
        }
        check(&g, 3, &mut rng);
    }
}

#[test]
fn symmetric_grids_are_handled() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut cases: Vec<Grid> = vec![xor16(), z5z5()];
    for size in [Size::Sixteen, Size::TwentyFive] {
        let p = pattern(size);
        assert!(p.is_full() && p.is_consistent());
        let mut one = Grid::empty(size);
        one.set(3, 5, Some(2)).unwrap();
        let mut two = one.clone();
        two.set(9, 12, Some(7)).unwrap();
        cases.extend([
            Grid::empty(size),
            one,
            two,
            p.clone(),
            without(&p, |r, _, _| r < size.box_rows()),
            without(&p, |_, _, v| v == 1),
            without(&p, |_, _, v| v > 2),
            without(&p, |r, c, _| size.box_of(r, c) != 0),
            without(&p, |r, _, _| r != 0),
            without(&p, |r, c, _| r != c),
        ]);
    }
    for size in [Size::Sixteen, Size::TwentyFive] {
        let g = product(size, &mut rng);
        assert!(g.is_full() && g.is_consistent());
        cases.extend([g.clone(), without(&g, |_, c, v| c < 3 || v % 3 == 0)]);
    }
    assert!(xor16().is_consistent() && z5z5().is_consistent());
    for g in &cases {
        check(g, 3, &mut rng);
    }
    // The empty grid's form is itself; a single given becomes a 1 in the corner.
    for size in [Size::Sixteen, Size::TwentyFive] {
        assert_eq!(canonical_form(&Grid::empty(size)), Some(Grid::empty(size)));
        let mut one = Grid::empty(size);
        one.set(7, 2, Some(5)).unwrap();
        let c = canonical_form(&one).unwrap();
        assert_eq!(c.clue_count(), 1);
        assert_eq!(c.cells().iter().filter(|&&v| v == 1).count(), 1);
    }
}

#[test]
fn non_equivalent_grids_get_different_forms() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for size in [Size::Sixteen, Size::TwentyFive] {
        // A solved grid and the same grid with a deadly rectangle swapped.
        let g = generate::solved_grid(size, &mut rng);
        let h = deadly_swap(&g).expect("a random grid has a deadly rectangle");
        assert!(h.is_full() && h.is_consistent());
        assert_ne!(pair_profile(&g), pair_profile(&h), "not provably different");
        let (cg, ch) = (check(&g, 1, &mut rng), check(&h, 1, &mut rng));
        assert_ne!(cg, ch);

        // A puzzle and the same puzzle with one more given.
        let p = blank(&g, 0.5, &mut rng);
        let at = p.cells().iter().position(|&v| v == 0).unwrap();
        let n = size.side();
        let mut q = p.clone();
        q.set(at / n, at % n, g.get(at / n, at % n)).unwrap();
        assert_ne!(check(&p, 1, &mut rng), check(&q, 1, &mut rng));

        // Two givens: in one row, in one band, in one box, apart; same or different symbols.
        let mut forms: HashMap<Grid, &str> = HashMap::new();
        let layouts = [
            ("row", (0, 0, 1), (0, 9, 1)),
            ("row, two symbols", (0, 0, 1), (0, 9, 2)),
            ("band", (0, 0, 1), (1, 9, 2)),
            ("box", (0, 0, 1), (1, 1, 2)),
            ("apart", (0, 0, 1), (9, 9, 1)),
            ("apart, two symbols", (0, 0, 1), (9, 9, 2)),
        ];
        for (name, (r1, c1, v1), (r2, c2, v2)) in layouts {
            let mut g = Grid::empty(size);
            g.set(r1, c1, Some(v1)).unwrap();
            g.set(r2, c2, Some(v2)).unwrap();
            let c = check(&g, 2, &mut rng);
            assert_eq!(forms.insert(c, name), None, "{name}");
        }
        // A column pair is the transpose of a row pair: the same class.
        let mut col = Grid::empty(size);
        col.set(0, 0, Some(1)).unwrap();
        col.set(9, 0, Some(1)).unwrap();
        assert_eq!(forms.get(&check(&col, 1, &mut rng)), Some(&"row"));
    }
}

/// Not a test of speed: prints the time per canonical form (run with `--release
/// -- --ignored --nocapture`) for the numbers quoted in the docs.
#[test]
#[ignore]
fn report_times() {
    use std::time::Instant;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let count = 200;
    for size in [Size::Sixteen, Size::TwentyFive] {
        for keep in [1.0, 0.6, 0.35] {
            let grids: Vec<Grid> = (0..count)
                .map(|_| blank(&generate::solved_grid(size, &mut rng), keep, &mut rng))
                .collect();
            let t = Instant::now();
            for g in &grids {
                assert!(canonical_form(g).is_some());
            }
            println!(
                "{size} random, cells kept {keep}: {:?} per form",
                t.elapsed() / count
            );
        }
        let p = pattern(size);
        let mut one = Grid::empty(size);
        one.set(3, 5, Some(2)).unwrap();
        let group = if size == Size::Sixteen {
            xor16()
        } else {
            z5z5()
        };
        for (name, g) in [
            ("empty", Grid::empty(size)),
            ("one given", one),
            ("pattern", p.clone()),
            ("group table", group),
            ("pattern puzzle", blank(&p, 0.5, &mut rng)),
            ("product", product(size, &mut rng)),
            (
                "product puzzle",
                blank(&product(size, &mut rng), 0.5, &mut rng),
            ),
        ] {
            let t = Instant::now();
            for _ in 0..20 {
                assert!(canonical_form(&g).is_some());
            }
            println!("{size} {name}: {:?}", t.elapsed() / 20);
        }
    }
}

#[test]
#[ignore]
fn explore_structured() {
    use std::time::{Duration, Instant};
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut worst = (Duration::ZERO, String::new());
    let mut total = Duration::ZERO;
    let runs = 3000;
    for _ in 0..runs {
        let size = if rng.random::<bool>() {
            Size::Sixteen
        } else {
            Size::TwentyFive
        };
        let (n, k) = (size.side(), size.box_rows());
        let kind = rng.random_range(0..6);
        let prod = product(size, &mut rng);
        let solved = generate::solved_grid(size, &mut rng);
        let base = |r: usize, c: usize| -> u8 {
            match kind {
                0 => ((k * (r % k) + r / k + c) % n) as u8 + 1,
                1 if n == 16 => ((4 * (r % 4) + r / 4) ^ c) as u8 + 1,
                1 => {
                    let (a, b, d, e) = (r % 5, r / 5, c / 5, c % 5);
                    (((a + d) % 5) * 5 + (b + e) % 5) as u8 + 1
                }
                2 => ((r * 7 + c * 3) % n) as u8 + 1,
                3 => 1 + ((r * 31 + c * 17) % n) as u8,
                5 => prod.get(r, c).unwrap(),
                _ => solved.get(r, c).unwrap(),
            }
        };
        let bits = rng.random_range(1..=2u32);
        let classes: Vec<u8> = (0..3 * n)
            .map(|_| rng.random_range(0..(1u8 << bits)))
            .collect();
        let keep: u64 = match rng.random_range(0..3) {
            0 => rng.random(),
            1 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
            _ => !(rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>()),
        };
        let mut cells = vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                let v = base(r, c);
                let class =
                    classes[r] | classes[n + c] << 2 | classes[2 * n + usize::from(v) - 1] << 4;
                if keep >> class & 1 == 1 {
                    cells[r * n + c] = v;
                }
            }
        }
        let g = Grid::from_cells(size, &cells).unwrap();
        let t = Instant::now();
        let c = canonical_form(&g);
        let e = t.elapsed();
        total += e;
        if c.is_none() {
            println!("NONE {e:?} {g}");
        }
        if e > worst.0 {
            worst = (e, g.to_string());
        }
    }
    println!("mean {:?} worst {:?} {}", total / runs, worst.0, worst.1);
}
