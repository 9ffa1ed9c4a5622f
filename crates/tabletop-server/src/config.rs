//! The server's configuration: every field has a default, so `tabletop serve` alone runs.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// How a server runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Where to listen (default `127.0.0.1:8080`; port 0 picks a free port).
    pub listen: SocketAddr,
    /// The database URL: `sqlite://PATH` or `postgres://USER:PASSWORD@HOST/DB`.
    pub database: String,
    /// How many bots may think at once (default: the number of cores).
    pub bot_threads: usize,
    /// The largest WebSocket message a client may send, in bytes.
    pub max_message_bytes: usize,
    /// Messages a client may send per second, on average (more closes the connection).
    pub messages_per_second: u32,
    /// Messages a client may send at once above that rate.
    pub message_burst: u32,
    /// How long a player may stay away from a game in progress before the opponent may
    /// claim it, in milliseconds.
    pub grace_ms: u64,
    /// With several servers on one PostgreSQL database: how long a server's lease on a
    /// table lasts (it renews it three times as often), so how soon another server
    /// takes over the tables of one that died, in milliseconds.
    pub lease_ms: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 8080)),
            database: default_database(),
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_message_bytes: 16 * 1024,
            messages_per_second: 20,
            message_burst: 60,
            grace_ms: 60_000,
            lease_ms: 10_000,
        }
    }
}

/// The user's data folder: `$XDG_DATA_HOME`, else `~/.local/share` (Linux and the
/// like), `~/Library/Application Support` (macOS), `%APPDATA%` (Windows); else the
/// current folder.
pub fn data_dir() -> PathBuf {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if cfg!(windows) {
        return env("APPDATA").unwrap_or_else(|| PathBuf::from("."));
    }
    if let Some(dir) = env("XDG_DATA_HOME") {
        return dir;
    }
    match env("HOME") {
        Some(home) if cfg!(target_os = "macos") => home.join("Library/Application Support"),
        Some(home) => home.join(".local/share"),
        None => PathBuf::from("."),
    }
}

/// The default database: `sqlite://DATA/tabletop/server.sqlite` in [`data_dir`].
pub fn default_database() -> String {
    let path = data_dir().join("tabletop").join("server.sqlite");
    format!("sqlite://{}", path.display())
}
