//! `tabletop serve`: network play. Runs the `tabletop-server` library on a Tokio runtime
//! until Ctrl-C (or SIGTERM), logging with `tracing` to stderr (`RUST_LOG` sets the
//! level, `info` by default). docs/server.md tells how to run it for real.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use tabletop_server::{Config, Server, WebApp};

use crate::common::{CliError, CliResult};

/// Arguments of `tabletop serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on; port 0 takes any free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Database: sqlite://PATH or postgres://USER:PASSWORD@HOST/DB [default: a SQLite
    /// file in your data folder].
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Bots thinking at once [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    bot_threads: Option<u16>,
    /// Seconds a player may stay away from a game in progress before the opponent may
    /// claim it.
    #[arg(long, value_name = "S", default_value_t = 60,
          value_parser = clap::value_parser!(u32).range(1..=86_400))]
    grace_seconds: u32,
    /// Serve the browser app at / from this folder (web/ after its build) instead of
    /// the copy built into this binary.
    #[arg(long, value_name = "DIR")]
    web: Option<PathBuf>,
}

/// The database URL without a password, for the log.
fn shown(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let (head, tail) = url.split_at(scheme + 3);
            let creds = &tail[..at - scheme - 3];
            let user = creds.split(':').next().unwrap_or("");
            format!("{head}{user}:***{}", &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// Runs the server until it is stopped.
pub fn run(args: ServeArgs) -> CliResult {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    let mut config = Config {
        listen: args.listen,
        ..Config::default()
    };
    if let Some(database) = args.database {
        config.database = database;
    }
    config.grace_ms = u64::from(args.grace_seconds) * 1000;
    if let Some(n) = args.bot_threads {
        config.bot_threads = usize::from(n);
    }
    let database = shown(&config.database);
    let web = match args.web {
        Some(dir) if dir.join("index.html").is_file() => WebApp::Dir(dir),
        Some(dir) => {
            return Err(CliError::new(format!(
                "--web {}: no index.html in that folder",
                dir.display()
            )));
        }
        None => WebApp::Embedded,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async move {
        let server = Server::start_with(config, web)
            .await
            .map_err(|e| CliError::new(e.to_string()))?;
        // One line on stdout for scripts and tests; the log goes to stderr.
        println!(
            "listening on ws://{}/ (database {database})",
            server.local_addr()
        );
        stopped().await;
        tracing::info!("stopping");
        server.stop().await;
        Ok(())
    })
}

/// Waits for Ctrl-C, or SIGTERM on Unix.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn passwords_stay_out_of_the_log() {
        assert_eq!(
            shown("postgres://me:secret@db.local/tabletop"),
            "postgres://me:***@db.local/tabletop"
        );
        assert_eq!(shown("sqlite:///tmp/x.sqlite"), "sqlite:///tmp/x.sqlite");
    }
}
