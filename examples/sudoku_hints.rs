//! Hints and the logical solution of a puzzle, step by step.
//!
//! `cargo run --example sudoku_hints [PUZZLE]` (a line of 81 characters, `.` for empty)
//! prints a hint for a grid with a wrong entry, then every step of the simplest-first
//! solution and the rating.

use sudoku_core::logic::{LogicSolver, Rating, hint};
use sudoku_core::{Grid, cell_name};

fn main() {
    let line = std::env::args().nth(1).unwrap_or_else(|| {
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
            .to_string()
    });
    let puzzle: Grid = match line.parse() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("not a puzzle: {e}");
            std::process::exit(2);
        }
    };
    let solution = match puzzle.solve_unique() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    print!("{}", puzzle.pretty());

    // A player's grid with one wrong entry: the hint names it before anything else.
    let mut cells = puzzle.cells().to_vec();
    let cell = cells.iter().position(|&v| v == 0).expect("an empty cell");
    cells[cell] = solution.cells()[cell] % 9 + 1;
    let entered = Grid::from_cells(puzzle.size(), &cells).expect("a grid");
    println!(
        "\nWith {} in {}: {}",
        cells[cell],
        cell_name(puzzle.size(), cell),
        hint(&puzzle, &entered).expect("proper")
    );
    println!(
        "Hint for the puzzle: {}\n",
        hint(&puzzle, &puzzle).expect("proper")
    );

    let path = LogicSolver::new().solve(&puzzle).expect("proper");
    for (i, step) in path.steps.iter().enumerate() {
        println!("{:3}. {step}", i + 1);
    }
    println!("\n{}", Rating::of_path(&path));
}
