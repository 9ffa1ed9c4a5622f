//! `tabletop battleship`: Battleship in the terminal and its tools.

use clap::Args;

use crate::common::CliResult;

/// Arguments of `tabletop battleship`.
#[derive(Args, Debug)]
pub struct BattleshipArgs {}

/// Runs `tabletop battleship`.
pub fn run(_args: BattleshipArgs) -> CliResult {
    println!("Battleship is coming: play, sim, place and count-fleets will live here.");
    Ok(())
}
