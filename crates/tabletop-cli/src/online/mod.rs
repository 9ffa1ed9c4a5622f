//! Online play: `tabletop GAME --connect ws://HOST:PORT` plays a table of `tabletop serve`,
//! the other player being a seat of the server's table like any other.
//!
//! The flags ([`ConnectArgs`]) exist in every build so the command line is the same; the
//! client itself needs the `server` feature. Files: [`identity`] keeps the guest token,
//! [`link`] is the WebSocket with its reconnection, [`client`] the state of one game (the
//! start, the views and events, the move in flight, the dice seed and the dice check at
//! the end), [`lines`] the line mode's command loop, [`remote`] what a game gives them,
//! and one file per game says how its views, events and typed moves read. [`tls`] makes
//! `wss://` connections; [`records`] is `tabletop online history|download`. After a game
//! the client offers its rematch (`client/rematch.rs`).
//!
//! On a terminal (not `--plain`), all four games play online full screen
//! (`tui::nardy::online`, `tui::reversi::online`, `tui::battleship::online`,
//! `tui::sudoku::online`, sharing `tui::online::Session`): the same boards as offline,
//! drawn from the server's `TableView` instead of a local `Table<G>`, moves sent through
//! the link, the link's notes drained on each tick, and undo, save, new game and the
//! settings off. Battleship checks the fleets of the end against the server's
//! commitments ([`battleship::check_fleets`]).

use std::path::PathBuf;

use clap::Args;

#[cfg(feature = "server")]
pub(crate) mod battleship;
#[cfg(feature = "server")]
pub mod client;
#[cfg(feature = "server")]
mod identity;
#[cfg(feature = "server")]
mod lines;
#[cfg(feature = "server")]
pub(crate) mod link;
#[cfg(feature = "server")]
pub(crate) mod nardy;
#[cfg(feature = "server")]
pub mod records;
#[cfg(feature = "server")]
pub(crate) mod remote;
#[cfg(feature = "server")]
pub(crate) mod reversi;
#[cfg(feature = "server")]
pub(crate) mod sudoku;
#[cfg(feature = "server")]
pub(crate) mod tls;

#[cfg(feature = "server")]
pub use battleship::play as battleship;
#[cfg(feature = "server")]
pub use nardy::play as nardy;
#[cfg(feature = "server")]
pub use reversi::play as reversi;
#[cfg(feature = "server")]
pub use sudoku::play as sudoku;

/// The flags of online play, shared by the four games.
#[derive(Args, Debug, Clone, Default)]
pub struct ConnectArgs {
    /// Play online at a `tabletop serve` server, e.g. ws://127.0.0.1:8080 (or wss://HOST
    /// behind a TLS proxy): makes a table
    /// and prints the invite code for the other player (see --invite and --table).
    #[arg(long, value_name = "URL")]
    pub connect: Option<String>,
    /// With --connect: join the table of this invite code.
    #[arg(
        long,
        value_name = "CODE",
        requires = "connect",
        conflicts_with = "table"
    )]
    pub invite: Option<String>,
    /// With --connect: come back to this table (its id was printed when it started), or
    /// watch it.
    #[arg(long, value_name = "ID", requires = "connect")]
    pub table: Option<String>,
    /// With --connect, for a new table: a chess clock of MIN minutes a side plus INC
    /// seconds a move, e.g. 5+3 (the server records a loss on time).
    #[arg(long, value_name = "MIN[+INC]", requires = "connect", value_parser = parse_clock)]
    pub clock: Option<(u64, u64)>,
    /// With --connect: the file that keeps your identity on the server [default:
    /// tabletop/identity.json in your data folder, or $TABLETOP_IDENTITY].
    #[arg(long, value_name = "FILE", requires = "connect")]
    pub identity: Option<PathBuf>,
    /// With a wss:// --connect: also trust the CA certificates of this PEM file (a
    /// server behind a proxy with a private CA) [default: $SSL_CERT_FILE].
    #[arg(long, value_name = "FILE", requires = "connect")]
    pub ca_cert: Option<PathBuf>,
}

/// `5+3`: minutes a side and seconds added a move (up to a day and an hour).
fn parse_clock(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{text}' is not a clock: use MIN or MIN+INC, like 5+3");
    let (minutes, increment) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: u64 = minutes.trim().parse().map_err(|_| bad())?;
    let increment: u64 = increment.trim().parse().map_err(|_| bad())?;
    if !(1..=24 * 60).contains(&minutes) || increment > 3600 {
        return Err(format!(
            "'{text}': a clock has 1 to 1440 minutes and an increment up to 3600 s"
        ));
    }
    Ok((minutes, increment))
}

impl ConnectArgs {
    /// Whether online play is asked for.
    pub fn is_set(&self) -> bool {
        self.connect.is_some()
    }
}

/// The error of `--connect` in a build without network play.
#[cfg(not(feature = "server"))]
pub fn unavailable() -> crate::common::CliError {
    crate::common::CliError::usage(
        "this tabletop was built without network play (cargo feature `server`)",
    )
}
