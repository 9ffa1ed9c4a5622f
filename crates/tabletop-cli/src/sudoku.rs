//! `tabletop sudoku`: Sudoku tools: solve, count, generate, bench, show.

use clap::Args;

use crate::common::CliResult;

/// Arguments of `tabletop sudoku`.
#[derive(Args, Debug)]
pub struct SudokuArgs {}

/// Runs `tabletop sudoku`.
pub fn run(_args: SudokuArgs) -> CliResult {
    println!("Sudoku is coming: solve, count, generate, bench and show will live here.");
    Ok(())
}
