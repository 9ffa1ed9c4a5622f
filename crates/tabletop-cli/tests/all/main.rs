//! The integration tests of the `tabletop` command, one module per file, built into one test
//! binary: one link instead of one per file, and the shared dependencies' generic code
//! compiled once.

#[path = "../support/pty.rs"]
mod pty;
#[path = "../support/mod.rs"]
mod support;

mod battleship;
mod cli;
#[cfg(feature = "server")]
mod loadtest_cluster;
mod nardy;
mod nardy_ai;
#[cfg(feature = "server")]
mod online;
#[cfg(feature = "server")]
mod online_records;
#[cfg(feature = "server")]
mod online_tls;
mod readme;
mod reversi;
mod reversi_ai;
#[cfg(feature = "server")]
mod serve;
#[cfg(feature = "server")]
mod serve_web;
mod sudoku;
mod sudoku_play;
mod terminal;
mod tui;
mod tui_battleship;
mod tui_nardy;
#[cfg(feature = "server")]
mod tui_online;
#[cfg(feature = "server")]
mod tui_online_battleship;
mod tui_sudoku;
mod usage;
