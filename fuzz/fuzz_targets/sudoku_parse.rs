//! Fuzzes the Sudoku line parser: any text either parses into a grid that prints back to
//! an equivalent line, or gives an error; never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::{Grid, puzzle_lines};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in puzzle_lines(text) {
        if let Ok(grid) = line.grid {
            let printed = grid.to_string();
            let back: Grid = printed.parse().expect("printed grids parse");
            assert_eq!(back, grid);
            let _ = grid.pretty().to_string();
            let _ = grid.conflicts();
        }
    }
    let _ = text.parse::<Grid>();
});
