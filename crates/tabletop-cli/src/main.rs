//! `tabletop`: play Long Nardy, Sudoku, Battleship and Reversi in a terminal, and use the
//! engines' tools (solve, generate, perft, simulate).
//!
//! The command holds no rules logic: it parses arguments, calls the engine crates and
//! renders their answers. Conventions shared by every game live in [`common`].

mod battleship;
#[allow(dead_code)] // the game subcommands adopt these helpers as they land
mod common;
#[cfg(feature = "server")]
mod loadtest;
mod nardy;
mod online;
mod reversi;
#[cfg(feature = "server")]
mod serve;
mod spec;
mod sudoku;
#[cfg(test)]
mod test_support;
#[allow(dead_code)] // the host and the four screens land on branches tui*
mod tui;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Play Long Nardy, Sudoku, Battleship and Reversi in a terminal, and use the engines'
/// tools.
///
/// Interactive play reads one command per line from standard input, so a session can be
/// scripted: `printf 'f5\nquit\n' | tabletop reversi play`.
#[derive(Parser, Debug)]
#[command(name = "tabletop", version, propagate_version = true)]
struct Cli {
    /// Keep to line mode (one command per line) even on a terminal; pipes always use it.
    #[arg(long, global = true)]
    plain: bool,
    /// Print the command-line definition as JSON (for the tests of the usage errors).
    #[arg(long, hide = true)]
    cli_spec: bool,
    #[command(subcommand)]
    game: Option<Game>,
}

#[derive(Subcommand, Debug)]
enum Game {
    /// Long Nardy (Russian long backgammon): play, list legal turns, perft.
    Nardy(nardy::NardyArgs),
    /// Sudoku: play a puzzle; hints, step-by-step explanations, ratings; solve, count,
    /// generate, benchmark and show puzzles.
    Sudoku(sudoku::SudokuArgs),
    /// Battleship (Russian or classic rules): play, simulate shooters, draw fleets.
    Battleship(battleship::BattleshipArgs),
    /// Reversi / Othello: play against the computer or a friend, perft, replay, show.
    Reversi(reversi::ReversiArgs),
    /// Network play: serve tables of the four games over WebSockets (docs/server.md).
    #[cfg(feature = "server")]
    Serve(serve::ServeArgs),
    /// Load test of a server on this machine: pairs of clients play the four games,
    /// dropping and remaking connections, then one line of results.
    #[cfg(feature = "server")]
    Loadtest(loadtest::LoadtestArgs),
    /// Your finished games at a server: history, and download a save.
    #[cfg(feature = "server")]
    Online(online::records::OnlineArgs),
}

/// The games menu of `tabletop` alone on a terminal, in order: name, one line about the
/// game, its full screen with the default settings.
const GAMES: [tui::GameEntry; 4] = [
    tui::GameEntry {
        name: "Long Nardy",
        about: "Russian long backgammon, against a bot or a friend",
        make: tui::nardy::default_screen,
    },
    tui::GameEntry {
        name: "Sudoku",
        about: "Easy to extreme puzzles, pencil marks, logical hints",
        make: tui::sudoku::default_screen,
    },
    tui::GameEntry {
        name: "Battleship",
        about: "Place your fleet, then sink the computer's",
        make: tui::battleship::default_screen,
    },
    tui::GameEntry {
        name: "Reversi",
        about: "Othello: outflank and flip, against a bot or a friend",
        make: tui::reversi::default_screen,
    },
];

fn main() -> ExitCode {
    common::install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::CommandFactory;
            return common::report_usage_error(&err, &Cli::command());
        }
    };
    if cli.cli_spec {
        use clap::CommandFactory;
        return match spec::print(Cli::command()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => err.report(),
        };
    }
    let full_screen = tui::full_screen_wanted(cli.plain);
    let result = match cli.game {
        // `tabletop` alone: the menu of the four games on a terminal, help otherwise.
        None if full_screen => tui::run_menu(GAMES.to_vec()),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            return ExitCode::from(common::EXIT_USAGE);
        }
        Some(Game::Nardy(args)) => nardy::run(args, full_screen),
        Some(Game::Sudoku(args)) => sudoku::run(args, full_screen),
        Some(Game::Battleship(args)) => battleship::run(args, full_screen),
        Some(Game::Reversi(args)) => reversi::run(args, full_screen),
        #[cfg(feature = "server")]
        Some(Game::Serve(args)) => serve::run(args),
        #[cfg(feature = "server")]
        Some(Game::Loadtest(args)) => loadtest::run(args),
        #[cfg(feature = "server")]
        Some(Game::Online(args)) => online::records::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => err.report(),
    }
}
