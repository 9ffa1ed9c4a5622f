//! Sudoku logic benchmarks (criterion): rating a magictour puzzle, generating a `hard`
//! puzzle, and a hint on a mid-game grid.
//!
//! The magictour set is read from `data/sudoku/`; a missing file stops the benchmark with
//! an error.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::sudoku::logic::generate_level::puzzle_of_level;
use tabletop::sudoku::logic::{Difficulty, LogicSolver, hint, rate};
use tabletop::sudoku::{GenerateOptions, Grid, puzzle_lines};

fn magictour(n: usize) -> Vec<Grid> {
    let path = format!(
        "{}/data/sudoku/puzzles3_magictour_top1465.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the dataset {path}: {e}"));
    puzzle_lines(&text)
        .take(n)
        .map(|l| l.grid.unwrap_or_else(|e| panic!("{path}:{}: {e}", l.line)))
        .collect()
}

fn logic(c: &mut Criterion) {
    let puzzles = magictour(50);
    let mut group = c.benchmark_group("sudoku_logic");
    let mut i = 0;
    group.bench_function("rate_magictour_puzzle", |b| {
        b.iter(|| {
            i = (i + 1) % puzzles.len();
            rate(black_box(&puzzles[i])).expect("proper")
        })
    });
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    group.bench_function("generate_hard", |b| {
        b.iter(|| {
            puzzle_of_level(
                Difficulty::Hard,
                &GenerateOptions::default(),
                1000,
                &mut rng,
            )
            .expect("a hard puzzle")
        })
    });
    // Mid-game: the first magictour puzzle after half of its logical path.
    let p = &puzzles[0];
    let path = LogicSolver::new().solve(p).expect("proper");
    let mut cells = p.cells().to_vec();
    for s in &path.steps[..path.steps.len() / 2] {
        for &(c, d) in &s.placements {
            cells[c] = d;
        }
    }
    let mid = Grid::from_cells(p.size(), &cells).expect("a grid");
    group.bench_function("hint_mid_game", |b| {
        b.iter(|| hint(black_box(p), black_box(&mid)).expect("proper"))
    });
    group.finish();
}

criterion_group!(benches, logic);
criterion_main!(benches);
