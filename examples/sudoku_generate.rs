//! Generates a few minimal, symmetric 9×9 puzzles from a seed, with their solutions, and
//! shows that a random transformation keeps the canonical form; then draws exactly
//! uniform solved grids and counts how often the 4×4 ones come out.
//!
//! ```sh
//! cargo run --release --example sudoku_generate -- 42
//! ```

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::sudoku::transform::{Transform, canonical_form};
use tabletop::sudoku::{GenerateOptions, Size, Symmetry, generate};

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2024);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let options = GenerateOptions {
        symmetry: Symmetry::Rotate180,
        minimal: true,
        ..GenerateOptions::default()
    };
    for i in 1..=3 {
        let puzzle = generate::puzzle(&options, &mut rng);
        let solution = puzzle.solve_unique().expect("generated puzzles are proper");
        println!("#{i}: {puzzle} ({} clues)", puzzle.clue_count());
        println!("    {solution}");
        let moved = Transform::random(puzzle.size(), &mut rng)
            .apply(&puzzle)
            .expect("same size");
        assert_eq!(canonical_form(&moved), canonical_form(&puzzle));
        println!("    transformed: {moved} (same canonical form)");
    }
    println!("\n{}", generate::puzzle(&options, &mut rng).pretty());

    // Solved grids: every 9×9 grid has the same probability.
    let grid = generate::solved_grid(Size::Nine, &mut rng);
    println!("a uniformly random grid: {grid}");
    // The 288 solved 4×4 grids each come out about 1/288 of the time.
    let draws = 288 * 1000;
    let mut counts = std::collections::HashMap::new();
    for _ in 0..draws {
        *counts
            .entry(generate::solved_grid(Size::Four, &mut rng))
            .or_insert(0u32) += 1;
    }
    let (least, most) = (
        counts.values().min().unwrap(),
        counts.values().max().unwrap(),
    );
    println!(
        "{} different 4×4 grids in {draws} draws, each {least}–{most} times (expected 1000)",
        counts.len()
    );
}
