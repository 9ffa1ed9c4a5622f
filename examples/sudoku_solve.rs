//! Solves a Sudoku puzzle given on the command line (or a built-in one) and draws it.
//!
//! ```sh
//! cargo run --release --example sudoku_solve -- '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
//! ```

use tabletop::sudoku::{Grid, SolveError};

fn main() {
    let line = std::env::args().nth(1).unwrap_or_else(|| {
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..".into()
    });
    let puzzle: Grid = match line.parse() {
        Ok(grid) => grid,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "Puzzle ({} clues):\n{}",
        puzzle.clue_count(),
        puzzle.pretty()
    );
    for conflict in puzzle.conflicts() {
        println!("conflict: {conflict}");
    }
    match puzzle.solve_unique() {
        Ok(solution) => println!("Unique solution:\n{}\n{solution}", solution.pretty()),
        Err(SolveError::NoSolution) => println!("No solution."),
        Err(SolveError::MultipleSolutions) => {
            let n = puzzle.count_solutions(1000);
            let some = puzzle.solve_one().expect("several solutions exist");
            let counted = if n == 1000 {
                "at least 1000".into()
            } else {
                n.to_string()
            };
            println!("{counted} solutions, for example:\n{}", some.pretty());
        }
    }
}
