//! Fuzzes the solvers on arbitrary grids: they must not panic nor hang, every solution must
//! keep the givens, and the fast 9×9 solver must agree with the general one.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::{Backend, Grid, Size, Solver};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let size = Size::ALL[usize::from(which) % Size::ALL.len()];
    let n = size.side();
    // One byte per cell; values above N mean an empty cell, so sparse grids are common.
    let cells: Vec<u8> = (0..size.cells())
        .map(|i| {
            let b = rest.get(i).copied().unwrap_or(0);
            if usize::from(b % 32) <= n { b % 32 } else { 0 }
        })
        .collect();
    let grid = Grid::from_cells(size, &cells).expect("values are in range");
    let budget = if n > 9 { 200 } else { 2_000 };
    let solver = Solver::new().node_limit(budget);
    let Ok(solutions) = solver.solutions(&grid, 3) else {
        return;
    };
    for s in &solutions {
        assert!(s.is_solution_of(&grid), "{grid} -> {s}");
    }
    if !grid.is_consistent() {
        assert!(solutions.is_empty(), "{grid}");
    }
    if size == Size::Nine {
        let general = Solver::new().backend(Backend::General).node_limit(budget);
        if let Ok(count) = general.count(&grid, 3) {
            assert_eq!(count, solutions.len(), "{grid}");
        }
    }
});
