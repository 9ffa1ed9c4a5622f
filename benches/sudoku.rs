//! Sudoku benchmarks (criterion): solving with a count up to two solutions over samples of
//! the standard benchmark sets, generation of minimal puzzles, and solved grids (exactly
//! uniform ones of 4×4, 6×6 and 9×9, and the old non-uniform scattered 9×9 method).
//!
//! The sets are read from the repository's `data/sudoku/`; a missing file stops the
//! benchmark with an error.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::sudoku::{GenerateOptions, Grid, Size, Symmetry, generate, puzzle_lines};

fn sample(name: &str, n: usize) -> Vec<Grid> {
    let path = format!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sudoku/{}"), name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the dataset {path}: {e}"));
    puzzle_lines(&text)
        .take(n)
        .map(|l| l.grid.unwrap_or_else(|e| panic!("{path}:{}: {e}", l.line)))
        .collect()
}

fn solve_count2(c: &mut Criterion) {
    let sets = [
        ("17_clue", "puzzles2_17_clue.txt", 1000),
        ("magictour_top1465", "puzzles3_magictour_top1465.txt", 500),
        (
            "forum_hardest_1905_11+",
            "puzzles5_forum_hardest_1905_11+.txt",
            200,
        ),
    ];
    let mut group = c.benchmark_group("sudoku_count2");
    for (label, file, n) in sets {
        let puzzles = sample(file, n);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut unique = 0;
                for p in &puzzles {
                    unique += usize::from(black_box(p).count_solutions(2) == 1);
                }
                assert_eq!(unique, puzzles.len());
                unique
            })
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku_generate");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    group.bench_function("minimal_9x9", |b| {
        let options = GenerateOptions {
            minimal: true,
            ..GenerateOptions::default()
        };
        b.iter(|| generate::puzzle(black_box(&options), &mut rng))
    });
    group.bench_function("minimal_9x9_rotate180", |b| {
        let options = GenerateOptions {
            minimal: true,
            symmetry: Symmetry::Rotate180,
            ..GenerateOptions::default()
        };
        b.iter(|| generate::puzzle(black_box(&options), &mut rng))
    });
    for size in [Size::Four, Size::Six, Size::Nine] {
        let n = size.side();
        group.bench_function(format!("uniform_grid_{n}x{n}"), |b| {
            b.iter(|| generate::solved_grid(black_box(size), &mut rng))
        });
    }
    group.bench_function("scattered_grid_9x9", |b| {
        b.iter(|| generate::scattered_grid(black_box(Size::Nine), &mut rng))
    });
    group.finish();
}

criterion_group!(benches, solve_count2, generation);
criterion_main!(benches);
