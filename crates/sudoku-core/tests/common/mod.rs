//! Helpers shared by the integration tests.

#![allow(dead_code)]

use sudoku_core::{Grid, puzzle_lines};

/// The path of a dataset file in the repository's `data/sudoku/`; fails the test when the
/// file is missing.
pub fn data_path(name: &str) -> String {
    let path = format!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/sudoku/{}"),
        name
    );
    assert!(
        std::path::Path::new(&path).is_file(),
        "dataset {path} is missing (see data/sudoku/README.md)"
    );
    path
}

/// The first `n` puzzles of a dataset; panics (fails the test) when the file is missing.
pub fn sample(name: &str, n: usize) -> Vec<Grid> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("dataset {path} is missing or unreadable: {e}"));
    let puzzles: Vec<Grid> = puzzle_lines(&text)
        .take(n)
        .map(|l| l.grid.unwrap_or_else(|e| panic!("{path}:{}: {e}", l.line)))
        .collect();
    assert!(!puzzles.is_empty(), "{path} holds no puzzles");
    puzzles
}

/// A solved grid of any size by the classic shifting pattern.
pub fn pattern_solution(size: sudoku_core::Size) -> Grid {
    let n = size.side();
    let (br, bc) = (size.box_rows(), size.box_cols());
    let cells: Vec<u8> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((r % br * bc + r / br + c) % n) as u8 + 1
        })
        .collect();
    Grid::from_cells(size, &cells).unwrap()
}
