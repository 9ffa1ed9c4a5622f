//! Full-screen play on ratatui + crossterm.
//!
//! The host (`app`) owns the terminal, the title and status lines, the help overlay, the
//! menu and the save/load dialogs; each game is a [`GameScreen`] that draws its board and
//! turns keys and mouse events into engine calls. Like the rest of the CLI, a screen holds
//! no rules logic: it asks the engine what is legal and draws the answer.
//!
//! Keys the host handles when a screen leaves an event unhandled: `?`/F1 help, Esc/F2
//! menu, `q` quit, Ctrl-C quit at once, `u` undo, `U`/Ctrl-R redo, Ctrl-S save, Ctrl-O
//! load, `n` new game. Screens use arrows/hjkl to move, Enter/Space to act and `t` for a
//! hint (`h` is taken by hjkl).

pub mod app;
pub mod battleship;
pub mod draw;
pub mod nardy;
#[cfg(feature = "server")]
pub mod online;
#[cfg(all(test, feature = "server"))]
pub mod online_testing;
pub mod reversi;
pub mod screen;
pub mod sudoku;
#[cfg(test)]
pub mod testing;
pub mod theme;
pub mod worker;

use crate::common::CliResult;

pub use app::{App, GameEntry};
pub use screen::{Choice, Ctx, GameScreen, Handled, Placeholder, plain_key};
pub use theme::{Theme, ThemeKind, Tone};

/// Whether to open full screen: stdin and stdout are terminals and `--plain` is not given.
pub fn full_screen_wanted(plain: bool) -> bool {
    use std::io::IsTerminal;
    !plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Plays `screen` full screen until the player quits (the host: terminal set-up and
/// restore, title/status lines, help, menu, save/load dialogs).
pub fn run(screen: Box<dyn GameScreen>) -> CliResult {
    app::run(App::new(screen, ThemeKind::from_env()))
}

/// `tabletop` alone on a terminal: a menu of `games` (the list is `main.rs`'s).
pub fn run_menu(games: Vec<GameEntry>) -> CliResult {
    app::run(App::games(games, ThemeKind::from_env()))
}
