//! `tabletop reversi`: Reversi / Othello in the terminal and its tools.

use clap::Args;

use crate::common::CliResult;

/// Arguments of `tabletop reversi`.
#[derive(Args, Debug)]
pub struct ReversiArgs {}

/// Runs `tabletop reversi`.
pub fn run(_args: ReversiArgs) -> CliResult {
    println!(
        "Reversi is coming: play against the computer, perft, replay and show will live here."
    );
    Ok(())
}
