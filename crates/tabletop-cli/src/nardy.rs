//! `tabletop nardy`: Long Nardy in the terminal and its tools.

use clap::Args;

use crate::common::CliResult;

/// Arguments of `tabletop nardy`.
#[derive(Args, Debug)]
pub struct NardyArgs {}

/// Runs `tabletop nardy`.
pub fn run(_args: NardyArgs) -> CliResult {
    println!("Long Nardy is coming: play, moves and perft will live here.");
    Ok(())
}
